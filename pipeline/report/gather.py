"""What the reports show, gathered from the record once; markdown.py and html.py only lay
it out. Every figure shown is a ``Fig``: the claim, its document, the quoted sentence split
around the figure, and the path, character span and page that locate it.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pipeline.check import Checker, Verdict, judge_stored
from pipeline.link.keys import hardware_text
from pipeline.model import Claim, Link
from pipeline.record import DocInfo, Record
from pipeline.words import FAMILY_NOUNS, SCOPE_NOUNS, fmt_number, hw_key, scope_words

VERDICT_ORDER = ("contradicted", "ambiguous", "unproven", "supported")


@dataclass
class Fig:
    """One figure as shown: claim, document, quote and where to find it."""

    claim: Claim
    doc: DocInfo
    quote: tuple[str, str, str]
    findings: list[str] = field(default_factory=list)
    first: bool = False
    verdict: Verdict | None = None

    @property
    def where(self) -> str:
        """'path [start:end]' plus the page for paged documents."""
        c = self.claim
        return f"{self.doc.path} [{c.start}:{c.end}]" + (f", p. {c.page}" if c.page else "")


@dataclass
class ClusterView:
    id: str
    title: str
    figs: list[Fig]               # publication order; figs[0].first is True
    links: list[tuple[Link, Fig, Fig]]
    has_conflict: bool
    has_mismatch: bool


@dataclass
class DerivedView:
    ratio: Fig
    a: Fig | None
    b: Fig | None
    arithmetic: str
    consistent: bool | None
    where: str                    # same document | across documents


@dataclass
class SecondaryView:
    doc: DocInfo
    unsourced: list[Fig]          # figures no primary document contains (verdict != supported)
    sourced: list[Fig]


@dataclass
class ReportData:
    record: Record
    generated: str
    overview: list[tuple[str, str]]
    verdict_counts: Counter
    secondary: list[SecondaryView]
    clusters: list[ClusterView]
    conflicts: list[tuple[Link, Fig, Fig]]
    mismatches: list[tuple[Link, Fig, Fig]]
    derived: list[DerivedView]
    ambiguous: list[Fig]
    misattributed: list[Fig]
    documents: list[tuple[DocInfo, list[Fig]]]
    charts: list = field(default_factory=list)   # charts.Chart


def _fig(record: Record, c: Claim) -> Fig:
    return Fig(c, record.doc(c), record.quote(c), record.findings_of(c.id))


def cluster_title(c: Claim) -> str:
    """'DeepSeek-V4.1-Flash · per-GPU throughput · 72 x GB300'."""
    parts = []
    if c.model:
        parts.append(c.model)
    noun = FAMILY_NOUNS.get(c.family, c.family)
    scope = SCOPE_NOUNS.get(c.scope or "", "")
    parts.append(f"{scope} {noun}".strip() if c.family in ("token_throughput",
                                                            "request_throughput") else noun)
    hw = hardware_text(hw_key(c))
    if hw:
        parts.append(hw)
    return " · ".join(parts)


def arithmetic(ln: Link, ratio: Claim, a: Claim | None, b: Claim | None) -> str:
    """'826 / 575 − 1 = 43.7% (stated 44%)' from a derives link."""
    form = (ln.detail or "").split(" ", 1)[0]
    av = fmt_number(a.value, a.unit) if a else "a"
    bv = fmt_number(b.value, b.unit) if b else "b"
    unit = "x" if ratio.family == "ratio" else "%"
    expr = {"a/b-1": f"({av} / {bv} − 1) × 100", "a/b": f"{av} / {bv}" + (" × 100" if unit == "%" else ""),
            "1-a/b": f"(1 − {av} / {bv}) × 100"}.get(form, f"{av} / {bv}")
    computed = f"{ln.computed:.3g}" if ln.computed is not None else "?"
    if ln.computed is not None and abs(ln.computed) >= 100:
        computed = f"{ln.computed:,.1f}"
    stated = ratio.surface
    return f"{expr} = {computed}{unit} (stated {stated})"


def gather(record: Record, with_charts: bool = True) -> ReportData:
    """Everything both reports show."""
    figs = {k: _fig(record, c) for k, c in record.claims.items()}
    docs = sorted(record.docs.values(), key=lambda d: d.order_key())

    # per secondary document: every active figure checked against the primary record
    checker = Checker(record)
    verdicts: Counter = Counter()
    secondary: list[SecondaryView] = []
    by_doc: dict[str, list[Claim]] = defaultdict(list)
    for c in record.claims.values():
        by_doc[c.doc_id].append(c)
    for d in docs:
        if d.role == "primary":
            continue
        claims = sorted(by_doc.get(d.id, []), key=lambda c: c.start)
        if not claims:
            continue
        view = SecondaryView(d, [], [])
        for c in claims:
            f = figs[c.id]
            if not record.active(c):
                continue
            f.verdict = judge_stored(checker, c)
            verdicts[f.verdict.verdict] += 1
            (view.sourced if f.verdict.verdict == "supported" else view.unsourced).append(f)
        secondary.append(view)

    # clusters, members in publication order
    members: dict[str, list[Claim]] = defaultdict(list)
    for k, cid in record.clusters.items():
        if k in record.claims:
            members[cid].append(record.claims[k])
    clusters: list[ClusterView] = []
    for cid, ms in members.items():
        ms.sort(key=lambda c: (record.doc(c).order_key(), c.start))
        cfigs = [Fig(c, record.doc(c), record.quote(c), record.findings_of(c.id),
                     verdict=figs[c.id].verdict) for c in ms]
        if cfigs:
            cfigs[0].first = True
        ids = {c.id for c in ms}
        by_id = {f.claim.id: f for f in cfigs}
        inner = [(ln, by_id[ln.src], by_id[ln.dst]) for ln in record.links
                 if ln.relation != "derives" and ln.src in ids and ln.dst in ids]
        primary_first = next((c for c in ms if record.role(c) == "primary"), ms[0])
        clusters.append(ClusterView(
            cid, cluster_title(primary_first), cfigs, inner,
            any(ln.relation == "conflicts" for ln, _, _ in inner),
            any(ln.relation == "mismatch" for ln, _, _ in inner)))
    clusters.sort(key=lambda v: (not v.has_conflict, not v.has_mismatch,
                                 -len({f.doc.id for f in v.figs}), v.title))

    def pairs(rel: str) -> list[tuple[Link, Fig, Fig]]:
        return [(ln, figs[ln.src], figs[ln.dst]) for ln in record.links
                if ln.relation == rel and ln.src in figs and ln.dst in figs]

    derived = []
    for ln in record.links:
        if ln.relation != "derives" or ln.src not in figs:
            continue
        a, b = figs.get(ln.dst), figs.get(ln.other or "")
        where = "across documents" if "across" in (ln.detail or "") else "same document"
        derived.append(DerivedView(figs[ln.src], a, b,
                                   arithmetic(ln, record.claims[ln.src], a and a.claim,
                                              b and b.claim),
                                   ln.consistent, where))

    ambiguous = [f for f in figs.values() if "ambiguous" in f.findings]
    misattributed = [f for f in figs.values() if "misattributed" in f.findings]
    documents = [(d, sorted((figs[c.id] for c in by_doc.get(d.id, [])),
                            key=lambda f: f.claim.start)) for d in docs]

    roles = Counter(d.role for d in record.docs.values())
    rel = Counter(ln.relation for ln in record.links)
    found = Counter(x for fs in record.findings.values() for x in fs)
    n_claims = len(record.claims)
    overview = [
        ("documents", f"{len(record.docs)}"),
        ("primary / secondary / unknown", f"{roles['primary']} / {roles['secondary']} / "
                                          f"{roles['unknown']}"),
        ("figures (claims)", f"{n_claims}"),
        ("clusters", f"{len(clusters)}"),
        ("supports / restates", f"{rel['supports']} / {rel['restates']}"),
        ("conflicts", f"{rel['conflicts']}"),
        ("metric mismatches", f"{rel['mismatch']}"),
        ("derived checks", f"{rel['derives']}"),
        ("unsourced (link stage)", f"{found['unsourced']}"),
        ("ambiguous (no denominator)", f"{found['ambiguous']}"),
        ("misattributed", f"{found['misattributed']}"),
    ]
    data = ReportData(
        record=record,
        generated=dt.datetime.now().replace(microsecond=0).isoformat(sep=" "),
        overview=overview, verdict_counts=verdicts, secondary=secondary, clusters=clusters,
        conflicts=pairs("conflicts"), mismatches=pairs("mismatch"), derived=derived,
        ambiguous=sorted(ambiguous, key=lambda f: (f.doc.order_key(), f.claim.start)),
        misattributed=misattributed, documents=documents)
    if with_charts:
        from pipeline.report.charts import build_charts

        data.charts = build_charts(record)
    return data


def scope_label(c: Claim) -> str:
    return scope_words(c.scope) if c.family in ("token_throughput", "request_throughput") else ""
