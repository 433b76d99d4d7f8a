"""Table semantics: what each column of a table holds, and which cell belongs to which.

Tables come from the one Table model (``pipeline.model``): the ingest readers set
``Document.tables`` (HTML from the DOM, PDF from the page layout); otherwise the text
readers (``pipeline.ingest.tables``: pipe and whitespace-aligned tables) read them here.

A column header says what its cells are (the words in ``vocab/table_headers.toml``),
tried in this order:

- ``quality``: accuracy and quality scores; never claims.
- ``ratio``: "Speedup", "TPS/User Speedup", "vs vLLM", "(x)": a ratio whatever it compares.
- a unit of a measured quantity wherever the header writes it: "(tok/s)", "[ms]",
  ", tokens/s", "Tokens/sec per user", in a second header row joined to the first.
- ``setting``: ISL/OSL, input/output length, batch, concurrency, QPS offered, TP/EP,
  #GPUs, and plain counts: conditions of the row's figures (or no claim at all).
- ``ident``: model, hardware, engine, precision, provider: whose figures the row holds.
- ``percent`` words, then family words with no unit ("Throughput", "TTFT").

A transposed table (metric names down the first column, systems or configurations as
column headers) is turned on its side once, so every reader below sees columns of one
quantity: its rows become the systems, with the column header cell as their label.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from pipeline.extract import comparison
from pipeline.extract import conditions as cond
from pipeline.extract.notclaims import TOTALLED_RE, written_as_measured
from pipeline.ingest.tables import clean, text_tables
from pipeline.model import Cell, Row, Table
from pipeline.vocab.loader import load_raw

__all__ = ["Cell", "Row", "Table", "clean", "find_tables", "TableIndex", "Column", "HeaderTyper",
           "prepare_tables", "setting_values", "STAT_LABEL_RE", "read_ratio_cell", "RatioReading",
           "settings_in_words"]

_NUM_RE = re.compile(r"(\d+(?:[.,]\d+)*)\s*([kK])?")
_MEASURED = ("token_throughput", "request_throughput", "latency", "memory", "bandwidth", "compute",
             "power", "money", "percent", "ratio")
_PAR_KIND_RE = re.compile(r"(?i)\b(TP|EP|PP|DP|tensor|expert|pipeline|data)\b")
_PAR_CELL_RE = re.compile(r"(?i)^(?:(?:TP|EP|PP|DP)\s*\d+\s*)+$")
_ISL_OSL_CELL_RE = re.compile(r"^\s*(\d[\d,.]*\s*[kK]?)\s*[/x×,:-]\s*(\d[\d,.]*\s*[kK]?)\s*$")
_GENERIC_FIRST_RE = re.compile(r"(?i)^\s*(?:metrics?|measure(?:ment)?s?|results?|quantity|kpi|item|)\s*$")
_DIGIT_RE = re.compile(r"\d")
_BENCH_CORNER_RE = re.compile(r"(?i)\b(?:benchmarks?|tasks?|datasets?|evals?|evaluations?)\b")
MAX_METRIC_LABEL = 60
# a label that is a statistic and nothing else: "avg", "P99", "Median (ms)", "p90 %"
STAT_LABEL_RE = re.compile(r"(?i)\W*(?:avg|ave|mean|average|median|p\d{1,2}(?:\.\d)?|\d{2}(?:th)?\s*%|"
                           r"\d{2}th\s+percentile|min(?:imum)?|max(?:imum)?|std)\W*(?:\([^)]{0,12}\))?\W*")
_PERCENTILE_RE = re.compile(r"(?<![\d.])(\d{2})(?:th)?\s*%")
_TOTAL_WORD_RE = re.compile(r"(?i)\b(?:aggregate|overall|system[- ]wide|cluster[- ]wide|sum)\b")


def find_tables(text: str) -> list[Table]:
    """The tables of a plain or Markdown text (pipe and whitespace-aligned)."""
    return text_tables(text)


@dataclass(frozen=True)
class Column:
    """What a column holds. ``kind``: figure | setting | ident | quality | label.
    ``field``: the Claim field a setting or identifier fills (None for plain counts);
    ``family``: a figure column's family when its header fixes one."""

    kind: str
    field: str | None = None
    family: str | None = None
    statistic: str | None = None
    phase: str | None = None
    token_kind: str | None = None
    scope: str | None = None


def _compile(pats: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in pats) or "(?!)", re.I)


@lru_cache(maxsize=2)
def _headers(extra: str | None) -> dict:
    raw = load_raw("table_headers", extra)
    out = {k: _compile(raw[k]["patterns"]) for k in ("quality", "ratio", "percent")}
    for group in ("measured", "settings", "identifiers", "families", "statistics", "phases"):
        out[group] = [(name, _compile(pats)) for name, pats in raw.get(group, {}).items()]
    return out


def headers_vocab() -> dict:
    import os

    return _headers(os.environ.get("CLAIMS_VOCAB"))


_KIND_WORDS = [(re.compile(r"(?i)\bout(?:put)?\b|\bgenerat(?:ed|ion)\b|\bdecode\b"), "output"),
               (re.compile(r"(?i)\btotal\b"), "total"),
               (re.compile(r"(?i)\bin(?:put)?\b|\bprompt\b|\bprefill\b"), "input")]


