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
(``MAX_KEPT_CLAIMS``, about 4 KB each in memory: ~80 MB at most). A family set that would
take the record past the budget replaces it; one larger than the budget alone is loaded
per request, as `claims check` does, and not kept. The answers are ``check_loaded``'s: a
``Checker`` reads only the figures of the query's own families (``_candidates`` picks the
family, ``_cross_family`` the count families, ``params_of`` the parameters claims, all in
``loaded_families``), so the other families in the record change nothing, and
``IndexedChecker`` returns the same candidates in the same order.
"""
from __future__ import annotations

import threading
from collections import defaultdict

from pipeline.checker import Checker, Query, Verdict, _unit_key, check_loaded, loaded_families
from pipeline.model import Claim
from pipeline.record import Record
from pipeline.store import Store

MAX_KEPT_CLAIMS = 20_000


class IndexedChecker(Checker):
    """``Checker`` whose candidates are looked up by (family, unit) instead of found by a
    walk of every primary figure: the same figures, in the same (publication) order."""

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        self._by_unit: dict[tuple[str, str], list[Claim]] = defaultdict(list)
        for p in self.primaries:
            self._by_unit[(p.family, _unit_key(p))].append(p)

    def _candidates(self, f: Claim) -> list[Claim]:
        return list(self._by_unit.get((f.family, _unit_key(f)), ()))


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
            if self.checker is None or not want <= self.families:
                families = self._fit(want | self.families, want, store)
                if families is None:
                    return check_loaded(q, store)
                self.checker = None              # the old record goes before the new loads
                record = Record.load(store, families=families, with_links=False,
                                     with_text=False)
                self.checker, self.families = IndexedChecker(record), families
            return self.checker.check(q)

    def _fit(self, union: frozenset[str], want: frozenset[str],
             store: Store) -> frozenset[str] | None:
        """The families to keep: all asked so far if they fit the budget, else the ones
        this query needs if they do, else None (not kept)."""
        for families in (union, want):
            _, rows = store.query("SELECT count(*) FROM claims WHERE list_contains("
                                  "CAST($f AS VARCHAR[]), family)", {"f": sorted(families)})
            if rows[0][0] <= self.budget:
                return families
        return None
