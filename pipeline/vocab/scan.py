"""Text-scanning helpers: what lets a vocabulary or a cue be looked for cheaply.

The one module of the package that reads ``re``'s own parser (``re._parser``,
``re._constants``); everything else compiles and runs patterns only. Four jobs:

* case-blind patterns run as case-sensitive ones over a folded copy of the text (``fold``,
  ``Caseless``);
* word lists laid out as tries (``alternation``);
* which characters or prefixes a pattern's matches start with (``first_chars``,
  ``prefixes``, ``lookahead``, ``word_led``, ``needles``);
* trying a pattern only where a fixed piece of it (a needle) was found (``positions``,
  ``matches_at``, ``matches_near``; link/roles.py's cues use them).

Case-blind patterns over lower-cased text
-----------------------------------------
Case-blind patterns run as case-sensitive ones over lower-cased text.

``re.IGNORECASE`` folds the case of every character it compares, which makes a scan over a
sentence about three times as slow. A pattern whose source is lower-cased (all but escaped
letters: ``\\S`` stays ``\\S``) finds the same spans in a lower-cased copy of the text with
the same length, so offsets and group numbers carry over to the original text.

That holds for a pattern written in ASCII, whose letters ``re`` matches case-blind to their
two cases and to four more characters: K (Kelvin) to k, ſ to s, ı and İ to i. ``fold``
makes the copy read those as their ASCII letter and gives up (None) on a text that
lower-casing lengthens ("İ" becomes two characters); such a text keeps the case-blind scan.

Tries
-----
Word lists as regex tries.

``re`` tries the branches of an alternation one after another at every place it looks,
so a list of a hundred names costs a hundred tries per word. Laid out as a trie
("se(?:ven(?:t(?:een|y)|)|...)") a place is ruled out by its first letters.

First characters
----------------
Which characters a regular expression can start a match with.

A vocabulary of units is one alternation that ``re`` tries branch by branch at each
number; knowing each branch's possible first characters lets the caller try only the
branches that can start with the character actually there. The answer is a superset
(look-arounds are skipped, case-blind parts take every case and ``re``'s extra folds);
``None`` means "any character" (a class of categories, ``.``, or a branch that may match
the empty string).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from re import _constants as C, _parser  # the standard library's own pattern parser

# --- case-blind patterns over lower-cased text -------------------------------------------
# What ``str.lower`` leaves alone of those four: dotless i and long s.
FOLD_FIX = str.maketrans({"ı": "i", "ſ": "s"})


def fold(text: str) -> str | None:
    """``text`` lower-cased character for character, every character that a case-insensitive
    pattern takes for an ASCII letter reading as that letter; None when lower-casing changes
    the length."""
    low = text.lower()
    if len(low) != len(text):
        return None
    if not text.isascii() and ("ı" in low or "ſ" in low):
        low = low.translate(FOLD_FIX)
    return low


# An escape that names a character by its code ("\\x41", "\\u00c9", "\\N{...}", "\\101"):
# kept as written, it would keep its case.
_CODE_ESCAPE_RE = re.compile(r"\\(?:[xuUN]|[0-7]{3}|0)")
# Kept as written: escapes ("\\S"), group names ("(?P<Who>", "(?P=Who)") and inline flags.
_VERBATIM_RE = re.compile(r"\\.|\(\?P<[^>]*>|\(\?P=[^)]*\)|\(\?[aiLmsux-]+[:)]", re.S)


def lower_source(source: str) -> str:
    """A pattern's source with every character lower-cased but escapes, group names and
    inline flags."""
    out = []
    pos = 0
    for m in _VERBATIM_RE.finditer(source):
        out.append(source[pos:m.start()].lower())
        out.append(m.group(0))
        pos = m.end()
    out.append(source[pos:].lower())
    return "".join(out)


class Caseless:
    """A case-blind pattern with a case-sensitive twin for lower-cased text.

    ``finditer``/``search`` take the text and ``fold(text)`` (``None``: the case-blind
    pattern runs): matches come from the copy, so a caller reads any matched words from
    the original text by their spans. Only an ASCII pattern with no case-sensitive part
    and no character written as a code gets the twin."""

    def __init__(self, pattern: re.Pattern[str]):
        self.pattern = pattern
        src = pattern.pattern
        usable = (bool(pattern.flags & re.I) and src.isascii() and "(?-i" not in src
                  and not _CODE_ESCAPE_RE.search(src))
        self.fast = re.compile(lower_source(src), pattern.flags & ~re.I) if usable else None

    def finditer(self, text: str, lower: str | None, pos: int = 0, endpos: int | None = None):
        endpos = len(text) if endpos is None else endpos
        if self.fast is not None and lower is not None:
            return self.fast.finditer(lower, pos, endpos)
        return self.pattern.finditer(text, pos, endpos)

    def search(self, text: str, lower: str | None, pos: int = 0, endpos: int | None = None):
        endpos = len(text) if endpos is None else endpos
        if self.fast is not None and lower is not None:
            return self.fast.search(lower, pos, endpos)
        return self.pattern.search(text, pos, endpos)


# --- tries -------------------------------------------------------------------------------

def alternation(terms: dict[str, str | None]) -> str:
    """A pattern matching any of ``terms`` (words -> what must follow each: a pattern,
    "" for nothing, or None for a stem that anything may follow, which ends the branch).
    Longer words are tried before their prefixes, as a longest-first alternation would."""
    trie: dict = {}
    for word, end in terms.items():
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = end

    def pattern(node: dict) -> str:
        if "" in node and node[""] is None:
            return ""
        alts = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            alts.append(node[""])
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return pattern(trie) if trie else "(?!)"


# --- first characters and prefixes -------------------------------------------------------

_FOLDS = {"k": "\u212a", "s": "\u017f", "i": "\u0130\u0131"}  # what re.I folds besides case
_WIDEST_RANGE = 300


def first_chars(source: str, flags: int = 0) -> frozenset[str] | None:
    found, may_be_empty = _first(list(_parser.parse(source, flags)), bool(flags & C.SRE_FLAG_IGNORECASE))
    return None if found is None or may_be_empty else frozenset(found)


def _cases(chars: set[str], ignorecase: bool) -> set[str]:
    if not ignorecase:
        return chars
    out: set[str] = set()
    for c in chars:
        out |= {c, c.lower(), c.upper(), *_FOLDS.get(c.lower(), "")}
    return out


def _first(seq: list, ic: bool) -> tuple[set[str] | None, bool]:
    """(first characters or None for any, whether the sequence may match nothing)."""
    out: set[str] = set()
    for op, av in seq:
        found, may_be_empty = _op(op, av, ic)
        if found is None:
            return None, False
        out |= found
        if not may_be_empty:
            return out, False
    return out, True


def _op(op, av, ic: bool) -> tuple[set[str] | None, bool]:
    if op is C.LITERAL:
        return _cases({chr(av)}, ic), False
    if op is C.IN:
        chars: set[str] = set()
        for o, a in av:
            if o is C.LITERAL:
                chars.add(chr(a))
            elif o is C.RANGE and a[1] - a[0] <= _WIDEST_RANGE:
                chars |= {chr(x) for x in range(a[0], a[1] + 1)}
            else:                       # NEGATE, CATEGORY (\s, \w), huge ranges
                return None, False
        return _cases(chars, ic), False
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return set(), True              # zero-width: the next item decides
    if op is C.SUBPATTERN:
        _, add, remove, sub = av
        ic = (ic or bool(add & C.SRE_FLAG_IGNORECASE)) and not remove & C.SRE_FLAG_IGNORECASE
        return _first(list(sub), ic)
    if op is C.BRANCH:
        out: set[str] = set()
        empty = False
        for sub in av[1]:
            found, e = _first(list(sub), ic)
            if found is None:
                return None, False
            out |= found
            empty = empty or e
        return out, empty
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT)):
        low, _, sub = av
        found, e = _first(list(sub), ic)
        return (None, False) if found is None else (found, low == 0 or e)
    return None, False                  # ANY, NOT_LITERAL, group references, ...


# at most this many prefixes in a guard: past it, they are cut shorter
_MOST_PREFIXES = 400
_MOST_CHARS_PER_CLASS = 40


def prefixes(source: str, length: int = 3) -> frozenset[str] | None:
    """The strings of up to ``length`` characters that every match of ``source``
    (case-sensitive; ASCII) starts with one of: a superset, as ``first_chars``. A match
    may be longer than its prefix; a prefix is shorter where what follows is not a plain
    character ("HF\\s+" gives "hf"). None when some match may start with anything, or the
    pattern switches case-blindness on or off inside."""
    try:
        found = _prefixes(list(_parser.parse(source, 0)), [("", True)], length)
    except (_NoGuard, re.error):
        return None
    out = {p for p, _ in found}
    while len(out) > _MOST_PREFIXES and length > 1:
        length -= 1
        out = {p[:length] for p in out}
    return None if "" in out else frozenset(out)


class _NoGuard(Exception):
    """A pattern whose case rules the prefixes cannot follow."""


def _prefixes(seq: list, items: list[tuple[str, bool]], length: int) -> list[tuple[str, bool]]:
    """Extend each open (prefix, open) item by the items of ``seq``; an item closes when it
    is ``length`` long or what comes next is not a known set of characters."""
    for op, av in seq:
        if not any(is_open for _, is_open in items):
            break
        out: list[tuple[str, bool]] = []
        for prefix, is_open in items:
            if not is_open:
                out.append((prefix, False))
                continue
            out.extend(_extend(op, av, prefix, length))
        items = list(dict.fromkeys(out))
        if len(items) > 4 * _MOST_PREFIXES:
            return [(p, False) for p, _ in items]
    return items


def _extend(op, av, prefix: str, length: int) -> list[tuple[str, bool]]:
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return [(prefix, True)]         # zero-width: the next item decides
    if op is C.LITERAL:
        chars = [chr(av)]
    elif op is C.IN:
        chars = []
        for o, a in av:
            if o is C.LITERAL:
                chars.append(chr(a))
            elif o is C.RANGE and a[1] - a[0] < _MOST_CHARS_PER_CLASS:
                chars.extend(chr(x) for x in range(a[0], a[1] + 1))
            else:                       # NEGATE, CATEGORY (\s, \w), wide ranges
                return [(prefix, False)]
        if len(chars) > _MOST_CHARS_PER_CLASS:
            return [(prefix, False)]
    elif op is C.SUBPATTERN:
        _, add, remove, sub = av
        if (add | remove) & C.SRE_FLAG_IGNORECASE:
            raise _NoGuard
        return _prefixes(list(sub), [(prefix, True)], length)
    elif op is C.BRANCH:
        out: list[tuple[str, bool]] = []
        for sub in av[1]:
            out.extend(_prefixes(list(sub), [(prefix, True)], length))
        return out
    elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT)):
        low, _, sub = av
        # once through the repeated part, then the prefix stops (a second pass is not
        # followed); with no pass required, also the prefix as it was
        once = [(p, False) for p, _ in _prefixes(list(sub), [(prefix, True)], length)]
        return once + ([(prefix, True)] if low == 0 else [])
    else:
        return [(prefix, False)]        # ANY, NOT_LITERAL, group references, ...
    return [(prefix + ch, len(prefix) + 1 < length) for ch in chars]


def lookahead(source: str, flags: int = 0) -> str:
    """A look-ahead for the first letters a match of ``source`` (compiled with ``flags``)
    can start with ("(?=(?:dyn|nvi|vll|...))"), to put before an alternation: ``re`` tries
    an alternation's branches one by one at every word, and this rules most words out at
    once. It never rules out a match; empty when the prefixes cannot be worked out."""
    # (lower-cased, a case-blind pattern's look-ahead stays short and ASCII, as caseless.py
    # needs; compiled with the same flags, the letters as written match the same text)
    src = lower_source(source) if flags & re.I and source.isascii() else source
    found = prefixes(src)
    return f"(?={alternation(dict.fromkeys(found))})" if found else ""


_WORD_START_RE = re.compile(r"(\(\?[aiLmsux]+\))?\\b")


def word_led(source: str, flags: int = 0) -> str:
    """``source`` (to be compiled with ``flags``) with ``lookahead`` put right after its
    leading ``\\b`` (after a leading inline "(?i)"): a pattern searched over a window
    before a figure ("at a concurrency of $") then tries its words only at the words that
    can start one."""
    m = _WORD_START_RE.match(source)
    if m is None:
        return source
    if m.group(1) and "i" in m.group(1):
        flags |= re.I
    rest = source[m.end():]
    return source[:m.end()] + lookahead(rest, flags) + rest


def needles(pattern: re.Pattern) -> tuple[str, ...] | None:
    """Needles (in ``fold`` text), one of which begins every match of the case-blind
    ``pattern``, each at least two characters long and none beginning with another; None
    when a match can begin otherwise."""
    return _needles(pattern.pattern, pattern.flags)


@lru_cache(maxsize=8)
def _needles(source: str, flags: int) -> tuple[str, ...] | None:
    found = prefixes(lower_source(source) if flags & re.I else source, 12)
    if found is None:
        return None
    out: list[str] = []
    for s in sorted(found, key=lambda s: (len(s), s)):
        if len(s) < 2:
            return None
        if not s.startswith(tuple(out)):
            out.append(s)
    return tuple(out)


# --- trying a pattern only where a needle is ---------------------------------------------
#
# Trying a dozen patterns at every position of a document costs more than extracting its
# claims. When every match of a pattern holds a fixed piece of text, a needle ("ccording
# to ", " said", "we"), at a known place, ``str.find`` (or one scan for many needles) finds
# the needles far faster than the pattern is tried at every position, and the pattern is
# then tried only there:
#
# * a pattern whose match starts a known distance before a needle is tried there
#   (``matches_at``); ``pattern.match(text, p)`` sees the whole text, so word boundaries and
#   look-behinds decide as in a scan;
# * a pattern that begins with a name of any length (no spaces) is searched from the start
#   of the word before the needle up to the needle (``matches_near``), the search ending
#   further after the needle than any match started there can read.
#
# The matches of a pattern never overlap, and a scan takes the leftmost one after the end of
# the previous one: trying the candidate starts in order, each from the end of the last
# match, finds the same matches.

def positions(hay: str, needle: str, end: int | None = None) -> list[int]:
    """Every index where ``needle`` occurs in ``hay[:end]`` (overlapping ones too)."""
    out = []
    i = hay.find(needle, 0, end)
    while i >= 0:
        out.append(i)
        i = hay.find(needle, i + 1, end)
    return out


def matches_at(pattern: re.Pattern, text: str, starts: Iterable[int]) -> list[re.Match]:
    """``list(pattern.finditer(text))``, given every position a match can start at (and
    maybe others, negative ones too). The pattern must not match the empty string."""
    found = []
    end = 0
    for p in sorted(set(starts)):
        if p >= end:
            m = pattern.match(text, p)
            if m is not None:
                found.append(m)
                end = m.end()
    return found


def matches_near(pattern: re.Pattern, text: str, anchors: list[int], reach: int,
                 back: Callable[[str, int], int]) -> list[re.Match]:
    """``list(pattern.finditer(text))`` for a pattern each match of which contains one of the
    sorted ``anchors`` and starts in ``[back(text, q), q]`` for that anchor ``q``, with a
    capital letter (its name's) before ``q``. ``back`` must not decrease with ``q``, and
    no match started at or before ``q`` may read ``text`` at or past ``q + reach``: in that
    window a search decides as in the whole text."""
    found = []
    end = done = 0
    n = len(text)
    for q in anchors:
        lo = max(back(text, q), done, end)
        done = q + 1
        if lo > q:
            continue
        word = text[lo:q]
        if word.lower() == word:          # no capital letter: no name, no match starts here
            continue
        hi = min(n, q + reach)
        while lo <= q:
            m = pattern.search(text, lo, hi)
            if m is None or m.start() > q:
                break
            found.append(m)
            lo = end = m.end()
    return found


class WordScan:
    """One scan of a folded text for many needles that each are a space and the start of a
    word (" said", " team"): a match takes the space and one word, so none is skipped."""

    def __init__(self, words: Iterable[str]):
        words = sorted(set(words))
        if any(not w.startswith(" ") or " " in w[1:] or len(w) < 2 for w in words):
            raise ValueError(f"a needle for one scan is a space and a word: {words}")
        self.words = tuple(words)
        self.pattern = re.compile(" " + alternation(dict.fromkeys((w[1:] for w in words), "")))
        # a match is the longest needle there; it stands for the needles it begins with too
        self._within = {w: tuple(v for v in words if w.startswith(v)) for w in words}

    def find(self, low: str) -> dict[str, list[int]]:
        """The positions (of the space) of each needle in ``low``, in order."""
        out: dict[str, list[int]] = {w: [] for w in self.words}
        within = self._within
        for m in self.pattern.finditer(low):
            for w in within[m[0]]:
                out[w].append(m.start())
        return out
