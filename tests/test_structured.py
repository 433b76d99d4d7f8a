"""Benchmark result files as primary documents (pipeline/ingest/structured.py, issue 14).

Fixtures under tests/fixtures/structured/ were written by hand in the published schemas
(MLPerf summary_results.json / CSV rows, an MLPerf run's mlperf_log_summary.txt, an llmperf
summary JSON) with invented figures; the real files in shared/corpus/structured/ are read
at run time when present (no row of them is copied here).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from pipeline.extract import extract_claims
from pipeline.ingest import IngestError, ingest_bytes, ingest_file
from pipeline.ingest import structured
from pipeline.ingest.sniff import detect
from pipeline.ingest.tables import text_tables

FIX = Path(__file__).resolve().parent / "fixtures" / "structured"
SUPPORTED, CONTRADICTED, AMBIGUOUS = 0, 3, 5


def _doc(rel: str, root: Path = FIX):
    return ingest_file(root / rel, root)


def _claims(doc):
    claims = extract_claims(doc)
    for c in claims:                                   # every figure points into the text
        assert doc.text[c.start:c.end] == c.surface
    return claims


def _one(claims, surface: str):
    """The one claim whose surface is ``surface``."""
    hits = [c for c in claims if c.surface == surface]
    assert len(hits) == 1, (surface, hits)
    return hits[0]


def _by_value(claims, surface: str):
    hits = [c for c in claims if c.surface == surface]
    assert hits, f"no claim {surface!r}"
    return hits[0]


# --- recognition: by content, not by name ----------------------------------------------------

@pytest.mark.parametrize("rel, kind", [
    ("mlperf/summary_results.json", "mlperf_summary_json"),
    ("mlperf/summary.csv", "mlperf_summary_csv"),
    ("mlperf/mlperf_log_summary.txt", "mlperf_log_summary"),
    ("llmperf/acme_70b.json", "llmperf_summary"),
    ("bad/other_shape.json", None),
])
def test_kind_is_read_from_the_content(rel, kind):
    data = (FIX / rel).read_bytes()
    assert structured.kind_of(data[:8192]) == kind
    if kind:
        # the name does not matter: the same bytes under another name are still read
        assert detect(Path("renamed.txt"), data[:8192]) == "markdown"
        assert ingest_bytes(data, "renamed.txt").meta["source_kind"] == kind


def test_a_result_file_name_alone_is_not_enough():
    with pytest.raises(IngestError, match="JSON file of another shape"):
        ingest_bytes(b'{"rows": [1, 2]}', "summary_results.json")
    with pytest.raises(IngestError, match="CSV file of another shape.*its columns: a,b"):
        ingest_bytes(b"a,b\n1,2\n", "summary.csv")
    # prose that mentions the fields stays prose
    doc = ingest_bytes(b"# Notes\n\nThe Performance_Result, Performance_Units and Scenario "
                       b"fields.\n", "notes.md")
    assert "source_kind" not in doc.meta
    # a README opening with a badge link and quoting llmperf keys is still Markdown
    readme = (b'[![CI](https://x/badge.svg)](https://x)\n\n# llmperf\n\n```json\n'
              b'{"model": "m", "results_ttft_s_quantiles_p50": 0.2}\n```\n')
    assert "source_kind" not in ingest_bytes(readme, "README.md").meta


# --- MLPerf summary rows ---------------------------------------------------------------------

def test_mlperf_json_renders_one_line_per_row_with_units_in_the_header():
    doc = _doc("mlperf/summary_results.json")
    assert (doc.format, doc.publisher, doc.role, doc.role_source) == \
        ("markdown", "MLCommons", "primary", "metadata")
    assert doc.title == "MLPerf Inference v9.0 results (MLCommons)"
    tables = text_tables(doc.text)
    assert len(tables) == 1 and len(tables[0].rows) == 6
    header = tables[0].header
    assert header[:9] == ["Result ID", "Division", "Submitter", "System", "Benchmark", "Model",
                          "Accuracy target", "Scenario", "Hardware"]
    assert "Result (tokens/s per system)" in header and "Power (W)" in header
    rows = doc.meta["rows"]
    assert [r["row"] for r in rows] == [f"/{i}" for i in range(6)]
    first = rows[0]
    assert {k: first[k] for k in ("version", "division", "result_id", "scenario", "model")} == \
        {"version": "v9.0", "division": "closed", "result_id": "9.0-0101", "scenario": "Offline",
         "model": "llama2-70b-99"}
    line = doc.text[first["start"]:first["end"]]
    assert line.startswith("| 9.0-0101 | closed | Acme |") and "| 21234.5 |" in line


def test_mlperf_rows_become_per_system_claims_with_their_conditions():
    doc = _doc("mlperf/summary_results.json")
    claims = _claims(doc)
    thr = [c for c in claims if c.family == "token_throughput"]
    assert len(thr) == 6
    # a result is per system, never per accelerator
    assert {c.scope for c in thr} == {"per_system"}
    c = _by_value(claims, "21234.5")
    assert (c.value, c.unit, c.model, c.hardware, c.hw_count, c.engine, c.dtype) == \
        (21234.5, "tokens/s", "Llama 2 70B", "8 x H100", 8, "TensorRT-LLM", "FP8")
    assert c.in_table and doc.text[c.sentence_start:c.sentence_end].startswith("| 9.0-0101")
    # two nodes of eight: the system is 16 accelerators
    c = _by_value(claims, "98765.4")
    assert (c.model, c.hardware, c.hw_count, c.engine) == ("Llama 3.1 8B", "16 x MI300X", 16, "vLLM")
    # no accelerator: the host processors are the hardware
    assert _by_value(claims, "412.3").hardware == "2 x Xeon"
    # mixed accelerators are never a bare accelerator standing for any count of it
    assert _by_value(claims, "123456.0").hw_count == 16
    power = _by_value(claims, "6543.21")
    assert (power.family, power.unit) == ("power", "W")


def test_queries_per_second_on_an_llm_benchmark_is_read_as_tokens():
    doc = _doc("mlperf/summary_results.json")
    fixed = doc.meta["unit_corrections"]
    assert [(f["id"], f["published"], f["read_as"]) for f in fixed] == \
        [("9.0-0102", "Queries/s", "Tokens/s")]
    c = _by_value(_claims(doc), "45678.9")
    assert (c.family, c.unit, c.scope) == ("token_throughput", "tokens/s", "per_system")
    # the row still shows the unit as published
    assert "| 45678.9 |  | Queries/s | vLLM 0.6.3, ROCm 6.2 |" in doc.text[c.sentence_start:c.sentence_end]
    # and the run's log says the figure is completed tokens per second, not samples
    log = (FIX / "mlperf/mlperf_log_summary.txt").read_text()
    assert structured.log_units(c.value, log) == "tokens/s"
    assert structured.log_units(321.5, log) == "samples/s"
    assert structured.log_units(1000.0, log) is None


def test_mlperf_csv_rows_keep_their_line_numbers():
    doc = _doc("mlperf/summary.csv")
    assert doc.meta["source_kind"] == "mlperf_summary_csv"
    assert [r["row"] for r in doc.meta["rows"]] == ["line 2", "line 3"]
    claims = _claims(doc)
    c = _by_value(claims, "15432.1")
    assert (c.model, c.hardware, c.scope, c.dtype) == ("Llama 2 70B", "4 x H200", "per_system", "FP8")
    assert "99.9%" in c.sentence            # the accuracy target travels with the row


def test_mlperf_log_summary():
    doc = _doc("mlperf/mlperf_log_summary.txt")
    assert doc.meta["source_kind"] == "mlperf_log_summary"
    assert doc.title.startswith("MLPerf Inference run summary: Server scenario")
    assert doc.meta["test_parameters"]["ttft_latency (ns)"] == "500000000"
    claims = _claims(doc)
    tput = _by_value(claims, "45678.91")
    assert (tput.family, tput.scope) == ("token_throughput", "per_system")
    ttft = [c for c in claims if c.phase == "ttft" and c.statistic == "p99"]
    assert len(ttft) == 1 and ttft[0].value == pytest.approx(0.41)
    tpot = [c for c in claims if c.phase == "tpot" and c.statistic == "p50"]
    assert len(tpot) == 1 and tpot[0].value == pytest.approx(0.0205)


# --- llmperf ---------------------------------------------------------------------------------

def test_llmperf_summary_quantiles_are_columns():
    doc = _doc("llmperf/acme_70b.json")
    assert (doc.publisher, doc.role, doc.published) == ("llmperf leaderboard", "primary", "2023-12-19")
    claims = _claims(doc)
    per_user = {c.statistic: c.value for c in claims
                if c.family == "token_throughput" and c.scope == "per_user"}
    assert per_user == {"median": 66.7, "p90": 74.9, "p99": 80.3, "mean": 65.8, "peak": 81.0}
    for c in claims:
        assert (c.isl, c.osl, c.concurrency) == (550, 150, 5)
        assert c.model == "Llama 2 70B"          # "acme/llama-2-70b-chat" read by the vocabulary
    ttft = {c.statistic: c.value for c in claims if c.phase == "ttft"}
    assert ttft == {"median": 0.42, "p90": 0.77, "p99": 1.25, "mean": 0.48, "peak": 1.31}
    assert {c.statistic for c in claims if c.phase == "tpot"} == {"median", "p90", "p99", "mean", "peak"}
    overall = _by_value(claims, "301.4")
    assert (overall.scope, overall.token_kind) == ("aggregate", "output")
    # p25 and min have no statistic in the claims model: not rendered, never a bare figure
    assert "61.2" not in doc.text and "40.1" not in doc.text
    cells = doc.meta["rows"][0]["cells"]
    assert cells["TTFT p99 (s)"] == "/results_ttft_s_quantiles_p99"


# --- bad files -------------------------------------------------------------------------------

@pytest.mark.parametrize("rel, message", [
    ("bad/missing_column.csv", r"MLPerf summary CSV without the column Performance_Units"),
    ("bad/other_shape.json", r"JSON file of another shape"),
    ("bad/bad_result.json", r"row /0 \(result 9.0-0401\): Performance_Result 'fast' is not a number"),
])
def test_bad_files_give_one_clear_error(rel, message):
    with pytest.raises(IngestError, match=message):
        _doc(rel)


def test_cli_ingest_stores_nothing_of_a_bad_file(tmp_path, run_cli):
    """In a folder, a broken result file is an error; a JSON that is no result file at all
    (other_shape.json) is skipped with its reason, not an error."""
    db = tmp_path / "x.duckdb"
    proc = run_cli("ingest", str(FIX / "bad"), "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 0 and "2 errors" in proc.stdout, proc.stdout + proc.stderr
    assert "1 skipped (unsupported)" in proc.stdout
    assert re.search(r"^skipped: other_shape\.json: not a benchmark result file", proc.stdout, re.M)
    assert proc.stderr.count("error: ") == 2
    con = duckdb.connect(str(db), read_only=True)
    try:
        errors = con.execute("SELECT path, count(*) FROM ingest_errors GROUP BY path ORDER BY path").fetchall()
        assert [e[0].rsplit("/", 1)[-1] for e in errors] == ["bad_result.json", "missing_column.csv"]
        assert all(n == 1 for _, n in errors)
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM claims").fetchone() == (0,)
    finally:
        con.close()


def test_damaged_result_files_fail_cleanly():
    """Cut, flipped and spliced copies of every fixture: a Document or one IngestError."""
    import random

    rng = random.Random(14)
    splices = [b'{"a":[1]}', b"null", b'"Performance_Result": {"x": 1},', b"|", b"\n\n",
               b"1e999", b'"timestamp": 99999999999999999999,']
    for path in sorted(FIX.rglob("*.*")):
        survives_damage(path.read_bytes(), path.name, rng, splices, 40)


def survives_damage(data: bytes, name: str, rng, splices: list[bytes], n: int) -> None:
    """``n`` cut, flipped or spliced copies of ``data`` (saved as ``name``) each give a
    Document whose claims point into its text, or one IngestError."""
    for _ in range(n):
        b = bytearray(data)
        op = rng.random()
        if op < 0.3:
            b = b[:rng.randrange(len(b))]
        elif op < 0.6:
            for _ in range(rng.randrange(1, 5)):
                b[rng.randrange(len(b))] = rng.choice(b'[]{}",:|\n0123456789x\x00')
        else:
            j = rng.randrange(len(b))
            b[j:j] = rng.choice(splices)
        try:
            doc = ingest_bytes(bytes(b), name)
        except IngestError:
            continue
        _claims(doc)


# --- claims check through the real CLI -------------------------------------------------------

def _check(run_cli, db: Path, headline: str) -> tuple[int, str]:
    proc = run_cli("check", headline, "--db", str(db), cwd=db.parent)
    return proc.returncode, proc.stdout


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("structured")
    corpus = tmp / "corpus"
    corpus.mkdir()
    for rel in ("mlperf/summary_results.json", "llmperf/acme_70b.json"):
        (corpus / rel.replace("/", "_")).write_bytes((FIX / rel).read_bytes())
    db = tmp / "x.duckdb"
    run_cli("ingest", str(corpus), "--db", str(db), cwd=tmp, check=True)
    return db


@pytest.mark.parametrize("headline, code, cited", [
    ("Acme's 8 x H100 system delivered 21,234.5 tokens/s per system on Llama 2 70B",
     SUPPORTED, "21234.5"),
    ("Llama 2 70B runs at up to 30,000 tokens/s per system on 8 x H100",
     CONTRADICTED, "21234.5"),
    ("acmecloud serves Llama 2 70B at a median 66.7 output tokens/s per user",
     SUPPORTED, "66.7"),
    ("acmecloud serves Llama 2 70B at a median 120 output tokens/s per user",
     CONTRADICTED, "66.7"),
])
def test_check_on_fixture_rows(run_cli, fixture_db, headline, code, cited):
    rc, out = _check(run_cli, fixture_db, headline)
    assert rc == code, out
    assert cited in out


# --- the real files (shared/corpus/structured), when present --------------------------------

@pytest.fixture(scope="module")
def STRUCT(SHARED: Path) -> Path:
    path = SHARED / "corpus" / "structured"
    if not path.is_dir():
        pytest.skip("shared/corpus/structured is missing")
    return path


MLPERF = "mlperf-inference-v5.1/summary_results_llm.json"
DELL_LOG = ("mlperf-inference-v5.1/closed/Dell/results/XE9680L_B200_SXM_180GBx8_TRT/llama3.1-8b/"
            "Interactive/performance/run_1/mlperf_log_summary.txt")


def _row_claim(doc, claims, **want):
    """The result claim of the one row whose meta matches ``want``."""
    rows = [r for r in doc.meta["rows"] if all(r.get(k) == v for k, v in want.items())]
    assert len(rows) == 1, rows
    hits = [c for c in claims if c.sentence_start == rows[0]["start"] and c.family != "power"]
    assert len(hits) == 1
    return rows[0], hits[0]


def test_real_mlperf_rows_checked_by_hand(STRUCT):
    doc = _doc(MLPERF, STRUCT)
    raw = json.loads((STRUCT / MLPERF).read_text())
    assert doc.meta["n_rows"] == len(raw) == len(doc.meta["rows"])
    claims = _claims(doc)
    results = [c for c in claims if c.family != "power"]
    assert len(results) == len(raw)                           # one claim per result cell
    assert {c.scope for c in results if c.family == "token_throughput"} == {"per_system"}
    # AMD, 8 x MI300X, llama2-70b-99 Offline (values read off the file by hand)
    row, c = _row_claim(doc, claims, result_id="5.1-0001", model="llama2-70b-99", scenario="Offline")
    assert (c.value, c.unit, c.model, c.hardware, c.hw_count, c.engine, c.dtype) == \
        (27803.9, "tokens/s", "Llama 2 70B", "8 x MI300X", 8, "vLLM", "FP8")
    assert (row["version"], row["division"]) == ("v5.1", "closed")
    # Cisco's 16 x H200: a# = 8 per node, 2 nodes
    row, c = _row_claim(doc, claims, result_id="5.1-0013", model="llama2-70b-99", scenario="Server")
    assert (c.value, c.hardware, c.hw_count, c.scope) == (66439.0, "16 x H200", 16, "per_system")
    # Dell's Interactive llama3.1-8b row is labelled Queries/s; its log says tokens/s
    row, c = _row_claim(doc, claims, result_id="5.1-0024", model="llama3.1-8b", scenario="Interactive")
    assert row["unit_published"] == "Queries/s"
    assert (c.value, c.family, c.unit, c.model, c.hardware) == \
        (102907.0, "token_throughput", "tokens/s", "Llama 3.1 8B", "8 x B200")
    assert structured.log_units(c.value, (STRUCT / DELL_LOG).read_text()) == "tokens/s"
    corrected = {f["id"] for f in doc.meta["unit_corrections"]}
    assert len(doc.meta["unit_corrections"]) == 8 and "5.1-0024" in corrected
    # a SingleStream latency row is a latency, not a throughput
    lat = [c for c in results if c.family == "latency"]
    assert len(lat) == 2 and all(c.unit == "s" for c in lat)


def test_real_llmperf_and_log(STRUCT):
    doc = _doc("llmperf-leaderboard/raw_data/summary/groq_70b.json", STRUCT)
    claims = _claims(doc)
    med = [c for c in claims if c.family == "token_throughput" and c.statistic == "median"]
    assert len(med) == 1
    assert (round(med[0].value, 2), med[0].scope, med[0].token_kind, med[0].isl, med[0].osl,
            med[0].concurrency) == (185.05, "per_user", "output", 550, 150, 5)
    p99 = [c for c in claims if c.phase == "ttft" and c.statistic == "p99"]
    assert len(p99) == 1 and round(p99[0].value, 3) == 0.35
    log = _doc(DELL_LOG, STRUCT)
    tput = [c for c in _claims(log) if c.family == "token_throughput"]
    assert [c.surface for c in tput] == ["102906.82"]
    assert log.meta["test_parameters"]["tpot_latency (ns)"] == "30000000"


@pytest.fixture(scope="module")
def real_db(STRUCT, tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("structured_real")
    db = tmp / "x.duckdb"
    proc = run_cli("ingest", str(STRUCT), "--db", str(db), cwd=tmp, check=True)
    assert re.search(r"\b0 errors\b", proc.stdout), proc.stdout
    return db


@pytest.mark.parametrize("headline, code, cited", [
    ("AMD's 8 x MI300X system delivered 27,803.9 tokens/s per system on Llama 2 70B in "
     "MLPerf Inference v5.1 Offline", SUPPORTED, "27803.9"),
    ("Llama 2 70B runs at up to 40,000 tokens/s per system on 8 x MI300X",
     CONTRADICTED, "summary_results_llm.json"),
    # the Queries/s trap: the row's figure is tokens per second, as its run log says
    ("Dell's 8 x B200 server delivered 102,907 tokens/s per system on Llama 3.1 8B in MLPerf "
     "Inference v5.1 Interactive", SUPPORTED, "102907.0"),
    ("Dell's 8 x B200 server handled 102,907 queries/s on Llama 3.1 8B", AMBIGUOUS,
     "mismatch"),
    ("Groq serves llama2-70b-4096 at a median 185 output tokens/s per user",
     SUPPORTED, "groq_70b.json"),
    ("Groq serves llama2-70b-4096 at a median 300 output tokens/s per user",
     CONTRADICTED, "groq_70b.json"),
])
def test_check_on_real_rows(run_cli, real_db, headline, code, cited):
    rc, out = _check(run_cli, real_db, headline)
    assert rc == code, out
    assert cited in out
