"""Stored text cut for display: a quote around its figure, a document around its claims.

Only cutting happens here; escaping is the templates' (Jinja autoescape), so every piece
returned is plain text from the warehouse and is never marked safe.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence


def split_quote(sentence: str | None, surface: str, start: int | None = None,
                end: int | None = None, sentence_start: int | None = None
                ) -> tuple[str, str, str]:
    """(before, figure, after) of a claim's stored sentence. The claim's offsets place the
    figure when they fall inside the sentence (the sentence is the document's text from
    ``sentence_start``); otherwise the first occurrence of its surface does."""
    sentence = sentence or ""
    if None not in (start, end, sentence_start):
        a, b = start - sentence_start, end - sentence_start
        if 0 <= a <= b <= len(sentence):
            return sentence[:a], sentence[a:b], sentence[b:]
    i = sentence.find(surface) if surface else -1
    if i >= 0:
        return sentence[:i], surface, sentence[i + len(surface):]
    return "", surface, ""


@dataclass
class Segment:
    """A run of a document's text: plain, a highlighted claim, or where a page begins."""

    text: str = ""
    claim: Any = None             # the claim (a row) this run is the figure of
    page: int | None = None       # set on a page marker (its text is empty)


def segments(text: str, spans: Sequence[tuple[int, int, Any]],
             pages: Sequence[tuple[int, int]] = ()) -> list[Segment]:
    """The document's text as runs: each claim's span (start, end, claim) highlighted, a
    marker where each page (page number, start offset) begins. A span overlapping an
    earlier one is left plain (its claim is still listed with the document's claims)."""
    out: list[Segment] = []
    marks = sorted(pages, key=lambda p: p[1])
    pos, pi = 0, 0

    def plain_until(upto: int) -> None:
        nonlocal pos, pi
        while pi < len(marks) and marks[pi][1] <= upto:
            number, at = marks[pi]
            if at > pos:
                out.append(Segment(text[pos:at]))
                pos = at
            out.append(Segment(page=number))
            pi += 1
        if upto > pos:
            out.append(Segment(text[pos:upto]))
            pos = upto

    for start, end, claim in sorted(spans, key=lambda s: (s[0], -s[1])):
        if start < pos or end <= start or end > len(text):
            continue
        plain_until(start)
        out.append(Segment(text[start:end], claim=claim))
        pos = end
    plain_until(len(text))
    return out
