"""Assemble claims: numbers -> units -> family and scope -> conditions -> stance -> context.

The order matters. Explicit figures ("826 tokens/s per user") are read first; only then can
a bare number ("reaches 575", "the 954K figure", "1.09 million credited to SGLang") borrow
the unit and denominator of the figure it refers to or stands beside, marked ``implied``.
"""
from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass

import re


from pipeline.extract import conditions as cond
from pipeline.extract.masks import NumberMasks, Span, find_names
from pipeline.extract.numbers import BETWEEN_RE, ascii_lower, RANGE_SEP_RE, RATIO_WORD_RE, RATIO_WORDS, Number, find_numbers
from pipeline.extract.sentences import Segments, segment
from pipeline.extract.stance import comparator, has_cues, stance_and_source
from pipeline.extract.tables import Table, TableIndex, clean, find_tables
from pipeline.extract.units import UnitHit, cents_after, currency_after, currency_before, per_basis, read_unit
from pipeline.model import Claim, Document
from pipeline.vocab.loader import UnitEntry, Vocab, load

# Patterns used inside functions, compiled once.
_AND_TO_RE = re.compile(r"\s+(?:and|to)\s+$")
_OPEN_PAREN_RE = re.compile(r"\(\s*$")
_DOUBLE_NOUN_RE = re.compile(r"[- ](?:buffer|check|click|precision|the\s+number\s+of|counting|quantization)", re.I)
_CAP_WORD_RE = re.compile(r"\s*([A-Z][\w-]*)")
_BRACKETED_RE = re.compile(r"\(([^)]*)\)|\[([^\]]*)\]")
_HEADER_WORD_START_RE = re.compile(r"(?:^|\s|/)(?=[A-Za-z%$])")
_TIME_HEADER_RE = re.compile(r"(?i)\b(?:ttft|tpot|itl|latency|time)\b")
_TIME_UNIT_RE = re.compile(r"(?i)\b(ms|s|sec|seconds|us|µs)\b")
_AT_OPERATING_POINT_RE = re.compile(r"\s+at\s+(?:a\s+)?(?:P\d+\s+of\s+)?", re.I)
_QUOTED_AND_RE = re.compile(r"^[\s\"'”’,]*(?:\"[^\"]{0,30}\"|“[^”]{0,30}”)?[\s,\"'”’]*(?:and|or)\s+$")
_QUOTED_AND_STRICT_RE = re.compile(r"^[\s\"'”’,]*(?:\"[^\"]{0,30}\"|“[^”]{0,30}”)[\s,\"'”’]*(?:and|or)\s+$")
_AGAINST_RE = re.compile(r"^\s+(?:against|versus|vs\.?)\s+(?:a|an|the)?\s*(?:\w+\s+){0,2}(?:of\s+)?$")
_FIRST_HEADING_RE = re.compile(r"(?m)^\s*#\s+(.+)$")
_AGGREGATE_WORD_RE = re.compile(r"(?i)total|overall|aggregate|system-wide|cluster-wide|combined")
_PEAK_WORD_RE = re.compile(r"(?i)peak|max")
_OF_AFTER_RE = re.compile(r"\s+(?:of|=)")
_OUT_WORD_RE = re.compile(r"(?i)\bout(?:put)?\b")
_PLAIN_NUMBER_RE = re.compile(r"[\d,.]+[kK]?")
_TP_HEADER_RE = re.compile(r"\b(?:tp|tensor)\b")
_INPUT_HEADER_RE = re.compile(r"input|isl|prompt")
_OUTPUT_HEADER_RE = re.compile(r"output|osl")

