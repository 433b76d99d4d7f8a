"""Derived checks: is a ratio or percent the arithmetic of two other figures?

"44% above" beside 826 and 575 is 826 / 575 - 1 = 43.7%: consistent. A percent can be an
increase (a/b - 1), a share (a/b) or a decrease (1 - a/b); a ratio is a/b. Each check is a
``derives`` link from the ratio claim to the numerator, with the denominator in ``other``,
the computed value, and whether the stated value agrees.

Only where a reader would see the arithmetic (docs/claims-model.md §3): both operands in the ratio's
own sentence (a table row is its cells' sentence) or the sentences just before and after
it, of a family the ratio can be computed from (not parameter or token counts, which
coincide with any percent; and throughput for a throughput ratio, latency for a latency
one). A number that merely equals some quotient of figures elsewhere is no derivation.

For each candidate numerator the matching denominator is found by binary search in the
value-sorted operands, so a document with n figures costs n log n per percent, not n².
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass

from pipeline.model import Claim, Link

from .consistency import generous_interval, value_matches
from .prepare import Prepared, same_opt

RATIO_FAMILIES = frozenset({"ratio", "percent"})
BOUNDED = frozenset({"=", "~"})
NEAR_CHARS = 400    # without sentence spans (older records): this close counts as adjacent
VIEW_CHARS = 2000   # no adjacent sentence starts or ends further away than this
SENTENCE_GAP = 3    # characters of white space between two adjacent sentences
# Families a ratio or percent can be the arithmetic of (counts of parameters and tokens
# are sizes and settings: their quotients match percents by coincidence).
OPERAND_FAMILIES = frozenset({"token_throughput", "request_throughput", "latency", "money",
                              "memory", "bandwidth", "compute", "power"})
# What a ratio measures (extract/comparison.py) -> the operand families it can come from.
MEASURED_BY = {"throughput": {"token_throughput", "request_throughput"},
               "latency": {"latency"}, "cost": {"money"}, "training cost": {"money"},
               "memory": {"memory"}, "energy": {"power"}}


@dataclass(slots=True)
class Operand:
    value: float
    rel_err: float
    p: Prepared
    pos: int
    s0: int | None      # the operand's sentence
    s1: int | None
    in_table: bool


def _forms(family: str) -> tuple[tuple[str, object], ...]:
    """(name, f) pairs; f maps the quotient a/b to the stated unit."""
    if family == "ratio":
        return (("a/b", lambda q: q),)
    return (("a/b-1", lambda q: (q - 1) * 100), ("a/b", lambda q: q * 100),
            ("1-a/b", lambda q: (1 - q) * 100))


def _quotient_range(family: str, form: str, lo: float, hi: float) -> tuple[float, float] | None:
    """The a/b values that ``form`` maps into the stated interval [lo, hi]."""
    if family == "ratio":
        qlo, qhi = lo, hi
    elif form == "a/b-1":
        qlo, qhi = 1 + lo / 100, 1 + hi / 100
    elif form == "a/b":
        qlo, qhi = lo / 100, hi / 100
    else:
        qlo, qhi = 1 - hi / 100, 1 - lo / 100
    qlo = max(qlo, 1e-12)
    return (qlo, qhi) if qhi > qlo else None


def _compatible(x: Prepared, y: Prepared) -> bool:
    """Same family, unit and scope; the statistic agrees where both state it (a P90 826
    and an unlabelled 575 from the same post are still the operands of "44% above")."""
    return (x.family == y.family and x.unit == y.unit and x.scope == y.scope
            and same_opt(x.statistic, y.statistic))


def _operand(c: Claim, p: Prepared) -> Operand | None:
    if c.value is None or c.value <= 0 or p.family not in OPERAND_FAMILIES or not p.active:
        return None
    if c.low is not None:   # a range is not one operand
        return None
    return Operand(c.value, p.fig.p / c.value, p, c.start, c.sentence_start, c.sentence_end,
                   c.in_table)


def _in_view(r: Claim, o: Operand) -> bool:
    """Would a reader of the ratio see this operand beside it: its sentence, or the one
    just before or after?"""
    if r.sentence_start is None or r.sentence_end is None or o.s0 is None or o.s1 is None:
        return abs(o.pos - r.start) <= NEAR_CHARS
    if o.s0 == r.sentence_start:
        return True
    if r.in_table or o.in_table:
        return False     # a table cell's arithmetic is its own row's
    return (0 <= r.sentence_start - o.s1 <= SENTENCE_GAP
            or 0 <= o.s0 - r.sentence_end <= SENTENCE_GAP)


def _fits(r: Claim, o: Operand) -> bool:
    """The operand is of a quantity the ratio says it measures (any, when it says none)."""
    fams = MEASURED_BY.get(r.measures or "")
    return fams is None or o.p.family in fams


def _search(r: Claim, rp: Prepared, pool: list[Operand]) -> tuple[Operand, Operand, str, float, bool] | None:
    """The consistent (a, b) from ``pool`` (the operands in view, sorted by value) nearest
    to the ratio: the figures a percent is computed from sit close to it."""
    pool_values = [o.value for o in pool]
    slo, shi = generous_interval(rp.fig)
    scale = 1.0 if r.family == "ratio" else 100.0
    best, best_cost = None, None
    for form, f in _forms(r.family):
        qr = _quotient_range(r.family, form, slo, shi)
        if qr is None:
            continue
        for a in pool:
            pad = 1 + a.rel_err + 0.01
            lo_i = bisect_left(pool_values, a.value / qr[1] / pad)
            hi_i = bisect_right(pool_values, a.value / qr[0] * pad)
            for b in pool[lo_i:hi_i]:
                if b.p is a.p or b.value == a.value or not _compatible(a.p, b.p):
                    continue
                q = a.value / b.value
                computed = f(q)
                if not value_matches(rp.fig, computed, scale * q * (a.rel_err + b.rel_err)):
                    continue
                cost = abs(a.pos - r.start) + abs(b.pos - r.start)
                if best_cost is None or cost < best_cost:
                    best, best_cost = (a, b, form, computed, True), cost
    return best


def _nearest_pair(r: Claim, ops: list[Operand]) -> tuple[Operand, Operand, str, float, bool] | None:
    """For an inconsistent check: the two compatible figures in the ratio's sentence, when
    it holds exactly two."""
    if r.sentence_start is None or r.sentence_end is None:
        return None
    inside = [o for o in ops if r.sentence_start <= o.pos < r.sentence_end]
    if len(inside) != 2:
        return None      # which two figures a stated ratio misreports is a guess otherwise
    best = None
    for i, a in enumerate(inside):
        for b in inside[i + 1:]:
            if not _compatible(a.p, b.p) or a.value == b.value:
                continue
            big, small = (a, b) if a.value > b.value else (b, a)
            for form, f in _forms(r.family):
                computed = f(big.value / small.value)
                err = abs(computed - r.value)
                if _plausible(r.family, r.value, computed) and (best is None or err < best[0]):
                    best = (err, (big, small, form, computed, False))
    return best[1] if best else None


def _plausible(family: str, stated: float, computed: float) -> bool:
    """Close enough that the writer plausibly meant this arithmetic and got it wrong.

    Without this, any percent beside two unrelated figures ("96% cache hit" next to 142K
    and 444) would be reported as a failed derivation.
    """
    if family == "ratio":
        return stated > 0 and 0.5 <= computed / stated <= 2.0
    return abs(computed - stated) <= max(15.0, 0.5 * abs(stated))


def derive_links(claims: list[Claim], prepared: list[Prepared],
                 only: set[str] | None = None) -> list[Link]:
    """A ``derives`` link for every ratio/percent claim that two figures explain.

    ``only`` restricts the checks to these ratio claim ids (incremental relinking).
    """
    by_doc: dict[str, list[Operand]] = defaultdict(list)
    for c, p in zip(claims, prepared):
        o = _operand(c, p)
        if o is not None:
            by_doc[c.doc_id].append(o)
    positions: dict[str, list[int]] = {}
    for d, ops in by_doc.items():
        ops.sort(key=lambda o: o.pos)
        positions[d] = [o.pos for o in ops]

    ratios_in: dict[tuple, int] = defaultdict(int)
    for c in claims:
        if c.family in RATIO_FAMILIES:
            ratios_in[(c.doc_id, c.sentence_start)] += 1

    links: list[Link] = []
    for r, rp in zip(claims, prepared):
        if r.family not in RATIO_FAMILIES or not rp.active or r.value is None:
            continue
        if only is not None and r.id not in only:
            continue
        ops, pos = by_doc.get(r.doc_id, []), positions.get(r.doc_id, [])
        lo = min(r.start, r.sentence_start if r.sentence_start is not None else r.start)
        hi = max(r.end, r.sentence_end if r.sentence_end is not None else r.end)
        window = ops[bisect_left(pos, lo - VIEW_CHARS):bisect_right(pos, hi + VIEW_CHARS)]
        near = [o for o in window if _in_view(r, o) and _fits(r, o)]
        hit = None
        if r.comparator in BOUNDED and r.low is None and near:
            hit = _search(r, rp, sorted(near, key=lambda o: o.value))
        if hit is None and r.comparator in BOUNDED and ratios_in[(r.doc_id, r.sentence_start)] == 1:
            # an inconsistent check only for a sentence's one ratio: with two ("67 to 253
            # (3.7x), and to 368 (5.5x)"), which figures a misfit one divides is a guess
            hit = _nearest_pair(r, near)
        if hit is None:
            continue
        a, b, form, computed, ok = hit
        links.append(Link(
            r.id, a.p.id, "derives", ok,
            f"{form} with a={a.value:g}, b={b.value:g} gives {computed:.4g} "
            f"vs stated {r.comparator}{r.value:g} ("
            + ("same sentence" if a.s0 == b.s0 == r.sentence_start and a.s0 is not None
               else "adjacent sentences") + ")",
            computed=computed, other=b.p.id))
    return links
