"""Pairwise relations between claims of different documents (docs/claims-model.md §3).

Claims are blocked on their subject (model, else hardware); inside a block they are
sorted by the low end of their interval and swept, so each claim meets only the claims
whose values could agree with it. That yields ``supports``, ``restates`` and ``mismatch``
in near-linear time. ``conflicts`` need the opposite (values that do *not* agree), so they
are found inside the narrower exact-quantity groups, where only real rivals meet.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pipeline.model import Link

from .attribution import SourceIndex
from .keys import HARDWARE_FAMILIES
from .measure import support_compatible
from .prepare import (COUNT_FAMILIES, Prepared, agree, conditions_compatible, measures_agree,
                      op_points_close, rank, same_opt)

MISMATCH_MIN_VALUE = 10.0   # small numbers coincide across metrics too easily
MISMATCH_REL_PRECISION = 0.05
NEIGHBOURS = 3              # conflict partners per side in very large groups
LARGE_GROUP = 64
MAX_PARTNERS = 3            # agreeing (or mismatch) links kept per figure: its first sources
BOUNDED = frozenset({"=", "~"})


def _same_measure(a: Prepared, b: Prepared) -> bool:
    """Statistic, phase and token kind agree where both state them."""
    return (same_opt(a.statistic, b.statistic) and same_opt(a.phase, b.phase)
            and same_opt(a.token_kind, b.token_kind))


def classify(a: Prepared, b: Prepared, sources: SourceIndex) -> Link | None:
    """The relation of two value-consistent candidates, or None.

    Figures whose text does not say what they measure (measure.py: a percent with no
    metric or baseline, an input length, memory of no named accelerator) relate to nothing.
    """
    if a.doc == b.doc or not (a.active and b.active and a.comparable and b.comparable):
        return None
    if not conditions_compatible(a, b):
        return None
    if not agree(a, b):
        return None
    src, dst = (a, b) if rank(a) >= rank(b) else (b, a)
    if a.family == b.family and a.unit == b.unit:
        if not measures_agree(a, b):
            return None
        if a.scope and b.scope and a.scope != b.scope:
            return _mismatch(src, dst, f"scope {src.scope} vs {dst.scope}")
        if not _same_measure(a, b):
            return None
        detail = "values agree at the stated precision"
        if not (a.scope and b.scope) and a.family in ("token_throughput", "request_throughput"):
            detail += "; scope unspecified on one side"
        if (src.role == "secondary" and dst.role == "primary" and src.asserted_by
                and dst.doc in sources.resolve(src.asserted_by)):
            return Link(src.id, dst.id, "restates", True,
                        f"attributed to {src.asserted_by}; " + detail)
        return Link(src.id, dst.id, "supports", True, detail)
    if a.family != b.family and a.family in COUNT_FAMILIES and b.family in COUNT_FAMILIES:
        return _mismatch(src, dst, f"family {src.family} vs {dst.family}")
    if a.family == b.family and a.unit != b.unit:
        return _mismatch(src, dst, f"unit {src.unit} vs {dst.unit}")
    return None


def _mismatch(src: Prepared, dst: Prepared, why: str) -> Link | None:
    """Only for two stated numbers: "at least 500" meets too many figures to be drift."""
    if abs(src.fig.value) < MISMATCH_MIN_VALUE or abs(dst.fig.value) < MISMATCH_MIN_VALUE:
        return None
    # "the same number" needs numbers stated finely enough to be recognisably the same: a
    # "1M" context window is not 1,183,327 tokens/s
    if any(p.fig.p > MISMATCH_REL_PRECISION * abs(p.fig.value) for p in (src, dst)):
        return None
    if src.fig.comparator not in BOUNDED or dst.fig.comparator not in BOUNDED:
        return None
    return Link(src.id, dst.id, "mismatch", True, f"same number, different metric: {why}")


def blocks_by_subject(prepared: Iterable[Prepared]) -> dict[str, list[Prepared]]:
    """Claims grouped by subject; claims with no subject, and those whose text does not say
    what they measure (they relate to nothing), are left out."""
    out: dict[str, list[Prepared]] = defaultdict(list)
    for p in prepared:
        if p.subject is not None and p.active and p.comparable:
            out[p.subject].append(p)
    return out


def agreeing_links(block: list[Prepared], sources: SourceIndex) -> list[Link]:
    """supports / restates / mismatch inside one subject block, by interval sweep.

    Each figure keeps at most ``MAX_PARTNERS`` links of each kind (agreeing, mismatch): to
    the partners that rank first (a primary before coverage, the earliest before the
    later). One figure repeated in thousands of documents is then a few stars around its
    first sources, not a clique of millions of links, and every figure that a primary
    supports still links to a primary (so ``unsourced`` and the clusters read the same as
    with every pair)."""
    block = sorted(block, key=lambda p: p.lo)
    by_id = {p.id: p for p in block}
    best: dict[tuple[str, str], list[Link]] = {}
    n = len(block)
    for i in range(n):
        a = block[i]
        hi = a.hi
        for j in range(i + 1, n):
            b = block[j]
            if b.lo > hi:
                break
            if b.hi < a.lo:
                continue
            link = classify(a, b, sources)
            if link is None:
                continue
            kind = "mismatch" if link.relation == "mismatch" else "agrees"
            held = best.setdefault((link.src, kind), [])
            held.append(link)
            if len(held) > MAX_PARTNERS:
                held.sort(key=lambda ln: rank(by_id[ln.dst]))
                del held[MAX_PARTNERS:]
    return sorted((ln for held in best.values() for ln in held),
                  key=lambda ln: (ln.src, ln.relation, ln.dst))


def _conflict_group_key(p: Prepared) -> tuple | None:
    """Exact quantity and conditions: only claims equal here can contradict each other.

    Open parts are not wildcards here (unlike for support): a figure that leaves the
    hardware or scope open cannot be shown wrong by one that states it. Nor can a figure
    whose text does not say what it measures, or one of a document's model variants.
    """
    if not (p.comparable and p.conflictable):
        return None
    if p.family in ("token_throughput", "request_throughput") and p.scope is None:
        return None
    if p.family == "parameters" and p.fig.comparator not in BOUNDED:
        return None     # "models larger than 67B" is a class of models, not a size
    # memory/bandwidth/compute carry their hardware in ``what`` (a device figure holds for
    # any count of the device)
    hw = None if p.family in HARDWARE_FAMILIES else p.hw
    # every setting that changes the number, stated or not: 2.0k tok/s per H200 at 96-way
    # EP does not contradict 2.2k at 32-way EP, nor one that leaves EP unsaid
    return (p.family, p.unit, p.scope, p.statistic, p.phase, p.token_kind, hw,
            p.engine, p.concurrency, p.batch_size, p.isl, p.osl, p.setup, p.what)


_SCALES = {"count": ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")),
           "bytes": ((1e12, " TB"), (1e9, " GB"), (1e6, " MB")),
           "bytes s": ((1e12, " TB/s"), (1e9, " GB/s"), (1e6, " MB/s")),
           "flop s": ((1e15, " PFLOPS"), (1e12, " TFLOPS"), (1e9, " GFLOPS"))}


def _show(p: Prepared) -> str:
    """A figure's value in its unit, readably: 671B, 80 GB, 660 TFLOPS, 2.4x, 42.5%.
    (``p.unit`` is the normalised unit key: 'flop s' for FLOP/s.)"""
    v, unit = p.fig.value, p.unit
    for scale, suffix in _SCALES.get(unit.lower(), ()):
        if abs(v) >= scale:
            return f"{v / scale:.4g}{suffix}"
    if unit == "x":
        return f"{v:g}x"
    if unit in ("%", ""):
        return f"{v:g}{unit}"
    return f"{v:g} {unit.replace(' s', '/s').replace(' ', '/')}"


def _describe(p: Prepared) -> str:
    """What the two figures were found to share, for the reader: ' (parameters: total)'."""
    parts = [x for x in p.what if isinstance(x, str) and x not in ("-", "device")]
    if p.hw is not None and p.family in HARDWARE_FAMILIES:
        parts.append(p.hw[1])
    parts += [x for x in (p.scope, p.statistic, p.phase, p.token_kind) if x]
    return f" ({p.family}: {', '.join(parts)})" if parts else f" ({p.family})"


def conflict_links(block: list[Prepared]) -> list[Link]:
    """Cross-document conflicts inside one subject block."""
    groups: dict[tuple, list[Prepared]] = defaultdict(list)
    for p in block:
        k = _conflict_group_key(p)
        if k is not None:
            groups[k].append(p)
    links: list[Link] = []
    for g in groups.values():
        if len(g) < 2 or len({p.doc for p in g}) < 2:
            continue
        g.sort(key=lambda p: p.fig.value)
        reach = len(g) if len(g) <= LARGE_GROUP else NEIGHBOURS
        for i, a in enumerate(g):
            for b in g[i + 1:i + 1 + reach]:
                if a.doc == b.doc or op_points_close(a.op_point, b.op_point) is False:
                    continue
                if a.role == b.role == "primary" and a.publisher and a.publisher == b.publisher:
                    # one publisher's own figures that differ across its documents are
                    # successive results (a later release, a newer run), not a dispute
                    continue
                if a.soft and not support_compatible(a.soft, b.soft):
                    continue
                if not same_opt(a.dtype, b.dtype):
                    continue    # FP8 and BF16 figures measure different setups
                if agree(a, b):
                    continue
                src, dst = (a, b) if rank(a) >= rank(b) else (b, a)
                links.append(Link(src.id, dst.id, "conflicts", False,
                                  f"same quantity{_describe(src)}, {_show(src)} vs "
                                  f"{_show(dst)}"))
    return links
