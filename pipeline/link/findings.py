"""Findings on single claims, read off the links (docs/claims-model.md §3).

* ``unsourced``: a secondary claim that no primary claim supports or restates (a derived
  check whose two operands both sit in primary documents also counts as a source).
* ``ambiguous``: a throughput figure with no scope, or one whose scope differs from the
  scope a primary document gives the same number.
* ``misattributed``: credited to a source that is in the record and holds no such figure.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pipeline.model import Claim, Link

from .attribution import SourceIndex
from .prepare import THROUGHPUT_FAMILIES, Prepared, agree

FINDINGS = ("unsourced", "ambiguous", "misattributed")


def compute_findings(claims: list[Claim], prepared: list[Prepared], links: list[Link],
                     roles: dict[str, tuple[str, str]], sources: SourceIndex
                     ) -> dict[str, list[str]]:
    """claim id -> sorted findings (claims without findings are left out)."""
    by_id = {p.id: p for p in prepared}
    sourced: set[str] = set()
    scope_drift: set[str] = set()
    for ln in links:
        a, b = by_id.get(ln.src), by_id.get(ln.dst)
        if a is None or b is None:
            continue
        if ln.relation in ("supports", "restates"):
            if b.role == "primary":
                sourced.add(a.id)
            if a.role == "primary":
                sourced.add(b.id)
        elif ln.relation == "derives" and ln.consistent:
            o = by_id.get(ln.other or "")
            if b.role == "primary" and o is not None and o.role == "primary":
                sourced.add(a.id)
        elif ln.relation == "mismatch" and ln.detail.endswith(f"scope {a.scope} vs {b.scope}"):
            if b.role == "primary" and a.role != "primary":
                scope_drift.add(a.id)

    held = held_figures(prepared)

    out: dict[str, list[str]] = {}
    for c, p in zip(claims, prepared):
        f: list[str] = []
        if p.active and p.role == "secondary" and p.id not in sourced:
            f.append("unsourced")
        if p.family in THROUGHPUT_FAMILIES and (p.scope is None or p.id in scope_drift):
            f.append("ambiguous")
        if misattributed(c, p, held, sources):
            f.append("misattributed")
        if f:
            out[c.id] = f
    return out


def held_figures(prepared: Iterable[Prepared]) -> dict[tuple[str, str], list[Prepared]]:
    """(document, family) -> the active figures it holds: what a credited source is
    searched for."""
    held: dict[tuple[str, str], list[Prepared]] = defaultdict(list)
    for p in prepared:
        if p.active:
            held[(p.doc, p.family)].append(p)
    return held


def misattributed(c: Claim, p: Prepared, held: dict[tuple[str, str], list[Prepared]],
                  sources: SourceIndex) -> bool:
    """Credited to documents in the record (not its own) none of which holds an agreeing
    figure of its family; ``held`` must hold every credited document's figures."""
    if not (p.active and c.asserted_by):
        return False
    docs = [d for d in sources.resolve(c.asserted_by, strict=True) if d != p.doc]
    return bool(docs) and not any(agree(p, q) for d in docs for q in held.get((d, p.family), ()))
