"""The check verdict of every figure the report shows outside primary documents.

Each verdict compares one figure with every primary figure of its family (``Checker``), so
a large warehouse spends most of its report here: 228 secondary figures against ~4,500
primary figures each is ~1M comparisons. Two things keep that bounded without changing a
verdict:

* ``IndexedChecker`` finds a figure's candidates in an index built once, by the same
  (family, unit) key and in the same order as ``Checker._candidates``, instead of walking
  every primary figure per claim (what ``SqlChecker`` overrides for the warehouse, here
  for a loaded record);
* above ``PARALLEL_FROM`` figures, the checks run in ``workers`` forked processes that
  share the loaded record copy-on-write, each on its own list of whole groups of claims
  (``work_lists``: what a process works out of a primary figure is then worked out in one
  process, not in each), then on what the others have left; each returns its verdicts by
  claim id;
* a verdict worked out once for the warehouse's state (a report before, a trace, a page of
  `claims serve`) is taken from ``pipeline.judged`` rather than worked out again, and the
  new ones are kept there.
"""
from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
from collections import defaultdict
from typing import Iterator

import numpy as np      # (matplotlib's, which the report's charts need anyway)

from pipeline.gcpause import freeze
from pipeline.checker import COUNT_FAMILIES, MISMATCH_MIN_VALUE, Checker, Verdict
from pipeline.derived_check import judge_with_derived
from pipeline.judged import Judged, judge_many
from pipeline.model import Claim
from pipeline.record import Record

PARALLEL_FROM = 40        # fewer figures than this: checked in this process
# Young objects between two of the collector's youngest-generation collections while
# checking (Python's default: 700). A check makes ~4,000 comparisons (~12,000 objects) that
# live until its verdict is made and then are freed by reference counting; at 700 the
# collector ran ~4,000 times over the report's checks and moved the comparisons on to
# older generations, whose collections walk every object the checks keep (0.45 of ~6
# CPU-s); at 20,000, about 15 times (0.04 s). Cycles are still collected.
CHECK_GC_THRESHOLD = 20_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector's youngest-generation threshold at ``CHECK_GC_THRESHOLD`` inside the
    block (the check workers have it for their whole life: ``_check_worker``)."""
    was = _check_worker()
    try:
        yield
    finally:
        gc.set_threshold(*was)


def _check_worker() -> tuple[int, ...]:
    """A forked check worker's start (it only checks): the collector's thresholds as
    ``fewer_collections`` sets them; returns the ones it had."""
    was = gc.get_threshold()
    gc.set_threshold(max(was[0], CHECK_GC_THRESHOLD), *was[1:])
    return was


def _floats(xs) -> np.ndarray:
    """Floats in an array, NaN for None (a figure with no number: always a candidate)."""
    return np.array([np.nan if x is None else x for x in xs], dtype=float).reshape(-1)


def _top(w: tuple) -> float | None:
    """The top of a figure's rounding and generous intervals (``consistency.bounds``)."""
    return None if w[2] is None or w[4] is None else max(w[2], w[4])


class IndexedChecker(Checker):
    """``Checker`` whose candidate lists come from an index (same lists, same order), and
    whose cross-family test (``_cross_family``) is asked only of the count figures that
    may state the claim's number (``_same_number_candidates``)."""

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        idx: dict[tuple[str, str], list[Claim]] = defaultdict(list)
        for p in self.primaries:
            idx[(p.family, self.facts(p).unit)].append(p)
        self._by_key = dict(idx)
        # _cross_family reads only primary figures of the count families, and of those only
        # the ones whose number can be the claim's: their intervals, in one array each
        self._counts = [p for p in self.primaries if p.family in COUNT_FAMILIES]
        self._count_family = np.array([p.family for p in self._counts], dtype=object)
        w = [self.facts(p).witness for p in self._counts]
        self._count_lo = _floats(x[1] for x in w)
        self._count_hi = _floats(_top(x) for x in w)
        self._count_value = _floats(p.value for p in self._counts)

    def _candidates(self, f: Claim) -> list[Claim]:
        return list(self._by_key.get((f.family, self.facts(f).unit), ()))

    def _same_number_candidates(self, f: Claim) -> list[Claim]:
        """The count-family primary figures of another family than ``f``'s that may state
        ``f``'s number (``checker._same_number``), in ``primaries`` order: a figure whose
        rounding intervals lie apart from ``f``'s by more than a millionth, and whose
        number is not ``f``'s, cannot (``consistency.consistent_bounds`` meets the two
        figures' intervals, widened by a billionth); a figure with an unbounded interval
        stays in. ``_same_number`` itself is then asked of each."""
        fw = self.facts(f).witness
        lo, hi = fw[1], _top(fw)
        if lo is None or hi is None or f.value is None \
                or not (np.isfinite(lo) and np.isfinite(hi) and np.isfinite(f.value)):
            return [p for p in self._counts if p.family != f.family]
        plo, phi, pv = self._count_lo, self._count_hi, self._count_value
        with np.errstate(invalid="ignore", over="ignore"):
            slack = 1e-6 * np.maximum.reduce([np.ones_like(plo), np.abs(plo), np.abs(phi),
                                              np.full_like(plo, abs(lo)),
                                              np.full_like(plo, abs(hi))])
            near = ((plo <= hi + slack) & (phi >= lo - slack)) | (np.abs(pv - f.value) <= slack)
            near |= ~(np.isfinite(plo) & np.isfinite(phi) & np.isfinite(pv))
        near &= self._count_family != f.family
        counts = self._counts
        return [counts[i] for i in np.flatnonzero(near)]

    def _cross_family(self, f: Claim):
        saved = self.primaries
        self.primaries = self._counts
        if f.family in COUNT_FAMILIES and abs(f.value) >= MISMATCH_MIN_VALUE:
            self.primaries = self._same_number_candidates(f)
        try:
            return super()._cross_family(f)
        finally:
            self.primaries = saved


