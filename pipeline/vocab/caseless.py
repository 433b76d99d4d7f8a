"""Case-blind patterns run as case-sensitive ones over lower-cased text.

``re.IGNORECASE`` folds the case of every character it compares, which makes a scan over a
sentence about three times as slow. A pattern whose source is lower-cased (all but escaped
letters: ``\\S`` stays ``\\S``) finds the same spans in a lower-cased copy of the text with
the same length, so offsets and group numbers carry over to the original text.

The two differ only where case folding is not one-to-one: ``re`` folds the ASCII letters
k, s and i together with K (Kelvin), ſ, İ and ı. Texts holding any of those four must
use the case-blind pattern (``folds_simply``).
"""
from __future__ import annotations

import re

_ODD_FOLDS = ("\u212a", "\u017f", "\u0130", "\u0131")


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


def folds_simply(text: str) -> bool:
    """Whether a lower-cased copy of ``text`` stands in for case-blind matching on it."""
    return not any(ch in text for ch in _ODD_FOLDS)


class Caseless:
    """A case-blind pattern with a case-sensitive twin for lower-cased text.

    ``finditer``/``search`` take the text and its lower-cased copy (``None`` when the
    copy will not do): matches come from the copy, so a caller reads any matched words
    from the original text by their spans."""

    def __init__(self, pattern: re.Pattern[str]):
        self.pattern = pattern
        src = pattern.pattern
        usable = bool(pattern.flags & re.I) and "(?-i" not in src and "\\N" not in src
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
