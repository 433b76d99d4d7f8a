"""Per-GPU and per-node figures derived from MLPerf results (issue 14, items 2 and 4).

An MLPerf result is per system (``a#`` x ``Nodes`` accelerators). The warehouse view
``derived_figures`` divides each per-system throughput result by its accelerators and by
its nodes, marked ``role = 'derived'`` with the row and the divisor; `claims check` uses it
only for a per-GPU or per-node headline, and the verdicts on stored secondary figures
(`claims trace`, the report, `claims serve`) by the same rule; an evidence figure that is
derived says so (``Evidence.derived``); `claims serve` lists them on a page.

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

from serve_kit import base, chrome  # noqa: F401 (fixtures)

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


def _mi300x(rows: list[dict], scenario: str = "Offline") -> dict:
    """The first llama2-70b-99 tokens/s row of one node of 8 MI300X in ``scenario``."""
    return next(r for r in rows if r["Model"] == "llama2-70b-99" and r["Scenario"] == scenario
                and "MI300X" in r["Accelerator"] and "(x" not in r["Accelerator"]
                and _count(r) == 8 and r["Performance_Units"] == "Tokens/s")


def _per_gpu_line(r: dict, value: float) -> str:
    """A sentence crediting ``r``'s 8 x MI300X system with ``value`` tokens/s per GPU."""
    return (f"{r['Submitter']}'s 8 x MI300X system delivered {value:,.1f} tokens per second "
            f"per GPU on Llama 2 70B in MLPerf Inference v5.1 Offline.")


@pytest.fixture(scope="module")
def blog(rows) -> dict[str, str]:
    """The secondary figures the blog of the ``db`` warehouse states, written at run time from
    the row they are about: its per-GPU figure faithfully (the derived figure) and with the
    whole system's figure."""
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    return {"faithful": _per_gpu_line(r, value / 8), "whole": _per_gpu_line(r, value),
            # the same number with no subject: says only that *some* system reached it
            "bare": f"One team reached {value / 8:,.1f} tokens per second per GPU."}


@pytest.fixture(scope="module")
def db(STRUCT, blog, tmp_path_factory, run_cli) -> Path:
    tmp = tmp_path_factory.mktemp("derived_real")
    corpus = tmp / "corpus"
    (corpus / MLPERF).parent.mkdir(parents=True)
    shutil.copyfile(STRUCT / MLPERF, corpus / MLPERF)
    (corpus / "blog.md").write_text(f"# The MLPerf round\n\n{blog['faithful']}\n\n"
                                    f"{blog['whole']}\n", encoding="utf-8")
    # a document of its own: the blog's title and sentences would lend it their subject
    (corpus / "roundup.md").write_text(f"# Weekly roundup\n\n{blog['bare']}\n", encoding="utf-8")
    (corpus / "sources.csv").write_text("path,role\nblog.md,secondary\nroundup.md,secondary\n",
                                        encoding="utf-8")
    path = tmp / "w.duckdb"
    run_cli("ingest", str(corpus), "--db", str(path), "-q", cwd=tmp, check=True)
    return path


def _blog_claim(run_cli, db: Path, sentence: str) -> str:
    """The id of the per-GPU figure of a secondary document in ``sentence``."""
    got = _sql(run_cli, db, "SELECT c.id, c.sentence FROM claims c JOIN documents d ON d.id = "
               "c.doc_id WHERE d.role = 'secondary' AND c.scope = 'per_gpu'")
    hits = [g["id"] for g in got if g["sentence"].strip() == sentence]
    assert len(hits) == 1, (sentence, got)
    return hits[0]


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
    headline = (f"{r['Submitter']}'s 8 x MI300X system delivered {per_gpu:,.1f} tokens per "
                f"second per GPU on Llama 2 70B in MLPerf Inference v5.1 Offline")
    code, v = _check(run_cli, db, headline)
    assert code == SUPPORTED, v
    assert "derived" in v["explanation"] and "not an official MLPerf result" in v["explanation"]
    assert f"/ 8 accelerators" in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "supports"), v["evidence"]
    support = next(e for e in v["evidence"] if e["relation"] == "supports")
    assert support["scope"] == "per_gpu" and support["value"] == pytest.approx(per_gpu)
    # the evidence says it is derived, and from what (JSON: `derived`)
    assert support["derived"].startswith(f"derived: {value:,} / 8 accelerators = ")
    assert "not an official MLPerf result" in support["derived"]
    # the citation is the row's, as published: per system, never per GPU
    assert f"{value:,} tokens/s per system" in support["citation"]
    # the printed verdict says it under the evidence figure
    text = run_cli("check", headline, "--db", str(db), cwd=db.parent).stdout
    assert f"derived: {value:,} / 8 accelerators = " in text.split("evidence:", 1)[1], text


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


