"""The shortcuts that make checks cheaper answer as the plain code does (docs/performance.md,
"Cold checks"): a cause's words found with str.find, texts read in one query, a server's
held figures compared in memory, and the collector kept off the loaded record."""
from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import check_sql
from pipeline.cause import _starts_word, cause_hay, cause_in, canonical_techniques, is_name
from pipeline.cause import _stem as stem
from pipeline.checker import Checker, format_verdict, read_claim
from pipeline.gcpause import paused
from pipeline.record import Record
from pipeline.serve.checking import LoadedChecks
from pipeline.store import Store

REPO = Path(__file__).resolve().parents[1]
_WORDS = ["spec", "speculative", "decoding", "_dec", "déc", "2x", "x2", "fsm", "FSM",
          "compressed", "compress", "-", " ", "_", "é", "9", "ü", "\n", "qtechq", "paged"]


@given(st.lists(st.sampled_from(_WORDS), max_size=12).map("".join),
       st.sampled_from(["spec", "dec", "fsm", "compress", "9", "é", "qtechqpaged", "x"]))
@settings(max_examples=400, deadline=None)
def test_a_word_start_is_found_as_the_pattern_finds_it(hay, word):
    assert _starts_word(hay, word) == bool(re.search(r"\b" + re.escape(word), hay))


def _states_cause_by_regex(cause: str, *places: str | None) -> bool:
    """The rule as it was written before (one \\b-led search per word and place set)."""
    hay = " ".join(canonical_techniques(p).lower().replace("-", " ") for p in places if p)
    words = cause.split()
    named = [w for w in words if w.startswith("qtechq")]
    if named:
        words = named
    hit = {w: bool(re.search(r"\b" + re.escape(stem(w.lower())), hay)) for w in words}
    if not all(hit[w] for w in words if is_name(w)):
        return False
    return 3 * sum(hit.values()) >= 2 * len(words)


@pytest.mark.parametrize("cause,places", [
    ("multi step scheduling", ("## Multi-step scheduling\nIt raised throughput 28%", None)),
    ("asynchronous output processing", ("output processing in the title", "Async")),
    ("Compressed FSM", ("compressed fsm decoding", "")),
    ("Compressed FSM", ("compressed decoding", "FSM")),
    ("Compressed FSM", ("compressed decoding only",)),
    ("speculative decoding", ("Speculative decoding with EAGLE", "a title")),
    ("torch compile integration", ("integrating torch.compile", None, "path/x.md")),
])
def test_states_cause_answers_as_the_regex_rule(cause, places):
    assert cause_in(cause, cause_hay(*places)) == _states_cause_by_regex(cause, *places)


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("speed") / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


def test_texts_read_together_are_the_texts_read_one_by_one(corpus_db):
    with Store.open(corpus_db, read_only=True) as store:
        one = Record.load(store, with_links=False, with_text=False)
        many = Record.load(store, with_links=False, with_text=False)
        many.read_texts(many.docs)
        assert all(d.text is not None for d in many.docs.values())
        for k, d in one.docs.items():
            assert one.text_of(d) == many.docs[k].text
        leads_one = [one.lead_in(c) for c in one.claims.values()]
        assert leads_one == [many.lead_in(c) for c in many.claims.values()]
    # a closed warehouse: nothing is read, and each text falls back as text_of does
    closed = Record.load(Store.open(corpus_db, read_only=True), with_links=False,
                         with_text=False)
    closed.store.close()
    closed.read_texts(closed.docs)
    assert all(d.text is None for d in closed.docs.values())


def test_a_cause_is_judged_alike_with_texts_read_together(corpus_db):
    """Checker.cause_hay reads the family's texts in one query: the same verdicts as the
    plain per-document reads, for headlines that credit a cause."""
    heads = ["Speculative decoding raised throughput by 2x", "Chunked prefill cut latency 30%",
             "Paged attention improves throughput 24x"]
    with Store.open(corpus_db, read_only=True) as store:
        plain = Record.load(store, with_links=False, with_text=True)
        lazy = Record.load(store, with_links=False, with_text=False)
        for h in heads:
            q = read_claim(h)
            assert q.cause, h
            assert format_verdict(Checker(lazy).check(q)) == \
                format_verdict(Checker(plain).check(read_claim(h))), h


def test_held_families_are_compared_in_memory(corpus_db, monkeypatch):
    monkeypatch.setattr(check_sql, "STRICT", True)
    heads = ["Llama 3 70B reaches 2,000 tokens/s per user on H100 with vLLM",
             "SGLang serves 50,000 tokens per second per GPU on H200"]
    with Store.open(corpus_db, read_only=True) as store:
        loaded = LoadedChecks()
        loaded.preload(store)
        asked = []

        class Spy:
            def holds(self, q):
                return loaded.holds(q)

            def __call__(self, q, s):
                asked.append(q.text)
                return loaded(q, s)

        for h in heads:
            q = read_claim(h)
            assert loaded.holds(q)
            sql = format_verdict(check_sql.check_query(read_claim(h), store, load_below=0))
            got = check_sql.check_query(q, store, load_below=1, loaded=Spy())
            assert format_verdict(got) == sql, h
        assert asked == heads           # answered from memory, no SQL planned
        assert not LoadedChecks().holds(read_claim(heads[0]))


def test_paused_collection_comes_back():
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()       # left as it was found
    finally:
        gc.enable()
