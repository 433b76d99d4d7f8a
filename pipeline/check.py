"""`claims check`: the public entry points. The checker itself (reading a headline,
comparing it with every primary figure, the verdict) is ``pipeline.checker``; for a large
warehouse ``pipeline.check_sql`` chooses the candidate figures in DuckDB and hands them to
the same checker. This module joins the two, so neither imports the other's caller.
"""
from __future__ import annotations

from pipeline.check_sql import LOAD_BELOW, check_query
from pipeline.checker import (VERDICTS, Checker, Query, Verdict, check_loaded, check_text, format_verdict, judge_stored, query_from_claim, read_claim, loaded_families, name_pattern, fold_name, states_settings, names_subject, size_condition)
from pipeline.citation import cite_claims, cite_evidence
from pipeline.derived_check import with_derived
from pipeline.model import Claim
from pipeline.store import CLAIM_COLUMNS, Store

__all__ = ["VERDICTS", "Checker", "Query", "Verdict", "check_loaded", "check_text", "format_verdict", "judge_stored", "query_from_claim", "read_claim", "loaded_families", "name_pattern", "fold_name", "states_settings", "names_subject", "size_condition", "check", "cited"]


def check(text: str, db: str | None = None, store=None, loaded=check_loaded,
          kept=None, load_below: int = LOAD_BELOW) -> Verdict:
    """Check a plain-words claim against the warehouse (opened read-only), or against
    ``store``, a connection already open on it (`claims serve`, which also passes what it
    keeps for checks: ``loaded`` and ``kept``, see ``check_query``).

    The candidate figures are chosen in SQL (check_sql.py); the verdict is the one
    ``check_loaded`` gives, which compares every primary figure of the family in Python;
    a per-GPU or per-node headline it leaves unproven is then judged against the figures
    derived from MLPerf results (``pipeline.derived_check``). ``load_below``: see
    ``check_query`` (0: always choose the figures in SQL, however small the warehouse).
    """
    q = read_claim(text)
    if store is not None:
        return cited(with_derived(q, check_query(q, store, load_below, loaded=loaded, kept=kept), store), store)
    with Store.open(db, read_only=True) as store:
        return cited(with_derived(q, check_query(q, store, load_below, loaded=loaded, kept=kept), store), store)


def cited(verdict: Verdict, store) -> Verdict:
    """The verdict with each evidence figure read from a benchmark result file cited as
    its source asks (MLPerf version, division, result ID, scenario, retrieval date; the
    file and row or pointer of others: ``pipeline.citation``)."""
    ids = [e.id for e in verdict.evidence]
    if not ids:
        return verdict
    cols = ", ".join(f'"{c}"' for c in CLAIM_COLUMNS)
    _, rows = store.query(f"SELECT {cols} FROM claims WHERE list_contains(?, id)", [ids])
    claims = [Claim(**dict(zip(CLAIM_COLUMNS, r))) for r in rows]
    lines = cite_claims(store, claims)
    cite_evidence(verdict, lines.get)
    return verdict