# --- stored secondary figures: the same rule in trace, the report and serve -----------------

def _trace(run_cli, db: Path, cid: str) -> dict:
    return json.loads(run_cli("trace", cid, "--db", str(db), "-f", "json", cwd=db.parent,
                              check=True).stdout)


def test_stored_per_gpu_figure_is_judged_against_the_derived_figure(rows, blog, db, run_cli):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    cid = _blog_claim(run_cli, db, blog["faithful"])
    v = _trace(run_cli, db, cid)["verdict"]
    assert v["verdict"] == "supported", v
    assert "derived" in v["explanation"] and "not an official MLPerf result" in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "supports"), v["evidence"]
    support = [e for e in v["evidence"] if e["relation"] == "supports"]
    assert all(e["derived"].startswith(f"derived: {value:,} / 8 accelerators = ") for e in support)
    # one rule: `claims check` of the same sentence rests on the same derived figures
    code, checked = _check(run_cli, db, blog["faithful"])
    assert code == SUPPORTED and checked["verdict"] == v["verdict"]
    assert {e["id"] for e in checked["evidence"]} == {e["id"] for e in v["evidence"]}
    text = run_cli("trace", cid, "--db", str(db), cwd=db.parent, check=True).stdout
    check_part = text.split("  check      ", 1)[1]
    assert check_part.startswith("supported: Supported by a derived figure"), text
    assert f"derived: {value:,} / 8 accelerators = " in check_part


def test_stored_per_gpu_figure_that_is_the_whole_systems_is_contradicted(rows, blog, db, run_cli):
    r = _mi300x(rows)
    v = _trace(run_cli, db, _blog_claim(run_cli, db, blog["whole"]))["verdict"]
    assert v["verdict"] == "contradicted", v
    assert "whole system's figure" in v["explanation"] and "derived" in v["explanation"]
    assert r["ID"] in _ids(v["evidence"], "contradicts"), v["evidence"]


def test_stored_figure_without_a_subject_is_not_settled_by_derived_figures(blog, db, run_cli):
    # `claims check` reads such a headline as "some system reached it"; a figure in an
    # article that names no subject is never linked to a primary figure, nor judged by one
    v = _trace(run_cli, db, _blog_claim(run_cli, db, blog["bare"]))["verdict"]
    assert v["verdict"] != "supported", v
    assert "derived figure" not in v["explanation"]
    assert not any(e.get("derived") for e in v["evidence"])


def test_report_lists_the_derived_support_among_figures_no_primary_contains(rows, blog, db,
                                                                             run_cli, tmp_path):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    out = tmp_path / "rep"
    run_cli("report", "--db", str(db), "-o", str(out), cwd=db.parent, check=True)
    md = (out / "report.md").read_text()
    cov = md.split("## Figures no primary document contains", 1)[1].split("\n## ", 1)[0]
    items = ["- **" + x for x in cov.split("\n- **")[1:]]
    figure = f"{value / 8:,.1f} tokens per second"
    [item] = [x for x in items if f"**{figure}**" in x.split("\n", 1)[0]
              and "`blog.md [" in x.split("\n", 1)[0]]
    assert item.startswith("- **SUPPORTED**"), item
    assert "Supported by a derived figure" in item
    assert f"(derived: {value:,} / 8 accelerators = " in item and "not an official MLPerf" in item
    html = (out / "report.html").read_text()
    assert f"derived: {value:,} / 8 accelerators = " in html


