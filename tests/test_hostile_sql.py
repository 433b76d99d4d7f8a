"""`claims sql` with a huge result (issue 15, part 5): data formats stream in batches
(memory bounded by a batch), tables hold at most SQL_TABLE_ROWS rows and say so."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from conftest import claims_command
from pipeline.output import write_json

BIG = "SELECT i, repeat('x', 200) || i AS s FROM range(400000) t(i)"


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("sqlbig")
    (tmp / "c").mkdir()
    (tmp / "c" / "a.md").write_text("vLLM reaches 1,200 tokens/s on one H100.\n")
    run_cli("ingest", "c", "--db", "w.duckdb", "-q", "--no-link", cwd=tmp, check=True)
    return tmp


def _peak(args, cwd):
    """Run the CLI in a fresh interpreter that reports its child's peak RSS (MB)."""
    code = ("import resource, subprocess, sys\n"
            f"p = subprocess.run({[*claims_command(), *args]!r}, stdout=subprocess.PIPE,\n"
            "                   stderr=subprocess.PIPE, text=True)\n"
            "print(p.returncode, p.stdout.count('\\n'), "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                         timeout=300)
    rc, lines, mb = map(int, out.stdout.split())
    return rc, lines, mb


def test_a_huge_result_streams_in_bounded_memory(db):
    rc, lines, mb = _peak(["sql", BIG, "-f", "jsonl", "--db", "w.duckdb"], db)
    assert (rc, lines) == (0, 400000)
    assert mb < 170, mb            # holding the rows (before) took ~300 MB


def test_a_table_holds_at_most_its_row_cap_and_says_so(db, run_cli):
    p = run_cli("sql", "SELECT i FROM range(100001) t(i)", "--db", "w.duckdb", cwd=db)
    assert p.returncode == 2
    assert p.stdout.rstrip().endswith("(100000 rows)")
    assert p.stderr.strip() == ("error: only the first 100,000 rows are shown as a table: -f csv, "
                                "json or jsonl stream every row (or add a LIMIT)")


def test_streamed_json_reads_as_json_dump_writes():
    rows = [(1, "x", None), (2, "y\n\"z\"", 1.5)]
    cols = ["a", "b", "c"]
    buf = io.StringIO()
    write_json(buf, cols, iter(rows))
    expected = json.dumps([dict(zip(cols, r)) for r in rows], indent=1, ensure_ascii=False) + "\n"
    assert buf.getvalue() == expected
    buf = io.StringIO()
    write_json(buf, cols, iter([]))
    assert buf.getvalue() == "[]\n"
