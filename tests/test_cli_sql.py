"""`claims sql`: read-only queries printed as a table, CSV or JSON; writes refused."""
from __future__ import annotations

import csv
import io
import json
import shutil

import pytest


@pytest.fixture(scope="module")
def db(tmp_path_factory, fixtures, run_cli):
    root = tmp_path_factory.mktemp("sql")
    for name in ("post.md", "blog.html", "latin1.txt"):
        shutil.copy(fixtures / name, root / name)
    run_cli("ingest", str(root), "--db", str(root / "s.duckdb"), cwd=root, check=True)
    return root / "s.duckdb"


def test_table_output_is_aligned(db, run_cli):
    proc = run_cli("sql", "SELECT path, n_chars FROM documents ORDER BY path", "--db", str(db),
                   cwd=db.parent, check=True)
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["path", "n_chars"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    body = lines[2:5]
    assert [ln.split()[0] for ln in body] == ["blog.html", "latin1.txt", "post.md"]
    # numbers are right-aligned: they all end in the same column
    ends = {len(ln.rstrip()) for ln in body}
    assert len(ends) == 1
    assert lines[-1] == "(3 rows)"


def test_csv_and_json_formats(db, run_cli):
    sql = "SELECT path, role, published FROM documents WHERE path = 'post.md'"
    out = run_cli("sql", sql, "--db", str(db), "--format", "csv", cwd=db.parent, check=True).stdout
    assert list(csv.reader(io.StringIO(out))) == [["path", "role", "published"],
                                                  ["post.md", "primary", "2024-06-18"]]
    out = run_cli("sql", sql, "--db", str(db), "--format", "json", cwd=db.parent, check=True).stdout
    assert json.loads(out) == [{"path": "post.md", "role": "primary", "published": "2024-06-18"}]


@pytest.mark.parametrize("statement", [
    "DELETE FROM documents",
    "UPDATE documents SET title = 'x'",
    "DROP TABLE claims",
    "SELECT 1; DELETE FROM documents",
])
def test_writes_are_refused(db, run_cli, statement):
    proc = run_cli("sql", statement, "--db", str(db), cwd=db.parent)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    count = run_cli("sql", "SELECT count(*) AS n FROM documents", "--db", str(db),
                    "--format", "json", cwd=db.parent, check=True)
    assert json.loads(count.stdout) == [{"n": 3}]


def test_bad_query_and_missing_database(db, run_cli, tmp_path):
    proc = run_cli("sql", "SELECT nope FROM documents", "--db", str(db), cwd=tmp_path)
    assert proc.returncode != 0 and proc.stderr.startswith("error: ")
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run_cli("sql", "SELECT 1", cwd=tmp_path)
    assert proc.returncode != 0 and "no database" in proc.stderr
    assert not (tmp_path / "warehouse").exists()


def test_debug_shows_the_traceback(db, run_cli, tmp_path):
    proc = run_cli("sql", "DELETE FROM documents", "--db", str(db), "--debug", cwd=tmp_path)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


def test_usage_errors_are_short(run_cli, tmp_path):
    proc = run_cli("export", "bogus", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "bogus" in proc.stderr and "unexpected" not in proc.stderr
