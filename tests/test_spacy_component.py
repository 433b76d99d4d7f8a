"""The spaCy component (pipeline/spacy_component.py, docs/spacy.md): found through the
`spacy_factories` entry point, it gives the claims ``pipeline.api.extract`` gives on the
same text, as spans over the tokens each claim touches, through ``nlp.pipe`` (one and two
processes), ``DocBin`` and a saved pipeline."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path

import pytest

spacy = pytest.importorskip(
    "spacy", reason="spaCy is not installed: `pip install -e '.[spacy]'` runs these tests")

from spacy.tokens import DocBin  # noqa: E402

from pipeline.api import extract  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
# Sentences written for these tests (not corpus text).
SENTENCE = ("On four B300 GPUs, DeepSeek-V4.1-Flash reaches 826 tokens/s per user with vLLM, "
            "2.1x the throughput of SGLang.")
BARE = "It reaches 575 tokens/s per user at P50 and 1,200 tok/s in aggregate."


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("claims")
    return nlp


@pytest.fixture(scope="module")
def real_texts(REAL: Path) -> list[tuple[str, str]]:
    files = sorted(REAL.rglob("*.md"))
    assert len(files) >= 20, "the real corpus lost its Markdown documents"
    return [(f.relative_to(REAL).as_posix(), f.read_text(encoding="utf-8")) for f in files]


def _check_spans(doc, claims) -> None:
    """Each span is the claim's: id, family label, and exactly the tokens its characters
    touch (spaCy's ``alignment_mode="expand"``)."""
    spans = list(doc.spans["claims"])
    assert len(spans) == len(claims)
    for span, c in zip(spans, claims):
        assert doc.text[c.start:c.end] == c.surface
        assert (span.id_, span.label_) == (c.id, c.family)
        assert span._.claim == c
        assert span.start_char <= c.start < c.end <= span.end_char
        first, last = span[0], span[-1]
        assert first.idx <= c.start < first.idx + len(first), (c.surface, first.text)
        assert last.idx < c.end <= last.idx + len(last), (c.surface, last.text)


def test_the_entry_point_names_the_factory():
    found = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert found.get("claims") == "pipeline.spacy_component:make_claims"


def test_add_pipe_finds_the_component_without_an_import(tmp_path):
    """A fresh interpreter whose code never imports ``pipeline``: spaCy loads the
    component through the entry point alone, as after `pip install claims[spacy]`."""
    code = ("import spacy\n"
            "nlp = spacy.blank('en')\n"
            "nlp.add_pipe('claims')\n"
            f"doc = nlp({SENTENCE!r})\n"
            "print([(s.text, s.label_) for s in doc.spans['claims']])\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[('826 tokens/s', 'token_throughput'), ('2.1x', 'ratio')]"


def test_same_claims_as_extract_on_the_real_corpus(nlp, real_texts):
    total = misaligned = 0
    for name, text in real_texts:
        doc = nlp(text)
        claims = extract(text)
        assert doc._.claims == claims, name
        _check_spans(doc, claims)
        total += len(claims)
        misaligned += sum(s.start_char != c.start or s.end_char != c.end
                          for s, c in zip(doc.spans["claims"], claims))
    assert total > 500, f"only {total} claims in the real corpus: the test lost its data"
    # figures glued to a word ("8xH100", "2.1x-faster") start or end inside a token
    assert misaligned > 0


def test_metadata_reaches_the_extractor(nlp):
    doc = nlp.make_doc(BARE)
    doc._.claims_metadata = {"title": "Serving DeepSeek-V4.1-Flash with vLLM", "publisher": "vLLM"}
    doc = nlp(doc)
    expected = extract(BARE, title="Serving DeepSeek-V4.1-Flash with vLLM", publisher="vLLM")
    assert doc._.claims == expected
    assert [c.model for c in doc._.claims] == ["DeepSeek-V4.1-Flash"] * 2
    assert [c.model for c in nlp(BARE)._.claims] == [None, None]


def test_a_text_without_claims(nlp):
    doc = nlp("Nothing here is measured; the 3 authors met in 2024.")
    assert doc._.claims == [] and len(doc.spans["claims"]) == 0


def test_span_key_is_configurable():
    nlp = spacy.blank("en")
    nlp.add_pipe("claims", config={"span_key": "figures"})
    doc = nlp(SENTENCE)
    assert "claims" not in doc.spans
    assert [s.text for s in doc.spans["figures"]] == ["826 tokens/s", "2.1x"]
    assert [c.surface for c in doc._.claims] == ["826 tokens/s", "2.1x"]


def test_pipe_with_two_processes_matches_one(nlp, real_texts):
    texts = [t for _, t in real_texts[:12]] + [SENTENCE, BARE]
    one = list(nlp.pipe(texts, batch_size=3))
    two = list(nlp.pipe(texts, batch_size=3, n_process=2))
    assert len(two) == len(texts)
    for text, a, b in zip(texts, one, two):
        assert b.text == text
        assert b._.claims == a._.claims == extract(text)
        _check_spans(b, b._.claims)
    assert sum(len(d._.claims) for d in two) > 50


def test_docbin_keeps_the_claims(nlp, real_texts):
    docs = [nlp(SENTENCE)] + [d for d in nlp.pipe(t for _, t in real_texts[:8]) if d._.claims][:3]
    assert len(docs) == 4
    kept = DocBin(store_user_data=True, docs=docs).to_bytes()
    back = list(DocBin().from_bytes(kept).get_docs(spacy.blank("en").vocab))
    for a, b in zip(docs, back):
        assert b._.claims == a._.claims and a._.claims
        assert [(s.start, s.end, s.label_, s.id_) for s in b.spans["claims"]] == \
               [(s.start, s.end, s.label_, s.id_) for s in a.spans["claims"]]
        assert [s._.claim for s in b.spans["claims"]] == a._.claims
    # without user data a DocBin keeps the spans (labels, ids) but not the claim records
    bare = list(DocBin(store_user_data=False, docs=docs[:1]).get_docs(spacy.blank("en").vocab))[0]
    assert [s.id_ for s in bare.spans["claims"]] == [c.id for c in docs[0]._.claims]
    assert bare._.claims == [] and bare.spans["claims"][0]._.claim is None


def test_a_saved_pipeline_loads_with_the_component(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("claims", config={"span_key": "figures"})
    nlp.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    assert loaded.pipe_names == ["claims"]
    doc = loaded(SENTENCE)
    assert [s.text for s in doc.spans["figures"]] == ["826 tokens/s", "2.1x"]


def test_the_spacy_page_runs_as_written():
    """docs/spacy.md's examples are doctests: the outputs shown are the outputs."""
    import doctest

    page = REPO / "docs" / "spacy.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10, "the page lost its examples"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {page.name} failed"


def test_entities_of_an_earlier_component_are_beside_the_claims():
    """A pipeline with entities (an entity ruler built here, standing in for a trained
    ``ner``): each claim span lists its sentence's entities, and the claims stay those of
    ``extract``. The ORG the extractor does not credit is there to read."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "ORG", "pattern": "Kestrel Labs"},
                        {"label": "ORG", "pattern": "Osprey Cloud"},
                        {"label": "PRODUCT", "pattern": "Falcon 180B"}])
    nlp.add_pipe("claims")
    text = ("Kestrel Labs says Falcon 180B runs at 96 tokens/s per user on 8 x H100. "
            "In tests at Osprey Cloud, it reached 75 tokens/s per user.")
    doc = nlp(text)
    assert doc._.claims == extract(text)
    first, second = doc.spans["claims"]
    assert [(e.text, e.label_) for e in first._.entities] == [("Kestrel Labs", "ORG"),
                                                              ("Falcon 180B", "PRODUCT")]
    assert [(e.text, e.label_) for e in second._.entities] == [("Osprey Cloud", "ORG")]
    assert first._.claim.asserted_by == "Kestrel Labs"
    assert second._.claim.asserted_by is None       # the ORG an entity model adds
    assert nlp.pipe_names == ["sentencizer", "entity_ruler", "claims"]


def test_every_character_range_gets_a_span():
    """``claim_span`` relies on spaCy giving a span for any non-empty range of the text
    (glued figures, newlines and extra spaces around it) that covers its non-space
    characters (a claim never starts or ends with a space); a range outside the text is
    refused."""
    from pipeline.spacy_component import claim_span

    text = " 8xH100  at\n\n2.1x-faster, 96 tok/s "
    doc = spacy.blank("en")(text)
    base = extract("826 tokens/s")[0]
    for i in range(len(text)):
        for j in range(i + 1, len(text) + 1):
            span = claim_span(doc, replace(base, start=i, end=j))
            piece = text[i:j]
            if piece.strip():       # the non-space characters are inside (a token's
                lo = i + len(piece) - len(piece.lstrip())   # trailing space is not)
                hi = j - (len(piece) - len(piece.rstrip()))
                assert span.start_char <= lo and hi <= span.end_char, (i, j, span.text)
    with pytest.raises(ValueError, match="outside"):
        claim_span(doc, replace(base, start=len(text) + 1, end=len(text) + 5))
