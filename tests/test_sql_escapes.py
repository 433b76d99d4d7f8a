"""A barrage of escape attempts through `claims sql`'s two walls (issue 15: 'keep what already
holds: the SQL guard refused every escape attempt'): each statement goes through the
statement check, and what passes it runs on a read-only warehouse connection as the CLI
opens it. Nothing may read the secret file or /etc, write a file, change the warehouse or
change a setting. In process, one connection: 171 statements in about a second."""
from __future__ import annotations

import hashlib

import pytest

from pipeline.store import Store, check_read_only

READERS = ["read_text", "read_blob", "read_csv", "read_csv_auto", "read_json", "read_json_auto",
           "read_json_objects", "read_ndjson", "read_ndjson_objects", "read_parquet",
           "parquet_metadata", "parquet_schema", "sniff_csv", "glob"]


def attempts(secret: str, out: str) -> list[str]:
    """Statements a hostile user would try: files, URLs, extensions, settings, writes,
    transactions, smuggling through query() / EXPLAIN ANALYZE / CTEs / comments."""
    a = [f"SELECT * FROM {f}('{secret}')" for f in READERS]
    a += [f"SELECT * FROM query('SELECT * FROM {f}(''{secret}'')')" for f in READERS[:4]]
    a += [f"FROM '{secret}'", f"SELECT * FROM '{secret}'", f"SELECT * FROM query_table('{secret}')",
          "SELECT * FROM 'https://example.com/x.csv'", "SELECT * FROM read_csv('http://127.0.0.1:9/')",
          "INSTALL httpfs", "LOAD httpfs", "FORCE INSTALL sqlite", "INSTALL sqlite FROM community",
          "SELECT * FROM sqlite_scan('/tmp/x.db', 't')", f"ATTACH '{out}.db' AS o",
          "ATTACH ':memory:' AS m", "DETACH w", f"COPY claims TO '{out}.csv'",
          f"COPY (SELECT 1) TO '{out}.csv'", f"EXPORT DATABASE '{out}'", f"IMPORT DATABASE '{out}'",
          "CHECKPOINT", "FORCE CHECKPOINT", "VACUUM", "VACUUM ANALYZE", "ANALYZE",
          "SET enable_external_access = true", "RESET enable_external_access",
          "SET lock_configuration = false", "SET GLOBAL enable_external_access = true",
          "SET disabled_optimizers = ''", "SET memory_limit = '1TB'", "SET threads = 64",
          "SET temp_directory = '/tmp/x'", "SET home_directory = '/'",
          "SET allowed_directories = ['/']", "SET autoinstall_known_extensions = true",
          "SET custom_extension_repository = 'http://x'", "PRAGMA enable_profiling",
          f"PRAGMA profiling_output = '{out}.json'", "PRAGMA memory_limit = '1TB'",
          "PRAGMA database_list", "PRAGMA version", "CALL pragma_version()", "CALL checkpoint()",
          "CALL duckdb_secrets()", "CALL enable_logging()", "CALL force_checkpoint()",
          "CREATE SECRET (TYPE s3, KEY_ID 'x', SECRET 'y')", "CREATE PERSISTENT SECRET s (TYPE s3)",
          "DROP SECRET s", "BEGIN", "BEGIN TRANSACTION", "COMMIT", "ROLLBACK", "ABORT",
          "START TRANSACTION", "INSERT INTO documents SELECT * FROM documents LIMIT 0",
          "UPDATE claims SET value = 0", "DELETE FROM claims", "TRUNCATE claims", "DROP TABLE claims",
          "DROP VIEW claims_full", "ALTER TABLE claims ADD COLUMN x INT",
          "ALTER VIEW conflicts RENAME TO c2", "CREATE TABLE t AS SELECT 1",
          "CREATE TEMP TABLE t AS SELECT 1", "CREATE OR REPLACE TEMP VIEW claims AS SELECT 1",
          "CREATE MACRO m(a) AS a", "CREATE TEMP MACRO m(a) AS a", "CREATE SEQUENCE s",
          "CREATE TYPE mood AS ENUM ('a')", "CREATE INDEX i ON claims(id)", "CREATE SCHEMA x",
          "USE memory", "USE w", "COMMENT ON TABLE claims IS 'x'", "PREPARE p AS SELECT 1",
          "EXECUTE p", "DEALLOCATE p", "LOAD 'x.duckdb_extension'", "UPDATE EXTENSIONS",
          "EXPLAIN ANALYZE CREATE TEMP TABLE t AS SELECT 1", "EXPLAIN ANALYZE DELETE FROM claims",
          f"EXPLAIN ANALYZE COPY claims TO '{out}2.csv'", f"EXPLAIN COPY claims TO '{out}3.csv'",
          "EXPLAIN ANALYZE INSERT INTO claims SELECT * FROM claims",
          "SELECT 1; DROP TABLE claims", "SELECT 1;DELETE FROM claims", "/* x */ DELETE FROM claims",
          "-- c\nDELETE FROM claims", "WITH x AS (DELETE FROM claims RETURNING *) SELECT * FROM x",
          "WITH x AS (SELECT 1) INSERT INTO claims SELECT * FROM claims",
          "SELECT * FROM (DELETE FROM claims RETURNING id)",
          "PIVOT claims ON family USING count(*); DELETE FROM claims",
          "SELECT * FROM query('DELETE FROM claims')",
          "SELECT * FROM query('CREATE TABLE z AS SELECT 1')",
          "SELECT * FROM query('ATTACH '':memory:'' AS q')",
          "SELECT * FROM query('SET enable_external_access = true')",
          f"SELECT * FROM query('COPY claims TO ''{out}4.csv''')",
          "SELECT getenv('HOME')", "SELECT * FROM duckdb_secrets()",
          f"SELECT read_text_auto('{secret}')", f"SELECT * FROM read_text(['{secret}'])",
          f"SELECT * FROM read_text('{secret[:-4]}*')", "SELECT * FROM read_text('/proc/self/environ')",
          "SELECT * FROM read_blob('/etc/shadow')", "SELECT * FROM glob('/*')", "SELECT * FROM glob('*')",
          "SELECT * FROM iceberg_scan('x')", "SELECT * FROM delta_scan('x')",
          "SELECT * FROM postgres_scan('x', 'y', 'z')", "SELECT * FROM mysql_scan('x')",
          "SELECT * FROM read_xlsx('x')", "SELECT * FROM st_read('x')",
          "SELECT * FROM json_execute_serialized_sql('x')", "SELECT * FROM read_csv('/dev/stdin')",
          "SELECT * FROM read_text('/dev/zero')", "SELECT * FROM read_csv('s3://bucket/x.csv')",
          "SELECT * FROM read_parquet('hf://datasets/x/y.parquet')",
          "SELECT * FROM read_json('az://x/y.json')", "SELECT * FROM read_csv('gs://x/y.csv')",
          "SUMMARIZE SELECT * FROM read_text('/etc/passwd')",
          "DESCRIBE SELECT * FROM read_text('/etc/passwd')",
          "PIVOT (SELECT * FROM read_text('/etc/passwd')) ON filename USING count(*)",
          "FROM read_text('/etc/passwd') SELECT *", "SET VARIABLE x = 1", "RESET ALL",
          "SET search_path = 'memory'", "CREATE FUNCTION f() AS 1",
          "INSTALL 'https://x/y.duckdb_extension'", "SELECT load_extension('x')",
          "CALL load_extension('x')", "SELECT * FROM read_text('file:///etc/passwd')",
          "SELECT * FROM read_text('../../etc/passwd')", "SELECT * FROM read_text('~/.bashrc')",
          "SELECT 1 UNION ALL SELECT * FROM read_text('/etc/passwd')",
          "SELECT (SELECT content FROM read_text('/etc/passwd'))",
          "SELECT * FROM claims WHERE id IN (SELECT content FROM read_text('/etc/passwd'))",
          "SELECT * FROM claims, LATERAL (SELECT * FROM read_text(claims.id))",
          "UNPIVOT (SELECT * FROM read_text('/etc/passwd')) ON content",
          "SELECT * FROM range(3) t(x) WHERE x IN (SELECT 1 FROM glob('/*'))"]
    return a


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory):
    folder = tmp_path_factory.mktemp("escapes")
    with Store.open(folder / "w.duckdb"):
        pass                              # the tool's schema and views, empty
    (folder / "secret.txt").write_text("TOPSECRET-42\n")
    return folder


