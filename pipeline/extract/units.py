"""Read the unit written next to a number: after it ("826 tokens/s", "4.8TB/s", "44%"), or
before it for currency ("$38.96"), with the denominator a unit can carry ("tok/s/user").
"""
from __future__ import annotations

from dataclasses import dataclass

import re


from pipeline.vocab.loader import UnitEntry, Vocab

# Patterns used inside functions, compiled once.
_MILLION_RE = re.compile(r"(?:1\s?)?(?:m|million|1m)\b")
_THOUSAND_RE = re.compile(r"(?:1\s?)?(?:k|thousand|1k)\b")

# between a number and its unit: a space, markup, or the line break of a hard-wrapped
# paragraph ("1,094,347\ntokens/s per GPU"), never a blank line
_GAP_RE = re.compile(r"\+?(?:[ \u00a0]|\r?\n(?![ \t]*\r?\n))?(?:\*\*|__)?[ \u00a0]?")
_DTYPE_GAP_RE = re.compile(r"(?:FP8|BF16|FP16|FP32|TF32|INT8|INT4|FP4|NVFP4|MXFP4|dense|sparse)[ \u00a0]+")
_CURRENCY_BEFORE_RE = re.compile(r"(?:US\$|USD\s?|\\?\$|€|EUR\s?)(?:\*\*)?$")
_CURRENCY_AFTER_RE = re.compile(r"\s?(?:USD|dollars?|US dollars)\b")
_CENTS_RE = re.compile(r"\s?(?:cents?|¢)")
_PER_BASIS_RE = re.compile(
    r"\s*(?:in\s+\w+\s+)?(?:/|per\s+|an?\s+|each\s+)(?P<basis>"
    r"(?:GPU[- ]?(?:hour|hr|h)s?|GPU\s*/\s*(?:hour|hr|h)|(?:1\s?)?(?:M|million|1M|K|thousand|1K|B|billion)\s+(?:\w+\s+)?tokens?|"
    r"(?:M|1M|K|1K)\b|hour|hr|h\b|day|month|year|node[- ]hour|instance[- ]hour|request|query|user|GPU|token|million))",
    re.I,
)


@dataclass(slots=True)
class UnitHit:
    end: int            # where the unit (and any denominator suffix) ends
    unit_text: str
    entry: UnitEntry
    scope: str | None = None
    scope_end: int | None = None


_UNIT_FIRST = set("%×-µμ/")


def read_unit(text: str, pos: int, vocab: Vocab, limit: int | None = None) -> UnitHit | None:
    """The unit starting at ``pos`` (after at most a space or emphasis marks), if any."""
    limit = len(text) if limit is None else limit
    g = _GAP_RE.match(text, pos, limit)
    start = g.end() if g else pos
    first = text[start:start + 1]
    if not first or not (first.isalpha() or first in _UNIT_FIRST or first.isspace()):
        return None  # most numbers end at a space, a comma or a table pipe: no unit to try
    found = vocab.match_unit(text, start, limit)
    if not found:
        # "1,350 FP8 TFLOPS", "580 BF16 TFLOPS": a compute rate names its precision between
        d = _DTYPE_GAP_RE.match(text, start, limit)
        found = vocab.match_unit(text, d.end(), limit) if d else None
        if not found or found[1].family != "compute":
            return None
        start = d.end()
    m, entry = found
    end = m.end()
    hit = UnitHit(end=end, unit_text=text[start:end], entry=entry, scope=entry.scope)
    if entry.family in ("token_throughput", "request_throughput", "money", "bandwidth"):
        s = scope_after(vocab, text, end, limit)
        if s:
            hit.scope, hit.scope_end = s
            if text[end:s[1]].lstrip().startswith("/"):
                hit.unit_text = text[start:s[1]]
                hit.end = s[1]
    return hit


def scope_after(vocab: Vocab, text: str, pos: int, limit: int) -> tuple[str, int] | None:
    """The denominator written at ``pos`` ("/GPU", " per node", "/ user"): (scope, end)."""
    for pat, scope in vocab.scope_suffix:
        s = pat.match(text, pos, limit)
        if s:
            return scope, s.end()
    return None


def currency_before(text: str, pos: int) -> tuple[int, str] | None:
    """(where it starts, the sign) for a currency sign or code just before ``pos``
    ("$38.96", "USD 2", "**$**38"), if any; the claim's span then starts at the sign."""
    lo = max(0, pos - 6)
    window = text[lo:pos]
    if "$" not in window and "USD" not in window and "€" not in window and "EUR" not in window:
        return None
    m = _CURRENCY_BEFORE_RE.search(text, lo, pos)
    if not m:
        return None
    sign = m.group(0).replace("**", "").strip()
    return m.start() + (1 if m.group(0).startswith("\\") else 0), sign.lstrip("\\")


def currency_after(text: str, pos: int, limit: int) -> re.Match[str] | None:
    return _CURRENCY_AFTER_RE.match(text, pos, limit)


def cents_after(text: str, pos: int, limit: int) -> re.Match[str] | None:
    return _CENTS_RE.match(text, pos, limit)


def per_basis(text: str, pos: int, limit: int) -> tuple[str, int] | None:
    """What a price is per ("GPU-hour", "M tokens", "hour"), read just after it."""
    m = _PER_BASIS_RE.match(text, pos, min(limit, pos + 60))
    if not m:
        return None
    basis = m.group("basis").strip()
    low = basis.lower()
    if low.startswith("gpu") and ("h" in low[3:]):
        basis = "GPU-hour"
    elif _MILLION_RE.match(low):
        basis = "million tokens" if ("token" in low or low in ("m", "1m", "million")) else basis
    elif _THOUSAND_RE.match(low):
        basis = "thousand tokens"
    elif low in ("hr", "h"):
        basis = "hour"
    return basis, m.end()