class HeaderTyper:
    """Types column headers (cached per header text) with the vocabulary and the unit
    reader: ``unit_of(header)`` is the extractor's header unit reader."""

    def __init__(self, vocab, unit_of):
        self.v = vocab
        self.h = headers_vocab()
        self.unit_of = unit_of
        # a header means the same in every document: typed once per vocabulary (kept on it)
        caches = vocab.__dict__.setdefault("_table_header_types", {})
        self._cache: dict[str, Column] = caches.setdefault(id(self.h), {})
        if len(self._cache) > 50_000:
            self._cache.clear()

    def column(self, header: str) -> Column:
        col = self._cache.get(header)
        if col is None:
            col = self._cache[header] = self._type(header)
        return col

    def _first(self, group: str, header: str) -> str | None:
        for name, pat in self.h[group]:
            if pat.search(header):
                return name
        return None

    def statistic(self, label: str) -> str | None:
        """The statistic a header or row label names ("avg", "p99", "Median"), whatever
        else the column holds."""
        return self._first("statistics", label) or self.v.statistics.first(label)

    def _facts(self, header: str, family: str | None, scope: str | None = None) -> dict:
        stat = self.statistic(header)
        if stat is None and family == "latency":
            pct = _PERCENTILE_RE.search(header)   # "75%(s)": the 75th percentile
            stat = f"p{pct.group(1)}" if pct else None
        phase = self._first("phases", header) or self.v.phases.first(header)
        kind = None
        if family in ("token_throughput", "tokens"):
            kind = next((k for pat, k in _KIND_WORDS if pat.search(header)), None)
        if scope is None and family in ("token_throughput", "request_throughput", "money"):
            found = [name for _, _, name in self.v.scope_context.finditer(header)]
            found = [s for s in found if s != "aggregate" or _TOTAL_WORD_RE.search(header)]
            scope = found[0] if found else None
        return {"statistic": stat, "phase": phase, "token_kind": kind, "scope": scope}

    def _type(self, header: str) -> Column:
        h = header.strip()
        if not h:
            return Column("label")
        if self.h["quality"].search(h):
            return Column("quality")
        if self.h["ratio"].search(h):
            # "% Improvement", "Gain (%)": a change written in percent is a percent
            fam = "percent" if "%" in h else "ratio"
            return Column("figure", family=fam, **self._facts(h, fam))
        hit = self.unit_of(h)
        # "QPS", "Request rate (req/s)": the load a benchmark offered, a setting; a measured
        # request throughput says so ("RPS", "Request throughput")
        if (hit is None or hit.entry.family == "request_throughput") and self._first("settings", h) == "offered_load":
            return Column("setting", field="offered_load")
        if hit is not None and hit.entry.family in _MEASURED:
            return Column("figure", family=hit.entry.family, **self._facts(h, hit.entry.family, hit.scope))
        fam = self._first("measured", h)
        if fam is not None:
            return Column("figure", family=fam, **self._facts(h, fam))
        setting = self._first("settings", h)
        if setting in ("isl", "osl") and TOTALLED_RE.search(h):
            setting = None   # "Total input tokens": what a run processed, not its length
        if setting is not None:
            return Column("setting", field=None if setting == "count" else setting)
        ident = self._first("identifiers", h)
        if ident is not None:
            return Column("ident" if ident != "label" else "label", field=ident)
        if self.h["percent"].search(h):
            return Column("figure", family="percent", **self._facts(h, "percent"))
        fam = self._first("families", h)
        if fam is None and hit is not None and hit.entry.family == "tokens":
            fam = "tokens"
        if fam is not None:
            return Column("figure", family=fam, **self._facts(h, fam))
        facts = self._facts(h, None)
        if facts["phase"] in ("ttft", "tpot", "e2e") or re.search(r"(?i)\blatency\b|\btime\b", h):
            return Column("figure", family="latency", **facts)
        return Column("label")


_MAGNITUDE_RE = re.compile(r"[(\[]\s*(B|billions?|M|millions?|T|trillions?|K|thousands?)\s*[)\]]", re.I)
_MAGNITUDE = {"b": 1e9, "m": 1e6, "t": 1e12, "k": 1e3}


def header_magnitude(header: str) -> float:
    """The scale a count column's header gives its bare cells: "Params (B)" -> 1e9."""
    m = _MAGNITUDE_RE.search(header)
    return _MAGNITUDE[m.group(1)[0].lower()] if m else 1.0


def number(text: str) -> float | None:
    """The one number a setting cell holds ("64", "1,024", "2k"), else None."""
    m = _NUM_RE.fullmatch(clean(text).strip("*~ "))
    if not m:
        return None
    try:
        val = float(m.group(1).replace(",", ""))
    except ValueError:
        return None
    return val * 1000 if m.group(2) else val


# settings that count things, and a number written with a fraction ("853.40", not "1.5k")
_COUNT_FIELDS = frozenset({"isl_osl", "isl", "osl", "concurrency", "batch_size", "hw_count"})
_FRACTION_RE = re.compile(r"\d\.\d+\s*$")

# tensor, pipeline and data parallel degrees past a rack's GPUs are some other number
MAX_PARALLEL_DEGREE = 72


@lru_cache(maxsize=1)
def _scenarios() -> dict[str, str]:
    return {n.lower(): n for n in load_raw("table_headers").get("scenarios", {}).get("names", [])}


# the thing a setting cell counts, written after its number ("128 tokens", "64 users")
_SETTING_UNIT_RE = re.compile(r"(?i)(?<=[\dkK])\s*(?:tokens?|toks?|users?|requests?|reqs?|GPUs?|seqs?|sequences?|prompts?)\s*$")


