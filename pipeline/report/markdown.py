"""report.md: the same sections as report.html, in Markdown (charts as their data)."""
from __future__ import annotations

import re

from pipeline.report.gather import Fig, ReportData, scope_label
from pipeline.words import describe, safe_url, trimmed_quote

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def esc(text: str | None) -> str:
    return _MD_SPECIAL.sub(r"\\\1", " ".join((text or "").split()))


def quote(f: Fig, width: int = 400) -> str:
    before, fig, after = trimmed_quote(f.quote, width)
    return f"{esc(before)} **{esc(fig)}** {esc(after)}".strip()


def where(f: Fig) -> str:
    return (f"`{f.where}`" + (f" (cited as: {esc(f.citation)})" if f.citation else "")
            + "".join(f" ({esc(d)})" for d in f.derived))


def evidence_lines(v) -> str:
    """The verdict's evidence figures read from result files, each with its citation, and
    the division of a figure derived from one (``derived: 52,061.6 / 4 accelerators ...``)."""
    return "".join(f"\n  - {esc(x.relation.replace('_', ' '))} {esc(x.surface)}"
                   + (f", cited as: {esc(x.citation)}" if getattr(x, "citation", "") else "")
                   + (f" ({esc(x.derived)})" if getattr(x, "derived", "") else "")
                   for x in v.evidence[:4]
                   if getattr(x, "citation", "") or getattr(x, "derived", ""))


def fig_line(f: Fig, with_doc: bool = True) -> str:
    c = f.claim
    head = f"**{esc(c.surface)}**"
    if f.first:
        head = "(first source) " + head
    scope = scope_label(c)
    if scope and "user" not in c.surface.lower() and "gpu" not in c.surface.lower():
        head += f" {scope}"
    src = f" — {esc(f.doc.short)}, {f.doc.published or 'undated'} ({f.doc.role})" if with_doc else ""
    tags = f" — findings: {', '.join(f.findings)}" if f.findings else ""
    return f"{head}{src} — {where(f)}{tags}\n  > {quote(f)}"


SUMMARY_FIGURES, SUMMARY_CLUSTERS, SUMMARY_PAIRS, SUMMARY_ITEMS, SUMMARY_GROUPS = 60, 15, 20, 30, 30


def _more(n: int, what: str) -> list[str]:
    return [f"{n:,} more {what}: see the model pages.", ""] if n > 0 else []


def _head(data: ReportData, title: str, back: str | None = None) -> list[str]:
    r = data.record
    out = [f"# {esc(title)}", ""]
    if back:
        out += [f"[← summary]({back})", ""]
    out.append(f"Database `{esc(r.db_path)}`, generated {data.generated}."
               + (f" Only {esc(data.scope.words())}." if data.scope.narrowed else "")
               + (" Links were computed in memory: the database held none."
                  if r.linked_in_memory else ""))
    return out


def coverage(views, cap: int | None = None, doc_link=None) -> list[str]:
    out: list[str] = []
    if not views:
        out.append("No secondary document holds figures.")
    left, hidden = cap, 0
    for view in views:
        d = view.doc
        items = view.unsourced + view.sourced
        if left is not None and left <= 0:
            hidden += len(items)
            continue
        shown = items if left is None else items[:left]
        hidden += len(items) - len(shown)
        if left is not None:
            left -= len(shown)
        go = doc_link(d) if doc_link else None
        title = esc(d.title or d.path) + (f" ([all its figures]({go}))" if go else "")
        out += [f"### {title}", "",
                f"{esc(d.publisher or '')} {d.published or 'undated'} · `{esc(d.path)}` · "
                f"{d.role} ({d.role_source or 'no source'}) · {len(view.unsourced)} of "
                f"{len(items)} figures not in any primary document", ""]
        unsourced = [f for f in shown if f in view.unsourced]
        sourced = [f for f in shown if f not in view.unsourced]
        for f in unsourced:
            v = f.verdict
            out.append(f"- **{v.verdict.upper()}** · unsourced · " + fig_line(f, False)
                       + f"\n  {esc(v.explanation)}" + evidence_lines(v))
        if sourced:
            out += ["", "Figures a primary document contains:", ""]
            for f in sourced:
                out.append("- **SUPPORTED** · " + fig_line(f, False)
                           + f"\n  {esc(f.verdict.explanation)}" + evidence_lines(f.verdict))
        out.append("")
    out += _more(hidden, "figures outside primary documents")
    return out


def cluster_block(cv, page: str | None = None, max_figs: int | None = None,
                  max_rels: int | None = 60) -> list[str]:
    flags = (" — **conflict**" if cv.has_conflict else "") + \
            (" — **metric mismatch**" if cv.has_mismatch else "")
    link = f" [Its page, with the graph]({page}#{cv.id})." if page else ""
    out = [f"### {esc(cv.title)}{flags}", "", f"Cluster `{cv.id}`, {len(cv.figs)} figures, "
           f"sources in publication order.{link}", ""]
    figs = cv.figs if max_figs is None else cv.figs[:max_figs]
    for i, f in enumerate(figs, 1):
        out.append(f"{i}. {fig_line(f)}")
    if len(figs) < len(cv.figs):
        out += ["", f"{len(cv.figs) - len(figs):,} more figures on its page."]
    links = cv.links if max_rels is None else cv.links[:max_rels]
    if links:
        out.append("")
        for ln, a, b in links:
            out.append(f"- {ln.relation}: {esc(a.claim.surface)} ({esc(a.doc.short)}) — "
                       f"{esc(b.claim.surface)} ({esc(b.doc.short)}): {esc(ln.detail)}")
        if len(links) < len(cv.links):
            out.append(f"- {len(cv.links) - len(links):,} more relations")
    out.append("")
    return out


