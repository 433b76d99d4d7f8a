"""A user's own results through a mapping file (structured_mapping.py, `claims ingest --mapping`).

The CSV/JSON files and mappings here are written by each test (invented figures); the real
files of shared/corpus/structured are read through mappings at run time, and the headline
checked against one of them is built from the value read there (no row is copied here).
"""
from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.ingest import IngestError, ingest_bytes, ingest_file
from pipeline.ingest import structured_mapping as sm
from test_structured import STRUCT, _claims, _one, survives_damage  # noqa: F401  (STRUCT: a fixture)

SUPPORTED, CONTRADICTED = 0, 3

WIDE_CSV = """run,gpu_type,gpus,backend,model_name,dtype,in_len,out_len,users,out_tps_gpu,ttft_p99_ms
1,H100,8,vllm,Llama-3.1-70B,FP8,1024,256,32,1450.2,812.5
2,H100,8,sglang,Llama-3.1-70B,FP8,1024,256,32,1512.9,790.1
3,H100,8,sglang,Llama-3.1-70B,FP8,1024,256,64,,1204.0
"""
# the mapping of a sweep CSV (also what benchmarks/bench_structured.py reads its CSV with)
WIDE_MAP = (Path(__file__).resolve().parent / "fixtures" / "structured" / "mapping" / "sweep.toml").read_text()


def _mapping(tmp_path: Path, text: str, name: str = "map.toml") -> sm.Mapping:
    path = tmp_path / name
    path.write_text(text)
    return sm.load(path)


# --- the mapping file ------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("[columns\nmodel = 'm'", r"not valid TOML"),
    ("[colums]\nmodel = 'm'\n[[value]]\ncolumn = 'v'\nunit = 's'", r"unknown section 'colums'"),
    ("[columns]\ngpu = 'g'\n[[value]]\ncolumn = 'v'\nunit = 's'", r"\[columns\]: unknown field 'gpu'"),
    ("[columns]\nmodel = 'm'", r"no \[\[value\]\] entry"),
    ("[[value]]\ncolumn = 'v'\nunit = 'furlongs/s'", r"\[\[value\]\] 1 \(column 'v'\): unknown unit 'furlongs/s'"),
    ("[[value]]\ncolumn = 'v'", r"give exactly one of unit"),
    ("[[value]]\ncolumn = 'v'\nunit = 's'\nunit_column = 'u'", r"give exactly one of unit"),
    ("[[value]]\ncolumn = 'v'\nunit = 'tokens/s'\nscope = 'per_rack'", r"scope 'per_rack' is not one of per_gpu"),
    ("[[value]]\ncolumn = 'v'\nunit = 'tokens/s'\nstatistic = 'p42'", r"statistic 'p42' is not one of"),
    ("[[value]]\ncolumn = 'v'\nunit = 'tok/s/user'\nscope = 'per_gpu'", r"disagree"),
    ("[[value]]\ncolumn = 'v'\nunits = 's'", r"unknown key 'units'"),
    ("[columns]\nmodel = 'm'\n[fixed]\nmodel = 'x'\n[[value]]\ncolumn = 'v'\nunit = 's'", r"both a column and fixed"),
    ("columns = 'model'\n[[value]]\ncolumn = 'v'\nunit = 's'", r"columns must be a table"),
    ("value = 3", r"value must be a table"),
])
def test_bad_mappings_are_refused_with_what_to_fix(tmp_path, text, message):
    with pytest.raises(sm.MappingError, match=message):
        _mapping(tmp_path, text)


def test_a_unit_may_carry_its_denominator(tmp_path):
    m = _mapping(tmp_path, "[[value]]\ncolumn = 'v'\nunit = 'tok/s/user'\n"
                           "[columns]\nsettings = ['notes']")
    assert (m.values[0].unit, m.values[0].scope, m.settings) == ("tok/s", "per_user", ("notes",))


# --- rendering and claims --------------------------------------------------------------------

