"""report.html: one self-contained page (inline CSS and SVG, no scripts, fonts or images)."""
from __future__ import annotations

from html import escape
from importlib.resources import files
from string import Template

from pipeline.report.gather import Fig, ReportData, scope_label
from pipeline.report.pages import PageIndex
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
    cited = (f' <span class="cite" title="the result file\'s row, as its source asks to be '
             f'cited">cited as: {e(f.citation)}</span>' if f.citation else "")
    cited += "".join(f' <span class="cite derived" title="derived from the per-system result, '
                     f'not an official result">{e(d)}</span>' for d in f.derived)
    return (f'<span class="where" title="document path, character span and page">'
            f'<code>{e(f.doc.path)}</code> <code>[{c.start}:{c.end}]</code>{page}</span>{cited}')


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


# at most this many items of a kind on the summary page; the model pages hold the rest
SUMMARY_FIGURES = 60
SUMMARY_CLUSTERS = 15
SUMMARY_PAIRS = 20
SUMMARY_ITEMS = 30
SUMMARY_CLUSTER_FIGS = 6
SUMMARY_GROUPS = 30       # rows of the model index (the rest as a list of links)
MAX_RELS = 60


def _more(n: int, what: str, where: str = "the model pages") -> str:
    return f'<p class="more">{n:,} more {e(what)}: see {where}.</p>' if n > 0 else ""


def coverage(views, cap: int | None = None, doc_link=None) -> str:
    """Figures outside primary documents with their verdicts, per secondary document."""
    body: list[str] = []
    if not views:
        body.append("<p>No secondary document holds figures.</p>")
    left = cap
    hidden = 0
    for view in views:
        d = view.doc
        items = view.unsourced + view.sourced
        if left is not None and left <= 0:
            hidden += len(items)
            continue
        n = len(items)
        title = e(d.title or d.path)
        if doc_link:
            title = f'<a href="{e(doc_link(d))}">{title}</a>'
        body.append(f'<article class="doc"><h3>{title}</h3>'
                    f'<p class="meta">{e(d.publisher or "")} · {e(d.published or "undated")} · '
                    f'<code>{e(d.path)}</code> · <span class="role r-{e(d.role)}">{e(d.role)}'
                    f'</span> · {len(view.unsourced)} of {n} figures not in any primary document'
                    f'</p>')
        body.append('<table class="figs"><thead><tr><th>verdict</th><th>figure and quote</th>'
                    '<th>why</th></tr></thead><tbody>')
        shown = items if left is None else items[:left]
        hidden += len(items) - len(shown)
        if left is not None:
            left -= len(shown)
        for f in shown:
            v = f.verdict
            status = "" if v.verdict == "supported" else '<span class="tag t-unsourced">unsourced</span>'
            body.append(f'<tr><td>{badge(v.verdict)} {status}</td>'
                        f'<td>{fig_head(f, False, False)}{quote(f)}{where(f)}</td>'
                        f'<td class="why">{e(v.explanation)}{_evidence(v)}</td></tr>')
        body.append("</tbody></table></article>")
    body.append(_more(hidden, "figures outside primary documents"))
    return "\n".join(body)


