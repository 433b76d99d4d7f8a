"""The number grammar: find every written number and read its value.

This is the fast scan the rest of extraction hangs on: one compiled pattern over the whole
text finds digit numbers (with separators, decimals, K/M/B/T suffixes and scale words),
spelled-out numbers, and ranges; everything costlier runs only around what it finds.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from pipeline.vocab.trie import alternation


_SMALL = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "a hundred": 100,
    "one hundred": 100, "a thousand": 1000, "one thousand": 1000, "half": 0.5,
}
# "fourfold", "twice", "double": ratio words that carry their own number.
RATIO_WORDS = {
    "twice": 2, "double": 2, "doubles": 2, "doubled": 2, "doubling": 2, "triple": 3,
    "triples": 3, "tripled": 3, "tripling": 3, "quadruple": 4, "quadruples": 4, "quadrupled": 4, "quadrupling": 4,
    "halve": 0.5, "halves": 0.5, "halved": 0.5, "halving": 0.5,
    **{f"{w}fold": v for w, v in _SMALL.items() if isinstance(v, int) and 1 < v <= 100 and " " not in w},
    **{f"{w}-fold": v for w, v in _SMALL.items() if isinstance(v, int) and 1 < v <= 100 and " " not in w},
}

SCALE_WORDS = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9,
    "bn": 1e9, "b": 1e9, "trillion": 1e12, "t": 1e12,
}

_DIGITS = r"(?:[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
# A suffix letter is a magnitude only when no letter follows ("954K", "552B", not "80GB").
_SUFFIX = r"(?:[kKMBT](?![A-Za-z]|/[A-Za-z]))"
_SCALE = r"(?:[\s-]?(?:thousand|million|billion|trillion)\b|\s?(?:mn|bn)\b)"
_SPELLED = "|".join(sorted((re.escape(w) for w in _SMALL), key=len, reverse=True))
_RATIO = "|".join(sorted((re.escape(w) for w in RATIO_WORDS), key=len, reverse=True))

_NUM = (
    rf"(?<![\w.,/])(?:(?P<digits>{_DIGITS})(?P<scale>{_SCALE}|{_SUFFIX})?(?!\.[0-9])(?![0-9])"
    rf"|(?P<word>\b(?:{_SPELLED})\b)(?P<wscale>{_SCALE})?)"
)
NUMBER_RE = re.compile(_NUM, re.I)
RATIO_WORD_RE = re.compile(rf"\b(?:{_RATIO})\b", re.I)
# Between two numbers of a range: "20–22", "2.5-3.4x", "105~118%", "30 to 200".
RANGE_SEP_RE = re.compile(r"\s?(?:–|—|-|~|to|through)\s?(?=[\d.$])", re.I)
BETWEEN_RE = re.compile(r"\b(?:between|from)\s+$", re.I)


@dataclass(slots=True)
class Number:
    start: int
    end: int
    text: str
    value: float
    precision: float     # half the place of the last written digit, in the number's own scale
    spelled: bool = False
    scale: float = 1.0   # the K/M/B/T or scale word multiplier that was written
    scale_text: str = ""
    has_suffix_letter: bool = False


def _precision(digits: str) -> float:
    clean = digits.replace(",", "")
    if "." in clean:
        return 0.5 * 10 ** (-len(clean.split(".", 1)[1]))
    return 0.5


def parse_match(m) -> Number | None:
    digits, scale_text = m.group("digits", "scale")
    if digits:
        try:
            base = float(digits.replace(",", "") if "," in digits else digits)
        except ValueError:
            return None
        if scale_text:
            scale_text = scale_text.strip(" -\t\r\n")
            scale = SCALE_WORDS.get(scale_text.lower(), 1.0)
        else:
            scale_text, scale = "", 1.0
        value = base * scale
        if not math.isfinite(value):
            return None
        return Number(m.start(), m.end(), m.group(0), value, _precision(digits) * scale,
                      False, scale, scale_text, len(scale_text) == 1)
    word = m.group("word").lower()  # only NUMBER_RE has this group
    base = _SMALL.get(word)
    if base is None:
        return None
    scale_text = (m.group("wscale") or "").strip(" -")
    scale = SCALE_WORDS.get(scale_text.lower(), 1.0) if scale_text else 1.0
    return Number(
        start=m.start(), end=m.end(), text=m.group(0), value=base * scale,
        precision=0.5 * scale, spelled=True, scale=scale, scale_text=scale_text,
    )


# The same grammar split in two so that neither scan pays for the other: digits (one
# compiled scan), and spelled numbers looked up word by word in a dictionary.
_DIGIT_NUM_RE = re.compile(rf"(?P<digits>{_DIGITS})(?P<scale>{_SCALE}|{_SUFFIX})?(?!\.[0-9])(?![0-9])", re.I)
_DIGIT_RUN_RE = re.compile(r"[0-9]+")
_GLUED_BEFORE = frozenset("_.,/")  # "v0.6", "1,2", "a/b3": the number is part of something
_SPELLED_FIRST = {w.split()[0] for w in _SMALL}


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """A lower-cased copy whose offsets are the text's: str.lower() when it keeps the length
    (it only ever lengthens a character, İ -> i̇), else A-Z lowered alone."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


