"""`claims sql` reads the warehouse and nothing else: no writes, no files, no extensions,
no settings. Each refusal is one line on stderr and a non-zero exit, and leaves the
database and the file system as they were."""
from __future__ import annotations

import duckdb
import pytest

from pipeline.store import SANDBOX_CONFIG, Store, StoreError, check_read_only


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("guard")
    (folder / "post.md").write_text("# Notes\n\nThe build reached 1,234 tokens/s on 8x H100.\n")
    (folder / "secret.csv").write_text("a,b\n1,2\n")
    path = folder / "w.duckdb"
    from pipeline.run import ingest_paths

    with Store.open(path) as store:
        ingest_paths([folder / "post.md"], store, workers=0)
    return path


def _counts(path) -> tuple:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return tuple(con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                     for t in ("documents", "claims", "links", "ingest_errors"))
    finally:
        con.close()


def _refused(run_cli, db, sql: str, *words: str) -> str:
    proc = run_cli("sql", sql, "--db", str(db), cwd=db.parent)
    assert proc.returncode != 0, proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


# statement types: refused before the database is opened
@pytest.mark.parametrize("sql,kind", [
    ("DELETE FROM claims", "DELETE"), ("UPDATE claims SET value = 0", "UPDATE"),
    ("INSERT INTO links VALUES ('a', 'b', 'supports', true, '', NULL, NULL)", "INSERT"),
    ("DROP TABLE claims", "DROP"), ("CREATE TABLE t AS SELECT 1", "CREATE"),
    ("ALTER TABLE claims ADD COLUMN x INT", "ALTER"), ("ATTACH 'other.duckdb' AS o", "ATTACH"),
    ("DETACH w", "DETACH"), ("COPY claims TO 'out.csv'", "COPY"),
    ("EXPORT DATABASE 'dump'", "EXPORT"), ("INSTALL httpfs", "LOAD"), ("LOAD httpfs", "LOAD"),
    ("PRAGMA enable_profiling", "PRAGMA"), ("PRAGMA version", "PRAGMA"),
    ("SET enable_external_access = true", "SET"), ("RESET threads", "SET"),
    ("CHECKPOINT", "CALL"), ("CALL pragma_version()", "CALL"), ("BEGIN TRANSACTION", "TRANSACTION"),
    ("VACUUM", "VACUUM"), ("USE memory", "SET"), ("SELECT 1; DELETE FROM claims", "one statement"),
])
def test_non_reads_are_refused(db, run_cli, sql, kind):
    before = _counts(db)
    _refused(run_cli, db, sql, "refused" if kind != "one statement" else "", kind)
    assert _counts(db) == before
    assert not (db.parent / "out.csv").exists() and not (db.parent / "dump").exists()
    assert not (db.parent / "other.duckdb").exists()


# inside a SELECT: DuckDB's own sandbox refuses every file, extension and setting
@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('secret.csv')", "SELECT * FROM read_csv_auto('secret.csv')",
    "SELECT * FROM read_text('secret.csv')", "SELECT * FROM read_blob('secret.csv')",
    "SELECT * FROM read_json_auto('secret.csv')", "SELECT * FROM read_parquet('x.parquet')",
    "SELECT * FROM parquet_metadata('x.parquet')", "SELECT * FROM glob('*')",
    "SELECT * FROM 'secret.csv'", "SELECT * FROM sniff_csv('secret.csv')",
    "SELECT * FROM query('SELECT * FROM read_text(''secret.csv'')')",
    "SELECT * FROM read_csv('https://example.com/x.csv')",
])
def test_file_access_from_a_select_is_refused(db, run_cli, sql):
    line = _refused(run_cli, db, sql)
    assert "refused" in line or "does not exist" in line
    assert "a,b" not in line


def test_query_function_cannot_smuggle_a_write(db, run_cli):
    before = _counts(db)
    for sql in ("SELECT * FROM query('DELETE FROM claims')",
                "SELECT * FROM query('ATTACH ''x.duckdb''')"):
        _refused(run_cli, db, sql)
    assert _counts(db) == before and not (db.parent / "x.duckdb").exists()


def test_reads_still_work(db, run_cli):
    for sql in ("SELECT count(*) AS n FROM claims", "DESCRIBE claims", "SHOW TABLES",
                "SUMMARIZE documents", "EXPLAIN SELECT * FROM conflicts",
                "SELECT * FROM duckdb_tables()", "FROM unsourced_claims"):
        proc = run_cli("sql", sql, "--db", str(db), cwd=db.parent)
        assert proc.returncode == 0, (sql, proc.stderr)


def test_debug_shows_the_traceback_of_a_refusal(db, run_cli):
    proc = run_cli("sql", "SELECT * FROM read_text('secret.csv')", "--db", str(db), "--debug",
                   cwd=db.parent)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


def test_the_sandbox_is_locked(db):
    with Store.open(db, read_only=True, sandbox=True) as store:
        with pytest.raises(duckdb.Error):
            store.con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):
            store.con.execute("SELECT * FROM read_text('secret.csv')")
    assert SANDBOX_CONFIG["enable_external_access"] is False


@pytest.mark.parametrize("sql", ["PRAGMA version", "CHECKPOINT", "INSTALL httpfs"])
def test_check_read_only_names_the_statement(sql):
    with pytest.raises(StoreError, match="refused"):
        check_read_only(sql)
