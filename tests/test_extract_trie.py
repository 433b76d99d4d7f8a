"""Word lists laid out as regex tries must match what the plain longest-first
alternation matches, and the name scan built on them must find names wherever a word
may start."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from pipeline.extract.masks import find_names
from pipeline.vocab.trie import alternation
from pipeline.vocab.loader import load

words = st.lists(st.text("abcde", min_size=1, max_size=5), min_size=1, max_size=12, unique=True)


@given(words, st.text("abcde -", max_size=30))
def test_trie_finds_what_a_longest_first_alternation_finds(ws, text):
    plain = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, ws), key=len, reverse=True)) + r")\b")
    trie = re.compile(r"\b" + alternation(dict.fromkeys(ws, "")) + r"\b")
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in plain.finditer(text)]


@given(words, st.text("abcde -", max_size=30))
def test_a_stem_matches_whatever_follows_it(ws, text):
    stem = ws[0]
    pat = re.compile(alternation({w: (None if w == stem else "(?![a-z])") for w in ws}))
    for i in range(len(text)):
        if text.startswith(stem, i):
            assert pat.match(text, i)


def test_empty_list_matches_nothing():
    assert re.compile(alternation({})).search("anything") is None


def _names(text):
    return [(text[n.start:n.end], n.kind) for n in find_names(text, load())]


def test_names_at_the_start_of_a_text_and_after_punctuation():
    assert ("H100", "accelerator") in _names("H100 nodes ran it.")
    assert ("H100", "accelerator") in _names("(H100) nodes ran it.")
    assert ("Llama 3.1 70B", "model") in _names('"Llama 3.1 70B" answered.')


def test_names_glued_to_a_count_by_an_x_but_not_inside_other_words():
    assert [k for _, k in _names("on 8xH100 and 4xB200")] == ["accelerator", "accelerator"]
    assert _names("the pre-H100 era") == []
    assert _names("see fooH100 and 8H100") == []
