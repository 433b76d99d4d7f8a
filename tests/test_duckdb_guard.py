"""Correct answers from DuckDB, and nothing but the warehouse (issue 15, part 2).

Every connection the tool opens turns the ``common_subplan`` optimizer off (duckdb#25819),
is sandboxed (no files, network or extensions from SQL, configuration locked) and refuses
a database that is not a claims warehouse; `claims sql` has a time limit and stops on
Ctrl-C. Real DuckDB files; the CLI runs in a subprocess.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time

import duckdb
import pytest

from conftest import as_from_a_terminal, claims_command
from pipeline.store import Store, StoreError

UNION = "SELECT src_doc FROM conflicts UNION ALL SELECT dst_doc FROM conflicts"
HEAVY = "SELECT sum(a.range * b.range) FROM range(1000000) a, range(1000000) b"


def _conflicted_warehouse(path) -> list[str]:
    """A warehouse with 8 conflicts between claims of 5 documents; returns the right
    answer of UNION (src docs then dst docs, sorted)."""
    with Store.open(path) as s:
        s.con.execute(
            "INSERT INTO documents (id, path, format, n_chars, text, fingerprint, ingested_at)"
            " SELECT 'd' || i, 'p' || i || '.md', 'markdown', 1, 'x', 'fp', now()::TIMESTAMP"
            " FROM range(5) r(i)")
        s.con.execute(
            "INSERT INTO claims (id, doc_id, start, \"end\", surface, family)"
            " SELECT 'c' || i, 'd' || (i % 5), 0, 1, 'x', 'latency' FROM range(9) r(i)")
        s.con.execute("INSERT INTO links (src, dst, relation) SELECT 'c' || i, 'c' || (i + 1),"
                      " 'conflicts' FROM range(8) r(i)")
    src = [f"d{i % 5}" for i in range(8)]
    dst = [f"d{(i + 1) % 5}" for i in range(8)]
    return sorted(src + dst)


def test_union_all_of_a_view_gives_the_right_rows(tmp_path, run_cli):
    db = tmp_path / "u.duckdb"
    right = _conflicted_warehouse(db)
    bare = duckdb.connect(str(db), read_only=True)
    try:
        got = sorted(r[0] for r in bare.execute(UNION).fetchall())
    finally:
        bare.close()
    if got != right:
        # the installed DuckDB has the bug: the src ids twice, never a dst
        src = sorted(f"d{i % 5}" for i in range(8))
        assert got == sorted(src + src)
    with Store.open(db, read_only=True) as s:
        assert sorted(r[0] for r in s.query(UNION)[1]) == right
    out = run_cli("sql", UNION, "--db", str(db), "--format", "json", cwd=tmp_path, check=True)
    assert sorted(r["src_doc"] for r in json.loads(out.stdout)) == right


def _settings(con) -> dict[str, str]:
    names = ["disabled_optimizers", "enable_external_access", "autoinstall_known_extensions",
             "autoload_known_extensions", "lock_configuration"]
    row = con.execute("SELECT " + ", ".join(f"current_setting('{n}')::VARCHAR" for n in names)).fetchone()
    return dict(zip(names, row))


def test_every_connection_is_guarded_and_locked(tmp_path):
    db = tmp_path / "g.duckdb"
    want = {"disabled_optimizers": "common_subplan", "enable_external_access": "false",
            "autoinstall_known_extensions": "false", "autoload_known_extensions": "false",
            "lock_configuration": "true"}
    with Store.open(db) as writer:
        for con in (writer.con, writer.cursor().con):
            assert _settings(con) == want
        with pytest.raises(duckdb.Error, match="locked"):
            writer.con.execute("SET disabled_optimizers = ''")
        (tmp_path / "secret.txt").write_text("do not leak")
        with pytest.raises(duckdb.Error, match="disabled"):
            writer.con.execute(f"SELECT * FROM read_text('{tmp_path / 'secret.txt'}')")
    with Store.open(db, read_only=True) as reader:
        assert _settings(reader.con) == want


def test_a_warehouse_connection_caps_duckdbs_memory(tmp_path):
    """DuckDB's own default (80% of RAM) would keep every block a long link reads: the
    partitioned link's peak would grow with the warehouse (docs/scale.md)."""
    from pipeline.dbguard import MEMORY_LIMIT

    setting = "SELECT current_setting('memory_limit')"
    capped = duckdb.connect(config={"memory_limit": MEMORY_LIMIT}).execute(setting).fetchone()[0]
    assert capped != duckdb.connect().execute(setting).fetchone()[0]
    db = tmp_path / "m.duckdb"
    with Store.open(db) as writer:
        assert writer.con.execute(setting).fetchone()[0] == capped
        assert writer.cursor().con.execute(setting).fetchone()[0] == capped
    with Store.open(db, read_only=True) as reader:
        assert reader.con.execute(setting).fetchone()[0] == capped