# Words after a duration that make it a point in time, not a measured latency.
_TIME_REF_RE = re.compile(r"\s*(?:earlier|later|ago|before|after|prior|from\s+now|old|long)\b", re.I)
# A word after a bare number that shows it counts things ("16 GB300s", "five documents").
_FOLLOWING_OK = {
    "at", "on", "as", "and", "or", "with", "against", "for", "in", "to", "from", "credited",
    "figure", "figures", "is", "was", "versus", "vs", "under", "over", "when", "while", "which",
    "that", "by", "mark", "number", "reported", "claimed", "listed", "stated", "attributed",
    "remains", "stands", "came", "comes", "holds", "but", "so", "than", "of", "per", "level",
}
_PERF_VERB_RE = re.compile(
    r"\b(?:reach(?:es|ed)?|hit(?:s)?|stops?\s+at|stopped\s+at|top(?:s|ped)|peaks?\s+at|peaked\s+at|"
    r"came\s+(?:in\s+)?at|comes\s+(?:in\s+)?at|ran\s+at|runs\s+at|achiev(?:es|ed)|deliver(?:s|ed)|"
    r"sits?\s+at|lands?\s+at|clocks?\s+(?:in\s+)?at|manag(?:es|ed))\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|only\s+|just\s+)?$",
    re.I,
)
_COORD_RE = re.compile(r"^[\s\"'”’,;:)*_]*(?:and|or|against|versus|vs\.?|compared\s+(?:to|with)|to|while|with)?[\s\"'“‘,(*_]*$", re.I)
_SKIP_HEADER_RE = re.compile(
    r"(?i)\b(?:batch|concurrency|concurrent|tp|ep|pp|dp|#|num|number|count|gpus?|nodes?|rank|id|version|year|date|"
    r"step|epoch|layers?|heads?|world|replicas?|instances?|users?|clients?|qps\s+target|rate)\b"
)
_TOKENS_HEADER_RE = re.compile(r"(?i)\b(?:length|len|isl|osl|prompt|input|output|context|tokens?|seq)\b")
_HEADER_FAMILY = [
    (re.compile(r"(?i)speed-?up|\bratio\b|improvement\s*\(x\)"), UnitEntry("x", "ratio")),
    (re.compile(r"(?i)utili[sz]ation|hit\s+rate|share|accuracy|percent"), UnitEntry("%", "percent")),
    (re.compile(r"(?i)throughput|tok(?:en)?s?/s|tps\b"), UnitEntry("tokens/s", "token_throughput")),
]
_STAT_CAPTION = {"max": "peak", "maximum": "peak", "peak": "peak", "mean": "mean", "average": "mean", "median": "median"}
_STAT_CAPTION_RE = re.compile(r"(?i)\b(?:" + "|".join(_STAT_CAPTION) + r")\b")
# Capitalised words that may follow "2x" in a title or heading without making it a count.
_RATIO_NOUNS = {
    "faster", "higher", "lower", "more", "less", "better", "speedup", "speed", "throughput",
    "performance", "improvement", "increase", "reduction", "gain", "boost", "cheaper", "the",
}
# "sample 32 times and", "6x-4y": a multiplier word that counts repetitions or sits in math.
_NOT_RATIO_AFTER_RE = re.compile(r"(?<=times)(?:\s*[.,;:)]|\s+(?:and|to|in|per|each|a|every|with|on|over|for)\b)|(?<=[xX×])\s*[-+=&^*/]\s*\w")
_CELL_NUMBER_RE = re.compile(r"[~≈<>+±]?\s*\$?[0-9][0-9,.]*\s*[kKMBT]?\s*(?:[-–~]\s*[0-9][0-9,.]*)?\s*[%x×]?\s*(?:\(.*\))?[*†‡]*")
_LIST_SEP_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
# Families a bare number may borrow by repeating a value: figures people cite back.
_REFERABLE = ("token_throughput", "request_throughput", "latency", "money", "parameters", "tokens", "bandwidth")
_CONDITION_BEFORE_RE = re.compile(
    r"(?i)(?<!per\s)(?<!per-)\b(?:batch(?:\s+sizes?)?|concurrency|concurrent|length|lengths|layers?|ranks?|TP|EP|DP|PP|GPUs?|nodes?|"
    r"steps?|epochs?|iterations?|version|users?|requests?|clients?|threads?|workers?)\b[^.;:]{0,25}$"
)
# "an RPS > 10", "QPS of 16": a rate acronym written before its number.
_UNIT_BEFORE_RE = re.compile(r"\b(RPS|QPS|TPS|req/s)\s*(?:\\?[<>]=?|≥|≤|of|=|:|at|around|about|~)?\s*$")
# A CamelCase or mixed-case product or company name ("InferenceX", "SambaNova", "vLLM").
_CAMEL_RE = re.compile(r"\b(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[a-z]+[A-Z]{2,}[A-Za-z]*)\b")
_AT_POINT_RE = re.compile(r"\s+at\s+(?:an?\s+)?(?:P\d+\s+of\s+|interactivity\s+of\s+)?", re.I)
_BASELINE_RE = re.compile(r"(?i)\b(?:than|over|compared\s+(?:to|with)|vs\.?|versus|relative\s+to|against|baseline)\s+(?:the\s+|an?\s+|its\s+)?(?:\w+\s+){0,1}$")
_NEXT_WORD_RE = re.compile(r"[ \t*_\"'”’]*([A-Za-z]+)")
_RATIO_HINT_RE = re.compile(r"twice|doubl|tripl|quadrupl|halv|fold\b")
_MODELISH_RE = re.compile(r"(?i)\b(?:model|models|parameters?|params|LLM|MoE|weights|dense|sized?)\b")
_TOKEN_KIND_RE = re.compile(r"(?i)\b(?:cache\s+hits?|cached|output|generated|decode|input|prompt|prefill|total)\b")
_KIND_OF = {"cached": "cached_input", "output": "output", "generated": "output", "decode": "output",
            "input": "input", "prompt": "input", "prefill": "input", "total": "total"}
_KIND_OF.update({"cache hit": "cached_input", "cache hits": "cached_input"})
_HEADING_RE = re.compile(r"(?m)^#{1,6}[ \t]")
_SECTION_REACH = 1500  # how far back a section's subject carries, in characters
_REACH_RE = re.compile(r"(?i)\b(?:reach(?:es|ed|ing)?|hit(?:s|ting)?)\s+(?:the\s+|a\s+)?[*_]*\s*$")
_SIZE_NOUN_RE = re.compile(r"(?i)\b(?:tokens?|context|models?|parameters?|params|LLMs?|MoE|weights)\b")
_SIZE_NOUN_AFTER_RE = re.compile(r"(?i)\+?\s*(?:[\w-]+\s+)?(tokens?|context|models?|parameters?|params|LLMs?|MoE|weights)\b")
_RATE_AFTER_RE = re.compile(r"(?i)\s*(?:/|per\s|a\s+second|every\s+second)")
_NUMBER_WORD_RE = re.compile(r"(?i)\bthe\s+(?:number|digit|figure\s+of)\s*$")


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


def _claim_id(doc_id: str, start: int, end: int) -> str:
    return hashlib.sha1(f"{doc_id}:{start}:{end}".encode()).hexdigest()[:16]


def _apply_unit(c: Cand, hit: UnitHit) -> None:
    e = hit.entry
    c.family, c.unit, c.unit_text = e.family, e.unit, hit.unit_text
    c.value *= e.factor
    c.low = c.low * e.factor if c.low is not None else None
    c.high = c.high * e.factor if c.high is not None else None
    c.precision *= e.factor
    c.token_kind = e.token_kind or c.token_kind
    c.phase = e.phase or c.phase
    if hit.scope:
        c.scope, c.explicit_scope = hit.scope, True
    c.end = hit.end
    c.after_unit = max(hit.end, hit.scope_end or 0)


