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
    return f"`{f.where}`"


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


def render(data: ReportData) -> str:
    r = data.record
    out: list[str] = ["# Claims report", ""]
    out.append(f"Database `{esc(r.db_path)}`, generated {data.generated}."
               + (" Links were computed in memory: the database held none."
                  if r.linked_in_memory else ""))
    out += ["", "## Overview", "", "| | |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in data.overview]
    vc = data.verdict_counts
    if vc:
        out += ["", "Figures outside primary documents, checked against the primary record: "
                + ", ".join(f"{vc[v]} {v}" for v in ("supported", "contradicted", "unproven",
                                                       "ambiguous")) + "."]

    out += ["", "## Figures no primary document contains", ""]
    if not data.secondary:
        out.append("No secondary document holds figures.")
    for view in data.secondary:
        d = view.doc
        out += [f"### {esc(d.title or d.path)}", "",
                f"{esc(d.publisher or '')} {d.published or 'undated'} · `{esc(d.path)}` · "
                f"{d.role} ({d.role_source or 'no source'}) · {len(view.unsourced)} of "
                f"{len(view.unsourced) + len(view.sourced)} figures not in any primary document",
                ""]
        for f in view.unsourced:
            v = f.verdict
            out.append(f"- **{v.verdict.upper()}** · unsourced · " + fig_line(f, False)
                       + f"\n  {esc(v.explanation)}")
        if view.sourced:
            out += ["", "Figures a primary document contains:", ""]
            for f in view.sourced:
                out.append("- **SUPPORTED** · " + fig_line(f, False)
                           + f"\n  {esc(f.verdict.explanation)}")
        out.append("")

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
    for cv in data.clusters:
        flags = (" — **conflict**" if cv.has_conflict else "") + \
                (" — **metric mismatch**" if cv.has_mismatch else "")
        out += [f"### {esc(cv.title)}{flags}", "", f"Cluster `{cv.id}`, sources in publication "
                f"order.", ""]
        for i, f in enumerate(cv.figs, 1):
            out.append(f"{i}. {fig_line(f)}")
        if cv.links:
            out.append("")
            for ln, a, b in cv.links:
                out.append(f"- {ln.relation}: {esc(a.claim.surface)} ({esc(a.doc.short)}) — "
                           f"{esc(b.claim.surface)} ({esc(b.doc.short)}): {esc(ln.detail)}")
        out.append("")

    out += ["## Conflicts", ""]
    out += _pairs(data.conflicts, "No conflicts.")
    out += ["## Metric mismatches", ""]
    out += _pairs(data.mismatches, "No metric mismatches.")

    out += ["## Derived-figure checks", ""]
    if not data.derived:
        out.append("No ratio or percentage is computed from two figures in the record.")
    for dv in data.derived:
        ok = {True: "consistent", False: "INCONSISTENT", None: "unchecked"}[dv.consistent]
        out.append(f"- **{esc(dv.ratio.claim.surface)}** ({ok}, {dv.where}): "
                   f"{esc(dv.arithmetic)} — {where(dv.ratio)}\n  > {quote(dv.ratio)}")
        for name, x in (("a", dv.a), ("b", dv.b)):
            if x is not None:
                out.append(f"  - {name} = {esc(x.claim.surface)} — {esc(x.doc.short)} {where(x)}")
    out.append("")

    out += ["## Ambiguous figures (no denominator)", ""]
    if not data.ambiguous:
        out.append("None.")
    for f in data.ambiguous:
        out.append(f"- {fig_line(f)}")
    out.append("")
    if data.misattributed:
        out += ["## Misattributed figures", ""]
        for f in data.misattributed:
            out.append(f"- {fig_line(f)} — credited to {esc(f.claim.asserted_by)}")
        out.append("")

    out += ["## Documents and all their figures", ""]
    for d, figs in data.documents:
        out += [f"### {esc(d.path)}", "",
                f"{esc(d.title or '')} — {esc(d.publisher or 'no publisher')}, "
                f"{d.published or 'undated'}, {d.role} ({d.role_source or 'no source'})"
                + _url(d.url), ""]
        if not figs:
            out.append("No figures.")
        for f in figs:
            out.append(f"- {esc(describe(f.claim))} — {where(f)}"
                       + (f" — {', '.join(f.findings)}" if f.findings else "")
                       + (f" — check: {f.verdict.verdict}" if f.verdict else ""))
        out.append("")
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
