"""One figure's chain: where it appears, whom it cites, what supports or contradicts it.

``trace(claim_id, record)`` gathers, for one claim: its document, span, page and quoted
sentence; the source it credits (``asserted_by``) and the documents in the record that
source names; every link touching it (supports, restates, conflicts, mismatch, derives),
read from the claim's side; the other figures of its cluster in publication order with
the first source marked; its findings; and, for figures outside primary documents, the
verdict a check of the figure against the primary record gives. Its *story*
(``pipeline.graph``): the first appearance, the propagation tree, what changed along the
way and which figures appear only downstream.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.citation import cite_evidence
from pipeline.model import Claim, Link
from pipeline.record import DocInfo, Record
from pipeline.words import cite, describe, fmt_number, scope_words


class TraceError(LookupError):
    """No such claim, or an id prefix that names several."""


@dataclass
class Step:
    """A link seen from the traced claim: 'supported by', 'conflicts with', ..."""

    phrase: str
    relation: str
    claim: Claim
    doc: DocInfo
    detail: str = ""
    link: Link | None = None


@dataclass
class Trace:
    claim: Claim
    doc: DocInfo
    quote: tuple[str, str, str]
    findings: list[str]
    cites: str | None
    cited_docs: list[DocInfo]
    steps: list[Step] = field(default_factory=list)
    cluster_id: str | None = None
    cluster: list[tuple[Claim, DocInfo]] = field(default_factory=list)
    verdict: object | None = None   # pipeline.check.Verdict for non-primary figures
    story: object | None = None     # pipeline.graph.ClaimStory: first appearance, propagation
    # claim id -> citation line, for the figures shown that a benchmark result file holds
    citations: dict[str, str] = field(default_factory=dict)
    # per-GPU / per-node figures derived from the traced MLPerf result (pipeline.derived):
    # shown as derived, never as the result
    derived: list = field(default_factory=list)

    def to_dict(self) -> dict:
        c, d = self.claim, self.doc

        def ref(x: Claim, xd: DocInfo) -> dict:
            return {"id": x.id, "doc_path": xd.path, "page": x.page, "start": x.start,
                    "end": x.end, "surface": x.surface, "value": x.value, "unit": x.unit,
                    "scope": x.scope, "role": xd.role, "published": xd.published,
                    "citation": self.citations.get(x.id)}

        return {
            "claim": {**ref(c, d), "family": c.family, "comparator": c.comparator,
                      "sentence": "".join(self.quote), "stance": c.stance,
                      "asserted_by": c.asserted_by, "model": c.model, "hardware": c.hardware,
                      "engine": c.engine, "statistic": c.statistic},
            "document": {"id": d.id, "path": d.path, "title": d.title, "publisher": d.publisher,
                         "published": d.published, "role": d.role, "url": d.url},
            "findings": self.findings,
            "cites": self.cites,
            "cited_documents": [x.path for x in self.cited_docs],
            "links": [{"phrase": s.phrase, "relation": s.relation, "detail": s.detail,
                       **ref(s.claim, s.doc)} for s in self.steps],
            "cluster": {"id": self.cluster_id,
                        "members": [ref(x, xd) for x, xd in self.cluster]},
            "verdict": self.verdict.to_dict() if self.verdict is not None else None,
            "story": self.story.to_dict() if self.story is not None else None,
            "derived": [{**d.to_dict(), "text": d.text()} for d in self.derived],
        }


def find_claim(record: Record, claim_id: str) -> Claim:
    """The claim with this id, or the only one whose id starts with it."""
    c = record.claims.get(claim_id)
    if c is not None:
        return c
    hits = [x for k, x in record.claims.items() if k.startswith(claim_id)] if claim_id else []
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise TraceError(f"no claim with id {claim_id!r} (see `claims export claims`)")
    raise TraceError(f"{len(hits)} claims start with {claim_id!r}; give more characters")


def _phrase(ln: Link, me: str) -> str:
    out = ln.src == me
    return {
        "supports": "agrees with" if out else "supported by",
        "restates": "restates" if out else "restated by",
        "conflicts": "conflicts with",
        "mismatch": "same number, different metric, in",
        "derives": "computed from" if out else "operand of",
    }.get(ln.relation, ln.relation)


def trace(claim_id: str, record: Record, checker=None, judged=None) -> Trace:
    """Everything the record says about one figure. ``checker`` judges a figure outside
    primary documents (``judge_with_derived`` reads its ``record`` and calls its ``check``);
    by default a ``Checker`` over ``record``, which must then hold every primary figure.
    A caller holding only part of the record (``claims serve``) passes one that checks
    against the warehouse. ``judged`` (``pipeline.judged.Judged``) holds the verdicts
    already worked out for this warehouse state; by default those kept for the state the
    record was loaded from."""
    from pipeline.check import Checker
    from pipeline.judged import Judged
    from pipeline.link.attribution import SourceIndex

    c = find_claim(record, claim_id)
    d = record.doc(c)
    cited: list[DocInfo] = []
    if c.asserted_by:
        idx = SourceIndex()
        for x in record.docs.values():
            idx.add(x.id, publisher=x.publisher, title=x.title, author=x.author, url=x.url,
                    path=x.path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
        cited = [record.docs[i] for i in idx.resolve(c.asserted_by) if i in record.docs]
    steps: list[Step] = []
    for ln in record.links_of(c.id):
        if ln.relation == "derives" and ln.src == c.id:
            for oid, role in ((ln.dst, "a"), (ln.other, "b")):
                o = record.claims.get(oid or "")
                if o is not None:
                    steps.append(Step(f"computed from ({role})", ln.relation, o, record.doc(o),
                                      ln.detail, ln))
            continue
        other_id = ln.dst if ln.src == c.id else ln.src
        o = record.claims.get(other_id)
        if o is None:
            continue
        steps.append(Step(_phrase(ln, c.id), ln.relation, o, record.doc(o), ln.detail, ln))
    order = {"restates": 0, "supports": 1, "conflicts": 2, "mismatch": 3, "derives": 4}
    steps.sort(key=lambda s: (order.get(s.relation, 9), s.doc.order_key(), s.claim.start))
    cid = record.clusters.get(c.id)
    members: list[tuple[Claim, DocInfo]] = []
    if cid:
        members = sorted(((x, record.doc(x)) for k, x in record.claims.items()
                          if record.clusters.get(k) == cid),
                         key=lambda t: (t[1].order_key(), t[0].start))
    verdict = None
    if d.role != "primary":
        judged = judged if judged is not None else Judged.of_record(record)
        verdict = judged.get(c, "".join(record.quote(c)))
        if verdict is None:
            verdict = judged.judge(checker or Checker(record), c)
    from pipeline.graph import claim_story

    cites = {x.id: line for x in [c, *(s.claim for s in steps), *(m for m, _ in members)]
             if (line := record.citation(x))}
    if verdict is not None:
        def line_of(i: str) -> str | None:
            x = record.claims.get(i)
            return cites.get(i) or (record.citation(x) if x is not None else None)
        cite_evidence(verdict, line_of)
    return Trace(c, d, record.quote(c), record.findings_of(c.id), c.asserted_by, cited, steps,
                 cid, members, verdict, claim_story(record, c.id), cites, record.derived_of(c))


def format_trace(t: Trace) -> str:
    """The trace as plain text, one fact a line."""
    c, d = t.claim, t.doc
    before, fig, after = t.quote
    lines = [
        f"{c.surface}  [{c.id}]",
        f"  reads as   {fmt_number(c.value, c.unit)} {c.unit} "
        f"{scope_words(c.scope) if c.family in ('token_throughput', 'request_throughput') else ''}"
        .rstrip() + f"  ({c.family}, comparator {c.comparator or '='})",
        f"  quantity   {describe(c)}",
        f"  appears in {d.path} [{c.start}:{c.end}]" + (f", page {c.page}" if c.page else "")
        + f"  ({d.role}{', ' + d.published if d.published else ''}; {d.name})",
    ]
    if c.id in t.citations:
        lines.append(f"  cited as   {t.citations[c.id]}")
    for d in t.derived:
        lines.append(f"  {d.text()}")
    lines += [
        f"  sentence   {' '.join(before.split())[-200:]} »{fig}« {' '.join(after.split())[:200]}"
        .rstrip(),
        f"  stance     {c.stance}",
    ]
    if t.cites:
        docs = ", ".join(x.path for x in t.cited_docs) or "no document in the record"
        lines.append(f"  cites      {t.cites} -> {docs}")
    else:
        lines.append("  cites      nobody (the document states it as its own)")
    if t.findings:
        lines.append(f"  findings   {', '.join(t.findings)}")
    if t.steps:
        lines.append("  links")
        for s in t.steps:
            lines.append(f"    {s.phrase} {s.claim.surface} [{s.claim.id}] in {cite(s.doc, s.claim.page)}"
                         f" ({s.doc.role})" + (f": {s.detail}" if s.detail else ""))
            if s.claim.id in t.citations:
                lines.append(f"      cited as {t.citations[s.claim.id]}")
    else:
        lines.append("  links      none")
    if t.cluster:
        lines.append(f"  cluster    {t.cluster_id}, {len(t.cluster)} figures in publication order")
        for i, (x, xd) in enumerate(t.cluster):
            mark = "first" if i == 0 else "     "
            me = "  <- this figure" if x.id == c.id else ""
            lines.append(f"    {mark} {xd.published or 'undated'}  {x.surface} [{x.id}]  "
                         f"{xd.path} ({xd.role}){me}")
    if t.story is not None:
        lines.extend(t.story.lines())
    if t.verdict is not None:
        v = t.verdict
        lines.append(f"  check      {v.verdict}: {v.explanation}")
        for e in v.evidence:
            if getattr(e, "citation", ""):
                lines.append(f"    {e.relation} {e.surface}, cited as {e.citation}")
            if getattr(e, "derived", ""):      # a figure derived from the row, not published
                lines.append(f"      {e.derived}" if e.citation
                             else f"    {e.relation} {e.surface}, {e.derived}")
    return "\n".join(lines) + "\n"
