"""Comparisons read as what they are (docs/claims-model.md §1, §4).

A ratio or percent that compares two things keeps its baseline, direction and measured
quantity; a headline and a figure agree only when all of them agree; "up to N" claims a
best case of N. Sentences here are written for these tests (invented figures about real
engine and model names, so the vocabularies recognise the subjects).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.check import check, read_claim
from pipeline.extract import extract_claims
from pipeline.model import Document

REPO = Path(__file__).resolve().parents[1]


def _figures(text: str):
    return extract_claims(Document(id="t", path="t", format="text", text=text))


def _one(text: str):
    figs = [c for c in _figures(text) if c.family in ("ratio", "percent")]
    assert len(figs) == 1, [(c.surface, c.family) for c in figs]
    return figs[0]


# --- reading: the same comparison in many wordings gives the same fields -----------------

SAME_FACT = [
    "SGLang is 2.5x faster than vLLM on Llama 3 8B.",
    "On Llama 3 8B, SGLang runs 2.5x faster than vLLM.",
    "Compared with vLLM, SGLang delivers 2.5x higher throughput on Llama 3 8B.",
    "SGLang delivers 2.5x the throughput of vLLM on Llama 3 8B.",
    "SGLang achieves a 2.5x speedup over vLLM on Llama 3 8B.",
    "SGLang reaches 2.5 times the throughput of vLLM when serving Llama 3 8B.",
    "Relative to vLLM, SGLang's throughput on Llama 3 8B is 2.5x higher.",
    "SGLang consistently outperforms vLLM, achieving up to 2.5x higher throughput on Llama 3 8B.",
    "SGLang beats vLLM with 2.5x higher throughput on Llama 3 8B.",
]


@pytest.mark.parametrize("text", SAME_FACT)
def test_one_comparison_in_many_wordings(text):
    c = _one(text)
    assert (c.value, c.baseline, c.direction, c.measures) == (2.5, "vLLM", "up", "throughput"), text
    assert c.engine == "SGLang"          # the baseline is never the engine
    assert c.model == "Llama 3 8B"


@pytest.mark.parametrize("text, direction, measures", [
    ("TensorRT-LLM cuts time to first token by 40% compared with TGI.", "down", "latency"),
    ("TensorRT-LLM lowers TTFT by 40% relative to TGI.", "down", "latency"),
    ("TensorRT-LLM is 40% slower than TGI.", "down", "throughput"),
    ("TensorRT-LLM needs 40% less memory than TGI.", "down", "memory"),
    ("TensorRT-LLM costs 40% more than TGI per million tokens.", "up", "cost"),
    ("TensorRT-LLM saves 40% of training costs compared with TGI.", "down", "training cost"),
    # "faster" is a speed word: the quantity beside it says what sped up, and a time that
    # comes faster is shorter
    ("TensorRT-LLM delivers 1.5x higher throughput and 5.1x faster TTFT than TGI.", "down", "latency"),
    ("With TensorRT-LLM the first token arrives 5.1x faster than with TGI.", "down", "latency"),
    ("TensorRT-LLM cuts training costs by 40% against TGI and serves faster.", "down", "training cost"),
])
def test_direction_and_measured_quantity(text, direction, measures):
    c = [c for c in _figures(text) if c.family in ("ratio", "percent")][-1]
    assert (c.direction, c.measures, c.baseline) == (direction, measures, "TGI")
    assert c.engine == "TensorRT-LLM"


def test_hardware_baseline_is_not_the_hardware():
    c = _one("H200 runs Llama 2 70B 1.9x faster than H100.")
    assert c.baseline == "H100" and c.accelerator == "H200"


@pytest.mark.parametrize("text", [
    "Annotators reached 59.8% agreement on the preference labels.",
    "The quantized model keeps 99.1% of the baseline accuracy.",
    "Prompt lengths were drawn with a 30% variance around the mean.",
])
def test_a_share_of_no_performance_quantity_is_no_claim(text):
    assert [c for c in _figures(text) if c.family in ("ratio", "percent")] == []


def test_up_to_is_read_as_a_peak_in_a_headline():
    assert read_claim("SGLang is up to 3x faster than vLLM").peak
    assert read_claim("SGLang delivers as much as 3x the throughput of vLLM").peak
    assert not read_claim("SGLang is at most 3x faster than vLLM").peak


# --- checking: each comparator, direction, baseline and quantity ------------------------

PRIMARY = """---
title: SGLang on Llama 3 8B
---
# SGLang on Llama 3 8B