def cluster_article(cv, page: str | None = None, svg: str = "", max_figs: int | None = None,
                    max_rels: int | None = MAX_RELS) -> str:
    """One cluster: its figures in publication order, its relations, and its story drawn.
    The summary shows the first ``max_figs`` figures; a page caps the relations listed
    (a large cluster of disagreeing copies has one per pair; the graph shows them)."""
    flags = ('<span class="flag f-conflict">conflict</span>' if cv.has_conflict else "") + \
            ('<span class="flag f-mismatch">metric mismatch</span>' if cv.has_mismatch else "")
    figs = cv.figs if max_figs is None else cv.figs[:max_figs]
    items = "".join(f'<li>{fig_head(f)}{quote(f)}{where(f)}</li>' for f in figs)
    links = cv.links if max_rels is None else cv.links[:max_rels]
    rels = "".join(f'<li class="rel rel-{e(ln.relation)}"><strong>{e(ln.relation)}</strong>: '
                   f'{e(a.claim.surface)} ({e(a.doc.short)}) — {e(b.claim.surface)} '
                   f'({e(b.doc.short)}): {e(ln.detail)}</li>' for ln, a, b in links)
    if len(links) < len(cv.links):
        rels += f'<li class="more">{len(cv.links) - len(links):,} more relations</li>'
    link = f' · <a href="{e(page)}#{e(cv.id)}">its page, with the graph</a>' if page else ""
    graph = f'<figure class="story">{svg}</figure>' if svg else ""
    more = (f'<p class="more">{len(cv.figs) - len(figs):,} more figures in '
            f'{len({f.doc.id for f in cv.figs[len(figs):]}):,} documents on its page.</p>'
            if len(figs) < len(cv.figs) else "")
    return (f'<article class="cluster" id="{e(cv.id)}"><h3>{e(cv.title)} {flags}</h3>'
            f'<p class="meta">cluster <code>{e(cv.id)}</code> · {len(cv.figs)} figures in '
            f'{len({f.doc.id for f in cv.figs})} documents · sources in publication order'
            f'{link}</p>{graph}<ol class="members">{items}</ol>{more}'
            + (f'<ul class="rels">{rels}</ul>' if rels else "") + '</article>')


def pair_row(pair, pages: PageIndex) -> str:
    """A conflict or mismatch as one table row (a model page can hold thousands; the
    quotes are in its clusters)."""
    ln, a, b = pair
    go = pages.cluster_of(a)
    cl = f' <a href="{e(go)}">cluster</a>' if go else ""
    return (f'<tr><td>{e(a.claim.surface)} <span class="src">{e(a.doc.short)}, '
            f'{e(a.doc.published or "undated")}</span>{where(a)}</td>'
            f'<td>{e(b.claim.surface)} <span class="src">{e(b.doc.short)}, '
            f'{e(b.doc.published or "undated")}</span>{where(b)}</td>'
            f'<td class="why">{e(ln.detail)}{cl}</td></tr>')


def derived_articles(items) -> str:
    body = []
    if not items:
        body.append("<p>No ratio or percentage is computed from two figures in the record.</p>")
    for dv in items:
        ok = {True: ("consistent", "v-supported"), False: ("inconsistent", "v-contradicted"),
              None: ("unchecked", "v-ambiguous")}[dv.consistent]
        ops = "".join(f'<li>{name} = {fig_head(x)}{where(x)}</li>'
                      for name, x in (("a", dv.a), ("b", dv.b)) if x is not None)
        body.append(f'<article class="derived"><div class="fig-head">'
                    f'<strong class="figure">{e(dv.ratio.claim.surface)}</strong> '
                    f'<span class="verdict {ok[1]}">{ok[0]}</span> <span class="meta">'
                    f'{e(dv.where)}</span></div><p class="arith"><code>{e(dv.arithmetic)}'
                    f'</code></p>{quote(dv.ratio)}{where(dv.ratio)}<ul>{ops}</ul></article>')
    return "\n".join(body)


def findings_list(ambiguous, misattributed, cap: int | None = None) -> str:
    amb = ambiguous if cap is None else ambiguous[:cap]
    mis = misattributed if cap is None else misattributed[:cap]
    body = ["<p>Throughput figures that state no denominator (per user, per GPU, ...).</p>"
            if ambiguous else "<p>None.</p>", '<ul class="plain">']
    body += [f'<li>{fig_head(f)}{quote(f)}{where(f)}</li>' for f in amb]
    body.append("</ul>")
    body.append(_more(len(ambiguous) - len(amb), "figures with no denominator"))
    if misattributed:
        body.append("<h3>Misattributed</h3><ul class=\"plain\">")
        body += [f'<li>{fig_head(f)} credited to {e(f.claim.asserted_by)}{quote(f)}{where(f)}</li>'
                 for f in mis]
        body.append("</ul>")
        body.append(_more(len(misattributed) - len(mis), "misattributed figures"))
    return "\n".join(body)