def setting_values(field: str, header: str, text: str) -> dict:
    """The Claim fields a setting cell fills: {"concurrency": 64.0}, {"isl": 1024.0,
    "osl": 128.0} from "1024/128", {"parallelism": "TP8"}."""
    t = _SETTING_UNIT_RE.sub("", clean(text))   # "128 tokens", "64 users": the count
    if field in _COUNT_FIELDS and _FRACTION_RE.search(t):
        # a count set for a run is whole: "Concurrency: 1418.05" or an output length of
        # "1,025.00" is what a tool measured (a mean, a percentile), not a setting
        return {}
    if field == "isl_osl":
        m = _ISL_OSL_CELL_RE.match(t)
        if m:
            a, b = number(m.group(1)), number(m.group(2))
            if a is not None and b is not None:
                return {"isl": a, "osl": b}
        return {}
    if field == "parallelism":
        if _PAR_CELL_RE.match(t):
            return {"parallelism": re.sub(r"\s+", "", t).upper()}
        n = number(t)
        if n is None:
            return {}
        kind = _PAR_KIND_RE.search(header)
        word = (kind.group(1).upper() if kind else "TP")
        word = {"TENSOR": "TP", "EXPERT": "EP", "PIPELINE": "PP", "DATA": "DP"}.get(word, word)
        if word != "EP" and n > MAX_PARALLEL_DEGREE:
            return {}   # "PP 512" in llama.cpp's tables is a prompt length, not a degree
        return {"parallelism": f"{word}{int(n)}"}
    if field == "workload":
        name = _scenarios().get(t.lower())
        return {"workload": f"MLPerf {name}"} if name else {}
    n = number(t)
    if n is None:
        return {}
    if field == "hw_count":
        return {"hw_count": int(n)} if n.is_integer() else {}
    return {field: n}


# ---------------------------------------------------------------------- layout
def _label_col(t: Table) -> int:
    """The column of row labels: the first, unless it is blank throughout (a leading
    empty column, "| | Benchmark | ... |")."""
    if t.column_header(0).strip():
        return 0
    filled = sum(1 for r in t.rows for c in r.cells if c.col == 0 and clean(c.text))
    return 1 if filled * 2 < len(t.rows) else 0


def _transpose(t: Table) -> Table:
    """``t`` on its side: each column after the row labels becomes a row labelled by its
    header cell; each row label becomes a column header."""
    lab = _label_col(t)
    ncols = max([len(t.header)] + [c.col + 1 for r in t.rows for c in r.cells])
    labels = {}
    for r in t.rows:
        # a label a console tool wrapped over two lines is two cells of its column
        labels[id(r)] = " ".join(x for x in (clean(c.text) for c in r.cells if c.col == lab) if x)
    header = [t.column_header(lab)] + [labels[id(r)] for r in t.rows]
    head_cells: dict[int, list[Cell]] = {}
    for hr in t.header_rows:
        for c in hr.cells:
            head_cells.setdefault(c.col, []).append(c)
    by_col: dict[int, list[Cell]] = {}
    for i, r in enumerate(t.rows, start=1):
        for c in r.cells:
            by_col.setdefault(c.col, []).append(Cell(c.start, c.end, i, c.text, c.page))
    rows = []
    for j in range(lab + 1, ncols):
        cells = [Cell(c.start, c.end, 0, c.text, c.page) for c in head_cells.get(j, [])[-1:]]
        cells += by_col.get(j, [])
        if len(cells) > 1 or (cells and cells[0].col != 0):
            rows.append(Row(min(c.start for c in cells), max(c.end for c in cells), cells))
    out = Table(start=t.start, end=t.end, header=header, rows=rows, caption=t.caption,
                header_rows=[], context=t.context, source=t.source, page=t.page)
    out.transposed = True  # type: ignore[attr-defined]
    # rows named by benchmarks ("Benchmark (Metric)" over "MMLU (EM)") are quality scores
    out.benchmark_rows = bool(_BENCH_CORNER_RE.search(t.column_header(lab)))  # type: ignore[attr-defined]
    out.column_labels = {j: t.column_header(j) for j in range(ncols)}  # type: ignore[attr-defined]
    return out


def is_transposed(t: Table, typer: HeaderTyper) -> bool:
    """Metric names down the first column, and no column header naming a quantity."""
    lab = _label_col(t)
    corner = t.column_header(lab)
    if not t.rows or len(t.header) < lab + 2 or not _GENERIC_FIRST_RE.match(corner) and typer.column(corner).kind != "label":
        return False
    firsts = [clean(c.text) for r in t.rows for c in r.cells if c.col == lab]
    # column headers name systems or configurations ("vLLM", "Run A", "Batch 64"), no
    # quantity; unless the corner says "Metric" and the row labels carry units ("Token
    # Throughput (tokens/sec)"), which outweighs a word in a configuration's name ("Low
    # Latency GEMM ON")
    units_down = _GENERIC_FIRST_RE.match(corner) and \
        sum(1 for x in firsts if x and typer.unit_of(x) is not None) >= 2
    if not units_down and any(typer.column(h).kind in ("figure", "quality") for h in t.header[lab + 1:] if h):
        return False
    # metric names are short, and the cells beside them mostly figures
    if sum(1 for x in firsts if len(x) > MAX_METRIC_LABEL) * 2 > len(firsts):
        return False
    values = [c.text for r in t.rows for c in r.cells if c.col > lab and c.text.strip()]
    if sum(1 for x in values if _DIGIT_RE.search(x)) * 2 < len(values):
        return False
    typed = [typer.column(x).kind for x in firsts if x and len(x) <= MAX_METRIC_LABEL]
    figures = sum(1 for k in typed if k in ("figure", "quality"))
    # columns that are all statistics ("avg | min | max | p99"): metrics down the side,
    # however few
    heads = [h for h in t.header[lab + 1:] if h.strip()]
    if heads and figures and all(STAT_LABEL_RE.fullmatch(h) for h in heads):
        return figures * 2 >= len(t.rows)
    return figures >= 2 and figures * 2 >= len(t.rows)


