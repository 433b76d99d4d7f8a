"""Which characters a regular expression can start a match with.

A vocabulary of units is one alternation that ``re`` tries branch by branch at each
number; knowing each branch's possible first characters lets the caller try only the
branches that can start with the character actually there. The answer is a superset
(look-arounds are skipped, case-blind parts take every case and ``re``'s extra folds);
``None`` means "any character" (a class of categories, ``.``, or a branch that may match
the empty string).
"""
from __future__ import annotations

import re
from re import _constants as C, _parser  # the standard library's own pattern parser

from pipeline.vocab.caseless import lower_source
from pipeline.vocab.trie import alternation

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