def test_the_scratch_connection_reads_files_and_is_guarded_otherwise(tmp_path):
    """The one connection that must read files (a Ray run's Parquet shards) still carries
    the optimizer guard, no extension autoinstall or autoload, and a locked configuration."""
    from pipeline import dbguard

    shard = tmp_path / "s.parquet"
    seed = duckdb.connect()
    seed.execute(f"COPY (SELECT 1 AS file, 0 AS seq, 'x' AS data) TO '{shard}' (FORMAT parquet)")
    seed.close()
    con = dbguard.scratch()
    try:
        settings = _settings(con)
        assert settings["disabled_optimizers"] == "common_subplan"
        assert settings["autoinstall_known_extensions"] == "false"
        assert settings["autoload_known_extensions"] == "false"
        assert settings["lock_configuration"] == "true"
        assert con.execute("SELECT data FROM read_parquet(?)", [str(shard)]).fetchall() == [("x",)]
    finally:
        con.close()


def test_the_installed_duckdb_is_in_the_pinned_range():
    """The range in pyproject.toml is the tested one, and the guard is needed in it: the
    release the tests ran on is inside it (a wider install would go untested)."""
    from importlib.metadata import requires

    from packaging.requirements import Requirement

    pins = [Requirement(r) for r in requires("claims") or [] if r.startswith("duckdb")]
    assert len(pins) == 1 and pins[0].specifier, pins
    assert pins[0].specifier.contains(duckdb.__version__), (duckdb.__version__, pins[0])


def test_a_sqlite_file_is_refused_without_fetching_an_extension(tmp_path, run_cli):
    db = tmp_path / "x.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (a)")
    con.commit()
    con.close()
    (tmp_path / "a.md").write_text("# A\n\nIt answers in 5 ms.\n")
    home = tmp_path / "home"
    home.mkdir()
    before = db.read_bytes()
    for args in (["ingest", "a.md"], ["sql", "SELECT 1"], ["report", "-o", "out"]):
        proc = run_cli(*args, "--db", str(db), cwd=tmp_path, env={"HOME": str(home)})
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip().splitlines() == [
            f"error: cannot open {db}: it is not a DuckDB database (reading it would take a "
            "DuckDB extension, and the tool never installs or loads one)"]
    assert not (home / ".duckdb").exists()       # no extension was downloaded
    assert db.read_bytes() == before


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("TOP-SECRET-TOKEN")
    return path


def test_a_warehouse_whose_tables_are_views_is_refused(tmp_path, run_cli, secret):
    db = tmp_path / "crafted.duckdb"
    con = duckdb.connect(str(db))
    con.execute(f"CREATE VIEW documents AS SELECT content AS text FROM read_text('{secret}')")
    con.execute("CREATE TABLE other (a INTEGER)")
    con.close()
    # a reader (sql), the report's and the checker's own opens, a writer (ingest)
    for args in (["sql", "SELECT * FROM documents"], ["report", "-o", "out"],
                 ["check", "X reached 5 ms"], ["ingest", str(tmp_path / "secret.txt")]):
        proc = run_cli(*args, "--db", str(db), cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "not a claims warehouse: `documents` is a view" in lines[0], lines
        assert "TOP-SECRET" not in proc.stdout + proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_view_that_reads_files_is_replaced_by_the_shipped_one(tmp_path, run_cli, secret):
    db = tmp_path / "w.duckdb"
    right = _conflicted_warehouse(db)
    con = duckdb.connect(str(db))
    con.execute("CREATE OR REPLACE VIEW conflicts AS SELECT content AS src_doc, content AS dst_doc"
                f" FROM read_text('{secret}')")
    con.close()
    with Store.open(db, read_only=True) as s:
        assert s.shadowed == ["conflicts"]
        assert sorted(r[0] for r in s.query(UNION)[1]) == right
        assert sorted(r[0] for r in s.cursor().query(UNION)[1]) == right
    proc = run_cli("sql", "SELECT src_doc FROM conflicts", "--db", str(db), "--format", "csv",
                   cwd=tmp_path, check=True)
    assert "TOP-SECRET" not in proc.stdout


def test_an_empty_or_foreign_duckdb_file_is_refused_for_reading(tmp_path):
    db = tmp_path / "empty.duckdb"
    duckdb.connect(str(db)).close()
    with pytest.raises(StoreError, match="empty database, not a claims warehouse"):
        Store.open(db, read_only=True)
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE claims (id VARCHAR)")
    con.close()
    with pytest.raises(StoreError, match="not a claims warehouse"):
        Store.open(db)


@pytest.fixture(scope="module")
def small_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("sql") / "s.duckdb"
    Store.open(db).close()
    return db


def test_sql_time_limit_stops_a_long_query(small_db, run_cli, tmp_path):
    started = time.monotonic()
    proc = run_cli("sql", HEAVY, "--db", str(small_db), "--timeout", "1", cwd=tmp_path)
    assert time.monotonic() - started < 20
    assert proc.returncode == 124, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: the query ran past the 1 s limit and was stopped (raise it with --timeout; "
        "0: no limit)"]


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:         # no /proc (not Linux): fall back to waiting
        time.sleep(2.0)
        return 99


def test_ctrl_c_stops_a_running_query(small_db, tmp_path):
    proc = subprocess.Popen([*claims_command(), "sql", HEAVY, "--db", str(small_db)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=as_from_a_terminal)
    try:
        # the query runs once DuckDB's worker threads are up (a signal sent while the
        # interpreter still imports would test Python's start-up, not the query); on a loaded
        # machine that takes longer than any fixed sleep
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and _threads(proc.pid) < 3:
            time.sleep(0.1)
        time.sleep(0.5)
        assert proc.poll() is None
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - sent < 10
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["error: interrupted"]