_CAPTION_UNIT_RE = re.compile(r"(?i)\b(?:units?\s*[:=]?|(?:are\s+)?in)\s+([A-Za-z%µ$][\w%/$.-]*(?:\s+per\s+\w+)?)"
                              # "we measure the token generation throughput (tokens/s)"
                              r"|\b(?:throughputs?|latenc(?:y|ies)|speeds?|TTFT|TPOT|ITL)\s*\(\s*"
                              r"([A-Za-z%µ$][\w%/$.-]*(?:\s+per\s+\w+)?)\s*\)")


def caption_unit(caption: str, unit_of):
    """The unit a caption or a "Unit: ..." line gives every cell ("Unit: ms", "TTFT in
    ms", "all figures in tok/s"), read as a header unit; None if it gives none."""
    for m in _CAPTION_UNIT_RE.finditer(caption):
        hit = unit_of(f"({m.group(1) or m.group(2)})")
        if hit is not None:
            return hit
    return None


_RATE_LABEL_RE = re.compile(r"(?i)^\s*(?:RPS|QPS|request\s+rate|rate)\s*(?:\([^)]*\))?\s*$")


def _load_columns(table: Table, typer: HeaderTyper) -> frozenset[int]:
    """Columns of a bare rate label ("RPS", "QPS") in a table that measures something else
    in other columns (latencies, a request or token throughput): the rate is the load each
    run was given, the sweep's setting, not a result."""
    got = getattr(table, "_load_cols", None)
    if got is None:
        heads = [table.column_header(j) for j in range(len(table.header))]
        rates = [j for j, h in enumerate(heads) if _RATE_LABEL_RE.match(h)
                 and not written_as_measured([c.text for r in table.rows for c in r.cells if c.col == j])]
        measured = any(j not in rates and typer.column(h).kind == "figure" for j, h in enumerate(heads))
        got = frozenset(rates if measured else ())
        table._load_cols = got  # type: ignore[attr-defined]
    return got


def cell_column(table: Table, col: int, typer: HeaderTyper, row: Row | None = None) -> Column:
    """What the cells of column ``col`` of ``table`` are. In a transposed table whose
    rows are benchmarks, a row without a measured unit is a quality score; a row that was a
    ratio or percent column ("% Improvement" beside "Tuned FP16" and "Tuned FP8") holds
    ratios or percents whatever quantity its cells compare."""
    c = typer.column(table.column_header(col))
    if c.family == "request_throughput" and col in _load_columns(table, typer):
        return Column("setting", field="offered_load")
    if row is not None and getattr(table, "transposed", False) and row.cells and row.cells[0].col == 0:
        r = typer.column(clean(row.cells[0].text))
        if r.kind == "figure" and r.family in ("percent", "ratio"):
            return r
    if getattr(table, "benchmark_rows", False) and col > 0 and c.kind in ("label", "figure") \
            and c.family in (None, "percent", "ratio") and typer.unit_of(table.column_header(col)) is None:
        return Column("quality")
    return c


def prepare_tables(tables: list[Table], typer: HeaderTyper) -> list[Table]:
    """The tables as the extractor reads them: a header's unit stated in the prose above
    written into it (``units_from_prose``), columns of two figures a cell ("58.5 / 61.3"
    under "Speed (w/wo FA2)") split in two (``split_pair_columns``), transposed tables
    turned on their side."""
    out = []
    for t in tables:
        t = split_pair_columns(units_in_cells(units_from_prose(t, typer), typer), typer)
        out.append(_transpose(t) if is_transposed(t, typer) else t)
    return out


# ---------------------------------------------------------------------- units in the prose
# "the inference speed (tokens/s)", "memory footprint (GB)": a few words, then a bracket
_PROSE_UNIT_RE = re.compile(r"((?:[A-Za-z][\w-]*[ \t]+){0,2}[A-Za-z][\w-]*)[ \t]*\(([^()\n]{1,20})\)")
_HEADER_WORD_RE = re.compile(r"[A-Za-z]{3,}")
_BRACKETS_RE = re.compile(r"\s*[(\[][^)\]]*[)\]]")


_FUNCTION_WORDS = frozenset("the and for with without per from our its all are was were this that than each "
                            "over into onto their which when".split())


def _words(text: str) -> set[str]:
    """The content words of a header or a phrase, lower case and singular ("Speeds" ->
    "speed"), for telling whether a phrase names a header's quantity."""
    out = set()
    for w in _HEADER_WORD_RE.findall(text):
        w = w.lower()
        if w not in _FUNCTION_WORDS:
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def units_from_prose(table: Table, typer: HeaderTyper) -> Table:
    """``table`` with the unit the prose of its section pairs with a header's word written
    into that header, for headers that write none: "we report the inference speed
    (tokens/s) as well as memory footprint (GB)" above columns "Speed" and "Memory" makes
    them "Speed (tokens/s)" and "Memory (GB)". The bracket must be a unit of a measured
    quantity, of the family the header already names if it names one; the pairing
    nearest the table wins. Setting, identifier and quality columns are left alone."""
    if not table.prose or "(" not in table.prose:
        return table
    pairs = []
    for m in _PROSE_UNIT_RE.finditer(table.prose):
        hit = typer.unit_of(f"({m.group(2).strip()})")
        if hit is not None and hit.entry.family in _MEASURED:
            pairs.append((_words(m.group(1)), m.group(2).strip(), hit))
    if not pairs:
        return table
    header = list(table.header)
    lab = _label_col(table)
    for j, h in enumerate(header):
        if not h or typer.unit_of(h) is not None:
            continue
        col = typer.column(h)
        if col.kind not in ("label", "figure") or j == lab:
            continue
        words = _words(_BRACKETS_RE.sub(" ", h))
        for names, unit, hit in reversed(pairs):
            if words & names and (col.family is None or col.family == hit.entry.family):
                header[j] = f"{h} ({unit})"
                break
    if header == table.header:
        return table
    return replace(table, header=header)


