"""The part of the record one claim's trace reads, loaded by SQL (not the whole warehouse).

``pipeline.trace.trace`` and ``pipeline.graph.claim_story`` work on a loaded ``Record``;
`claims trace` loads all of it. A page has to answer in a fraction of a second on a large
warehouse, so ``record_around`` loads only what those functions look at for one claim:

* the metadata (no text) of every document when one of those claims names its source
  (attribution matches on all of them), else of their own documents;
* the claim's document with its text (the quote is cut from it);
* the claims of that document and every claim of their clusters (the story's selection);
* every link touching those claims, and the claims at the other end of those links;
* their cluster memberships and findings.

Anything outside that set is something ``trace`` and ``claim_story`` never read for this
claim, so they give what they give on the whole record. The verdict on a figure outside
primary documents is the one ``judge_with_derived`` gives, with the candidate primary figures
chosen in SQL (``check_query``, as `claims check` does) instead of all loaded, and the
derived figures read from the warehouse (``store``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pipeline.citation import Citations
from pipeline.derived import by_claim, load_derived
from pipeline.check import Query, Verdict, check_loaded
from pipeline.model import Claim, Link
from pipeline.record import DOC_INFO_COLS, DocInfo, Record
from pipeline.store import CLAIM_COLUMNS, Store
from pipeline.trace import Trace, TraceError, trace

_CLAIM_SELECT = ", ".join(f'c."{c}"' for c in CLAIM_COLUMNS)


def resolve_claim(store: Store, claim_id: str) -> str:
    """The full id of the claim ``claim_id`` names, exactly or as the only id it starts
    (TraceError otherwise, as ``pipeline.trace.find_claim`` says it)."""
    rows = store.con.execute("SELECT id FROM claims WHERE id = ? LIMIT 1", [claim_id]).fetchall()
    if rows:
        return rows[0][0]
    hits = store.con.execute("SELECT DISTINCT id FROM claims WHERE starts_with(id, ?) LIMIT 3",
                             [claim_id]).fetchall() if claim_id else []
    if len(hits) == 1:
        return hits[0][0]
    if not hits:
        raise TraceError(f"no claim with id {claim_id!r}")
    raise TraceError(f"several claims start with {claim_id!r}; give more characters")


def record_around(store: Store, claim_id: str) -> tuple[str, Record]:
    """(the claim's full id, the part of the record its trace reads)."""
    cid = resolve_claim(store, claim_id)
    con = store.con
    rec = Record(db_path=str(store.path))
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _serve_ids AS "
        "WITH seed AS (SELECT id FROM claims WHERE doc_id = (SELECT doc_id FROM claims "
        "  WHERE id = $cid LIMIT 1)), "
        "ks AS (SELECT DISTINCT cluster_id FROM clusters WHERE claim_id IN (SELECT id FROM seed)) "
        "SELECT id FROM seed UNION "
        "SELECT claim_id FROM clusters WHERE cluster_id IN (SELECT cluster_id FROM ks)",
        {"cid": cid})
    try:
        links = con.execute(
            "SELECT src, dst, relation, consistent, detail, computed, other FROM links "
            "WHERE src IN (SELECT id FROM _serve_ids) OR dst IN (SELECT id FROM _serve_ids) "
            "OR other IN (SELECT id FROM _serve_ids) ORDER BY relation, src, dst").fetchall()
        rec.links = [Link(*r) for r in links]
        ends = sorted({x for ln in rec.links for x in (ln.src, ln.dst, ln.other) if x})
        rows = con.execute(
            f"SELECT {_CLAIM_SELECT} FROM claims c WHERE c.id IN (SELECT id FROM _serve_ids) "
            "OR c.id IN (SELECT unnest(CAST($ends AS VARCHAR[]))) "
            'ORDER BY c.doc_id, c.start, c."end", c.id', {"ends": ends}).fetchall()
        for r in rows:
            c = Claim(**dict(zip(CLAIM_COLUMNS, r)))
            c.findings = list(c.findings or [])
            rec.claims[c.id] = c
        kept = sorted(rec.claims)
        rec.clusters = {k: c for c, k in con.execute(
            "SELECT cluster_id, claim_id FROM clusters WHERE claim_id IN "
            "(SELECT unnest(CAST($ids AS VARCHAR[])))", {"ids": kept}).fetchall()}
    finally:
        con.execute("DROP TABLE IF EXISTS _serve_ids")
    rec.findings = {c.id: list(c.findings) for c in rec.claims.values() if c.findings}
    # attribution (a claim naming its source) matches against every document; otherwise
    # only the documents of the claims loaded are looked up
    cited = any(c.asserted_by for c in rec.claims.values())
    where = "" if cited else " WHERE id IN (SELECT unnest(CAST($ids AS VARCHAR[])))"
    params = {} if cited else {"ids": sorted({c.doc_id for c in rec.claims.values()})}
    for r in con.execute(f"SELECT {DOC_INFO_COLS} FROM documents{where} ORDER BY path, id",
                         params).fetchall():
        d = DocInfo.from_row(r)
        rec.docs[d.id] = d
    doc = rec.docs.get(rec.claims[cid].doc_id)
    if doc is not None:
        doc.text = con.execute("SELECT text FROM documents WHERE id = ?", [doc.id]).fetchone()[0]
    rec._infer_missing_roles(store, all_claims=False)
    rec.citations = Citations.load(store, {c.doc_id for c in rec.claims.values()})
    # the per-GPU / per-node figures derived from the traced figure, when it is an MLPerf
    # result (shown as derived beside it, as `claims trace` does)
    rec.derived = by_claim(load_derived(store, claim_ids=[cid]))
    return cid, rec


@dataclass
class WarehouseChecker:
    """What ``judge_with_derived`` needs of a checker: the record (the quote and findings of the
    figure judged) and ``check``, answered over the warehouse by ``check_query`` (the
    candidate figures chosen in SQL) rather than by comparing every primary figure loaded;
    ``store`` is also where the figures derived from MLPerf results are read."""

    record: Record
    store: Store
    loaded: Callable[[Query, Store], Verdict] = check_loaded
    kept: Any = None

    def check(self, q: Query) -> Verdict:
        from pipeline.check import cited
        from pipeline.check_sql import check_query

        return cited(check_query(q, self.store, loaded=self.loaded, kept=self.kept), self.store)


def trace_of(store: Store, claim_id: str,
             loaded: Callable[[Query, Store], Verdict] = check_loaded, kept: Any = None,
             judged: Any = None) -> Trace:
    """``pipeline.trace.trace`` of one claim over the part of the record it reads
    (``loaded`` and ``kept``: what `claims serve` keeps for checks, ``check_query``;
    ``judged``: the verdicts worked out for this warehouse state, ``pipeline.judged``)."""
    from pipeline.fingerprint import content_key
    from pipeline.judged import Judged

    cid, rec = record_around(store, claim_id)
    if judged is None:
        judged = Judged(content_key(store.con))
    return trace(cid, rec, checker=WarehouseChecker(rec, store, loaded, kept), judged=judged)
