"""The CLI follows the habits of sqlite-utils and the DuckDB CLI (issue 15, part 3).

`--version`; flags shown as flags; `claims sql -` and `--file`; output formats that keep
numbers as written and cut nothing unless asked; read-only statements beyond SELECT;
`check` exit codes by verdict; one line for inferred roles; CSV and TSV manifests; the
README's first line installs only what the main job needs. All through the real CLI.
"""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest

import pipeline
from conftest import REPO, claims_command
from pipeline.store import Store, StoreError, check_read_only

LONG = "x" * 150


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli) -> Path:
    """The check fixtures (one primary per verdict), ingested once."""
    path = tmp_path_factory.mktemp("conv") / "c.duckdb"
    run_cli("ingest", str(REPO / "tests" / "fixtures" / "check"), "--db", str(path), "-q",
            cwd=path.parent, check=True)
    return path


def test_version_comes_from_the_package_metadata(run_cli, tmp_path):
    proc = run_cli("--version", cwd=tmp_path, check=True)
    assert proc.stdout == f"claims {version('claims')}\n"
    assert pipeline.__version__ == version("claims")


def test_flags_are_shown_without_a_value(run_cli, tmp_path):
    for command in ([], ["ingest"], ["sql"]):
        proc = run_cli(*command, "--help", cwd=tmp_path, env={"COLUMNS": "200"}, check=True)
        assert "--help" in proc.stdout and "<bool>" not in proc.stdout
    strict = next(ln for ln in proc.stdout.splitlines() if "--debug" in ln)     # sql --help
    assert re.search(r"--debug\s+Show tracebacks", strict), strict


