"""Endless or huge input on a stream (issue 15, part 5, beside `--urls /dev/zero`): a SQL
statement from `--file /dev/zero` or `- < /dev/zero` never returned, growing without end;
`claims extract - < /dev/zero` read until memory ran out. Each is read up to its cap
(`pipeline.userinput`) and refused with one line, exit 2."""
from __future__ import annotations

import os
import subprocess
import time

import pytest

from conftest import claims_command
from pipeline.store import Store


def _run(args: list[str], cwd, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
    return subprocess.run([*claims_command(), *args], cwd=cwd, env=env, stdin=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args,source,message", [
    (["sql", "--file", "/dev/zero"], None,
     "error: the statement file /dev/zero is over 16 MB: not a SQL statement"),
    (["sql", "-"], "/dev/zero", "error: the statement on stdin is over 16 MB: not a SQL statement"),
    (["extract", "-"], "/dev/zero", "error: stdin is over 50 MB: not one document to read"),
    (["explain", "-"], "/dev/zero", "error: stdin is over 50 MB: not one document to read"),
])
def test_an_endless_stream_is_refused_at_its_cap(tmp_path, args, source, message):
    started = time.monotonic()
    if source:
        with open(source, "rb") as fh:
            proc = _run(args + ["--db", "w.duckdb"] * (args[0] == "sql"), tmp_path, stdin=fh)
    else:
        proc = _run(args + ["--db", "w.duckdb"], tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), proc.stderr
    assert time.monotonic() - started < 30
    assert not (tmp_path / "w.duckdb").exists()


def test_a_statement_with_nul_bytes_is_refused_and_a_good_one_runs(tmp_path):
    (tmp_path / "nul.sql").write_bytes(b"SELECT 1\0")
    proc = _run(["sql", "--file", "nul.sql", "--db", "w.duckdb"], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: the statement file nul.sql holds NUL bytes: not a SQL statement"
    with Store.open(tmp_path / "w.duckdb"):
        pass                                  # an empty warehouse
    (tmp_path / "q.sql").write_text("SELECT 42 AS answer\n")
    with open(tmp_path / "q.sql", "rb") as fh:
        proc = _run(["sql", "-", "--db", "w.duckdb", "-f", "csv"], tmp_path, stdin=fh)
    assert (proc.returncode, proc.stdout) == (0, "answer\n42\n"), proc.stderr
