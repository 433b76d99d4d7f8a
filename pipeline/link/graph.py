"""The claim graph: documents, claims and entities, and clusters of related claims.

Clusters are connected components over supports/restates/conflicts/mismatch (derives is
arithmetic, not identity, so it does not merge clusters). They are computed with a
union-find, which is linear and light at a million claims. ``build_graph`` here is the
bare entity graph of a set of claims; the graph users open (a claim's or a cluster's
story, dated, with its propagation tree, exported as GraphML/GEXF/JSON) is built from the
loaded record by ``pipeline/graph.py`` (docs/graph.md).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

import networkx as nx

from pipeline.model import Claim, Link

from .keys import engine_key, hardware_key, hardware_text, model_key

CLUSTER_RELATIONS = frozenset({"supports", "restates", "conflicts", "mismatch"})


def clusters(links: Iterable[Link]) -> dict[str, str]:
    """claim id -> cluster id for every claim in a component of two or more claims.

    The cluster id is a hash of the component's smallest claim id, so it is stable when
    unrelated documents are added.
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    for ln in links:
        if ln.relation not in CLUSTER_RELATIONS:
            continue
        ra, rb = find(ln.src), find(ln.dst)
        parent.setdefault(ra, ra)
        parent.setdefault(rb, rb)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            parent[rb] = ra
    out: dict[str, str] = {}
    names: dict[str, str] = {}
    for x in parent:
        r = find(x)
        cid = names.get(r)
        if cid is None:
            cid = names[r] = "k" + hashlib.sha1(r.encode()).hexdigest()[:12]
        out[x] = cid
    return out


def build_graph(claims: Iterable[Claim], links: Iterable[Link],
                docs: Iterable[str] = ()) -> nx.MultiDiGraph:
    """Nodes ``doc:``, ``claim:`` and ``entity:`` (model, hardware, engine); edges
    ``contains`` (doc -> claim), ``about`` (claim -> entity) and one per relation."""
    g = nx.MultiDiGraph()
    for d in docs:
        g.add_node(f"doc:{d}", kind="document")
    for c in claims:
        cn = f"claim:{c.id}"
        g.add_node(cn, kind="claim", value=c.value, family=c.family, scope=c.scope)
        g.add_node(f"doc:{c.doc_id}", kind="document")
        g.add_edge(f"doc:{c.doc_id}", cn, relation="contains")
        ents = (("model", model_key(c.model)),
                ("hardware", hardware_text(hardware_key(c.hardware, c.hw_count, c.accelerator))),
                ("engine", engine_key(c.engine)))
        for kind, name in ents:
            if name:
                en = f"entity:{kind}:{name}"
                g.add_node(en, kind=kind, name=name)
                g.add_edge(cn, en, relation="about")
    for ln in links:
        g.add_edge(f"claim:{ln.src}", f"claim:{ln.dst}", relation=ln.relation,
                   consistent=ln.consistent, detail=ln.detail)
    return g
