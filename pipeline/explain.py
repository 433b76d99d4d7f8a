"""`claims explain`: number by number, why each became a claim or why it did not.

The fastest way to see why a figure came out wrong. Nothing here decides anything: the
text goes through the extractor itself (``run_extractor``) with a subclass that only
records what each step made of each number — the candidate ``_candidate`` read (unit,
range, family or nothing), whether the name/date/version masks covered it, the claim
``build`` made or the reason it gave for skipping it (``_Extractor.dropped``, filled by
``_not_a_claim`` and the comparison reader). The explanation is read off those records;
where no step says why, it says so ("no unit or context made it a figure").
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from pipeline.extract import masks as _masks
from pipeline.extract.claims import _Extractor, run_extractor
from pipeline.extract.numbers import find_numbers
from pipeline.model import Claim, Document

NO_CONTEXT = "no unit or context made it a figure"

# Settings a figure is measured at: a number equal to one of these on a claim of its
# sentence is that claim's condition (docs/claims-model.md §1, settings).
SETTINGS = (("concurrency", "concurrency"), ("batch_size", "batch size"), ("isl", "input length (ISL)"),
            ("osl", "output length (OSL)"), ("offered_load", "offered load"),
            ("hw_count", "hardware count"))


@dataclass
class Figure:
    """One number of the text: the claim it became, or why it became none."""

    start: int
    end: int
    text: str                       # the number as written
    claim: Claim | None = None
    reason: str | None = None       # why it is no claim
    how: list[tuple[str, str]] = field(default_factory=list)   # (what, how it was read)

    @property
    def is_claim(self) -> bool:
        return self.claim is not None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "text": self.text,
                               "claim": self.claim is not None}
        if self.claim is not None:
            out["surface"] = self.claim.surface
            out["read"] = dict(self.how)
            out["fields"] = self.claim.to_dict()
        else:
            out["reason"] = self.reason
            if self.how:
                out["read"] = dict(self.how)
        return out


class _Recording(_Extractor):
    """The extractor, recording what each step made of each number (and deciding nothing)."""

    def __init__(self, doc: Document, vocab) -> None:
        super().__init__(doc, vocab)
        self.read: dict[int, Any] = {}        # number start -> the Cand _candidate made, or None
        self.cands: list = []                 # the candidates that went on to context and build
        self.results: dict[int, Claim | None] = {}  # id(cand) -> what build returned
        self.failed: dict[int, str] = {}      # id(cand) -> the error build raised

    def _candidate(self, n, nxt):
        c = super()._candidate(n, nxt)
        self.read[n.start] = c
        return c

    def candidates(self):
        self.cands = super().candidates()
        return self.cands

    def build(self, c):
        try:
            claim = super().build(c)
        except Exception as exc:
            self.failed[id(c)] = f"{type(exc).__name__}: {exc}"
            raise
        self.results[id(c)] = claim
        return claim


def explain(text: str, **metadata: Any) -> list[Figure]:
    """Every number of ``text`` (and every ratio word read as a figure), in text order,
    with the claim it became or why not. ``metadata`` as ``pipeline.api.extract`` takes it."""
    from pipeline.api import document

    return explain_document(document(text, **metadata))


def explain_document(doc: Document, vocab=None) -> list[Figure]:
    """``explain`` for a Document (a file read by ingest)."""
    from pipeline.vocab.loader import load

    if not doc.text:
        return []
    ex = _Recording(doc, vocab or load())
    claims = run_extractor(ex)
    text = doc.text
    kept = {id(c) for c in claims}
    cands = {id(c) for c in ex.cands}
    figures: list[Figure] = []
    seen: set[int] = set()
    for n in find_numbers(text, lower=ex.lower):
        fig = Figure(n.start, n.end, n.text)
        c = ex.read.get(n.start)
        if ex.masks.global_masks.covers(n.start, n.end):
            fig.reason = "masked: " + _global_mask(text, n.start)
        elif n.start not in ex.read:
            owner = _covering(ex.cands, n.start)
            fig.reason = (f"part of the figure {_q(text[owner.start:owner.end])}" if owner is not None
                          else NO_CONTEXT)
        elif c is None:
            fig.reason = _refused(ex, n.start)
        elif id(c) not in cands:
            # read, then left out before context: the masks, or a bare number that is no figure
            fig.reason = ("masked: " + _mask_reason(ex, n.start, n.end)
                          if ex.masks.covers(n.start, n.end) else NO_CONTEXT)
        else:
            seen.add(id(c))
            _outcome(ex, c, fig, kept)
        figures.append(fig)
    # ratio words ("twice", "threefold") are figures without digits
    for c in ex.cands:
        if id(c) not in seen and c.num.spelled and c.start not in ex.read:
            fig = Figure(c.start, c.end, text[c.start:c.end])
            _outcome(ex, c, fig, kept)
            if fig.claim is not None or fig.reason != NO_CONTEXT:
                figures.append(fig)
    index = _settings_index(claims)
    said = set(ex.dropped.values())     # build's own reasons already name the setting
    for fig in figures:
        if fig.claim is None and fig.reason not in said:
            setting = _setting_of(fig, index, text)
            if setting:
                fig.reason = setting if fig.reason == NO_CONTEXT else f"{fig.reason}; {setting}"
    figures.sort(key=lambda f: (f.start, f.end))
    return figures


def _outcome(ex: _Recording, c, fig: Figure, kept: set[int]) -> None:
    """Fill ``fig`` from what happened to candidate ``c`` after it was read."""
    claim = ex.results.get(id(c), False)
    if claim is False:                   # never built
        if id(c) in ex.failed:
            fig.reason = f"reading it failed ({ex.failed[id(c)]})"
        elif c.family is None:
            fig.reason = NO_CONTEXT
        elif c.family == "tokens":
            fig.reason = "a tiny token count: a step of generation, not a size"
        else:
            fig.reason = NO_CONTEXT
        if c.family:
            fig.how = [("unit", _unit(c))]
        return
    if claim is None:
        fig.reason = ex.dropped.get(id(c)) or NO_CONTEXT
        fig.how = [("unit", _unit(c))]
        return
    if id(claim) not in kept:
        fig.reason = "the same span as another figure, read once"
        return
    fig.claim = claim
    fig.how = _how(ex, c, claim)


def _how(ex: _Recording, c, claim: Claim) -> list[tuple[str, str]]:
    """How each part of a claim was read, in words."""
    text = ex.text
    if c.table is not None and c.unit_text not in claim.surface:
        unit = (f"{claim.family}, {claim.unit}: from its column's header "
                f"{_q(c.table[0].column_header(c.table[2].col))}")
    elif claim.implied:
        unit = (f"{claim.family}, {claim.unit}: no unit of its own, carried from "
                + (_q(text[c.ref.start:c.ref.end]) if c.ref is not None else "the figures around it"))
    else:
        unit = _unit(c)
    out = [("figure", f"{_q(claim.surface)} -> {_num(claim.value)} {claim.unit}"
            + (f" ({_num(claim.low)} to {_num(claim.high)})" if claim.high is not None else "")),
           ("unit", unit)]
    if claim.scope:
        if claim.scope == "unspecified":
            where = "the text names no denominator: an ambiguous figure"
        elif c.explicit_scope:
            where = "the unit's own denominator"
        elif claim.in_table:
            where = "the column's header"
        else:
            where = "the words around it"
        out.append(("scope", f"{claim.scope} ({where})"))
    if claim.comparator != "=":
        out.append(("comparator", claim.comparator))
    subject = [f"{k} {v}" for k, v in (("model", claim.model), ("hardware", claim.hardware),
                                       ("engine", claim.engine)) if v]
    if subject:
        src = (" (some carried from the paragraph, section, title or publisher)"
               if claim.inherited else "")
        out.append(("subject", ", ".join(subject) + src))
    conds = conditions(claim)
    if conds:
        out.append(("conditions", conds))
    comp = [f"{k} {v}" for k, v in (("baseline", claim.baseline), ("direction", claim.direction),
                                     ("measures", claim.measures)) if v]
    if comp:
        out.append(("comparison", ", ".join(comp)))
    if claim.stance != "asserted":
        out.append(("stance", claim.stance + (f" (by {claim.asserted_by})" if claim.asserted_by else "")))
    if claim.in_table:
        out.append(("table", "a table cell: its row and column give its conditions"))
    return out


def conditions(claim: Claim) -> str:
    """A claim's statistic, phase, tokens, precision, technique and settings, in words."""
    parts = [f"{label} {_num(v) if isinstance(v, float) else v}" for label, v in (
        ("statistic", claim.statistic), ("phase", claim.phase), ("tokens", claim.token_kind),
        ("per", claim.per_basis), ("dtype", claim.dtype), ("technique", claim.technique),
        ("concurrency", claim.concurrency), ("batch", claim.batch_size), ("ISL", claim.isl),
        ("OSL", claim.osl), ("parallelism", claim.parallelism), ("offered load", claim.offered_load),
        ("workload", claim.workload)) if v is not None and v != ""]
    return ", ".join(parts)


