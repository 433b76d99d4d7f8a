"""A figure read from a benchmark result file is cited as its source asks (issue 14, item 3):
``pipeline.citation`` builds the line, and `claims check` (text and JSON), `claims trace`
and the report print it.

The hand-written fixtures of tests/fixtures/structured/ give the unit cases; the end-to-end
cases run the real CLI on a real DuckDB file made from the real files in
``../shared/corpus/structured/`` (skipped when absent), with headlines built at run time from
the rows they are about (no row is copied here).
"""
from __future__ import annotations

import datetime as dt
import json
import re
import shutil
from pathlib import Path

import pytest

from pipeline.citation import SourceDoc, citation_line
from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file
from pipeline.ingest import structured_mapping as mapping

FIX = Path(__file__).resolve().parent / "fixtures" / "structured"
SUPPORTED, CONTRADICTED = 0, 3


def _source(doc, retrieved: str | None = "2026-01-02") -> SourceDoc:
    return SourceDoc(doc.id, doc.path, doc.meta["source_kind"], doc.publisher, doc.title,
                     retrieved, json.loads(json.dumps(doc.meta)))   # as stored: JSON


def _cited(rel: str, root: Path = FIX):
    doc = ingest_file(root / rel, root)
    src = _source(doc)
    return doc, [(c, citation_line(c, src)) for c in extract_claims(doc)]


def test_mlperf_row_is_cited_with_the_guidelines_fields():
    doc, cited = _cited("mlperf/summary_results.json")
    rows = {r["start"]: r for r in doc.meta["rows"]}
    assert cited
    for c, line in cited:
        row = rows[c.sentence_start]
        assert line.startswith(f"MLPerf Inference {row['version']}, {row['division']}, "
                               f"result {row['result_id']}, {row['model']}, {row['scenario']}, "
                               f"retrieved 2026-01-02: "), line
        if c.family == "token_throughput":
            assert f"tokens/s per system on {c.hardware}" in line
    # the figure as the file writes it, digits grouped
    c, line = next((c, x) for c, x in cited if float(c.surface) >= 1000)
    whole, _, frac = c.surface.partition(".")
    assert f"{int(whole):,}{'.' + frac if frac else ''} " in line


def test_llmperf_figure_is_cited_with_its_file_pointer_and_statistic():
    doc, cited = _cited("llmperf/acme_70b.json")
    raw = json.loads((FIX / "llmperf/acme_70b.json").read_text())
    p99 = [(c, x) for c, x in cited if c.phase == "ttft" and c.statistic == "p99"]
    assert len(p99) == 1
    c, line = p99[0]
    assert f"{doc.path} /results_ttft_s_quantiles_p99" in line and "(TTFT p99)" in line
    assert float(line.split(": ", 1)[1].split()[0].replace(",", "")) == \
        float(raw["results_ttft_s_quantiles_p99"])


def test_mapped_csv_figure_is_cited_with_line_and_column(tmp_path):
    (tmp_path / "map.toml").write_text(
        '[source]\npublisher = "Example Lab"\n[columns]\nmodel = "model"\nhardware = "gpu"\n'
        'count = "n"\n[[value]]\ncolumn = "tps"\nunit = "tokens/s"\nscope = "per_gpu"\n')
    (tmp_path / "runs.csv").write_text("model,gpu,n,tps\nLlama 3.1 8B,H100,8,1234.5\n"
                                       "Llama 3.1 8B,H200,8,1500\n")
    with mapping.using(mapping.load(tmp_path / "map.toml")):
        doc = ingest_file(tmp_path / "runs.csv", tmp_path)
    src = _source(doc)
    lines = sorted(citation_line(c, src) for c in extract_claims(doc))
    assert lines[0].startswith("Example Lab, runs.csv line 2, column tps, retrieved 2026-01-02: "
                               "1,234.5 tokens/s per GPU"), lines
    assert lines[1].startswith("Example Lab, runs.csv line 3, column tps"), lines


def test_inferencex_and_log_figures_are_cited():
    doc, cited = _cited("inferencex/results.json")
    tput = [x for c, x in cited if "Total throughput" in x]
    assert tput and all(re.search(r"results\.json /\d+(/metrics)?/tput_per_gpu", x) for x in tput)
    doc, cited = _cited("mlperf/mlperf_log_summary.txt")
    tok = [x for c, x in cited if c.family == "token_throughput"]
    assert len(tok) == 1 and tok[0].startswith("MLPerf Inference run summary, ")
    assert "(Completed tokens per second)" in tok[0]