class _Extractor:
    def __init__(self, doc: Document, vocab: Vocab):
        self.doc = doc
        self.text = doc.text
        self.v = vocab
        self.lower = ascii_lower(self.text)  # one copy for the case-blind literal scans
        self.masks = NumberMasks(self.text, vocab)
        self.seg: Segments = segment(self.text, [p.start for p in doc.pages])
        self._para_names: dict[int, list[Span]] = {}
        self.masks.names_at = self.names_near
        self._row_cache: dict[tuple, tuple] = {}
        self._sent_cache: dict[int, tuple] = {}
        self._cue_cache: dict[int, bool] = {}
        self._names_in_cache: dict[tuple, list] = {}
        self._probe_hardware: dict[str, list] = {}  # table header/caption text -> hardware
        self._column_cache: dict[tuple, tuple] = {}
        self._heading_starts = [m.start() for m in _HEADING_RE.finditer(self.text)]
        self.tables = TableIndex(find_tables(self.text))
        self.title_subject = self._title_subject()

    # ------------------------------------------------------------------ candidates
    def candidates(self) -> list[Cand]:
        text = self.text
        glob = self.masks.global_masks
        nums = [n for n in find_numbers(text, lower=self.lower) if not glob.covers(n.start, n.end)]
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
            if _AT_POINT_RE.fullmatch(self.text, a.after_unit, b.start):
                a.next_start = c.start
        return out

    def _candidate(self, n: Number, nxt: Number | None) -> Cand | None:
        text = self.text
        s_start, s_end = self.seg.sentence(n.start)
        limit = max(s_end, n.end)
        c = Cand(num=n, start=n.start, end=n.end, value=n.value, low=None, high=None,
                 precision=n.precision, value_text=n.text, after_unit=n.end)
        # a range: "20–22", "2.5-3.4x", "between 30 and 200", "from 575 to 826"
        own = read_unit(text, n.end, self.v, limit)
        if nxt is not None and not (own and own.entry.family not in ("ratio", "percent")):
            sep = RANGE_SEP_RE.match(text, n.end, nxt.start + 1)
            between = BETWEEN_RE.search(text[max(0, n.start - 9):n.start])
            if sep is None and between and _AND_TO_RE.match(text[n.end:nxt.start]):
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
        cell = self.tables.at(n.start)
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
            if own.entry.family == "ratio" and (self._is_count(c.end, own, n) or _NOT_RATIO_AFTER_RE.match(text, own.end)):
                return None
            if own.entry.family == "latency" and _TIME_REF_RE.match(text, own.end, own.end + 20):
                return None
            _apply_unit(c, own)
            if cell is not None:  # "| 80 GB |": its own unit, the row's and column's subject
                c.table = cell
            if own.entry.family in ("latency",) and n.spelled and c.value_text.lower() in ("one", "a"):
                return None
            return c
        after_cur = currency_after(text, c.end, limit)
        if after_cur:
            c.family, c.unit, c.unit_text, c.end = "money", "USD", after_cur.group(0).strip(), after_cur.end()
            return c
        cents = cents_after(text, c.end, limit)
        if cents:
            c.family, c.unit, c.unit_text, c.end = "money", "USD", cents.group(0).strip(), cents.end()
            c.value *= 0.01
            c.precision *= 0.01
            return c
        if cell is not None:
            return self._table_candidate(c, cell)
        if n.spelled:
            return None
        before_unit = _UNIT_BEFORE_RE.search(text, max(s_start, n.start - 16), n.start)
        if before_unit:
            rate = read_unit(before_unit.group(1), 0, self.v)
            if rate is not None:
                c.family, c.unit, c.unit_text = rate.entry.family, rate.entry.unit, before_unit.group(1)
                return c
        # "700B", "2.8T": a magnitude letter with no unit reads as a size when the
        # sentence speaks of models or tokens.
        if n.scale >= 1e9 or (n.scale >= 1e6 and n.has_suffix_letter):
            before = text[s_start:n.start]
            sentence = text[s_start:s_end]
            in_parens = text[max(0, n.start - 1):n.start] == "(" or bool(_OPEN_PAREN_RE.search(before))
            after_model = bool(self._name_just_before(n.start, "model"))
            # the noun right after the figure decides ("700B+ models", "608B tokens"); else
            # the nearest one before it ("Total input tokens: 608B", "a model of 70B")
            after = _SIZE_NOUN_AFTER_RE.match(text, n.end, min(s_end, n.end + 30))
            kind = after.group(1).lower() if after else None
            if kind is None:
                nouns = [m for m in _SIZE_NOUN_RE.finditer(before) if not _RATE_AFTER_RE.match(before, m.end())]
                kind = nouns[-1].group(0).lower() if nouns else None
            if kind is not None and kind.startswith(("token", "context")):
                c.family, c.unit = "tokens", "count"
            elif n.scale >= 1e9 and (in_parens or after_model or kind is not None or _MODELISH_RE.search(sentence)):
                c.family, c.unit = "parameters", "count"
            if c.family:
                c.implied = False
                return c
        return c  # bare: the context pass may still give it a unit

    def _ratio_words(self) -> list[Cand]:
        out = []
        for m in _RATIO_HINT_RE.finditer(self.lower):
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
            if _DOUBLE_NOUN_RE.match(self.text[m.end():m.end() + 25]):
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
        m = _CAP_WORD_RE.match(self.text[hit.end:hit.end + 30])
        return bool(m) and m.group(1).lower() not in _RATIO_NOUNS

    def _name_just_before(self, pos: int, kind: str) -> Span | None:
        for nm in self.names_near(pos):
            if nm.kind == kind and nm.end <= pos and pos - nm.end <= 2:
                return nm
        return None

    # ------------------------------------------------------------------ tables
    def _table_candidate(self, c: Cand, cell) -> Cand | None:
        table, row, cl = cell
        # only a cell that is the figure itself; a number inside a label cell is not one
        if not _CELL_NUMBER_RE.fullmatch(clean(cl.text)):
            return None
        header = table.column_header(cl.col)
        if not header or _SKIP_HEADER_RE.search(header) and not _HEADER_FAMILY[0][0].search(header) and "throughput" not in header.lower() and "latency" not in header.lower():
            return None
        hit = self._header_unit(header)
        if hit is None:
            for pat, entry in _HEADER_FAMILY:
                if pat.search(header):
                    hit = UnitHit(end=c.end, unit_text="", entry=entry)
                    break
        if hit is None and _TOKENS_HEADER_RE.search(header):
            hit = UnitHit(end=c.end, unit_text="", entry=UnitEntry("count", "tokens"))
        if hit is None:
            return None
        e = hit.entry
        c.family, c.unit, c.unit_text = e.family, e.unit, hit.unit_text
        c.value *= e.factor
        c.low = c.low * e.factor if c.low is not None else None
        c.high = c.high * e.factor if c.high is not None else None
        c.precision *= e.factor
        c.token_kind = e.token_kind
        if hit.scope:
            c.scope, c.explicit_scope = hit.scope, True
        c.implied = True
        c.table = (table, row, cl)
        return c

    def _header_unit(self, header: str) -> UnitHit | None:
        for m in _BRACKETED_RE.finditer(header):
            inner = (m.group(1) or m.group(2) or "").strip()
            h = read_unit(inner, 0, self.v)
            if h and h.end >= len(inner.rstrip()) - 1:
                return h
            h = read_unit(inner, 0, self.v)
            if h:
                return h
        for m in _HEADER_WORD_START_RE.finditer(header):
            h = read_unit(header, m.end(), self.v)
            if h and h.entry.family not in ("tokens", "ratio", "latency", "parameters"):
                return h
        if _TIME_HEADER_RE.search(header):
            unit = _TIME_UNIT_RE.search(header)
            if unit:
                return read_unit(unit.group(1), 0, self.v)
        return None

    # ------------------------------------------------------------------ context
    def resolve_bare(self, cands: list[Cand]) -> None:
        """Give bare numbers the unit of the figure they refer to or stand beside."""
        text = self.text
        self._resolve_lists(cands)
        for _ in range(2):
            by_text: dict[str, Cand] = {}
            for src in cands:
                if src.family in _REFERABLE and src.unit is not None:
                    by_text.setdefault(src.num.text.replace(",", ""), src)
            for c in cands:
                if c.family or c.num.spelled:
                    continue
                if not self._standalone(c):
                    continue
                if _NUMBER_WORD_RE.search(text, max(0, c.start - 20), c.start):
                    continue
                s_start, s_end = self.seg.sentence(c.start)
                ref = None
                # 1. the same value given with a unit elsewhere in the document
                # "batch sizes exceeding 64" repeats a setting's value, not a figure's
                src = by_text.get(c.num.text.replace(",", ""))
                if src is not None and src is not c and (c.num.value >= 10 or "." in c.num.text) \
                        and not _CONDITION_BEFORE_RE.search(text, max(s_start, c.start - 40), c.start):
                    ref, c.ref_kind = src, "value"
                # 2. "499,715 at 150 tok/s": a throughput stated at an operating point
                if ref is None:
                    nxt = self._next_cand(cands, c)
                    if nxt is not None and nxt.family == "token_throughput" and _AT_OPERATING_POINT_RE.fullmatch(text[c.end:nxt.start]):
                        c.family, c.unit, c.implied = "token_throughput", "tokens/s", True
                        c.scope = self._doc_scope_for_operating_point(cands, c)
                        if nxt.scope in (None, "unspecified"):
                            nxt.scope = "per_user"
                        continue
                # 3. a sibling figure in the same sentence, coordinated with it
                if ref is None:
                    ref = self._sibling(cands, c, s_start, s_end)
                    c.ref_kind = "sibling"
                # 4. "reaches 575": a performance verb, unit from the figure just before
                if ref is None and _PERF_VERB_RE.search(text[max(s_start, c.start - 40):c.start]):
                    ref = self._previous_in_paragraph(cands, c)
                    if ref is not None and ref.family not in ("token_throughput", "request_throughput"):
                        ref = None
                    c.ref_kind = "verb"
                if ref is not None and ref.family not in ("ratio", "percent"):
                    c.family, c.unit, c.unit_text = ref.family, ref.unit, ""
                    c.token_kind, c.per_basis, c.ref = ref.token_kind, ref.per_basis, ref
                    factor = 1.0
                    if ref.num.value:
                        factor = (ref.low if ref.low is not None else ref.value) / ref.num.value
                    c.value = c.num.value * factor
                    c.precision = c.num.precision * factor
                    c.implied = True

    def _resolve_lists(self, cands: list[Cand]) -> None:
        """"a ladder of 30, 50, 75, 100, 150 and 200": a list of three or more bare numbers
        takes the unit of a figure in its sentence whose value is one of the list's."""
        text = self.text
        i = 0
        while i < len(cands):
            run = [cands[i]]
            j = i + 1
            while j < len(cands) and not cands[j - 1].family and not cands[j].family and _LIST_SEP_RE.fullmatch(text, cands[j - 1].end, cands[j].start):
                run.append(cands[j])
                j += 1
            if len(run) >= 3 and not run[0].family:
                s_start, s_end = self.seg.sentence(run[0].start)
                values = {c.num.value for c in run}
                ref = next((o for o in cands if o.family and not o.implied and s_start <= o.start < s_end
                            and o.num.value in values and o.family not in ("ratio", "percent")), None)
                if ref is not None:
                    factor = (ref.value / ref.num.value) if ref.num.value else 1.0
                    for c in run:
                        c.family, c.unit, c.ref, c.ref_kind, c.implied = ref.family, ref.unit, ref, "list", True
                        c.value = c.num.value * factor
                        c.precision = c.num.precision * factor
            i = j

    def _standalone(self, c: Cand) -> bool:
        """Could this bare number be a figure? Not when a word follows that makes it a count
        ("16 boards"), nor a tiny integer, nor a reference marker."""
        num = c.num
        if "." not in num.text and num.value < 10 and float(num.value).is_integer():
            return False
        text = self.text
        if c.start and text[c.start - 1] in "#[":
            return False
        m = _NEXT_WORD_RE.match(text, c.end, c.end + 40)
        return not m or m.group(1).lower() in _FOLLOWING_OK

    def _next_cand(self, cands: list[Cand], c: Cand) -> Cand | None:
        i = c.index
        return cands[i + 1] if i + 1 < len(cands) else None

    def _sibling(self, cands: list[Cand], c: Cand, s_start: int, s_end: int) -> Cand | None:
        i = c.index
        for j in (i - 1, i + 1):
            if 0 <= j < len(cands):
                o = cands[j]
                if not o.family or o.implied or not (s_start <= o.start < s_end):
                    continue
                gap = self.text[o.after_unit:c.start] if j < i else self.text[c.end:o.start]
                if len(gap) > 40:
                    gap_ok = _QUOTED_AND_RE.match(gap)
                    if not gap_ok:
                        continue
                elif not (_COORD_RE.match(gap) or _QUOTED_AND_STRICT_RE.match(gap)
                          or _AGAINST_RE.match(gap)):
                    continue
                # same magnitude class: both written with a scale or both large
                if o.family in ("ratio", "percent", "money"):
                    continue
                return o
        return None

    def _previous_in_paragraph(self, cands: list[Cand], c: Cand) -> Cand | None:
        p_start, _ = self.seg.paragraph(c.start)
        i = c.index
        for j in range(i - 1, -1, -1):
            o = cands[j]
            if o.start < p_start - 400:
                break
            if o.family and o.family not in ("ratio", "percent", "parameters"):
                return o
        return None

    def _doc_scope_for_operating_point(self, cands: list[Cand], c: Cand) -> str:
        for o in reversed([x for x in cands if x.start < c.start]):
            if o.family == "token_throughput" and o.scope in ("per_gpu", "per_node", "per_system", "aggregate"):
                return o.scope
        return "unspecified"

    def best_source(self, c: Cand, built: dict[int, Claim]) -> Claim | None:
        """The figure a bare number refers to: for a repeated value, the nearest earlier
        mention of it that states a denominator, else the nearest later one."""
        src = built.get(id(c.ref)) if c.ref is not None else None
        if c.ref_kind != "value":
            return src
        key = c.num.text.replace(",", "")
        same = [b for b in built.values() if b.value_text.replace(",", "").split()[0] == key and b.family == c.family]
        scoped = [b for b in same if b.scope not in (None, "unspecified")]
        before = [b for b in scoped if b.start < c.start]
        if before:
            return max(before, key=lambda b: b.start)
        if scoped:
            return min(scoped, key=lambda b: b.start)
        return src

    def carry_scope(self, claims: list[Claim]) -> None:
        """A figure with no denominator takes that of the previous figure written with the
        same unit in its paragraph ("1,038 TPS per user, while SambaNova came at 792 TPS")."""
        for i, c in enumerate(claims):
            if c.family not in ("token_throughput", "tokens") or c.scope not in (None, "unspecified") or c.in_table:
                continue
            p_start, _ = self.seg.paragraph(c.start)
            for o in reversed(claims[:i]):
                if o.start < p_start:
                    break
                if o.family != c.family or o.in_table:
                    continue
                same_sentence = o.sentence_start == c.sentence_start
                if c.family == "tokens" and not (same_sentence and o.scope == "aggregate"):
                    continue
                # only the nearest earlier figure of the family, and only if written alike
                if c.family == "token_throughput" and (o.unit_text or "").lower() != (c.unit_text or "").lower():
                    break
                if o.scope not in (None, "unspecified"):
                    c.scope = o.scope
                break

    # ------------------------------------------------------------------ subjects
    def _title_subject(self) -> dict:
        title = self.doc.title or ""
        head = _FIRST_HEADING_RE.search(self.text[:3000])
        first_line = self.text[:300].split("\n", 1)[0]
        probe = " ".join(x for x in (title, head.group(1) if head else "", first_line) if x)
        sub_names = find_names(probe, self.v)
        model = next((n.name for n in sub_names if n.kind == "model"), None)
        hw = cond.hardware_mentions(probe, sub_names, 0, len(probe))
        return {"model": self.v.canonical_model(model) if model else None, "hardware": hw[0] if hw else None}

    def names_near(self, pos: int) -> list[Span]:
        """Names in the paragraph holding ``pos``, found on first use and kept."""
        p_start, p_end = self.seg.paragraph(pos)
        names = self._para_names.get(p_start)
        if names is None:
            names = self._para_names[p_start] = find_names(self.text, self.v, p_start, p_end, self.lower)
        return names

    def _names_in(self, kind: str, start: int, end: int) -> list[tuple[int, int, str]]:
        key = (kind, start, end)
        hit = self._names_in_cache.get(key)
        if hit is None:
            hit = self._names_in_cache[key] = [
                (n.start, n.end, n.name) for n in self.names_near(start)
                if n.kind == kind and start <= n.start and n.end <= end
            ]
        return hit

    def _own(self, c: "Cand | None", s_start: int) -> tuple[int, int] | None:
        """The figure's own stretch: up to the next figure, and from the previous one when
        one precedes it in its sentence (else None, and the nearest mention wins)."""
        if c is None or c.prev_end <= s_start:
            return None
        return c.prev_end, c.next_start

    def _before_next(self, hits: list, c: "Cand | None") -> list:
        """Mentions past the next figure belong to it: "654,000 ... per GPU and 1.09 million
        credited to SGLang" does not make SGLang the engine of 654,000."""
        if c is None:
            return hits
        return [h for h in hits if h[0] < c.next_start or h[1] <= c.start]

    def _section_subject(self, p_start: int, kind: str):
        """The last model or hardware named earlier in the paragraph's section (back to its
        heading, at most a few paragraphs): "### Llama-8B on 1 x A100" is the subject of the
        figures under it, and slides repeat their subject in the bullet above."""
        i = bisect.bisect_right(self._heading_starts, p_start) - 1
        lo = max(self._heading_starts[i] if i >= 0 else 0, p_start - _SECTION_REACH)
        if lo >= p_start:
            return None
        # walk back paragraph by paragraph, reusing each paragraph's kept names
        j = bisect.bisect_left(self.seg.para_starts, p_start) - 1
        while j >= 0 and self.seg.para_ends[j] > lo:
            ps = self.seg.para_starts[j]
            names = self.names_near(ps)
            if kind == "model":
                hits = [n for n in names if n.kind == "model"]
                if hits:
                    return self.v.canonical_model(hits[-1].name)
            else:
                hws = cond.hardware_mentions(self.text, names, ps, self.seg.para_ends[j])
                if hws:
                    return hws[-1]
            j -= 1
        return None

    def _names_other_subject(self, s_start: int, s_end: int) -> bool:
        if self._names_in("engine", s_start, s_end):
            return True
        return bool(_CAMEL_RE.search(self.text, s_start, s_end))

    def _not_baseline(self, hits: list, c: "Cand | None") -> list:
        """For a ratio or percent, what follows "than", "over", "vs" is the baseline it is
        measured against, not its subject ("H200 is 1.9x faster than H100")."""
        if c is None or c.family not in ("ratio", "percent"):
            return hits
        keep = [h for h in hits if not _BASELINE_RE.search(self.text, max(0, h[0] - 24), h[0])]
        return keep

    def _model_in(self, start: int, end: int, pos: int, fig_end: int, c: "Cand | None" = None) -> str | None:
        hits = self._before_next(self._not_baseline(self._names_in("model", start, end), c), c)
        hit = cond.nearest(hits, pos, fig_end, self._own(c, start))
        return self.v.canonical_model(hit[2]) if hit else None

    def _hardware_in(self, start: int, end: int, pos: int, fig_end: int, c: "Cand | None" = None) -> cond.Hardware | None:
        hws = cond.hardware_mentions(self.text, self.names_near(start), start, end)
        # counts of hardware before the figure in its own clause win; then the nearest
        hits = self._before_next(self._not_baseline([(h.start, h.end, h) for h in hws], c), c)
        hit = cond.nearest(hits, pos, fig_end, self._own(c, start))
        return hit[2] if hit else None

    # ------------------------------------------------------------------ build
    def build(self, c: Cand) -> Claim:
        text, v = self.text, self.v
        s_start, s_end = self.seg.sentence(c.start)
        p_start, p_end = self.seg.paragraph(c.start)
        surface = text[c.start:c.end]
        before = text[s_start:c.start]
        after = text[c.end:s_end]
        claim = Claim(
            id=_claim_id(self.doc.id, c.start, c.end), doc_id=self.doc.id, start=c.start, end=c.end,
            surface=surface, value=c.value, family=c.family or "", unit=c.unit or "",
            value_text=c.value_text, unit_text=c.unit_text, low=c.low, high=c.high,
            precision=c.precision, scope=c.scope, token_kind=c.token_kind, phase=c.phase,
            per_basis=c.per_basis, page=self.doc.page_at(c.start), sentence_start=s_start,
            sentence_end=s_end, sentence=text[s_start:s_end], implied=c.implied,
            in_table=c.table is not None, statistic=c.statistic,
        )
        lead = text[max(s_start, c.start - 60):c.start].replace("**", "")
        claim.comparator = comparator(lead, text[c.num.end:c.num.end + 20] if c.high is None else text[c.end:c.end + 20])
        if c.unit_text.endswith("+") or text[c.end:c.end + 1] == "+":
            claim.comparator = ">="
        # the clause the figure owns: from the previous figure to the next one
        win_start = max(s_start, c.start - 80)
        win_end = min(s_end, c.after_unit + 60)
        if c.table is not None:
            self._table_conditions(claim, c)
        else:
            self._sentence_conditions(claim, c, s_start, s_end, p_start, win_start, win_end)
        cues = self._cue_cache.get(s_start)
        if cues is None:
            cues = self._cue_cache[s_start] = has_cues(text[s_start:s_end])
        if cues:
            claim.stance, claim.asserted_by = stance_and_source(before, after, text[s_start:s_end])
        # "reaches 575" states where a measurement landed; "neither reaches 1,000" or
        # "whether it reached 1,000" is about a threshold, so only there it means >=
        if claim.comparator == ">=" and claim.stance == "asserted" and _REACH_RE.search(lead):
            claim.comparator = "="
        if claim.family == "token_throughput" and not claim.scope:
            claim.scope = "unspecified"
        if claim.model:
            claim.model_params = v.model_params.get(claim.model) or cond.model_size(claim.model)
        if claim.family == "parameters" and not claim.model:
            claim.model = self._model_in(s_start, s_end, c.start, c.end)
        return claim

    def _scope_from_context(self, c: Cand, start: int, end: int) -> str | None:
        hits = [(s, e, name) for s, e, name in self.v.scope_context.finditer(self.text, start, end)]
        hit = cond.nearest(hits, c.start, c.after_unit)
        return hit[2] if hit else None

    def _sentence_conditions(self, claim: Claim, c: Cand, s_start: int, s_end: int, p_start: int, win_start: int, win_end: int) -> None:
        text, v = self.text, self.v
        # scope: the unit's own denominator, then the clause around the figure
        if not claim.scope and claim.family in ("token_throughput", "request_throughput", "money", "tokens"):
            lo = max(s_start, self._prev_end(c, s_start))
            hi = min(s_end, self._next_start(c, s_end))
            scope = self._scope_from_context(c, lo, hi)
            if scope is None and claim.family == "token_throughput":
                scope = self._scope_from_context(c, max(s_start, c.start - 120), c.start)
            if scope == "aggregate" and claim.family == "token_throughput" and not _AGGREGATE_WORD_RE.search(text[lo:hi]):
                scope = None
            if scope is not None and (claim.family != "tokens" or scope == "aggregate"):
                claim.scope = scope
        claim.statistic = claim.statistic or self._statistic(c, s_start, s_end)
        model = self._model_in(s_start, s_end, c.start, c.after_unit, c)
        if model is None:
            # the paragraph's subject carries only into a sentence that names no other
            # system, source or product ("The vLLM post shows ..." is about the post)
            other = self._names_other_subject(s_start, s_end)
            if not other:
                model = self._model_in(p_start, s_start, s_start, s_start)
                if model is None:
                    model = self._section_subject(p_start, "model")
            if model is None and self.title_subject["model"]:
                model = self.title_subject["model"]
            claim.inherited = model is not None
        claim.model = model
        hw = self._hardware_in(s_start, s_end, c.start, c.after_unit, c)
        if hw is None:
            if not self._names_other_subject(s_start, s_end):
                hw = self._hardware_in(p_start, s_start, s_start, s_start) or self._section_subject(p_start, "hardware")
            hw = hw or self.title_subject["hardware"]
            if hw is not None:
                claim.inherited = True
        if hw is not None:
            claim.hardware, claim.accelerator, claim.hw_count = hw.text, hw.accelerator, hw.count
        claim.engine = self._named(v.engines, "engine", s_start, s_end, c)
        claim.dtype = self._named(v.dtypes, "dtype", s_start, s_end, c)
        claim.technique = self._named(v.techniques, "technique", s_start, s_end, c)
        setting = self._sent_cache.get(s_start)
        if setting is None:
            setting = self._sent_cache[s_start] = (
                cond.parallelism(text, s_start, s_end), cond.concurrency(text, s_start, s_end),
                cond.isl_osl(text, s_start, s_end), v.workloads.first(text[s_start:s_end]),
            )
        claim.parallelism, (claim.concurrency, claim.batch_size), (claim.isl, claim.osl), claim.workload = setting
        if claim.concurrency == 1 and claim.family == "token_throughput" and claim.scope in (None, "unspecified"):
            claim.scope = "per_user"
        if claim.family == "money":
            claim.price_basis = cond.price_basis(v, text, s_start, s_end)
        if not claim.phase:
            claim.phase = self._phase(c, claim.family, s_start, s_end)
        if not claim.token_kind and claim.family in ("token_throughput", "tokens"):
            claim.token_kind = self._token_kind(c, s_start, s_end)

    def _named(self, pat, kind: str, s_start: int, s_end: int, c: Cand) -> str | None:
        hits = self._before_next(self._names_in(kind, s_start, s_end), c)
        hit = cond.nearest(hits, c.start, c.after_unit, self._own(c, s_start))
        return hit[2] if hit else None

    def _prev_end(self, c: Cand, floor: int) -> int:
        return max(floor, c.prev_end)

    def _next_start(self, c: Cand, ceil: int) -> int:
        return min(ceil, c.next_start)

    def _statistic(self, c: Cand, s_start: int, s_end: int) -> str | None:
        text = self.text
        lo = max(s_start, self._prev_end(c, max(s_start, c.start - 50)))
        hits = [(s, e, n) for s, e, n in self.v.statistics.finditer(text, lo, c.start)]
        # "a P90 of 196" / "Median input ... is 142K"
        if hits:
            s, e, name = hits[-1]
            if name != "peak" or _PEAK_WORD_RE.search(text[s:e]):
                return name
        nxt = self._next_start(c, s_end)
        hi = min(nxt, c.after_unit + 30)
        for s, e, name in self.v.statistics.finditer(text, c.end, hi):
            if _OF_AFTER_RE.match(text[e:e + 4]):
                continue
            if name == "peak" and not _PEAK_WORD_RE.search(text[s:e]):
                continue
            return name
        return None

    def _phase(self, c: Cand, family: str, s_start: int, s_end: int) -> str | None:
        if family not in ("token_throughput", "latency", "tokens", "request_throughput"):
            return None
        hits = [(s, e, n) for s, e, n in self.v.phases.finditer(self.text, s_start, s_end)]
        if family == "latency":
            hits = [h for h in hits if h[2] in ("ttft", "tpot", "e2e")] or hits
        hit = cond.nearest(hits, c.start, c.end)
        return hit[2] if hit else None

    def _token_kind(self, c: Cand, s_start: int, s_end: int) -> str | None:
        """Which tokens a count or rate counts: the kind word nearest the figure in its own
        clause ("Median input ... is 142K tokens against a median output of 444")."""
        lo = max(s_start, c.prev_end, c.start - 40)
        hi = min(s_end, c.next_start, c.after_unit + 40)
        hits = [(m.start(), m.end(), _KIND_OF[" ".join(m.group(0).lower().split())])
                for m in _TOKEN_KIND_RE.finditer(self.text, lo, hi)]
        hit = cond.nearest(hits, c.start, c.after_unit)
        return hit[2] if hit else None

    def _row_subject(self, table: Table, row, header: str):
        """Model, hardware, engine and dtype for a row (with its section, the table's caption
        and the cell's column header), worked out once per row and column."""
        key = (id(row), header)
        hit = self._row_cache.get(key)
        if hit is not None:
            return hit
        v = self.v
        row_text = " | ".join(x.text for x in row.cells)
        probe = " ".join(filter(None, [table.caption, row.section or "", row_text, header]))
        names = find_names(probe, v)
        model = next((n.name for n in names if n.kind == "model"), None)
        model = v.canonical_model(model) if model else self.title_subject["model"]
        # hardware: the most specific place that names one wins: the cell's column header
        # ("| H100 | MI300X |"), the row's section, the row itself, the caption, the title
        hw = None
        for part in (header, row.section or "", row_text, table.caption):
            if part:
                found = self._probe_hardware.get(part)
                if found is None:
                    found = self._probe_hardware[part] = cond.hardware_mentions(part, find_names(part, v), 0, len(part))
                if found:
                    hw = found[0]
                    break
        hw = hw or self.title_subject["hardware"]
        engine = next((n.name for n in names if n.kind == "engine"), None)
        dtype = next((n.name for n in names if n.kind == "dtype"), None)
        hit = self._row_cache[key] = (model, hw, engine, dtype)
        return hit

    def _column_facts(self, table: Table, header: str) -> tuple:
        """(statistic, phase, output-token kind) a column's header and the table's caption
        give every cell below them, worked out once per column."""
        key = (id(table), header)
        hit = self._column_cache.get(key)
        if hit is None:
            v = self.v
            stat = v.statistics.first(header)
            if stat is None:
                cap = _STAT_CAPTION_RE.search(table.caption)
                stat = _STAT_CAPTION[cap.group(0).lower()] if cap else None
            if stat == "peak" and not _PEAK_WORD_RE.search(header + " " + table.caption):
                stat = None
            hit = self._column_cache[key] = (stat, v.phases.first(header), "output" if _OUT_WORD_RE.search(header) else None)
        return hit

    def _table_conditions(self, claim: Claim, c: Cand) -> None:
        table, row, cl = c.table
        header = table.column_header(cl.col)
        v = self.v
        model, hw, engine, dtype = self._row_subject(table, row, header)
        claim.model = model
        if hw is not None:
            claim.hardware, claim.accelerator, claim.hw_count = hw.text, hw.accelerator, hw.count
        claim.engine, claim.dtype = engine, dtype
        stat, phase, out_kind = self._column_facts(table, header)
        claim.statistic = stat
        claim.phase = phase if claim.family in ("latency", "token_throughput") else None
        if claim.family == "token_throughput" and not claim.token_kind:
            claim.token_kind = out_kind
        # conditions from the row's other cells, by their headers
        for other in row.cells:
            h = table.column_header(other.col).lower()
            val = other.text.strip().strip("*")
            if not _PLAIN_NUMBER_RE.fullmatch(val):
                continue
            try:
                num = float(val.replace(",", "").rstrip("kK")) * (1000 if val[-1:] in "kK" else 1)
            except ValueError:  # "4816...128" and other shapes that are not one number
                continue
            if "batch" in h and claim.batch_size is None:
                claim.batch_size = num
            elif "concurren" in h and claim.concurrency is None:
                claim.concurrency = num
            elif _TP_HEADER_RE.search(h) and claim.parallelism is None:
                claim.parallelism = f"TP{int(num)}"
            elif _INPUT_HEADER_RE.search(h) and claim.isl is None and other is not cl:
                claim.isl = num
            elif _OUTPUT_HEADER_RE.search(h) and claim.osl is None and other is not cl and "throughput" not in h:
                claim.osl = num


