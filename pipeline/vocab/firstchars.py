"""Which characters a regular expression can start a match with.

A vocabulary of units is one alternation that ``re`` tries branch by branch at each
number; knowing each branch's possible first characters lets the caller try only the
branches that can start with the character actually there. The answer is a superset
(look-arounds are skipped, case-blind parts take every case and ``re``'s extra folds);
``None`` means "any character" (a class of categories, ``.``, or a branch that may match
the empty string).
"""
from __future__ import annotations

from re import _constants as C, _parser  # the standard library's own pattern parser

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
