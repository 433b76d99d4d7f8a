"""Views an analyst can use without joins (issue 15, part 4).

`claims_full` is every claim with its document's display path, title, publisher, role,
date and URL; the conflicts, unsourced, mismatch and derived views name documents by path
and title; `claims export claims` carries the same columns. Each view is compared with the
join it saves, computed here on the same real warehouse (the demo corpus plus a
manifest-free copy of one post, so both roles and sources appear).
"""
from __future__ import annotations

import csv
import dataclasses
import io
import json
import shutil

import duckdb
import pytest

from conftest import REPO
from pipeline.model import Claim
from pipeline.store import Store

DOC_COLUMNS = {"doc_path": "path", "doc_title": "title", "doc_publisher": "publisher",
               "doc_role": "role", "doc_role_source": "role_source",
               "doc_published": "published", "doc_url": "url"}


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli):
    base = tmp_path_factory.mktemp("views")
    shutil.copytree(REPO / "corpus", base / "corpus")
    path = base / "v.duckdb"
    run_cli("ingest", "corpus", "--db", str(path), "-q", cwd=base, check=True)
    return path


@pytest.fixture(scope="module")
def con(db):
    c = duckdb.connect(str(db), read_only=True)
    yield c
    c.close()


def test_claims_full_is_every_claim_with_its_document(con):
    cols = [r[0] for r in con.execute("DESCRIBE claims_full").fetchall()]
    claim_cols = [f.name for f in dataclasses.fields(Claim)]
    assert cols == claim_cols + list(DOC_COLUMNS)
    n_claims = con.execute("SELECT count(*) FROM claims").fetchone()[0]
    assert n_claims > 0
    assert con.execute("SELECT count(*) FROM claims_full").fetchone()[0] == n_claims
    same = " AND ".join(f"d.{src} IS NOT DISTINCT FROM f.{col}" for col, src in DOC_COLUMNS.items())
    agree = con.execute(
        f"SELECT bool_and({same}), count(*) FROM claims_full f"
        " JOIN documents d ON d.id = f.doc_id").fetchone()
    assert agree == (True, n_claims)
    assert con.execute("SELECT count(DISTINCT doc_role) FROM claims_full").fetchone()[0] >= 2


@pytest.mark.parametrize("view,pairs", [
    ("conflicts", [("src_doc", "src_path", "src_title"), ("dst_doc", "dst_path", "dst_title")]),
    ("metric_mismatches", [("src_doc", "src_path", "src_title"), ("dst_doc", "dst_path", "dst_title")]),
    ("derived_checks", [("doc_id", "path", "title"), ("a_doc", "a_path", "a_title"),
                        ("b_doc", "b_path", "b_title")]),
    ("unsourced_claims", [("doc_id", "path", "title")]),
    ("first_sources", [("doc_id", "path", "title")]),
])
def test_views_name_documents_by_path_and_title(con, view, pairs):
    cols = {r[0] for r in con.execute(f"DESCRIBE {view}").fetchall()}
    for doc, path, title in pairs:
        assert {doc, path, title} <= cols
        wrong = con.execute(
            f"SELECT count(*) FROM {view} v LEFT JOIN documents d ON d.id = v.{doc}"
            f" WHERE v.{path} IS DISTINCT FROM d.path OR v.{title} IS DISTINCT FROM d.title"
        ).fetchone()[0]
        assert wrong == 0


def test_demo_conflict_and_unsourced_claims_carry_paths(con):
    paths = {r[0] for r in con.execute("SELECT path FROM documents").fetchall()}
    rows = con.execute("SELECT src_path, dst_path FROM conflicts").fetchall()
    assert rows and all(a in paths and b in paths for a, b in rows)
    unsourced = con.execute("SELECT DISTINCT path FROM unsourced_claims").fetchall()
    assert unsourced and all(r[0] in paths for r in unsourced)


def test_export_claims_carries_the_document_columns(db, con, run_cli):
    out = run_cli("export", "claims", "--db", str(db), cwd=db.parent, check=True).stdout
    objs = [json.loads(line) for line in out.splitlines()]
    docs = {r[0]: dict(zip(["path", "title", "publisher", "role", "published", "url"], r[1:]))
            for r in con.execute("SELECT id, path, title, publisher, role,"
                                 " strftime(published, '%Y-%m-%d'), url FROM documents").fetchall()}
    assert len(objs) == con.execute("SELECT count(*) FROM claims").fetchone()[0]
    for o in objs:
        d = docs[o["doc_id"]]
        assert (o["doc_path"], o["doc_title"], o["doc_publisher"], o["doc_role"],
                o["doc_published"], o["doc_url"]) == (d["path"], d["title"], d["publisher"],
                                                      d["role"], d["published"], d["url"])
    assert [o["doc_path"] for o in objs] == sorted(o["doc_path"] for o in objs)
    table = list(csv.DictReader(io.StringIO(run_cli(
        "export", "claims", "--db", str(db), "-f", "csv", cwd=db.parent, check=True).stdout)))
    assert [r["doc_title"] for r in table] == [o["doc_title"] or "" for o in objs]


def test_a_warehouse_without_claims_full_gets_it_when_read(tmp_path, db):
    """An older warehouse (no claims_full view yet) still answers through it, read-only."""
    old = tmp_path / "old.duckdb"
    shutil.copy(db, old)
    c = duckdb.connect(str(old))
    c.execute("DROP VIEW claims_full")
    c.close()
    with Store.open(old, read_only=True) as s:
        assert "claims_full" in s.shadowed
        n = s.query("SELECT count(*) FROM claims_full")[1][0][0]
        assert n == s.query("SELECT count(*) FROM claims")[1][0][0] > 0
