"""Subjects: which model and hardware a figure is about, and which names in its sentence
are baselines or belong to a neighbouring figure."""
from __future__ import annotations

import bisect
import re

from pipeline.extract import conditions as cond
from pipeline.extract.candidates import Cand
from pipeline.extract.masks import declared_names, find_names, Span
from pipeline.extract.patterns import BASELINE_RE, CAMEL_RE, FIRST_HEADING_RE, OWNS_FIGURE_RE, RIVAL_BEFORE_RE, SECTION_REACH, SOURCE_AFTER_RE

# a document names one engine in at least this many mentions, and this share of all, to be
# about it
DOMINANT_MIN = 5
DOMINANT_SHARE = 0.85
# ... counted in its opening stretch (a post names its engine early and often; a long
# paper's later pages would only cost time)
DOMINANT_REACH = 20_000
from pipeline.extract.tables import Table


# a comparative, then "than", between a figure and a name: the name is what it differs from
_DIFFERENCE_THAN_RE = re.compile(r"(?i)(?:[^.;:!?\n]|\.(?=\d)){0,40}?\b(?:more|less|fewer|higher|lower|greater|larger|"
                                 r"smaller|faster|slower|bigger|cheaper)\b(?:[^.;:!?\n]|\.(?=\d)){0,60}?\bthan\s+(?:the\s+|an?\s+)?$")


