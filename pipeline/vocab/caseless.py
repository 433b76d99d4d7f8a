"""Case-blind patterns run as case-sensitive ones over lower-cased text.

``re.IGNORECASE`` folds the case of every character it compares, which makes a scan over a
sentence about three times as slow. A pattern whose source is lower-cased (all but escaped
letters: ``\\S`` stays ``\\S``) finds the same spans in a lower-cased copy of the text with
the same length, so offsets and group numbers carry over to the original text.

That holds for a pattern written in ASCII, whose letters ``re`` matches case-blind to their
two cases and to four more characters: K (Kelvin) to k, ſ to s, ı and İ to i. ``fold``
makes the copy read those as their ASCII letter and gives up (None) on a text that
lower-casing lengthens ("İ" becomes two characters); such a text keeps the case-blind scan.
"""
from __future__ import annotations

import re

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
