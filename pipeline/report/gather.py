"""What the reports show, gathered from the record once; markdown.py and html.py only lay
it out. Every figure shown is a ``Fig``: the claim, its document, the quoted sentence split
around the figure, and the path, character span and page that locate it.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pipeline.checker import Verdict
from pipeline.citation import cite_evidence
from pipeline.link.keys import hardware_text, model_key
from pipeline.model import Claim, Link
from pipeline.record import DocInfo, Record
from pipeline.report.scope import Scope, select
from pipeline.report.verdicts import Judging
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
    citation: str | None = None   # a benchmark result file's row, cited (pipeline.citation)
    # per-GPU / per-node figures derived from this MLPerf result, each marked derived
    derived: list[str] = field(default_factory=list)

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
    # figures no primary document contains: not supported, or supported only by a figure
    # derived from a result (per GPU from a per-system MLPerf row: pipeline.derived_check)
    unsourced: list[Fig]
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
    scope: Scope = field(default_factory=Scope)
    groups: list["GroupView"] = field(default_factory=list)

    def page_of_cluster(self) -> dict[str, str]:
        """cluster id -> the slug of the page that shows it whole."""
        return {cv.id: g.slug for g in self.groups for cv in g.clusters}


@dataclass
class GroupView:
    """One model's (or one kind of figure's) page."""

    key: str
    title: str
    slug: str
    clusters: list[ClusterView] = field(default_factory=list)
    secondary: list[Fig] = field(default_factory=list)
    conflicts: list[tuple[Link, Fig, Fig]] = field(default_factory=list)
    mismatches: list[tuple[Link, Fig, Fig]] = field(default_factory=list)
    derived: list[DerivedView] = field(default_factory=list)
    ambiguous: list[Fig] = field(default_factory=list)
    misattributed: list[Fig] = field(default_factory=list)
    figures: int = 0

    @property
    def unsourced(self) -> int:
        return sum(1 for f in self.secondary if f.verdict and f.verdict.verdict != "supported")


def _fig(record: Record, c: Claim) -> Fig:
    return Fig(c, record.doc(c), record.quote(c), record.findings_of(c.id),
               citation=record.citation(c), derived=[d.text() for d in record.derived_of(c)])


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


def group_of(c: Claim) -> tuple[str, str]:
    """(key, title) of the page a figure belongs on: its model (aliases folded), else its
    kind of figure ('no model · latency')."""
    mk = model_key(c.model)
    if mk:
        return "m:" + mk, c.model or mk
    return "s:" + c.family, "no model · " + FAMILY_NOUNS.get(c.family, c.family)


def page_slug(kind: str, key: str, title: str) -> str:
    """A file stem safe on every file system and in a URL: 'model-llama-3-70b-1a2b3c4d'.
    The hash of the key keeps two titles that fold to one slug apart."""
    base = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")[:48].strip("-") or "x"
    return f"{kind}-{base}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:8]}"


def gather(record: Record, with_charts: bool = True, scope: Scope | None = None,
           workers: int = 1, while_checking=None) -> ReportData:
    """Everything the report pages show, for the figures in ``scope`` (default: all).

    The figures outside primary documents are checked in ``workers`` processes; meanwhile
    this process builds the charts and the clusters and calls ``while_checking(clusters)``
    (the report draws each cluster's graph there)."""
    scope = scope or Scope()
    chosen, chosen_docs = select(record, scope)

    def inside(k: str) -> bool:
        return chosen is None or k in chosen

    docs = sorted((d for d in record.docs.values()
                   if chosen_docs is None or d.id in chosen_docs), key=lambda d: d.order_key())

    by_doc: dict[str, list[Claim]] = defaultdict(list)
    for c in record.claims.values():
        by_doc[c.doc_id].append(c)
    # per secondary document: every active figure checked against the primary record
    to_check = [c for d in docs if d.role != "primary"
                for c in sorted(by_doc.get(d.id, []), key=lambda c: c.start)
                if inside(c.id) and record.active(c)]
    judging = Judging(record, to_check, workers)
    # what the pages show of each figure: made while the checks run (after the fork)
    figs = {k: _fig(record, c) for k, c in record.claims.items()}
    in_scope = [c for c in record.claims.values() if inside(c.id)]
    charts = None
    if with_charts:
        from pipeline.report.charts import build_charts

        charts = build_charts(record, None if chosen is None else in_scope)
    clusters = _clusters(record, inside)
    if while_checking is not None:
        while_checking(clusters)
    judged = judging.result()
    for v in judged.values():       # primary figures from result files, cited as evidence
        cite_evidence(v, lambda i: figs[i].citation if i in figs else None)
    verdicts: Counter = Counter()
    secondary: list[SecondaryView] = []
    for d in docs:
        if d.role == "primary":
            continue
        claims = [c for c in sorted(by_doc.get(d.id, []), key=lambda c: c.start) if inside(c.id)]
        if not claims:
            continue
        view = SecondaryView(d, [], [])
        for c in claims:
            f = figs[c.id]
            if c.id not in judged:
                continue
            f.verdict = judged[c.id]
            verdicts[f.verdict.verdict] += 1
            contained = f.verdict.verdict == "supported" and \
                not any(getattr(x, "derived", "") for x in f.verdict.evidence)
            (view.sourced if contained else view.unsourced).append(f)
        secondary.append(view)

    for cv in clusters:         # checked figures carry their verdict in clusters too
        for f in cv.figs:
            f.verdict = figs[f.claim.id].verdict

    def touches(ln: Link) -> bool:
        return inside(ln.src) or inside(ln.dst)

    def pairs(rel: str) -> list[tuple[Link, Fig, Fig]]:
        return [(ln, figs[ln.src], figs[ln.dst]) for ln in record.links
                if ln.relation == rel and ln.src in figs and ln.dst in figs and touches(ln)]

    derived = []
    for ln in record.links:
        if ln.relation != "derives" or ln.src not in figs or not inside(ln.src):
            continue
        a, b = figs.get(ln.dst), figs.get(ln.other or "")
        where = "across documents" if "across" in (ln.detail or "") else "same document"
        derived.append(DerivedView(figs[ln.src], a, b,
                                   arithmetic(ln, record.claims[ln.src], a and a.claim,
                                              b and b.claim),
                                   ln.consistent, where))

    ambiguous = [f for k, f in figs.items() if "ambiguous" in f.findings and inside(k)]
    misattributed = [f for k, f in figs.items() if "misattributed" in f.findings and inside(k)]
    documents = [(d, sorted((figs[c.id] for c in by_doc.get(d.id, []) if inside(c.id)),
                            key=lambda f: f.claim.start)) for d in docs]

    roles = Counter(d.role for d in docs)
    rel = Counter(ln.relation for ln in record.links if touches(ln))
    found = Counter(x for c in in_scope for x in record.findings_of(c.id))
    overview = [
        ("documents", f"{len(docs)}"),
        ("primary / secondary / unknown", f"{roles['primary']} / {roles['secondary']} / "
                                          f"{roles['unknown']}"),
        ("figures (claims)", f"{len(in_scope)}"),
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
        misattributed=misattributed, documents=documents, scope=scope)
    data.groups = _groups(data)
    if charts is not None:
        data.charts = charts
    return data


def _clusters(record: Record, inside) -> list[ClusterView]:
    """Every cluster with a chosen figure, whole; members in publication order (verdicts
    are set by ``gather`` once the checks are done)."""
    members: dict[str, list[Claim]] = defaultdict(list)
    for k, cid in record.clusters.items():
        if k in record.claims:
            members[cid].append(record.claims[k])
    shown = {cid for cid, ms in members.items() if any(inside(c.id) for c in ms)}
    inner_links: dict[str, list[Link]] = defaultdict(list)
    for ln in record.links:
        cid = record.clusters.get(ln.src)
        if ln.relation != "derives" and cid in shown and record.clusters.get(ln.dst) == cid:
            inner_links[cid].append(ln)
    clusters: list[ClusterView] = []
    for cid in shown:
        ms = members[cid]
        ms.sort(key=lambda c: (record.doc(c).order_key(), c.start))
        cfigs = [Fig(c, record.doc(c), record.quote(c), record.findings_of(c.id)) for c in ms]
        if cfigs:
            cfigs[0].first = True
        by_id = {f.claim.id: f for f in cfigs}
        inner = [(ln, by_id[ln.src], by_id[ln.dst]) for ln in inner_links.get(cid, ())
                 if ln.src in by_id and ln.dst in by_id]
        primary_first = next((c for c in ms if record.role(c) == "primary"), ms[0])
        clusters.append(ClusterView(
            cid, cluster_title(primary_first), cfigs, inner,
            any(ln.relation == "conflicts" for ln, _, _ in inner),
            any(ln.relation == "mismatch" for ln, _, _ in inner)))
    clusters.sort(key=lambda v: (not v.has_conflict, not v.has_mismatch,
                                 -len({f.doc.id for f in v.figs}), v.title, v.id))
    return clusters


def _groups(data: ReportData) -> list[GroupView]:
    """One page per model (or kind of figure without a model): its clusters, secondary
    figures, conflicts, mismatches, derived checks and findings."""
    groups: dict[str, GroupView] = {}
    spellings: dict[str, Counter] = defaultdict(Counter)
    for d, fs in data.documents:
        for f in fs:
            key, title = group_of(f.claim)
            spellings[key][title] += 1

    def get(c: Claim) -> GroupView:
        key, title = group_of(c)
        g = groups.get(key)
        if g is None:
            # the model as most of its figures spell it
            names = spellings.get(key)
            if names:
                title = min(names.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            kind = "model" if key.startswith("m:") else "subject"
            g = groups[key] = GroupView(key, title, page_slug(kind, key, title))
        return g

    for cv in data.clusters:
        lead = next((f for f in cv.figs if f.doc.role == "primary"), cv.figs[0])
        get(lead.claim).clusters.append(cv)
    for view in data.secondary:
        for f in view.unsourced + view.sourced:
            get(f.claim).secondary.append(f)
    for ln, a, b in data.conflicts:
        get(a.claim).conflicts.append((ln, a, b))
    for ln, a, b in data.mismatches:
        get(a.claim).mismatches.append((ln, a, b))
    for dv in data.derived:
        get(dv.ratio.claim).derived.append(dv)
    for f in data.ambiguous:
        get(f.claim).ambiguous.append(f)
    for f in data.misattributed:
        get(f.claim).misattributed.append(f)
    for d, fs in data.documents:
        for f in fs:
            get(f.claim).figures += 1
    out = list(groups.values())
    out.sort(key=lambda g: (-len(g.conflicts), -g.unsourced, -g.figures, g.title.casefold(),
                            g.key))
    return out


def scope_label(c: Claim) -> str:
    return scope_words(c.scope) if c.family in ("token_throughput", "request_throughput") else ""
