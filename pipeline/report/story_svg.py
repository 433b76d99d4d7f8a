"""One cluster's story as an inline SVG, drawn here, server-side (issue 20).

The graph and its story come from ``pipeline.graph`` (``build_graph``: networkx, the
propagation tree, first appearances, changes, downstream-only figures); this module only
lays it out. The layout is deterministic and layered, so the same warehouse draws the
same picture:

* one row per figure, in publication order (top: earliest), the document (date,
  publisher, role) on the left;
* the figure's node indented by its depth in the propagation tree, joined to its parent
  by an elbow line: green when it repeats its parent, amber for a metric mismatch, red for
  a conflict (the ``via`` of the ``propagates`` edge);
* conflicts and mismatches that are not tree edges (two measurements that disagree) as
  dashed brackets on the right.

Above ``MAX_NODES`` figures the drawing keeps the first appearances, the figures where
the value or metric changed, the downstream-only ones and then the earliest, and says how
many it left out. Every text comes from documents, so it is XML-escaped, stripped of
characters XML cannot hold and cut to a readable length; ids are prefixed per cluster.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

import networkx as nx

from pipeline.graph import AGREE, CHANGE, _XML_BAD, build_graph, propagation_of

MAX_NODES = 50
MAX_BRACKETS = 12     # disagreements drawn beside the tree (a cluster of copies has one per pair)
ROW = 30
LEFT = 300            # the documents' column
INDENT = 22
MAX_DEPTH_DRAWN = 12
COLORS = {"agree": "#1a7f37", "mismatch": "#9a6700", "conflicts": "#cf222e", "skip": "#8c959f"}
ROLE_FILL = {"primary": "#dafbe1", "secondary": "#fff8c5", "unknown": "#f6f8fa"}
ROLE_STROKE = {"primary": "#1a7f37", "secondary": "#9a6700", "unknown": "#6e7781"}


@dataclass
class StorySvg:
    svg: str
    shown: int            # figures drawn
    total: int            # figures in the cluster
    first: list[str]      # claim ids of the first appearances drawn
    unsourced: int        # downstream-only figures in the cluster


def _clean(text, limit: int = 0) -> str:
    """One line of text XML can hold (no control characters or lone surrogates), cut."""
    s = _XML_BAD.sub(" ", " ".join(str(text or "").split()))
    return s[:limit - 1] + "…" if limit and len(s) > limit else s


def _t(text, limit: int = 0) -> str:
    """Text for an SVG text node: valid XML, escaped, cut."""
    return escape(_clean(text, limit))


def _a(text, limit: int = 0) -> str:
    """An attribute value, escaped and quoted."""
    return quoteattr(_clean(text, limit))


def _pick(order: list[str], story, g: nx.MultiDiGraph, limit: int) -> list[str]:
    """The figures drawn, in publication order."""
    if len(order) <= limit:
        return list(order)
    firsts = set(story.first.values())
    keep: list[str] = []
    for want in (lambda n: n in firsts, lambda n: bool(story.changes.get(n)),
                 lambda n: n in story.unsourced, lambda n: True):
        for n in order:
            if len(keep) >= limit:
                break
            if n not in keep and want(n):
                keep.append(n)
    pos = {n: i for i, n in enumerate(order)}
    return sorted(keep, key=pos.__getitem__)


def _lanes(g, story, kept, parent, row) -> list[tuple[str, str, str, str]]:
    """(earlier, later, relation, detail) of the conflicts and mismatches between two
    drawn figures that the tree does not already draw."""
    out, seen = [], set()
    for u, v, d in g.edges(data=True):
        rel = d.get("relation")
        if rel not in CHANGE or u not in kept or v not in kept:
            continue
        a, b = sorted((u, v), key=row.__getitem__)
        if (a, b) in seen or (parent[b][0] == a and story.via.get(b) == rel):
            continue
        seen.add((a, b))
        out.append((a, b, rel, d.get("detail") or ""))
    return out


def story_svg(record, cluster_id: str, claim_ids: list[str]) -> StorySvg:
    """The story of one cluster (its claims) as an <svg> element."""
    g = build_graph(record, claim_ids, label=f"cluster {cluster_id}")
    story = propagation_of(g)
    order = story.order
    drawn = _pick(order, story, g, MAX_NODES)
    kept = set(drawn)
    prefix = "st-" + re.sub(r"[^A-Za-z0-9_-]", "", cluster_id)[:24]

    def kept_parent(n: str) -> tuple[str | None, bool]:
        """(nearest drawn ancestor, whether it is the direct parent)."""
        p, direct = story.parent.get(n), True
        while p and p not in kept:
            p, direct = story.parent.get(p), False
        return p, direct

    depth: dict[str, int] = {}
    parent: dict[str, tuple[str | None, bool]] = {}
    for n in drawn:
        parent[n] = kept_parent(n)
        p = parent[n][0]
        depth[n] = min(depth[p] + 1, MAX_DEPTH_DRAWN) if p else 0
    row = {n: i for i, n in enumerate(drawn)}
    y0 = 34

    def cy(n: str) -> int:
        return y0 + row[n] * ROW + ROW // 2

    def x(n: str) -> int:
        return LEFT + 12 + depth[n] * INDENT

    widths = {n: 16 + 7 * len(_clean(g.nodes[n]["surface"], 34)) for n in drawn}
    firsts = set(story.first.values())
    marks = {n: ", ".join((["first"] if n in firsts else [])
                          + (["unsourced"] if n in story.unsourced else [])
                          + (["changed"] if story.changes.get(n) else [])) for n in drawn}
    content = max(x(n) + widths[n] + 12 + 6 * len(marks[n]) for n in drawn)
    all_lanes = _lanes(g, story, kept, parent, row)
    lanes = all_lanes[:MAX_BRACKETS]
    right = max(content + 24 + 10 * len(lanes), LEFT + 320)
    out: list[str] = []
    # the documents' column: a label where the document changes from the row above
    prev_doc = None
    for n in drawn:
        a = g.nodes[n]
        if a["doc_id"] != prev_doc:
            who = a["publisher"] or a["doc_path"]
            out.append(f'<text x="8" y="{cy(n) + 4}" class="st-doc">'
                       f'<tspan class="st-date">{_t(a["date"] or "undated")}</tspan> '
                       f'{_t(who, 30)} <tspan class="st-role">({_t(a["role"])})</tspan></text>')
            if prev_doc is not None:
                out.append(f'<line x1="4" x2="{right - 4}" y1="{cy(n) - ROW // 2}" '
                           f'y2="{cy(n) - ROW // 2}" class="st-sep"/>')
        prev_doc = a["doc_id"]
    # tree edges
    for n in drawn:
        p, direct = parent[n]
        if not p:
            continue
        via = story.via.get(n, "supports") if direct else ""
        color = COLORS["agree"] if via in AGREE else COLORS.get(via, COLORS["skip"])
        dash = "" if direct else ' stroke-dasharray="3 3"'
        px = x(p) + 8
        what = via if direct else "via figures not drawn"
        out.append(f'<path d="M{px},{cy(p) + 9} V{cy(n)} H{x(n)}" fill="none" '
                   f'stroke="{color}" stroke-width="1.6"{dash}><title>{_t(what)}</title></path>')
    # disagreements that are not tree edges: brackets on the right, one lane each
    for i, (a, b, rel, detail) in enumerate(lanes):
        bx = content + 12 + i * 10
        out.append(f'<path d="M{x(a) + widths[a]},{cy(a)} H{bx} V{cy(b)} H{x(b) + widths[b]}" '
                   f'fill="none" stroke="{COLORS[rel]}" stroke-width="1.3" '
                   f'stroke-dasharray="5 3"><title>{_t(rel)}: {_t(detail, 200)}</title></path>')
    # the figures
    for n in drawn:
        a = g.nodes[n]
        role = a["role"] if a["role"] in ROLE_FILL else "unknown"
        first = n in firsts
        tip = (f'{a["surface"]} · {a["publisher"] or a["doc_path"]}, {a["date"] or "undated"} '
               f'({a["role"]}) · {a["doc_path"]} [{a["span_start"]}:{a["span_end"]}]')
        out.append(f'<g class="st-node" data-claim={_a(n.split(":", 1)[1])}>'
                   f'<title>{_t(tip, 300)}</title>'
                   f'<rect x="{x(n)}" y="{cy(n) - 10}" width="{widths[n]}" height="20" rx="4" '
                   f'fill="{ROLE_FILL[role]}" stroke="{ROLE_STROKE[role]}" '
                   f'stroke-width="{2.4 if first else 1}"/>'
                   f'<text x="{x(n) + 8}" y="{cy(n) + 4}" class="st-fig">'
                   f'{_t(a["surface"], 34)}</text></g>')
        if marks[n]:
            out.append(f'<text x="{x(n) + widths[n] + 6}" y="{cy(n) + 4}" class="st-mark">'
                       f'{_t(marks[n])}</text>')
    notes = []
    if len(drawn) < len(order):
        notes.append(f"{len(drawn)} of {len(order)} figures drawn (first appearances, changes, "
                     f"downstream-only, then the earliest);")
    if len(lanes) < len(all_lanes):
        notes.append(f"{len(lanes)} of {len(all_lanes)} conflicts and mismatches between the "
                     "figures drawn beside the tree;")
    if notes:
        notes.append(f"`claims export graph --cluster {cluster_id}` has them all.")
    height = y0 + len(drawn) * ROW + 6 + 16 * len(notes)
    legend = (f'<text x="8" y="18" class="st-head">published ↓ · '
              f'<tspan fill="{COLORS["agree"]}">— same figure</tspan> · '
              f'<tspan fill="{COLORS["mismatch"]}">— metric mismatch</tspan> · '
              f'<tspan fill="{COLORS["conflicts"]}">— conflict</tspan> · '
              f'thick border: first appearance</text>')
    foot = "".join(f'<text x="8" y="{y0 + len(drawn) * ROW + 16 * (i + 1)}" class="st-note">'
                   f'{_t(line)}</text>' for i, line in enumerate(notes))
    style = ("<style>.st-doc{font:11px sans-serif;fill:#24292f}.st-date{fill:#57606a}"
             ".st-role{fill:#57606a}.st-fig{font:bold 11px sans-serif;fill:#1f2328}"
             ".st-mark{font:10px sans-serif;fill:#57606a}.st-head,.st-note{font:11px sans-serif;"
             "fill:#57606a}.st-sep{stroke:#eaeef2}</style>")
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" id="{prefix}" class="story-svg" '
           f'role="img" aria-label={_a("story of cluster " + cluster_id)} '
           f'width="{right}" height="{height}" viewBox="0 0 {right} {height}">'
           f'{style}{legend}{"".join(out)}{foot}</svg>')
    return StorySvg(svg, len(drawn), len(order),
                    [n.split(":", 1)[1] for n in drawn if n in firsts], len(story.unsourced))
