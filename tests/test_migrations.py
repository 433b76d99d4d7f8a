"""Schema versions (issue 17, item 4): a warehouse records its version; an older one is
migrated step by step when opened for writing, with every row kept; a newer one is refused.

The old warehouses here are built from the shipped version-1 schema
(``warehouse/migrations/0001_initial.sql``, never edited) in a real DuckDB file, and opened
with the current code, in process and through the real CLI.
"""
from __future__ import annotations

import duckdb
import pytest

from pipeline import migrate
from pipeline.link.facts import FACT_COLUMNS, facts_row
from pipeline.model import Claim
from pipeline.store import Store, StoreError, schema_sql

V1_DOCUMENT = ("INSERT INTO documents (id, path, format, title, role, role_source, n_chars, text,"
               " fingerprint, ingested_at) VALUES ('d1', 'notes/a.md', 'markdown', 'Old post',"
               " 'primary', 'manifest', 40, 'Decode reached 826 tokens/s per user here.',"
               " 'fp-old', TIMESTAMP '2025-01-02 03:04:05')")
V1_CLAIM = ("INSERT INTO claims (id, doc_id, start, \"end\", surface, value, family, unit)"
            " VALUES ('c1', 'd1', 15, 29, '826 tokens/s', 826, 'throughput', 'tokens/s')")


def _columns(con) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for table, column, kind in con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns()"
            " WHERE database_name = current_database() AND schema_name = 'main'").fetchall():
        out.setdefault(table, {})[column] = kind
    return out


def _version(db) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT value FROM schema_info WHERE key = 'version'").fetchone()[0]
    finally:
        con.close()


@pytest.fixture
def v1_db(tmp_path):
    """A version-1 warehouse holding one document, its claim, a link, a cluster and an error."""
    db = tmp_path / "v1.duckdb"
    con = duckdb.connect(str(db))
    con.execute(migrate.schema_at(1))
    con.execute(V1_DOCUMENT)
    con.execute(V1_CLAIM)
    con.execute("INSERT INTO links VALUES ('c1', 'c1', 'supports', true, 'same', NULL, NULL)")
    con.execute("INSERT INTO clusters VALUES ('k1', 'c1')")
    con.execute("INSERT INTO ingest_errors VALUES ('bad.pdf', 'not a PDF', TIMESTAMP '2025-01-02')")
    con.close()
    return db


def test_the_steps_are_numbered_from_one_and_the_version_1_schema_lacks_later_tables():
    steps = migrate.migrations()
    assert [s.version for s in steps] == list(range(1, len(steps) + 1))
    assert migrate.latest() == steps[-1].version >= 4
    con = duckdb.connect(":memory:")
    con.execute(migrate.schema_at(1))
    assert "locations" not in _columns(con) and "baseline" not in _columns(con)["claims"]


def test_a_new_warehouse_and_a_migrated_one_have_the_same_tables_and_columns():
    """schema.sql (what a new warehouse is made from) and version 1 plus every step agree:
    a schema change without its migration, or the reverse, fails here."""
    fresh, stepped = duckdb.connect(":memory:"), duckdb.connect(":memory:")
    fresh.execute(schema_sql())
    stepped.execute(migrate.schema_at(1))
    migrate.upgrade(stepped, 1)
    assert _columns(fresh) == _columns(stepped)


def test_a_new_warehouse_records_the_latest_version(tmp_path):
    db = tmp_path / "new.duckdb"
    with Store.open(db) as store:
        assert store.migrated == []
    assert _version(db) == str(migrate.latest())


def test_opening_a_version_1_warehouse_for_writing_migrates_it_and_keeps_every_row(v1_db):
    with Store.open(v1_db) as store:
        assert [s.version for s in store.migrated] == list(range(2, migrate.latest() + 1))
        assert store.query("SELECT id, path, title, role, fingerprint FROM documents")[1] == [
            ("d1", "notes/a.md", "Old post", "primary", "fp-old")]
        assert store.query("SELECT id, surface, value, baseline, offered_load FROM claims")[1] == [
            ("c1", "826 tokens/s", 826.0, None, None)]
        assert store.query("SELECT src, relation FROM links")[1] == [("c1", "supports")]
        assert store.query("SELECT count(*) FROM clusters")[1] == [(1,)]
        assert store.query("SELECT path, reason FROM ingest_errors")[1] == [("bad.pdf", "not a PDF")]
        assert store.query("SELECT count(*) FROM locations")[1] == [(0,)]
        assert store.needs_full_link()          # its claims have no keys yet: a full link
        # the shipped views run on it (they read the columns the steps added)
        assert store.query("SELECT doc_path, doc_title FROM claims_full")[1] == [
            ("notes/a.md", "Old post")]
    assert _version(v1_db) == str(migrate.latest())
    with Store.open(v1_db) as store:             # a second open has nothing left to do
        assert store.migrated == []


