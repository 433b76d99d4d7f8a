"""Rounding- and comparator-aware consistency of two figures.

A stated number stands for an interval: "1.09 million" means anything that rounds (or was
truncated) to it, "more than 1,000" means (1000, inf), "up to 376" means (-inf, 376].
Two figures are consistent when their intervals meet. The coarser figure is read
generously (rounded *or* truncated: "$38" may be $38.96 cut short), while two figures
stated to the same precision are compared strictly, so 825 and 826 do not agree.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

INF = math.inf
APPROX_REL = 0.05  # "about 1,000" tolerates 5%


def default_precision(value: float) -> float:
    """Half the place of the last written digit, when the extractor gave no precision.

    A plain integer is taken as stated to the unit (826 -> 0.5, 1000 -> 0.5: "1,000" names
    every digit); a decimal to its last decimal (62.7 -> 0.05). Scaled forms ("954K") carry
    their own precision from the extractor.
    """
    if value == 0 or not math.isfinite(value):
        return 0.5
    v = abs(value)
    if v == int(v):
        return 0.5
    s = f"{v:.10f}".rstrip("0")
    d = len(s.split(".")[1]) if "." in s else 0
    return 0.5 * 10 ** (-d)


@dataclass(frozen=True, slots=True)
class Figure:
    """The numeric part of a claim, all that consistency needs."""

    value: float
    low: float | None = None
    high: float | None = None
    comparator: str = "="
    precision: float | None = None

    @property
    def p(self) -> float:
        return self.precision if self.precision is not None else default_precision(self.value)


def _ends(f: Figure) -> tuple[float, float]:
    lo = f.low if f.low is not None else f.value
    hi = f.high if f.high is not None else f.value
    return (min(lo, hi), max(lo, hi))


def approx_width(lo, hi, p, greatest=max):
    """How far "about N" reaches: 5% of the figure's size, at least its precision."""
    return greatest(p, APPROX_REL * greatest(abs(lo), abs(hi)))


# The interval each comparator gives a figure whose ends are lo <= hi, stated to precision
# p: the rule written once. ``rounding_interval`` reads it with numbers; the warehouse
# checker (check_sql) writes it out as SQL with column expressions (``greatest`` is max
# here, SQL's greatest there). A comparator not listed reads as "=".
ROUNDING = {
    ">": lambda lo, hi, p, greatest: (hi, INF),
    ">=": lambda lo, hi, p, greatest: (hi - p, INF),
    "<": lambda lo, hi, p, greatest: (-INF, lo),
    "<=": lambda lo, hi, p, greatest: (-INF, lo + p),
    "~": lambda lo, hi, p, greatest: (lo - approx_width(lo, hi, p, greatest),
                                      hi + approx_width(lo, hi, p, greatest)),
    "=": lambda lo, hi, p, greatest: (lo - p, hi + p),
}
# comparators whose figure may also be truncated ("$38" for $38.96): the generous
# interval reaches p further up
TRUNCATED = ("=", "~")


def rounding_interval(f: Figure) -> tuple[float, float]:
    """Values that round to the figure (comparators open one side)."""
    lo, hi = _ends(f)
    return ROUNDING.get(f.comparator, ROUNDING["="])(lo, hi, f.p, max)


def generous_interval(f: Figure) -> tuple[float, float]:
    """Rounding interval widened for truncation: [v - p, v + 2p]. Superset of the above."""
    lo, hi = rounding_interval(f)
    if f.comparator in TRUNCATED:
        return (lo, hi + f.p)
    return (lo, hi)


_isfinite = math.isfinite


def _eps(a: float, b: float) -> float:
    # max(|a|, |b|, 1) over the finite ends, written out: builtin max() calls cost more
    # than this test on the checker's hot path (~2M calls for the report's checks)
    a = abs(a) if _isfinite(a) else 0.0
    b = abs(b) if _isfinite(b) else 0.0
    m = b if b > a else a
    return 1e-9 * (1.0 if 1.0 > m else m)


def bounds(f: Figure) -> tuple[float, float, float, float, float, bool]:
    """(precision, rounding lo, hi, generous lo, hi, is '=') — cache this per claim."""
    r = rounding_interval(f)
    g = generous_interval(f)
    return (f.p, r[0], r[1], g[0], g[1], f.comparator == "=")


def consistent_bounds(a: tuple, va: float, b: tuple, vb: float) -> bool:
    """``consistent`` over cached ``bounds`` (the hot path when linking millions)."""
    pa, pb = a[0], b[0]
    # the coarser figure's generous interval meets the other's rounding interval (the
    # same max/min as ``consistent``, written out: this runs millions of times)
    if pa > pb * 1.000001:
        lo, hi, blo, bhi, strict = a[3], a[4], b[1], b[2], False
    elif pb > pa * 1.000001:
        lo, hi, blo, bhi, strict = a[1], a[2], b[3], b[4], False
    else:
        lo, hi, blo, bhi, strict = a[1], a[2], b[1], b[2], a[5] and b[5]
    if blo > lo:
        lo = blo
    if bhi < hi:
        hi = bhi
    eps = _eps(lo, hi)
    if strict:
        return lo < hi - eps or abs(va - vb) <= eps
    return lo <= hi + eps


def consistent(a: Figure, b: Figure) -> bool:
    """True when the two figures can describe the same value at the precision stated.

    >>> consistent(Figure(1.09e6, precision=5000), Figure(1094347, precision=0.5))
    True
    >>> consistent(Figure(38, precision=0.5), Figure(38.96, precision=0.005))
    True
    >>> consistent(Figure(1000, comparator=">"), Figure(826, precision=0.5))
    False
    """
    pa, pb = a.p, b.p
    if pa > pb * 1.000001:
        ia, ib, strict = generous_interval(a), rounding_interval(b), False
    elif pb > pa * 1.000001:
        ia, ib, strict = rounding_interval(a), generous_interval(b), False
    else:
        ia, ib = rounding_interval(a), rounding_interval(b)
        strict = a.comparator == "=" and b.comparator == "="
    lo, hi = max(ia[0], ib[0]), min(ia[1], ib[1])
    eps = _eps(lo, hi)
    if strict:
        # Same precision: the intervals must share more than an endpoint, unless equal.
        return lo < hi - eps or abs(a.value - b.value) <= eps
    return lo <= hi + eps


def value_matches(stated: Figure, computed: float, abs_err: float = 0.0) -> bool:
    """Is a computed value (give or take ``abs_err``) consistent with a stated figure?

    Used by derived checks: the computed value comes from rounded operands, so it carries
    their error.
    """
    w = abs(abs_err)
    lo, hi = generous_interval(stated)
    eps = _eps(lo, hi)
    return computed + w >= lo - eps and computed - w <= hi + eps
