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
  share the loaded record copy-on-write; each returns its verdicts by claim id.
"""
from __future__ import annotations

import multiprocessing as mp
from collections import defaultdict

from pipeline.checker import COUNT_FAMILIES, Checker, Verdict, _unit_key, judge_stored
from pipeline.model import Claim
from pipeline.record import Record

PARALLEL_FROM = 40        # fewer figures than this: checked in this process


class IndexedChecker(Checker):
    """``Checker`` whose candidate lists come from an index (same lists, same order)."""

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        idx: dict[tuple[str, str], list[Claim]] = defaultdict(list)
        for p in self.primaries:
            idx[(p.family, _unit_key(p))].append(p)
        self._by_key = dict(idx)
        # _cross_family reads only primary figures of the count families
        self._counts = [p for p in self.primaries if p.family in COUNT_FAMILIES]

    def _candidates(self, f: Claim) -> list[Claim]:
        return list(self._by_key.get((f.family, _unit_key(f)), ()))

    def _cross_family(self, f: Claim):
        saved = self.primaries
        self.primaries = self._counts
        try:
            return super()._cross_family(f)
        finally:
            self.primaries = saved


_SHARED: dict = {}        # the record and checker a forked worker inherits


def _judge_chunk(ids: list[str]) -> list[tuple[str, Verdict]]:
    record, checker = _SHARED["record"], _SHARED["checker"]
    return [(k, judge_stored(checker, record.claims[k])) for k in ids]


def judge_all(record: Record, claims: list[Claim], workers: int = 1) -> dict[str, Verdict]:
    """Verdict of each claim (``judge_stored``), by claim id, in one or more processes."""
    checker = IndexedChecker(record)
    ids = [c.id for c in claims]
    if workers <= 1 or len(ids) < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        return {k: judge_stored(checker, record.claims[k]) for k in ids}
    _SHARED.update(record=record, checker=checker)
    # small interleaved chunks: figures of one family (and cost) sit together in `claims`
    n = max(workers * 8, 1)
    chunks = [ids[i::n] for i in range(n) if ids[i::n]]
    try:
        with mp.get_context("fork").Pool(workers) as pool:
            out: dict[str, Verdict] = {}
            for part in pool.imap_unordered(_judge_chunk, chunks):
                out.update(part)
    finally:
        _SHARED.clear()
    return {k: out[k] for k in ids}

