"""Sentences and paragraphs with character offsets, found by a fast rule-based scan.

A full tokenizer over every character would cost more than the whole extraction budget
(most text holds no number), so boundaries come from one regex pass: sentence punctuation
followed by a capital, blank lines, and structural lines of Markdown and slides (table rows,
headings, list items, bullets), which are units of their own.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

import re

from pipeline.ingest.tables import trimmed

# Patterns used inside functions, compiled once.
_LAST_WORD_RE = re.compile(r"([\w.]+)[.!?]$")


_ABBREV = {
    "e.g", "i.e", "vs", "etc", "dr", "mr", "ms", "fig", "figs", "no", "approx", "al", "ca",
    "eq", "sec", "inc", "ltd", "co", "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
    "sep", "sept", "oct", "nov", "dec", "v.s", "u.s", "st", "max", "min", "avg", "est",
}
# Sentence end: punctuation, optional closing quotes/brackets/emphasis, space, then a start.
# A sentence may start with a mixed-case product name ("vLLM reached ...").
_END_RE = re.compile(r"[.!?][\"'”’)\]*_]*(?=\s+[\"'“‘(\[*_]*(?:[A-Z0-9$#]|[a-z]+[A-Z]))")
_BREAK_LINE_RE = re.compile(
    r"(?m)^(?:[ \t\r\f\v]*(?:\n|$)"
    r"|(?P<struct>[ \t]*(?:\||#{1,6}\s|[-*+•▪◦·o]\s|\d{1,2}[.)]\s|>\s|<[a-z]|\*\*[^*\n]+\*\*[ \t]*(?=\n|$)).*(?:\n|$)))"
)


@dataclass
class Segments:
    """Sentence and paragraph boundaries of one text, searchable by offset."""

    sent_starts: list[int]
    sent_ends: list[int]
    para_starts: list[int]
    para_ends: list[int]

    def _find(self, starts: list[int], ends: list[int], pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(starts, pos) - 1
        if i < 0:
            return 0, ends[0] if ends else 0
        return starts[i], ends[i]

    def sentence(self, pos: int) -> tuple[int, int]:
        return self._find(self.sent_starts, self.sent_ends, pos)

    def sentence_index(self, pos: int) -> int:
        return max(0, bisect.bisect_right(self.sent_starts, pos) - 1)

    def paragraph(self, pos: int) -> tuple[int, int]:
        return self._find(self.para_starts, self.para_ends, pos)


# Bounds on what counts as one sentence or paragraph. Context is read sentence- and
# paragraph-wide, so a page that is one endless line of figures (scraped tables, dumps)
# would make that quadratic; real sentences and paragraphs are far shorter than these.
MAX_SENTENCE = 600
MAX_PARAGRAPH = 4000
_CLAUSE_CUT_RE = re.compile(r"[;,|]\s")
_WORD_GAP_RE = re.compile(r"(?<=[A-Za-z)])\s+(?=[A-Za-z(])")


def _add_sentence(text: str, start: int, end: int, sents: list[tuple[int, int]]) -> None:
    """Append the trimmed sentence, cut at clause breaks into pieces of at most
    MAX_SENTENCE characters when it runs longer."""
    s, e = trimmed(text, start, end)
    while e - s > MAX_SENTENCE:
        half = s + MAX_SENTENCE // 2
        m = _CLAUSE_CUT_RE.search(text, half, s + MAX_SENTENCE) or _WORD_GAP_RE.search(text, half, s + MAX_SENTENCE)
        cut = m.end() if m else s + MAX_SENTENCE
        a, b = trimmed(text, s, cut)
        if a < b:
            sents.append((a, b))
        s, e = trimmed(text, cut, e)
    if s < e:
        sents.append((s, e))


def _split_at(paras: list[tuple[int, int]], breaks: list[int]) -> list[tuple[int, int]]:
    """Cut paragraphs at page boundaries: a paragraph never runs across two PDF pages."""
    out = []
    for ps, pe in paras:
        i = bisect.bisect_right(breaks, ps)
        while i < len(breaks) and breaks[i] < pe:
            out.append((ps, breaks[i]))
            ps = breaks[i]
            i += 1
        out.append((ps, pe))
    return out


def segment(text: str, page_breaks: list[int] | None = None) -> Segments:
    """Split ``text`` into paragraphs (blank lines, structural lines, page breaks) and sentences."""
    paras: list[tuple[int, int]] = []
    # Lines that end a paragraph: blank ones, and structural ones (each its own paragraph).
    # Only those are visited; the prose lines between them are skipped over in C.
    cur = 0
    for m in _BREAK_LINE_RE.finditer(text):
        s, e = m.start(), m.end()
        if s > cur:
            paras.append((cur, s))
        if m.group("struct") is not None:
            paras.append((s, e))
        cur = e
    if cur < len(text):
        paras.append((cur, len(text)))
    if page_breaks:
        paras = _split_at(paras, sorted(page_breaks))

    sents: list[tuple[int, int]] = []
    para_out: list[tuple[int, int]] = []
    for ps, pe in paras:
        ps, pe = trimmed(text, ps, pe)
        if ps >= pe:
            continue
        first = len(sents)
        start = ps
        for m in _END_RE.finditer(text, ps, pe):
            word = _LAST_WORD_RE.search(text[max(ps, m.start() - 12): m.start() + 1])
            if word and word.group(1).lower().rstrip(".") in _ABBREV:
                continue
            # "2.5" never reaches here (no space after the point); "No. 3" is an abbreviation.
            end = m.end()
            _add_sentence(text, start, end, sents)
            start = end
        _add_sentence(text, start, pe, sents)
        # a paragraph longer than MAX_PARAGRAPH is cut at sentence ends into several
        cut = ps
        for s2, e2 in sents[first:]:
            if e2 - cut > MAX_PARAGRAPH and s2 > cut:
                para_out.append(trimmed(text, cut, s2))
                cut = s2
        para_out.append((cut, pe))
    return Segments(
        [s for s, _ in sents], [e for _, e in sents], [s for s, _ in para_out], [e for _, e in para_out]
    )