def _doc_rows(figs, cluster_link=None) -> str:
    rows = []
    for f in figs:
        go = cluster_link(f) if cluster_link else None
        cl = f' <a href="{e(go)}">cluster</a>' if go else ""
        rows.append(f'<tr><td>{e(describe(f.claim))}{cl}</td><td>{where(f)}</td>'
                    f'<td>{tags(f)}{badge(f.verdict.verdict) if f.verdict else ""}</td></tr>')
    return "".join(rows) or '<tr><td colspan="3">No figures.</td></tr>'


def _doc_meta(d) -> str:
    return (f'{e(d.publisher or "")} · {e(d.published or "undated")} · role from '
            f'{e(d.role_source or "nothing")}{_url(d.url)}')


def _page(title: str, header: str, sections: list[str]) -> str:
    return Template(_res("template.html")).substitute(
        title=e(title), css=_res("report.css"), body=header + "\n<main>\n"
        + "\n".join(sections) + "\n</main>")


def _header(data: ReportData, h1: str, nav: str, back: str = "") -> str:
    r = data.record
    note = (' <span class="note">Links were computed in memory: the database held none.</span>'
            if r.linked_in_memory else "")
    scope = (f' · <span class="scope-note">only {e(data.scope.words())}</span>'
             if data.scope.narrowed else "")
    up = f'<p class="back"><a href="{e(back)}">← summary</a></p>' if back else ""
    return (f'<header>{up}<h1>{e(h1)}</h1><p class="meta">Database <code>{e(r.db_path)}</code>'
            f' · generated {e(data.generated)}{scope}{note}</p><nav>{nav}</nav></header>')


def render(data: ReportData, pages: PageIndex | None = None) -> str:
    """report.html: the summary page (at most a readable number of each kind of item, with
    links to the model and document pages that hold every one)."""
    pages = pages or PageIndex.of(data)
    parts: list[str] = []
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

    parts.append(section("coverage", "Figures no primary document contains",
                         coverage(data.secondary, SUMMARY_FIGURES, pages.doc)))

    body = []
    for ch in data.charts:
        body.append(f'<figure class="chart" id="{e(ch.id)}-fig">{ch.svg}'
                    f'<figcaption>{e(ch.caption)}</figcaption></figure>')
    if not body:
        body.append("<p>Not enough per-user or per-GPU figures for a chart.</p>")
    parts.append(section("charts", "Charts", "\n".join(body)))

    body = [] if data.clusters else ["<p>No two documents share a figure.</p>"]
    body += [cluster_article(cv, pages.cluster(cv.id), max_figs=SUMMARY_CLUSTER_FIGS, max_rels=8)
             for cv in data.clusters[:SUMMARY_CLUSTERS]]
    body.append(_more(len(data.clusters) - SUMMARY_CLUSTERS, "clusters"))
    parts.append(section("clusters", "Claim clusters", "\n".join(body)))

    parts.append(section("conflicts", "Conflicts",
                         _pairs(data.conflicts[:SUMMARY_PAIRS], "No conflicts.", "callout-conflict")
                         + _more(len(data.conflicts) - SUMMARY_PAIRS, "conflicts")))
    parts.append(section("mismatches", "Metric mismatches",
                         _pairs(data.mismatches[:SUMMARY_PAIRS], "No metric mismatches.",
                                "callout-mismatch")
                         + _more(len(data.mismatches) - SUMMARY_PAIRS, "metric mismatches")))
    parts.append(section("derived", "Derived-figure checks",
                         derived_articles(data.derived[:SUMMARY_PAIRS])
                         + _more(len(data.derived) - SUMMARY_PAIRS, "derived-figure checks")))
    parts.append(section("findings", "Ambiguous and misattributed figures",
                         findings_list(data.ambiguous, data.misattributed, SUMMARY_ITEMS)))

    top = data.groups[:SUMMARY_GROUPS]
    rows = "".join(
        f'<tr><td><a href="{e(pages.group(g))}">{e(g.title)}</a></td><td>{len(g.clusters)}</td>'
        f'<td>{g.figures}</td><td>{len(g.secondary)}</td><td>{g.unsourced}</td>'
        f'<td>{len(g.conflicts)}</td><td>{len(g.mismatches)}</td></tr>' for g in top)
    rest = ", ".join(f'<a href="{e(pages.group(g))}">{e(g.title)}</a>'
                     for g in data.groups[SUMMARY_GROUPS:])
    parts.append(section("pages", "Models and subjects", (
        '<p>One page per model (or kind of figure with no model): its clusters with the '
        'graph of each, its figures outside primary documents, conflicts and mismatches. '
        'Most conflicts and unsourced figures first.</p>'
        '<table class="figs index"><thead><tr><th>model or subject</th><th>clusters</th>'
        '<th>figures</th><th>outside primary</th><th>unsourced</th><th>conflicts</th>'
        f'<th>mismatches</th></tr></thead><tbody>{rows}</tbody></table>'
        + (f'<p class="all-pages">{len(data.groups) - len(top):,} more: {rest}.</p>'
           if rest else ""))
        if data.groups else "<p>No figures.</p>"))

    rows = "".join(
        f'<tr><td><a href="{e(pages.doc(d))}"><code>{e(d.path)}</code></a></td>'
        f'<td>{e(d.title or "")}</td><td>{e(d.publisher or "")}</td>'
        f'<td>{e(d.published or "undated")}</td><td><span class="role r-{e(d.role)}">'
        f'{e(d.role)}</span></td><td>{len(figs)}</td></tr>' for d, figs in data.documents)
    parts.append(section("documents", "Documents", (
        '<p>Each document\'s page lists all its figures with their spans and verdicts.</p>'
        '<table class="figs index"><thead><tr><th>path</th><th>title</th><th>publisher</th>'
        f'<th>published</th><th>role</th><th>figures</th></tr></thead><tbody>{rows}</tbody>'
        '</table>')))

    nav = "".join(f'<a href="#{i}">{t}</a>' for i, t in (
        ("overview", "Overview"), ("coverage", "Unsourced"), ("charts", "Charts"),
        ("clusters", "Clusters"), ("conflicts", "Conflicts"), ("mismatches", "Mismatches"),
        ("derived", "Derived"), ("findings", "Ambiguous"), ("pages", "Models"),
        ("documents", "Documents")))
    return _page("Claims report", _header(data, "Claims report", nav), parts)


