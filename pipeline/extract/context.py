"""Context: a bare number borrows the unit and denominator of the figure it repeats, lists,
stands beside or follows, and mentions of one figure share their conditions."""
from __future__ import annotations

import bisect
import re

from pipeline.extract.candidates import Cand
from pipeline.extract.patterns import (
    AGAINST_RE, AT_OPERATING_POINT_RE, CONDITION_BEFORE_RE, COORD_GAP_RE, COORD_RE, FOLLOWING_OK,
    LIST_SEP_RE, NEXT_WORD_RE, NUMBER_WORD_RE, PERF_VERB_RE, QUOTED_AND_RE,
    QUOTED_AND_STRICT_RE, REFERABLE, SHARED_FIELDS, SIG_RE, WORKLOAD_SETTINGS,
)
from pipeline.model import Claim
from pipeline.vocab.firstchars import word_led


# a bare number right after a setting word is that setting's value
SETTING_BEFORE_RE = re.compile(word_led(
    r"(?i)\b(?:concurrency|concurrent\s+(?:users|requests)|batch(?:\s+size)?|bs|tp|ep|pp|dp|"
    r"isl|osl|(?:input|output|prompt|sequence)\s+length|qps|rps|request\s+rate|max[_ ]tokens)"
    r"\s*(?:of|=|:|at|is)?\s*(?:about\s+|up\s+to\s+)?$"))

