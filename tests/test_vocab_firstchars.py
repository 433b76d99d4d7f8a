"""A unit is tried only where the text starts with a character it can start with: the
first-character sets must never leave out a character a pattern can match at."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from pipeline.vocab.firstchars import first_chars
from pipeline.vocab.loader import load


def test_simple_patterns():
    assert first_chars(r"(?:ms|msec)\b") == {"m"}
    assert first_chars(r"(?i:tb/s)") >= {"t", "T"}
    assert "\u212a" in first_chars(r"(?i:kw)")          # re.I folds the Kelvin sign with k
    assert first_chars(r"\s?percent") is None            # a class of categories: anything
    assert first_chars(r"x?") is None                    # may match nothing
    assert first_chars(r"(?<![\w-])(?:GB|gigabytes?)") == {"G", "g"}
    assert first_chars(r"[0-9]+x") == set("0123456789")


_GROUPS = [f"(?{'i' if p.flags & re.I else '-i'}:{p.pattern})" for p, _ in load().units]


@given(st.text(alphabet="tokens/sTOKmMgGbB%x×µ- pericKſ", max_size=24))
def test_no_unit_matches_where_its_first_characters_say_it_cannot(text):
    for group in _GROUPS:
        chars = first_chars(group)
        if chars is None:
            continue
        pat = re.compile(group)
        for i in range(len(text)):
            m = pat.match(text, i)
            if m and m.end() > i:
                assert text[i] in chars, (group, text, i)


@given(st.text(alphabet="0123456789 tokens/sTOKmMgGbB%x×µ-per", max_size=24))
def test_the_index_finds_what_the_full_alternation_finds(text):
    v = load()
    for i in range(len(text)):
        whole = v.unit_pattern.match(text, i)
        got = v.match_unit(text, i, len(text))
        if whole is None:
            assert got is None
        else:
            assert (got[0].span(), got[1]) == (whole.span(), v.unit_entries[whole.lastindex - 1])


def test_prefixes_of_simple_patterns():
    from pipeline.vocab.firstchars import prefixes
    assert prefixes(r"(?<![\w-])(?:dynamo\s+sglang|vllm|hf\s+x)") == {"dyn", "vll", "hf"}
    assert prefixes(r"(?:nvidia\s+)?dynamo") == {"nvi", "dyn"}
    assert prefixes(r"p[59]0") == {"p50", "p90"}
    assert prefixes(r"x?") is None                       # may match nothing
    assert prefixes(r"\w+") is None                      # may start with anything
    assert prefixes(r"(?i:ab)") is None                  # case rules it cannot follow


_NAMED = ["engines", "dtypes", "techniques", "statistics", "phases", "workloads", "price_basis",
          "scope_context", "accelerators"]


@given(st.text(alphabet="vLlmSGsglangTRT- dynamoDynamop9950thavgmeanH100B200fp8", max_size=30))
def test_a_guarded_vocabulary_finds_what_its_unguarded_alternation_finds(text):
    """The look-ahead a vocabulary's alternation is led by (loader._guard) rules out no
    match: the same spans and names with and without it."""
    from pipeline.vocab.caseless import fold
    v = load()
    low = fold(text)
    for name in _NAMED:
        named = getattr(v, name)
        src = named.pattern.pattern
        lead = re.search(r"\(\?=\(\?:.*?\)\)(?=\(\?:\()", src)
        if lead is None:
            continue
        bare = re.compile(src[:lead.start()] + src[lead.end():], named.pattern.flags)
        want = [(m.span(), m.lastindex) for m in bare.finditer(text)]
        assert [(m.span(), m.lastindex) for m in named.pattern.finditer(text)] == want
        assert [(m.span(), m.lastindex) for m in named.caseless.finditer(text, low)] == want