_SHARED_FIELDS = (("statistic",), ("hardware", "accelerator", "hw_count"), ("model", "model_params"),
                  ("concurrency",), ("workload",))
_SIG_RE = re.compile(r"[1-9](?:[0-9,]*[1-9])?")


def _distinctive(value_text: str) -> bool:
    """A value written with three significant digits or a decimal ("826", "62.7", "954K")
    names one figure; "1,000" or "200" may be many different figures."""
    digits = value_text.replace(",", "")
    if "." in digits.split()[0] if digits.split() else False:
        return True
    m = _SIG_RE.search(digits.replace(",", ""))
    return bool(m) and len(m.group(0).replace(",", "")) >= 3


def share_conditions(claims: list[Claim]) -> None:
    """Mentions of one distinctive figure in a document are one figure: conditions stated at
    one mention (hardware, statistic, model) hold at the others, unless mentions disagree."""
    groups: dict[tuple, list[Claim]] = {}
    for c in claims:
        if c.family in ("ratio", "percent") or c.low is not None or c.in_table:
            continue
        key = (c.family, c.value_text.replace(",", "").split()[0] if c.value_text.split() else "")
        if key[1] and _distinctive(c.value_text):
            groups.setdefault(key, []).append(c)
    for members in groups.values():
        if len(members) < 2:
            continue
        for fields in _SHARED_FIELDS:
            head = fields[0]
            stated = {getattr(c, head) for c in members if getattr(c, head) is not None and not (head == "model" and c.inherited)}
            stated.discard("peak")
            if len(stated) != 1:
                continue
            source = next(c for c in members if getattr(c, head) in stated and not (head == "model" and c.inherited))
            for c in members:
                if getattr(c, head) is None or (head == "model" and c.inherited):
                    for f in fields:
                        setattr(c, f, getattr(source, f))
                    if head == "model":
                        c.inherited = False


