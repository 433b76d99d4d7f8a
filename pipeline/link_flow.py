"""The link flow: after an ingest, link what changed (``link_store``, incremental), or the
whole record (`claims link`, full; partition by partition with ``pipeline.link_parts``).

Ingest keeps no claims in memory: it stores each claim's quantity key and queues what
changed in ``link_pending``; linking then loads from DuckDB only the documents on the
subjects those changes touch and rewrites only what those subjects own (see
``_link_incremental``). What this flow shares with the partitioned link (document
metadata, inferred roles, quantity keys, the report) is in ``pipeline.link_state``.
"""
from __future__ import annotations

import time

from pipeline.link_state import (ROLE_SOURCES_FIXED, LinkReport, _by_doc, _doc_metas,  # noqa: F401
                                 _infer_roles, claim_keys, role_hint, roles_line)
from pipeline.store import LinkScope, Pending, Store

# ROLE_SOURCES_FIXED, claim_keys, role_hint and roles_line are imported from here by
# `claims`, the Python API and the benchmarks; they live in link_state.


def link_store(store: Store, full: bool = False, partitioned: bool = False,
               ray: str | None = None) -> LinkReport | None:
    """Link what changed since the last link, or everything with ``full``.

    Returns None when nothing is pending (every file was skipped): nothing is relinked.
    Falls back to a full link when the database holds claims without stored keys (it was
    written before linking existed) or removed claims had none. ``partitioned``: a full
    link runs partition by partition in bounded memory (``pipeline.link_parts``), and so
    does the link after an ingest that added at least half of the documents (an
    incremental link would hold all of them). ``ray``: those partitions run as Ray tasks
    on the Ray at that address (``link_parts.link_partitioned``).
    """
    started = time.perf_counter()
    pending = store.pending()
    if not full and pending.empty:
        return None
    if partitioned and pending.added and not full:
        n_docs = store.query("SELECT count(*) FROM documents")[1][0][0]
        full = 2 * len(pending.added) >= n_docs
    report = None
    if not (full or pending.full or store.needs_full_link()):
        report = _link_incremental(store, pending)
    if report is None and partitioned:
        from pipeline.link_parts import link_partitioned

        report = link_partitioned(store, ray=ray)
    if report is None:
        report = _link_full(store)
    report.totals = store.link_totals()
    report.seconds = time.perf_counter() - started
    return report


def _link_full(store: Store) -> LinkReport:
    """Relink the whole record: every link, cluster, finding, inferred role and key."""
    from pipeline.link import LinkResult, relink, touched_keys
    from pipeline.link.keys import subject_of_key

    metas, _, stored = _doc_metas(store)
    claims = list(store.iter_claims())
    inferred = _infer_roles(store, metas, metas, _by_doc(claims))
    # relink with every key touched and every document new is link() from scratch, with
    # the roles inferred above (so no document text is held while linking)
    result = relink(claims, metas, LinkResult(roles=inferred), touched_keys(claims),
                    new_docs=set(metas))
    findings = {c.id: f for c in claims if (f := result.findings.get(c.id, [])) != c.findings}
    keys = [(c.id, c.doc_id, result.keys[c.id], subject_of_key(result.keys[c.id]))
            for c in claims]
    changed = {d: r[0] for d, r in inferred.items() if stored[d] != r}
    store.save_links(result.links, result.cluster_rows(), findings, changed, keys=keys)
    return LinkReport("full", claims=len(claims),
                      inferred=sorted((metas[d].path, r) for d, r in changed.items()))