_UNIT_CELL_RE = re.compile(r"^\s*[~<>]?\d[\d,]*(?:\.\d+)?\s*([A-Za-z][A-Za-z/]{1,11})\s*$")


def units_in_cells(table: Table, typer: HeaderTyper) -> Table:
    """``table`` with a column whose header reads as the model's ("Model size") but whose
    every cell writes one unit of a measured quantity ("110MB", "374MB") typed by that
    unit: "Model size (MB)" holds figures, not the row's model. A one-letter magnitude
    ("7B", "70B") is a model's size in parameters, no unit, and leaves the column as it
    is. (In other columns a cell's own unit makes it a figure already.)"""
    header = list(table.header)
    lab = _label_col(table)
    for j, h in enumerate(header):
        if not h or j == lab or typer.unit_of(h) is not None:
            continue
        col = typer.column(h)
        if col.kind != "ident" or col.field != "model":
            continue   # elsewhere a cell's own unit makes it a figure already
        texts = [clean(c.text) for r in table.rows for c in r.cells if c.col == j]
        texts = [x for x in texts if not _BLANK_CELL_RE.match(x)]
        units = {m.group(1) if m else None for m in map(_UNIT_CELL_RE.match, texts)}
        if len(texts) < 2 or len(units) != 1 or None in units:
            continue
        unit = units.pop()
        hit = typer.unit_of(f"({unit})")
        if hit is not None and hit.entry.family in _MEASURED and hit.entry.family not in ("ratio", "percent"):
            header[j] = f"{h} ({unit})"
    return table if header == table.header else replace(table, header=header)


# ---------------------------------------------------------------------- two figures a cell
_PAIR_CELL_RE = re.compile(r"^\s*([~<>]?\d[\d,]*(?:\.\d+)?)\s*/\s*([~<>]?\d[\d,]*(?:\.\d+)?)\s*$")
# "w/wo FA2", "with/without FA2", "w/ and w/o FA2": the two figures are with and without it
_WITH_WITHOUT_RE = re.compile(r"(?i)\b(?:w|with)\s*/?\s*(?:and\s+|/\s*)?(?:w/o|wo|without)\b\.?\s*([^()\[\]/,]*)")
_BLANK_CELL_RE = re.compile(r"^\W*(?:n/?a|oom|tbd)?\W*$", re.I)
_TWO_LETTERS_RE = re.compile(r"[A-Za-z]{2}")
MIN_PAIR_SHARE = 0.8   # of a column's cells with a number, how many hold two for a split


def pair_headers(header: str, typer: HeaderTyper) -> tuple[str, str] | None:
    """The headers of the two figures of a "A / B" column: "Speed (w/wo FA2)" ->
    ("Speed (with FA2)", "Speed (without FA2)"); "TTFT / TPOT (ms)" -> ("TTFT (ms)",
    "TPOT (ms)"). None when the header does not say which is which (its only slash is a
    unit's: "Throughput (tok/s)")."""
    m = _WITH_WITHOUT_RE.search(header)
    if m:
        what = m.group(1).strip()
        if what:
            a, b = header[:m.start()], header[m.end():]
            return f"{a}with {what}{b}", f"{a}without {what}{b}"
        return None
    units = "".join(x.group(0) for x in _BRACKETS_RE.finditer(header))
    core = _BRACKETS_RE.sub("", header).strip()
    parts = [p.strip() for p in core.split("/")]
    if len(parts) != 2 or not all(_TWO_LETTERS_RE.search(p) for p in parts):
        return None
    if any(typer.unit_of(f"({p})") is not None for p in parts) or typer.unit_of(core) is not None:
        return None   # "tokens/s", "TPS/User": one quantity's unit
    return f"{parts[0]}{units}", f"{parts[1]}{units}"


def split_pair_columns(table: Table, typer: HeaderTyper) -> Table:
    """``table`` with each column whose cells hold two figures ("58.54 / 61.34") under a
    header that says which is which (``pair_headers``) split into two columns, each cell
    into two cells with their own spans. A cell of that column with one figure is left
    in no named column (which of the two it is, the table does not say); "-" stays."""
    ncols = len(table.header)
    splits: dict[int, tuple[str, str]] = {}
    for j in range(ncols):
        h = table.header[j]
        if "/" not in h or typer.column(h).kind in ("setting", "ident", "quality"):
            continue
        texts = [clean(c.text) for r in table.rows for c in r.cells if c.col == j]
        numeric = [x for x in texts if not _BLANK_CELL_RE.match(x)]
        pairs = sum(1 for x in numeric if _PAIR_CELL_RE.match(x))
        if pairs >= 2 and pairs >= MIN_PAIR_SHARE * len(numeric):
            heads = pair_headers(h, typer)
            if heads:
                splits[j] = heads
    if not splits:
        return table
    shift = {j: j + sum(1 for k in splits if k < j) for j in range(ncols + 1)}
    header: list[str] = []
    for j in range(ncols):
        header += list(splits[j]) if j in splits else [table.header[j]]
    spare = len(header)   # a column with no header: cells no reader takes as figures

    def moved(c: Cell) -> list[Cell]:
        j = c.col
        if j not in splits:
            return [replace(c, col=shift.get(j, j + len(splits)))]
        m = _PAIR_CELL_RE.match(c.text)
        if m:
            return [Cell(c.start + m.start(1), c.start + m.end(1), shift[j], m.group(1), c.page),
                    Cell(c.start + m.start(2), c.start + m.end(2), shift[j] + 1, m.group(2), c.page)]
        return [replace(c, col=shift[j] if _BLANK_CELL_RE.match(clean(c.text)) else spare)]

    rows = [replace(r, cells=[x for c in r.cells for x in moved(c)]) for r in table.rows]
    header_rows = [replace(r, cells=[replace(c, col=shift.get(c.col, c.col + len(splits))) for c in r.cells])
                   for r in table.header_rows]
    return replace(table, header=header, rows=rows, header_rows=header_rows)