def extract_claims(doc: Document, vocab: Vocab | None = None) -> list[Claim]:
    """Every numeric performance claim in ``doc``, in text order."""
    if not doc.text:
        return []
    ex = _Extractor(doc, vocab or load())
    cands = [c for c in ex.candidates()]
    ex.resolve_bare(cands)
    built: dict[int, Claim] = {}

    def depth(c: Cand) -> int:
        d = 0
        while c.ref is not None and d < 10:
            c, d = c.ref, d + 1
        return d

    # Figures with their own unit first: a bare number copies the scope and statistic of
    # the figure it refers to, so that figure must be complete before it.
    # a count of one or two tokens is a step of generation, not a size
    cands = [c for c in cands if not (c.family == "tokens" and c.value < 10)]
    for c in sorted((c for c in cands if c.family), key=depth):
        try:
            claim = ex.build(c)
        except Exception:  # one odd figure must never lose the document's other claims
            continue
        if c.ref is not None:
            src = ex.best_source(c, built)
            if src is not None:
                if src.scope and src.scope != "unspecified":
                    claim.scope = src.scope
                if c.ref_kind == "value":
                    claim.statistic = claim.statistic or (src.statistic if src.statistic != "peak" else None)
                if claim.inherited and src.model:
                    claim.model = src.model
        built[id(c)] = claim
    claims = sorted(built.values(), key=lambda c: (c.start, c.end))
    ex.carry_scope(claims)
    share_conditions(claims)
    out, seen = [], set()
    for c in claims:
        if (c.start, c.end) not in seen:
            seen.add((c.start, c.end))
            out.append(c)
    return out