def test_a_document_stored_before_tables_were_kept_is_still_cited():
    doc = ingest_file(FIX / "llmperf/acme_70b.json", FIX)
    meta = {k: v for k, v in json.loads(json.dumps(doc.meta)).items() if k != "tables"}
    src = SourceDoc(doc.id, doc.path, meta["source_kind"], doc.publisher, None, None, meta)
    c = extract_claims(doc)[0]
    line = citation_line(c, src)
    assert line.startswith(f"llmperf leaderboard, {doc.path}: ") and "retrieved" not in line


# --- end to end: the real files, the real CLI -----------------------------------------------

MLPERF = "mlperf-inference-v5.1/summary_results_llm.json"
LLMPERF = "llmperf-leaderboard/raw_data/summary/anyscale_70b.json"


@pytest.fixture(scope="module")
def STRUCT(SHARED: Path) -> Path:
    path = SHARED / "corpus" / "structured"
    if not (path / MLPERF).is_file() or not (path / LLMPERF).is_file():
        pytest.skip("shared/corpus/structured is missing")
    return path


def _mi300x_rows(struct: Path) -> list[dict]:
    """The llama2-70b-99 tokens/s rows of one node of 8 MI300X, read from the real file."""
    rows = json.loads((struct / MLPERF).read_text())
    return [r for r in rows if r["Model"] == "llama2-70b-99" and "MI300X" in r["Accelerator"]
            and str(r["a#"]) == "8" and str(r["Nodes"]) == "1"
            and r["Performance_Units"] == "Tokens/s"]


