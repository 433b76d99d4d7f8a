"""Errors a user can cause in `ingest`, `link`, `sql` and `export`: one line on stderr
saying what and what to do, a non-zero exit, and the traceback only with --debug."""
from __future__ import annotations

import pytest

from pipeline.run import ingest_paths
from pipeline.store import Store


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("errs")
    (folder / "post.md").write_text("# Notes\n\nThe build reached 1,234 tokens/s on 8x H100.\n")
    with Store.open(folder / "w.duckdb") as store:
        ingest_paths([folder / "post.md"], store, workers=0)
    (folder / "not-a-db.duckdb").write_text("hello\n")
    (folder / "truncated.duckdb").write_bytes((folder / "w.duckdb").read_bytes()[:5000])
    return folder / "w.duckdb"


CASES = [
    (["export", "claims", "-o", "no/such/folder/x.jsonl"], "no folder"),
    (["export", "claims", "-f", "parquet", "-o", "no/such/x.parquet"], "no folder"),
    (["export", "claims", "-o", "."], "is a folder"),
    (["export", "claims", "-f", "parquet"], "give a file with -o"),
    (["sql", "SELECT * FROM nowhere"], "nowhere"),
    (["sql", "SELECT 1", "--db", "not-a-db.duckdb"], "not a valid DuckDB database"),
    (["sql", "SELECT 1", "--db", "truncated.duckdb"], "cannot open"),
    (["ingest", "post.md", "--db", "not-a-db.duckdb"], "not a valid DuckDB database"),
    (["link", "--db", "missing.duckdb"], "no database at"),
    (["sql", "SELECT 1", "--db", "missing.duckdb"], "run `claims ingest` first"),
    (["export", "claims", "--db", "missing.duckdb"], "no database at"),
    (["ingest", "no/such/path", "--db", "x.duckdb"], "no such file or folder"),
]


@pytest.mark.parametrize("args,words", CASES)
def test_user_errors_are_one_line(db, run_cli, args, words):
    if "--db" not in args:
        args = [*args, "--db", db.name]
    proc = run_cli(*args, cwd=db.parent)
    assert proc.returncode not in (0, None)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("args", [["sql", "SELECT * FROM nowhere"],
                                  ["export", "claims", "-o", "no/such/folder/x.jsonl"],
                                  ["sql", "SELECT 1", "--db", "not-a-db.duckdb"]])
def test_debug_shows_the_traceback(db, run_cli, args):
    if "--db" not in args:
        args = [*args, "--db", db.name]
    proc = run_cli(*args, "--debug", cwd=db.parent)
    assert proc.returncode not in (0, None) and "Traceback" in proc.stderr
    proc = run_cli(*args, cwd=db.parent, env={"CLAIMS_DEBUG": "1"})
    assert "Traceback" in proc.stderr