def derived_lines(items) -> list[str]:
    out = [] if items else ["No ratio or percentage is computed from two figures in the record."]
    for dv in items:
        ok = {True: "consistent", False: "INCONSISTENT", None: "unchecked"}[dv.consistent]
        out.append(f"- **{esc(dv.ratio.claim.surface)}** ({ok}, {dv.where}): "
                   f"{esc(dv.arithmetic)} — {where(dv.ratio)}\n  > {quote(dv.ratio)}")
        for name, x in (("a", dv.a), ("b", dv.b)):
            if x is not None:
                out.append(f"  - {name} = {esc(x.claim.surface)} — {esc(x.doc.short)} {where(x)}")
    out.append("")
    return out


def findings_lines(ambiguous, misattributed, cap: int | None = None) -> list[str]:
    amb = ambiguous if cap is None else ambiguous[:cap]
    mis = misattributed if cap is None else misattributed[:cap]
    out = ["## Ambiguous figures (no denominator)", ""]
    if not ambiguous:
        out.append("None.")
    out += [f"- {fig_line(f)}" for f in amb]
    out.append("")
    out += _more(len(ambiguous) - len(amb), "figures with no denominator")
    if misattributed:
        out += ["## Misattributed figures", ""]
        out += [f"- {fig_line(f)} — credited to {esc(f.claim.asserted_by)}" for f in mis]
        out.append("")
        out += _more(len(misattributed) - len(mis), "misattributed figures")
    return out


