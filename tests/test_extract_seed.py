"""Seed 000, ingested from ../shared/seeds: every figure it cites, with its conditions.

The expectations come from reading the seed itself, not from the extractor's output;
numbers inside names must never come out as claims.
"""
from __future__ import annotations

import pytest

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file


@pytest.fixture(scope="module")
def seed(SHARED):
    path = next((SHARED / "seeds").glob("000_*.txt"))
    doc = ingest_file(path, path.parent)
    return doc, extract_claims(doc)


def find(claims, value, family="token_throughput", **fields):
    hits = [c for c in claims if c.family == family and abs(c.value - value) <= 1e-6 * max(1, value)]
    hits = [c for c in hits if all(getattr(c, k) == v for k, v in fields.items())]
    assert hits, f"no {family} claim {value} with {fields}"
    return hits


def test_spans_point_into_the_stored_text(seed):
    doc, claims = seed
    assert claims
    for c in claims:
        assert doc.text[c.start:c.end] == c.surface


def test_per_user_figures(seed):
    _, claims = seed
    c826 = find(claims, 826, scope="per_user")
    assert any(c.statistic == "p90" and c.hardware == "4 x B300" for c in c826)
    assert find(claims, 575, scope="per_user")[0].implied
    assert find(claims, 196, scope="per_user", statistic="p90")[0].hardware.startswith("72 x GB300")
    kimi = find(claims, 62.7, scope="per_user", statistic="p90")
    assert any(c.model == "Kimi K3" and c.hardware == "16 x GB300" for c in kimi)
    assert find(claims, 325, scope="per_user")
    c943 = find(claims, 943, scope="per_user")
    assert c943[0].concurrency == 1
    assert find(claims, 376, scope="per_user", comparator="<=", model="MiniMax M3")
    headline = find(claims, 1000, scope="per_user", comparator=">")
    assert headline


def test_per_gpu_figures(seed):
    _, claims = seed
    c954 = find(claims, 954000, scope="per_gpu")
    assert any(c.hardware and c.hardware.startswith("72 x GB300") for c in c954)
    assert find(claims, 499715, scope="per_gpu", engine="Dynamo SGLang")
    assert find(claims, 471578, scope="per_gpu", engine="Dynamo vLLM")
    assert find(claims, 1094347, scope="per_gpu", statistic="peak")
    assert find(claims, 1.09e6, scope="per_gpu")
    assert find(claims, 654000, scope="per_gpu")


def test_other_families(seed):
    _, claims = seed
    money = find(claims, 38.96, family="money", scope="per_gpu")
    assert money[0].per_basis == "GPU-hour" and "off-peak" in (money[0].price_basis or "")
    assert find(claims, 38, family="money", scope="per_gpu")
    assert find(claims, 552e9, family="parameters", model="DeepSeek-V4.1-Flash")
    assert find(claims, 2.8e12, family="parameters", model="Kimi K3")
    assert find(claims, 7e11, family="parameters", comparator=">")
    assert find(claims, 142e3, family="tokens", statistic="median")
    assert find(claims, 444, family="tokens", statistic="median")
    assert find(claims, 96, family="percent", comparator=">")
    assert find(claims, 44, family="percent")
    assert find(claims, 20.9, family="ratio")


def test_the_interactivity_ladder(seed):
    _, claims = seed
    for v in (30, 50, 75, 100, 150, 200):
        assert find(claims, v, scope="per_user")


def test_stance_and_attribution(seed):
    _, claims = seed
    negated = [c for c in claims if c.stance == "negated" and c.value == 1000]
    assert negated, "No document names ... any result past 1,000"
    reported = find(claims, 954000, scope="per_gpu")
    assert any(c.stance == "reported" and "vLLM" in (c.asserted_by or "") for c in reported)


@pytest.mark.parametrize("name", ["B300", "GB300", "NVL72", "V4.1", "K3", "P90", "M3"])
def test_numbers_inside_names_are_not_claims(seed, name):
    doc, claims = seed
    start = 0
    while (i := doc.text.find(name, start)) >= 0:
        for c in claims:
            assert not (c.start < i + len(name) and i < c.end), f"{c.surface!r} overlaps {name!r}"
        start = i + 1
