"""The graph of a figure's story (issue 20): first appearance, propagation tree, changes,
downstream-only figures; `claims trace`'s story block; `claims export graph`.

The demo corpus (corpus/, seed 000's documents) is ingested once through the real CLI; the
propagation rules are also checked on a small record built in memory.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest

from pipeline.graph import (GraphError, build_graph, claim_node, claim_story, propagation_of,
                            select_claim, select_cluster, select_model, write_graph)
from pipeline.model import Claim, Link
from pipeline.record import DocInfo, Record, open_record
from pipeline.trace import format_trace, trace
from claimdb import claim_id as cid

REPO = Path(__file__).resolve().parents[1]
COVERAGE = "coverage-nvidia-1000-tokens.md"
INFERENCEX = "inferencex-deepseek-v4-1-flash.html"
VLLM = "vllm-deepseek-v4-1-flash.md"


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli) -> str:
    path = tmp_path_factory.mktemp("graph") / "g.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(path), "-q", cwd=REPO, check=True)
    return str(path)


@pytest.fixture(scope="module")
def rec(db) -> Record:
    return open_record(db)




# --- the demo corpus: the 1,000 tokens/s story --------------------------------------------

def test_thousand_tokens_story_is_unsourced_and_the_peak_is_attached_to_inferencex(db, rec):
    peak = cid(db, INFERENCEX, "1,094,347 tok/s")
    copy = cid(db, COVERAGE, "1.09 million tokens per second")
    for surface in ("1,000+ tokens/s", "1,000 tokens per second"):
        me = cid(db, COVERAGE, surface)
        st = claim_story(rec, me)
        s, n = st.story, claim_node(me)
        assert n in s.unsourced and s.parent[n] is None      # downstream of no primary
        assert s.first[n] == n                               # first seen in the coverage
        # the 1.09M figure hangs under InferenceX's peak, which is its group's first appearance
        assert s.parent[claim_node(copy)] == claim_node(peak) and s.via[claim_node(copy)] == "supports"
        assert s.first[claim_node(copy)] == claim_node(peak)
        assert claim_node(copy) not in s.unsourced and claim_node(peak) not in s.unsourced
        d = st.to_dict()
        assert d["unsourced"] is True and d["first_appearance"]["id"] == me
        assert me in d["downstream_only"] and copy not in d["downstream_only"]
        text = "\n".join(st.lines())
        assert "appears only downstream" in text
        assert f"1.09 million tokens per second [{copy}]" in text and "└" in text
    # every other figure of the coverage appears only downstream
    cov = [k for k, c in rec.claims.items() if rec.doc(c).path == COVERAGE]
    st = claim_story(rec, cov[0])
    assert {x for x in cov if claim_node(x) not in st.story.unsourced} == {copy}


def test_primary_conflict_is_a_measurement_of_its_own(db, rec):
    vllm = cid(db, VLLM, "954K tokens/s")
    ix = cid(db, INFERENCEX, "471,578 tok/s/GPU")
    st = claim_story(rec, ix)
    s = st.story
    assert s.first[claim_node(ix)] == claim_node(vllm)      # the earlier primary of the group
    assert s.parent[claim_node(ix)] is None                  # not taken from vLLM
    text = "\n".join(st.lines())
    assert "a measurement of its own" in text and f"conflicts with 954K tokens/s [{vllm}]" in text


def test_trace_keeps_its_output_and_adds_the_story(db, rec, run_cli):
    me = cid(db, COVERAGE, "1,000+ tokens/s")
    t = trace(me, rec)
    text = format_trace(t)
    assert "  story      first appearance: 1,000+ tokens/s" in text
    assert text.index("  story") < text.index("  check      unproven")
    d = t.to_dict()
    assert {"claim", "document", "findings", "links", "cluster", "verdict", "story"} <= set(d)
    assert d["story"]["unsourced"] is True
    p = run_cli("trace", cid(db, COVERAGE, "1.09 million tokens per second"), "--db", db,
                "--format", "json", cwd=REPO, check=True)
    story = json.loads(p.stdout)["story"]
    assert [x["doc_path"] for x in story["path"]] == [INFERENCEX, COVERAGE]
    assert story["path"][1]["via"] == "supports" and story["changes"] == []


# --- selections and bounds ----------------------------------------------------------------

def test_selections(db, rec):
    peak = cid(db, INFERENCEX, "1,094,347 tok/s")
    kid = rec.clusters[peak]
    full, ids = select_cluster(rec, kid[:6])
    assert full == kid and ids == {peak, cid(db, COVERAGE, "1.09 million tokens per second")}
    ids = select_model(rec, "deepseek-v4.1-flash")
    assert peak in ids and all(rec.claims[k].model == "DeepSeek-V4.1-Flash" for k in ids)
    full, ids = select_claim(rec, peak[:8], context=False)
    assert full == peak and len(ids) == 2
    with pytest.raises(GraphError):
        select_cluster(rec, "nope")
    with pytest.raises(GraphError):
        select_model(rec, "No Such Model")
    with pytest.raises(GraphError, match="narrow the selection"):
        build_graph(rec, list(rec.claims), limit=5)


# --- the rules, on a record built in memory -----------------------------------------------

def _record() -> Record:
    """P (primary, 10-01) 500 tok/s per GPU; A (10-05) restates P; S (10-02, secondary)
    agrees with P without naming it; B (10-08) agrees with A and S and names P's publisher;
    C (10-09) says 500 per user (a mismatch with B); D (10-10) a figure agreeing only with
    C; Q (09-30, primary) measures 650 (conflicts with P)."""
    docs, claims = {}, {}
    spec = [("P", "primary", "2026-10-01", "Lab", 500, "per_gpu", None),
            ("A", "secondary", "2026-10-05", "Wire", 500, "per_gpu", "Lab"),
            ("S", "secondary", "2026-10-02", "Blog", 500, "per_gpu", None),
            ("B", "secondary", "2026-10-08", "Daily", 500, "per_gpu", "Lab"),
            ("C", "secondary", "2026-10-09", "Weekly", 500, "per_user", None),
            ("D", "secondary", "2026-10-10", "Forum", 500, "per_user", None),
            ("Q", "primary", "2026-09-30", "Rival", 650, "per_gpu", None)]
    for name, role, date, pub, value, scope, by in spec:
        docs[name] = DocInfo(id=name, path=f"{name.lower()}.md", publisher=pub, published=date,
                             role=role, title=f"{pub} post")
        claims[name] = Claim(id=name, doc_id=name, start=0, end=3, surface=f"{value} tok/s",
                             value=float(value), family="token_throughput", unit="tokens/s",
                             scope=scope, model="M", asserted_by=by)
    links = [Link("A", "P", "restates", True, "attributed to Lab"),
             Link("S", "P", "supports", True, "agree"),
             Link("B", "S", "supports", True, "agree"),
             Link("B", "P", "restates", True, "attributed to Lab"),
             Link("B", "A", "supports", True, "agree"),
             Link("C", "B", "mismatch", True, "same number, different metric: scope per_user vs per_gpu"),
             Link("D", "C", "supports", True, "agree"),
             Link("P", "Q", "conflicts", False, "500 vs 650")]
    clusters = {k: "kone" for k in claims}
    return Record(docs=docs, claims=claims, links=links, clusters=clusters)


def test_propagation_rules():
    rec = _record()
    g = build_graph(rec, rec.claims)
    s = propagation_of(g)
    n = claim_node
    assert s.order == [n(x) for x in "QPSABCD"]
    assert s.first[n("S")] == n("Q")                 # earliest primary of the group
    assert s.parent[n("P")] is None                  # a primary conflicting: its own measurement
    assert s.parent[n("S")] == n("P") and s.via[n("S")] == "supports"
    assert s.parent[n("A")] == n("P") and s.via[n("A")] == "restates"
    assert s.parent[n("B")] == n("P") and s.via[n("B")] == "restates"   # the source it names
    assert s.parent[n("C")] == n("B") and s.via[n("C")] == "mismatch"   # the denominator drifted
    assert s.parent[n("D")] == n("C")
    assert [c[2] for c in s.changes[n("D")]] == ["mismatch"] and not s.changes[n("B")]
    assert s.path(n("D")) == [n("P"), n("B"), n("C"), n("D")]
    assert s.unsourced == {n("C"), n("D")}           # no agreeing chain reaches a primary
    assert nx.is_forest(s.tree)
    # the story is written onto the graph
    assert g.nodes[n("D")]["changed"] is True and g.nodes[n("D")]["depth"] == 3
    assert g.has_edge(n("B"), n("C"), key="propagates")
    assert g.has_edge(n("B"), "doc:P", key="cites")   # B names Lab
    assert g.has_edge("doc:B", n("B"), key="contains")


# --- export -------------------------------------------------------------------------------

def _keys(g) -> set[tuple]:
    return {(u, v, d.get("relation")) for u, v, d in g.edges(data=True)}


def test_export_graphml_gexf_json_read_back(db, rec, run_cli, tmp_path):
    me = cid(db, COVERAGE, "1,000+ tokens/s")
    want = build_graph(rec, select_claim(rec, me)[1])
    peak = claim_node(cid(db, INFERENCEX, "1,094,347 tok/s"))
    copy = claim_node(cid(db, COVERAGE, "1.09 million tokens per second"))
    assert (copy, peak, "supports") in _keys(want) and (peak, copy, "propagates") in _keys(want)
    out = {}
    for fmt in ("graphml", "gexf", "json"):
        target = tmp_path / f"story.{fmt}"
        run_cli("export", "graph", "--claim", me, "--format", fmt, "-o", str(target),
                "--db", db, cwd=tmp_path, check=True)
        out[fmt] = target
    gm = nx.read_graphml(out["graphml"], force_multigraph=True)
    gx = nx.read_gexf(out["gexf"])
    data = json.loads(out["json"].read_text())
    gj = nx.node_link_graph(data, edges="edges")
    for h in (gm, gx, gj):
        assert set(h.nodes) == set(want.nodes)
        assert _keys(h) == _keys(want)
        assert h.number_of_edges() == want.number_of_edges()
    for h in (gm, gx):
        doc = h.nodes[f"doc:{rec.claims[peak[6:]].doc_id}"]
        assert doc["publisher"] == "SemiAnalysis" and doc["role"] == "primary"
        assert doc["date"] == "2026-10-30" and doc["url"].startswith("https://example.com/")
        c = h.nodes[copy]
        assert c["surface"] == "1.09 million tokens per second" and c["value"] == 1090000.0
        assert c["unit"] == "tokens/s" and c["scope"] == "per_gpu" and c["unsourced"] is False
        assert "DeepSeek-V4.1-Flash" in c["conditions"]
        assert h.nodes[claim_node(me)]["unsourced"] is True
        assert h.nodes[claim_node(me)]["statistic"] == ""              # None written as ""
        edge = next(d for u, v, d in h.edges(data=True) if (u, v) == (copy, peak))
        assert edge["relation"] == "supports" and edge["consistent"] is True
        assert "agree" in edge["detail"]
    # edge ids are unique (Gephi drops an edge whose id it has seen)
    for fmt in ("graphml", "gexf"):
        ids = re.findall(r'<edge [^>]*\bid="([^"]+)"', out[fmt].read_text())
        assert len(ids) == want.number_of_edges() == len(set(ids)), fmt
    # GEXF declares a type for every attribute
    text = out["gexf"].read_text()
    assert 'type="double"' in text and 'type="boolean"' in text and 'type="string"' in text
    assert data["graph"]["selection"] == f"claim {me}"
    assert next(x for x in data["nodes"] if x["id"] == claim_node(me))["statistic"] is None


def test_export_graph_selections_and_errors(db, rec, run_cli, tmp_path):
    p = run_cli("export", "graph", "--model", "DeepSeek-V4.1-Flash", "--db", db, cwd=tmp_path,
                check=True)                                          # GraphML on stdout
    g = nx.parse_graphml(p.stdout, force_multigraph=True)
    assert claim_node(cid(db, VLLM, "954K tokens/s")) in g
    assert claim_node(cid(db, "kimi-k3.txt", "62.7 tokens/s/user")) not in g
    kid = rec.clusters[cid(db, VLLM, "954K tokens/s")]
    p = run_cli("export", "graph", "--cluster", kid, "-f", "json", "--db", db, cwd=tmp_path,
                check=True)
    data = json.loads(p.stdout)
    assert {x["relation"] for x in data["edges"]} == {"contains", "conflicts"}
    p = run_cli("export", "graph", "--db", db, cwd=tmp_path)
    assert p.returncode == 2 and "never for the whole warehouse" in p.stderr
    p = run_cli("export", "graph", "--cluster", "zz", "--db", db, cwd=tmp_path)
    assert p.returncode == 2 and "no cluster" in p.stderr
    p = run_cli("export", "claims", "-f", "gexf", "--db", db, cwd=tmp_path)
    assert p.returncode == 2 and "graph format" in p.stderr
    p = run_cli("export", "graph", "--claim", "zz", "-f", "csv", "--db", db, cwd=tmp_path)
    assert p.returncode == 2


def test_write_graph_rejects_unknown_format(rec):
    with pytest.raises(ValueError):
        write_graph(build_graph(rec, []), "dot", "x")


def test_large_tree_prints_the_path_and_counts():
    rec = _record()
    st = claim_story(rec, "D")
    lines = st.lines(limit=3)
    drawn = [ln for ln in lines if ln.startswith("    ") and "[" in ln]
    assert [ln.split("[")[1][0] for ln in drawn] == list("PBCD")     # root ... this figure
    assert drawn[-1].endswith("<- this figure")
    assert any("the tree holds 7 figures in 7 documents; 2 changed along the way" in ln
               for ln in lines)
    assert any("changed on the way (mismatch)" in ln for ln in lines)


def test_control_characters_do_not_break_the_xml(tmp_path):
    rec = _record()
    rec.docs["B"].title = "Daily\x01 \x1b[31mred"
    rec.claims["B"].sentence = "bad \x00 byte"
    g = build_graph(rec, rec.claims)
    for fmt, read in (("graphml", nx.read_graphml), ("gexf", nx.read_gexf)):
        write_graph(g, fmt, tmp_path / f"x.{fmt}")
        h = read(tmp_path / f"x.{fmt}")
        assert h.nodes["doc:B"]["title"] == "Daily   [31mred"
        assert h.nodes[claim_node("B")]["sentence"] == "bad   byte"