@pytest.fixture(scope="module")
def db(STRUCT, tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("citation")
    corpus = tmp / "corpus"
    for rel in (MLPERF, LLMPERF):
        (corpus / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(STRUCT / rel, corpus / rel)
    # an article restating one row's figure (written here from the row)
    row = next(r for r in _mi300x_rows(STRUCT) if r["Scenario"] == "Offline")
    (corpus / "news.md").write_text(
        "# MI300X in MLPerf\n\nBy Example News, 2026-01-05.\n\nIn MLPerf, eight MI300X GPUs "
        f"ran Llama 2 70B at {float(row['Performance_Result']):,} tokens/s per system.\n")
    path = tmp / "w.duckdb"
    run_cli("ingest", str(corpus), "--db", str(path), cwd=tmp, check=True)
    return path


def _today_or_later(line: str) -> None:
    m = re.search(r"retrieved (\d{4}-\d\d-\d\d)", line)
    assert m and m.group(1) >= (dt.date.today() - dt.timedelta(days=1)).isoformat(), line


def _cited_lines(out: str) -> list[str]:
    return [x.split("cited as: ", 1)[1] for x in out.splitlines() if "cited as: " in x]


def test_check_mlperf_row_supported_and_inflated_contradicted_with_the_row_cited(
        STRUCT, db, run_cli):
    rows = _mi300x_rows(STRUCT)
    row = next(r for r in rows if r["Scenario"] == "Offline")
    value = float(row["Performance_Result"])
    proc = run_cli("check", f"Llama 2 70B reaches {value:,} tokens/s per system on 8 x MI300X",
                   "--db", str(db), cwd=db.parent)
    assert proc.returncode == SUPPORTED, proc.stdout
    want = (f"MLPerf Inference {row['version']}, {row['Category']}, result {row['ID']}, "
            f"{row['Model']}, {row['Scenario']}, retrieved ")
    lines = _cited_lines(proc.stdout)
    assert any(x.startswith(want) and f": {value:,} tokens/s per system on 8 x MI300X" in x
               for x in lines), proc.stdout
    _today_or_later(lines[0])

    best = max(float(r["Performance_Result"]) for r in rows)
    proc = run_cli("check", f"Llama 2 70B runs at up to {2 * best:,.0f} tokens/s per system on "
                   "8 x MI300X", "--db", str(db), cwd=db.parent)
    assert proc.returncode == CONTRADICTED, proc.stdout
    ids = {r["ID"] for r in rows}
    lines = _cited_lines(proc.stdout)
    assert lines and all(re.search(r"result (\S+),", x).group(1) in ids for x in lines), lines

    # JSON: every evidence item carries its citation
    proc = run_cli("check", f"Llama 2 70B reaches {value:,} tokens/s per system on 8 x MI300X",
                   "--db", str(db), "--format", "json", cwd=db.parent)
    ev = json.loads(proc.stdout)["evidence"]
    assert ev and all(e["citation"] and e["citation"].startswith("MLPerf Inference ") for e in ev)


def test_check_llmperf_row_supported_and_inflated_contradicted_with_the_row_cited(
        STRUCT, db, run_cli):
    raw = json.loads((STRUCT / LLMPERF).read_text())
    p99 = float(raw["results_ttft_s_quantiles_p99"])
    who = raw["framework"].capitalize()
    where = f"{LLMPERF} /results_ttft_s_quantiles_p99"
    for figure, code in ((f"{p99:.2f}", SUPPORTED), (f"{p99 / 10:.3f}", CONTRADICTED)):
        proc = run_cli("check", f"{who} serves Llama 2 70B with a p99 time to first token of "
                       f"{figure} s", "--db", str(db), cwd=db.parent)
        assert proc.returncode == code, proc.stdout
        lines = _cited_lines(proc.stdout)
        assert any(x.startswith(f"llmperf leaderboard, {where}, retrieved ") and
                   "s (TTFT p99)" in x for x in lines), proc.stdout


def test_trace_and_report_print_the_citation(STRUCT, db, run_cli, tmp_path):
    row = next(r for r in _mi300x_rows(STRUCT) if r["Scenario"] == "Offline")
    want = f"MLPerf Inference {row['version']}, {row['Category']}, result {row['ID']}, "
    proc = run_cli("sql", "SELECT c.id FROM claims c JOIN documents d ON d.id = c.doc_id "
                   "WHERE d.path = 'news.md'", "--db", str(db), "--format", "csv",
                   cwd=db.parent, check=True)
    news = proc.stdout.split()[1]
    proc = run_cli("trace", news, "--db", str(db), cwd=db.parent, check=True)
    assert re.search(r"^\s+cited as " + re.escape(want), proc.stdout, re.M), proc.stdout
    assert re.search(r"^\s+supports \S+, cited as " + re.escape(want), proc.stdout, re.M)
    data = json.loads(run_cli("trace", news, "--db", str(db), "-f", "json", cwd=db.parent,
                              check=True).stdout)
    assert any((x["citation"] or "").startswith(want) for x in data["links"])
    assert any((e["citation"] or "").startswith(want) for e in data["verdict"]["evidence"])
    primary = next(x["id"] for x in data["links"] if (x["citation"] or "").startswith(want))
    proc = run_cli("trace", primary, "--db", str(db), cwd=db.parent, check=True)
    assert re.search(r"^  cited as   " + re.escape(want), proc.stdout, re.M), proc.stdout

    out = tmp_path / "rep"
    run_cli("report", "--db", str(db), "-o", str(out), cwd=db.parent, check=True)
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert "cited as: " + want in md
    assert "cited as: " + want in html


# --- bad files named on the command line: one clear error each, nothing stored --------------

def test_bad_files_named_on_the_command_line_are_one_error_each(tmp_path, run_cli):
    import duckdb

    shutil.copyfile(FIX / "bad" / "missing_column.csv", tmp_path / "missing_column.csv")
    shutil.copyfile(FIX / "bad" / "other_shape.json", tmp_path / "other_shape.json")
    (tmp_path / "map.toml").write_text('[columns]\nhardware = "gpu_type"\n[[value]]\n'
                                       'column = "tps"\nunit = "tokens/s"\n')
    (tmp_path / "mine.csv").write_text("gpu,tps\nH100,1450.2\n")
    db = tmp_path / "x.duckdb"
    for args, n in ((("missing_column.csv", "other_shape.json"), 2),
                    (("mine.csv", "--mapping", "map.toml"), 1)):
        proc = run_cli("ingest", *args, "--db", str(db), cwd=tmp_path)
        assert proc.returncode == 0 and f" {n} errors" in proc.stdout, proc.stdout + proc.stderr
        assert proc.stderr.count("error: ") == n
    con = duckdb.connect(str(db), read_only=True)
    try:
        errors = dict(con.execute("SELECT path, reason FROM ingest_errors").fetchall())
        assert sorted(errors) == ["mine.csv", "missing_column.csv", "other_shape.json"]
        assert "without the column Performance_Units" in errors["missing_column.csv"]
        assert errors["other_shape.json"].startswith("JSON file of another shape")
        assert "names column 'gpu_type' that the file does not have (its columns: gpu, tps)" \
            in errors["mine.csv"]
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM claims").fetchone() == (0,)
    finally:
        con.close()