class ContextResolver:
    """Carries units, denominators and conditions from one figure to the numbers that refer
    to it. A mixin of the claim builder (uses ``text``, ``seg``)."""

    # ------------------------------------------------------------------ context
    def resolve_bare(self, cands: list[Cand]) -> None:
        """Give bare numbers the unit of the figure they refer to or stand beside."""
        text = self.text
        self._resolve_lists(cands)
        for _ in range(2):
            by_text: dict[str, Cand] = {}
            for src in cands:
                if src.family in REFERABLE and src.unit is not None:
                    by_text.setdefault(src.num.text.replace(",", ""), src)
            for c in cands:
                if c.family or c.num.spelled:
                    continue
                if not self._standalone(c):
                    continue
                if NUMBER_WORD_RE.search(text, max(0, c.start - 20), c.start):
                    continue
                s_start, s_end = self.seg.sentence(c.start)
                ref = None
                # 1. the same value given with a unit elsewhere in the document
                # "batch sizes exceeding 64" repeats a setting's value, not a figure's
                src = by_text.get(c.num.text.replace(",", ""))
                if src is not None and src is not c and (c.num.value >= 10 or "." in c.num.text) \
                        and not CONDITION_BEFORE_RE.search(text, max(s_start, c.start - 40), c.start):
                    ref, c.ref_kind = src, "value"
                # 2. "499,715 at 150 tok/s": a throughput stated at an operating point
                if ref is None:
                    nxt = self._next_cand(cands, c)
                    if nxt is not None and nxt.family == "token_throughput" and AT_OPERATING_POINT_RE.fullmatch(text[c.end:nxt.start]):
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
                if ref is None and PERF_VERB_RE.search(text[max(s_start, c.start - 40):c.start]):
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
        takes the unit of a figure in its sentence whose value is one of the list's; "30, 50,
        75 and 100 tokens/s" takes the unit written once after its last number."""
        text = self.text
        i = 0
        while i < len(cands):
            run = [cands[i]]
            j = i + 1
            while j < len(cands) and not cands[j - 1].family and not cands[j].family and LIST_SEP_RE.fullmatch(text, cands[j - 1].end, cands[j].start):
                run.append(cands[j])
                j += 1
            ref = None
            if (len(run) >= 2 and not run[0].family and j < len(cands) and cands[j].family
                    and cands[j].low is None and not cands[j].implied
                    and LIST_SEP_RE.fullmatch(text, run[-1].end, cands[j].start)):
                # "30, 50, 75 and 100 tokens/s": the unit written once, after the last
                ref = cands[j]
            elif len(run) >= 3 and not run[0].family:
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
        ("16 boards"), nor a setting word precedes it ("concurrency of 64"), nor a tiny
        integer, nor a reference marker. Read once per figure: the candidate scan and both
        passes of ``resolve_bare`` ask."""
        key = (c.start, c.end, c.num.start, c.num.end)
        hit = self._standalone_cache.get(key)
        if hit is None:
            hit = self._standalone_cache[key] = self._read_standalone(c)
        return hit

    def _read_standalone(self, c: Cand) -> bool:
        num = c.num
        if "." not in num.text and num.value < 10 and float(num.value).is_integer():
            return False
        text = self.text
        if c.start and text[c.start - 1] in "#[":
            return False
        if "." not in num.text and c.start > 0 and text[c.start - 1] == "\n" \
                and text[c.end:c.end + 1] in ("\n", ""):
            return False      # an integer alone on its line: a page or slide number
        if SETTING_BEFORE_RE.search(text, max(0, c.start - 40), c.start):
            return False      # "at a concurrency of 64": a setting, not a figure
        m = NEXT_WORD_RE.match(text, c.end, c.end + 40)
        return not m or m.group(1).lower() in FOLLOWING_OK

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
                    gap_ok = QUOTED_AND_RE.match(gap)
                    if not gap_ok:
                        continue
                elif not (COORD_RE.match(gap) or QUOTED_AND_STRICT_RE.match(gap)
                          or AGAINST_RE.match(gap)):
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

    def carry_scope_forward(self, claims: list[Claim]) -> None:
        """"2.2k tokens/s (32-way EP) or ~2.0k tokens/s (96-way EP) per H200 GPU": figures
        coordinated with "or"/"and" share the denominator written after the last of them
        ("In total, 52.3k input and 22.3k output tokens per second per node" are both per
        node: the written denominator wins over a clause's "in total")."""
        for a, b in zip(claims, claims[1:]):
            if (a.family == "token_throughput" and a.scope in (None, "unspecified", "aggregate")
                    and b.family == a.family and b.scope not in (None, "unspecified", "aggregate")
                    and a.sentence_start == b.sentence_start and a.unit == b.unit
                    and COORD_GAP_RE.fullmatch(self.text, a.end, b.start)):
                a.scope = b.scope

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


def _distinctive(value_text: str) -> bool:
    """A value written with three significant digits or a decimal ("826", "62.7", "954K")
    names one figure; "1,000" or "200" may be many different figures."""
    digits = value_text.replace(",", "")
    if "." in digits.split()[0] if digits.split() else False:
        return True
    m = SIG_RE.search(digits.replace(",", ""))
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
        for fields in SHARED_FIELDS:
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


_COORDINATED_RE = re.compile(r"[^,;.:!?\n]{0,60}\b(?:and|or)\s+$", re.I)
# "cuts TTFT by 35% and TPOT by 20%": the second comparison has no verb of its own; it
# completes the first one's ("gapping"), so it goes the same way
_GAPPED_RE = re.compile(r"\s*,?\s*(?:and|or)\s+[^,;.:!?\n\d]{0,40}?\bby\s+(?:(?:up\s+to|about|around|roughly|nearly)\s+)?[~≈]?$", re.I)


def share_baselines(text: str, claims: list[Claim]) -> None:
    """Coordinated comparisons share the baseline written after the last of them: in
    "4.48x higher goodput and 10.2x more stringent SLO than vLLM" both are against vLLM;
    and the model, hardware and engine written there too, which the first names none of
    ("1.6x higher prefill throughput and 2.4x higher decode throughput than vLLM on H100
    with Llama 3 8B": both on H100, both Llama 3 8B). A comparison that completes the
    verb of the one before it ("cuts TTFT by 35% and TPOT by 20%") goes its way."""
    for i in range(len(claims) - 2, -1, -1):
        a, b = claims[i], claims[i + 1]
        if not (a.family in ("ratio", "percent") and b.family in ("ratio", "percent")
                and a.sentence_start == b.sentence_start and a.end <= b.start):
            continue
        gapped = _GAPPED_RE.fullmatch(text, a.end, b.start)
        if gapped and b.direction is None and a.direction is not None:
            b.direction = a.direction
        if a.baseline is None and b.baseline is not None and (gapped or _COORDINATED_RE.match(text, a.end, b.start)):
            a.baseline = b.baseline
            if a.model is None and b.model is not None:
                a.model = b.model
            if a.engine is None and b.engine is not None:
                a.engine = b.engine
            if a.hardware is None and b.hardware is not None:
                a.hardware, a.accelerator, a.hw_count = b.hardware, b.accelerator, b.hw_count


_LIST_ITEM_RE = re.compile(r"[ \t]*(?:[-*+•▪◦·]|\d{1,2}[.)])\s")
_NOT_PROSE_RE = re.compile(r"[ \t]*(?:#|\||```|<)")
_ASSIGNED_RE = re.compile(r"\b[A-Za-z_][\w-]*[ \t]*=[ \t]*(\d[\d,]*(?:\.\d+)?[kK]?)\b")
_BARE_NUMBER_RE = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?[kKMBT]?(?![\w.,]*\w)")
# a unit that only states settings is short: a sentence, a list item ("- Batch size: 64")
MAX_SETTING_UNIT = 300
MAX_SETTING_ITEM = 160
# figures measured at a workload; a memory size or a parameter count has no batch size
WORKLOAD_FAMILIES = frozenset({"token_throughput", "request_throughput", "latency"})


def _takes_settings(c: Claim) -> bool:
    return c.family in WORKLOAD_FAMILIES or (
        c.family in ("ratio", "percent") and c.measures in (None, "throughput", "latency"))


def neighbour_settings(text: str, seg, claims: list[Claim], names_at=None,
                       heads: list[tuple[int, int]] = ()) -> None:
    """Settings stated in a sentence or list item of their own are conditions of the figures
    beside them: the next unit ("SGLang reaches 5,000 tokens/s. This used a batch size of
    64.", "- 5,000 tokens/s" over "- Batch size: 64") and the units before it in its
    paragraph or list ("Each request has 8.6K input tokens and 2K output tokens." before
    the results), the nearest first. Such a unit has no figure and no other number of its
    own (names aside: ``names_at(pos)`` gives the name spans near ``pos``), is short, and
    states each setting once (``conditions.agreed_settings``: a sweep gives none). A list's
    items are units of one block when they follow one another line by line. Only rates,
    times and their ratios take them; a figure's own sentence was read first and wins.
    ``heads``: the document's Markdown headings, (start, level) (``patterns.markdown_headings``),
    for the settings a section states once."""
    from pipeline.extract import conditions as cond

    prose = [c for c in claims if not c.in_table and _takes_settings(c)]
    unset = [c for c in claims if _takes_settings(c) and _no_settings(c)]
    if not prose and not unset:
        return
    with_figures = {c.sentence_start for c in claims}
    starts, ends = seg.sent_starts, seg.sent_ends

    def block(i: int) -> tuple[int, int]:
        """First and last sentence index of the paragraph holding sentence ``i``, or of
        the whole list when the paragraph is a list item."""
        p_start, p_end = seg.paragraph(starts[i])
        lo = hi = i
        while lo > 0 and starts[lo - 1] >= p_start:
            lo -= 1
        while hi + 1 < len(starts) and starts[hi + 1] < p_end:
            hi += 1
        if _LIST_ITEM_RE.match(text, p_start):
            while lo > 0 and _LIST_ITEM_RE.match(text, seg.paragraph(starts[lo - 1])[0]) \
                    and text.count("\n", ends[lo - 1], starts[lo]) <= 1:
                lo -= 1
            while hi + 1 < len(starts) and _LIST_ITEM_RE.match(text, seg.paragraph(starts[hi + 1])[0]) \
                    and text.count("\n", ends[hi], starts[hi + 1]) <= 1:
                hi += 1
        return lo, hi

    said: dict[int, dict] = {}

    def settings_of(j: int) -> dict:
        hit = said.get(j)
        if hit is None:
            hit = said[j] = _unit_settings(j)
        return hit

    def _unit_settings(j: int) -> dict:
        s, e = starts[j], ends[j]
        p_start = seg.paragraph(s)[0]
        item = _LIST_ITEM_RE.match(text, p_start)
        if s in with_figures or _NOT_PROSE_RE.match(text, p_start) \
                or e - s > (MAX_SETTING_ITEM if item else MAX_SETTING_UNIT):
            return {}
        got = cond.agreed_settings(text[s:e])
        if not got:
            return {}
        # every number of the unit is a setting's or a name's: "It ran at batch size 64"
        # is a setting; "the deployment reached 26.2K TPGS at ISL 2K" states a result
        taken = [(s + m.start(), s + m.end()) for m in cond.setting_spans(text[s:e])]
        taken += [(n.start, n.end) for n in (names_at(s) if names_at else []) if s <= n.start < e]
        if item:
            taken.append((item.start(), item.end()))
        # a run option written as an assignment ("num_requests = 10") is a setting too
        taken += [(s + m.start(1), s + m.end(1)) for m in _ASSIGNED_RE.finditer(text[s:e])]
        for m in _BARE_NUMBER_RE.finditer(text, s, e):
            if not any(a <= m.start() < b for a, b in taken):
                return {}
        return got

    blocks: dict[int, tuple[int, int]] = {}
    for c in prose:
        i = seg.sentence_index(c.sentence_start)
        if i >= len(starts) or starts[i] != c.sentence_start:
            continue
        lo, hi = blocks.get(i) or blocks.setdefault(i, block(i))
        if hi - lo > 40:
            continue
        # the units right after it that state only settings, then those before it
        after = []
        for j in range(i + 1, hi + 1):
            if not settings_of(j):
                break
            after.append(j)
        for j in after + list(range(i - 1, lo - 1, -1)):
            for key, val in settings_of(j).items():
                if getattr(c, key) is None:
                    setattr(c, key, val)

    # A figure with no setting at all takes those its section states once, in a unit of
    # their own ("### H200 min-latency" / "Our results are based on Batch = 1, ISL = 1K,
    # OSL = 2K" over a console block of results): the section's run, when the section
    # states no other (a sweep states several and settles nothing).
    at = [h for h, _ in heads]
    for c in unset:
        if not _no_settings(c):
            continue
        k = bisect.bisect_right(at, c.start) - 1
        if k < 0:
            continue
        i = seg.sentence_index(c.sentence_start)
        found: list[dict] = []
        for _ in range(3):
            found = [settings_of(j) for j in range(i - 1, max(-1, i - 60), -1)
                     if starts[j] > at[k] and settings_of(j)]
            if found:
                break
            # none in its own section: the section that holds it ("#### Expected Result
            # Format" under "### H200 min-latency")
            parent = max((n for n in range(k) if heads[n][1] < heads[k][1]), default=None)
            if parent is None:
                break
            k = parent
        found = [{key: val for key, val in f.items() if key in WORKLOAD_SETTINGS} for f in found]
        if found and all(f == found[0] for f in found):
            for key, val in found[0].items():
                if getattr(c, key) is None:
                    setattr(c, key, val)


def _no_settings(c: Claim) -> bool:
    return c.batch_size is None and c.concurrency is None and c.isl is None and c.osl is None


def settings_from_table_mentions(claims: list[Claim]) -> None:
    """A distinctive figure written in prose that a table of the same document gives in a
    cell ("achieves 11,819 tokens/s on Llama2-13B" above a row "| 1024 | 128 | 128 |
    11,819 |") is that cell's measurement: it takes the settings of the cell's row (batch,
    concurrency, lengths, parallelism) where it states none. Only when every cell with that
    value and family agrees, and only settings: the subject the prose names stays its own."""
    cells: dict[tuple, list[Claim]] = {}
    for c in claims:
        if c.in_table and c.family in WORKLOAD_FAMILIES and _distinctive(c.value_text):
            cells.setdefault((c.family, round(c.value, 9)), []).append(c)
    if not cells:
        return
    fields = ("batch_size", "concurrency", "isl", "osl", "parallelism")
    for c in claims:
        if c.in_table or c.low is not None or not _distinctive(c.value_text):
            continue
        same = cells.get((c.family, round(c.value, 9)))
        if not same:
            continue
        for f in fields:
            stated = {getattr(o, f) for o in same}
            if getattr(c, f) is None and len(stated) == 1:
                setattr(c, f, stated.pop())