def test_wide_csv_rows_become_claims(tmp_path):
    m = _mapping(tmp_path, WIDE_MAP)
    with sm.using(m):
        doc = ingest_bytes(WIDE_CSV.encode(), "sweep.csv")
    assert doc.meta["source_kind"] == "mapped"
    assert (doc.title, doc.publisher, doc.published, doc.role) == \
        ("Our Llama 70B sweep", "Example Lab", "2026-02-01", "primary")
    claims = _claims(doc)
    c = _one(claims, "1450.2")
    assert (c.family, c.unit, c.scope, c.token_kind) == ("token_throughput", "tokens/s", "per_gpu", "output")
    assert (c.model, c.hardware, c.hw_count, c.engine, c.dtype, c.isl, c.osl, c.concurrency) == \
        ("Llama 3.1 70B", "8 x H100", 8, "vLLM", "FP8", 1024, 256, 32)
    t = _one(claims, "812.5")
    assert (t.family, t.value, t.phase, t.statistic) == ("latency", pytest.approx(0.8125), "ttft", "p99")
    assert _one(claims, "1512.9").engine == "SGLang"
    # an empty cell is no figure; the row's other figure stands
    assert _one(claims, "1204.0").concurrency == 64
    assert len(claims) == 5
    rows = doc.meta["rows"]
    assert [r["row"] for r in rows] == ["line 2", "line 3", "line 4"]
    assert rows[0]["cells"] == {"Output throughput (tokens/s per GPU)": "out_tps_gpu",
                                "TTFT latency p99 (ms)": "ttft_p99_ms"}
    assert doc.meta["mapping_digest"] == m.digest()


def test_the_latest_row_date_dates_the_document(tmp_path):
    m = _mapping(tmp_path, "[columns]\nmodel = 'm'\ndate = 'day'\n[[value]]\ncolumn = 'v'\nunit = 'tok/s'\n")
    with sm.using(m):
        doc = ingest_bytes(b"m,day,v\nLlama 3.1 8B,2025-11-02,10\nLlama 3.1 8B,2025-12-24T08:00:00,11\n", "d.csv")
    assert (doc.published, doc.meta["published_source"]) == ("2025-12-24", "latest row date")


def test_long_table_takes_unit_metric_and_statistic_from_columns(tmp_path):
    m = _mapping(tmp_path, """
[fixed]
model = "Mistral 7B"
hardware = "L40S"
count = 1
engine = "TGI"
[[value]]
column = "value"
unit_column = "unit"
metric_column = "metric"
statistic_column = "stat"
""")
    data = ("metric,stat,value,unit\n"
            "TTFT,median,41.5,ms\n"
            "TTFT,p99,97.25,ms\n"
            "output throughput,mean,88.4,tok/s/user\n")
    with sm.using(m):
        doc = ingest_bytes(data.encode(), "long.csv")
    claims = _claims(doc)
    med, p99, thr = _one(claims, "41.5"), _one(claims, "97.25"), _one(claims, "88.4")
    assert (med.phase, med.statistic, med.value) == ("ttft", "median", pytest.approx(0.0415))
    assert (p99.statistic, p99.hardware, p99.engine) == ("p99", "1 x L40S", "TGI")
    assert (thr.scope, thr.statistic, thr.token_kind, thr.model) == ("per_user", "mean", "output", "Mistral 7B")
    # a row with a unit the extractor does not read is one error naming the row
    with sm.using(m), pytest.raises(IngestError, match=r"line 3: unit 'furlongs' \(column 'unit'\)"):
        ingest_bytes((data.replace("97.25,ms", "97.25,furlongs")).encode(), "long.csv")


def test_json_rows_by_pointer_and_dotted_columns(tmp_path):
    m = _mapping(tmp_path, """
[source]
rows = "/runs"
[columns]
model = "model"
hardware = "system.gpu"
count = "system.n"
[[value]]
column = "perf.req_s"
unit = "req/s"
""")
    data = {"meta": {"tool": "x"}, "runs": [
        {"model": "Qwen2.5-7B", "system": {"gpu": "A100", "n": 2}, "perf": {"req_s": 12.75}},
        {"model": "Qwen2.5-7B", "system": {"gpu": "A100", "n": 4}, "perf": {"req_s": 23.5}}]}
    with sm.using(m):
        doc = ingest_bytes(json.dumps(data).encode(), "runs.json")
    claims = _claims(doc)
    c = _one(claims, "23.5")
    assert doc.published is None          # no [source] published, no date column
    assert (c.family, c.hardware, c.hw_count) == ("request_throughput", "4 x A100", 4)
    assert [r["row"] for r in doc.meta["rows"]] == ["/runs/0", "/runs/1"]


@pytest.mark.parametrize("data, message", [
    (WIDE_CSV.replace("gpu_type", "gpu"), r"names column 'gpu_type' that the file does not have \(its columns: run, gpu,"),
    (WIDE_CSV.replace("1450.2", "fast"), r"line 2: column 'out_tps_gpu' holds 'fast', not a number"),
    (WIDE_CSV.replace(",812.5", ""), r"line 2: 10 fields where the header names 11"),
])
def test_files_the_mapping_does_not_fit_give_one_error(tmp_path, data, message):
    with sm.using(_mapping(tmp_path, WIDE_MAP)), pytest.raises(IngestError, match=message):
        ingest_bytes(data.encode(), "sweep.csv")


