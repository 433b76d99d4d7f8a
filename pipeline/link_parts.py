"""A full link in bounded memory: the record linked partition by partition from DuckDB.

``claims link`` (``link_flow._link_full``) holds every claim in Python: 1M claims take ~3 GB.
Here DuckDB does the grouping and Python holds one partition at a time, so the peak is set
by the largest partition (``max_claims`` claims, or one subject larger than that), not by
the warehouse. What each partition computes, and why no link crosses two of them, is in
``pipeline/link/partition.py``. The passes, in one transaction:

1. misattribution: groups of credited sources with every document they resolve to;
2. documents, in id order: roles (from the text, as ``_link_full`` infers them), quantity
   keys, derived checks, and the findings of claims without a subject;
3. subjects, from the keys pass 2 wrote: pair links, clusters, findings.

Same links, clusters, findings, keys and roles as ``_link_full`` (tests/test_link_partition.py).
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from pipeline.store import LinkScope, Store, _rollback

# claims Python holds per partition (a larger subject is whole): ~1 GB of records at most,
# and few enough partitions that DuckDB's scans for them stay a small part of the time
DEFAULT_MAX_CLAIMS = 250_000


def _batches(weights: Iterable[tuple[str, int]], limit: int) -> Iterator[list[str]]:
    """Names in order, cut into runs whose weights add up to at most ``limit`` (a single
    heavier name is a run of its own)."""
    run: list[str] = []
    total = 0
    for name, w in weights:
        if run and total + w > limit:
            yield run
            run, total = [], 0
        run.append(name)
        total += w
    if run:
        yield run


def link_partitioned(store: Store, max_claims: int | None = None):
    """Relink the whole record partition by partition -> ``link_state.LinkReport`` ("full");
    ``max_claims`` (default ``DEFAULT_MAX_CLAIMS``) is the size of a partition."""
    from pipeline.link import _sources
    from pipeline.link.keys import subject_of_key
    from pipeline.link.partition import (FIGURE_COLUMNS, document_part, link_documents,
                                         link_subjects, misattributions, with_misattribution)
    from pipeline.link.roles import resolve_role
    from pipeline.link_state import LinkReport, _by_doc, _doc_metas, _infer_roles, claim_keys

    started = time.perf_counter()
    max_claims = max_claims or DEFAULT_MAX_CLAIMS
    metas, _, stored = _doc_metas(store)
    sources = _sources(metas)
    counts = dict(store.query("SELECT doc_id, count(*) FROM claims GROUP BY doc_id")[1])
    n_claims = sum(counts.values())
    roles: dict[str, tuple[str, str]] = {}
    changed: dict[str, str] = {}
    con = store.con
    con.begin()
    try:
        # 1. misattribution: each claim crediting a source, with every credited document
        credited = []
        for by, n in store.query("SELECT asserted_by, count(*) FROM claims WHERE asserted_by"
                                 " IS NOT NULL GROUP BY 1 ORDER BY 1")[1]:
            docs = sources.resolve(by, strict=True)
            if docs:
                credited.append((by, n + sum(counts.get(d, 0) for d in docs)))
        mis: set[str] = set()
        for bys in _batches(credited, max_claims):
            docs = {d for by in bys for d in sources.resolve(by, strict=True)}
            claims = list(store.iter_claims(docs=docs, asserted_by=bys, columns=FIGURE_COLUMNS))
            mis |= misattributions(claims, sources, set(bys))
            del claims

        con.execute("DELETE FROM links")
        con.execute("DELETE FROM clusters")
        con.execute("DELETE FROM claim_keys")
        # 2. whole documents: roles, keys, derived checks, findings of claims without subject
        for chunk in _batches(((d, counts.get(d, 0)) for d in sorted(metas)), max_claims):
            claims = list(store.iter_claims(docs=chunk))
            by_doc = _by_doc(claims)
            inferred = _infer_roles(store, metas, chunk, by_doc)
            for d in chunk:
                roles[d] = inferred.get(d) or resolve_role(metas[d], by_doc.get(d, ()))
            changed.update({d: r[0] for d, r in inferred.items() if stored[d] != r})
            keys = [(cid, c.doc_id, k, s) for c, (cid, k, s) in zip(claims, claim_keys(claims))]
            result = link_documents(document_part(claims, (k[3] for k in keys)), metas, roles,
                                    sources)
            findings = {}
            for c, k in zip(claims, keys):
                if k[3] is None:
                    now = with_misattribution(result.findings.get(c.id, []), c.id, mis)
                    if now != c.findings:
                        findings[c.id] = now
            store.append_keys(keys)
            store.append_links(result.links, [], findings)
            del claims, by_doc, result, keys

        # 3. subjects: pair links, clusters, findings
        subjects = store.query("SELECT subject, count(*) FROM claim_keys WHERE subject IS NOT"
                               " NULL GROUP BY 1 ORDER BY 1")[1]
        for part in _batches(subjects, max_claims):
            on = set(part)
            derived = store.derived_links(part)
            operands = {x for ln in derived for x in (ln.dst, ln.other) if x}
            claims = list(store.iter_claims(
                docs=(), subjects=part, ids=operands,
                siblings=(store.documents_on(part), "token_throughput", "per_user")))
            result = link_subjects(claims, metas, roles, sources, on, derived)
            own = {c.id for c in claims if subject_of_key(result.keys[c.id]) in on}
            findings = {}
            for c in claims:
                if c.id in own:
                    now = with_misattribution(result.findings.get(c.id, []), c.id, mis)
                    if now != c.findings:
                        findings[c.id] = now
            links = [ln for ln in result.links if ln.src in own]
            clusters = sorted((k, cid) for cid, k in result.clusters.items() if cid in own)
            store.append_links(links, clusters, findings)
            del claims, result, links, clusters
        con.commit()
    except BaseException:
        _rollback(con)
        raise
    # roles and the end of what was pending: as a full link leaves them
    store.save_links([], [], None, changed, scope=LinkScope())
    return LinkReport("full", claims=n_claims,
                      inferred=sorted((metas[d].path, r) for d, r in changed.items()),
                      seconds=time.perf_counter() - started)
