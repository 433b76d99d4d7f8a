"""report.html: one self-contained page (inline CSS and SVG, no scripts, fonts or images)."""
from __future__ import annotations

from html import escape
from importlib.resources import files
from string import Template

from pipeline.report.gather import Fig, ReportData, scope_label
from pipeline.words import describe, safe_url, trimmed_quote

VERDICT_CLASS = {"supported": "v-supported", "contradicted": "v-contradicted",
                 "unproven": "v-unproven", "ambiguous": "v-ambiguous"}


def _res(name: str) -> str:
    return files("pipeline.report").joinpath(name).read_text(encoding="utf-8")


def e(text) -> str:
    return escape("" if text is None else str(text), quote=True)


def quote(f: Fig, width: int = 420) -> str:
    before, fig, after = trimmed_quote(f.quote, width)
    return (f'<blockquote class="quote">{e(before)} <mark>{e(fig)}</mark> {e(after)}'
            f'</blockquote>')


def where(f: Fig) -> str:
    c = f.claim
    page = f' <span class="page">p. {c.page}</span>' if c.page else ""
    return (f'<span class="where" title="document path, character span and page">'
            f'<code>{e(f.doc.path)}</code> <code>[{c.start}:{c.end}]</code>{page}</span>')


def badge(verdict: str) -> str:
    return f'<span class="verdict {VERDICT_CLASS.get(verdict, "")}">{e(verdict)}</span>'


def tags(f: Fig) -> str:
    return "".join(f'<span class="tag t-{e(x)}">{e(x)}</span>' for x in f.findings)


def fig_head(f: Fig, with_doc: bool = True, with_tags: bool = True) -> str:
    c = f.claim
    scope = scope_label(c)
    extra = ""
    if scope and "user" not in c.surface.lower() and "gpu" not in c.surface.lower():
        extra = f' <span class="scope">{e(scope)}</span>'
    doc = ""
    if with_doc:
        doc = (f' <span class="src">{e(f.doc.short)}, {e(f.doc.published or "undated")}'
               f' <span class="role r-{e(f.doc.role)}">{e(f.doc.role)}</span></span>')
    first = ' <span class="first">first source</span>' if f.first else ""
    return (f'<div class="fig-head"><strong class="figure">{e(c.surface)}</strong>{extra}'
            f'{doc}{first} {tags(f) if with_tags else ""}</div>')


def section(id_: str, title: str, body: str) -> str:
    return f'<section id="{id_}"><h2>{e(title)}</h2>\n{body}\n</section>'