# --- Parquet ---------------------------------------------------------------------------------

def _parquet(path: Path, csv_text: str) -> Path:
    """``csv_text`` written as a Parquet file (numbers typed by pyarrow's CSV reader)."""
    import io

    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    pq.write_table(pcsv.read_csv(io.BytesIO(csv_text.encode())), path)
    return path


def test_parquet_through_a_mapping(tmp_path):
    data = _parquet(tmp_path / "sweep.parquet", WIDE_CSV).read_bytes()
    with pytest.raises(IngestError, match=r"Parquet file: read it through a mapping"):
        ingest_bytes(data, "sweep.parquet")
    with sm.using(_mapping(tmp_path, WIDE_MAP)):
        doc = ingest_bytes(data, "sweep.parquet")
        assert doc.meta["source_kind"] == "mapped_parquet"
        claims = _claims(doc)
        c = _one(claims, "1450.2")
        assert (c.scope, c.hardware, c.engine, c.concurrency) == ("per_gpu", "8 x H100", "vLLM", 32)
        assert len(claims) == 5                      # the empty cell is no figure
        assert [r["row"] for r in doc.meta["rows"]] == ["row 1", "row 2", "row 3"]
        with pytest.raises(IngestError, match=r"Parquet file not readable"):
            ingest_bytes(data[:len(data) // 2], "sweep.parquet")
        other = _parquet(tmp_path / "other.parquet", WIDE_CSV.replace("backend", "engine")).read_bytes()
        with pytest.raises(IngestError, match=r"names column 'backend' that the file does not have"):
            ingest_bytes(other, "other.parquet")


# --- through the real CLI --------------------------------------------------------------------

def test_cli_refuses_a_bad_mapping_before_reading(tmp_path, run_cli):
    (tmp_path / "sweep.csv").write_text(WIDE_CSV)
    (tmp_path / "map.toml").write_text(WIDE_MAP.replace('unit = "ms"', 'unit = "furlongs"'))
    db = tmp_path / "x.duckdb"
    proc = run_cli("ingest", str(tmp_path / "sweep.csv"), "--mapping", str(tmp_path / "map.toml"),
                   "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "unknown unit 'furlongs'" in proc.stderr and proc.stderr.count("error:") == 1
    assert not db.exists()


def test_cli_mapping_folder_ingest_and_check(tmp_path, run_cli):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "sweep.csv").write_text(WIDE_CSV)
    # a result file with a broken column is an error; an unrelated data file is skipped
    (corpus / "sweep_old.csv").write_text(WIDE_CSV.replace("gpu_type", "gpu_kind"))
    (corpus / "notebook.csv").write_text("epoch,loss\n1,0.5\n")
    # the same sweep as Parquet is read through the mapping too; a Parquet of other columns is skipped
    _parquet(corpus / "sweep.parquet", WIDE_CSV)
    _parquet(corpus / "weights.parquet", "layer,norm\n1,0.5\n")
    mapping = tmp_path / "map.toml"
    mapping.write_text(WIDE_MAP)
    db = tmp_path / "x.duckdb"
    proc = run_cli("ingest", str(corpus), "--mapping", str(mapping), "--db", str(db), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "2 new" in proc.stdout and "1 errors" in proc.stdout and "2 skipped (unsupported)" in proc.stdout
    assert "skipped: notebook.csv: not a benchmark result file: it has none of the columns" in proc.stdout
    assert "skipped: weights.parquet: not a benchmark result file" in proc.stdout
    assert "error: sweep_old.csv: the mapping" in proc.stderr and "'gpu_type'" in proc.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT path FROM ingest_errors").fetchall() == [("sweep_old.csv",)]
        assert con.execute("SELECT path FROM documents ORDER BY path").fetchall() == \
            [("sweep.csv",), ("sweep.parquet",)]
        assert con.execute("SELECT count(*) FROM claims").fetchone() == (10,)
    finally:
        con.close()
    ok = run_cli("check", "Llama 3.1 70B on 8 x H100 with vLLM reaches 1,450 output tokens/s per GPU",
                 "--db", str(db), cwd=tmp_path)
    assert ok.returncode == SUPPORTED and "1450.2" in ok.stdout, ok.stdout
    bad = run_cli("check", "Llama 3.1 70B on 8 x H100 with vLLM reaches 2,900 output tokens/s per GPU",
                  "--db", str(db), cwd=tmp_path)
    assert bad.returncode == CONTRADICTED and "1450.2" in bad.stdout, bad.stdout

    # a changed mapping makes the file current no longer: it is read again, not skipped
    mapping.write_text(WIDE_MAP.replace('unit = "ms"', 'unit = "s"'))
    again = run_cli("ingest", str(corpus / "sweep.csv"), "--mapping", str(mapping), "--db", str(db),
                    cwd=tmp_path, check=True)
    assert "0 skipped (unchanged)" in again.stdout, again.stdout
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT c.value FROM claims c JOIN documents d ON d.id = c.doc_id "
                           "WHERE c.surface = '812.5' AND d.path = 'sweep.csv'").fetchone() == (812.5,)
    finally:
        con.close()


# --- the real files through mappings ---------------------------------------------------------

LLMPERF_MAP = """
[columns]
model = "model"
provider = "framework"
concurrency = "num_concurrent_requests"

[[value]]
column = "results_request_output_throughput_token_per_s_quantiles_p50"
unit = "tokens/s"
scope = "per_user"
tokens = "output"
statistic = "median"

[[value]]
column = "results_ttft_s_quantiles_p99"
unit = "s"
phase = "ttft"
statistic = "p99"
"""


def test_real_llmperf_file_through_a_mapping_and_check(STRUCT, tmp_path, run_cli):
    src = STRUCT / "llmperf-leaderboard" / "raw_data" / "summary" / "groq_70b.json"
    raw = json.loads(src.read_text())
    mapping = tmp_path / "llmperf.toml"
    mapping.write_text(LLMPERF_MAP)
    with sm.using(sm.load(mapping)):
        doc = ingest_file(src, src.parent)
    claims = _claims(doc)
    speed = [c for c in claims if c.family == "token_throughput"]
    assert len(speed) == 1 and speed[0].value == pytest.approx(
        float(raw["results_request_output_throughput_token_per_s_quantiles_p50"]))
    assert (speed[0].scope, speed[0].statistic, speed[0].concurrency) == \
        ("per_user", "median", float(raw["num_concurrent_requests"]))
    ttft = [c for c in claims if c.phase == "ttft"]
    assert len(ttft) == 1 and ttft[0].value == pytest.approx(float(raw["results_ttft_s_quantiles_p99"]))
    assert doc.meta["rows"][0]["row"] == "/"

    db = tmp_path / "x.duckdb"
    run_cli("ingest", str(src), "--mapping", str(mapping), "--db", str(db), cwd=tmp_path, check=True)
    v = float(raw["results_request_output_throughput_token_per_s_quantiles_p50"])
    model = raw["model"].split("/")[-1]
    ok = run_cli("check", f"Groq serves {model} at a median {v:.1f} output tokens/s per user",
                 "--db", str(db), cwd=tmp_path)
    assert ok.returncode == SUPPORTED and "groq_70b.json" in ok.stdout, ok.stdout
    bad = run_cli("check", f"Groq serves {model} at a median {v * 1.6:.1f} output tokens/s per user",
                  "--db", str(db), cwd=tmp_path)
    assert bad.returncode == CONTRADICTED and "groq_70b.json" in bad.stdout, bad.stdout


def test_real_mlperf_file_with_units_no_claim_reads_is_one_clear_error(STRUCT, tmp_path):
    """MLPerf's own rows through a naive mapping: the unit column holds 'Samples/s', which
    no claim unit is; the error names the row and the unit, and nothing is read half."""
    src = STRUCT / "mlperf-inference-v5.1" / "summary_results_llm.json"
    raw = json.loads(src.read_text())
    first = next(i for i, r in enumerate(raw) if r["Performance_Units"] not in ("Tokens/s", "Queries/s"))
    m = _mapping(tmp_path, """
[columns]
model = "Model"
hardware = "Accelerator"
count = "a#"
[[value]]
column = "Performance_Result"
unit_column = "Performance_Units"
""")
    with sm.using(m), pytest.raises(IngestError) as err:
        ingest_file(src, src.parent)
    assert f"/{first}: unit {raw[first]['Performance_Units']!r}" in str(err.value)


def test_damaged_mapped_files_fail_cleanly(tmp_path):
    """Cut, flipped and spliced copies of a mapped CSV and JSON: a Document or one IngestError."""
    import random

    rng = random.Random(14)
    m = _mapping(tmp_path, WIDE_MAP)
    rows = [dict(zip(WIDE_CSV.splitlines()[0].split(","), line.split(",")))
            for line in WIDE_CSV.splitlines()[1:]]
    splices = [b'"a":{"b":1},', b"\n\n", b",,,", b"1e999", b"null"]
    with sm.using(m):
        survives_damage(WIDE_CSV.encode(), "sweep.csv", rng, splices, 60)
        survives_damage(json.dumps(rows).encode(), "sweep.json", rng, splices, 60)
