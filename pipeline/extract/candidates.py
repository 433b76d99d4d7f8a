"""Candidate figures: every number that may be a claim, with its unit, range and family.

Only numbers that can still become claims pay for the name/date/version test, and a
bare number (no unit) stays a candidate for the context pass to promote."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.extract.masks import Span
from pipeline.extract.change import change_before, find_changes, same_value
from pipeline.extract.numbers import (
    BETWEEN_RE, find_numbers, Number, RANGE_SEP_RE, RATIO_WORD_RE, RATIO_WORDS, SCALE_WORDS,
)
from pipeline.extract.patterns import (
    AND_TO_RE, AT_POINT_RE, BRACKETED_RE, CAP_WORD_RE, CELL_NUMBER_RE, DOUBLE_NOUN_RE,
    BY_FACTOR_BEFORE_RE, HEADER_WORD_START_RE, MODELISH_RE, NOT_RATIO_AFTER_RE, OPEN_PAREN_RE,
    RATE_AFTER_RE, RATIO_HINT_RE, RATIO_NOUN_LATER_RE, RATIO_NOUNS, SIZE_NOUN_AFTER_RE, SIZE_NOUN_RE,
    SPACED_MAGNITUDE_RE, SPREAD_BEFORE_RE, TIME_HEADER_RE, TIME_REF_RE, TIME_UNIT_RE,
    TRAILING_TIME_UNIT_RE,
    UNIT_BEFORE_RE, WORKLOAD_SETTINGS,
    FACTOR_OF_BEFORE_RE,
)
from pipeline.extract.tables import caption_unit, cell_column, clean, header_magnitude
from pipeline.extract.units import (
    cents_after, currency_after, currency_before, per_basis, read_unit, scope_after, UnitHit,
)
from pipeline.vocab.loader import UnitEntry

# the settings a sideways row of a table may hold instead of figures
SIDEWAYS_SETTINGS = WORKLOAD_SETTINGS | {"offered_load"}


@dataclass(slots=True)
class Cand:
    num: Number
    start: int
    end: int
    value: float
    low: float | None
    high: float | None
    precision: float
    value_text: str
    family: str | None = None
    unit: str | None = None
    unit_text: str = ""
    scope: str | None = None
    token_kind: str | None = None
    phase: str | None = None
    per_basis: str | None = None
    implied: bool = False
    table: tuple | None = None
    explicit_scope: bool = False
    after_unit: int = 0     # where the figure's own words end (unit and denominator)
    statistic: str | None = None
    prev_end: int = 0               # where the previous figure's words end
    next_start: int = 1 << 62       # where the next figure starts
    ref: "Cand | None" = None       # the figure a bare number borrowed its unit from
    ref_kind: str = ""              # value | sibling | verb
    index: int = 0                  # position among the document's candidates


def _take_unit(c: Cand, hit: UnitHit) -> None:
    """Give the candidate a unit's family and canonical unit, its values scaled to it."""
    e = hit.entry
    c.family, c.unit, c.unit_text = e.family, e.unit, hit.unit_text
    c.value *= e.factor
    c.low = c.low * e.factor if c.low is not None else None
    c.high = c.high * e.factor if c.high is not None else None
    c.precision *= e.factor
    c.token_kind = e.token_kind or c.token_kind
    if hit.scope:
        c.scope, c.explicit_scope = hit.scope, True


def _apply_unit(c: Cand, hit: UnitHit) -> None:
    """A unit written after the number: the figure's words now end where the unit does."""
    _take_unit(c, hit)
    c.phase = hit.entry.phase or c.phase
    c.end = hit.end
    c.after_unit = max(hit.end, hit.scope_end or 0)


# Words in a header's brackets that name a statistic, not a unit ("(min)" is no minute).
_STAT_WORDS = {"min", "max", "avg", "ave", "mean", "median", "std", "p50", "p90", "p95", "p99"}

# The unit a column gets when its header names the quantity but writes no unit.
_DEFAULT_ENTRY = {
    "ratio": UnitEntry("x", "ratio"),
    "percent": UnitEntry("%", "percent"),
    "token_throughput": UnitEntry("tokens/s", "token_throughput"),
    "request_throughput": UnitEntry("requests/s", "request_throughput"),
    "tokens": UnitEntry("count", "tokens"),
    "parameters": UnitEntry("count", "parameters"),
}


