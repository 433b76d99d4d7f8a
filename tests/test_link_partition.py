"""Linking partition by partition (pipeline/link_parts.py) concludes what the one-pass full
link concludes: the same links, clusters, findings, keys and roles, on the real corpus and
the repository's own corpus/, with partitions small enough that many subjects, documents
and credited sources fall in different partitions."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from pipeline.link_parts import _batches, link_partitioned
from pipeline.run import ingest_paths, link_store
from pipeline.store import Store

REPO = Path(__file__).resolve().parents[1]

TABLES = {
    "links": "SELECT src, dst, relation, consistent, detail, computed, other FROM links",
    "clusters": "SELECT cluster_id, claim_id FROM clusters",
    "findings": "SELECT id, findings FROM claims WHERE len(findings) > 0",
    "keys": "SELECT claim_id, doc_id, qkey, subject FROM claim_keys",
    "roles": "SELECT id, role, role_source FROM documents",
}


def _state(store: Store) -> dict[str, set]:
    return {name: {tuple(tuple(v) if isinstance(v, list) else v for v in row)
                   for row in store.query(sql)[1]} for name, sql in TABLES.items()}


@pytest.fixture(scope="module")
def warehouse(REAL, tmp_path_factory):
    """The real corpus and corpus/ ingested once, not linked; copied per test."""
    db = tmp_path_factory.mktemp("parts") / "base.duckdb"
    with Store.open(db) as store:
        ingest_paths([REAL, REPO / "corpus"], store, workers=0)
    return db


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """6,000 generated claims (benchmarks/bench_scale.py, two chunks): every relation,
    operating points, credited sources and misattributions at rates the real corpus is
    too small for."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_scale import store_synthetic

    db = tmp_path_factory.mktemp("parts") / "synthetic.duckdb"
    with Store.open(db) as store:
        store_synthetic(store, 6000, chunk=3000)
    return db


def _copy(src: Path, tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copy(src, dst)
    return dst


def test_partitioned_link_equals_full_link_synthetic(synthetic, tmp_path):
    full_db, part_db = _copy(synthetic, tmp_path, "full.duckdb"), _copy(synthetic, tmp_path, "p.duckdb")
    with Store.open(full_db) as store:
        link_store(store, full=True)
        full = _state(store)
    with Store.open(part_db) as store:
        link_partitioned(store, max_claims=700)
        part = _state(store)
    relations = {r[2] for r in full["links"]}
    assert relations >= {"supports", "conflicts", "derives", "mismatch", "restates"}
    assert any(r[5] is None and r[2] == "conflicts" and r[4].startswith("operating point")
               for r in full["links"])
    assert {f for r in full["findings"] for f in r[1]} == {"unsourced", "ambiguous", "misattributed"}
    for name in TABLES:
        assert part[name] == full[name], name


def test_partitioned_link_equals_full_link(warehouse, tmp_path):
    full_db, part_db = _copy(warehouse, tmp_path, "full.duckdb"), _copy(warehouse, tmp_path, "p.duckdb")
    with Store.open(full_db) as store:
        full_report = link_store(store, full=True)
        full = _state(store)
    with Store.open(part_db) as store:
        # small partitions: dozens of subject and document partitions on this corpus
        part_report = link_partitioned(store, max_claims=100)
        assert store.pending().empty
        part = _state(store)
        n_parts = sum(1 for _ in _batches(store.query(
            "SELECT subject, count(*) FROM claim_keys WHERE subject IS NOT NULL"
            " GROUP BY 1 ORDER BY 1")[1], 100))
    assert n_parts > 10
    assert len(full["links"]) > 20 and {r[2] for r in full["links"]} >= {
        "supports", "conflicts", "derives"}
    assert any("misattributed" in r[1] for r in full["findings"])
    for name in TABLES:
        assert part[name] == full[name], name
    assert part_report.claims == full_report.claims
    assert part_report.inferred == full_report.inferred


def test_partitioned_link_through_link_store_and_again(warehouse, tmp_path):
    """``link_store(full=True, partitioned=True)`` links in partitions; a second run over
    its own result changes nothing (findings already stored are compared, not rewritten)."""
    db = _copy(warehouse, tmp_path, "again.duckdb")
    with Store.open(db) as store:
        first = link_store(store, full=True, partitioned=True)
        once = _state(store)
        second = link_store(store, full=True, partitioned=True)
        assert _state(store) == once
    assert first.mode == second.mode == "full"
    assert first.totals.relations == second.totals.relations
    assert second.inferred == []        # roles were stored by the first run


def test_batches_cut_runs_by_weight():
    assert list(_batches([("a", 2), ("b", 2), ("c", 5), ("d", 1)], 4)) == [["a", "b"], ["c"], ["d"]]
    assert list(_batches([], 4)) == []


def test_cli_link_partitioned(warehouse, tmp_path, run_cli):
    """`claims link --partitioned` (the real CLI) stores what `claims link` stores."""
    one, parts = _copy(warehouse, tmp_path, "one.duckdb"), _copy(warehouse, tmp_path, "parts.duckdb")
    a = run_cli("link", "--db", str(one), "-q", cwd=tmp_path, check=True)
    b = run_cli("link", "--partitioned", "--db", str(parts), "-q", cwd=tmp_path, check=True)
    assert b.stdout.startswith("linked (full,")
    strip = lambda out: out.split(" in ")[0] + out.split(" s: ", 1)[1]   # noqa: E731 (no time)
    assert strip(a.stdout) == strip(b.stdout)
    with Store.open(one, read_only=True) as s1, Store.open(parts, read_only=True) as s2:
        assert _state(s1) == _state(s2)
