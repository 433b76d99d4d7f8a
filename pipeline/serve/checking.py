"""The figures `claims serve` keeps loaded for checks that compare whole families in Python.

``check_query`` chooses a claim's candidate figures in SQL, except for the claims it leaves
to ``check_loaded`` (comparisons, parameter counts, achieved compute, claims stating
workload settings, small families): that loads every figure of the claim's families
(``loaded_families``) and compares them all in Python. On the 1,060-document warehouse
the load alone took 150-600 ms of a page, and most figures outside primary documents (the
verdict on a trace page) take that path. The server opens the warehouse read-only and
DuckDB lets no other process write it meanwhile, so figures loaded once stay true for the
server's life: ``LoadedChecks`` keeps them.

What is kept, and how big it gets: one ``Record`` of the families asked so far (the claims,
without document texts) and the ``Checker`` over it, never more than ``budget`` claims
(``MAX_KEPT_CLAIMS``, about 5 KB each in memory: ~100 MB at most). When the server
starts, a thread loads the families checked in Python first, then others while they fit
(``preload``); a family that would take the record past the budget is loaded per request,
as `claims check` does, and not kept (nothing kept is ever dropped, so no two families
take turns being loaded). The answers are ``check_loaded``'s: a
``Checker`` reads only the figures of the query's own families (``_candidates`` picks the
family, ``_cross_family`` the count families, ``params_of`` the parameters claims, all in
``loaded_families``), so the other families in the record change nothing, and
``IndexedChecker`` returns the same candidates in the same order.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from pipeline.check_sql import LOAD_BELOW
from pipeline.gcpause import freeze
from pipeline.checker import (ACHIEVED_FAMILIES, Query, Verdict, check_loaded,
                              loaded_families)
from pipeline.link.keys import COMPARED_FAMILIES
from pipeline.model import Claim
from pipeline.record import Record
# the report's checker: candidates from an index by (family, unit), one class for both
from pipeline.report.verdicts import IndexedChecker
from pipeline.store import Store

MAX_KEPT_CLAIMS = 20_000
MAX_KEPT_ANSWERS = 256       # answers of the SQL checker's queries kept (KeptAnswers)
MAX_ANSWER_ROWS = 1000       # an answer with more rows is not kept
MAX_KEPT_HEADLINES = 256     # check box answers kept (KeptHeadlines)


class LoadedChecks:
    """``check_loaded(q, store)`` over figures loaded once per server (see the module)."""

    def __init__(self, budget: int = MAX_KEPT_CLAIMS) -> None:
        self.budget = budget
        self.lock = threading.Lock()
        self.families: frozenset[str] = frozenset()
        self.checker: IndexedChecker | None = None

    @property
    def kept(self) -> int:
        """Claims held now."""
        return len(self.checker.record.claims) if self.checker is not None else 0

    def __call__(self, q: Query, store: Store) -> Verdict:
        want = frozenset(loaded_families(q))
        with self.lock:
            if not want <= self.families:
                sizes = _family_sizes(store)
                if sum(sizes.get(f, 0) for f in want | self.families) > self.budget:
                    return check_loaded(q, store)     # not kept: as `claims check` does
                self._grow(want | self.families, store)
            assert self.checker is not None
            # the texts a figure's lead-in is cut from are read through this request's
            # connection: the one the figures were loaded with is closed by now, and a
            # record that cannot read them would judge by the sentence alone
            self.checker.record.store = store
            return self.checker.check(q)

    def holds(self, q: Query) -> bool:
        """Are the query's families held already? Then ``check_query`` compares them here
        rather than planning its SQL queries (the same answer, at a third to a half of the
        CPU on the 1,060-document warehouse: the figures' facts are worked out once)."""
        return q.figure is not None and frozenset(loaded_families(q)) <= self.families

    def preload(self, store: Store) -> None:
        """Load, within the budget, the families ``check_query`` always compares in Python
        (comparisons, achieved figures, parameter counts, families too small for SQL to
        pay), then the others, smallest first: the first pages need not wait for them."""
        with self.lock:
            sizes = _family_sizes(store)
            python = COMPARED_FAMILIES | ACHIEVED_FAMILIES | {"parameters"}
            groups = {f: loaded_families(Query(text="", figure=_probe(f))) for f in sizes}

            def rank(f: str) -> tuple:
                tier = 0 if f in python else 1 if sizes[f] < LOAD_BELOW else 2
                return (tier, sum(sizes.get(g, 0) for g in groups[f]), f)

            families = set(self.families)
            for fam in sorted(sizes, key=rank):
                more = families | groups[fam]
                if sum(sizes.get(f, 0) for f in more) <= self.budget:
                    families = more
            if families - self.families:
                self._grow(frozenset(families), store)
            if self.checker is not None:
                # what compare reads of each primary figure, worked out now rather than by
                # the first check of each family
                for p in self.checker.primaries:
                    self.checker.prepare(p)
            # kept for the server's life: out of the collector's full walks, which
            # otherwise cost a request that sets one off ~0.1-0.2 s (pipeline/gcpause.py)
            freeze()

    def _grow(self, families: frozenset[str], store: Store) -> None:
        """Load the families not held yet and merge them in, in ``Record.load``'s order."""
        new = Record.load(store, families=families - self.families, with_links=False,
                          with_text=False)
        if self.checker is not None:
            old = self.checker.record
            claims = list(old.claims.values()) + [c for k, c in new.claims.items()
                                                  if k not in old.claims]
            claims.sort(key=lambda c: (c.doc_id, c.start, c.end, c.id))
            new.claims = {c.id: c for c in claims}
            new.findings = {**old.findings, **new.findings}
        self.checker, self.families = IndexedChecker(new), families


class KeptAnswers:
    """Answers of the SQL checker's queries kept across checks (``check_sql._Asked``): the
    profile of a family's names, its models, the figures read in full. The same query on
    the same read-only warehouse has the same answer. The least recently used goes first:
    at most ``size`` answers of at most ``rows`` rows each (a few MB at most)."""

    def __init__(self, size: int = MAX_KEPT_ANSWERS, rows: int = MAX_ANSWER_ROWS) -> None:
        self.size, self.rows = size, rows
        self.lock = threading.Lock()
        self.answers: OrderedDict[tuple, tuple] = OrderedDict()

    def get(self, key: tuple) -> tuple | None:
        with self.lock:
            got = self.answers.get(key)
            if got is not None:
                self.answers.move_to_end(key)
            return got

    def put(self, key: tuple, answer: tuple) -> None:
        if len(answer[1]) <= self.rows:
            self._keep(key, answer)

    def _keep(self, key, answer) -> None:
        with self.lock:
            self.answers[key] = answer
            self.answers.move_to_end(key)
            while len(self.answers) > self.size:
                self.answers.popitem(last=False)


class KeptHeadlines(KeptAnswers):
    """The check box's answers by headline text (the same text on the same read-only
    warehouse has the same verdict): the least recently asked go first, ``size`` at most."""

    def __init__(self, size: int = MAX_KEPT_HEADLINES) -> None:
        super().__init__(size)

    def put(self, key: str, answer: Verdict) -> None:      # type: ignore[override]
        self._keep(key, answer)


def _probe(family: str) -> Claim:
    return Claim(id="", doc_id="", start=0, end=0, surface="", value=0.0, family=family,
                 unit="")


def _family_sizes(store: Store) -> dict[str, int]:
    _, rows = store.query("SELECT family, count(*) FROM claims GROUP BY family")
    return {f: n for f, n in rows}
