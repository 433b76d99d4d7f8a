"""`claims check`: a plain-words claim -> supported / contradicted / unproven / ambiguous.

Two records: the demo corpus (seed 000's documents) and tests/fixtures/check/, small
documents written for these tests. Both are ingested once per module through the real CLI;
the verdicts are then asked of the library (fast) and a few through the CLI (end to end).
"""
from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.check import VERDICTS, check, read_claim

REPO = Path(__file__).resolve().parents[1]
CHECK_FIXTURES = REPO / "tests" / "fixtures" / "check"


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("corpus") / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("check") / "f.duckdb"
    run_cli("ingest", str(CHECK_FIXTURES), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


def _spans_hold(db: str, verdict) -> None:
    """Every evidence figure is found again at its path and character span."""
    con = duckdb.connect(db, read_only=True)
    try:
        for e in verdict.evidence:
            text, = con.execute("SELECT text FROM documents WHERE path = ?", [e.doc_path]).fetchone()
            assert text[e.start:e.end] == e.surface
    finally:
        con.close()


# --- seed 000 over corpus/ ---------------------------------------------------------------

HEADLINE = "Nvidia topped 1,000 tokens a second per user on models above 700B parameters"


def test_reading_the_headline():
    q = read_claim(HEADLINE)
    f = q.figure
    assert (f.value, f.comparator, f.family, f.scope) == (1000, ">", "token_throughput", "per_user")
    assert q.size is not None and q.size.value == 700e9 and q.size.comparator == ">"
    assert "above 700B parameters" in q.reading()


def test_headline_is_unproven_naming_826_and_kimi(corpus_db):
    v = check(HEADLINE, corpus_db)
    assert v.verdict == "unproven"
    assert "826" in v.explanation and "fastest per-user figure" in v.explanation
    assert "Kimi K3" in v.explanation and "62.7" in v.explanation
    surfaces = {e.surface for e in v.evidence}
    assert "826 tokens/s" in surfaces and "62.7 tokens/s/user" in surfaces
    # 954K is a per-GPU figure: never offered as per-user speed
    assert not any("954K" in e.surface for e in v.evidence)
    assert "954" not in v.explanation
    _spans_hold(corpus_db, v)


def test_954k_per_gpu_is_not_per_user_speed(corpus_db):
    v = check("vLLM reached 954K tokens per second per user on DeepSeek-V4.1-Flash", corpus_db)
    assert v.verdict != "supported"
    mism = [e for e in v.evidence if e.relation == "mismatch"]
    assert [e.surface for e in mism] == ["954K tokens/s"] and mism[0].scope == "per_gpu"
    assert "per GPU, not per user" in v.explanation
    v2 = check("vLLM serves DeepSeek-V4.1-Flash at 954K tokens per second per GPU", corpus_db)
    assert v2.verdict == "supported"


def test_revenue_against_price_is_a_label_mismatch(corpus_db):
    v = check("$38 in revenue per GPU hour", corpus_db)
    assert v.verdict == "unproven"
    assert "label mismatch" in v.explanation
    [e] = [e for e in v.evidence if e.relation == "label_mismatch"]
    assert e.surface == "$38.96" and e.doc_path == "vllm-deepseek-v4-1-flash.md"
    assert "off-peak prices" in e.detail and "revenue" in e.detail


def test_engine_left_open_does_not_source_a_credited_figure(corpus_db):
    v = check("SGLang hit 1.09 million tokens per second on DeepSeek-V4.1-Flash", corpus_db)
    assert v.verdict == "unproven"
    assert "per-GPU" in v.explanation           # the denominator the same value has
    [e] = [e for e in v.evidence if e.relation == "partial"]
    assert e.surface == "1,094,347 tok/s" and "no engine" in e.detail


def test_model_size_condition_reads_model_params(corpus_db):
    assert check("A model above 700B parameters topped 60 tokens per second per user",
                 corpus_db).verdict == "supported"          # Kimi K3, 62.7 at 2.8T
    v = check("A model below 600B parameters topped 800 tokens per second per user", corpus_db)
    assert v.verdict == "supported"                          # 826, 552B from the same post
    assert "552B" in v.explanation


# --- own fixtures: every verdict ---------------------------------------------------------

CASES = [
    ("Llama 3.1 405B reached 200 tokens/s per user", "supported", "212"),
    ("Qwen3-32B runs at 90 tokens per second per user on one H100", "contradicted", "140"),
    ("Mixtral 8x22B tops 600 tokens/s per user", "contradicted", "410"),
    ("Some system topped 1,000 tokens per second per user", "unproven", "410"),
    ("Qwen3-32B does 5,000 tokens per second", "ambiguous", "denominator"),
    ("A model served 9,800 tokens/s per GPU", "supported", "9,800"),
    ("A model above 300B parameters reached 200 tokens/s per user", "supported", "405B"),
    ("A model below 100B parameters reached 200 tokens/s per user", "unproven", "Qwen3-32B"),
    ("No model has reached 300 tokens per second per user", "contradicted", "410"),
    ("Llama 3.1 405B is served at 18,000 tokens/s per GPU on 8 x H200", "unproven", "6,100"),
]


@pytest.mark.parametrize("text,verdict,cited", CASES)
def test_fixture_verdicts(fixture_db, text, verdict, cited):
    v = check(text, fixture_db)
    assert v.verdict == verdict, v.explanation
    assert cited in v.explanation
    assert v.explanation.count(".") >= 1
    _spans_hold(fixture_db, v)


def test_every_verdict_occurs(fixture_db):
    seen = {check(text, fixture_db).verdict for text, _, _ in CASES}
    assert seen == set(VERDICTS)


def test_no_denominator_is_ambiguous_unless_a_same_valued_figure_settles_it(fixture_db):
    v = check("Qwen3-32B does 5,000 tokens per second", fixture_db)
    assert v.verdict == "ambiguous" and "no denominator" in v.explanation
    v = check("Qwen3-32B does 140 tokens per second", fixture_db)
    assert v.verdict == "supported"
    assert "per-user" in v.explanation          # the verdict names the denominator it took
    assert v.evidence[0].relation == "supports" and v.evidence[0].scope == "per_user"


def test_bound_below_a_single_operating_point_is_context_not_refutation(fixture_db):
    # 140 per user on Qwen3-32B does not show that more than 150 was never reached
    v = check("Qwen3-32B tops 150 tokens/s per user", fixture_db)
    assert v.verdict == "unproven"
    assert [e.relation for e in v.evidence] == ["context"]


def test_same_number_other_metric(fixture_db):
    v = check("Llama 3.1 405B runs at 9,800 tokens per second per user", fixture_db)
    assert v.verdict == "unproven"
    assert any(e.relation == "mismatch" and e.scope == "per_gpu" for e in v.evidence)


def test_profit_against_list_price(fixture_db):
    v = check("Operators make $2.10 in profit per million tokens on Llama 3.1 405B", fixture_db)
    assert v.verdict == "unproven"
    assert any(e.relation == "label_mismatch" for e in v.evidence)
    assert "not profit" in v.explanation


# --- the command -------------------------------------------------------------------------

def test_cli_json(corpus_db, run_cli):
    p = run_cli("check", HEADLINE, "--db", corpus_db, "--format", "json", cwd=REPO, check=True)
    out = json.loads(p.stdout)
    assert out["verdict"] == "unproven"
    assert set(out) >= {"verdict", "explanation", "evidence"}
    for e in out["evidence"]:
        assert set(e) >= {"id", "doc_path", "page", "surface", "value", "unit", "scope", "relation"}


def test_cli_text_and_errors(corpus_db, run_cli, tmp_path):
    p = run_cli("check", "$38 in revenue per GPU hour", "--db", corpus_db, cwd=REPO, check=True)
    assert p.stdout.startswith("unproven: ")
    assert "label_mismatch" in p.stdout and "vllm-deepseek-v4-1-flash.md [" in p.stdout
    p = run_cli("check", "anything", "--db", str(tmp_path / "none.duckdb"), cwd=REPO)
    assert p.returncode == 2 and p.stderr.startswith("error: no database")
    p = run_cli("check", "no figures in this sentence", "--db", corpus_db, cwd=REPO, check=True)
    assert p.stdout.startswith("ambiguous: No figure")


def test_pdf_evidence_carries_its_page(tmp_path, run_cli):
    """A figure from page 2 of a primary PDF is cited with that page, in check and report."""
    from conftest import write_pdf

    folder = tmp_path / "docs"
    folder.mkdir()
    write_pdf(folder / "bench.pdf", [["Falcon-180B serving notes", "We describe our setup."],
                                     ["We measured Falcon-180B at 88 tokens/s per user",
                                      "on 8 x H100 GPUs."]],
              title="Falcon-180B serving notes", author="Test Lab")
    (folder / "sources.csv").write_text("path,role,publisher,title,url,date\n"
                                        "bench.pdf,primary,Test Lab,,,2027-01-05\n")
    db = str(tmp_path / "p.duckdb")
    run_cli("ingest", str(folder), "--db", db, "-q", cwd=REPO, check=True)
    v = check("Falcon-180B reached 80 tokens per second per user", db)
    assert v.verdict == "supported"
    assert v.evidence[0].page == 2 and v.evidence[0].doc_path == "bench.pdf"
    _spans_hold(db, v)
    out = tmp_path / "out"
    run_cli("report", "--db", db, "-o", str(out), cwd=REPO, check=True)
    assert "p. 2" in (out / "report.html").read_text()
