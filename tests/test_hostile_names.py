"""Hostile file names: a name that is not valid UTF-8 among good files (issue 15, part 5)."""
from __future__ import annotations

import os

import duckdb

from test_cli_ingest import summary


def _bytes_file(folder, name: bytes, text: str) -> None:
    with open(os.path.join(os.fsencode(folder), name), "wb") as fh:
        fh.write(text.encode())


def test_one_bad_file_name_is_one_error_and_the_rest_are_stored(tmp_path, run_cli):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(300):
        (corpus / f"good{i:03d}.md").write_text(f"vLLM reaches {1000 + i} tokens/s on one H100.\n")
    _bytes_file(corpus, b"bad\xff\xfe.md", "SGLang reaches 900 tokens/s on one H100.\n")
    os.mkdir(os.path.join(os.fsencode(corpus), b"dir\xe9"))
    _bytes_file(os.path.join(os.fsencode(corpus), b"dir\xe9"), b"inner.md", "TGI reaches 5 ms.\n")
    proc = run_cli("ingest", "corpus", "--db", "w.duckdb", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "surrogates" not in proc.stderr
    assert summary(proc.stdout) == (302, 300, 0, 0, 2, 0)
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (300,)
        errors = dict(con.execute("SELECT path, reason FROM ingest_errors").fetchall())
    finally:
        con.close()
    assert set(errors) == {r"bad\xff\xfe.md", r"dir\xe9/inner.md"}
    assert all("not valid UTF-8" in r for r in errors.values())
    lines = proc.stderr.splitlines()
    assert r"error: bad\xff\xfe.md: file name is not valid UTF-8" in lines[0] or any(
        line.startswith(r"error: bad\xff\xfe.md: file name is not valid UTF-8") for line in lines)


def test_a_database_name_that_is_not_utf8_is_one_line(tmp_path, run_cli):
    """DuckDB takes UTF-8 names only: `--db 'b\\xffd.duckdb'` was `unexpected RuntimeError:
    std::bad_cast`, exit 1; now one line naming it, exit 2, for writers and readers."""
    (tmp_path / "a.md").write_text("vLLM reaches 1,000 tokens/s on one H100.\n")
    bad = os.fsdecode(b"b\xffd.duckdb")
    for args in (["ingest", "a.md", "-q"], ["sql", "SELECT 1"]):
        proc = run_cli(*args, "--db", bad, cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.strip().splitlines() == [
            r"error: cannot use b\xffd.duckdb: the database's name is not valid UTF-8 (its bytes"
            r" are shown as \xNN): rename it or give another --db"]