_SHARED: dict = {}        # the record, checker and work lists a forked worker inherits


def work_lists(checker: IndexedChecker, claims: list[Claim], workers: int) -> list[list[str]]:
    """The claim ids each of ``workers`` processes starts on: the claims grouped by the
    primary figures they are compared with (their family and unit, ``_candidates``), each
    group whole to one process, the largest first to the least loaded (a group's cost
    taken as its claims times its candidates). A process works out what it reads of a
    primary figure (its facts' lead-in, cause text, phase, configuration: ~1 s for this
    warehouse's families) once per process, so a group checked in one process is worked out
    once, not in each; the largest groups come first in a list, so what another process
    takes from its end when it runs out (``_take``) is the smaller groups."""
    groups: dict[tuple, list[str]] = defaultdict(list)
    size: dict[tuple, int] = {}
    for c in claims:
        key = (c.family, checker.facts(c).unit)
        groups[key].append(c.id)
        size[key] = len(checker._by_key.get(key, ())) + 1
    lists: list[list[str]] = [[] for _ in range(workers)]
    load = [0] * workers
    for key in sorted(groups, key=lambda k: (-len(groups[k]) * size[k], k)):
        i = min(range(workers), key=lambda j: (load[j], j))
        lists[i] += groups[key]
        load[i] += len(groups[key]) * size[key]
    return lists


def _take(slot: int) -> str | None:
    """The next claim for the process on list ``slot``: the head of its own list, else
    the last claim of the list with the most left (one claim at a time: a figure costs
    1 ms to 1 s, and the estimate of a group's cost is rough); None when all are taken."""
    lists, state = _SHARED["lists"], _SHARED["state"]     # state: (next, end) per list
    with state.get_lock():
        at, end = state[2 * slot], state[2 * slot + 1]
        if at < end:
            state[2 * slot] = at + 1
            return lists[slot][at]
        left = [(state[2 * j + 1] - state[2 * j], j) for j in range(len(lists))]
        n, j = max(left)
        if n <= 0:
            return None
        state[2 * j + 1] -= 1
        return lists[j][state[2 * j + 1]]


def _judge_list(slot: int) -> list[tuple[str, Verdict]]:
    record, checker = _SHARED["record"], _SHARED["checker"]
    out = []
    while (k := _take(slot)) is not None:
        out.append((k, judge_with_derived(checker, record.claims[k])))
    return out


class Judging:
    """Verdicts being worked out: in forked processes (started at once, so the caller can
    do other work meanwhile) or, for few figures or one worker, in this process when
    ``result`` is asked for."""

    def __init__(self, record: Record, claims: list[Claim], workers: int = 1,
                 judged: Judged | None = None) -> None:
        self.record, self.ids = record, [c.id for c in claims]
        self.judged = judged if judged is not None else Judged.of_record(record)
        self.checker = IndexedChecker(record)
        # the record lives as long as the process: out of the collector's full walks,
        # here and in the workers forked below (pipeline/gcpause.py)
        freeze()
        self.kept = judge_many(self.judged, self.checker, claims)
        self.todo = [k for k in self.ids if k not in self.kept]
        self._pool = self._async = None
        if workers > 1 and len(self.todo) >= PARALLEL_FROM \
                and "fork" in mp.get_all_start_methods():
            ctx = mp.get_context("fork")
            lists = work_lists(self.checker, [record.claims[k] for k in self.todo], workers)
            state = ctx.Array("i", [x for lst in lists for x in (0, len(lst))])
            _SHARED.update(record=record, checker=self.checker, lists=lists, state=state)
            # each process on its own list, then on what is left of the others'
            self._pool = ctx.Pool(workers, initializer=_check_worker)
            self._async = self._pool.map_async(_judge_list, range(workers), chunksize=1)

    def result(self) -> dict[str, Verdict]:
        """Verdict of each claim (``judge_with_derived``), by claim id, in the claims' order."""
        if self._async is None:
            with fewer_collections():
                out = {k: judge_with_derived(self.checker, self.record.claims[k])
                       for k in self.todo}
        else:
            try:
                out = {}
                for part in self._async.get():
                    out.update(part)
            finally:
                self._pool.close()
                self._pool.join()
                self._pool = self._async = None
                _SHARED.clear()
        if out:
            self.judged.put(out)
        out.update(self.kept)
        return {k: out[k] for k in self.ids}


def judge_all(record: Record, claims: list[Claim], workers: int = 1,
              judged: Judged | None = None) -> dict[str, Verdict]:
    """Verdict of each claim (``judge_with_derived``), by claim id, in one or more processes
    (``judged``: the verdicts kept for this warehouse state; by default the record's)."""
    return Judging(record, claims, workers, judged).result()
