"""The link stage over a small hand-written corpus (tests/fixtures/link/).

Every relation and finding appears at least once, and the pairs that must not link do not:
the same number on a different model, and a per-GPU figure beside a per-user one.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pipeline.link import build_graph, link, relink, touched_keys

_spec = importlib.util.spec_from_file_location(
    "link_fixture_loader", Path(__file__).parent / "fixtures" / "link" / "loader.py")
loader = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loader)


@pytest.fixture(scope="module")
def linked():
    claims, docs, _ = loader.load()
    return claims, docs, link(claims, docs)


def rel(result, a, b):
    """Relations between claims a and b, either direction."""
    return {ln.relation for ln in result.links if {ln.src, ln.dst} == {a, b}}


def test_text_spans_hold(linked):
    claims, _, _ = linked
    _, _, texts = loader.load()
    for c in claims:
        assert texts[c.doc_id][c.start:c.end] == c.surface


def test_roles_manifest_metadata_inferred(linked):
    _, _, r = linked
    assert r.roles["alpha"] == ("primary", "manifest")
    assert r.roles["beta"] == ("primary", "metadata")
    assert r.roles["gamma"] == ("secondary", "inferred")
    assert r.roles["delta"] == ("primary", "inferred")


def test_restates_attributed_primary(linked):
    _, _, r = linked
    ln = next(ln for ln in r.links if ln.src == "g_1200" and ln.dst == "a_1240")
    assert ln.relation == "restates" and ln.consistent is True


def test_supports(linked):
    _, _, r = linked
    assert rel(r, "g_50000", "b_51000") == {"supports"}
    assert rel(r, "g_50000", "a_52300") == {"supports"}
    assert rel(r, "g_800", "a_800") == {"supports"}


def test_hardware_alias_supports(linked):
    _, _, r = linked
    assert rel(r, "g_3100", "d_3100") == {"supports"}   # 8 x B200 == DGX B200


def test_conflicts_generic_and_operating_point(linked):
    _, _, r = linked
    assert rel(r, "b_params", "a_params") == {"conflicts"}   # 0.8B vs 70.6B
    ln = next(ln for ln in r.links if {ln.src, ln.dst} == {"b_51000", "a_52300"})
    assert ln.relation == "conflicts" and ln.consistent is False
    assert "operating point" in ln.detail


def test_mismatch_scope(linked):
    _, _, r = linked
    assert rel(r, "g_1240gpu", "a_1240") == {"mismatch"}


def test_derives_same_doc_cross_doc_and_inconsistent(linked):
    _, _, r = linked
    d = {ln.src: ln for ln in r.links if ln.relation == "derives"}
    assert d["a_55"].consistent is True and {d["a_55"].dst, d["a_55"].other} == {"a_1240", "a_800"}
    assert d["a_55"].computed == pytest.approx(55.0)
    # a percent whose operands stand in other documents is no derivation a reader sees
    # (docs/claims-model.md §3: same sentence, table row or adjacent sentences)
    assert "e_25" not in d
    assert d["g_80"].consistent is False and d["g_80"].computed == pytest.approx(55.0)


def test_findings(linked):
    _, _, r = linked
    f = r.findings
    assert "unsourced" in f["g_2000"]
    assert "unsourced" in f["g_9000"] and "ambiguous" in f["g_9000"]
    assert "misattributed" in f["g_300"]
    assert "ambiguous" in f["g_1240gpu"] and "misattributed" not in f["g_1240gpu"]
    for cid in ("g_1200", "g_50000", "g_800", "g_3100"):
        assert "unsourced" not in f.get(cid, []), cid
    assert "g_5000" not in f   # negated: nothing to source


def test_must_not_link(linked):
    _, _, r = linked
    assert rel(r, "g_whale1240", "a_1240") == set()        # same number, other model
    assert rel(r, "b_51000", "a_1240") == set()            # per GPU beside per user
    assert rel(r, "a_52300", "a_40") == set()              # same document
    assert not any("g_5000" in (ln.src, ln.dst) for ln in r.links)   # negated


def test_clusters_and_graph(linked):
    claims, docs, r = linked
    assert r.clusters["g_1200"] == r.clusters["a_1240"] == r.clusters["g_1240gpu"]
    assert r.clusters["g_50000"] == r.clusters["b_51000"] == r.clusters["a_52300"]
    assert r.clusters["a_1240"] != r.clusters["a_52300"]
    assert "g_2000" not in r.clusters
    g = build_graph(claims, r.links, docs)
    assert g.has_node("entity:model:orca 70b") and g.has_node("entity:hardware:8 x B200")


def test_relink_equals_full_link():
    claims, docs, _ = loader.load()
    old = [c for c in claims if c.doc_id != "gamma"]
    first = link(old, {k: v for k, v in docs.items() if k != "gamma"})
    new = [c for c in claims if c.doc_id == "gamma"]
    again = relink(claims, docs, first, touched_keys(new), new_docs={"gamma"})
    full = link(claims, docs)
    key = lambda res: sorted((l.src, l.dst, l.relation, l.consistent) for l in res.links)
    assert key(again) == key(full)
    assert again.findings == full.findings and again.clusters == full.clusters
