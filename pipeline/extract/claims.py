"""Assemble claims: numbers -> units -> family and scope -> conditions -> stance -> context.

The order matters. Explicit figures ("826 tokens/s per user") are read first; only then can
a bare number ("reaches 575", "the 954K figure", "1.09 million credited to SGLang") borrow
the unit and denominator of the figure it refers to or stands beside, marked ``implied``.
"""
from __future__ import annotations

import re

import hashlib

from pipeline.extract import comparison
from pipeline.extract.change import share_change
from pipeline.extract import conditions as cond
from pipeline.extract import notclaims
from pipeline.extract.candidates import Cand, CandidateFinder
from pipeline.extract.context import (
    ContextResolver, neighbour_settings, settings_from_table_mentions, share_baselines, share_conditions,
)
from pipeline.extract.lists import map_respectively, map_settings, own_qualifiers, share_list_comparison, share_list_subject
from pipeline.extract.masks import find_names, NumberMasks, Span
from pipeline.extract.numbers import ascii_lower
from pipeline.extract.patterns import (
    AGGREGATE_WORD_RE, CLASS_OF_MODELS_RE, CONTRAST_AFTER_RE, SHARE_OF_TOKENS_LEAD_RE, SHARE_OF_TOKENS_RE, KIND_OF, OF_AFTER_RE, ONE_AT_A_TIME_RE, OUT_WORD_RE, IN_WORD_RE, PEAK_WORD_RE, REACH_RE,
    STAT_CAPTION, STAT_CAPTION_RE, TOKEN_KIND_RE, markdown_headings,
)
from pipeline.extract.sentences import segment, Segments
from pipeline.extract.stance import comparator, declared_hypothetical, has_cues, stance_and_source
from pipeline.extract.subjects import SubjectFinder
from pipeline.extract.units import read_unit
from pipeline.extract.tables import (
    cell_column, clean, find_tables, HeaderTyper, STAT_LABEL_RE, number as cell_number, prepare_tables, read_ratio_cell,
    setting_values, settings_in_words, Table, TableIndex,
)
from pipeline.model import Claim, Document
from pipeline.vocab.caseless import fold
from pipeline.vocab.loader import load, Vocab


COMPARED = frozenset({"ratio", "percent"})   # families that compare two things
# a parameter count written as a bare size ("8B", "70B+"), no "parameters" after it
BARE_SIZE_RE = re.compile(r"\d[\d.,]*\s?[BbTt]\+?")
PARAMS_AFTER_RE = re.compile(r"(?i)\+?[\s-]*(?:[\w-]+\s+){0,2}?(?:param|active|activated|total)")
# a model named by its size alone: "the 70B variant", "for the 8B model"
VARIANT_REF_RE = re.compile(r"(?i)\bthe\s+(\d+(?:\.\d+)?[BT])\s+(?:model|variant|version|checkpoint|one)s?\b")
# a family's name with at most a version and a variant word ("Llama3", "Qwen 2.5",
# "LLaMA-2-Chat"): a size joins it
FAMILY_VERSION_RE = re.compile(r"[A-Za-z][A-Za-z-]*?[\s-]?(?:v?\d+(?:\.\d+)?)?(?:[\s-][A-Z][a-z]+)?")
# a size that names a sibling of a model: "the 8B", "the 7B, 13B and", "for 70B", "Llama
# 8B and 70B", "with 8B"
SIBLING_REF_RE = re.compile(r"(?i)(?:\bthe\s+(?:\d[\d.]*[BT]\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+or\s+))*"
                            r"|\b(?:for|with)\s+|\d[BT]\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+or\s+))$")


def _claim_id(doc_id: str, start: int, end: int) -> str:
    return hashlib.sha1(f"{doc_id}:{start}:{end}".encode()).hexdigest()[:16]


# a fenced block is a tool's printed results when this many of its lines name a unit; a
# table drawn with box characters is a tool's output whatever it holds (nobody writes code
# in boxes): one measured quantity with its unit is enough
MIN_PRINTED_METRICS = 3
MIN_BOXED_METRICS = 1
# a rate's unit without its counted thing: "(per sec)", "(per second)", "(/s)"
PER_SECOND_RE = re.compile(r"(?i)[(\[]\s*(?:per\s+|/\s*)s(?:ec(?:ond)?)?\s*[)\]]")


# figures of a run in a table (rates, times, their ratios) take the one model or hardware a
# document names; a device's own specification (memory, bandwidth, power) does not, nor a
# figure in prose (coverage names one system and credits figures measured on another)
SOLE_SUBJECT_FAMILIES = frozenset({"token_throughput", "request_throughput", "latency", "ratio", "percent"})


# a short product code: letters and a digit, at most three words ("N150", "T3K", "TPU v5e")
DEVICE_CODE_RE = re.compile(r"(?=[^|]*\d)[A-Za-z][\w.+-]*(?:[ \t][\w.+-]+){0,2}")
SIGNED_CELL_RE = re.compile(r"(?:^|[|\s])([-−–+])\s?$")
NOT_DEVICE_RE = re.compile(r"(?i)\b(?:TP|EP|PP|DP|CP|SP)[-_ ]?\d|\b(?:FP|INT|BF|W|A)\d{1,2}\b|\bbatch|\bbs\d|(?<![\w.])\d+(?:\.\d+)?[BMK]\b")


# What a figure of each family can inherit from its paragraph, section, title or document
# (a sentence's own words always count): a model's size, or an accelerator's bandwidth,
# compute or power, was measured on no serving engine and is no result on a benchmark; a
# model's size or context length runs on no hardware. (Memory and money can be either: an
# HBM capacity or a list price, but also the memory a server leaves free or what a
# deployment costs per token, which are the engine's.)
NO_ENGINE_FAMILIES = frozenset({"parameters", "bandwidth", "compute", "power"})
NO_HARDWARE_FAMILIES = frozenset({"parameters", "tokens"})
# a device's spec or an achieved rate of a device is no model's figure: a document's model
# does not carry onto it (one the sentence names still does)
NO_INHERITED_MODEL_FAMILIES = frozenset({"power", "bandwidth", "compute"})
# a model-like name (a capital, then a digit or a hyphen in it) right before "(241B)"
_NAME_BEFORE_SIZE_RE = re.compile(r"(?<![\w.-])([A-Z][A-Za-z]*(?:[-.][A-Za-z0-9]+|\d[\w.]*)+[\w]*)[ \t]*\([ \t]*$")
_PER_BEFORE_RE = re.compile(r"(?i)(?:\bper|/)[ \t]*$")
# a list price per token ("R1 Pricing: $2.19/M output tokens") is what a customer pays, not
# a cost measured on the document's hardware
_LIST_PRICE_RE = re.compile(r"(?i)\b(?:pric(?:e|es|ed|ing)|charges?|charged)\b")


