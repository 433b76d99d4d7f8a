"""A figure read from a benchmark result file, cited as its source asks to be cited.

A row of a result file (MLPerf, llmperf, InferenceX, a mapped CSV/JSON/Parquet) is stored
as a table line of a structured document whose ``meta`` keeps, per row, its span in the
text, its place in the file and (MLPerf) the fields the MLCommons results guidelines ask a
citation to name: version, division, result ID, benchmark, scenario, and the date the
result was retrieved. ``check``, ``trace`` and the report print a figure from such a
document with this one line, so the reader can find the row again:

    MLPerf Inference v5.1, closed, result 5.1-0001, llama2-70b-99, Offline, retrieved
    2026-12-01: 27,803.9 tokens/s per system on 8 x MI300X

The retrieval date is the date the warehouse read the file (``documents.ingested_at``):
the summary file itself holds no such date (docs/structured.md). Everything here reads the
stored record only; nothing is recomputed from the original file.
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from pipeline.model import Claim
from pipeline.words import fmt_number

__all__ = ["SourceDoc", "Citations", "citation_line", "cite_claims", "cite_evidence", "grouped"]

MLPERF_SUMMARY = ("mlperf_summary_json", "mlperf_summary_csv")
_UNIT_IN_HEADER = re.compile(r"^(?P<label>.*?)\s*\((?P<unit>[^()]*)\)\s*$")
_SOURCE_DOCS = ("SELECT id, path, publisher, title, CAST(ingested_at AS VARCHAR), "
                "CAST(meta AS VARCHAR) FROM documents "
                "WHERE json_extract_string(meta, '$.source_kind') IS NOT NULL")


@dataclass
class SourceDoc:
    """One structured document's provenance: its rows' spans and its tables' headers."""

    id: str
    path: str
    kind: str
    publisher: str | None = None
    title: str | None = None
    retrieved: str | None = None          # ISO date the warehouse read the file
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        spans: list[tuple[int, int, dict]] = []
        for row in self.meta.get("rows") or []:
            if not isinstance(row, dict):
                continue
            pieces = row.get("spans") or ([[row["start"], row["end"]]] if "start" in row else [])
            spans += [(int(s), int(e), row) for s, e in pieces]
        spans.sort(key=lambda t: t[0])
        self._rows = spans
        self._row_starts = [s for s, _, _ in spans]
        tables = sorted((t for t in self.meta.get("tables") or [] if isinstance(t, dict)),
                        key=lambda t: t["start"])
        self._tables = tables
        self._table_starts = [t["start"] for t in tables]

    def row_at(self, pos: int) -> tuple[int, dict] | None:
        """(start of the row's line, the row's meta) of the rendered row holding ``pos``."""
        i = bisect.bisect_right(self._row_starts, pos) - 1
        if i >= 0:
            start, end, row = self._rows[i]
            if start <= pos <= end:
                return start, row
        return None

    def header_at(self, pos: int) -> list[str] | None:
        """The header of the rendered table holding ``pos`` (None for documents stored
        before tables were kept in ``meta``)."""
        i = bisect.bisect_right(self._table_starts, pos) - 1
        if i >= 0 and self._tables[i]["start"] <= pos <= self._tables[i]["end"]:
            return list(self._tables[i]["header"])
        return None


def grouped(literal: str) -> str:
    """'27803.9' -> '27,803.9': the file's own digits, thousands grouped for reading."""
    m = re.fullmatch(r"(-?)(\d+)(\.\d+)?", literal.strip())
    if not m:
        return literal
    return f"{m.group(1)}{int(m.group(2)):,}{m.group(3) or ''}"


def _column(c: Claim, row_start: int, header: list[str] | None, text: str | None) -> str | None:
    """The header of the column the figure sits in: the count of cell separators between
    the row's start and the figure (cells never hold a '|': the readers write it '/')."""
    if header is None:
        return None
    if c.sentence is not None and c.sentence_start == row_start:
        before = c.sentence[:c.start - row_start]
    elif text is not None:
        before = text[row_start:c.start]
    else:
        return None
    col = before.count("|") - 1
    return header[col] if 0 <= col < len(header) else None


def _figure(c: Claim, column: str | None) -> tuple[str, str | None]:
    """(the figure as the file writes it, with the column's unit; the column's label)."""
    if column:
        m = _UNIT_IN_HEADER.match(column)
        if m:
            return f"{grouped(c.surface)} {m.group('unit')}", m.group("label") or None
        return grouped(c.surface), column
    return f"{fmt_number(c.value, c.unit)} {c.unit}".strip(), None