On Llama 3 8B, SGLang delivers 2.3x higher throughput than vLLM.

SGLang also cuts time to first token by 35% compared with vLLM on Llama 3 8B.
"""


@pytest.fixture(scope="module")
def db(primary_db) -> str:
    return primary_db("sglang-llama3.md", PRIMARY)


@pytest.mark.parametrize("headline, verdict", [
    # faithful, in other words
    ("SGLang is 2.3x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang reduces TTFT by 35% versus vLLM on Llama 3 8B", "supported"),
    # direction reversed: the record says the opposite
    ("SGLang is 2.3x slower than vLLM on Llama 3 8B", "contradicted"),
    ("SGLang increases time to first token by 35% compared with vLLM on Llama 3 8B", "contradicted"),
    # "up to N": a best case, met only when a figure reaches N
    ("SGLang is up to 2.3x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang is up to 2x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang is up to 4x faster than vLLM on Llama 3 8B", "contradicted"),
    # floors, ceilings, approximations
    ("SGLang is more than 2x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang is at most 3x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang is at most 1.5x faster than vLLM on Llama 3 8B", "contradicted"),
    ("SGLang is about 2.3x faster than vLLM on Llama 3 8B", "supported"),
    ("SGLang is about 4x faster than vLLM on Llama 3 8B", "contradicted"),
    # another measured quantity or baseline: the figure is no evidence
    ("SGLang cuts latency by 2.3x compared with vLLM on Llama 3 8B", "unproven"),
    ("SGLang is 2.3x faster than TGI on Llama 3 8B", "unproven"),
    ("SGLang reduces TTFT by 35% versus TGI on Llama 3 8B", "unproven"),
    # a name no vocabulary knows must be the figure's subject
    ("FooServe is 2.3x faster than vLLM on Llama 3 8B", "unproven"),
])
def test_comparison_verdicts(db, headline, verdict):
    v = check(headline, db)
    assert v.verdict == verdict, (v.verdict, v.explanation)


def test_reversed_direction_says_why(db):
    v = check("SGLang is 2.3x slower than vLLM on Llama 3 8B", db)
    assert "other way" in v.explanation
    assert v.evidence and v.evidence[0].relation == "contradicts"


def test_up_to_names_the_best_figure(db):
    v = check("SGLang is up to 4x faster than vLLM on Llama 3 8B", db)
    assert "2.3x" in v.explanation and "highest" in v.explanation


# --- one judgement: a stored figure is never both unsourced and supported ----------------

def test_stored_figure_is_never_unsourced_and_supported(tmp_path, run_cli):
    from pipeline.check import Checker, judge_stored
    from pipeline.record import Record
    from pipeline.store import Store

    (tmp_path / "primary.md").write_text(
        "# SGLang on Llama 3 8B\n\nSGLang serves Llama 3 8B at 251 tokens/s per user.\n",
        encoding="utf-8")
    (tmp_path / "coverage.md").write_text(
        "# Weekly roundup\n\nOne startup says its engine reached 251 tokens/s per user.\n",
        encoding="utf-8")
    (tmp_path / "sources.csv").write_text(
        "path,role\nprimary.md,primary\ncoverage.md,secondary\n", encoding="utf-8")
    db = tmp_path / "w.duckdb"
    run_cli("ingest", str(tmp_path), "--db", str(db), "-q", cwd=REPO, check=True)
    with Store.open(db, read_only=True) as st:
        record = Record.load(st)
    checker = Checker(record)
    judged = 0
    for c in record.claims.values():
        if record.role(c) != "secondary":
            continue
        v = judge_stored(checker, c)
        judged += 1
        if "unsourced" in record.findings_of(c.id):
            assert v.verdict != "supported", v.explanation
    assert judged == 1


def test_engine_of_a_document_about_it_when_the_sentence_names_only_the_baseline():
    doc = Document(id="t", path="t.md", format="markdown",
                   text="vLLM on MI300X, a deployment guide. vLLM is tuned here; vLLM scales. "
                        "vLLM serves. vLLM wins.\n\nOn Llama 3.1 70B the first token arrives "
                        "5.1x faster than with TGI.")
    c = [c for c in extract_claims(doc) if c.family == "ratio"][0]
    assert (c.engine, c.baseline) == ("vLLM", "TGI")