class _Extractor(CandidateFinder, ContextResolver, SubjectFinder):
    """One document's extraction: shared state (text, segments, tables, name caches) and
    the assembly of each figure's conditions and stance."""

    def __init__(self, doc: Document, vocab: Vocab):
        self.doc = doc
        self.text = doc.text
        self.v = vocab
        self.lower = ascii_lower(self.text)  # one copy for the case-blind literal scans
        # the copy case-blind patterns run over, where it matches as they do (caseless.py)
        self.fold = fold(self.text)
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
        self._row_numbers_cache: dict[int, list] = {}
        self._header_units: dict[str, object] = {}
        self._baselines: dict[int, tuple[int, int]] = {}  # id(cand) -> its baseline's span
        self._names_of_cache: dict[str, list] = {}        # probe text -> names in it
        self._ident_cache: dict[tuple, dict] = {}         # (field, cell text) -> what it names
        self._standalone_cache: dict[tuple, bool] = {}   # a bare figure's span -> may it be one
        self._settings_cache: dict[tuple, tuple] = {}     # (id(row), column) -> settings in words
        self._agreed_cache: dict[str, dict] = {}          # caption or context -> the settings it fixes
        self._math = notclaims.math_spans(self.text)      # TeX math: no figures inside
        self.offered: dict[int, float] = {}   # sentence start -> the load offered there
        self.lengths: dict[tuple[int, str], float] = {}  # (sentence start, isl|osl) -> tokens
        self.figures_in: dict[int, int] = {}  # sentence start -> how many figures with a unit
        self.families_in: dict[int, set[str]] = {}  # sentence start -> their families
        self.dropped: dict[int, str] = {}     # id(cand) -> why build() skipped it (explain.py)
        self._bars: dict[int, str] = {}       # where thresholds and set values end -> family ("an SLO of 0.4 s and 0.04 s")
        self.headings = markdown_headings(self.text)     # (start, level), outside code
        self._heading_starts = [s for s, _ in self.headings]
        self._heading_levels = [level for _, level in self.headings]
        self._one_cache: dict[int, int] = {}
        self._sole: dict | None = None
        self.typer = HeaderTyper(vocab, self._header_unit)
        self.tables = TableIndex(prepare_tables(
            doc.tables if doc.tables is not None else find_tables(self.text), self.typer))
        self.title_subject = self._title_subject()
        self._doc_engine: tuple[str | None] | None = None
        self._parts_named: dict[str, bool] = {}
        self.masks.open_up(self._printed_results())

    def refine_families(self, claims: list[Claim]) -> None:
        """A figure "on Blackwell" in a document that names one Blackwell part (B200) is a
        figure on that part; with two parts named, the architecture stays as written."""
        fams = self.v.hardware_families
        if not any(c.accelerator in fams for c in claims):
            return
        for c in claims:
            parts = {p for p in fams.get(c.accelerator or "", ()) if self._names_part(p)}
            if len(parts) == 1:
                part = parts.pop()
                c.accelerator = part
                c.hardware = f"{c.hw_count} x {part}" if c.hw_count else part
                c.inherited = True

    def _is_family(self, before: str) -> bool:
        """Does ``before`` end with a model family's name alone ("Llama" in "Llama (7B -
        65B)")?"""
        m = notclaims.LAST_WORD_RE.search(before)
        return bool(m) and any(m.group(1).lower() == f.lower() for f in self.v.model_families)

    def _names_part(self, part: str) -> bool:
        """Does the document name this accelerator ("B200", not inside "GB200")? A literal
        search per part: far cheaper than the whole accelerator vocabulary over the text."""
        hit = self._parts_named.get(part)
        if hit is None:
            # the pattern runs only where ``str.find`` finds the part's letters (a
            # look-behind-led search tries every position of the text)
            pat = re.compile(rf"(?<![\w-]){re.escape(part)}s?(?![\w])")
            at = self.text.find(part)
            while at >= 0 and not pat.match(self.text, at):
                at = self.text.find(part, at + 1)
            hit = self._parts_named[part] = at >= 0
        return hit

    def _printed_results(self) -> list[tuple[int, int]]:
        """Key-value blocks whose keys name a measured quantity with its unit ("Mean TTFT
        (ms):  33.71"): what a benchmark tool printed, read even inside a code fence. A
        configuration file's "max_tokens: 512" names no unit and stays code. A table a
        tool drew with box characters ("┃ Time to first token (ms) ┃ 13.68 ┃") is read the
        same way, once its header or row labels name one measured quantity."""
        out = []
        for t in self.tables.tables:
            if t.source not in ("key-value", "box") or not self.masks.global_masks.covers(t.start, t.start + 1):
                continue
            # read on its side by now (prepare_tables): the keys are the header
            keys = t.header + [r.cells[0].text for r in t.rows if r.cells]
            keys = [k for k in keys if k.strip() and cell_number(k) is None]
            measured = sum(1 for k in keys if self._names_measure(k))
            # (a block shorter than three lines, under a drawn table, names one in each line)
            need = MIN_BOXED_METRICS if t.source == "box" else min(MIN_PRINTED_METRICS, len(keys) or 1)
            if measured >= need:
                out.append((t.start, t.end))
        if "```" in self.text:
            out += [span for span in notclaims.output_blocks(self.text) if self._prints_measures(*span)]
        return out

    def _names_measure(self, key: str) -> bool:
        """Does a printed key name a measured quantity with its unit: "Mean TTFT (ms)",
        or a rate written "(per sec)" after a throughput's words ("Request throughput
        (per sec)", as GenAI-Perf prints it)?"""
        hit = self._header_unit(key)
        if hit is not None:
            return hit.entry.family not in ("tokens", "parameters")
        return bool(PER_SECOND_RE.search(key)) and self.typer.column(key).family in ("token_throughput", "request_throughput")

    def _prints_measures(self, start: int, end: int) -> bool:
        """Does a block of "Label: value" lines print a measured figure with its unit
        ("Throughput: 7.15 requests/s, 4656.00 total tokens/s")?"""
        for m in notclaims.NUMBER_UNIT_RE.finditer(self.text, start, end):
            hit = read_unit(self.text, m.end(1), self.v, end)
            if hit is not None and hit.entry.family in ("token_throughput", "request_throughput", "latency"):
                return True
        return False

    # ------------------------------------------------------------------ build
    def build(self, c: Cand) -> Claim | None:
        """The claim a candidate figure makes, or None when it is no performance figure."""
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
        why = self._not_a_claim(c, lead, s_start, s_end)
        if why:
            self.dropped[id(c)] = why
            return None
        claim.comparator = comparator(lead, text[c.num.end:c.num.end + 20] if c.high is None else text[c.end:c.end + 20])
        if c.unit_text.endswith("+") or text[c.end:c.end + 1] == "+":
            claim.comparator = ">="
        if c.table is not None:
            self._table_conditions(claim, c)
        else:
            if claim.family in COMPARED and not self._comparison(claim, c, s_start, s_end):
                self.dropped[id(c)] = "a share of quality, not of performance"
                return None
            self._sentence_conditions(claim, c, s_start, s_end, p_start)
        cues = self._cue_cache.get(s_start)
        if cues is None:
            cues = self._cue_cache[s_start] = has_cues(text[s_start:s_end])
        if cues:
            claim.stance, claim.asserted_by = stance_and_source(before, after, text[s_start:s_end])
        # "reaches 575" states where a measurement landed; "neither reaches 1,000" or
        # "whether it reached 1,000" is about a threshold, so only there it means >=
        if claim.comparator == ">=" and claim.stance == "asserted" and REACH_RE.search(lead):
            claim.comparator = "="
        if claim.family == "token_throughput" and not claim.scope:
            claim.scope = "unspecified"
        if claim.model:
            claim.model_params = v.model_params.get(claim.model) or cond.model_size(claim.model)
        if claim.family == "parameters" and not claim.model:
            claim.model = self._model_in(s_start, s_end, c.start, c.end)
        if claim.family == "parameters" and claim.model and c.table is None:
            claim.model = self._model_of_size(claim, c, s_start, s_end)
            claim.model_params = claim.model and (v.model_params.get(claim.model) or cond.model_size(claim.model))
        return claim

    def _model_of_size(self, claim: Claim, c: Cand, s_start: int, s_end: int) -> str | None:
        """The model a bare size ("the 70B variant", "for the 8B and 70B models") is the
        size of, when the model it was given is named with another size or carried from
        context. A size that refers to a sibling ("the 8B", "Llama 8B and 70B", "for
        70B"), or any size beside a model named with another, of a model of the one
        family its sentence names is that sibling, of the
        same family and version ("Llama-70B ... the 8B model" is Llama-8B; "For the 70B
        models, we use Meta-Llama-3-70B-Instruct"; a family carried from the title
        takes the size: "Llama3" -> "Llama3 8B"). Any other size whose model is named
        otherwise sized is no size of it ("a 1T model" in a section on MT-NLG 530B).
        A size written right after a model's name, or followed by "parameters", is that
        model's ("DeepSeek V3 (685B)", "Mixtral 8x7B ... 13B active parameters")."""
        model = claim.model
        text = self.text
        if not BARE_SIZE_RE.fullmatch(claim.surface) or PARAMS_AFTER_RE.match(text, c.end, c.end + 40):
            return model
        lead = c.start - 1 if text[c.start - 1:c.start] == "(" else c.start
        if self._name_just_before(lead, "model"):
            return model
        known = self.v.model_params.get(model)
        own = known if known is not None else cond.model_size(model)
        if own is not None and abs(own - claim.value) <= 0.01 * claim.value:
            return model
        named = {n for _, _, n in self.listed_names("model", s_start, s_end)}
        definite = SIBLING_REF_RE.search(text, max(s_start, c.start - 40), c.start)
        if definite is None and (cond.model_size(model) is None or model not in named):
            # "a 70B model": a class of models; the model named beside it stays unless
            # its own size says otherwise
            return model if model in named or own is None else None
        if len({self._family_of(n) for n in named}) > 1:
            return None
        return self._at_size(model, claim.surface, claim.value)

    def _family_of(self, model: str) -> str:
        """The family stem a model's name starts with (lower case), else the name."""
        low = model.lower()
        return max((f.lower() for f in self.v.model_families if low.startswith(f.lower())), key=len, default=low)

    def _at_size(self, model: str, size: str, value: float) -> str | None:
        """``model`` when its size is ``value``; else its sibling of that size, of its
        family and version ("Llama-70B" at "8B" is "Llama-8B", "Llama3" at "8B" is
        "Llama3 8B"); None for a model whose size the vocabulary knows otherwise or whose
        name is more than a family's, version's and variant's."""
        known = self.v.model_params.get(model)
        stated = cond.model_size(model)
        own = known if known is not None else stated
        if own is not None and abs(own - value) <= 0.01 * value:
            return model
        if stated is not None or (known is None and FAMILY_VERSION_RE.fullmatch(model)
                                  and any(model.lower().startswith(f.lower()) for f in self.v.model_families)):
            return self.v.canonical_model(cond.model_at_size(model, size.rstrip("+").replace(" ", "")))
        return None

    def _variant_named(self, s_start: int, s_end: int) -> re.Match[str] | None:
        """The one bare size a sentence names its model by ("For the 70B variant, ...",
        "the 8B model reaches ..."): None when it names none or several."""
        hits = list(VARIANT_REF_RE.finditer(self.text, s_start, s_end))
        return hits[0] if len(hits) == 1 and not self.masks.covers(hits[0].start(1), hits[0].end(1)) else None

    def _not_a_claim(self, c: Cand, lead: str, s_start: int, s_end: int) -> str | None:
        """Why the figure is none: math, an offered load (kept as the sentence's setting)
        or a worked example (notclaims.py); None when nothing rules it out."""
        if self._math and any(a <= c.start < b for a, b in self._math):
            return "inside TeX math"
        if c.table is not None:
            return None
        if notclaims.in_axis_ticks(self.text, c.num.start, c.num.end):
            return "a chart axis (a run of bare numbers)"
        line_start = self.text.rfind("\n", 0, c.start) + 1
        if notclaims.is_layout_option(self.text[line_start:c.start]):
            return "a layout option of markup (':width: 100%')"
        if c.family == "tokens" and notclaims.in_examples(self.text[max(s_start, c.start - 80):c.start]):
            return "an example of a setting's values ('(e.g., every 32, 64, or 128 tokens)')"
        if notclaims.in_equation(self.text, c.num.start, c.num.end):
            return "arithmetic written out (an operand or the result of 'a*b=c')"
        if notclaims.is_worked_example(self.text[s_start:s_start + 80],
                                       self.text[self.text.rfind("\n", 0, s_start) + 1:s_start]):
            return "a worked example: 'Suppose ...', 'For example, if ...', 'Ex. ...'"
        # an offered load is the condition of another figure in its sentence; alone, "serves
        # it at 14.6 requests per second" is the rate it reached
        others = self.figures_in.get(s_start, 0) > 1
        if c.family == "request_throughput" and others and notclaims.is_offered_load(lead):
            self.offered.setdefault(s_start, c.value)
            return "an offered load: the setting of the sentence's other figures"
        if c.family == "request_throughput" and notclaims.in_condition_list(self.text, c.start, c.after_unit):
            self.offered.setdefault(s_start, c.value)
            return "an offered load: listed with the run's conditions ('(BF16, 32 QPS)')"
        if c.family == "request_throughput" and notclaims.is_rate_label(lead):
            return "an offered load: one of the values after a QPS label"
        if c.family == "parameters" and BARE_SIZE_RE.fullmatch(self.text[c.start:c.end]) and notclaims.names_configuration(
                self.text[max(s_start, c.prev_end, c.start - 60):c.start], self.text[c.end:c.end + 30]):
            return "a size naming a configuration ('the case with 8B'), not a model's size"
        if c.family == "parameters":
            paren = notclaims.VARIANT_PAREN_RE.search(lead)
            if paren and notclaims.names_variants(self.text[s_start:s_end]) and (
                    self._name_just_before(c.start - len(lead) + paren.start(), "model")
                    or notclaims.MODELISH_TOKEN_RE.search(lead, 0, paren.start())
                    or self._is_family(lead[:paren.start()])):
                return "a size naming a model's variant: 'Llama3.2 (1B, 3B)'"
        # the words before the figure in its own clause (after the previous figure)
        own = lead[-(c.start - max(s_start, c.prev_end)):] if c.start > max(s_start, c.prev_end) else ""
        if notclaims.is_config_value(own) or self._continues_bar(c, own) or \
                notclaims.restated_by_flag(self.text[c.after_unit:c.after_unit + 40]) or (
                    notclaims.continues_list(own) and notclaims.listed_config_value(
                        self.text[max(s_start, c.start - 120):c.start])):
            self._bars[c.after_unit] = c.family
            return "a configuration value: a flag's, a named setting's or one a run was set to"
        if c.family == "bandwidth" and notclaims.is_port_speed(lead, self.text[c.after_unit:c.after_unit + 40]):
            return "a port's rated speed (a NIC, link or line rate), not one measured"
        if c.family in ("ratio", "percent") and notclaims.is_arithmetic_result(lead):
            return "the result of arithmetic written out before it"
        if c.family == "tokens" and _PER_BEFORE_RE.search(lead):
            return "the basis of a price or rate ('$0.20 per 1M output tokens')"
        if c.family == "tokens":
            which = notclaims.length_setting(own, others) or notclaims.counted_length_setting(
                c.unit_text, own, others, self.text[c.after_unit:c.after_unit + 30])
            if which is None and notclaims.continues_list(own):
                which = notclaims.listed_length_setting(self.text[max(s_start, c.start - 120):c.start])
            if which is not None:
                self.lengths.setdefault((s_start, which), c.value)
                return f"a length setting ({which.upper()}) of the sentence's other figures"
        if c.family == "latency" and (notclaims.is_threshold(own, self.text[c.after_unit:c.after_unit + 50],
                                                                      self.text[s_start:s_end])
                                      or self._continues_bar(c, own)):
            self._bars[c.after_unit] = c.family
            return "a threshold: an SLO, deadline or requirement the figures are measured against"
        if notclaims.is_condition_bound(self.text[max(0, c.start - 150):c.start],
                                        self.text[c.after_unit:c.after_unit + 3]):
            return "a condition's bound: 'When X exceeds 100Gbps, ...' sets the point, not a figure"
        if c.family == "tokens" and others and notclaims.is_operating_point(own):
            return "an operating point ('at 16K'): the setting of the sentence's other figures"
        if c.family == "latency" and notclaims.is_time_window(own):
            return "a time window: the period something was counted over, not a time taken"
        if c.family in ("latency", "money") and not notclaims.names_a_system(self.text[s_start:s_end]):
            names = self.names_near(s_start)
            if not any(s_start <= n.start < s_end for n in names):
                return "a worked example: a time or price in a sentence that names no system"
        return None

    def _continues_bar(self, c: Cand, own: str) -> bool:
        """Is the figure the next item of a list whose first item was a threshold or a set
        value of its family ("set to 100 ms, 200 ms and 300 ms")?"""
        return self._bars.get(c.prev_end) == c.family and notclaims.continues_list(own)

    def _comparison(self, claim: Claim, c: Cand, s_start: int, s_end: int) -> bool:
        """Direction, measured quantity and baseline of a ratio or percent; False when what
        it is a share of is no performance quantity ("59.8% agreement")."""
        comp = comparison.read(self.text, c.start, max(c.end, c.after_unit), s_start, s_end,
                               c.prev_end, c.next_start)
        if comp.not_performance:
            return False
        claim.direction, claim.measures = comp.direction, comp.measures
        if comp.baseline_span is not None:
            bs, be = comp.baseline_span
            self._baselines[id(c)] = comp.baseline_span
            names = [n for n in self.names_near(s_start) if bs <= n.start and n.end <= be
                     and n.kind in ("engine", "model", "accelerator", "system")]
            if names:
                claim.baseline = ", ".join(dict.fromkeys(
                    self.v.canonical_model(n.name) if n.kind == "model"
                    else self.text[n.start:n.end] if n.kind == "system" else n.name for n in names))
            else:
                claim.baseline = comp.baseline
        return True

    def _scope_from_context(self, c: Cand, start: int, end: int) -> str | None:
        hits = [(s, e, name) for s, e, name in self.v.scope_context.finditer(self.text, start, end, self.fold)]
        hit = cond.nearest(hits, c.start, c.after_unit)
        return hit[2] if hit else None

    def _sentence_conditions(self, claim: Claim, c: Cand, s_start: int, s_end: int, p_start: int) -> None:
        text, v = self.text, self.v
        # scope: the unit's own denominator, then the clause around the figure
        if not claim.scope and claim.family in ("token_throughput", "request_throughput", "money", "tokens",
                                                "bandwidth"):
            lo = max(s_start, self._prev_end(c, s_start))
            hi = min(s_end, self._next_start(c, s_end))
            scope = self._scope_from_context(c, lo, hi)
            if scope is None and claim.family == "token_throughput":
                scope = self._scope_from_context(c, max(s_start, c.start - 120), c.start)
            if scope == "aggregate" and claim.family == "token_throughput" and not AGGREGATE_WORD_RE.search(text[lo:hi]):
                scope = None
            if scope is not None and (claim.family != "tokens" or scope == "aggregate"):
                claim.scope = scope
        claim.statistic = claim.statistic or self._statistic(c, s_start, s_end)
        model = self._model_in(s_start, s_end, c.start, c.after_unit, c)
        if model is None and claim.family == "parameters" and CLASS_OF_MODELS_RE.search(
                text, max(s_start, c.start - 40), c.start):
            pass    # "models smaller than 16B": a class of models, no one model's size
        elif model is None and claim.family in NO_INHERITED_MODEL_FAMILIES:
            pass
        elif model is None and claim.family == "parameters" and (
                named := _NAME_BEFORE_SIZE_RE.search(text, max(s_start, c.start - 40), c.start)):
            # "Intern-S1 (241B)": the size of the name before it, one the vocabulary does
            # not know; not the model of the paragraph or list above
            model = named.group(1)
        elif model is None:
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
            ref = self._variant_named(s_start, s_end) if model is not None and claim.family != "parameters" else None
            if ref is not None:
                # "We ran Llama 3 ... For the 70B variant, TTFT was 120 ms": the inherited
                # family at the size the sentence names
                size = ref.group(1)
                model = self._at_size(model, size, float(size[:-1]) * (1e12 if size[-1] in "Tt" else 1e9))
        claim.model = model
        hw = self._hardware_in(s_start, s_end, c.start, c.after_unit, c)
        if hw is None and claim.family not in NO_HARDWARE_FAMILIES and not (
                claim.family == "money" and "token" in (c.per_basis or "")
                and _LIST_PRICE_RE.search(text, s_start, c.start)):
            if not self._names_other_subject(s_start, s_end):
                hw = self._hardware_in(p_start, s_start, s_start, s_start) or self._section_subject(p_start, "hardware")
            hw = hw or self.title_subject["hardware"]

            if hw is not None:
                claim.inherited = True
        if hw is not None:
            claim.hardware, claim.accelerator, claim.hw_count = hw.text, hw.accelerator, hw.count
        claim.engine = self._named("engine", s_start, s_end, c)
        if claim.engine is None and claim.family not in NO_ENGINE_FAMILIES and \
                not self._not_baseline(self._names_in("engine", s_start, s_end), c):
            # a sentence that names no engine (or only the one it is compared against) is
            # about the one its document is about (a vendor's post on its own engine; never
            # the baseline). Not a section's: sections of comparisons name every rival in turn.
            engine = self.doc_engine()
            if engine is not None and engine != claim.baseline:
                claim.engine, claim.inherited = engine, True
        claim.dtype = self._named("dtype", s_start, s_end, c)
        claim.technique = self._named("technique", s_start, s_end, c)
        setting = self._sent_cache.get(s_start)
        if setting is None:
            setting = self._sent_cache[s_start] = (
                cond.parallelism(text, s_start, s_end, self.fold),
                cond.concurrency(text, s_start, s_end, self.fold),
                cond.isl_osl(text, s_start, s_end, self.fold),
                v.workloads.first(text[s_start:s_end], self.fold and self.fold[s_start:s_end]),
            )
        claim.parallelism, (claim.concurrency, claim.batch_size), (claim.isl, claim.osl), claim.workload = setting
        if claim.family in NO_ENGINE_FAMILIES:
            claim.workload = None   # a model's size is no result on the benchmark in its row
        if claim.family == "tokens":
            # "a maximum output length of 100K tokens": the length the sentence states is
            # this figure itself, not a setting it was measured at
            claim.isl = None if claim.isl == claim.value else claim.isl
            claim.osl = None if claim.osl == claim.value else claim.osl
        # a setting written right after the figure is its own: "2.2k tokens/s (32-way EP) or
        # ~2.0k tokens/s (96-way EP)"
        own = cond.parallelism(text, c.end, min(s_end, c.next_start, c.end + 40), self.fold)
        if own:
            claim.parallelism = own
        if claim.family == "token_throughput" and claim.scope in (None, "unspecified") and (
                claim.concurrency == 1 or claim.batch_size == 1 or (claim.concurrency is None and claim.batch_size is None
                                           and self._one_at_a_time(s_start))):
            claim.scope = "per_user"
        if claim.family == "money":
            claim.price_basis = cond.price_basis(v, text, max(s_start, c.prev_end), min(s_end, c.next_start),
                                                 own=(c.start, c.after_unit), first=c.prev_end <= s_start)
        if not claim.phase:
            claim.phase = self._phase(c, claim.family, s_start, s_end, claim.measures)
        if not claim.token_kind and claim.family in ("token_throughput", "tokens", "money"):
            claim.token_kind = self._token_kind(c, s_start, s_end)
        elif claim.family == "percent" and not claim.token_kind:
            # "56.3% of its output tokens": a share of one kind of tokens
            m = SHARE_OF_TOKENS_RE.match(text, c.after_unit, min(s_end, c.after_unit + 60)) or \
                SHARE_OF_TOKENS_LEAD_RE.search(text, max(s_start, c.start - 120), c.start)
            claim.token_kind = KIND_OF[m.group(1).lower()] if m else None

    def _one_at_a_time(self, pos: int) -> bool:
        """Does the section holding ``pos`` say every figure in it was measured one request
        at a time ("all benchmarks are run at batch size=1", "single-batch inference")?
        Then a rate with no denominator there is one user's. Read once per section: from the
        section's top heading (level 1 or 2) up to ``pos``."""
        top = self._top_heading(pos)
        hit = self._one_cache.get(top)
        if hit is None:
            nxt = self.text.find("\n## ", top + 1)
            end = len(self.text) if nxt < 0 else nxt
            m = ONE_AT_A_TIME_RE.search(self.text, top, end)
            hit = self._one_cache[top] = m.start() if m else -1
        return 0 <= hit < pos

    def _top_heading(self, pos: int) -> int:
        i = self.text.rfind("\n## ", 0, pos)
        j = self.text.rfind("\n# ", 0, pos)
        return max(i, j, 0)

    def listed_names(self, kind: str, start: int, end: int) -> list[tuple[int, int, str]]:
        """Names of one kind in ``text[start:end]``, models by their canonical name."""
        if kind == "phase":
            return list(self.v.phases.finditer(self.text, start, end, self.fold))
        hits = self._names_in(kind, start, end)
        if kind == "model":
            hits = [(s, e, self.v.canonical_model(n)) for s, e, n in hits]
        return hits

    def _named(self, kind: str, s_start: int, s_end: int, c: Cand) -> str | None:
        hits = self._before_next(self._not_baseline(self._names_in(kind, s_start, s_end), c), c)
        if kind == "engine" and hits:
            # "30k tokens on one L4, while vLLM gets barely 10k": an engine past a contrast
            # after the figure is the other clause's, even where its figure is no claim
            m = CONTRAST_AFTER_RE.search(self.text, c.end, s_end)
            if m is not None:
                hits = [h for h in hits if h[0] < m.start()]
            hits = self._not_rival(hits, s_start, c)
        if kind in ("technique", "dtype") and hits:
            hits = self._on_its_line(hits, c)
        hit = cond.nearest(hits, c.start, c.after_unit, self._own(c, s_start))
        return hit[2] if hit else None

    def _on_its_line(self, hits: list, c: Cand) -> list:
        """A figure that ends a labelled line ("Overlap scheduler + one batched call 6.0 s"
        on a slide, a list) takes its technique or precision from that line only: the lines
        around it are the other items' (a sentence of slide text runs over many lines)."""
        text = self.text
        line_start, line_end = text.rfind("\n", 0, c.start) + 1, text.find("\n", c.after_unit)
        if line_end < 0 or text[c.after_unit:line_end].strip(" \t*_.,;:)") \
                or not text[line_start:c.start].strip():
            return hits
        return [h for h in hits if line_start <= h[0] < line_end]

    def _prev_end(self, c: Cand, floor: int) -> int:
        return max(floor, c.prev_end)

    def _next_start(self, c: Cand, ceil: int) -> int:
        return min(ceil, c.next_start)

    def _statistic(self, c: Cand, s_start: int, s_end: int) -> str | None:
        text = self.text
        lo = max(s_start, self._prev_end(c, max(s_start, c.start - 50)))
        hits = [(s, e, n) for s, e, n in self.v.statistics.finditer(text, lo, c.start, self.fold)]
        # "a P90 of 196" / "Median input ... is 142K"
        if hits:
            s, e, name = hits[-1]
            if name != "peak" or PEAK_WORD_RE.search(text[s:e]):
                return name
        if not hits and lo > s_start and len(self.families_in.get(s_start, ())) == 1:
            # the sentence's one figure, or figures of one kind: "Even at the 99th percentile,
            # X answered in 4.97 s"; "an average throughput of ~73.7k tokens/s input ... or
            # ~14.8k tokens/s output" (a nearer statistic of its own was taken above)
            for s, e, name in self.v.statistics.finditer(text, s_start, c.start, self.fold):
                if name != "peak":
                    return name
        nxt = self._next_start(c, s_end)
        hi = min(nxt, c.after_unit + 30)
        for s, e, name in self.v.statistics.finditer(text, c.end, hi, self.fold):
            if OF_AFTER_RE.match(text[e:e + 4]):
                continue
            if name == "peak" and not PEAK_WORD_RE.search(text[s:e]):
                continue
            return name
        return None

    def _phase(self, c: Cand, family: str, s_start: int, s_end: int,
               measures: str | None = None) -> str | None:
        """The phase a rate or time is of; for a ratio, the phase of the rate or time it
        compares ("1.9x decoding throughput" is no prefill speedup)."""
        if family in ("ratio", "percent") and measures in ("throughput", "latency"):
            family = "token_throughput" if measures == "throughput" else "latency"
        elif family not in ("token_throughput", "latency", "tokens", "request_throughput"):
            return None
        hits = [(s, e, n) for s, e, n in self.v.phases.finditer(self.text, s_start, s_end, self.fold)]
        if family == "latency":
            hits = [h for h in hits if h[2] in ("ttft", "tpot", "e2e")] or hits
        else:
            # a rate has no time-to-first-token or per-token-time phase: "processes 74% more
            # requests per second and reduces TTFT" names the next figure's
            hits = [h for h in hits if h[2] not in ("ttft", "tpot")]
        # as for names: a phase past the next figure is that figure's ("~73.7k tokens/s
        # during prefilling or ~14.8k tokens/s during decoding")
        hit = cond.nearest(self._before_next(hits, c), c.start, c.end, self._own(c, s_start))
        return hit[2] if hit else None

    def _token_kind(self, c: Cand, s_start: int, s_end: int) -> str | None:
        """Which tokens a count or rate counts: the kind word nearest the figure in its own
        clause ("Median input ... is 142K tokens against a median output of 444")."""
        lo = max(s_start, c.prev_end, c.start - 40)
        hi = min(s_end, c.next_start, c.after_unit + 40)
        hits = [(m.start(), m.end(), KIND_OF[" ".join(m.group(0).lower().split())])
                for m in TOKEN_KIND_RE.finditer(self.text, lo, hi)]
        hit = cond.nearest(hits, c.start, c.after_unit)
        return hit[2] if hit else None

    def _column_facts(self, table: Table, header: str) -> tuple:
        """(statistic, phase, token kind, scope) a column's header and the table's caption
        give every cell below them, worked out once per column."""
        key = (id(table), header)
        hit = self._column_cache.get(key)
        if hit is None:
            col = self.typer.column(header)
            stat = col.statistic
            if stat is None:
                cap = STAT_CAPTION_RE.search(table.caption)
                stat = STAT_CAPTION[cap.group(0).lower()] if cap else None
            if stat == "peak" and not PEAK_WORD_RE.search(header + " " + table.caption):
                stat = None
            kind = col.token_kind or ("output" if OUT_WORD_RE.search(header) else None)
            hit = self._column_cache[key] = (stat, col.phase, kind, col.scope)
        return hit

    def _row_numbers(self, table: Table, row) -> list[tuple]:
        """(cell, Claim fields it sets) for each setting and identifier cell of a row: the
        row's conditions, read once per table for every figure of its rows. A blank
        setting or identifier cell repeats the one above it ("| Llama-70B | 1 |" over
        "|  | 8 |": the second row is Llama-70B too), up to a blank row or a new section."""
        hit = self._row_numbers_cache.get(id(row))
        if hit is None:
            carry = not getattr(table, "transposed", False)
            above: dict[int, tuple] = {}
            section = None
            for r in table.rows:
                if r.section != section or not any(clean(c.text) for c in r.cells):
                    above, section = {}, r.section
                got = self._row_numbers_cache[id(r)] = []
                for other in r.cells:
                    header = table.column_header(other.col)
                    col = cell_column(table, other.col, self.typer)
                    if col.kind == "setting" and col.field:
                        values = setting_values(col.field, header, other.text)
                    elif col.kind == "ident" and col.field in ("model", "engine", "dtype", "hardware",
                                                               "provider"):
                        values = self._ident_values(col.field, other.text)
                    else:
                        continue
                    if values:
                        got.append((other, values))
                        above[other.col] = (other, values)
                if carry:
                    filled = {c.col for c in r.cells if clean(c.text)}
                    got += [v for col, v in above.items() if col not in filled]
            hit = self._row_numbers_cache.get(id(row), [])
        return hit

    def _ident_values(self, field: str, text: str) -> dict:
        """What an identifier cell names: a model, engine or precision from the
        vocabulary (a model column's own text when the vocabulary has no such model),
        hardware with its count. Kept per (field, text): a result file's 10,000 rows name
        the same few models and GPUs (a copy is returned: callers may add to it)."""
        hit = self._ident_cache.get((field, text))
        if hit is None:
            hit = self._ident_cache[(field, text)] = self._ident_values_of(field, text)
        return dict(hit)

    def _ident_values_of(self, field: str, text: str) -> dict:
        t = clean(text)
        if not t:
            return {}
        if field == "hardware":
            names = find_names(t, self.v)
            hws = cond.hardware_mentions(t, names, 0, len(t))
            if hws:
                return {"hardware": hws[0]}
            # a device the vocabulary does not know ("N300", "T3K", "TPU v5e"): a hardware
            # column names it as a product code does (a word with a digit), unless the cell
            # names something else (a model, a precision, "TP8" in a "Config" column)
            if names or not DEVICE_CODE_RE.fullmatch(t) or NOT_DEVICE_RE.search(t):
                return {}
            return {"hardware": cond.Hardware(t, t, None, 0, len(t))}
        if field == "provider":
            # an API provider (a leaderboard's "Provider" column) is the serving stack the
            # row's figures were measured on: its engine, named as the cell names it
            names = [n.name for n in find_names(t, self.v) if n.kind == "engine"]
            return {"engine": names[0] if names else t} if len(t) <= 60 and not cell_number(t) else {}
        names = find_names(t, self.v)
        kind = {"model": "model", "engine": "engine", "dtype": "dtype"}[field]
        name = next((n.name for n in names if n.kind == kind), None)
        if name is None and field == "model" and len(t) <= 60 and not cell_number(t) and any(ch.isalpha() for ch in t):
            name = t
        if name is None:
            return {}
        return {field: self.v.canonical_model(name) if field == "model" else name}

    def _table_conditions(self, claim: Claim, c: Cand) -> None:
        table, row, cl = c.table
        header = table.column_header(cl.col)
        model, hw, engine, dtype = self._row_subject(table, row, header)
        stat, phase, out_kind, scope = self._column_facts(table, header)
        if stat is None and row.cells and row.cells[0] is not cl \
                and STAT_LABEL_RE.fullmatch(row.cells[0].text.strip()):
            # a statistic on the other axis: "| Time to first token (ms) | 13.68 |" under an
            # "avg" column, or a "p99" row beside metric columns; only a label that is just
            # a statistic ("Peak Memory Bandwidth" names a specification)
            stat = self.typer.statistic(row.cells[0].text)
            if stat == "peak":
                stat = None
        claim.statistic = stat
        claim.phase = phase if claim.family in ("latency", "token_throughput") else None
        if claim.family == "token_throughput" and not claim.token_kind:
            claim.token_kind = out_kind
        if claim.family == "tokens" and not claim.token_kind:
            # "Max output", "Max input": whose length the column holds
            claim.token_kind = out_kind or ("input" if IN_WORD_RE.search(header) else None)
        if scope and not c.explicit_scope and claim.family in ("token_throughput", "request_throughput", "money"):
            claim.scope = scope
        # the row is the figure's sentence: its other cells are its conditions
        claim.sentence_start, claim.sentence_end = row.start, row.end
        claim.sentence = self.text[row.start:row.end]
        count = None
        for other, values in self._row_numbers(table, row):
            if other is cl:
                continue
            for key, val in values.items():
                if key == "model":
                    model = val
                elif key == "engine":
                    engine = val
                elif key == "dtype":
                    dtype = val
                elif key == "hardware":
                    hw = val
                elif key == "hw_count":
                    count = val
                elif getattr(claim, key, None) is None:
                    setattr(claim, key, val)
        near, far = self._table_settings(table, row, cl)
        if count is None and (hw is None or hw.count in (None, 1)):
            count = near.get("hw_count")   # "Llama 70B, 8 GPUs" in the row's label
        if claim.family in SOLE_SUBJECT_FAMILIES:
            if model is None:
                model = self.sole_subject("model")
            if hw is None and count is None:
                hw = self.sole_subject("hardware")
        claim.model = model
        if hw is not None:
            claim.hardware, claim.accelerator, claim.hw_count = hw.text, hw.accelerator, hw.count
        if count is not None and claim.accelerator and claim.hw_count in (None, 1, count):
            claim.hw_count = count
            claim.hardware = f"{count} x {claim.accelerator}"
        elif count is not None and hw is None:
            claim.hw_count = count   # "#GPUs: 8" with no accelerator named anywhere
        claim.engine, claim.dtype = engine, dtype
        if claim.family in ("percent", "ratio") and claim.direction is None:
            # a "Change" cell's sign is its direction: "-7.3%" fell, "+12%" rose
            sign = SIGNED_CELL_RE.search(self.text, max(row.start, c.start - 3), c.start)
            if sign:
                claim.direction = "up" if sign.group(1) == "+" else "down"
        if claim.family in COMPARED:
            self._table_comparison(claim, table, row, cl)
        for key, val in near.items():
            if key != "hw_count" and getattr(claim, key) is None:
                setattr(claim, key, val)
        # the caption's or paragraph's "64 concurrent requests" is not the load of a row
        # whose own cells give its batch size: one load per row, one pair of lengths
        own = {k for k in far if any(getattr(claim, g) is not None for g in cond.SETTING_GROUPS[k])}
        for key, val in far.items():
            if key not in own:
                setattr(claim, key, val)
        if claim.parallelism is None:
            # a row's description ("EP2TP4 for better balance") states its layout
            claim.parallelism = cond.parallelism(self.text, row.start, row.end)
        if claim.family == "token_throughput" and claim.scope in (None, "unspecified") and (
                claim.concurrency == 1 or claim.batch_size == 1 or (claim.concurrency is None and claim.batch_size is None
                                           and self._one_at_a_time(claim.start))):
            claim.scope = "per_user"


    def _table_settings(self, table: Table, row, cl) -> tuple[dict, dict]:
        """``tables.settings_in_words`` of a cell, kept per row and column."""
        key = (id(row), cl.col)
        hit = self._settings_cache.get(key)
        if hit is None:
            hit = self._settings_cache[key] = settings_in_words(table, row, cl, self.typer, self._agreed_cache)
        return hit

    def _table_comparison(self, claim: Claim, table: Table, row, cl) -> None:
        """A ratio or percent cell's measured quantity, direction and baseline from its
        table (``tables.read_ratio_cell``). A name in the baseline is never the figure's own
        engine, hardware or model (a "Speedup vs vLLM" header names what it beat); the
        subject section or column the table compares, when it says, gives them instead."""
        pairs = claim.family == "ratio" or bool(self.typer.h["ratio"].search(table.column_header(cl.col)))
        rr = read_ratio_cell(table, row, cl, claim.value, claim.precision or 0.0, self.typer, pairs)
        claim.measures = claim.measures or rr.measures
        claim.direction = claim.direction or rr.direction
        claim.baseline = claim.baseline or rr.baseline
        if not claim.baseline:
            return
        base = self._names_of(claim.baseline)
        own = self._names_of(" ".join(clean(c.text) for c in row.cells if c is not cl))
        mine = {n.name for n in own}
        if claim.engine and claim.engine not in mine and any(n.kind == "engine" and n.name == claim.engine for n in base):
            claim.engine = None
        if claim.accelerator and claim.accelerator not in mine and any(
                n.kind in ("accelerator", "system") and claim.accelerator in n.name for n in base):
            claim.hardware = claim.accelerator = claim.hw_count = None
        if rr.subject:
            subj = self._names_of(rr.subject)
            hws = cond.hardware_mentions(rr.subject, subj, 0, len(rr.subject))
            if hws and not claim.accelerator:
                claim.hardware, claim.accelerator, claim.hw_count = hws[0].text, hws[0].accelerator, hws[0].count
            engine = next((n.name for n in subj if n.kind == "engine"), None)
            if engine and not claim.engine:
                claim.engine = engine


