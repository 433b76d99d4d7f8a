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


def test_work_lists_keep_groups_whole_and_every_claim_is_taken_once(real_warehouse):
    """Each (family, unit) group of claims goes whole to one list, the largest first; the
    processes then take every claim exactly once: their own list's from the head, then the
    rest of the others' from the end."""
    import multiprocessing as mp

    from pipeline.report import verdicts

    record = open_record(str(real_warehouse.db))
    chk = IndexedChecker(record)
    claims = sorted((c for c in record.claims.values() if record.active(c)), key=lambda c: c.id)
    lists = verdicts.work_lists(chk, claims, 2)
    assert sorted(k for lst in lists for k in lst) == sorted(c.id for c in claims)
    assert all(lists)
    group = {c.id: (c.family, chk.facts(c).unit) for c in claims}
    assert not {group[k] for k in lists[0]} & {group[k] for k in lists[1]}
    state = mp.get_context("fork").Array("i", [x for lst in lists for x in (0, len(lst))])
    verdicts._SHARED.update(lists=lists, state=state)
    try:
        first = [verdicts._take(0) for _ in range(len(lists[0]))]
        assert first == lists[0]                           # its own list, in order
        stolen = verdicts._take(0)
        assert stolen == lists[1][-1]                      # then the other's last claim
        rest = [verdicts._take(1) for _ in range(len(lists[1]) - 1)]
        assert rest == lists[1][:-1] and verdicts._take(1) is None and verdicts._take(0) is None
    finally:
        verdicts._SHARED.clear()


def test_checks_in_two_processes_answer_as_in_one(real_warehouse, monkeypatch, tmp_path):
    """``judge_all`` over two forked processes (each on its work list, then on the rest)
    gives every claim the verdict one process gives."""
    from pipeline.judged import Judged
    from pipeline.report import verdicts

    record = open_record(str(real_warehouse.db))
    claims = sorted((c for c in record.claims.values() if record.active(c)),
                    key=lambda c: c.id)[::5]
    assert len({(c.family, c.unit) for c in claims}) > 3
    monkeypatch.setattr(verdicts, "PARALLEL_FROM", 1)
    one = verdicts.judge_all(record, claims, 1, Judged(None))
    two = verdicts.judge_all(record, claims, 2, Judged(None))
    assert list(two) == [c.id for c in claims]
    assert {k: v.to_dict() for k, v in two.items()} == {k: v.to_dict() for k, v in one.items()}