def _sql(*args: str, stdin: str | None = None, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*claims_command(), "sql", *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_sql_reads_stdin_and_a_file(db, tmp_path):
    query = "SELECT count(*) AS n FROM documents"
    want = _sql(query, "--db", str(db), "-f", "json", cwd=tmp_path).stdout
    assert json.loads(want)[0]["n"] > 0
    piped = _sql("-", "--db", str(db), "-f", "json", stdin=query + "\n", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout == want
    (tmp_path / "q.sql").write_text("-- how many\n" + query + ";\n")
    filed = _sql("--file", str(tmp_path / "q.sql"), "--db", str(db), "-f", "json", cwd=tmp_path)
    assert filed.returncode == 0 and filed.stdout == want
    both = _sql(query, "--file", str(tmp_path / "q.sql"), "--db", str(db), cwd=tmp_path)
    assert both.returncode == 2 and both.stderr.count("\n") == 1
    none = _sql("--db", str(db), cwd=tmp_path)
    assert none.returncode == 2 and "no statement" in none.stderr


NUMBERS = ("SELECT 1094347.0::DOUBLE AS big, 3e12::DOUBLE AS huge, 1e-7::DOUBLE AS tiny, "
           "0.1::DOUBLE AS tenth, 42 AS whole, NULL AS nothing, "
           f"'{LONG}' AS long, true AS flag")


def test_table_keeps_numbers_as_written_and_cuts_only_when_asked(db, tmp_path):
    table = _sql(NUMBERS, "--db", str(db), cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    row = table.stdout.splitlines()[2].split()
    assert row == ["1094347", "3000000000000", "0.0000001", "0.1", "42", "NULL", LONG, "true"]
    assert "e+" not in table.stdout and "…" not in table.stdout
    cut = _sql(NUMBERS, "--db", str(db), "--max-width", "20", cwd=tmp_path).stdout
    assert "x" * 19 + "…" in cut and LONG not in cut


def test_csv_json_jsonl_and_markdown(db, tmp_path):
    out = _sql(NUMBERS, "--db", str(db), "-f", "csv", cwd=tmp_path).stdout
    assert list(csv.reader(io.StringIO(out)))[1] == [
        "1094347", "3000000000000", "0.0000001", "0.1", "42", "", LONG, "true"]
    (obj,) = json.loads(_sql(NUMBERS, "--db", str(db), "-f", "json", cwd=tmp_path).stdout)
    lines = _sql("SELECT id, title FROM documents ORDER BY id", "--db", str(db), "-f", "jsonl",
                 cwd=tmp_path).stdout.splitlines()
    assert obj["big"] == 1094347.0 and obj["nothing"] is None and obj["flag"] is True
    assert len(lines) > 1 and all(set(json.loads(ln)) == {"id", "title"} for ln in lines)
    md = _sql("SELECT 'a|b' AS name, 2.5 AS v", "--db", str(db), "-f", "markdown",
              cwd=tmp_path).stdout.splitlines()
    assert md == ["| name | v |", "|---|---:|", "| a\\|b | 2.5 |"]


READS = ["PIVOT claims ON family USING count(*)",
         "UNPIVOT (SELECT 1 AS a, 2 AS b) ON a, b INTO NAME k VALUE v",
         "SUMMARIZE documents", "DESCRIBE claims", "SHOW TABLES", "SHOW claims",
         "EXPLAIN ANALYZE SELECT count(*) FROM claims", "FROM documents LIMIT 1", "VALUES (1)"]


def test_read_only_statements_beyond_select_run(db, tmp_path):
    """Each passes the statement check and runs on the tool's read-only, sandboxed
    connection; the first also end to end."""
    with Store.open(db, read_only=True) as store:
        for query in READS:
            check_read_only(query)
            assert store.query(query)[1], query
    proc = _sql(READS[0], "--db", str(db), "-f", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)


WRITES_IN_EXPLAIN = ["EXPLAIN ANALYZE CREATE TEMP TABLE t AS SELECT 1",
                     "EXPLAIN ANALYZE DELETE FROM claims",
                     "EXPLAIN (ANALYZE) UPDATE documents SET title = 'x'",
                     "-- a comment first\nEXPLAIN ANALYZE INSERT INTO links SELECT * FROM links"]


def test_explain_analyze_of_a_write_is_refused(db, tmp_path):
    for query in WRITES_IN_EXPLAIN:
        with pytest.raises(StoreError, match=r"^refused: .*\(inside EXPLAIN\)$"):
            check_read_only(query)
    proc = _sql(WRITES_IN_EXPLAIN[0], "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("error: refused") and line.endswith("(inside EXPLAIN)")


CHECKS = ["Llama 3.1 405B reached 200 tokens/s per user",
          "Qwen3-32B runs at 90 tokens per second per user on one H100",
          "Some model topped 1,000 tokens a second per user on models above 700B parameters",
          "no figures in this sentence"]


def test_check_exit_code_tells_the_verdict(db, run_cli, tmp_path):
    codes = {"supported": 0, "contradicted": 3, "unproven": 4, "ambiguous": 5}
    seen = set()
    for headline in CHECKS:
        proc = run_cli("check", headline, "--db", str(db), "-f", "json", cwd=tmp_path)
        verdict = json.loads(proc.stdout)["verdict"]
        assert proc.returncode == codes[verdict], (headline, verdict, proc.returncode)
        seen.add(verdict)
    assert seen == set(codes)              # every verdict and its code was exercised
    help_text = run_cli("check", "--help", cwd=tmp_path, env={"COLUMNS": "200"}).stdout
    assert "0 supported, 3 contradicted, 4 unproven, 5 ambiguous" in " ".join(help_text.split())


def test_inferred_roles_are_one_line_unless_verbose(run_cli, tmp_path):
    folder = tmp_path / "posts"
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.md").write_text(
            f"# Post {i}\n\nWe measured {300 + i} tokens/s per user on our own H100 server.\n")
    quiet = run_cli("ingest", str(folder), "--db", str(tmp_path / "a.duckdb"), cwd=tmp_path,
                    check=True).stdout.splitlines()
    assert not any(ln.startswith("inferred role:") for ln in quiet)
    summary = [ln for ln in quiet if ln.startswith("inferred roles: ")]
    assert len(summary) == 1 and summary[0].startswith("inferred roles: 3 documents (")
    loud = run_cli("ingest", str(folder), "--db", str(tmp_path / "b.duckdb"), "-v", cwd=tmp_path,
                   check=True).stdout.splitlines()
    listed = [ln for ln in loud if ln.startswith("inferred role:")]
    assert sorted(ln.split()[3] for ln in listed) == ["p0.md", "p1.md", "p2.md"], listed


@pytest.mark.parametrize("name,sep", [("sources.csv", ","), ("sources.tsv", "\t"),
                                      ("MANIFEST.tsv", "\t")])
def test_manifests_as_csv_or_tsv(run_cli, tmp_path, name, sep):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nIt serves 512 tokens/s per user.\n")
    text = io.StringIO()
    writer = csv.writer(text, delimiter=sep, lineterminator="\n")
    writer.writerows([["Path", "role", "publisher", "date", "notes"],
                      ["a.md", "secondary", "Some, Outlet", "2025-02-03", "ignored"]])
    (folder / name).write_text(text.getvalue())
    db = tmp_path / "m.duckdb"
    proc = run_cli("ingest", str(folder), "--db", str(db), cwd=tmp_path, check=True)
    assert proc.stdout.strip().splitlines()[-1].startswith("1 files: 1 new")   # the manifest is no file
    with Store.open(db, read_only=True) as store:
        got = store.query("SELECT role, role_source, publisher, published::VARCHAR FROM documents")[1]
    assert got == [("secondary", "manifest", "Some, Outlet", "2025-02-03")]


def test_readme_first_line_installs_the_tool_alone_and_ci_runs_the_second():
    first, second = [ln for ln in (REPO / "README.md").read_text().splitlines()[:6]
                     if ln.startswith("python3 -m venv")][:2]
    assert "pip install ." in first and "[test]" not in first and "claims ingest" in first
    assert first.startswith("python3 -m venv --upgrade-deps ") and second.startswith("python3 -m venv --upgrade-deps ")
    extras = re.search(r"pip install '\.\[([a-z,]+)\]'", second)
    assert extras and "test" in extras.group(1).split(",") and second.endswith("pytest -q")
    ci = (REPO / ".ci" / "run").read_text()
    # the same install as the README's second line
    assert f"install --quiet --disable-pip-version-check '.[{extras.group(1)}]'" in ci
    assert re.search(r'^"\$venv/bin/pytest" -q$', ci, re.M)
    # a pip that reads extras as PEP 685 spells them: no "does not provide the extra" warning
    assert re.search(r'^python3 -m venv --upgrade-deps "\$venv"$', ci, re.M)


def test_explain_prints_the_plan_as_drawn(db, tmp_path):
    """An EXPLAIN's plan keeps its lines (a table cell had joined them into one unreadable
    line of box-drawing characters); Markdown fences it; JSON keeps the rows."""
    query = "EXPLAIN SELECT doc_path, count(*) FROM claims_full GROUP BY 1"
    text = _sql(query, "--db", str(db), cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "physical_plan:" and len(lines) > 10
    assert lines[1].startswith("╭─") and any("Seq Scan" in ln or "Table Scan" in ln for ln in lines)
    md = _sql(query, "--db", str(db), "-f", "markdown", cwd=tmp_path).stdout.splitlines()
    assert md[:3] == ["physical_plan:", "", "```"] and md[-1] == "```"
    rows = json.loads(_sql(query, "--db", str(db), "-f", "json", cwd=tmp_path).stdout)
    assert [r["explain_key"] for r in rows] == ["physical_plan"]
    assert rows[0]["explain_value"].rstrip("\n").splitlines() == lines[1:]
