"""InferenceX (SemiAnalysis) result files as primary documents (structured_inferencex.py).

The fixtures in tests/fixtures/structured/inferencex/ were written by hand from the
documented export schema (configs with hardware, framework, model, precision, spec method,
disagg, prefill/decode parallelism and GPU counts; result rows with date, ISL, OSL,
concurrency, image and a metrics object), with invented figures. No InferenceX file is in
shared/corpus/structured.
"""
from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.ingest import IngestError, ingest_bytes, ingest_file
from pipeline.ingest import structured
from pipeline.ingest.tables import text_tables
from test_structured import _claims, _one

FIX = Path(__file__).resolve().parent / "fixtures" / "structured" / "inferencex"
SUPPORTED, CONTRADICTED = 0, 3


@pytest.mark.parametrize("name", ["results.json", "dump.json", "results.csv", "agg_run.json"])
def test_recognised_by_content(name):
    data = (FIX / name).read_bytes()
    assert structured.kind_of(data[:8192]) == "inferencex"
    # the same bytes under another name are still read as InferenceX
    assert ingest_bytes(data, "export.txt").meta["source_kind"] == "inferencex"


def test_rows_become_claims_with_config_and_conditions():
    doc = ingest_file(FIX / "results.json", FIX)
    assert (doc.publisher, doc.role, doc.published) == ("SemiAnalysis InferenceX", "primary", "2026-03-03")
    claims = _claims(doc)
    c = _one(claims, "611.25")
    assert (c.family, c.unit, c.scope, c.token_kind) == ("token_throughput", "tokens/s", "per_gpu", "total")
    assert (c.model, c.hardware, c.hw_count, c.engine, c.dtype) == \
        ("DeepSeek-R1", "8 x H200", 8, "TensorRT-LLM", "FP8")
    assert (c.isl, c.osl, c.concurrency, c.stance) == (8192, 1024, 64, "asserted")
    assert _one(claims, "67.9").token_kind == "output"
    assert _one(claims, "543.35").token_kind == "input"
    # interactivity: tokens/s per user; p90 and p99 are the slow tail, and the header says so
    med, p90 = _one(claims, "41.49"), _one(claims, "32.05")
    assert (med.scope, med.statistic, p90.scope, p90.statistic) == ("per_user", "median", "per_user", "p90")
    header = next(t for t in text_tables(doc.text) if "Interactivity p90, slow tail (tokens/s per user)" in t.header)
    assert header is not None and "slow tail" in doc.text.split("\n")[2]
    # latencies in seconds with their phase and statistic
    assert (_one(claims, "2.118").phase, _one(claims, "2.118").statistic) == ("ttft", "p99")
    assert (_one(claims, "0.0241").phase, _one(claims, "0.0241").value) == ("tpot", 0.0241)
    assert _one(claims, "33.9").phase == "e2e"
    # std has no statistic in the claims model: never rendered as a bare figure
    assert "| 0.3 |" not in doc.text
    # a config nested under "config", DP attention in the parallelism
    g = _one(claims, "3320.7")
    assert (g.model, g.hardware, g.engine, g.dtype, g.concurrency) == \
        ("gpt-oss-120b", "4 x MI355X", "SGLang", "FP4", 128)


def test_disaggregated_rows_say_which_gpus_divide():
    doc = ingest_file(FIX / "results.json", FIX)
    claims = _claims(doc)
    total = _one(claims, "2904.4")
    # prefill 8 + decode 16 GPUs: the deployment has 24
    assert (total.hardware, total.hw_count, total.scope) == ("24 x GB200", 24, "per_gpu")
    assert total.engine == "Dynamo TensorRT-LLM"
    # output per decode GPU, input per prefill GPU: never a per-GPU figure of the deployment
    for surface in ("479.3", "7755.1"):
        assert _one(claims, surface).scope != "per_gpu"
    assert "Output throughput (tokens/s per decode GPU)" in doc.text


def test_provenance_and_failed_rows():
    doc = ingest_file(FIX / "results.json", FIX)
    rows = doc.meta["rows"]
    assert [r["row"] for r in rows] == ["/0", "/1", "/2"]
    assert doc.meta["rows_failed"] == [{"row": "/3", "error": "server crashed"}]
    first = rows[0]
    assert first["cells"]["Total throughput (tokens/s per GPU)"] == "/0/metrics/tput_per_gpu"
    assert (first["hardware"], first["gpus"], first["run_url"]) == ("h200", 8, "https://example.invalid/runs/1")
    line = doc.text[first["start"]:first["end"]]
    assert line.startswith("| 2026-03-01 | DeepSeek-R1-0528 (dsr1) | 8 x H200 (h200) |")
    claim = _one(_claims(doc), "611.25")
    assert claim.sentence_start == first["start"]


