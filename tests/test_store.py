"""The DuckDB store: schema in step with the records, whole-file writes, read-only reads."""
from __future__ import annotations

import dataclasses

import duckdb
import pytest

from pipeline.model import Claim, Document, Link, Page
from pipeline.link.facts import FACT_COLUMNS
from pipeline.store import Store, StoreError, check_read_only, resolve_db


def _doc(doc_id="d1", path="a.pdf", text="Alpha 10 ms.\n\nBeta 20 ms.") -> Document:
    return Document(id=doc_id, path=path, format="pdf", text=text, title="T",
                    published="2024-01-02", pages=[Page(1, 0, 12), Page(2, 14, len(text))],
                    meta={"encoding": "utf-8", "n_bytes": 99})


def _claim(cid: str, doc_id="d1", start=6, **kw) -> Claim:
    return Claim(id=cid, doc_id=doc_id, start=start, end=start + 5, surface="10 ms",
                 value=0.01, family="latency", unit="s", findings=["ambiguous"], **kw)


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "w.duckdb") as s:
        yield s


def _columns(store: Store, table: str) -> list[str]:
    return [r[0] for r in store.con.execute(f"DESCRIBE {table}").fetchall()]


def test_claims_and_links_tables_match_the_records(store):
    assert _columns(store, "claims") == [f.name for f in dataclasses.fields(Claim)] + FACT_COLUMNS
    assert _columns(store, "links") == [f.name for f in dataclasses.fields(Link)]
    assert set(_columns(store, "pages")) == {"doc_id", "page", "start", "end"}
    assert {"id", "path", "format", "title", "publisher", "url", "published", "author", "role",
            "role_source", "n_chars", "text", "ingested_at"} <= set(_columns(store, "documents"))
    assert _columns(store, "clusters") == ["cluster_id", "claim_id"]
    # the stored facts are the checker's: claims_full (what export and serve read) leaves them out
    full = _columns(store, "claims_full")
    assert not set(FACT_COLUMNS) & set(full)
    assert full[:len(dataclasses.fields(Claim))] == [f.name for f in dataclasses.fields(Claim)]


def test_write_document_pages_and_claims(store):
    assert store.write(_doc(), [_claim("c1"), _claim("c2", start=20, page=2)], "fp") == "new"
    row = store.con.execute("SELECT path, n_chars, published::VARCHAR, meta->>'encoding' "
                            "FROM documents").fetchone()
    assert row == ("a.pdf", len(_doc().text), "2024-01-02", "utf-8")
    assert store.query('SELECT page, start, "end" FROM pages ORDER BY page')[1] == [(1, 0, 12), (2, 14, 25)]
    cols, rows = store.query("SELECT id, findings, page, implied FROM claims ORDER BY id")
    assert rows == [("c1", ["ambiguous"], None, False), ("c2", ["ambiguous"], 2, False)]


def test_unchanged_is_skipped_changed_is_replaced_with_its_dependents(store):
    store.write(_doc(), [_claim("c1")], "fp")
    store.con.execute("INSERT INTO links VALUES ('c1', 'zz', 'supports', true, '', NULL, NULL)")
    store.con.execute("INSERT INTO clusters VALUES ('k1', 'c1')")
    assert store.plan("d1", "a.pdf", "fp").action == "skipped"
    assert store.write(_doc(), [_claim("c1")], "fp") == "skipped"
    # the same path now holds other bytes: the old document and all it owns go
    new = _doc(doc_id="d2", text="Gamma 30 ms.\n\nDelta.")
    assert store.write(new, [_claim("c9", doc_id="d2")], "fp2") == "replaced"
    assert store.query("SELECT id FROM documents")[1] == [("d2",)]
    assert store.query("SELECT id FROM claims")[1] == [("c9",)]
    assert store.query("SELECT count(*) FROM links")[1] == [(0,)]
    assert store.query("SELECT count(*) FROM clusters")[1] == [(0,)]
    assert store.query("SELECT DISTINCT doc_id FROM pages")[1] == [("d2",)]


def test_same_bytes_elsewhere_is_not_stored_twice(store):
    store.write(_doc(), [], "fp")
    assert store.write(_doc(path="copy/a.pdf"), [], "fp") == "skipped"
    assert store.query("SELECT count(*) FROM documents")[1] == [(1,)]


def test_new_fingerprint_or_force_replaces_in_place(store):
    store.write(_doc(), [_claim("c1")], "fp")
    assert store.write(_doc(), [_claim("c1")], "fp-new") == "replaced"
    assert store.write(_doc(), [_claim("c1")], "fp-new", force=True) == "replaced"
    assert store.query("SELECT count(*) FROM claims")[1] == [(1,)]


def test_a_failing_file_lands_not_at_all(store):
    with pytest.raises(duckdb.ConstraintException):
        store.write(_doc(), [_claim("dup"), _claim("dup")], "fp")
    for table in ("documents", "pages", "claims"):
        assert store.query(f"SELECT count(*) FROM {table}")[1] == [(0,)]


def test_claim_of_another_document_is_refused(store):
    with pytest.raises(ValueError):
        store.write(_doc(), [_claim("c1", doc_id="other")], "fp")


def test_errors_keep_the_latest_reason_per_path(store):
    store.record_error("x.txt", "first\nreason")
    store.record_error("x.txt", "second")
    assert store.query("SELECT path, reason FROM ingest_errors")[1] == [("x.txt", "second")]
    store.write(_doc(path="x.txt"), [], "fp")
    assert store.query("SELECT count(*) FROM ingest_errors")[1] == [(0,)]


def test_read_only_connection_refuses_writes(tmp_path):
    Store.open(tmp_path / "r.duckdb").close()
    with Store.open(tmp_path / "r.duckdb", read_only=True) as ro:
        with pytest.raises(duckdb.Error):
            ro.con.execute("DELETE FROM documents")


def test_read_only_open_of_missing_database(tmp_path):
    with pytest.raises(StoreError, match="no database"):
        Store.open(tmp_path / "none.duckdb", read_only=True)


@pytest.mark.parametrize("sql", ["SELECT 1", "with a as (select 1) select * from a",
                                 "FROM documents", "explain select 1", "describe claims"])
def test_reads_pass_the_check(sql):
    check_read_only(sql)


@pytest.mark.parametrize("sql", ["DELETE FROM documents", "drop table claims",
                                 "insert into links values (1)", "select 1; select 2",
                                 "attach 'x.db'", "copy documents to 'x.csv'", "pragma version",
                                 "set threads = 1", "selec 1", ""])
def test_writes_and_garbage_fail_the_check(sql):
    with pytest.raises(StoreError):
        check_read_only(sql)


def test_db_location(monkeypatch, tmp_path):
    monkeypatch.delenv("CLAIMS_DB", raising=False)
    assert str(resolve_db()) == "warehouse/claims.duckdb"
    monkeypatch.setenv("CLAIMS_DB", str(tmp_path / "env.duckdb"))
    assert resolve_db() == tmp_path / "env.duckdb"
    assert resolve_db(tmp_path / "flag.duckdb") == tmp_path / "flag.duckdb"


def test_schema_ships_inside_the_package():
    from importlib.resources import files

    assert "CREATE TABLE IF NOT EXISTS documents" in (
        files("pipeline.warehouse") / "schema.sql").read_text()