def test_no_escape_reads_a_file_writes_or_changes_a_setting(warehouse):
    db, secret, out = warehouse / "w.duckdb", warehouse / "secret.txt", warehouse / "out"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    tried = attempts(str(secret), str(out))
    assert len(tried) > 150
    refused_by_check, refused_by_duckdb, ran = [], [], []
    with Store.open(db, read_only=True) as store:
        settings = "SELECT current_setting('enable_external_access'), " \
                   "current_setting('lock_configuration'), current_setting('disabled_optimizers')"
        guard = store.con.execute(settings).fetchone()
        assert guard == (False, True, "common_subplan")
        for sql in tried:
            try:
                check_read_only(sql)
            except Exception:
                refused_by_check.append(sql)
                continue
            try:
                rows = store.con.execute(sql).fetchall()
            except Exception:
                refused_by_duckdb.append(sql)
                continue
            ran.append(sql)
            assert "TOPSECRET" not in repr(rows) and "root:" not in repr(rows), sql
            assert store.con.execute(settings).fetchone() == guard, sql
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in warehouse.iterdir()) == ["secret.txt", "w.duckdb"]
    # every statement that is not a plain read stops at the first wall
    assert not [s for s in ran if s.split()[0].upper() not in ("SELECT", "FROM")], ran
    assert len(refused_by_check) > 80 and len(refused_by_duckdb) > 50
