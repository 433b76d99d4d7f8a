"""Per-GPU and per-node figures derived from MLPerf results (issue 14, items 2 and 4).

An MLPerf result is per system (``a#`` x ``Nodes`` accelerators). The warehouse view
``derived_figures`` divides each per-system throughput result by its accelerators and by
its nodes, marked ``role = 'derived'`` with the row and the divisor; `claims check` uses it
only for a per-GPU or per-node headline, `claims trace` and the report show it as derived.

The view is tested on the hand-written fixture (tests/fixtures/structured/mlperf/); the
checks run the real CLI on a real DuckDB file made from the real MLPerf v5.1 summary in
``../shared/corpus/structured/`` (skipped when absent), with headlines built at run time
from the rows they are about (no row is copied here).
"""
from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

FIX = Path(__file__).resolve().parent / "fixtures" / "structured" / "mlperf" / "summary_results.json"
MLPERF = "mlperf-inference-v5.1/summary_results_llm.json"
SUPPORTED, CONTRADICTED = 0, 3
COLS = "result_id, scenario, scope, divisor, divided_by, value, system_value, mixed, role"


def _count(r: dict) -> int | None:
    """a# x Nodes, as MLPerf defines the system (None without accelerators)."""
    try:
        return int(r["a#"]) * int(r["Nodes"] or 1)
    except (TypeError, ValueError):
        return None


def _sql(run_cli, db: Path, sql: str) -> list[dict]:
    proc = run_cli("sql", sql, "--db", str(db), "--format", "csv", cwd=db.parent, check=True)
    return list(csv.DictReader(io.StringIO(proc.stdout)))


# --- the view, on the hand-written fixture --------------------------------------------------

@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory, run_cli) -> Path:
    tmp = tmp_path_factory.mktemp("derived_fixture")
    (tmp / "in").mkdir()
    shutil.copyfile(FIX, tmp / "in" / FIX.name)
    path = tmp / "w.duckdb"
    run_cli("ingest", str(tmp / "in"), "--db", str(path), "-q", cwd=tmp, check=True)
    return path


def test_view_divides_each_result_by_its_accelerators_and_nodes(fixture_db, run_cli):
    rows = json.loads(FIX.read_text())
    got = _sql(run_cli, fixture_db, f"SELECT {COLS} FROM derived_figures ORDER BY ALL")
    assert got and all(g["role"] == "derived" for g in got)
    by = {(g["result_id"], g["scenario"], g["scope"]): g for g in got}
    for r in rows:
        n, nodes = _count(r), int(r["Nodes"] or 1)
        result = float(r["Performance_Result"])
        gpu = by.get((r["ID"], r["Scenario"], "per_gpu"))
        if n is None:
            # a system without accelerators has no per-accelerator figure
            assert gpu is None, gpu
        else:
            assert gpu is not None, (r["ID"], r["Scenario"], got)
            assert int(gpu["divisor"]) == n and gpu["divided_by"] == "accelerators"
            assert float(gpu["value"]) == pytest.approx(result / n)
            assert float(gpu["system_value"]) == pytest.approx(result)
            assert (gpu["mixed"] == "true") == ("(x" in r["Accelerator"])
        node = by[(r["ID"], r["Scenario"], "per_node")]
        assert int(node["divisor"]) == nodes and node["divided_by"] == "nodes"
        assert float(node["value"]) == pytest.approx(result / nodes)


def test_no_claim_is_derived_and_latency_is_never_divided(fixture_db, run_cli):
    # derived figures are no claims: no stored claim is per GPU in a per-system result file
    got = _sql(run_cli, fixture_db, "SELECT count(*) AS n FROM claims WHERE scope = 'per_gpu'")
    assert got[0]["n"] == "0"
    fams = _sql(run_cli, fixture_db, "SELECT DISTINCT family FROM derived_figures")
    assert {f["family"] for f in fams} <= {"token_throughput", "request_throughput"}


# --- checks, trace and report on the real MLPerf v5.1 summary -------------------------------

@pytest.fixture(scope="module")
def STRUCT(SHARED: Path) -> Path:
    path = SHARED / "corpus" / "structured"
    if not (path / MLPERF).is_file():
        pytest.skip("shared/corpus/structured is missing")
    return path


@pytest.fixture(scope="module")
def rows(STRUCT) -> list[dict]:
    return json.loads((STRUCT / MLPERF).read_text())


@pytest.fixture(scope="module")
def db(STRUCT, tmp_path_factory, run_cli) -> Path:
    tmp = tmp_path_factory.mktemp("derived_real")
    corpus = tmp / "corpus"
    (corpus / MLPERF).parent.mkdir(parents=True)
    shutil.copyfile(STRUCT / MLPERF, corpus / MLPERF)
    path = tmp / "w.duckdb"
    run_cli("ingest", str(corpus), "--db", str(path), "-q", cwd=tmp, check=True)
    return path


def _mi300x(rows: list[dict], scenario: str = "Offline") -> dict:
    """The first llama2-70b-99 tokens/s row of one node of 8 MI300X in ``scenario``."""
    return next(r for r in rows if r["Model"] == "llama2-70b-99" and r["Scenario"] == scenario
                and "MI300X" in r["Accelerator"] and "(x" not in r["Accelerator"]
                and _count(r) == 8 and r["Performance_Units"] == "Tokens/s")


def _check(run_cli, db: Path, headline: str) -> tuple[int, dict]:
    proc = run_cli("check", headline, "--db", str(db), "--format", "json", cwd=db.parent)
    return proc.returncode, json.loads(proc.stdout)


