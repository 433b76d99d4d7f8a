"""A database in use by a running `claims ingest`: a second writer fails at once, readers
say the database is busy; one line each, no traceback, and the ingest is unharmed.

DuckDB lets one process open a database file for writing and no other process open it
at all meanwhile, so "a consistent snapshot" is not on offer during an ingest: every
other command says, in one line, that the database is busy and which process holds it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import duckdb
import pytest

from conftest import claims_command

# A real `claims ingest` whose parser takes a while per file, so it holds the database.
SLOW_INGEST = r"""
import sys, time
import pipeline.ingest as ingest
parse = ingest.PARSERS["markdown"]
def slow(data):
    print("parsing", flush=True)
    time.sleep(0.5)
    return parse(data)
ingest.PARSERS["markdown"] = slow
from pipeline.cli import main
main(sys.argv[1:])
"""


def _write_corpus(folder, n: int) -> None:
    folder.mkdir()
    for i in range(n):
        (folder / f"post{i:02d}.md").write_text(
            f"# Post {i}\n\nvLLM reached {1000 + 7 * i} tokens/s on 8x H100 with Llama 3 70B.\n")


@pytest.fixture
def busy_db(tmp_path):
    """A database being written by a slow `claims ingest` (40 files, ~0.5 s each)."""
    _write_corpus(tmp_path / "corpus", 40)
    db = tmp_path / "busy.duckdb"
    proc = subprocess.Popen([sys.executable, "-c", SLOW_INGEST, "ingest", str(tmp_path / "corpus"),
                             "--db", str(db), "--workers", "1", "-q"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "parsing", proc.stderr.read()
        yield db, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def _run(*args: str, cwd) -> tuple[subprocess.CompletedProcess, float]:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
    started = time.monotonic()
    proc = subprocess.run([*claims_command(), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)
    return proc, time.monotonic() - started


def _one_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode not in (0, None), proc.stdout
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


def test_second_writer_and_readers_are_told_the_database_is_busy(busy_db, tmp_path):
    db, ingest = busy_db
    corpus = str(tmp_path / "corpus")
    # writers: a second ingest, a relink
    for args in (("ingest", corpus, "--db", str(db)), ("link", "--db", str(db))):
        proc, seconds = _run(*args, cwd=tmp_path)
        line = _one_line(proc)
        assert "in use by another process" in line and f"PID {ingest.pid}" in line, line
        assert "wait for that one to finish" in line
        assert seconds < 20          # at once: no waiting for the lock
    # readers
    for args in (("sql", "SELECT count(*) FROM documents"), ("export", "claims"),
                 ("report", "-o", str(tmp_path / "out")), ("check", "vLLM reached 1,000 tokens/s"),
                 ("trace", "abc")):
        proc, seconds = _run(*args, "--db", str(db), cwd=tmp_path)
        line = _one_line(proc)
        assert "is busy" in line and f"PID {ingest.pid}" in line, (args, line)
        assert "run this again when that one has finished" in line
        assert seconds < 20
    assert ingest.poll() is None, "the running ingest was disturbed"


def test_the_ingest_finishes_and_then_readers_work(tmp_path):
    _write_corpus(tmp_path / "corpus", 6)
    db = tmp_path / "done.duckdb"
    first = subprocess.Popen([sys.executable, "-c", SLOW_INGEST, "ingest", str(tmp_path / "corpus"),
                              "--db", str(db), "--workers", "1", "-q"], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert first.stdout.readline().strip() == "parsing"
    proc, _ = _run("sql", "SELECT 1", "--db", str(db), cwd=tmp_path)
    assert "is busy" in _one_line(proc)
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    proc, _ = _run("sql", "SELECT count(*) AS n FROM documents", "--db", str(db), "--format", "csv",
                   cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.splitlines() == ["n", "6"], proc.stderr


def test_readers_share_the_database(tmp_path):
    """Read-only commands at the same time do not block each other."""
    _write_corpus(tmp_path / "corpus", 3)
    db = tmp_path / "r.duckdb"
    proc, _ = _run("ingest", str(tmp_path / "corpus"), "--db", str(db), "-q", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    con = duckdb.connect(str(db), read_only=True)      # a reader holding the file open
    try:
        proc, _ = _run("sql", "SELECT count(*) FROM claims", "--db", str(db), cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        proc, _ = _run("export", "documents", "--db", str(db), cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    finally:
        con.close()