# "a" only as "a hundred" / "a thousand": alone it is the commonest word in English
_SPELLED_WORDS = r"(?:a\s+(?:hundred|thousand)|" + alternation(dict.fromkeys(_SPELLED_FIRST - {"a"}, "")) + r")\b"
# The character before the word leads the scan (a word starts where a non-word character
# ends): ``re`` skips to a leading class in C, where a leading \b is tried at every place.
_SPELLED_RE = re.compile(r"\W" + _SPELLED_WORDS)
_SPELLED_AT_RE = re.compile(_SPELLED_WORDS)   # ... and one at the text's start


def _spelled_starts(lower: str, start: int, end: int):
    """Where a spelled number's first word starts in ``lower[start:end]``: the places
    ``\b`` + ``_SPELLED_WORDS`` matches, found without overlap, in order."""
    pos = start - 1 if start else 0
    if start == 0:
        first = _SPELLED_AT_RE.match(lower, 0, end)
        if first is not None:
            yield 0
            pos = first.end()
    for w in _SPELLED_RE.finditer(lower, pos, end):
        yield w.start() + 1


def find_numbers(text: str, start: int = 0, end: int | None = None, lower: str | None = None,
                 skip: Callable[[int, int], bool] | None = None) -> list[Number]:
    """Every number in ``text[start:end]``, in order. ``lower`` is ``ascii_lower(text)`` when
    the caller has it: spelled numbers are found in it without a case-blind regex. ``skip``
    drops a digit span before it is read (code, URLs), which most numbers in such places are."""
    end = len(text) if end is None else end
    lower = ascii_lower(text) if lower is None else lower
    out = []
    # Runs of digits are found first (a plain scan); the full grammar is tried only where a
    # run starts outside a word or a longer number.
    pos = start
    for r in _DIGIT_RUN_RE.finditer(text, start, end):
        s = r.start()
        if s < pos:
            continue
        if s > start and text[s - 1] == "." and (s < 2 or not text[s - 2].isalnum()):
            s -= 1  # ".5"
        if s > 0 and (text[s - 1] in _GLUED_BEFORE or text[s - 1].isalnum()):
            continue
        m = _DIGIT_NUM_RE.match(text, s, end)
        if m is None or (skip is not None and skip(m.start(), m.end())):
            continue
        pos = m.end()
        n = parse_match(m)
        if n is not None:
            out.append(n)
    spelled = False
    last = -1
    for ws in _spelled_starts(lower, start, end):
        if ws >= last:
            m = NUMBER_RE.match(text, ws, end)
            if m and m.group("word"):
                n = parse_match(m)
                if n is not None:
                    out.append(n)
                    spelled = True
                    last = m.end()
    if spelled:
        out.sort(key=lambda n: n.start)
    return out