def render(data: ReportData) -> str:
    r = data.record
    parts: list[str] = []
    note = (' <span class="note">Links were computed in memory: the database held none.</span>'
            if r.linked_in_memory else "")
    # overview
    cards = "".join(f'<div class="card"><div class="num">{e(v)}</div><div class="lbl">{e(k)}'
                    f'</div></div>' for k, v in data.overview)
    vc = data.verdict_counts
    vline = ""
    if vc:
        vline = ('<p class="verdicts">Figures outside primary documents, checked against the '
                 'primary record: ' + " ".join(f'{badge(v)} {vc[v]}' for v in
                                               ("supported", "contradicted", "unproven",
                                                "ambiguous")) + "</p>")
    parts.append(section("overview", "Overview", f'<div class="cards">{cards}</div>{vline}'))

    # figures no primary document contains
    body = []
    if not data.secondary:
        body.append("<p>No secondary document holds figures.</p>")
    for view in data.secondary:
        d = view.doc
        n = len(view.unsourced) + len(view.sourced)
        body.append(f'<article class="doc"><h3>{e(d.title or d.path)}</h3>'
                    f'<p class="meta">{e(d.publisher or "")} · {e(d.published or "undated")} · '
                    f'<code>{e(d.path)}</code> · <span class="role r-{e(d.role)}">{e(d.role)}'
                    f'</span> · {len(view.unsourced)} of {n} figures not in any primary document'
                    f'</p>')
        body.append('<table class="figs"><thead><tr><th>verdict</th><th>figure and quote</th>'
                    '<th>why</th></tr></thead><tbody>')
        for f in view.unsourced + view.sourced:
            v = f.verdict
            status = "" if v.verdict == "supported" else '<span class="tag t-unsourced">unsourced</span>'
            body.append(f'<tr><td>{badge(v.verdict)} {status}</td>'
                        f'<td>{fig_head(f, False, False)}{quote(f)}{where(f)}</td>'
                        f'<td class="why">{e(v.explanation)}{_evidence(v)}</td></tr>')
        body.append("</tbody></table></article>")
    parts.append(section("coverage", "Figures no primary document contains", "\n".join(body)))

    # charts
    body = []
    for ch in data.charts:
        body.append(f'<figure class="chart" id="{e(ch.id)}-fig">{ch.svg}'
                    f'<figcaption>{e(ch.caption)}</figcaption></figure>')
    if not body:
        body.append("<p>Not enough per-user or per-GPU figures for a chart.</p>")
    parts.append(section("charts", "Charts", "\n".join(body)))

    # clusters
    body = []
    if not data.clusters:
        body.append("<p>No two documents share a figure.</p>")
    for cv in data.clusters:
        flags = ('<span class="flag f-conflict">conflict</span>' if cv.has_conflict else "") + \
                ('<span class="flag f-mismatch">metric mismatch</span>' if cv.has_mismatch else "")
        items = "".join(f'<li>{fig_head(f)}{quote(f)}{where(f)}</li>' for f in cv.figs)
        rels = "".join(f'<li class="rel rel-{e(ln.relation)}"><strong>{e(ln.relation)}</strong>: '
                       f'{e(a.claim.surface)} ({e(a.doc.short)}) — {e(b.claim.surface)} '
                       f'({e(b.doc.short)}): {e(ln.detail)}</li>' for ln, a, b in cv.links)
        body.append(f'<article class="cluster" id="{e(cv.id)}"><h3>{e(cv.title)} {flags}</h3>'
                    f'<p class="meta">cluster <code>{e(cv.id)}</code> · sources in publication '
                    f'order</p><ol class="members">{items}</ol>'
                    + (f'<ul class="rels">{rels}</ul>' if rels else "") + '</article>')
    parts.append(section("clusters", "Claim clusters", "\n".join(body)))

    parts.append(section("conflicts", "Conflicts", _pairs(data.conflicts, "No conflicts.",
                                                         "callout-conflict")))
    parts.append(section("mismatches", "Metric mismatches",
                         _pairs(data.mismatches, "No metric mismatches.", "callout-mismatch")))

    # derived
    body = []
    if not data.derived:
        body.append("<p>No ratio or percentage is computed from two figures in the record.</p>")
    for dv in data.derived:
        ok = {True: ("consistent", "v-supported"), False: ("inconsistent", "v-contradicted"),
              None: ("unchecked", "v-ambiguous")}[dv.consistent]
        ops = "".join(f'<li>{name} = {fig_head(x)}{where(x)}</li>'
                      for name, x in (("a", dv.a), ("b", dv.b)) if x is not None)
        body.append(f'<article class="derived"><div class="fig-head">'
                    f'<strong class="figure">{e(dv.ratio.claim.surface)}</strong> '
                    f'<span class="verdict {ok[1]}">{ok[0]}</span> <span class="meta">'
                    f'{e(dv.where)}</span></div><p class="arith"><code>{e(dv.arithmetic)}'
                    f'</code></p>{quote(dv.ratio)}{where(dv.ratio)}<ul>{ops}</ul></article>')
    parts.append(section("derived", "Derived-figure checks", "\n".join(body)))

    body = ["<p>Throughput figures that state no denominator (per user, per GPU, ...).</p>"
            if data.ambiguous else "<p>None.</p>", '<ul class="plain">']
    body += [f'<li>{fig_head(f)}{quote(f)}{where(f)}</li>' for f in data.ambiguous]
    body.append("</ul>")
    if data.misattributed:
        body.append("<h3>Misattributed</h3><ul class=\"plain\">")
        body += [f'<li>{fig_head(f)} credited to {e(f.claim.asserted_by)}{quote(f)}{where(f)}</li>'
                 for f in data.misattributed]
        body.append("</ul>")
    parts.append(section("findings", "Ambiguous and misattributed figures", "\n".join(body)))

    body = []
    for d, figs in data.documents:
        rows = "".join(
            f'<tr><td>{e(describe(f.claim))}</td><td>{where(f)}</td>'
            f'<td>{tags(f)}{badge(f.verdict.verdict) if f.verdict else ""}</td></tr>'
            for f in figs) or '<tr><td colspan="3">No figures.</td></tr>'
        url = _url(d.url)
        body.append(f'<details class="docfigs"><summary><code>{e(d.path)}</code> — '
                    f'{e(d.title or "")} <span class="role r-{e(d.role)}">{e(d.role)}</span> '
                    f'{len(figs)} figures</summary><p class="meta">{e(d.publisher or "")} · '
                    f'{e(d.published or "undated")} · role from {e(d.role_source or "nothing")}'
                    f'{url}</p><table class="figs"><tbody>{rows}</tbody></table></details>')
    parts.append(section("documents", "Documents and all their figures", "\n".join(body)))

    nav = "".join(f'<a href="#{i}">{t}</a>' for i, t in (
        ("overview", "Overview"), ("coverage", "Unsourced"), ("charts", "Charts"),
        ("clusters", "Clusters"), ("conflicts", "Conflicts"), ("mismatches", "Mismatches"),
        ("derived", "Derived"), ("findings", "Ambiguous"), ("documents", "Documents")))
    header = (f'<header><h1>Claims report</h1><p class="meta">Database <code>{e(r.db_path)}</code>'
              f' · generated {e(data.generated)}{note}</p><nav>{nav}</nav></header>')
    return Template(_res("template.html")).substitute(
        title="Claims report", css=_res("report.css"), body=header + "\n<main>\n"
        + "\n".join(parts) + "\n</main>")


def _url(url: str | None) -> str:
    """A document's address: a link when it is http(s), else text (never a
    ``javascript:`` or ``data:`` link from a document's metadata)."""
    if not url:
        return ""
    link = safe_url(url)
    if link is None:
        return f' · <span class="url-text" title="not an http(s) address: not a link">{e(url)}</span>'
    return f' · <a href="{e(link)}" rel="noopener noreferrer nofollow">{e(url)}</a>'


def _evidence(v) -> str:
    if not v.evidence:
        return ""
    items = "".join(f'<li><span class="rel-{e(x.relation)}">{e(x.relation.replace("_", " "))}'
                    f'</span> {e(x.surface)} <code>{e(x.doc_path)} [{x.start}:{x.end}]</code>'
                    + (f' p. {x.page}' if x.page else "") + '</li>' for x in v.evidence[:4])
    return f'<ul class="evidence">{items}</ul>'


def _pairs(pairs, empty: str, cls: str) -> str:
    if not pairs:
        return f"<p>{e(empty)}</p>"
    out = []
    for ln, a, b in pairs:
        out.append(f'<article class="callout {cls}"><p class="detail">{e(ln.detail)}</p>'
                   f'<div class="pair"><div>{fig_head(a)}{quote(a)}{where(a)}</div>'
                   f'<div>{fig_head(b)}{quote(b)}{where(b)}</div></div></article>')
    return "\n".join(out)