_PAIR_HEAD = ('<table class="figs"><thead><tr><th>figure</th><th>against</th><th>why</th>'
              '</tr></thead><tbody>')
# a model page's sections: (id, title, before its items, after them, when it has none)
GROUP_SECTIONS = (
    ("coverage", "Figures no primary document contains", "", "",
     "No figure outside primary documents."),
    ("clusters", "Claim clusters and how each figure spread", "", "",
     "No cluster on this model."),
    ("conflicts", "Conflicts", _PAIR_HEAD, "</tbody></table>", "No conflicts."),
    ("mismatches", "Metric mismatches", _PAIR_HEAD, "</tbody></table>", "No metric mismatches."),
    ("derived", "Derived-figure checks", "", "",
     "No ratio or percentage is computed from two figures in the record."),
    ("ambiguous", "Figures with no denominator",
     '<p>Throughput figures that state no denominator (per user, per GPU, ...).</p>'
     '<ul class="plain">', "</ul>", "None."),
    ("misattributed", "Misattributed figures", '<ul class="plain">', "</ul>", "None."),
)

GROUP_NAV = {"coverage": "Unsourced", "clusters": "Clusters", "conflicts": "Conflicts",
             "mismatches": "Mismatches", "derived": "Derived", "ambiguous": "Ambiguous",
             "misattributed": "Misattributed"}


def group_blocks(g, pages: PageIndex, articles: list[str]) -> list[tuple[str, str]]:
    """A model page's items, section by section, in page order: (section id, html). The
    page is cut between items when it grows past a few MB (``write_report``)."""
    out: list[tuple[str, str]] = []
    out += [("coverage", coverage([v], None, pages.doc)) for v in _views(g.secondary)]
    out += [("clusters", a) for a in articles]
    out += [("conflicts", pair_row(p, pages)) for p in g.conflicts]
    out += [("mismatches", pair_row(p, pages)) for p in g.mismatches]
    out += [("derived", derived_articles([dv])) for dv in g.derived]
    out += [("ambiguous", f'<li>{fig_head(f)}{quote(f)}{where(f)}</li>') for f in g.ambiguous]
    out += [("misattributed", f'<li>{fig_head(f)} credited to {e(f.claim.asserted_by)}'
                              f'{quote(f)}{where(f)}</li>') for f in g.misattributed]
    return out


