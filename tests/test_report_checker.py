"""The report's checker (pipeline.report.verdicts.IndexedChecker) takes shortcuts that must
change no answer: the figures of another count family that may state a claim's number are
picked by an array test before ``checker._same_number`` is asked, and the check workers run
the collector less often."""
from __future__ import annotations

import gc

from pipeline.checker import COUNT_FAMILIES, MISMATCH_MIN_VALUE, Checker, _same_number, judge_stored
from pipeline.record import open_record
from pipeline.report.verdicts import CHECK_GC_THRESHOLD, IndexedChecker, fewer_collections


def test_same_number_candidates_keep_every_figure_of_that_number(real_warehouse):
    """Every count figure of another family that ``_same_number`` finds stating the claim's
    number is a candidate (the array test only leaves out figures that cannot be), in
    ``primaries`` order; and the test does leave figures out."""
    record = open_record(str(real_warehouse.db))
    chk = IndexedChecker(record)
    claims = [c for c in record.claims.values()
              if c.family in COUNT_FAMILIES and abs(c.value) >= MISMATCH_MIN_VALUE]
    assert len(claims) > 100
    found = dropped = 0
    order = {id(p): i for i, p in enumerate(chk._counts)}
    for f in claims:
        fw = chk.facts(f).witness
        want = [p for p in chk._counts if p.family != f.family
                and _same_number(f, p, fw, chk.facts(p).witness)]
        got = chk._same_number_candidates(f)
        assert [order[id(p)] for p in got] == sorted(order[id(p)] for p in got)
        held = {id(p) for p in got}
        assert all(id(p) in held for p in want), f.id
        found += len(want)
        dropped += sum(1 for p in chk._counts if p.family != f.family) - len(got)
    assert found and dropped


def test_report_checker_answers_as_the_plain_checker(real_warehouse):
    """The report's checker (candidates from an index, the cross-family test narrowed) gives
    every secondary figure of the real corpus the verdict the plain ``Checker`` gives, and
    every seventh count figure of its primary documents read as a claim."""
    record = open_record(str(real_warehouse.db))
    claims = [c for c in record.claims.values()
              if record.role(c) != "primary" and record.active(c)]
    counts = sorted((c for c in record.claims.values()
                     if record.role(c) == "primary" and c.family in COUNT_FAMILIES),
                    key=lambda c: c.id)
    claims += counts[::7]
    assert len(claims) > 50
    plain, indexed = Checker(record), IndexedChecker(record)
    for c in claims:
        assert judge_stored(indexed, c).to_dict() == judge_stored(plain, c).to_dict(), c.id


def test_fewer_collections_raises_the_threshold_and_puts_it_back():
    was = gc.get_threshold()
    with fewer_collections():
        inside = gc.get_threshold()
    assert inside[0] == max(was[0], CHECK_GC_THRESHOLD) and inside[1:] == was[1:]
    assert gc.get_threshold() == was