def test_dump_tables_are_joined_on_config_id():
    doc = ingest_file(FIX / "dump.json", FIX)
    c = _one(_claims(doc), "2288.6")
    assert (c.model, c.hardware, c.engine, c.concurrency) == ("Llama 3.3 70B", "2 x B200", "vLLM", 32)
    assert doc.meta["rows"][0]["cells"]["Total throughput (tokens/s per GPU)"] == \
        "/benchmark_results/0/metrics/tput_per_gpu"
    assert doc.meta["rows"][0]["config_id"] == "7"


def test_csv_rows_keep_their_column_names():
    doc = ingest_file(FIX / "results.csv", FIX)
    c = _one(_claims(doc), "1234.56")
    assert (c.hardware, c.scope, c.isl) == ("8 x MI300X", "per_gpu", 1024)
    assert doc.meta["rows"][0]["row"] == "line 2"
    assert doc.meta["rows"][0]["cells"]["TTFT p99 (s)"] == "p99_ttft"


def test_the_per_run_file_of_a_benchmark_job():
    """One flat object (hw, tp, conc, metrics at the top): the GPU count is the TP size."""
    doc = ingest_file(FIX / "agg_run.json", FIX)
    assert doc.meta["shape"] == "one result" and doc.meta["rows"][0]["row"] == "/"
    claims = _claims(doc)
    c = _one(claims, "402.73")
    assert (c.model, c.hardware, c.hw_count, c.engine, c.scope, c.concurrency) == \
        ("DeepSeek-R1", "8 x MI325X", 8, "SGLang", "per_gpu", 16)
    assert (_one(claims, "15.02").statistic, _one(claims, "15.02").scope) == ("p99", "per_user")
    assert doc.meta["rows"][0]["cells"]["TTFT p99 (s)"] == "/p99_ttft"


def _dump(**change) -> bytes:
    data = json.loads((FIX / "dump.json").read_text())
    for key, value in change.items():
        data["benchmark_results"][0][key] = value
    return json.dumps(data).encode()


@pytest.mark.parametrize("data, message", [
    (_dump(config_id=99), r"config_id '?99'? is not among the configs"),
    (_dump(metrics={"tput_per_gpu": "fast", "median_ttft": 0.1}), r"metric tput_per_gpu is 'fast', not a number"),
    (_dump(error="OOM"), r"all 1 rows failed"),
    (b'[{"hardware": "h100", "isl": 1, "osl": 2, "metrics": {"tput_per_gpu": 5}}]',
     r"/0: no hardware or model"),
    (b'[{"model": "dsr1", "hardware": "h100", "isl": 1, "conc": 2, "tput_per_gpu": 5}, 7]',
     r"/1 is str, not an object"),
])
def test_broken_files_give_one_clear_error(data, message):
    with pytest.raises(IngestError, match=message):
        ingest_bytes(data, "results.json")


@pytest.fixture(scope="module")
def ix_db(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("inferencex")
    corpus = tmp / "corpus"
    corpus.mkdir()
    for f in FIX.iterdir():
        (corpus / f.name).write_bytes(f.read_bytes())
    # a data file that is no result: skipped with its reason, not an error
    (corpus / "package.json").write_text('{"name": "site", "dependencies": {}}')
    db = tmp / "x.duckdb"
    proc = run_cli("ingest", str(corpus), "--db", str(db), cwd=tmp, check=True)
    assert "0 errors" in proc.stdout and "1 skipped (unsupported)" in proc.stdout, proc.stdout
    assert "skipped: package.json: not a benchmark result file" in proc.stdout
    return db


def test_cli_stores_every_row(ix_db):
    con = duckdb.connect(str(ix_db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM ingest_errors").fetchone() == (0,)
        docs = con.execute("SELECT path, role FROM documents ORDER BY path").fetchall()
        assert docs == [("agg_run.json", "primary"), ("dump.json", "primary"),
                        ("results.csv", "primary"), ("results.json", "primary")]
        n = con.execute("SELECT count(*) FROM claims c JOIN documents d ON d.id = c.doc_id "
                        "WHERE d.path = 'results.json'").fetchone()[0]
        assert n == 28            # 16 + 6 + 6 figures of the three rows that ran
    finally:
        con.close()


@pytest.mark.parametrize("headline, code, cited", [
    ("DeepSeek-R1 on 8 x H200 with TensorRT-LLM delivers 611.25 tokens/s per GPU", SUPPORTED, "611.25"),
    ("gpt-oss-120b on MI355X with SGLang reaches a median 88 tokens/s per user", SUPPORTED, "88.12"),
    ("gpt-oss-120b on MI355X with SGLang reaches a median 120 tokens/s per user", CONTRADICTED, "88.12"),
])
def test_check_against_inferencex_rows(run_cli, ix_db, headline, code, cited):
    proc = run_cli("check", headline, "--db", str(ix_db), cwd=ix_db.parent)
    assert proc.returncode == code, proc.stdout
    assert cited in proc.stdout and "SemiAnalysis InferenceX" in proc.stdout