def _unit(c) -> str:
    written = f" (written {_q(c.unit_text)})" if c.unit_text else ""
    return f"{c.family}, {c.unit}{written}" if c.family else "none"


def _refused(ex: _Recording, pos: int) -> str:
    """Why ``_candidate`` made nothing of the number at ``pos``, where a table says so."""
    from pipeline.extract.tables import cell_column

    if ex.tables.at(pos) is None and ex.tables.in_header(pos) is not None:
        return "a table header: it names its column"
    at = ex.tables.at(pos)
    if at is not None:
        table, _, cell = at
        kind = cell_column(table, cell.col, ex.typer).kind
        header = table.column_header(cell.col)
        words = {"setting": "a setting column", "ident": "an identifier column",
                 "quality": "a quality-score column"}.get(kind)
        if words:
            return f"{words} ({_q(header)}): a condition of its row's figures, not a figure"
    return NO_CONTEXT


def _mask_reason(ex: _Recording, start: int, end: int) -> str:
    """What the mask covering ``text[start:end]`` is: a name of the vocabularies, or the
    date/version/identifier pattern of masks.py that matched there."""
    text = ex.text
    for n in ex.names_near(start):
        if n.start <= start < n.end:
            return f"inside the {n.kind} name {_q(text[n.start:n.end])}"
    for t in _masks._TOKEN_START_RE.finditer(text, max(0, start - 28), start + 1):
        m = _masks._LOCAL_RE.match(text, t.start(), min(len(text), end + 40))
        if m and m.end() > start:
            return f"{_q(m.group(0))} is a date, version, reference, part number or count of things"
    return "inside a name, date, version or identifier"


