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
