"""Operating points of per-GPU throughput figures, and the conflicts they reveal.

A per-GPU throughput figure means little without the per-user speed it was measured at:
the same rack trades one for the other. Documents give that speed beside the figure
("954K tokens/s per GPU at a P90 of 196 tokens/s per user", a table row "499,715 | 150").
Two documents reporting the same model on the same hardware at nearly the same per-user
speed (within 10%) should report nearly the same per-GPU figure; when they do not, they
conflict even though neither says so.
"""
from __future__ import annotations

import re
from collections import defaultdict

from pipeline.model import Claim, Link

from .prepare import Prepared, agree, op_points_close, rank

OP_SCOPES = frozenset({"per_gpu", "per_node", "per_system", "aggregate"})
_PER_USER_RE = re.compile(
    r"(\d[\d,]*(?:\.\d+)?)\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|tokens?\s+per\s+second|tps)?"
    r"\s*(?:/\s*user|per\s+user)", re.I)


def _sentence_key(c: Claim) -> tuple[str, object]:
    if c.sentence_start is not None:
        return (c.doc_id, c.sentence_start)
    return (c.doc_id, c.sentence)


def assign_op_points(claims: list[Claim], prepared: list[Prepared]) -> None:
    """Set ``op_point`` on per-GPU (and larger-scope) throughput claims, in place.

    The operating point is the nearest per-user throughput claim in the same sentence
    (or table row); failing that, a "N tok/s/user" phrase in the sentence text.
    """
    per_user: dict[tuple[str, object], list[Claim]] = defaultdict(list)
    for c in claims:
        if c.family == "token_throughput" and c.scope == "per_user":
            per_user[_sentence_key(c)].append(c)
    for c, p in zip(claims, prepared):
        if c.family != "token_throughput" or c.scope not in OP_SCOPES:
            continue
        sib = per_user.get(_sentence_key(c))
        if sib:
            best = min(sib, key=lambda s: abs(s.start - c.start))
            p.op_point = best.value
            continue
        if c.sentence:
            found = [(abs(m.start() - (c.start - (c.sentence_start or 0))), m.group(1))
                     for m in _PER_USER_RE.finditer(c.sentence)]
            if found:
                try:
                    p.op_point = float(min(found)[1].replace(",", ""))
                except ValueError:
                    pass


def operating_point_conflicts(prepared: list[Prepared]) -> list[Link]:
    """Cross-document conflicts between per-GPU figures at close operating points.

    Blocked on (subject, hardware, scope) and swept in order of operating point, so each
    figure meets only those within 10% of its per-user speed.
    """
    blocks: dict[tuple, list[Prepared]] = defaultdict(list)
    for p in prepared:
        if (p.op_point is not None and p.active and p.family == "token_throughput"
                and p.subject and p.hw is not None and p.hw[0] is not None):
            blocks[(p.subject, p.hw, p.scope)].append(p)
    links: list[Link] = []
    for block in blocks.values():
        if len(block) < 2:
            continue
        block.sort(key=lambda p: p.op_point)
        for i, a in enumerate(block):
            for b in block[i + 1:]:
                if not op_points_close(a.op_point, b.op_point):
                    break
                if a.doc == b.doc or agree(a, b):
                    continue
                src, dst = (a, b) if rank(a) >= rank(b) else (b, a)
                links.append(Link(
                    src.id, dst.id, "conflicts", False,
                    f"operating point: {_fmt(src.fig.value)} {src.scope} at "
                    f"{_fmt(src.op_point)}/user vs {_fmt(dst.fig.value)} at "
                    f"{_fmt(dst.op_point)}/user on the same model and hardware"))
    return links


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:g}"