def test_the_facts_step_fills_each_claim_as_a_new_ingest_would(v1_db):
    """Version 6 adds the stored facts (link.facts) and computes them for the claims an
    older warehouse holds, by the function the store runs on a new claim."""
    with Store.open(v1_db) as store:
        cols = ", ".join(FACT_COLUMNS)
        got = store.query(f"SELECT {cols} FROM claims WHERE id = 'c1'")[1][0]
        want = facts_row(Claim(id="c1", doc_id="d1", start=15, end=29, surface="826 tokens/s",
                               value=826.0, family="throughput", unit="tokens/s"))
    assert got == want
    assert dict(zip(FACT_COLUMNS, got))["key_unit"] == "tokens s"
    assert dict(zip(FACT_COLUMNS, got))["full_lo"] == 825.5


def test_a_reader_is_told_to_migrate_and_the_cli_does_it(v1_db, run_cli, tmp_path):
    before = v1_db.read_bytes()
    with pytest.raises(StoreError, match=r"older warehouse \(schema version 1; this claims uses "
                                         rf"{migrate.latest()}\): run `claims migrate --db "):
        Store.open(v1_db, read_only=True)
    proc = run_cli("sql", "SELECT id FROM documents", "--db", str(v1_db), cwd=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "claims migrate" in proc.stderr
    assert v1_db.read_bytes() == before           # a reader never writes

    proc = run_cli("migrate", "--db", str(v1_db), cwd=tmp_path, check=True)
    assert proc.stdout.strip() == (f"{v1_db}: schema version 1 -> {migrate.latest()} "
                                   "(link queue, comparison columns, locations"
                                   + "".join(f", {s.name.replace('_', ' ')}"
                                             for s in migrate.migrations()[4:]) + ")")
    proc = run_cli("sql", "SELECT id, title FROM documents", "--db", str(v1_db), "-f", "csv",
                   cwd=tmp_path, check=True)
    assert proc.stdout.splitlines() == ["id,title", "d1,Old post"]
    proc = run_cli("migrate", "--db", str(v1_db), cwd=tmp_path, check=True)
    assert proc.stdout.strip() == f"{v1_db}: already at schema version {migrate.latest()}"


def test_ingest_into_a_version_1_warehouse_keeps_its_document(v1_db, run_cli, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "b.md").write_text("# New\n\nThe engine served 1,200 tokens/s per GPU on 8 x H100.\n")
    run_cli("ingest", str(folder), "--db", str(v1_db), "-q", cwd=tmp_path, check=True)
    with Store.open(v1_db, read_only=True) as store:
        assert sorted(store.query("SELECT path FROM documents")[1]) == [("b.md",), ("notes/a.md",)]
        assert store.query("SELECT count(*) FROM claims WHERE doc_id = 'd1'")[1] == [(1,)]


def test_a_newer_warehouse_is_refused_with_one_line_and_left_alone(tmp_path, run_cli):
    db = tmp_path / "future.duckdb"
    Store.open(db).close()
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.md").write_text("# A\n\nIt served 900 tokens/s per GPU.\n")
    con = duckdb.connect(str(db))
    con.execute("UPDATE schema_info SET value = ? WHERE key = 'version'", [str(migrate.latest() + 1)])
    con.close()
    before = db.read_bytes()
    for read_only in (True, False):
        with pytest.raises(StoreError, match=rf"newer claims \(warehouse schema version "
                                             rf"{migrate.latest() + 1}; claims .* knows versions "
                                             rf"up to {migrate.latest()}\): upgrade claims"):
            Store.open(db, read_only=read_only)
    for args in (("sql", "SELECT 1"), ("ingest", str(tmp_path / "in")), ("migrate",)):
        proc = run_cli(*args, "--db", str(db), cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.strip().splitlines() == [
            f"error: cannot use {db}: it was written by a newer claims (warehouse schema version "
            f"{migrate.latest() + 1}; claims {_installed()} knows versions up to "
            f"{migrate.latest()}): upgrade claims to use it"], args
    assert db.read_bytes() == before


def _installed() -> str:
    from pipeline import __version__
    return __version__


def test_a_step_that_fails_leaves_the_file_at_the_version_before_it(v1_db, monkeypatch):
    steps = migrate.migrations()
    broken = migrate.Migration(steps[1].version, "broken",
                               "CREATE TABLE half_done (x INTEGER); SELECT error('step failed');")
    monkeypatch.setattr(migrate, "migrations", lambda: (steps[0], broken) + steps[2:])
    with pytest.raises(duckdb.Error, match="step failed"):
        Store.open(v1_db)
    con = duckdb.connect(str(v1_db), read_only=True)
    try:
        assert con.execute("SELECT value FROM schema_info WHERE key = 'version'").fetchone() == ("1",)
        assert "half_done" not in _columns(con)
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (1,)
    finally:
        con.close()


def test_a_version_that_is_no_number_is_refused(tmp_path):
    db = tmp_path / "odd.duckdb"
    Store.open(db).close()
    con = duckdb.connect(str(db))
    con.execute("UPDATE schema_info SET value = 'two' WHERE key = 'version'")
    con.close()
    with pytest.raises(StoreError, match="schema version 'two' is not a number"):
        Store.open(db, read_only=True)
