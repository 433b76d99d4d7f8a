"""The graph of a figure's story: documents, claims and their relations, dated (issue 20).

Built from a loaded record (``pipeline.record.Record``) for a *selection*, never
for the whole warehouse: one claim (its cluster, and with ``context`` the other figures
of its document and their clusters), one cluster, or the claims on one model with their
clusters. ``MAX_CLAIMS`` bounds a selection.

The graph (a networkx ``MultiDiGraph``) holds

* ``doc:<id>`` nodes (``kind=document``: path, title, publisher, role, date, url, ...);
* ``claim:<id>`` nodes (``kind=claim``: surface, value, unit, family, scope, the
  settings and subject, its document's date and role, findings);
* edges ``contains`` (document -> claim), ``cites`` (claim -> a document its
  ``asserted_by`` names), one edge per link between two selected claims as the link
  stage stored it (``supports``, ``restates``, ``conflicts``, ``mismatch``; ``derives``
  gives one edge per operand), each with ``consistent`` and ``detail``;
* ``propagates`` edges (earlier claim -> later claim): the propagation tree.

The story is computed from it with networkx (``propagation``):

* **first appearance** of each connected group of figures: its earliest figure in a
  primary document, else its earliest figure;
* the **propagation tree**: each figure, in publication order, is attached to the earlier
  figure whose source it names and agrees with (a ``restates`` link), else to the earliest
  earlier figure it agrees with (``supports``/``restates``); a figure outside primary
  documents that agrees with no earlier one is attached to the earliest earlier figure it
  drifted from (``mismatch``: another metric or denominator; ``conflicts``: another value).
  A primary figure attaches only by agreement (corroboration): a primary that disagrees
  is an independent measurement, a root of its own;
* **changes along the way**: the ``mismatch``/``conflicts`` edges on the path from the
  root to a figure;
* **downstream only** (unsourced): figures outside primary documents that no chain of
  agreeing links joins to a primary figure.
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable

import networkx as nx

from pipeline.link.keys import model_key
from pipeline.model import INERT_STANCES, Claim

AGREE = frozenset({"supports", "restates"})
CHANGE = frozenset({"mismatch", "conflicts"})
RELATIONS = AGREE | CHANGE | {"derives"}
MAX_CLAIMS = 100_000          # a selection larger than this is refused (narrow the filter)
FORMATS = ("graphml", "gexf", "json")


class GraphError(LookupError):
    """No such claim or cluster, a prefix naming several, or a selection too large."""


def claim_node(cid: str) -> str:
    return f"claim:{cid}"


def doc_node(did: str) -> str:
    return f"doc:{did}"


# --- selections ---------------------------------------------------------------------------

def _unique(kind: str, key: str, keys: Iterable[str], hint: str) -> str:
    hits = sorted({k for k in keys if k.startswith(key)}) if key else []
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise GraphError(f"no {kind} with id {key!r} ({hint})")
    raise GraphError(f"{len(hits)} {kind}s start with {key!r}; give more characters")


def _members(record, cluster_ids: set[str]) -> set[str]:
    return {k for k, c in record.clusters.items() if c in cluster_ids}


def select_claim(record, claim_id: str, context: bool = True) -> tuple[str, set[str]]:
    """(the claim's full id, the claims of its story): the claim, its cluster and, with
    ``context``, every figure of its document with their clusters."""
    if claim_id in record.claims:
        cid = claim_id
    else:
        cid = _unique("claim", claim_id, record.claims, "see `claims export claims`")
    c = record.claims[cid]
    ids = {cid}
    if context:
        ids |= {k for k, x in record.claims.items() if x.doc_id == c.doc_id}
    clusters = {record.clusters[k] for k in ids if k in record.clusters}
    return cid, ids | _members(record, clusters)


def select_cluster(record, cluster_id: str) -> tuple[str, set[str]]:
    """(the cluster's full id, its claims)."""
    known = set(record.clusters.values())
    kid = cluster_id if cluster_id in known else _unique(
        "cluster", cluster_id, known, "see `claims sql \"SELECT * FROM clusters\"`")
    return kid, _members(record, {kid})


def select_model(record, model: str) -> set[str]:
    """The claims on this model (after alias folding) and the clusters they are in."""
    want = model_key(model)
    ids = {k for k, c in record.claims.items()
           if c.model and (model_key(c.model) == want
                           or c.model.casefold() == model.strip().casefold())}
    if not ids:
        raise GraphError(f"no claim on model {model!r}")
    clusters = {record.clusters[k] for k in ids if k in record.clusters}
    return ids | _members(record, clusters)


# --- the graph ----------------------------------------------------------------------------

def _claim_attrs(c: Claim, d) -> dict[str, Any]:
    from pipeline.words import conditions

    return {
        "kind": "claim", "label": c.surface, "surface": c.surface, "value": c.value,
        "low": c.low, "high": c.high, "comparator": c.comparator or "=",
        "unit": c.unit, "family": c.family, "scope": c.scope or "unspecified",
        "statistic": c.statistic, "phase": c.phase, "token_kind": c.token_kind,
        "model": c.model, "hardware": c.hardware, "hw_count": c.hw_count,
        "engine": c.engine, "dtype": c.dtype, "parallelism": c.parallelism,
        "isl": c.isl, "osl": c.osl, "concurrency": c.concurrency,
        "batch_size": c.batch_size, "offered_load": c.offered_load,
        "baseline": c.baseline, "direction": c.direction, "measures": c.measures,
        "conditions": "; ".join(conditions(c)), "stance": c.stance or "asserted",
        "asserted_by": c.asserted_by, "findings": ",".join(c.findings or ()),
        "doc_id": c.doc_id, "doc_path": d.path, "date": d.published, "role": d.role,
        "publisher": d.publisher, "page": c.page, "span_start": c.start, "span_end": c.end,
        "sentence": c.sentence,
    }


def _doc_attrs(d) -> dict[str, Any]:
    return {"kind": "document", "label": d.short, "path": d.path, "title": d.title,
            "publisher": d.publisher, "role": d.role, "date": d.published, "url": d.url,
            "author": d.author, "format": d.format}


def build_graph(record, claim_ids: Iterable[str], label: str = "",
                limit: int = MAX_CLAIMS) -> nx.MultiDiGraph:
    """The graph of the selected claims, their documents and links, with the story
    (``propagation``) written onto it: node attributes ``first``, ``parent``, ``via``,
    ``depth``, ``unsourced``, ``changed``, ``changes`` and ``propagates`` edges."""
    ids = [k for k in claim_ids if k in record.claims]
    if len(ids) > limit:
        raise GraphError(f"{len(ids)} claims selected, more than {limit}: narrow the selection "
                         "(one cluster, one claim or one model)")
    keep = set(ids)
    g = nx.MultiDiGraph(selection=label)
    order = sorted(ids, key=lambda k: (record.doc(record.claims[k]).order_key(),
                                       record.claims[k].start, k))
    for k in order:
        c = record.claims[k]
        d = record.doc(c)
        dn = doc_node(d.id)
        if dn not in g:
            g.add_node(dn, **_doc_attrs(d))
        g.add_node(claim_node(k), **_claim_attrs(c, d))
        g.add_edge(dn, claim_node(k), key="contains", relation="contains")
    seen: set[int] = set()
    for k in order:
        for ln in record.links_of(k):
            if id(ln) in seen or ln.relation not in RELATIONS:
                continue
            seen.add(id(ln))
            ends = [ln.dst] + ([ln.other] if ln.relation == "derives" and ln.other else [])
            for n, dst in enumerate(ends):
                if ln.src in keep and dst in keep:
                    key = ln.relation if len(ends) == 1 else f"{ln.relation}:{'ab'[n]}"
                    g.add_edge(claim_node(ln.src), claim_node(dst), key=key,
                               relation=ln.relation, consistent=ln.consistent,
                               detail=ln.detail or "", computed=ln.computed)
    _add_citations(record, g, order)
    story = propagation(g)
    story.annotate(g)
    g.graph["_story"] = story       # not written out (writers drop keys starting with _)
    return g


def _add_citations(record, g: nx.MultiDiGraph, order: list[str]) -> None:
    named = {record.claims[k].asserted_by for k in order if record.claims[k].asserted_by}
    if not named:
        return
    from pipeline.link.attribution import SourceIndex

    idx = SourceIndex()
    for x in record.docs.values():
        idx.add(x.id, publisher=x.publisher, title=x.title, author=x.author, url=x.url,
                path=x.path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    for k in order:
        c = record.claims[k]
        for did in idx.resolve(c.asserted_by) if c.asserted_by else ():
            d = record.docs.get(did)
            if d is None or did == c.doc_id:
                continue
            if doc_node(did) not in g:
                g.add_node(doc_node(did), **_doc_attrs(d))
            g.add_edge(claim_node(k), doc_node(did), key="cites", relation="cites",
                       detail=f"credited to {c.asserted_by}")


# --- the story ----------------------------------------------------------------------------

@dataclass
class Story:
    """The propagation computed from a graph; claim node ids throughout."""

    order: list[str]                       # claims in publication order
    tree: nx.DiGraph                       # parent -> child ("propagates")
    parent: dict[str, str | None]
    via: dict[str, str]                    # relation that attached a claim to its parent
    first: dict[str, str]                  # claim -> first appearance of its group
    changes: dict[str, list[tuple[str, str, str, str]]]   # (parent, child, relation, detail)
    unsourced: set[str] = field(default_factory=set)

    def root(self, n: str) -> str:
        while self.parent.get(n):
            n = self.parent[n]
        return n

    def depth(self, n: str) -> int:
        k = 0
        while self.parent.get(n):
            n, k = self.parent[n], k + 1
        return k

    def path(self, n: str) -> list[str]:
        """Root ... n along the tree."""
        return nx.shortest_path(self.tree, self.root(n), n)

    def annotate(self, g: nx.MultiDiGraph) -> None:
        firsts = set(self.first.values())
        depth: dict[str, int] = {}
        for n in self.order:
            p = self.parent.get(n)
            depth[n] = depth[p] + 1 if p else 0
            g.nodes[n].update(
                first=n in firsts, parent=p or "", via=self.via.get(n, ""), depth=depth[n],
                unsourced=n in self.unsourced, changed=bool(self.changes.get(n)),
                changes="; ".join(f"{rel}: {det}" for _, _, rel, det in self.changes.get(n, ())),
                first_appearance=self.first.get(n, n))
            if p:
                rel = self.via[n]
                g.add_edge(p, n, key="propagates", relation="propagates", via=rel,
                           consistent=rel in AGREE,
                           detail=("same figure" if rel in AGREE else "changed") + f" ({rel})")
        pos = {n: i for i, n in enumerate(self.order)}
        fa = sorted(firsts, key=pos.__getitem__)
        g.graph.update(first_appearances=",".join(x.split(":", 1)[1] for x in fa),
                       unsourced_count=len(self.unsourced), claim_count=len(self.order))


def _claim_links(g: nx.MultiDiGraph):
    """(src, dst, relation, detail) of every relation edge between two claims."""
    for u, v, data in g.edges(data=True):
        if data.get("relation") in AGREE | CHANGE:
            yield u, v, data["relation"], data.get("detail", "")


def propagation(g: nx.MultiDiGraph) -> Story:
    """First appearance, propagation tree, changes and downstream-only figures of the
    claims in ``g`` (their node order is publication order, as ``build_graph`` adds them)."""
    order = [n for n, k in g.nodes(data="kind") if k == "claim"]
    pos = {n: i for i, n in enumerate(order)}
    primary = {n for n in order if g.nodes[n].get("role") == "primary"}
    related = nx.Graph()
    related.add_nodes_from(order)
    agree = nx.Graph()
    agree.add_nodes_from(order)
    nbrs: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for u, v, rel, detail in _claim_links(g):
        related.add_edge(u, v)
        if rel in AGREE:
            agree.add_edge(u, v)
        nbrs[u].append((v, rel, detail))
        nbrs[v].append((u, rel, detail))
    # first appearance: per connected group, the earliest primary figure, else the earliest
    first: dict[str, str] = {}
    for comp in nx.connected_components(related):
        members = sorted(comp, key=pos.__getitem__)
        prim = [n for n in members if n in primary]
        head = (prim or members)[0]
        first.update((n, head) for n in members)
    # the tree, in publication order: a parent is always earlier
    tree = nx.DiGraph()
    tree.add_nodes_from(order)
    parent: dict[str, str | None] = {}
    via: dict[str, str] = {}
    detail_of: dict[str, str] = {}
    for n in order:
        if first[n] == n:
            parent[n] = None
            continue
        i = pos[n]
        earlier = sorted((x for x in nbrs.get(n, ()) if pos[x[0]] < i), key=lambda x: pos[x[0]])
        named = [x for x in earlier if x[1] == "restates"]
        agreeing = [x for x in earlier if x[1] in AGREE]
        pick = (named or agreeing or [None])[0]
        if pick is None and n not in primary:
            pick = next((x for x in earlier if x[1] in CHANGE), None)
        if pick is None:
            parent[n] = None
            continue
        parent[n], via[n], detail_of[n] = pick
        tree.add_edge(pick[0], n)
    changes: dict[str, list[tuple[str, str, str, str]]] = {}
    for n in nx.topological_sort(tree):
        p = parent.get(n)
        acc = list(changes.get(p, ())) if p else []
        if p and via[n] in CHANGE:
            acc.append((p, n, via[n], detail_of[n]))
        changes[n] = acc
    # downstream only: no chain of agreeing links reaches a primary figure
    unsourced: set[str] = set()
    for comp in nx.connected_components(agree):
        if not comp & primary:
            unsourced |= {n for n in comp if g.nodes[n].get("role") != "primary"
                          and g.nodes[n].get("stance") not in INERT_STANCES}
    return Story(order, tree, parent, via, first, changes, unsourced)


# --- writing ------------------------------------------------------------------------------

FLOAT_KEYS = frozenset({"value", "low", "high", "isl", "osl", "concurrency", "batch_size",
                        "offered_load", "computed"})
INT_KEYS = frozenset({"hw_count", "page", "span_start", "span_end", "depth", "unsourced_count",
                      "claim_count"})
BOOL_KEYS = frozenset({"first", "unsourced", "changed", "consistent"})


# characters XML 1.0 cannot hold (a document's text may): written as spaces
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _typed(attrs: dict[str, Any]) -> dict[str, Any]:
    """Attributes GraphML and GEXF can type: one type per key; an unknown number or
    yes/no is left out, an unknown text is ""."""
    out: dict[str, Any] = {}
    for k, v in attrs.items():
        if k in FLOAT_KEYS or k in INT_KEYS or k in BOOL_KEYS:
            if v is None or v == "":
                continue
            out[k] = float(v) if k in FLOAT_KEYS else int(v) if k in INT_KEYS else bool(v)
        elif isinstance(v, (list, tuple, set)):
            out[k] = ",".join(map(str, v))
        else:
            out[k] = "" if v is None else _XML_BAD.sub(" ", str(v))
    return out


def _public(attrs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attrs.items() if not k.startswith("_")}


def typed_copy(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    h = nx.MultiDiGraph(**_typed(_public(g.graph)))
    h.add_nodes_from((n, _typed(d)) for n, d in g.nodes(data=True))
    # edge ids are unique in the file (Gephi drops an edge whose id it has seen): e0, e1, ...
    h.add_edges_from((u, v, f"e{i}", _typed(d))
                     for i, (u, v, d) in enumerate(g.edges(data=True)))
    return h


def to_json(g: nx.MultiDiGraph) -> dict:
    """node-link JSON (networkx's ``node_link_data``), None kept as null."""
    data = nx.node_link_data(g, edges="edges")
    data["graph"] = _public(g.graph)
    return data


def write_graph(g: nx.MultiDiGraph, fmt: str, out: str | Path | IO[bytes]) -> None:
    """Write ``g`` as GraphML, GEXF or node-link JSON to a path or a binary file."""
    if fmt == "graphml":
        nx.write_graphml(typed_copy(g), out)
    elif fmt == "gexf":
        nx.write_gexf(typed_copy(g), out)
    elif fmt == "json":
        from pipeline.output import json_default

        data = (json.dumps(to_json(g), default=json_default, ensure_ascii=False, indent=1)
                + "\n").encode("utf-8")
        if isinstance(out, (str, Path)):
            Path(out).write_bytes(data)
        else:
            out.write(data)
    else:
        raise ValueError(f"unknown graph format {fmt!r}: {', '.join(FORMATS)}")


# --- one claim's story (for `claims trace`) -----------------------------------------------

STORY_LINES = 30          # tree lines `claims trace` prints before summarising


@dataclass
class ClaimStory:
    """The story graph of one claim (its cluster and its document's figures)."""

    node: str
    graph: nx.MultiDiGraph
    story: Story

    def _ref(self, n: str) -> dict[str, Any]:
        a = self.graph.nodes[n]
        return {"id": n.split(":", 1)[1], "surface": a["surface"], "value": a["value"],
                "unit": a["unit"], "scope": a["scope"], "doc_path": a["doc_path"],
                "publisher": a["publisher"], "published": a["date"], "role": a["role"],
                "parent": (self.story.parent.get(n) or ":").split(":", 1)[1] or None,
                "via": self.story.via.get(n), "first": self.story.first.get(n) == n,
                "unsourced": n in self.story.unsourced,
                "changed": bool(self.story.changes.get(n))}

    def to_dict(self) -> dict[str, Any]:
        s, n = self.story, self.node
        return {
            "first_appearance": self._ref(s.first[n]),
            "unsourced": n in s.unsourced,
            "path": [self._ref(x) for x in s.path(n)],
            "changes": [{"src": a.split(":", 1)[1], "dst": b.split(":", 1)[1], "relation": r,
                         "detail": d} for a, b, r, d in s.changes.get(n, ())],
            "claims": [self._ref(x) for x in s.order],
            "downstream_only": [x.split(":", 1)[1] for x in s.order if x in s.unsourced],
        }

    def lines(self, limit: int = STORY_LINES) -> list[str]:
        """The story as indented text lines (the trace's ``story`` block)."""
        s, n, g = self.story, self.node, self.graph
        fa = s.first[n]
        a = g.nodes[fa]
        out = [f"  story      first appearance: {a['surface']} [{fa.split(':', 1)[1]}] in "
               f"{a['publisher'] or a['doc_path']}, {a['date'] or 'undated'} ({a['role']})"]
        steps = s.depth(n)
        if n in s.unsourced:
            out.append("             this figure appears only downstream: no chain of agreeing "
                       "figures reaches a primary document (unsourced)")
        if fa == n:
            out.append("             this figure is the first appearance")
        elif steps:
            out.append(f"             this figure: {steps} step{'s' * (steps > 1)} downstream of "
                       f"{s.root(n).split(':', 1)[1]}, via {s.via[n]}")
        elif not s.changes.get(n):
            out.append("             this figure: not taken from an earlier figure"
                       + (" (a measurement of its own)" if g.nodes[n]["role"] == "primary" else ""))
            for o, rel, det in self.disagreements(n):
                b = g.nodes[o]
                out.append(f"             {rel} with {b['surface']} [{o.split(':', 1)[1]}] in "
                           f"{b['publisher'] or b['doc_path']}, {b['date'] or 'undated'}: {det}")
        for p, c, rel, det in s.changes.get(n, ()):
            out.append(f"             changed on the way ({rel}): {det}")
        if not s.changes.get(n) and steps:
            out.append("             value and denominator unchanged along the way")
        later = len(nx.descendants(s.tree, n))
        if later:
            out.append(f"             later figures taken from this one: {later:,}")
        doc = g.nodes[n]["doc_id"]
        roots = [r for r in s.order if s.parent.get(r) is None]
        group = [r for r in roots if s.first.get(r) == fa]        # this figure's group
        others = [r for r in roots if r not in group and s.tree.out_degree(r)
                  and any(g.nodes[x]["doc_id"] == doc for x in nx.descendants(s.tree, r) | {r})]
        alone = [r for r in roots if r not in group and not s.tree.out_degree(r)
                 and g.nodes[r]["doc_id"] == doc]
        budget = [limit]

        def draw(root: str) -> None:
            for x in nx.dfs_preorder_nodes(s.tree, root):
                if budget[0] <= 0:
                    return
                draw_one(x, root)

        def draw_one(x: str, root: str) -> None:
            budget[0] -= 1
            b = g.nodes[x]
            d = s.depth(x)
            mark = ["first"] if s.first.get(x) == x else []
            if x != root:
                mark.append(s.via[x])
            elif s.first.get(x) != x:
                mark += [f"{rel} {o.split(':', 1)[1]}" for o, rel, _ in self.disagreements(x)]
            if x in s.unsourced:
                mark.append("unsourced")
            out.append(f"    {'  ' * d}{'└ ' if d else ''}{b['date'] or 'undated'}  "
                       f"{b['surface']} [{x.split(':', 1)[1]}]  "
                       f"{b['publisher'] or b['doc_path']} ({b['role']})"
                       + (f"  {', '.join(mark)}" if mark else "")
                       + ("  <- this figure" if x == n else ""))

        size = sum(len(nx.descendants(s.tree, r)) + 1 for r in group)
        if size <= limit:
            for r in group:
                draw(r)
        else:                           # a large tree: the path to this figure, then counts
            path = s.path(n)
            budget[0] = len(path)
            for x in path:
                draw_one(x, path[0])
            changed = sum(1 for x in s.order if s.first.get(x) == fa and s.changes.get(x))
            down = sum(1 for x in s.order if s.first.get(x) == fa and x in s.unsourced)
            docs = len({g.nodes[x]["doc_id"] for x in s.order if s.first.get(x) == fa})
            out.append(f"    ... the tree holds {size:,} figures in {docs:,} documents; "
                       f"{changed:,} changed along the way, {down:,} appear only downstream "
                       "(`claims export graph --claim` has them all)")
            budget[0] = limit
        if others:
            out.append("    other figures of this document and where they came from")
            before = len(out)
            for r in others:
                draw(r)
            total = sum(len(nx.descendants(s.tree, r)) + 1 for r in others)
            if total > len(out) - before:
                out.append(f"    ... {total - (len(out) - before):,} more figures in these trees "
                           "(`claims export graph --claim` has them all)")
        if alone:
            k = sum(1 for r in alone if r in s.unsourced)
            out.append(f"    also in this document, linked to no other figure: {len(alone)} "
                       f"figure{'s' * (len(alone) > 1)}"
                       + (f", {k} of them appearing only downstream (unsourced)" if k else ""))
        return out


    def disagreements(self, n: str) -> list[tuple[str, str, str]]:
        """(claim, relation, detail) of the conflicts and mismatches of ``n``."""
        out = []
        for u, v, d in [*self.graph.in_edges(n, data=True), *self.graph.out_edges(n, data=True)]:
            if d.get("relation") in CHANGE:
                out.append((v if u == n else u, d["relation"], d.get("detail", "")))
        return out


def claim_story(record, claim_id: str, context: bool = True) -> ClaimStory:
    """The story of one claim: the graph of its cluster and its document's figures."""
    cid, ids = select_claim(record, claim_id, context=context)
    g = build_graph(record, ids, label=f"claim {cid}")
    return ClaimStory(claim_node(cid), g, propagation_of(g))


def propagation_of(g: nx.MultiDiGraph) -> Story:
    """The story ``build_graph`` wrote onto ``g``, read back (kept on ``g.graph``)."""
    return g.graph["_story"]
