"""The warehouse views over tables filled from the fixture corpus's link result.

The DDL here is a minimal stand-in with the real column names (warehouse/schema.sql is
the real one); the views must only rely on those names.
"""
from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import duckdb
import pytest

from pipeline.link import link
from pipeline.link.facts import FACT_COLUMNS, FACT_TYPES, facts_row
from pipeline.model import Claim, Link

ROOT = Path(__file__).resolve().parents[1]
VIEWS = sorted((ROOT / "warehouse" / "views").glob("*.sql"))
_spec = importlib.util.spec_from_file_location(
    "link_fixture_loader", ROOT / "tests" / "fixtures" / "link" / "loader.py")
loader = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(loader)

_TYPES = {"str": "VARCHAR", "float": "DOUBLE", "int": "INTEGER", "bool": "BOOLEAN",
          "list[str]": "VARCHAR[]"}


def _sqltype(f: dataclasses.Field) -> str:
    t = str(f.type).replace(" | None", "")
    return _TYPES.get(t, "VARCHAR")


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    claims, docs, texts = loader.load()
    result = link(claims, docs)
    con = duckdb.connect(str(tmp_path_factory.mktemp("wh") / "t.duckdb"))
    con.execute("""CREATE TABLE documents(id VARCHAR, path VARCHAR, format VARCHAR,
        title VARCHAR, publisher VARCHAR, url VARCHAR, published DATE, author VARCHAR,
        role VARCHAR, role_source VARCHAR, n_chars INTEGER, text VARCHAR,
        ingested_at TIMESTAMP, meta JSON)""")
    cfields = [f for f in dataclasses.fields(Claim)]
    con.execute("CREATE TABLE claims(" + ", ".join(f"\"{f.name}\" {_sqltype(f)}" for f in cfields)
                + "".join(f", {n} {FACT_TYPES[n]}" for n in FACT_COLUMNS) + ")")
    con.execute("CREATE TABLE links(" + ", ".join(
        f"{f.name} {_sqltype(f)}" for f in dataclasses.fields(Link)) + ")")
    con.execute("CREATE TABLE clusters(cluster_id VARCHAR, claim_id VARCHAR)")
    for d in docs.values():
        role = result.roles[d.id]
        con.execute("INSERT INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?,now(),NULL)",
                    [d.id, d.path, "markdown", d.title, d.publisher, None, d.published, None,
                     role[0], role[1], len(texts[d.id]), texts[d.id]])
    for c in claims:
        c.findings = result.findings.get(c.id, [])
        row = [getattr(c, f.name) for f in cfields] + list(facts_row(c))
        con.execute(f"INSERT INTO claims VALUES ({','.join('?' * len(row))})", row)
    for ln in result.links:
        con.execute("INSERT INTO links VALUES (?,?,?,?,?,?,?)",
                    [ln.src, ln.dst, ln.relation, ln.consistent, ln.detail, ln.computed, ln.other])
    con.executemany("INSERT INTO clusters VALUES (?,?)", result.cluster_rows())
    for v in VIEWS:
        con.execute(v.read_text())
    return con


def test_one_file_per_view():
    assert {v.stem for v in VIEWS} == {"conflicts", "unsourced_claims", "metric_mismatches",
                                        "derived_checks", "claim_clusters", "first_sources",
                                        "claims_full", "derived_figures"}


def test_conflicts_view(db):
    rows = db.execute("SELECT src, dst FROM conflicts").fetchall()
    assert {frozenset(r) for r in rows} >= {frozenset({"b_51000", "a_52300"}),
                                             frozenset({"b_params", "a_params"})}


def test_unsourced_view(db):
    ids = {r[0] for r in db.execute("SELECT id FROM unsourced_claims").fetchall()}
    assert {"g_2000", "g_9000", "g_300"} <= ids and "g_1200" not in ids


def test_mismatch_view(db):
    r = db.execute("SELECT src_scope, dst_scope FROM metric_mismatches WHERE src='g_1240gpu'").fetchall()
    assert r == [("per_gpu", "per_user")]


def test_derived_view(db):
    r = dict(db.execute("SELECT claim_id, consistent FROM derived_checks").fetchall())
    assert r["a_55"] is True and r["g_80"] is False and "e_25" not in r
    same = dict(db.execute("SELECT claim_id, same_document FROM derived_checks").fetchall())
    assert same["a_55"] is True


def test_clusters_and_first_sources(db):
    n = db.execute("SELECT count(*) FROM claim_clusters WHERE has_conflict").fetchone()[0]
    assert n >= 2
    first = db.execute("""SELECT f.doc_id FROM first_sources f JOIN clusters k
                          ON k.cluster_id = f.cluster_id WHERE k.claim_id = 'g_1200'""").fetchone()
    assert first == ("alpha",)