def _link_incremental(store: Store, pending: Pending) -> LinkReport | None:
    """Relink only the subjects the pending changes touch; None when a full link is needed.

    What the changes touch: the subjects of the added documents' claims and of removed
    claims, plus the subjects of claims whose attribution now resolves to other
    documents (a source added or removed). Loaded: the claims on touched subjects, the
    added documents, the documents holding a ratio claim on a touched subject or credited
    by an owned claim, the per-user speeds in other documents on a touched subject (they
    set operating points) and the claims whose attribution moved. Rewritten: the pair links, clusters and findings of claims on
    touched subjects and in added documents, the derived checks of ratio claims there, and
    the misattribution finding of claims whose attribution moved. Everything else a full
    link would conclude depends only on claims left untouched, so it stays as stored.
    """
    from pipeline.link import DocMeta, LinkResult, _sources, relink, touched_keys
    from pipeline.link.derive import RATIO_FAMILIES
    from pipeline.link.findings import FINDINGS
    from pipeline.link.keys import subject_key, subject_of_key

    metas, known, _ = _doc_metas(store)
    added = {d for d in pending.added if d in metas}
    subjects = store.subjects_of(added) | {s for s in map(subject_of_key, pending.keys) if s}

    # attributions that resolve differently now that documents came and went
    before = {d: m for d, m in metas.items() if d not in added}
    for r in pending.removed:
        before.setdefault(r["id"], DocMeta.of(r, path=r["path"] or "", role="unknown",
                                              role_source=None, published=None, text=None))
    old_idx, new_idx = _sources(before), _sources(metas)
    moved: set[str] = set()
    for by, subj in store.attributions():
        if any(set(old_idx.resolve(by, strict)) != set(new_idx.resolve(by, strict))
               for strict in (False, True)):
            moved.add(by)
            if subj:
                subjects.add(subj)

    # whole documents: added ones (roles, derived checks), those with a ratio claim on a
    # touched subject (derived checks seek operands in their own document), and those that
    # owned claims credit (misattribution looks at all their figures); of the other
    # documents on a touched subject only the per-user speeds that set operating points
    docs = set(added) | store.documents_on(subjects, families=RATIO_FAMILIES)
    for by, _ in store.attributions(doc_ids=added, subjects=subjects):
        docs |= set(new_idx.resolve(by, strict=True))
    for by in moved:
        docs |= set(new_idx.resolve(by, strict=True))
    claims = list(store.iter_claims(
        docs=docs, subjects=subjects, asserted_by=moved,
        siblings=(store.documents_on(subjects), "token_throughput", "per_user")))

    new_claims = [c for c in claims if c.doc_id in added]
    touched = (touched_keys(new_claims) | pending.keys
               | touched_keys(c for c in claims if subject_key(c) in subjects))
    if {s for s in map(subject_of_key, touched) if s} != subjects:
        return None     # stored keys disagree with today's link stage: relink everything

    inferred = _infer_roles(store, metas, added, _by_doc(new_claims), stored=True)
    result = relink(claims, metas, LinkResult(roles={**known, **inferred}), touched,
                    new_docs=added)

    subject = {cid: subject_of_key(k) for cid, k in result.keys.items()}
    own = {c.id for c in claims if subject[c.id] in subjects}
    ratios = {c.id for c in claims if c.family in RATIO_FAMILIES
              and (c.doc_id in added or subject[c.id] in subjects)}
    links = [ln for ln in result.links
             if (ln.src in ratios if ln.relation == "derives" else ln.src in own)]
    findings: dict[str, list[str]] = {}
    for c in claims:
        if c.id in own or c.doc_id in added:
            now = result.findings.get(c.id, [])
        elif c.asserted_by in moved:
            kept = set(c.findings) - {"misattributed"}
            if "misattributed" in result.findings.get(c.id, ()):
                kept.add("misattributed")
            now = [f for f in FINDINGS if f in kept]
        else:
            continue
        if now != c.findings:
            findings[c.id] = now
    clusters = sorted((k, cid) for cid, k in result.clusters.items() if cid in own)
    store.save_links(links, clusters, findings, {d: r[0] for d, r in inferred.items()},
                     scope=LinkScope(own, ratios))
    shown = sorted((metas[d].path, r[0]) for d, r in inferred.items())
    return LinkReport("incremental", claims=len(claims), subjects=len(subjects), inferred=shown)