class TableIndex:
    """Find the table cell holding an offset in O(log n)."""

    def __init__(self, tables: list[Table]):
        self.cells: list[tuple[int, int, Table, Row, Cell]] = []
        for t in tables:
            for r in t.rows:
                for c in r.cells:
                    self.cells.append((c.start, c.end, t, r, c))
        self.cells.sort(key=lambda x: x[0])
        self.starts = [c[0] for c in self.cells]
        self.tables = sorted(tables, key=lambda t: t.start)
        self.table_starts = [t.start for t in self.tables]

    def at(self, pos: int) -> tuple[Table, Row, Cell] | None:
        i = bisect.bisect_right(self.starts, pos) - 1
        if i >= 0 and self.cells[i][0] <= pos < self.cells[i][1]:
            _, _, t, r, c = self.cells[i]
            return t, r, c
        return None

    def in_header(self, pos: int) -> Table | None:
        i = bisect.bisect_right(self.table_starts, pos) - 1
        if i >= 0:
            t = self.tables[i]
            if t.start <= pos and (not t.rows or pos < t.rows[0].start) and pos < t.end:
                return t
        return None


# ---------------------------------------------------------------------- ratio columns
# what a ratio of a column's quantity measures (the names comparison.py gives prose)
FAMILY_MEASURES = {"token_throughput": "throughput", "request_throughput": "throughput",
                   "latency": "latency", "money": "cost", "memory": "memory", "power": "energy"}
# quantities where less is better: a speedup of them is the baseline's over the subject's
_LOWER_BETTER = frozenset({"latency", "cost", "memory", "energy"})
_ONE_RE = re.compile(r"^\W*1(?:\.0+)?\s*[x×]?\W*$")
_RATIO_CELL_RE = re.compile(r"\d\s*[x×]\W*$|%")
_CELL_NUM_RE = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?![\d.,])\s*([kKmM](?![A-Za-z]))?")
_UNIT_BRACKET_RE = re.compile(r"\s*[(\[][^)\]]*[)\]]")
_COMPARED_WITH = r"(?:v\.?s\.?|versus|over|relative\s+to|compared\s+(?:to|with)|against|than)"
_BASELINE_IN_HEADER_RE = re.compile(rf"(?i)(?<![\w.]){_COMPARED_WITH}\s+")
# "speedup over X" in a caption or the paragraph before the table: what its ratios compare
_RATIO_WORD_RE = re.compile(r"(?i)\b(?:speed-?ups?|improvements?|gains?|faster|slower|reductions?)\b")
_BASELINE_IN_CAPTION_RE = re.compile(rf"(?i)\b(?:speed-?ups?|improvements?|gains?|faster|slower|higher|lower|"
                                     rf"ratios?)\W{{0,3}}\s+{_COMPARED_WITH}\s+")
CAPTION_WORDS_REACH = 30     # characters either side of a caption's "speedup" that say of what
# pairs of rows are tried for a ratio only in tables of at most this many rows (a results
# file's 10,000 rows would make it cubic); the 1.00 row and the row's own pairs always are
MAX_PAIRED_ROWS = 64


@dataclass(frozen=True)
class RatioReading:
    """What a ratio or percent cell compares, read from its table: the quantity it is a
    ratio of (``measures``), which way it goes and its baseline (the phrase as written);
    ``subject`` is the section or column the figure is of, when the table says (the
    "H100" section over an "A100" section beside a "Speedup" section)."""

    measures: str | None = None
    direction: str | None = None
    baseline: str | None = None
    subject: str | None = None


def cell_value(text: str) -> tuple[float, float] | None:
    """(value, precision) of the first number in a cell ("3,018", "45.2 tok/s", "1.12x")."""
    m = _CELL_NUM_RE.search(clean(text))
    if not m:
        return None
    raw = m.group(1).replace(",", "")
    try:
        val = float(raw)
    except ValueError:
        return None
    prec = 0.5 * 10 ** -(len(raw.split(".")[1]) if "." in raw else 0)
    if m.group(2):
        mult = 1e3 if m.group(2) in "kK" else 1e6
        val, prec = val * mult, prec * mult
    return val, prec


def _quotient_is(r: float, prec: float, a: float, b: float) -> bool:
    """Does a / b round to the ratio r as written (within half its last written digit)?
    A coincidence is unlikely: the pair must also be of one quantity in one row."""
    return b > 0 and a > 0 and abs(a / b - r) <= prec * 1.01


def _label_of(table: Table, row: Row, lab: int) -> str:
    return " ".join(x for x in (clean(c.text) for c in row.cells if c.col == lab) if x)


def _strip_measure(header: str) -> str:
    """A column header without its unit and the words naming its quantity ("Throughput w/o
    XQA (tok/s/GPU)" -> "w/o XQA"): what tells the column apart from its neighbour."""
    h = _UNIT_BRACKET_RE.sub("", header)
    for rx in comparison.quantity_words():
        h = rx.sub(" ", h)
    return " ".join(h.replace("**", " ").split()).strip(" ,;:-/|")


