"""Case-blind patterns run over a lower-cased copy must find exactly what they find
case-blind on the original: same spans, same alternatives, on real text."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st

from pipeline.extract import conditions
from pipeline.vocab.caseless import Caseless, fold, lower_source
from pipeline.vocab.loader import load, NamedPatterns


def _caseless_patterns() -> list[tuple[str, Caseless]]:
    v = load()
    out = [(name, p.caseless) for name, p in vars(v).items() if isinstance(p, NamedPatterns)]
    out += [(name, p) for name, p in vars(conditions).items() if isinstance(p, Caseless)]
    return out


def test_lower_source_keeps_escapes_group_names_and_flags():
    assert lower_source(r"(?P<Who>TP\S+)(?P=Who)(?i:X)\\B[A-Z]") == r"(?P<Who>tp\S+)(?P=Who)(?i:x)\\b[a-z]"


def test_patterns_with_case_sensitive_parts_have_no_lowered_twin():
    assert Caseless(re.compile(r"(?-i:SGLang)|vllm", re.I)).fast is None
    assert Caseless(re.compile(r"SGLang")).fast is None      # not case-blind at all


def test_odd_case_folds_match_as_re_ignorecase_does():
    pat = Caseless(re.compile(r"kb|sus|ing", re.I))
    for text in ("8 \u212aB of cache", "a \u017fu\u017f step", "load\u0131ng", "LOAD\u0130NG"):
        want = [m.span() for m in pat.pattern.finditer(text)]
        assert want                                   # re.I folds K, ſ, ı and İ to k, s, i
        assert [m.span() for m in pat.finditer(text, fold(text))] == want, text
    assert fold("LOAD\u0130NG") is None             # lengthened by lower(): case-blind scan


def test_non_ascii_patterns_and_code_escapes_have_no_lowered_twin():
    assert Caseless(re.compile(r"\u00b5s|ms", re.I)).fast is None
    assert Caseless(re.compile("\u00b5s|ms", re.I)).fast is None   # µ: re.I folds it with μ
    assert Caseless(re.compile(r"\x41|b", re.I)).fast is None


def test_same_hits_on_the_real_corpus(REAL):
    texts = [p.read_text("utf-8", errors="replace") for p in sorted(REAL.rglob("*.md"))]
    assert texts
    checked = 0
    for name, pat in _caseless_patterns():
        if pat.fast is None:
            continue
        for text in texts:
            lower = fold(text)
            want = [(m.span(), m.lastindex) for m in pat.pattern.finditer(text)]
            got = [(m.span(), m.lastindex) for m in pat.finditer(text, lower)]
            assert got == want, name
            checked += len(want)
    assert checked > 1000


@given(st.text(alphabet="TPEDWAYtpedway=x48- :/ISLOKkc\u212a\u017f\u0131", max_size=40))
def test_same_hits_on_generated_text(text):
    lower = fold(text)
    for name, pat in _caseless_patterns():
        if pat.fast is not None:
            assert [m.span() for m in pat.finditer(text, lower)] == \
                [m.span() for m in pat.pattern.finditer(text)], name