@pytest.fixture(scope="module")
def warehouse(db) -> Path:
    """The warehouse `claims serve` shows (serve_kit's ``base``)."""
    return db


def test_serve_lists_derived_figures_and_marks_derived_evidence(rows, blog, db, base, chrome,
                                                                 run_cli):
    r = _mi300x(rows)
    value = float(r["Performance_Result"])
    division = f"derived: {value:,} / 8 accelerators = "
    n = int(_sql(run_cli, db, "SELECT count(*) AS n FROM derived_figures WHERE divisor > 1")[0]["n"])
    context = chrome.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # the page of derived figures, each with the per-system result and row it comes from
        page.goto(base + "/views/derived_figures")
        assert page.inner_text("#total") == f"{n:,}" and n > 0
        assert page.locator("tr.derived-figure").count() == min(n, 50)
        assert all("not an official MLPerf result" in t
                   for t in page.locator("tr.derived-figure td:first-child").all_inner_texts())
        for _ in range(-(-n // 50)):
            row = page.locator("tr.derived-figure", has_text=division).filter(
                has_text=f"result {r['ID']}, llama2-70b-99, Offline")
            if row.count():
                break
            page.click("a[rel=next]")
        assert row.count() == 1
        # linked to the per-system result, its figure as the file writes it
        assert float(row.locator("a.claim").inner_text().replace(",", "")) == value
        # its per-system result's trace shows the derived figure beside it
        row.locator("a.claim").click()
        page.wait_for_selector("#derived-per_gpu")
        assert page.inner_text("#derived-per_gpu").startswith(division)
        # the blog's per-GPU figure: checked against the derived figure, marked derived
        page.goto(f"{base}/claims/{_blog_claim(run_cli, db, blog['faithful'])}")
        assert page.inner_text("#verdict .verdict").lower() == "supported"
        marks = page.locator("#verdict table.evidence .derived").all_inner_texts()
        assert marks and all(m.startswith(division) for m in marks)
        # and the check box gives what `claims check` gives
        page.goto(base + "/check")
        page.fill("#headline", blog["faithful"])
        page.click("#check-button")
        page.wait_for_selector("#verdict")
        want = _check(run_cli, db, blog["faithful"])[1]
        assert page.inner_text("#verdict .explanation") == want["explanation"]
        assert page.locator("#verdict table.evidence .derived").count() == \
            sum(bool(e["derived"]) for e in want["evidence"]) > 0
        assert errors == []
    finally:
        context.close()


# --- InferenceX: published per GPU, no per-system figure derived -----------------------------

IX = FIX.parent.parent / "inferencex" / "results.json"


def test_inferencex_rows_give_no_derived_figure_and_a_per_system_headline_stays_unproven(
        tmp_path, run_cli):
    (tmp_path / "in").mkdir()
    shutil.copyfile(IX, tmp_path / "in" / IX.name)
    db = tmp_path / "x.duckdb"
    run_cli("ingest", str(tmp_path / "in"), "--db", str(db), "-q", cwd=tmp_path, check=True)
    assert _sql(run_cli, db, "SELECT count(*) AS n FROM derived_figures")[0]["n"] == "0"
    # the first row of one aggregated deployment whose GPU count the row states
    r = next(x for x in json.loads(IX.read_text()) if "tput_per_gpu" in x.get("metrics", {})
             and not x.get("disagg") and x.get("num_prefill_gpu"))
    n, per_gpu = int(r["num_prefill_gpu"]), r["metrics"]["tput_per_gpu"]
    about = f"DeepSeek-R1 on {n} x H200 with TensorRT-LLM"
    assert (r["model"], r["hardware"], r["framework"]) == ("dsr1", "h200", "trt")
    code, v = _check(run_cli, db, f"{about} delivers {per_gpu * n:,.2f} tokens/s per system")
    assert v["verdict"] == "unproven" and "derived" not in v["explanation"], v
    assert not any(e.get("derived") for e in v["evidence"])
    code, v = _check(run_cli, db, f"{about} delivers {per_gpu:,} tokens/s per GPU")
    assert code == SUPPORTED, v