def _differing(a: Row, b: Row, keep) -> str:
    """The label and identifier cells of row ``b`` whose text differs from row ``a``'s in
    the same column: what the two runs differ in ("vLLM" where "SGLang" stood)."""
    mine = {c.col: clean(c.text) for c in a.cells}
    parts = [clean(c.text) for c in b.cells if keep(c.col) and clean(c.text) and clean(c.text) != mine.get(c.col)]
    return ", ".join(dict.fromkeys(parts))


def _dividing(value: float, precision: float, measures: str,
              figures: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(measures, direction, baseline, subject) for each pair of named figures of one
    quantity whose quotient is the ratio as written: for a rate the denominator is the
    baseline and the ratio goes up; for a time (cost, memory) the longer one is the
    baseline and it goes down."""
    out = []
    for s1, a in figures.items():
        for s2, b in figures.items():
            if s1 != s2 and _quotient_is(value, precision, a, b):
                out.append((measures, "down", s1, s2) if measures in _LOWER_BETTER
                           else (measures, "up", s2, s1))
    return out


def _one_rows(table: Table, col: int, section: str | None) -> list[Row]:
    """The rows of ``section`` whose cell in ``col`` is a 1.00 baseline, found once per
    table, column and section."""
    cache = table.__dict__.setdefault("_one_rows", {})
    key = (col, section)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = [r for r in table.rows if r.section == section
                            and any(c.col == col and _ONE_RE.match(clean(c.text)) for c in r.cells)]
    return hit


def read_ratio_cell(table: Table, row: Row, cell: Cell, value: float, precision: float,
                    typer: HeaderTyper, pairs: bool = True) -> RatioReading:
    """What a ratio or percent cell of a table compares (docs/tables.md, "Ratio columns").

    In order: the words of its header, row label and section ("TPS/User Speedup",
    "Speedup vs vLLM", a "Speedup" section under "Throughput (out tok/s)"); the column
    holding the 1.00 baseline cell, whose row is the baseline; arithmetic on the row (two
    figures of one quantity whose quotient is the ratio as written: the denominator's
    column is the baseline); the caption ("speedup over TGI"); and, for the quantity, the
    one quantity the table's other figure columns measure."""
    header = table.column_header(cell.col)
    col = typer.column(header)
    label_col = _label_col(table) if not getattr(table, "transposed", False) else 0
    row_label = _label_of(table, row, label_col) if cell.col != label_col else ""
    own_words = " ".join(filter(None, [header, row_label if getattr(table, "transposed", False) else "",
                                       row.section or ""]))
    spec, generic = comparison.quantity_named(own_words)
    # a ratio cell under a column of some quantity ("3.0x" in a Speedup section under
    # "Throughput (out tok/s)") is a ratio of that quantity
    col_measures = FAMILY_MEASURES.get(col.family or "") if col.kind == "figure" else None
    measures = spec or col_measures
    direction, speed_word = comparison.direction_named(own_words)
    baseline = subject = None
    # "Speedup vs vLLM" over the column, or "SGLang vs vLLM" down the side of a table read
    # on its side
    for words in (header, row_label if getattr(table, "transposed", False) else ""):
        m = _BASELINE_IN_HEADER_RE.search(words)
        if m:
            baseline = comparison.phrase_after(words, m.end())
            break

    def figure_cols(r: Row) -> dict[int, tuple[str, float]]:
        """column -> (measured quantity, value) of the row's figures other than ratios"""
        out = {}
        for c in r.cells:
            if c.col == cell.col or c.col == label_col:
                continue
            cc = cell_column(table, c.col, typer, r)
            q = FAMILY_MEASURES.get(cc.family or "") if cc.kind == "figure" else None
            v = cell_value(c.text) if q else None
            if q and v:
                out[c.col] = (q, v[0])
        return out

    found: list[tuple[str, str | None, str | None, str | None]] = []   # (measures, dir, baseline, subject)
    # 1. the 1.00 cell of the same column (same section) marks the baseline row
    if pairs and baseline is None and value != 1:
        ones = [r for r in _one_rows(table, cell.col, row.section) if r is not row]
        if len(ones) == 1:
            base = ones[0]
            ident = lambda j: j == label_col or typer.column(table.column_header(j)).kind in ("ident", "label")  # noqa: E731
            baseline = _differing(row, base, ident) or _label_of(table, base, label_col) or None
            mine, theirs = figure_cols(row), figure_cols(base)
            for j, (q, a) in mine.items():
                if j in theirs and theirs[j][0] == q:
                    b = theirs[j][1]
                    if q in _LOWER_BETTER and _quotient_is(value, precision, b, a):
                        found.append((q, "down", None, None))
                    elif q not in _LOWER_BETTER and _quotient_is(value, precision, a, b):
                        found.append((q, "up", None, None))
    # 2. two figures of the row whose quotient is the ratio: the columns compared
    if pairs and baseline is None and not found:
        figs = figure_cols(row)
        for i, (qi, a) in figs.items():
            for j, (qj, b) in figs.items():
                if i != j and qi == qj and _quotient_is(value, precision, a, b):
                    if qi in _LOWER_BETTER:   # a speedup of a time: the slower one is the baseline
                        found.append((qi, "down", _strip_measure(table.column_header(i)) or None,
                                      _strip_measure(table.column_header(j)) or None))
                    else:
                        found.append((qi, "up", _strip_measure(table.column_header(j)) or None,
                                      _strip_measure(table.column_header(i)) or None))
    # 3. a section of ratios ("Speedup") under sections of the figures it divides
    small = len(table.rows) <= MAX_PAIRED_ROWS
    if pairs and small and baseline is None and not found and col_measures and row.section:
        key = {c.col: clean(c.text) for c in row.cells if c.col != cell.col and not cell_value(c.text)}
        by_section: dict[str, float] = {}
        for r in table.rows:
            if r.section in (None, row.section) or r is row:
                continue
            other = {c.col: clean(c.text) for c in r.cells if c.col != cell.col and not cell_value(c.text)}
            if other == key:
                v = next((cell_value(c.text) for c in r.cells if c.col == cell.col), None)
                if v:
                    by_section.setdefault(r.section, v[0])
        found += _dividing(value, precision, col_measures, by_section)
    # 4. rows of the same column whose figures divide to it ("vLLM" and "SGLang" rows
    # over a "Speedup" row, or a table read on its side)
    if pairs and small and not found and col_measures:
        by_row: dict[str, float] = {}
        for r in table.rows:
            if r is row or r.section != row.section:
                continue
            c = next((c for c in r.cells if c.col == cell.col), None)
            v = cell_value(c.text) if c is not None and not _RATIO_CELL_RE.search(c.text) else None
            name = _label_of(table, r, label_col)
            if v and name and name not in by_row:
                by_row[name] = v[0]
        found += _dividing(value, precision, col_measures, by_row)
        if baseline is not None:
            found = [f for f in found if f[2] == baseline]
    if len({f[0] for f in found}) == 1 and len({f[2:] for f in found}) == 1:
        q, dd, b, s = found[0]
        measures = measures or q
        if direction is None or speed_word:
            direction = dd
        baseline, subject = baseline or b, s
    if measures is None:
        # the one quantity the table's other figure columns measure
        qs = {FAMILY_MEASURES.get(cc.family or "") for j in range(len(table.header)) if j != cell.col
              for cc in [typer.column(table.column_header(j))] if cc.kind == "figure" and cc.family not in ("ratio", "percent")}
        qs.discard(None)
        spec2 = None
        for rm in _RATIO_WORD_RE.finditer(table.caption or ""):
            near = table.caption[max(0, rm.start() - CAPTION_WORDS_REACH):rm.end() + CAPTION_WORDS_REACH]
            spec2 = spec2 or comparison.quantity_named(near)[0]
        measures = spec2 or (qs.pop() if len(qs) == 1 and pairs else None) or generic
    if speed_word and measures in _LOWER_BETTER and not found:
        # a "speedup" of a time is the time getting shorter
        direction = "up" if direction == "down" else "down"
    if direction in ("up", "down") and speed_word and value < 1:
        direction = None     # a "speedup" below 1 is a slowdown: the words say neither
    if baseline is None:
        # "speedup over vLLM" in the caption, else in the heading and paragraph before the
        # table when they name one baseline
        for words in (table.caption or "", table.context or ""):
            said = {b for cm in _BASELINE_IN_CAPTION_RE.finditer(words)
                    if (b := comparison.phrase_after(words, cm.end()))}
            if len(said) == 1:
                baseline = said.pop()
                break
    return RatioReading(measures, direction, baseline, subject)


# ---------------------------------------------------------------------- settings in words
_WITHOUT_BEFORE_RE = re.compile(r"(?i)\b(?:without|w/o|wo|no)\s+$")


def technique_in(text: str, vocab) -> str | None:
    """The technique a column header names ("Speed (with FA2)" -> "FlashAttention"), or
    its absence ("Speed (without FA2)" -> "without FlashAttention"): the two figures of a
    with/without pair are measured under different conditions."""
    for s, _, name in vocab.techniques.finditer(text):
        return f"without {name}" if _WITHOUT_BEFORE_RE.search(text, 0, s) else name
    return None


def settings_in_words(table: Table, row: Row, cell: Cell, typer: HeaderTyper,
                      memo: dict | None = None) -> tuple[dict, dict]:
    """Settings written in words rather than in a setting column, as (near, far) Claim
    fields. Near: the row's label and identifier cells ("Llama 70B, BS=64", "ISL 1k / OSL
    1k", "8 GPUs" as ``hw_count``), its section and the cell's column header ("Throughput
    @ 32 users"), the nearest first. Far: the caption, then the heading and paragraph
    before the table, when they state one value ("all runs at batch size 64";
    ``conditions.agreed_settings``); the caller gives them only to a row that states no
    setting of the same kind. ``memo`` keeps readings per text and the label texts per row
    (a results table repeats its headers and sections on every row)."""
    memo = {} if memo is None else memo
    key = ("row", id(row))
    labels = memo.get(key)
    if labels is None:
        labels = memo[key] = [c.text for c in row.cells
                              if (k := cell_column(table, c.col, typer, row)).kind in ("label", "ident")
                              or k.kind == "setting" and k.field is None]
    near: dict = {}
    header = table.column_header(cell.col)
    for part in labels + [row.section or "", header]:
        if not part:
            continue
        got = memo.get(("near", part))
        if got is None:
            text = clean(part)
            got = memo[("near", part)] = dict(cond.settings_in(text))
            n = cond.gpu_count(text)
            if n is not None:
                got["hw_count"] = n
        for k, v in got.items():
            near.setdefault(k, v)
    if header:
        # the technique the cell's column header names ("Speed (without FA2)")
        tech = memo.get(("technique", header), "")
        if tech == "":
            tech = memo[("technique", header)] = technique_in(clean(header), typer.v)
        if tech:
            near.setdefault("technique", tech)
    far: dict = {}
    for part in (table.caption, table.context):
        got = memo.get(("far", part))
        if got is None:
            got = memo[("far", part)] = cond.agreed_settings(part or "")
        for k, v in got.items():
            far.setdefault(k, v)
    return near, far
