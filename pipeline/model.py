"""Records shared by every stage.

They are plain dataclasses (no database handles, no file objects) so that any stage can run
in a worker process: a Document pickles into a pool and a list of Claims pickles back.
Offsets are always character offsets into ``Document.text``, the exact stored text.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ROLES = ("primary", "secondary", "unknown")
STANCES = ("asserted", "reported", "negated", "hypothetical", "questioned")
# stances under which a figure asserts nothing: never evidence, never a graph's fact
INERT_STANCES = frozenset({"negated", "hypothetical", "questioned"})
COMPARATORS = ("=", ">", ">=", "<", "<=", "~")
FAMILIES = (
    "token_throughput", "request_throughput", "latency", "ratio", "percent", "money",
    "parameters", "tokens", "memory", "bandwidth", "compute", "power",
)
SCOPES = ("per_user", "per_gpu", "per_node", "per_system", "aggregate", "unspecified")
RELATIONS = ("supports", "restates", "conflicts", "mismatch", "derives")


@dataclass
class Page:
    """One PDF page: characters ``text[start:end]`` came from page ``number`` (1-based)."""

    number: int
    start: int
    end: int


@dataclass
class Cell:
    """One table cell: ``text[start:end]`` of the document is exactly ``text``; ``col`` is
    its column (a cell spanning columns sits at its first); ``page`` for PDFs."""

    start: int
    end: int
    col: int
    text: str
    page: int | None = None


@dataclass
class Row:
    """One table row; ``section`` is the label of a one-cell row above it ("**H100**")."""

    start: int
    end: int
    cells: list[Cell]
    section: str | None = None


@dataclass
class Table:
    """A table in any format: rows of cells with exact spans in ``Document.text``.

    ``header`` holds one text per column, the header rows joined ("Throughput tok/s" from
    a "Throughput" row over a "tok/s" row); ``header_rows`` keeps those rows' cells with
    their spans. ``caption`` is the table's caption or the line just above it; ``context``
    the heading and paragraph before it; ``prose`` the paragraphs of prose of its section
    before it (from its heading), where a unit for a whole table is often stated ("we
    report the speed (tokens/s)"). ``source`` names the reader (pipe, html, pdf,
    whitespace, grid, rst-simple), ``page`` the PDF page.
    """

    start: int
    end: int
    header: list[str]
    rows: list[Row] = field(default_factory=list)
    caption: str = ""
    header_rows: list[Row] = field(default_factory=list)
    context: str = ""
    source: str = "pipe"
    page: int | None = None
    prose: str = ""

    def column_header(self, col: int) -> str:
        return self.header[col] if 0 <= col < len(self.header) else ""


@dataclass
class Document:
    """A file turned into exact text plus metadata.

    ``id`` is the content hash of the source bytes, so re-ingesting an unchanged file is
    recognised without reading its claims, and a changed file gets a new identity.
    """

    id: str
    path: str                      # relative to the ingest root, POSIX separators
    format: str                    # text | markdown | html | pdf
    text: str
    title: str | None = None
    publisher: str | None = None
    url: str | None = None
    published: str | None = None   # ISO date (YYYY-MM-DD) when known
    author: str | None = None
    role: str = "unknown"          # primary | secondary | unknown
    role_source: str | None = None  # manifest | metadata | inferred
    pages: list[Page] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # anything else worth keeping
    # tables read at ingest (HTML from the DOM, PDF from the page layout); None: not read
    # there, and the extractor reads them from the text
    tables: list[Table] | None = None

    @property
    def n_chars(self) -> int:
        return len(self.text)

    def page_at(self, offset: int) -> int | None:
        """The 1-based page holding ``offset``; None for formats without pages."""
        for p in self.pages:
            if p.start <= offset < p.end:
                return p.number
        if self.pages and offset >= self.pages[-1].end:
            return self.pages[-1].number
        return None


@dataclass(slots=True)
class Claim:
    """One numeric figure about how a system performs, costs or is sized (docs/claims-model.md §1).

    ``text[start:end] == surface`` always holds; ``value`` is in the family's canonical
    unit (tokens/s, requests/s, s, x, %, USD, count, bytes, bytes/s, FLOP/s, W).
    """

    id: str
    doc_id: str
    start: int
    end: int
    surface: str
    value: float
    family: str
    unit: str
    value_text: str = ""
    unit_text: str = ""
    low: float | None = None
    high: float | None = None
    comparator: str = "="
    precision: float | None = None
    scope: str | None = None
    statistic: str | None = None
    phase: str | None = None
    token_kind: str | None = None
    per_basis: str | None = None   # money: per GPU-hour, per million tokens, ...
    page: int | None = None
    sentence_start: int | None = None
    sentence_end: int | None = None
    sentence: str | None = None
    model: str | None = None
    model_params: float | None = None  # the subject model's size when the document states it
    hardware: str | None = None
    hw_count: int | None = None
    accelerator: str | None = None
    engine: str | None = None
    dtype: str | None = None
    technique: str | None = None
    parallelism: str | None = None
    concurrency: float | None = None
    batch_size: float | None = None
    isl: float | None = None
    osl: float | None = None
    workload: str | None = None
    price_basis: str | None = None
    asserted_by: str | None = None
    stance: str = "asserted"
    implied: bool = False
    inherited: bool = False        # subject carried from the paragraph or title
    in_table: bool = False
    # A comparison (a ratio or percent that sets two things side by side, docs/claims-model.md §1):
    # what it is compared against (never the figure's own engine or hardware), which way
    # it goes ("up": faster/higher/more, "down": slower/lower/fewer/reduces) and the
    # quantity it is a ratio or share of (throughput, latency, cost, memory, ...).
    baseline: str | None = None
    direction: str | None = None
    measures: str | None = None
    offered_load: float | None = None  # requests/s offered to the system ("at 16 QPS")
    findings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Link:
    """A relation between two claims (docs/claims-model.md §3); ``detail`` says why in plain words."""

    src: str
    dst: str
    relation: str
    consistent: bool | None = None
    detail: str = ""
    computed: float | None = None  # derives: the value computed from the two operands
    other: str | None = None       # derives: the second operand claim id