def _global_mask(text: str, pos: int) -> str:
    for m in _masks._GLOBAL_RE.finditer(text, max(0, pos - 2000), min(len(text), pos + 2000)):
        if m.start() <= pos < m.end():
            return f"inside {_q(_short(m.group(0)))} (code, a link, an image, markup, math or a citation)"
    return "inside code, a link, an image, markup, math or a citation"


def _settings_index(claims: list[Claim]):
    """The claims grouped by their sentence (or table row), the spans sorted by start."""
    by_span: dict[tuple[int, int], list[Claim]] = {}
    for c in claims:
        if c.sentence_start is not None and c.sentence_end is not None:
            by_span.setdefault((c.sentence_start, c.sentence_end), []).append(c)
    spans = sorted(by_span)
    return [a for a, _ in spans], spans, by_span


def _setting_of(fig: Figure, index, text: str) -> str | None:
    """'its value is the concurrency of "90 ms"' when a claim of the number's sentence (or
    table row) holds it as a setting: the condition readers took it (the value matches;
    which digits they read is not recorded, so a parallelism needs its letters beside the
    number and a hardware count its accelerator)."""
    nums = find_numbers(fig.text)
    if not nums:
        return None
    value = nums[0].value
    before = text[max(0, fig.start - 4):fig.start].lower()
    after = text[fig.end:fig.end + 24].lower()
    starts, spans, by_span = index
    i = bisect.bisect_right(starts, fig.start)
    for span in reversed(spans[max(0, i - 50):i]):
        if fig.start >= span[1]:
            continue
        for c in by_span[span]:
            par = c.parallelism or ""
            letters = re.match(r"[A-Za-z]*", par).group(0).lower()
            if re.search(rf"(?<!\d){re.escape(fig.text)}(?!\d)", par) and (
                    (letters and letters in before) or after.lstrip(" -").startswith("way")):
                return f"it is in the parallelism {par} of {_q(c.surface)}, a setting of that figure"
            for name, words in SETTINGS:
                v = getattr(c, name)
                if v is None or float(v) != value:
                    continue
                if name == "hw_count" and not (c.accelerator and c.accelerator.lower() in after):
                    continue
                return f"its value is the {words} of {_q(c.surface)}, a setting of that figure"
    return None


def _covering(cands, pos: int):
    for c in cands:
        if c.start <= pos < c.end:
            return c
    return None


def _short(s: str, width: int = 40) -> str:
    s = " ".join(s.split())
    return s if len(s) <= width else s[:width - 1] + "…"


def _q(s: str) -> str:
    return '"' + _short(s, 60) + '"'


def _num(v: float | None) -> str:
    from pipeline.output import plain_number

    return "" if v is None else plain_number(float(v))


def format_explanation(figures: list[Figure]) -> str:
    """The explanation as text: one block per number."""
    if not figures:
        return "no numbers in the text\n"
    lines = []
    for f in figures:
        head = f"{_q(f.text)} at {f.start}"
        if f.claim is not None:
            lines.append(f"{head}: claim {_q(f.claim.surface)}")
            width = max(len(k) for k, _ in f.how)
            lines += [f"    {k.ljust(width)}  {v}" for k, v in f.how]
        else:
            lines.append(f"{head}: not a claim: {f.reason}")
    n = sum(1 for f in figures if f.claim is not None)
    lines.append(f"({len(figures)} number{'s' if len(figures) != 1 else ''}, {n} claim{'s' if n != 1 else ''})")
    return "\n".join(lines) + "\n"