class SubjectFinder:
    """Finds the model and hardware a figure is about: its sentence, then its paragraph and
    section, then the title. A mixin of the claim builder."""

    # ------------------------------------------------------------------ subjects
    def _title_subject(self) -> dict:
        title = self.doc.title or ""
        head = FIRST_HEADING_RE.search(self.text[:3000])
        first_line = self.text[:300].split("\n", 1)[0]
        probe = " ".join(x for x in (title, head.group(1) if head else "", first_line) if x)
        sub_names = find_names(probe, self.v)
        model = next((n.name for n in sub_names if n.kind == "model"), None)
        hw = cond.hardware_mentions(probe, sub_names, 0, len(probe))
        # the engine a document is about: named in its title or opening, else by its
        # publisher or web address (a vendor's post about its own engine)
        engines = [n.name for n in sub_names if n.kind == "engine"]
        if not engines:
            owner = " ".join(x for x in (self.doc.publisher, self.doc.url) if x)
            engines = [n.name for n in find_names(owner, self.v) if n.kind == "engine"] if owner else []
        return {"model": self.v.canonical_model(model) if model else None, "hardware": hw[0] if hw else None,
                "engine": engines[0] if len(set(engines)) == 1 else None}

    def sole_subject(self, kind: str):
        """The one model (``kind`` "model") or hardware configuration ("hardware") a document
        names in its first ``DOMINANT_REACH`` characters, when it names exactly one: a
        write-up of one case study ("Llama-3.3-70B on 4 H100s") measures every figure on it,
        though the tables sections later name neither. Worked out on first use."""
        if self._sole is None:
            text = self.text[:DOMINANT_REACH]
            names = find_names(text, self.v)
            models = {self.v.canonical_model(n.name) for n in names if n.kind == "model"}
            hws = cond.hardware_mentions(text, names, 0, len(text))
            self._sole = {"model": next(iter(models)) if len(models) == 1 else None,
                          "hardware": hws[0] if len({(h.accelerator, h.count) for h in hws}) == 1 else None}
        return self._sole[kind]

    def doc_engine(self) -> str | None:
        """The engine the document is about: named in its title, opening, publisher or
        address, else the one it names throughout (worked out on first use: most
        documents never ask)."""
        if self._doc_engine is None:
            engine = self.title_subject["engine"]
            if engine is None:
                dominant = self._dominant_engine()
                engine = dominant[0] if dominant else None
            self._doc_engine = (engine,)
        return self._doc_engine[0]

    def _dominant_engine(self) -> list[str]:
        """The engine a document is about when its title does not say: the one it names in
        nearly every mention of its first ``DOMINANT_REACH`` characters (a post on
        deploying a model with one engine names it on every page; a comparison names its
        rivals too, and gets none)."""
        counts: dict[str, int] = {}
        for _, _, name in self.v.engines.finditer(self.text, 0, min(len(self.text), DOMINANT_REACH), self.fold):
            counts[name] = counts.get(name, 0) + 1
        total = sum(counts.values())
        if not counts:
            return []
        name, n = max(counts.items(), key=lambda kv: kv[1])
        return [name] if n >= DOMINANT_MIN and n >= DOMINANT_SHARE * total else []

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
        credited to SGLang" does not make SGLang the engine of 654,000; nor is the owner
        named right before the next figure this one's ("5.8 against TGI's 3.6")."""
        if c is None:
            return hits
        return [h for h in hits if (h[0] < c.next_start or h[1] <= c.start)
                and not (c.end <= h[0] and h[1] < c.next_start < len(self.text)
                         and OWNS_FIGURE_RE.match(self.text, h[1], c.next_start))]

    def _section_subject(self, p_start: int, kind: str):
        """The last model or hardware named earlier in the paragraph's section (back to its
        heading, at most a few paragraphs): "### Llama-8B on 1 x A100" is the subject of the
        figures under it, and slides repeat their subject in the bullet above."""
        i = bisect.bisect_right(self._heading_starts, p_start) - 1
        lo = max(self._heading_starts[i] if i >= 0 else 0, p_start - SECTION_REACH)
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
                hws = self._hardware_between(ps, self.seg.para_ends[j])
                if hws:
                    return hws[-1]
            j -= 1
        return None

    def _names_other_subject(self, s_start: int, s_end: int) -> bool:
        """Does the sentence name an engine or another product or source (CamelCase)?"""
        key = ("other", s_start, s_end)
        hit = self._names_in_cache.get(key)
        if hit is None:
            hit = self._names_in_cache[key] = bool(
                self._names_in("engine", s_start, s_end) or CAMEL_RE.search(self.text, s_start, s_end))
        return hit

    def _not_baseline(self, hits: list, c: "Cand | None") -> list:
        """For a ratio or percent, what follows "than", "over", "vs" is the baseline it is
        measured against, not its subject ("H200 is 1.9x faster than H100"); for any other
        figure, a name after "more/higher/… than" past it is what it is a difference from."""
        if c is None:
            return hits
        if c.family not in ("ratio", "percent"):
            # a difference: "64GB more HBM and 0.7TB/s higher bandwidth than MI300x" is the
            # subject's lead over MI300x (a comparative between the figure and "than")
            return [h for h in hits if not (h[0] >= c.after_unit and _DIFFERENCE_THAN_RE.match(
                self.text, c.after_unit, h[0]))]
        span = self._baselines.get(id(c))
        keep = [h for h in hits if not BASELINE_RE.search(self.text, max(0, h[0] - 24), h[0])
                and not (span is not None and span[0] <= h[0] < span[1])]
        return keep

    def _not_source(self, hits: list) -> list:
        """A model named as the owner of a paper, report or post ("Mixtral 8x22B activates
        39B parameters, DeepSeek-V2's paper shows") is where the figure is read, not whose
        figure it is, where the sentence names another model."""
        keep = [h for h in hits if not SOURCE_AFTER_RE.match(self.text, h[1])]
        return keep or hits

    def _not_rival(self, hits: list, floor: int, c: "Cand") -> list:
        """Names a figure's subject is set against or was built from ("outperformed both
        vLLM and SGLang, achieving ...", "based on our previous MiniMax-Text-01") are not
        its subject, unless the figure is the rival's own ("compared to TGI's 3.55"); where
        every name is one, none is."""
        return [h for h in hits if not RIVAL_BEFORE_RE.search(self.text, max(floor, h[0] - 80), h[0])
                or OWNS_FIGURE_RE.match(self.text, h[1], c.start)]

    def _model_in(self, start: int, end: int, pos: int, fig_end: int, c: "Cand | None" = None) -> str | None:
        hits = self._before_next(self._not_baseline(self._not_source(self._names_in("model", start, end)), c), c)
        hits = self._not_rival(hits, start, c) if c is not None else hits
        hit = cond.nearest(hits, pos, fig_end, self._own(c, start))
        return self.v.canonical_model(hit[2]) if hit else None

    def _hardware_between(self, start: int, end: int) -> list[cond.Hardware]:
        """Hardware named in ``text[start:end]`` (within one paragraph), read once per
        stretch: the figures of a sentence all ask about it."""
        key = ("hardware", start, end)
        hit = self._names_in_cache.get(key)
        if hit is None:
            hit = self._names_in_cache[key] = cond.hardware_mentions(self.text, self.names_near(start), start, end)
        return hit

    def _hardware_in(self, start: int, end: int, pos: int, fig_end: int, c: "Cand | None" = None) -> cond.Hardware | None:
        hws = self._hardware_between(start, end)
        # counts of hardware before the figure in its own clause win; then the nearest
        hits = self._before_next(self._not_baseline([(h.start, h.end, h) for h in hws], c), c)
        hit = cond.nearest(hits, pos, fig_end, self._own(c, start))
        return hit[2] if hit else None

    def _context_subject(self, table: Table) -> dict:
        """The model, hardware and engine the heading and paragraph before a table name,
        each only when they name just one ("We served Llama 3.1 8B with vLLM on one H100:")."""
        key = ("context", id(table))
        hit = self._row_cache.get(key)
        if hit is None:
            text = table.context or ""
            names = find_names(text, self.v) if text else []
            models = {self.v.canonical_model(n.name) for n in names if n.kind == "model"}
            engines = {n.name for n in names if n.kind == "engine"}
            hws = cond.hardware_mentions(text, names, 0, len(text)) if text else []
            hit = self._row_cache[key] = {
                "model": next(iter(models)) if len(models) == 1 else None,
                "engine": next(iter(engines)) if len(engines) == 1 else None,
                "hardware": hws[0] if len({h.accelerator for h in hws}) == 1 and len(hws) == 1 else None,
            }
        return hit

    def _table_section_model(self, table: Table):
        """The one model the nearest heading above a table names, looking back over its
        sibling headings up to its parent ("### Model: X" over "### Number of GPUs: 2"
        over the table); prose in those sections is not read (it names rivals too)."""
        key = ("section model", id(table))
        if key not in self._row_cache:
            self._row_cache[key] = self._heading_model(table.start)
        return self._row_cache[key]

    def _heading_model(self, pos: int):
        """Walking back from ``pos`` over the headings above it (siblings, then the
        parent): the one model a heading names, or the last one a section declares by key
        ("**Model:** [Qwen/Qwen3-0.6B](…)")."""
        i = bisect.bisect_right(self._heading_starts, pos) - 1
        if i < 0:
            return None
        level, end = self._heading_levels[i], pos
        while i >= 0:
            start = self._heading_starts[i]
            line_end = self.text.find("\n", start, end)
            line = self.text[start:line_end if line_end >= 0 else end]
            models = {self.v.canonical_model(n.name) for n in self._names_of(line) if n.kind == "model"}
            if len(models) == 1:
                return models.pop()
            said = [n for n in declared_names(self.text, start, end) if n.kind == "model"]
            if said:
                return self.v.canonical_model(said[-1].name)
            if models or self._heading_levels[i] < level:
                return None    # two models, or the parent section passed: none of them
            i, end = i - 1, start
        return None

    def _names_of(self, text: str) -> list[Span]:
        """``find_names`` of a short probe (a row, a header, a caption), kept per text: a
        row's cells ask about the same row text once per column."""
        hit = self._names_of_cache.get(text)
        if hit is None:
            hit = self._names_of_cache[text] = find_names(text, self.v)
        return hit

    def _has_engine_column(self, table: Table) -> bool:
        got = getattr(table, "_engine_col", None)
        if got is None:
            got = table._engine_col = any(  # type: ignore[attr-defined]
                (col := self.typer.column(h)).kind == "ident" and col.field == "engine" for h in table.header if h)
        return got

    def _row_subject(self, table: Table, row, header: str):
        """Model, hardware, engine and dtype for a row (with its section, the table's caption
        and the cell's column header), worked out once per row and column."""
        key = (id(row), header)
        hit = self._row_cache.get(key)
        if hit is not None:
            return hit
        v = self.v
        row_text = " | ".join(x.text for x in row.cells)
        # the row labels' own header ("| Decode path (vLLM, 4 x B300) | ... |") speaks for
        # every row
        lead = table.column_header(0) if header != table.column_header(0) else ""
        probe = " ".join(filter(None, [table.caption, lead, row.section or "", row_text, header]))
        names = self._names_of(probe)
        # the row's own model first ("| Qwen2.5 72B | ... |" under a caption naming another)
        model = next((n.name for n in self._names_of(row_text) if n.kind == "model"), None)
        model = model or next((n.name for n in names if n.kind == "model"), None)
        ctx = self._context_subject(table)
        # else the heading and paragraph before the table, then its section's (a "### Model:
        # X" heading over "### Number of GPUs: 2"), then the document's one model
        model = v.canonical_model(model) if model else (
            ctx["model"] or self._table_section_model(table) or self.title_subject["model"])
        # hardware: the most specific place that names one wins: the cell's column header
        # ("| H100 | MI300X |"), the row's section, the row itself, the caption, the
        # heading and paragraph before the table, the title
        hw = None
        for part in (header, row.section or "", row_text, lead, table.caption):
            if part:
                found = self._probe_hardware.get(part)
                if found is None:
                    found = self._probe_hardware[part] = cond.hardware_mentions(part, self._names_of(part), 0, len(part))
                if found:
                    hw = found[0]
                    break
        hw = hw or ctx["hardware"] or self.title_subject["hardware"]
        # engine: the cell's column header first ("| llama.cpp TTFT (ms) | SGLang TTFT (ms) |"),
        # then the row, then the caption and the rest
        engine = (next((n.name for n in self._names_of(header) if n.kind == "engine"), None) if header else None) \
            or next((n.name for n in self._names_of(row_text) if n.kind == "engine"), None) \
            or next((n.name for n in names if n.kind == "engine"), None)
        if engine is None and not self._has_engine_column(table):
            # a table whose rows name their software in a column of their own ("| Software |
            # TensorRT 10.11 |") says each row's engine there: no document's engine for it
            engine = ctx["engine"] or self.doc_engine()
        dtype = next((n.name for n in names if n.kind == "dtype"), None)
        hit = self._row_cache[key] = (model, hw, engine, dtype)
        return hit