def _place(src: SourceDoc, row: dict, column: str | None) -> str:
    """'file.json /results_ttft_s_quantiles_p99', 'runs.csv line 7, column out_tps'."""
    pointer = (row.get("cells") or {}).get(column) if column else None
    where = str(row.get("row") or row.get("pointer") or "")
    if pointer and str(pointer).startswith("/"):
        return f"{src.path} {pointer}"
    out = f"{src.path} {where}".rstrip()
    if pointer:
        out += f", column {pointer}"
    return out


def citation_line(c: Claim, src: SourceDoc, text: str | None = None) -> str | None:
    """The citation of claim ``c`` of the structured document ``src`` (None when the
    figure lies in no row, e.g. a title line). ``text``: the document's stored text,
    used only when the claim does not carry its row's sentence."""
    retrieved = f"retrieved {src.retrieved}" if src.retrieved else ""
    if src.kind == "mlperf_log_summary":
        f = src.meta.get("log_fields") or {}
        head = ["MLPerf Inference run summary", src.path,
                f"SUT {f['SUT name']}" if f.get("SUT name") else "",
                f"{f['Scenario']} scenario" if f.get("Scenario") else "", f.get("Mode", ""),
                f"result {f['Result is']}" if f.get("Result is") else "", retrieved]
        header = src.header_at(c.start)
        line_start = (c.sentence_start if c.sentence_start is not None else None)
        column = _column(c, line_start, header, text) if line_start is not None else None
        figure, label = _figure(c, column)
        return _join(head, figure, label, None)
    found = src.row_at(c.start)
    if found is None:
        return None
    row_start, row = found
    column = _column(c, row_start, src.header_at(c.start), text)
    figure, label = _figure(c, column)
    if src.kind in MLPERF_SUMMARY:
        version = row.get("version")
        head = [f"MLPerf Inference {version}" if version else "MLPerf Inference",
                row.get("division") or "", f"result {row.get('result_id')}",
                row.get("model") or "", row.get("scenario") or "", retrieved,
                ]
        # the result column is the official figure: its label adds nothing
        if label and label.startswith("Result"):
            label = None
        return _join(head, figure, label, c.hardware)
    who = src.publisher or src.title or ""
    head = [who, _place(src, row, column), retrieved]
    subject = " on ".join(x for x in (c.model, c.hardware) if x) or None
    return _join(head, figure, label, subject, on=False)


def _join(head: list[str], figure: str, label: str | None, subject: str | None,
          on: bool = True) -> str:
    line = ", ".join(x for x in head if x) + ": " + figure
    if label:
        line += f" ({label})"
    if subject:
        line += (" on " if on else ", ") + subject
    return line


class Citations:
    """The citation lines of the figures of a warehouse's structured documents.

    Loaded once per record or check (one query over the documents whose ``meta`` names a
    ``source_kind``); each document's ``meta`` is parsed the first time one of its figures
    is cited, so a record with large result files costs nothing until one is shown."""

    def __init__(self, rows: Iterable[tuple]) -> None:
        self._raw = {r[0]: r for r in rows}
        self._docs: dict[str, SourceDoc | None] = {}

    @classmethod
    def load(cls, store, doc_ids: Iterable[str] | None = None) -> "Citations":
        """From a Store (``store.query``); ``doc_ids`` limits the documents read."""
        sql, params = _SOURCE_DOCS, []
        if doc_ids is not None:
            sql += " AND list_contains(?, id)"
            params.append(sorted(set(doc_ids)))
        _, rows = store.query(sql, params)
        return cls(rows)

    def source(self, doc_id: str) -> SourceDoc | None:
        if doc_id not in self._docs:
            raw = self._raw.get(doc_id)
            src = None
            if raw is not None:
                try:
                    meta = json.loads(raw[5]) if raw[5] else {}
                except ValueError:
                    meta = {}
                if isinstance(meta, dict) and meta.get("source_kind"):
                    src = SourceDoc(raw[0], raw[1], str(meta["source_kind"]), raw[2], raw[3],
                                    (raw[4] or "")[:10] or None, meta)
            self._docs[doc_id] = src
        return self._docs[doc_id]

    def of(self, c: Claim, text: str | None = None) -> str | None:
        """The claim's citation line, or None when its document is no result file."""
        src = self.source(c.doc_id)
        return citation_line(c, src, text) if src is not None else None


def cite_claims(store, claims: Iterable[Claim]) -> dict[str, str]:
    """claim id -> citation line, for those of ``claims`` read from result files."""
    claims = list(claims)
    if not claims:
        return {}
    cites = Citations.load(store, {c.doc_id for c in claims})
    out = {}
    for c in claims:
        line = cites.of(c)
        if line:
            out[c.id] = line
    return out


def cite_evidence(verdict, line_of) -> None:
    """Set ``citation`` on each evidence item of ``verdict`` (a check's Verdict) that
    ``line_of(claim_id)`` cites."""
    if verdict is None:
        return
    for e in getattr(verdict, "evidence", None) or []:
        line = line_of(e.id)
        if line:
            e.citation = line
