"""The link stage: [Claim] -> links, findings, clusters, document roles.

Plain functions over plain records (no database, no files), so a worker can run them:

* ``link(claims, docs)`` links everything from scratch;
* ``touched_keys(new_claims)`` and ``relink(claims, docs, previous, touched)`` redo only the
  subject blocks that newly ingested claims touch, keeping every other link.

Order of work: document roles -> per-claim records -> operating points -> pair relations
per subject block -> operating-point conflicts -> derived checks -> findings -> clusters.
"""
from __future__ import annotations

import functools
import gc
from collections import defaultdict
from collections.abc import Iterable

from pipeline.model import Claim, Link

from .attribution import SourceIndex
from .derive import RATIO_FAMILIES, derive_links
from .findings import compute_findings
from .graph import build_graph, clusters
from .keys import quantity_key, subject_of_key
from .operating_point import assign_op_points, operating_point_conflicts
from .prepare import Prepared, mark_variants, prepare
from .records import DocMeta, LinkResult
from .relations import agreeing_links, blocks_by_subject, conflict_links
from .roles import resolve_role

__all__ = ["link", "relink", "touched_keys", "DocMeta", "LinkResult", "build_graph",
           "quantity_key", "link_to_export"]


def _roles(claims: list[Claim], docs: dict[str, DocMeta],
           known: dict[str, tuple[str, str]] | None = None) -> dict[str, tuple[str, str]]:
    per_doc: dict[str, list[Claim]] = defaultdict(list)
    for c in claims:
        per_doc[c.doc_id].append(c)
    roles: dict[str, tuple[str, str]] = {}
    for d in set(docs) | set(per_doc):
        meta = docs.get(d) or DocMeta(id=d)
        if known and d in known and known[d][1] == "inferred" and meta.role_source is None:
            roles[d] = known[d]
        else:
            roles[d] = resolve_role(meta, per_doc.get(d, ()))
    return roles


def _sources(docs: dict[str, DocMeta]) -> SourceIndex:
    idx = SourceIndex()
    for d in docs.values():
        idx.add(d.id, publisher=d.publisher, title=d.title, author=d.author, url=d.url,
                path=d.path.rsplit("/", 1)[-1].rsplit(".", 1)[0] if d.path else None)
    return idx


def _prepare_all(claims: list[Claim], docs: dict[str, DocMeta],
                 roles: dict[str, tuple[str, str]]) -> list[Prepared]:
    prepared = []
    for i, c in enumerate(claims):
        meta = docs.get(c.doc_id)
        prepared.append(prepare(c, i, roles.get(c.doc_id, ("unknown", ""))[0],
                                meta.published if meta else None,
                                meta.publisher if meta else None))
    assign_op_points(claims, prepared)
    mark_variants(prepared)
    return prepared


def _pair_links(prepared: Iterable[Prepared], sources: SourceIndex,
                subjects: set[str] | None = None) -> list[Link]:
    blocks = blocks_by_subject(prepared)
    op = [p for b in blocks.values() for p in b]
    if subjects is not None:
        op = [p for p in op if p.subject in subjects]
    # first, so that a pair found by both rules keeps the operating-point explanation
    links: list[Link] = operating_point_conflicts(op)
    for subj, block in blocks.items():
        if subjects is not None and subj not in subjects:
            continue
        if len(block) < 2:
            continue
        links.extend(agreeing_links(block, sources))
        links.extend(conflict_links(block))
    return links


def _dedupe(links: Iterable[Link]) -> list[Link]:
    seen: dict[tuple[str, str, str], Link] = {}
    for ln in links:
        k = (ln.relation, *sorted((ln.src, ln.dst))) if ln.relation != "derives" \
            else (ln.relation, ln.src, ln.dst)
        seen.setdefault(k, ln)
    return sorted(seen.values(), key=lambda ln: (ln.relation, ln.src, ln.dst))


def _finish(claims: list[Claim], prepared: list[Prepared], links: list[Link],
            roles: dict[str, tuple[str, str]], sources: SourceIndex) -> LinkResult:
    links = _dedupe(links)
    return LinkResult(
        links=links,
        findings=compute_findings(claims, prepared, links, roles, sources),
        clusters=clusters(links),
        roles=roles,
        keys={p.id: p.qkey for p in prepared},
    )


def _no_gc(fn):
    """Pause the cyclic GC while linking: it only creates acyclic records, and GC passes
    over millions of live claims would cost more than the linking itself."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper


@_no_gc
def link(claims: list[Claim], docs: dict[str, DocMeta]) -> LinkResult:
    """Link every claim against every other, blocked on subject (near-linear)."""
    roles = _roles(claims, docs)
    sources = _sources(docs)
    prepared = _prepare_all(claims, docs, roles)
    links = _pair_links(prepared, sources)
    links += derive_links(claims, prepared)
    return _finish(claims, prepared, links, roles, sources)


def touched_keys(new_claims: Iterable[Claim]) -> set[str]:
    """Quantity keys of newly ingested claims: what ``relink`` must redo."""
    return {quantity_key(c) for c in new_claims}


@_no_gc
def relink(claims: list[Claim], docs: dict[str, DocMeta], previous: LinkResult,
           touched: set[str], new_docs: Iterable[str] = ()) -> LinkResult:
    """Redo links only for the subjects in ``touched``; keep all other previous links.

    ``claims`` is the whole record (old and new). Pair links are recomputed inside the
    touched subject blocks; derived checks are redone for ratio claims in ``new_docs`` or
    on a touched subject. Findings and clusters are cheap and recomputed whole, since one
    new support can clear an old claim's ``unsourced``.
    """
    roles = _roles(claims, docs, previous.roles)
    sources = _sources(docs)
    prepared = _prepare_all(claims, docs, roles)
    subjects = {s for s in (subject_of_key(k) for k in touched) if s}
    new_docs = set(new_docs)
    by_id = {p.id: p for p in prepared}
    redo_ratio = {p.id for p in prepared if p.family in RATIO_FAMILIES
                  and (p.doc in new_docs or p.subject in subjects)}

    def untouched(ln: Link) -> bool:
        if ln.relation == "derives":
            return ln.src not in redo_ratio and ln.src in by_id
        a, b = by_id.get(ln.src), by_id.get(ln.dst)
        return a is not None and b is not None and a.subject not in subjects \
            and b.subject not in subjects
    kept = [ln for ln in previous.links if untouched(ln)]
    links = kept + _pair_links(prepared, sources, subjects)
    links += derive_links(claims, prepared, only=redo_ratio)
    return _finish(claims, prepared, links, roles, sources)


def link_to_export(ln: Link) -> dict:
    """One line of ``claims export links --format jsonl``."""
    return {"src": ln.src, "dst": ln.dst, "relation": ln.relation,
            "consistent": ln.consistent, "detail": ln.detail,
            "computed": ln.computed, "other": ln.other}