def _ids(ev: list[dict], relation: str) -> set[str]:
    return {e["citation"].split("result ", 1)[1].split(",", 1)[0]
            for e in ev if e["relation"] == relation and e.get("citation")}


def test_faithful_per_gpu_headline_is_supported_as_derived_with_the_row_cited(rows, db, run_cli):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    per_gpu = value / 8
    code, v = _check(run_cli, db, f"{r['Submitter']}'s 8 x MI300X system delivered {per_gpu:,.1f} tokens per second "
                     f"per GPU on Llama 2 70B in MLPerf Inference v5.1 Offline")
    assert code == SUPPORTED, v
    assert "derived" in v["explanation"] and "not an official MLPerf result" in v["explanation"]
    assert f"/ 8 accelerators" in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "supports"), v["evidence"]
    support = next(e for e in v["evidence"] if e["relation"] == "supports")
    assert support["scope"] == "per_gpu" and support["value"] == pytest.approx(per_gpu)
    assert "derived: " in support["detail"]
    # the citation is the row's, as published: per system, never per GPU
    assert f"{value:,} tokens/s per system" in support["citation"]


def test_per_gpu_headline_with_the_whole_system_figure_is_contradicted(rows, db, run_cli):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    code, v = _check(run_cli, db, f"{r['Submitter']}'s 8 x MI300X system delivered {value:,} tokens per second "
                     f"per GPU on Llama 2 70B in MLPerf Inference v5.1 Offline")
    assert code == CONTRADICTED, v
    assert "whole system's figure" in v["explanation"] and "derived" in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "contradicts"), v["evidence"]


def test_per_system_headline_is_still_cited_to_the_row_and_not_derived(rows, db, run_cli):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    code, v = _check(run_cli, db, f"Llama 2 70B reaches {value:,} tokens/s per system on "
                     f"8 x MI300X in MLPerf Inference v5.1 Offline")
    assert code == SUPPORTED, v
    assert "derived" not in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "supports")
    assert all("derived" not in (e["detail"] or "") for e in v["evidence"])


def test_per_node_headline_on_a_multi_node_system(rows, db, run_cli):
    r = max((x for x in rows if x["Model"] == "llama2-70b-99" and x["Scenario"] == "Offline"
             and "(x" not in x["Accelerator"] and _count(x)), key=lambda x: int(x["Nodes"]))
    nodes = int(r["Nodes"])
    assert nodes > 1
    value = float(r["Performance_Result"])
    who = r["Submitter"].split("_")[0]
    code, v = _check(run_cli, db, f"Each node of {who}'s {nodes}-node MLPerf Inference v5.1 "
                     f"system delivered {value:,} tokens per second on Llama 2 70B Offline")
    assert code == CONTRADICTED, v
    assert f"/ {nodes} nodes" in v["explanation"]
    code, v = _check(run_cli, db, f"Each node of {who}'s {nodes}-node MLPerf Inference v5.1 "
                     f"system delivered {value / nodes:,.1f} tokens per second on Llama 2 70B "
                     f"Offline")
    assert code == SUPPORTED, v
    assert "derived" in v["explanation"] and f"/ {nodes} nodes" in v["explanation"]


def test_mixed_accelerators_or_another_version_never_support(rows, db):
    from pipeline.check import check

    mixed = next(r for r in rows if "(x" in r["Accelerator"] and r["Scenario"] == "Offline"
                 and r["Model"] == "llama2-70b-99")
    per = float(mixed["Performance_Result"]) / _count(mixed)
    first = mixed["Accelerator"].split("(x")[0].split()[-3]     # e.g. 'MI300X'
    v = check(f"{mixed['Submitter']}'s {first} GPUs each delivered {per:,.1f} tokens per second "
              f"on Llama 2 70B in MLPerf Inference v5.1 Offline", str(db))
    assert v.verdict != "supported", v.explanation

    r = _mi300x(rows)
    v = check(f"{r['Submitter']}'s 8 x MI300X system delivered {float(r['Performance_Result']) / 8:,.1f} tokens "
              f"per second per GPU on Llama 2 70B in MLPerf v4.1 Offline", str(db))
    assert v.verdict != "supported", v.explanation


def test_trace_and_report_show_the_derived_figure(rows, db, run_cli, tmp_path):
    r = _mi300x(rows)
    value = r["Performance_Result"]
    got = _sql(run_cli, db, "SELECT claim_id, divisor FROM derived_figures WHERE result_id = "
               f"'{r['ID']}' AND scenario = 'Offline' AND scope = 'per_gpu' "
               f"AND benchmark = 'llama2-70b-99'")
    assert len(got) == 1 and got[0]["divisor"] == "8"
    claim = got[0]["claim_id"]
    proc = run_cli("trace", claim, "--db", str(db), cwd=db.parent, check=True)
    want = f"derived: {float(value):,} / 8 accelerators = "
    assert want in proc.stdout and "not an official MLPerf result" in proc.stdout, proc.stdout
    data = json.loads(run_cli("trace", claim, "--db", str(db), "-f", "json", cwd=db.parent,
                              check=True).stdout)
    assert data["claim"]["scope"] == "per_system"         # the result itself stays per system
    assert [d["role"] for d in data["derived"]] == ["derived"]
    assert data["derived"][0]["divisor"] == 8

    out = tmp_path / "rep"
    run_cli("report", "--db", str(db), "-o", str(out), cwd=db.parent, check=True)
    assert want in (out / "report.md").read_text() or any(
        want in p.read_text() for p in (out / "pages").glob("*.md"))
