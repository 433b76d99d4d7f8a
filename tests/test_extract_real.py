"""The extractor over every real document in ../shared/corpus/real, and over hostile text.

Real third-party files are read at run time; nothing from them is copied here.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file
from pipeline.model import FAMILIES, SCOPES, Document

SUPPORTED = {".md", ".pdf", ".txt", ".html", ".htm"}


@pytest.fixture(scope="module")
def real_claims(REAL):
    out = []
    for path in sorted(p for p in REAL.rglob("*") if p.suffix.lower() in SUPPORTED):
        doc = ingest_file(path, REAL)
        out.append((doc, extract_claims(doc)))
    return out


def check_claim(doc: Document, c) -> None:
    assert 0 <= c.start < c.end <= len(doc.text)
    assert doc.text[c.start:c.end] == c.surface
    assert c.sentence_start is not None and c.sentence_start <= c.start and c.end <= c.sentence_end + 1
    for v in (c.value, c.low, c.high, c.precision):
        assert v is None or math.isfinite(v)
    assert c.family in FAMILIES
    assert c.scope is None or c.scope in SCOPES


def test_every_span_is_exact_on_the_real_corpus(real_claims):
    n = 0
    for doc, claims in real_claims:
        for c in claims:
            check_claim(doc, c)
            n += 1
    assert n > 1000


def test_pdf_claims_carry_their_page(real_claims):
    pdf_claims = [(doc, c) for doc, cl in real_claims if doc.format == "pdf" for c in cl]
    assert pdf_claims
    for doc, c in pdf_claims:
        assert c.page == doc.page_at(c.start) and c.page >= 1


def test_claim_ids_are_unique_per_document(real_claims):
    for doc, claims in real_claims:
        ids = [c.id for c in claims]
        assert len(ids) == len(set(ids)), doc.path


_ALPHABET = st.sampled_from(list("0123456789 ,.-–~%$xX/|*#()[]:;\n") + [
    " tokens/s", " per user", " per GPU", " ms", " GB", " B", "K", " million", " parameters",
    "H100", " B300", " Llama 4", "DeepSeek-V3", " up to ", " more than ", "| a | b |\n|---|---|\n",
    "```", "`", "http://x.y/1", " 2025-01-02", "v0.6.1", " fourfold", " twice", " at ", " and ",
    "\u00a0", "\ufffd", "𝟖", "½", "\u200b",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=80).map("".join))
def test_random_and_adversarial_text(text):
    doc = Document(id="h", path="h.md", format="markdown", text=text)
    for c in extract_claims(doc):
        check_claim(doc, c)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_unicode(text):
    doc = Document(id="u", path="u.txt", format="text", text=text)
    for c in extract_claims(doc):
        check_claim(doc, c)


def test_an_endless_line_of_figures_is_read_in_bounded_pieces():
    """A scraped page that is one line of figures: every figure is found, and no sentence
    or paragraph grows past its bound (context is read per sentence and paragraph)."""
    from pipeline.extract.sentences import MAX_PARAGRAPH, MAX_SENTENCE

    parts = [f"{100 + i} tokens/s per user on H100 at {i % 90 + 1}% and {i % 7 + 2}.5x" for i in range(400)]
    text = ", ".join(parts)
    doc = Document(id="long", path="long.txt", format="text", text=text)
    found = extract_claims(doc)
    assert len(found) == 3 * len(parts)
    for c in found:
        check_claim(doc, c)
        assert c.sentence_end - c.sentence_start <= MAX_SENTENCE
    assert {c.family for c in found} == {"token_throughput", "percent", "ratio"}
    assert all(c.scope == "per_user" for c in found if c.family == "token_throughput")
    assert MAX_PARAGRAPH > MAX_SENTENCE
