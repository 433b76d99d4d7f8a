"""A change written as two figures of one quantity: "rose from 1.5k to 2.2k tokens/s",
"slips to 580 TFLOPS, down from 660", "cut TTFT to 90 ms from 210 ms".

"From A to B" after a verb of change is a before and an after, not a range: the extractor
keeps the two figures apart (``candidates``), and the checker holds a headline that states a
change to a record that states the same change, in the same direction (docs/claims-model.md
§4: a headline that reverses a change is contradicted, one whose record holds only the after
figure is unproven). One reading, used by both.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.extract.numbers import NUMBER_RE, parse_match
from pipeline.model import Claim

# verbs (any inflection) that say a quantity moved
_VERB = (r"\b(?:ris(?:e|es|ing)|rose|increas\w*|gr[eo]w\w*|jump\w*|climb\w*|improv\w*|boost\w*|"
         r"rais\w*|lift\w*|went|go(?:es|ing)?|mov(?:e|ed|es|ing)|fell|fall\w*|drop\w*|slip\w*|"
         r"slid\w*|declin\w*|decreas\w*|reduc\w*|cut\w*|lower\w*|shr[aiu]nk\w*|slash\w*|sped|"
         r"speed\w*|plung\w*|soar\w*|surg\w*|doubl\w*|halv\w*|trimm?\w*|push\w*|brought|bring\w*|"
         r"tak(?:e|es|ing)|took|accelerat\w*|shorten\w*|extend\w*|expand\w*|slow\w*|"
         r"stretch\w*|lengthen\w*|tripl\w*|widen\w*|narrow\w*|balloon\w*)\b")
_APPROX = r"(?:(?:about|around|roughly|nearly|almost|approximately|just|over|under)\s+|[~≈]\s*)?"
# (never the digits of a name: "on H200, down from 1.9k" moved from 1.9k, not to 200)
_NUM = r"(?<![\w.])\$?(\d[\d,]*(?:\.\d+)?(?:\s?[kKMB](?![A-Za-z]))?)"
_UNIT = r"(?:\s*[^\s\d.,;:()]{1,20}(?:\s+(?:per|/)\s*[^\s\d.,;:()]{1,12})?)?"

# how far "from" may stand after its verb: far enough for a bracket of settings between
# them ("cut the benchmark (batch 256, 4,096-token inputs, 16-token outputs) from 7.0 to 6.6 s")
_GAP = 130

_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)")
_RANGE_LEAD = re.compile(r"\b(?:rang\w*|var(?:y|ies|ied|ying)|anywhere|spann?\w*)\s+$", re.I)

_FROM_TO = re.compile(_VERB + rf"(?:[^.;:!?]|\.(?=\S)){{0,{_GAP}}}?\bfrom\s+" + _APPROX + _NUM + _UNIT
                      + r"\s+to\s+" + _APPROX + _NUM, re.I)
_TO_FROM = re.compile(_VERB + rf"(?:[^.;:!?]|\.(?=\S)){{0,{_GAP}}}?\bto\s+" + _APPROX + _NUM + r"[^.;:!?\d]{0,40}?"
                      r"\bfrom\s+" + _APPROX + _NUM, re.I)
# "120 ms -> 80 ms", "1,200 → 1,800 tokens/s": an arrow between two figures is a change
# (no verb needed: the arrow says the quantity moved)
_ARROW = re.compile(_NUM + _UNIT + r"\s*(?:-+>|→|⟶|⇒|=>)\s*" + _APPROX + _NUM, re.I)
# (the words between may hold a name's digits, "on H200", not another number)
_UP_FROM = re.compile(_NUM + r"(?:[^.;:!?\d]|\B\d){0,40}?[,(]\s*(?:up|down)\s+from\s+" + _APPROX + _NUM,
                      re.I)


@dataclass(frozen=True)
class Change:
    """One quantity moving from ``before`` to ``after``; ``start``/``end`` span the words."""

    before: float
    after: float
    start: int
    end: int


def written_number(text: str) -> float | None:
    """The first number of ``text`` as written ("1,112" of "1,112 ms"), read with the
    extractor's number grammar: how a change's before and after are read."""
    m = NUMBER_RE.search(text)
    n = parse_match(m) if m else None
    return n.value if n else None


def find_changes(text: str, start: int = 0, end: int | None = None) -> list[Change]:
    """Every change stated in ``text[start:end]``, in order."""
    end = len(text) if end is None else end
    out: list[Change] = []
    for rx, before_group in ((_FROM_TO, 1), (_TO_FROM, 2), (_UP_FROM, 2), (_ARROW, 1)):
        for m in rx.finditer(text, start, end):
            a, b = written_number(m.group(before_group)), written_number(m.group(3 - before_group))
            if a is not None and b is not None and a != b and not any(
                    c.before == a and c.after == b and c.start < m.end() and m.start() < c.end
                    for c in out):
                out.append(Change(a, b, m.start(), m.end()))
    return sorted(out, key=lambda c: c.start)


def change_before(text: str, start: int, pos: int) -> bool:
    """Does a verb of change come right before "from" at ``pos`` (within the clause)?
    "rose from 575 to 826" is a change; "ranging from 575 to 826" a range."""
    lead = text[max(start, pos - _GAP):pos]
    if _RANGE_LEAD.search(lead) or _CLAUSE_END.search(lead):
        return False
    return re.search(_VERB, lead, re.I) is not None


def same_value(a: float, b: float) -> bool:
    """Two writings of one figure ("2.2k" and "2,200"; "1.5k" and "~1,500")."""
    return abs(a - b) <= 0.03 * max(abs(a), abs(b))


def written_after(text: str, pos: int, value: float) -> bool:
    """Is ``value`` written as a number in ``text`` after ``pos`` ("from 67 TPS to 253 ...,
    and to 368 TPS": the change's later figure)? Read with the same number grammar."""
    for m in NUMBER_RE.finditer(text, pos):
        n = parse_match(m)
        if n is not None and same_value(n.value, value):
            return True
    return False


# what the two figures of a change share: the quantity measured and the system it was
# measured on. Not the dtype or technique: "cut TTFT from 210 ms to 90 ms with FP8" names
# what made the change, which the figure before it did not have.
CHANGE_SHARED = ("scope", "statistic", "phase", "token_kind", "per_basis", "model", "engine",
                 "parallelism", "concurrency", "batch_size", "isl", "osl", "workload",
                 "offered_load", "measures", "direction", "baseline")


def change_pairs(text: str, claims: list[Claim]) -> list[tuple[Claim, Claim]]:
    """(before, after) claims of every change written in the claims' sentences: the two
    figures whose numbers as written are the change's, inside its words."""
    out: list[tuple[Claim, Claim]] = []
    by_sentence: dict[tuple[int, int], list[Claim]] = {}
    for c in claims:
        if c.sentence_start is not None and not c.in_table:
            by_sentence.setdefault((c.sentence_start, c.sentence_end or c.end), []).append(c)
    for (s, e), members in by_sentence.items():
        if len(members) < 2:
            continue
        for ch in find_changes(text, s, e):
            inside = [c for c in members if ch.start <= c.start < ch.end]
            at = text.rfind("from", ch.start, inside[0].start) if inside else -1
            if at >= 0 and not change_before(text, s, at):
                continue    # "ranging from 1.5x to 2.3x": a range, not a change
            before = next((c for c in inside if _written(c, ch.before)), None)
            after = next((c for c in inside if c is not before and _written(c, ch.after)), None)
            if before is not None and after is not None and before.family == after.family:
                out.append((before, after))
    return out


def _written(c: Claim, value: float) -> bool:
    n = written_number(c.value_text or c.surface)
    return n is not None and same_value(n, value)


def share_change(text: str, claims: list[Claim]) -> None:
    """The before and after figures of a change measure one quantity on one system: each
    takes what the other states and it does not ("TTFT dropped to 90 ms from 210 ms on
    H100": 90 ms is on H100 too; "rose from 1,200 to 1,800 tokens/s per GPU": both per GPU)."""
    for a, b in change_pairs(text, claims):
        for x, y in ((a, b), (b, a)):
            for f in CHANGE_SHARED:
                if getattr(x, f) in (None, "unspecified") and getattr(y, f) not in (None, "unspecified"):
                    setattr(x, f, getattr(y, f))
            if x.hardware is None and y.hardware is not None:
                x.hardware, x.accelerator, x.hw_count = y.hardware, y.accelerator, y.hw_count
