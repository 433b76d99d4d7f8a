"""Per-claim comparison records, computed once.

Linking compares each claim with its neighbours many times; normalising names, reading
intervals and resolving roles once per claim (instead of per pair) is what keeps a
million claims within a minute.
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.model import Claim

from .consistency import Figure, bounds, consistent_bounds
from .keys import (engine_key, hardware_key, norm, quantity_key, same_setting, scope_key,
                   subject_key, unit_key)
from .measure import measure, support_compatible

INERT_STANCES = frozenset({"negated", "hypothetical", "questioned"})
# Families whose values count things; the same number across them is metric drift.
COUNT_FAMILIES = frozenset({"token_throughput", "request_throughput", "tokens", "parameters"})
THROUGHPUT_FAMILIES = frozenset({"token_throughput", "request_throughput"})


@dataclass(slots=True)
class Prepared:
    """What pair rules read from a claim, normalised."""

    idx: int
    id: str
    doc: str
    family: str
    unit: str
    scope: str | None
    statistic: str | None
    phase: str | None
    token_kind: str | None
    subject: str | None
    hw: tuple[int | None, str] | None
    engine: str | None
    concurrency: float | None
    batch_size: float | None
    isl: float | None
    osl: float | None
    settings: tuple | None          # (concurrency, batch size, ISL, OSL), None if none stated
    fig: Figure
    lo: float
    hi: float
    active: bool          # may support, restate or conflict (not negated/hypothetical)
    role: str
    published: str
    asserted_by: str | None
    qkey: str
    bnd: tuple = ()                 # cached consistency bounds
    op_point: float | None = None   # per-user speed of the operating point (per-GPU figures)
    comparable: bool = True         # the text says what the figure measures (measure.py)
    publisher: str = ""             # who published its document (folded), "" if unknown
    what: tuple = ()                # what it measures beyond family/scope/statistic/phase
    conflictable: bool = True       # may conflict (False: one of a document's variants)
    soft: tuple = ()                # must agree where both state them (measure.py)
    setup: tuple = ()               # (parallelism, offered load): must be equal to conflict
    dtype: str | None = None        # precision: must agree where both state it to conflict


def figure_of(c: Claim) -> Figure:
    """The figure a claim states, as values are compared ("up to 660" is a best case of
    660: it agrees with 660, docs/claims-model.md §4)."""
    cmp = c.comparator or "="
    return Figure(c.value, c.low, c.high, "=" if cmp == "<=" else cmp, c.precision)


def prepare(c: Claim, idx: int, role: str, published: str | None,
            publisher: str | None = None) -> Prepared:
    """Build the comparison record of one claim; ``role`` is its document's role."""
    # "up to 660" states a best case of 660 (docs/claims-model.md §4): it agrees with 660, not with
    # every lower figure; and a bound is no rival of an operating point (never a conflict)
    cmp = c.comparator or "="
    fig = figure_of(c)
    bnd = bounds(fig)
    lo, hi = bnd[3], bnd[4]
    hw = hardware_key(c.hardware, c.hw_count, c.accelerator)
    m = measure(c, hw)
    return Prepared(
        idx=idx, id=c.id, doc=c.doc_id, family=c.family, unit=unit_key(c),
        scope=scope_key(c.scope), statistic=norm(c.statistic), phase=norm(c.phase),
        token_kind=norm(c.token_kind), subject=subject_key(c),
        hw=hw,
        engine=engine_key(c.engine), concurrency=c.concurrency, batch_size=c.batch_size,
        isl=c.isl, osl=c.osl, fig=fig,
        settings=None if c.concurrency is None and c.batch_size is None and c.isl is None
        and c.osl is None else (c.concurrency, c.batch_size, c.isl, c.osl), lo=lo, hi=hi,
        active=c.stance not in INERT_STANCES, role=role, published=published or "",
        publisher=norm(publisher) or "",
        asserted_by=norm(c.asserted_by), qkey=quantity_key(c), bnd=bnd,
        comparable=m.comparable, what=m.what, conflictable=m.comparable and cmp in ("=", "~"),
        soft=m.soft, setup=(norm(c.parallelism), c.offered_load), dtype=norm(c.dtype),
    )


def mark_variants(prepared: list[Prepared]) -> None:
    """A document that gives one subject several parameter counts of one kind ("Llama3
    (8B, 70B)", a table of models) names variants, not the size: none of them may conflict.
    In place; per (document, subject, kind), which relinking always loads together."""
    groups: dict[tuple, list[Prepared]] = {}
    for p in prepared:
        if p.family == "parameters" and p.comparable and p.active and p.subject:
            groups.setdefault((p.doc, p.subject, p.what), []).append(p)
    for g in groups.values():
        if len(g) > 1 and max(p.lo for p in g) > min(p.hi for p in g) * (1 + 1e-9):
            for p in g:
                p.conflictable = False


def measures_agree(a: Prepared, b: Prepared) -> bool:
    """Both figures say what they measure, and it is the same (open parts match)."""
    if not (a.comparable and b.comparable):
        return False
    if not (a.what or b.what or a.soft or b.soft):
        return True
    return support_compatible(a.what, b.what) and support_compatible(a.soft, b.soft)


def hw_compatible(a: Prepared, b: Prepared) -> bool:
    """Hardware agrees where both state it (a bare chip matches any count of it)."""
    if a.hw is None or b.hw is None:
        return True
    if a.hw[1] != b.hw[1]:
        return False
    return a.hw[0] is None or b.hw[0] is None or a.hw[0] == b.hw[0]


def engine_compatible(a: Prepared, b: Prepared) -> bool:
    """Engine agrees where both state it."""
    return a.engine is None or b.engine is None or a.engine == b.engine


def same_opt(x: str | None, y: str | None) -> bool:
    """Optional attribute agreement: equal, or left open by one side."""
    return x is None or y is None or x == y


def op_points_close(a: float | None, b: float | None, rel: float = 0.10) -> bool | None:
    """None when either operating point is unknown; else within ``rel`` of the larger."""
    if a is None or b is None:
        return None
    m = max(abs(a), abs(b))
    return m == 0 or abs(a - b) <= rel * m


def _same_setting(x: float | None, y: float | None) -> bool:
    return x is None or y is None or same_setting(x, y)


def conditions_compatible(a: Prepared, b: Prepared) -> bool:
    """Same subject conditions where both state them: hardware, engine, concurrency, batch
    size, input and output lengths, and operating point."""
    if not (hw_compatible(a, b) and engine_compatible(a, b)):
        return False
    if a.settings is not None and b.settings is not None and not all(
            _same_setting(x, y) for x, y in zip(a.settings, b.settings)):
        return False
    return op_points_close(a.op_point, b.op_point) is not False


def rank(p: Prepared) -> tuple[int, str, str]:
    """Order for link direction: the source of a link is the later or secondary claim."""
    r = {"secondary": 2, "unknown": 1}.get(p.role, 0)
    return (r, p.published, p.id)


def agree(a: Prepared, b: Prepared) -> bool:
    """Values consistent at their stated precision (consistency.consistent, cached)."""
    return consistent_bounds(a.bnd, a.fig.value, b.bnd, b.fig.value)
