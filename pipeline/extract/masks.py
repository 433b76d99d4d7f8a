"""Spans of text where a number is never a claim.

Numbers inside names (Llama 4, GB300 NVL72, EAGLE-3), dates, versions, section and figure
numbers, code, URLs and image paths look like figures to a naive scanner; this module finds
those regions once per document so the claim builder can skip any number inside them.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

import regex

from pipeline.vocab.loader import Vocab

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_PATTERNS = [
    # fenced and inline code, HTML tags and comments, URLs, markdown link/image targets
    r"!\[[^\]\n]*\]\([^)\n]*\)", r"```.*?```", r"~~~.*?~~~", r"`[^`\n]{1,400}`", r"<!--.*?-->", r"<[a-zA-Z/][^>\n]{0,400}>",
    r"\bhttps?://[^\s)\]>\"']+", r"\bwww\.[^\s)\]>\"']+", r"\]\([^)\n]*\)", r"\[\^?\d+\]",
    r"!\[[^\]\n]*\]", r"\b[\w./-]+\.(?:png|jpe?g|gif|svg|pdf|py|md|html?|json|yaml|sh)\b",
    # dates
    rf"\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?", rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}(?:,?\s+\d{{4}})?",
    rf"\b{_MONTHS},?\s+'?\d{{2,4}}\b", r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?",
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b", r"\bQ[1-4]\s?[/']?\s?\d{2,4}\b", r"\b\d{2}\.\d{4}\b",
    r"(?<![\d,.])\b(?:199\d|20[0-3]\d)s?\b(?![,.]\d)(?!\s*(?:tokens?|tok|ms|GB|MB|x\b|%|TPS|tps|requests?))", r"\b(?:FY|H[12])\s?\d{2,4}\b",
    r"\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:[ap]\.?m\.?|UTC|PT|ET)?\b",
    # versions and identifiers
    r"\bv\.?\s?\d+(?:\.\d+)*\w*", r"\b\d+\.\d+\.\d+(?:\.\d+)*\b", r"\b(?:version|release|ver\.)\s+\d+(?:\.\d+)*",
    r"\b[A-Za-z]+-\d+(?:\.\d+)*[A-Za-z]*\b(?!\s*(?:x\b|%|tokens?))",
    r"\b(?:Section|Sec\.|§|Figure|Fig\.|Table|Tab\.|Eq\.|Equation|Appendix|Chapter|Step|Part|Day|Week|Item|Issue|PR|No\.)\s?#?\d+(?:\.\d+)*[a-z]?\b",
    r"#\d+\b", r"\b\d+(?:st|nd|rd|th)\b", r"\b(?:TP|EP|DP|PP|CP|SP)\s?=?\s?\d+\b", r"\b\d+\s?x\s?(?:TP|EP|DP|PP)\d*\b",
    r"\b[pP]\d{2}(?:\.\d+)?\b", r"\bTop-?\d+\b", r"\bIL\d+\b|\bOL\d+\b", r"\b[A-Z]{1,4}\d+[A-Za-z]*\b",
    r"\b(?:NVL|NVLink|PCIe|Gen|DDR|HBM|LPDDR|CUDA|ROCm|Python|sm_?)\s?\d+(?:\.\d+)*[a-z]?\b",
]
_MASK_RE = regex.compile("|".join(f"(?:{p})" for p in _PATTERNS), regex.S)


def _model_regex(vocab: Vocab) -> regex.Pattern[str]:
    stems = set()
    for f in vocab.model_families:
        stems.add(regex.escape(f))
        if len(f) >= 5:
            stems.add(regex.escape(f.lower()))
            stems.add(regex.escape(f.upper()))
    alt = "|".join(sorted(stems, key=len, reverse=True))
    # A name continues through version, size and variant pieces: "Llama 4 Maverick",
    # "DeepSeek-V4.1-Flash", "GPT-J 6B", "Qwen3-8B", "llama_70b", "Mixtral 8x7B".
    piece = (
        r"(?:[-_.]?(?:\d+(?:\.\d+)*[A-Za-z]*|[A-Za-z]+\d[\w.]*|[A-Z][a-zA-Z]+|\d+x\d+[bB])"
        r"|\s(?:\d+(?:\.\d+)?[BbMK]?\b(?![,.]\d)(?!\s*(?:%|x\b|times|tokens?|tok|ms|GB|TB|TPS|tps|req))|[A-Z][a-z]+\b(?<!\bOn|\bIn|\bAt|\bThe|\bAnd|\bWith|\bFor|\bTo|\bVs)|[A-Z]+\d[\w.]*|v\d[\w.]*|[A-Z]\d*\b))"
    )
    return regex.compile(rf"(?<![\w-])(?:Meta's\s+)?(?:{alt}){piece}*(?:-Instruct|-Chat|-Base)?", 0)


@dataclass
class Span:
    start: int
    end: int
    kind: str
    name: str = ""


class Masks:
    """Sorted, merged forbidden intervals with an O(log n) membership test."""

    def __init__(self, spans: list[tuple[int, int]]):
        spans.sort()
        merged: list[list[int]] = []
        for s, e in spans:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def covers(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self.starts, start) - 1
        return i >= 0 and self.ends[i] > start


_model_cache: dict[int, regex.Pattern[str]] = {}


def model_regex(vocab: Vocab) -> regex.Pattern[str]:
    key = id(vocab)
    if key not in _model_cache:
        _model_cache[key] = _model_regex(vocab)
    return _model_cache[key]


def find_names(text: str, vocab: Vocab) -> list[Span]:
    """Model, hardware, system, engine and technique names in the text, in order."""
    out: list[Span] = []
    for m in model_regex(vocab).finditer(text):
        out.append(Span(m.start(), m.end(), "model", m.group(0)))
    for pat, acc, count in vocab.systems:
        for m in pat.finditer(text):
            out.append(Span(m.start(), m.end(), "system", f"{acc}:{count}"))
    for s, e, name in vocab.accelerators.finditer(text):
        out.append(Span(s, e, "accelerator", name))
    for s, e, name in vocab.techniques.finditer(text):
        out.append(Span(s, e, "technique", name))
    for s, e, name in vocab.dtypes.finditer(text):
        out.append(Span(s, e, "dtype", name))
    for s, e, name in vocab.engines.finditer(text):
        out.append(Span(s, e, "engine", name))
    out.sort(key=lambda s: (s.start, -s.end))
    return out


def find_masks(text: str, names: list[Span]) -> Masks:
    spans = [(m.start(), m.end()) for m in _MASK_RE.finditer(text)]
    spans += [(n.start, n.end) for n in names if n.kind in ("model", "system", "accelerator", "technique", "dtype")]
    return Masks(spans)