def extract_claims(doc: Document, vocab: Vocab | None = None) -> list[Claim]:
    """Every numeric performance claim in ``doc``, in text order."""
    if not doc.text:
        return []
    return run_extractor(_Extractor(doc, vocab or load()))


def run_extractor(ex: _Extractor) -> list[Claim]:
    """The claims of the document ``ex`` was made for (explain.py passes an extractor that
    records what it reads)."""
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
    # and a count of parameters below a million counts a method's or a function's
    # ("defined by two parameters"), no model is that small
    cands = [c for c in cands if not (c.family == "parameters" and c.value < notclaims.MIN_MODEL_PARAMS)]
    for c in cands:
        if c.family:
            s = ex.seg.sentence(c.start)[0]
            ex.figures_in[s] = ex.figures_in.get(s, 0) + 1
            ex.families_in.setdefault(s, set()).add(c.family)
    for c in sorted((c for c in cands if c.family), key=depth):
        try:
            claim = ex.build(c)
        except Exception:  # one odd figure must never lose the document's other claims
            continue
        if claim is None:
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
    if ex.offered or ex.lengths:
        # settings read as such are conditions of the sentence's figures
        for c in claims:
            if c.offered_load is None and c.sentence_start in ex.offered:
                c.offered_load = ex.offered[c.sentence_start]
            for which in ("isl", "osl"):
                v = ex.lengths.get((c.sentence_start, which))
                if v is not None and getattr(c, which) is None:
                    setattr(c, which, v)
    declared = declared_hypothetical(ex.text)
    for c in claims:
        # figures under "the numbers below are projections", to the end of that section
        if c.stance == "asserted" and any(a <= c.start < b for a, b in declared):
            c.stance = "hypothetical"
    neighbour_settings(ex.text, ex.seg, claims, ex.names_near, ex.headings)
    settings_from_table_mentions(claims)
    ex.carry_scope_forward(claims)
    ex.carry_scope(claims)
    ex.refine_families(claims)
    share_conditions(claims)
    share_baselines(ex.text, claims)
    own_qualifiers(ex.text, claims, ex.listed_names)
    share_list_comparison(ex.text, claims, ex.listed_names)
    share_list_subject(ex.text, claims)
    map_respectively(ex.text, claims, ex.listed_names)
    map_settings(ex.text, claims)
    share_change(ex.text, claims)
    out, seen = [], set()
    for c in claims:
        if (c.start, c.end) not in seen:
            seen.add((c.start, c.end))
            out.append(c)
    return out