def render(data: ReportData, pages=None) -> str:
    """report.md: the summary, as report.html (charts as their data)."""
    from pipeline.report.pages import PageIndex

    pages = pages or PageIndex.of(data, ".md")
    out = _head(data, "Claims report")
    out += ["", "## Overview", "", "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in data.overview]
    vc = data.verdict_counts
    if vc:
        out += ["", "Figures outside primary documents, checked against the primary record: "
                + ", ".join(f"{vc[v]} {v}" for v in ("supported", "contradicted", "unproven",
                                                       "ambiguous")) + "."]
    out += ["", "## Figures no primary document contains", ""]
    out += coverage(data.secondary, SUMMARY_FIGURES, pages.doc)

    out += ["## Charts", ""]
    if not data.charts:
        out.append("Not enough per-user or per-GPU figures for a chart.")
    for ch in data.charts:
        out += [f"### {esc(ch.title)}", "", esc(ch.caption) + " (The picture is in report.html.)",
                "", "| " + " | ".join(ch.columns) + " |",
                "|" + "---|" * len(ch.columns)]
        out += ["| " + " | ".join(esc("" if x is None else str(x)) for x in row) + " |"
                for row in ch.rows]
        out.append("")

    out += ["## Claim clusters", ""]
    if not data.clusters:
        out.append("No two documents share a figure.")
    for cv in data.clusters[:SUMMARY_CLUSTERS]:
        out += cluster_block(cv, pages.cluster(cv.id), max_figs=6, max_rels=8)
    out += _more(len(data.clusters) - SUMMARY_CLUSTERS, "clusters")

    out += ["## Conflicts", ""]
    out += _pairs(data.conflicts[:SUMMARY_PAIRS], "No conflicts.")
    out += _more(len(data.conflicts) - SUMMARY_PAIRS, "conflicts")
    out += ["## Metric mismatches", ""]
    out += _pairs(data.mismatches[:SUMMARY_PAIRS], "No metric mismatches.")
    out += _more(len(data.mismatches) - SUMMARY_PAIRS, "metric mismatches")
    out += ["## Derived-figure checks", ""]
    out += derived_lines(data.derived[:SUMMARY_PAIRS])
    out += _more(len(data.derived) - SUMMARY_PAIRS, "derived-figure checks")
    out += findings_lines(data.ambiguous, data.misattributed, SUMMARY_ITEMS)

    out += ["## Models and subjects", ""]
    if data.groups:
        top = data.groups[:SUMMARY_GROUPS]
        out += ["| model or subject | clusters | figures | outside primary | unsourced | "
                "conflicts | mismatches |", "|---|---|---|---|---|---|---|"]
        out += [f"| [{esc(g.title)}]({pages.group(g)}) | {len(g.clusters)} | {g.figures} | "
                f"{len(g.secondary)} | {g.unsourced} | {len(g.conflicts)} | "
                f"{len(g.mismatches)} |" for g in top]
        rest = data.groups[SUMMARY_GROUPS:]
        if rest:
            out += ["", f"{len(rest):,} more: " + ", ".join(
                f"[{esc(g.title)}]({pages.group(g)})" for g in rest) + "."]
    else:
        out.append("No figures.")
    out.append("")

    out += ["## Documents", "", "| path | title | published | role | figures |",
            "|---|---|---|---|---|"]
    out += [f"| [{esc(d.path)}]({pages.doc(d)}) | {esc(d.title or '')} | "
            f"{d.published or 'undated'} | {d.role} | {len(figs)} |" for d, figs in data.documents]
    return "\n".join(out).rstrip() + "\n"


def group_blocks(g, pages) -> list[tuple[str, list[str]]]:
    """A model page's items in Markdown, one for one with html.group_blocks (same
    sections, same order), so both formats cut a page in the same places."""
    from pipeline.report.html import _views

    out: list[tuple[str, list[str]]] = []
    out += [("coverage", coverage([v], None, pages.doc)) for v in _views(g.secondary)]
    out += [("clusters", cluster_block(cv)) for cv in g.clusters]
    out += [("conflicts", pair_lines([p], "", pages)) for p in g.conflicts]
    out += [("mismatches", pair_lines([p], "", pages)) for p in g.mismatches]
    out += [("derived", derived_lines([dv])) for dv in g.derived]
    out += [("ambiguous", [f"- {fig_line(f)}"]) for f in g.ambiguous]
    out += [("misattributed", [f"- {fig_line(f)} — credited to {esc(f.claim.asserted_by)}"])
            for f in g.misattributed]
    return out


def render_group(data: ReportData, g, pages, blocks: list[tuple[str, list[str]]],
                 part: int = 0, parts: list[str] | None = None) -> str:
    """One part of a model's (or subject's) page in Markdown (see html.render_group)."""
    from pipeline.report.html import GROUP_SECTIONS

    parts = parts or []
    nav = []
    if len(parts) > 1:
        nav = [f"Part {part + 1} of {len(parts)}: " + " ".join(
            f"[{i + 1}]({p})" if i != part else f"**{i + 1}**" for i, p in enumerate(parts)), ""]
    name = g.title if part == 0 else f"{g.title} (part {part + 1})"
    out = _head(data, name, pages.summary) + [""]
    if part == 0:
        out += [f"{len(g.clusters)} clusters, {g.figures} figures, {g.unsourced} unsourced, "
                f"{len(g.conflicts)} conflicts. The graph of each cluster is on the HTML page.",
                ""]
    out += nav
    for sid, title, _, _, empty in GROUP_SECTIONS:
        items = [lines for k, lines in blocks if k == sid]
        if items:
            out += [f"## {title}" + ("" if part == 0 else " (continued)"), ""]
            for lines in items:
                out += lines
            out.append("")
        elif part == 0 and sid in ("coverage", "clusters", "conflicts", "mismatches"):
            out += [f"## {title}", "", empty, ""]
    out += nav
    return "\n".join(out).rstrip() + "\n"


def pair_lines(pairs, empty: str, pages) -> list[str]:
    """Conflicts or mismatches one line each (the quotes are in the clusters)."""
    if not pairs:
        return [empty, ""]
    out = []
    for ln, a, b in pairs:
        go = pages.cluster_of(a) if pages else None
        out.append(f"- {esc(a.claim.surface)} ({esc(a.doc.short)}) {where(a)} — "
                   f"{esc(b.claim.surface)} ({esc(b.doc.short)}) {where(b)}: {esc(ln.detail)}"
                   + (f" — [cluster]({go})" if go else ""))
    return out + [""]


def render_doc(data: ReportData, d, figs, pages) -> str:
    """One document's page in Markdown: every figure it holds."""
    out = _head(data, d.title or d.path, pages.summary)
    out += ["", f"`{esc(d.path)}` — {esc(d.publisher or 'no publisher')}, "
            f"{d.published or 'undated'}, {d.role} ({d.role_source or 'no source'})"
            + _url(d.url), ""]
    if not figs:
        out.append("No figures.")
    for f in figs:
        go = pages.cluster_of(f)
        out.append(f"- {esc(describe(f.claim))} — {where(f)}"
                   + (f" — {', '.join(f.findings)}" if f.findings else "")
                   + (f" — check: {f.verdict.verdict}" if f.verdict else "")
                   + (f" — [cluster]({go})" if go else ""))
    return "\n".join(out).rstrip() + "\n"


def _url(url: str | None) -> str:
    """A document's address as an autolink when it is http(s) (with ``<``, ``>``, spaces
    and quotes percent-encoded, so it cannot close the link or open a tag); anything else
    (``javascript:``...) as escaped text marked as not a link."""
    if not url:
        return ""
    link = safe_url(url)
    if link is None:
        return f", address {esc(url)} (not http(s): not linked)"
    return f", <{link}>"


def _pairs(pairs, empty: str) -> list[str]:
    if not pairs:
        return [empty, ""]
    out = []
    for ln, a, b in pairs:
        out.append(f"- {esc(ln.detail)}")
        out.append(f"  - {fig_line(a)}".replace("\n", "\n  "))
        out.append(f"  - {fig_line(b)}".replace("\n", "\n  "))
    out.append("")
    return out