def _may_have_word_after(text: str, pos: int) -> bool:
    """A letter right after the number or after one space: the cheap test before the
    currency-word patterns ("12 USD", "40 cents")."""
    ch = text[pos:pos + 2]
    return bool(ch) and (ch[0].isalpha() or (ch[0] == " " and ch[1:].isalpha()))


class CandidateFinder:
    """Finds the numbers that can be figures and reads each one's unit, range and family.

    A mixin of the claim builder: it relies on ``text``, ``lower``, ``v`` (the vocabulary),
    ``seg``, ``tables`` and ``masks`` set up there."""

    # ------------------------------------------------------------------ candidates
    def candidates(self) -> list[Cand]:
        text = self.text
        glob = self.masks.global_masks
        nums = [n for n in find_numbers(text, lower=self.lower, skip=glob.covers) if not glob.covers(n.start, n.end)]
        out: list[Cand] = []
        i = 0
        while i < len(nums):
            n = nums[i]
            c = self._candidate(n, nums[i + 1] if i + 1 < len(nums) else None)
            i += 1
            if c is None:
                continue
            if c.high is not None and i < len(nums) and nums[i].start < c.end:
                i += 1
            # The costlier name/date/version test runs only for numbers that can still
            # become claims: those with a unit, and bare ones a context rule could promote.
            if c.family is None and not self._standalone(c):
                continue
            if self.masks.covers(n.start, n.end):
                continue
            out.append(c)
        out.extend(self._ratio_words())
        out.sort(key=lambda c: c.start)
        for i, c in enumerate(out):
            c.index = i
        for a, b in zip(out, out[1:]):
            b.prev_end, a.next_start = a.after_unit, b.start
        # "471,578 at 200 tok/s for Dynamo vLLM": an operating point belongs to the figure
        # before it, so that figure's own words run on past it
        for a, b, c in zip(out, out[1:], out[2:]):
            if AT_POINT_RE.fullmatch(self.text, a.after_unit, b.start):
                a.next_start = c.start
        return out

    def _candidate(self, n: Number, nxt: Number | None) -> Cand | None:
        text = self.text
        s_start, s_end = self.seg.sentence(n.start)
        limit = max(s_end, n.end)
        at = self.tables.at(n.start)
        if at is not None:
            limit = max(n.end, at[2].end)     # a cell's unit is inside the cell
        c = Cand(num=n, start=n.start, end=n.end, value=n.value, low=None, high=None,
                 precision=n.precision, value_text=n.text, after_unit=n.end)
        # a range: "20–22", "2.5-3.4x", "between 30 and 200", "from 575 to 826"
        own = read_unit(text, n.end, self.v, limit)
        changing = nxt is not None and self._changes(n.start, s_start)
        if nxt is not None and not changing and not (own and own.entry.family not in ("ratio", "percent")):
            sep = RANGE_SEP_RE.match(text, n.end, nxt.start + 1) if nxt.start - n.end <= 5 else None
            if sep is None and own is not None and 0 <= nxt.start - own.end <= 3:
                # "7%–8%", "2x-3x": the unit written on both ends
                sep = RANGE_SEP_RE.match(text, own.end, nxt.start + 1)
                if sep is not None and sep.end() == nxt.start and \
                        text[nxt.end:nxt.end + len(own.unit_text)] == own.unit_text:
                    c.low, c.high, c.value = n.value, nxt.value, n.value
                    if nxt.value > n.value:
                        c.end = nxt.end
                        c.value_text = text[n.start:nxt.end]
                        c.precision = min(n.precision, nxt.precision)
                        own = read_unit(text, nxt.end, self.v, limit)
                    else:
                        c.low = c.high = None
                sep = None
            between = None
            if sep is not None or nxt.start - n.end <= 5:
                between = BETWEEN_RE.search(text, max(0, n.start - 9), n.start)

            if sep is None and between and AND_TO_RE.match(text[n.end:nxt.start]):
                sep = True
            if sep is not None and (sep is True or sep.end() == nxt.start) and (nxt.start - n.end) <= 5 \
                    and not self.masks.covers(nxt.start, nxt.end):
                word = sep is True or sep.group(0).strip().lower()
                if word in (True, "–", "—", "-", "~") or between or own is None:
                    lo, hi = n.value * (nxt.scale if n.scale == 1 and nxt.scale != 1 else 1), nxt.value
                    if hi > lo:
                        c.low, c.high, c.value = lo, hi, lo
                        c.end = nxt.end
                        c.value_text = text[n.start:nxt.end]
                        c.precision = min(n.precision, nxt.precision)
                        own = read_unit(text, nxt.end, self.v, limit)
        cell = at   # the same lookup as above
        if cell is None and self.tables.in_header(n.start) is not None:
            return None  # a header names its column ("75%(s)", "Batch 64"): no figure
        cur = currency_before(text, n.start)
        if cur and text[c.end:c.end + 1] == "$":  # "$24$": inline math, not money
            return None
        if cur:
            c.start, symbol = cur
            c.family, c.unit, c.unit_text = "money", "USD", symbol
            basis = per_basis(text, c.end, limit)
            if basis:
                c.per_basis = basis[0]
                c.after_unit = basis[1]
            else:
                c.after_unit = c.end
            if c.per_basis == "GPU-hour" or (c.per_basis or "").lower() == "gpu":
                c.scope, c.explicit_scope = "per_gpu", True
            return c
        if own is not None:
            if own.entry.family == "ratio" and (self._is_count(c.end, own, n) or (
                    NOT_RATIO_AFTER_RE.match(text, own.end)
                    and not BY_FACTOR_BEFORE_RE.search(text, max(0, n.start - 12), n.start))):
                return None
            if own.entry.family == "latency" and TIME_REF_RE.match(text, own.end, own.end + 20) \
                    and not self._ends_change(n, s_start, s_end):
                return None
            _apply_unit(c, own)
            if cell is not None:  # "| 80 GB |": its own unit, the row's and column's subject
                if not self._cell_may_be_figure(c, cell):
                    return None
                c.table = cell
            if own.entry.family in ("latency",) and n.spelled and c.value_text.lower() in ("one", "a"):
                return None
            return c
        after_cur = currency_after(text, c.end, limit) if _may_have_word_after(text, c.end) else None
        if after_cur:
            c.family, c.unit, c.unit_text, c.end = "money", "USD", after_cur.group(0).strip(), after_cur.end()
            return c
        cents = cents_after(text, c.end, limit) if after_cur is None and (_may_have_word_after(text, c.end) or "¢" in text[c.end:c.end + 2]) else None
        if cents:
            c.family, c.unit, c.unit_text, c.end = "money", "USD", cents.group(0).strip(), cents.end()
            c.value *= 0.01
            c.precision *= 0.01
            return c
        if cell is not None:
            tc = self._table_candidate(c, cell)
            # "6.9B" under a header that names nothing still reads as a size below
            col = cell_column(cell[0], cell[2].col, self.typer)
            if tc is not None or not (n.scale >= 1e6 and n.has_suffix_letter) or \
                    not (col.kind == "label" or col.field == "model") or not CELL_NUMBER_RE.fullmatch(clean(cell[2].text)):
                return tc
        if n.spelled:
            return None
        before_unit = UNIT_BEFORE_RE.search(text, max(s_start, n.start - 16), n.start)
        if before_unit:
            rate = read_unit(before_unit.group(1), 0, self.v)
            if rate is not None:
                c.family, c.unit, c.unit_text = rate.entry.family, rate.entry.unit, before_unit.group(1)
                return c
        if FACTOR_OF_BEFORE_RE.search(text, max(s_start, n.start - 40), n.start):
            c.family, c.unit, c.unit_text = "ratio", "x", ""
            return c
        # "700B", "2.8T": a magnitude letter with no unit reads as a size when the
        # sentence speaks of models or tokens.
        if n.scale >= 1e9 or (n.scale >= 1e6 and n.has_suffix_letter):
            before = text[s_start:n.start]
            sentence = text[s_start:s_end]
            in_parens = text[max(0, n.start - 1):n.start] == "(" or bool(OPEN_PAREN_RE.search(before))
            after_model = bool(self._name_just_before(n.start, "model"))
            # the noun right after the figure decides ("700B+ models", "608B tokens"); else
            # the nearest one before it ("Total input tokens: 608B", "a model of 70B")
            after = SIZE_NOUN_AFTER_RE.match(text, n.end, min(s_end, n.end + 30))
            kind = after.group(1).lower() if after else None
            if kind is None:
                nouns = [m for m in SIZE_NOUN_RE.finditer(before) if not RATE_AFTER_RE.match(before, m.end())]
                kind = nouns[-1].group(0).lower() if nouns else None
            if kind is not None and kind.startswith(("token", "context")):
                c.family, c.unit = "tokens", "count"
            elif n.scale >= 1e9 and (in_parens or after_model or kind is not None or MODELISH_RE.search(sentence)):
                c.family, c.unit = "parameters", "count"
            if c.family:
                c.implied = False
                return c
        return c  # bare: the context pass may still give it a unit

    def _ratio_words(self) -> list[Cand]:
        out = []
        for m in RATIO_HINT_RE.finditer(self.lower):
            # cheap literal scan first; the word itself is read and checked only on a hit
            ws = m.start()
            while ws > 0 and self.text[ws - 1].isalpha() or (ws > 0 and self.text[ws - 1] == "-" and ws > 1 and self.text[ws - 2].isalpha()):
                ws -= 1
            m = RATIO_WORD_RE.match(self.text, ws)
            if m is None or self.masks.covers(m.start(), m.end()):
                continue
            word = m.group(0).lower()
            val = RATIO_WORDS.get(word)
            if val is None:
                continue
            # "double" as an adjective of a noun ("double-buffering") is not a ratio
            if DOUBLE_NOUN_RE.match(self.text[m.end():m.end() + 25]):
                continue
            n = Number(m.start(), m.end(), m.group(0), float(val), 0.0, spelled=True)
            out.append(Cand(num=n, start=m.start(), end=m.end(), value=float(val), low=None, high=None,
                            precision=0.0, value_text=m.group(0), family="ratio", unit="x",
                            unit_text=m.group(0), after_unit=m.end()))
        return out

    def _is_count(self, pos: int, hit: UnitHit, n: Number) -> bool:
        """"8x H100", "8x RoCE links": an integer with x before a name counts things."""
        if hit.entry.unit != "x" or not float(n.value).is_integer() or "." in n.text:
            return False
        m = CAP_WORD_RE.match(self.text[hit.end:hit.end + 30])
        if not m or m.group(1).lower() in RATIO_NOUNS:
            return False
        if self.text.startswith(("'s", "’s"), hit.end + m.end()):
            return False   # "2x TGI's throughput": a multiple of a rival's figure
        # "5x KV cache memory reduction": the words after the capital end in what changed
        # (a capital with a digit is a device: "8x H100 SXM faster" counts H100s)
        return any(ch.isdigit() for ch in m.group(1)) or \
            not RATIO_NOUN_LATER_RE.match(self.text, hit.end, hit.end + 60)

    def _changes(self, pos: int, s_start: int) -> bool:
        """"Rose from 1.5k to 2.2k": the figure at ``pos`` is the before of a change, so it
        and the next figure are two, not a range (``change.change_before``)."""
        m = BETWEEN_RE.search(self.text, max(0, pos - 9), pos)
        return bool(m) and m.group(0).lower().startswith("from") \
            and change_before(self.text, s_start, m.start())

    def _ends_change(self, n: Number, s_start: int, s_end: int) -> bool:
        """Is ``n`` the after figure of a change ("went from 120 ms to 80 ms after enabling
        it"): a measurement, not a time reference ("80 ms after the request")?"""
        return any(ch.start <= n.start < ch.end and same_value(ch.after, n.value)
                   for ch in find_changes(self.text, s_start, s_end))

    def _name_just_before(self, pos: int, kind: str) -> Span | None:
        for nm in self.names_near(pos):
            if nm.kind == kind and nm.end <= pos and pos - nm.end <= 2:
                return nm
        return None

    # ------------------------------------------------------------------ tables
    def _cell_may_be_figure(self, c: Cand, cell) -> bool:
        """A cell with its own unit is a figure unless its column holds settings,
        identifiers or quality scores, or it is the "1x" baseline of a ratio column."""
        table, row, cl = cell
        col = cell_column(table, cl.col, self.typer)
        if col.kind in ("setting", "ident", "quality"):
            return False
        if cl.col > 0 and row.cells and row.cells[0].col == 0 and \
                self.typer.column(clean(row.cells[0].text)).field in SIDEWAYS_SETTINGS:
            return False   # "| Output length | 300tokens |": a row of a run's settings, sideways
        # a matrix of quality scores: the corner header says what every cell is
        if col.kind == "label" and cl.col > 0 and self.typer.column(table.column_header(0)).kind == "quality":
            return False
        return not (c.family == "ratio" and c.value == 1 and c.high is None)

    def _table_candidate(self, c: Cand, cell) -> Cand | None:
        """A bare number in a table cell: a figure when its column's header types it as
        one, with the header's unit (or the family's canonical unit when the header names
        the quantity but no unit)."""
        table, row, cl = cell
        # only a cell that is the figure itself; a number inside a label cell is not one
        if not CELL_NUMBER_RE.fullmatch(clean(cl.text)):
            return None
        if SPREAD_BEFORE_RE.search(self.text, max(cl.start, c.start - 4), c.start):
            return None  # "132.19 ± 0.55": the spread of the figure before it
        header = table.column_header(cl.col)
        col = cell_column(table, cl.col, self.typer, row)
        if col.kind not in ("figure", "label") or not header:
            return None
        hit = self._header_unit(header)
        if hit is not None and hit.entry.family != col.family:
            hit = None
        if hit is None and table.caption and col.family in (None, "latency", "token_throughput", "request_throughput"):
            # the caption's unit ("Unit: ms", "TTFT in ms") when the header writes none
            hit = caption_unit(table.caption, self._header_unit)
            if hit is not None and col.family is not None and hit.entry.family != col.family:
                hit = None
            if hit is not None and col.kind == "label" and hit.entry.family not in ("latency", "token_throughput", "request_throughput", "memory", "bandwidth", "money", "power"):
                hit = None
        if col.kind == "label" and hit is None:
            return None
        if hit is None:
            entry = _DEFAULT_ENTRY.get(col.family)
            if entry is None:
                return None  # a latency, memory or price with no unit anywhere
            hit = UnitHit(end=c.end, unit_text="", entry=entry)
        if col.family == "ratio" and c.value == 1 and c.high is None:
            return None  # the baseline row of a speedup column
        spaced = SPACED_MAGNITUDE_RE.match(self.text, c.end, cl.end) if col.family == "parameters" else None
        if spaced and not c.num.has_suffix_letter:
            scale = SCALE_WORDS[spaced.group(1).lower()]   # "6.74 B" under "params"
            c.value, c.precision = c.value * scale, c.precision * scale
        elif col.family in ("parameters", "tokens") and not c.num.has_suffix_letter and not hit.unit_text:
            scale = header_magnitude(header)
            c.value, c.precision = c.value * scale, c.precision * scale
        _take_unit(c, hit)  # the header's unit: the cell's own span stays as it is
        per = scope_after(self.v, self.text, c.end, cl.end)
        if per and c.scope in (None, "unspecified"):
            c.scope, c.explicit_scope = per[0], True   # "52.3k / node": the cell's denominator
        if col.family == "parameters" and not c.unit_text:
            # "# Activated Params": which parameters a count counts is in its header
            c.unit_text = clean(header)
        c.implied = True
        c.table = (table, row, cl)
        return c

    def _header_unit(self, header: str) -> UnitHit | None:
        """The unit a column header gives its cells, read once per header."""
        if header not in self._header_units:
            self._header_units[header] = self._read_header_unit(header)
        return self._header_units[header]

    def _read_header_unit(self, header: str) -> UnitHit | None:
        # the last bracket that is all unit wins ("FTL(min)(s)": min is a statistic there),
        # then the last that starts with one
        inners = [(m.group(1) or m.group(2) or "").strip() for m in BRACKETED_RE.finditer(header)]
        inners = [x for x in reversed(inners) if x.lower() not in _STAT_WORDS]
        for inner in inners:
            h = read_unit(inner, 0, self.v)
            if h and h.end >= len(inner.rstrip()) - 1:
                return h
        for inner in inners:
            h = read_unit(inner, 0, self.v)
            if h:
                return h
        for m in HEADER_WORD_START_RE.finditer(header):
            h = read_unit(header, m.end(), self.v)
            if h and h.entry.family not in ("tokens", "ratio", "latency", "parameters"):
                return h
        if TIME_HEADER_RE.search(header):
            unit = TIME_UNIT_RE.search(header)
            if unit:
                return read_unit(unit.group(1), 0, self.v)
        # a time unit as the header's last word: "T_PP s", "Latency ms"
        unit = TRAILING_TIME_UNIT_RE.search(header)
        if unit:
            return read_unit(unit.group(1), 0, self.v)
        return None