def render_group(data: ReportData, g, pages: PageIndex, blocks: list[tuple[str, str]],
                 part: int = 0, parts: list[str] | None = None) -> str:
    """One part of a model's (or subject's) page: ``blocks`` (from ``group_blocks``) in
    their sections; ``parts`` names every part's file. The first part has the counts and
    says so for a section with nothing in it."""
    parts = parts or []
    nav_parts = ""
    if len(parts) > 1:
        nav_parts = ('<p class="parts">Part ' + f"{part + 1} of {len(parts)}: "
                     + " ".join(f'<a href="{e(p)}">{i + 1}</a>' if i != part else f"<b>{i + 1}</b>"
                                for i, p in enumerate(parts)) + "</p>")
    sections = []
    if part == 0:
        sections.append(section("overview", "Overview", (
            f'<div class="cards"><div class="card"><div class="num">{len(g.clusters)}</div>'
            f'<div class="lbl">clusters</div></div><div class="card"><div class="num">'
            f'{g.figures}</div><div class="lbl">figures</div></div><div class="card">'
            f'<div class="num">{g.unsourced}</div><div class="lbl">unsourced</div></div>'
            f'<div class="card"><div class="num">{len(g.conflicts)}</div><div class="lbl">'
            f'conflicts</div></div></div>{nav_parts}')))
    for sid, title, before, after, empty in GROUP_SECTIONS:
        items = [h for k, h in blocks if k == sid]
        if items:
            sections.append(section(sid, title if part == 0 else f"{title} (continued)",
                                    before + "\n".join(items) + after))
        elif part == 0 and sid in ("coverage", "clusters", "conflicts", "mismatches"):
            sections.append(section(sid, title, f"<p>{e(empty)}</p>"))
    if nav_parts:
        sections.append(f'<nav class="parts">{nav_parts}</nav>')
    present = {sid for sid, _ in blocks} | ({"coverage", "clusters", "conflicts", "mismatches"}
                                            if part == 0 else set())
    nav = "".join(f'<a href="#{sid}">{GROUP_NAV[sid]}</a>'
                  for sid, *_ in GROUP_SECTIONS if sid in present)
    name = g.title if part == 0 else f"{g.title} (part {part + 1})"
    return _page(f"{name} · claims report", _header(data, name, nav, pages.summary), sections)


def render_doc(data: ReportData, d, figs, pages: PageIndex) -> str:
    """One document's page: every figure it holds."""
    body = (f'<p class="meta">{_doc_meta(d)}</p><p class="meta"><code>{e(d.path)}</code> · '
            f'<span class="role r-{e(d.role)}">{e(d.role)}</span> · {len(figs)} figures</p>'
            f'<table class="figs"><tbody>{_doc_rows(figs, pages.cluster_of)}</tbody></table>')
    return _page(f"{d.title or d.path} · claims report",
                 _header(data, d.title or d.path, "", pages.summary),
                 [section("figures", "All its figures", body)])


def _views(figs):
    """Figures regrouped per secondary document, in publication order."""
    from pipeline.report.gather import SecondaryView

    out: dict[str, SecondaryView] = {}
    for f in sorted(figs, key=lambda f: (f.doc.order_key(), f.claim.start)):
        v = out.setdefault(f.doc.id, SecondaryView(f.doc, [], []))
        (v.sourced if f.verdict and f.verdict.verdict == "supported" else v.unsourced).append(f)
    return list(out.values())


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
                    + (f' p. {x.page}' if x.page else "")
                    + (f' <span class="cite">cited as: {e(x.citation)}</span>'
                       if getattr(x, "citation", "") else "")
                    + (f' <span class="cite derived">{e(x.derived)}</span>'
                       if getattr(x, "derived", "") else "") + '</li>' for x in v.evidence[:4])
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
