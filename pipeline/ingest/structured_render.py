"""What every benchmark-result reader shares: cells, the table writer, strict JSON, numbers.

The readers (``structured.py`` for MLPerf and llmperf, ``structured_inferencex.py``,
``structured_mapping.py``) all render a file as a title line and pipe tables, one line per
row, so the ordinary table extractor makes the claims; this module holds the pieces they
write with, so each rule (how a cell is cleaned, how JSON numbers keep their literal) is
written once.
"""
from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from pipeline.ingest.errors import IngestError

__all__ = ["cell", "Writer", "strict_json", "csv_rows", "to_int", "is_number", "accelerator_name"]


def cell(value: Any) -> str:
    """A field as a table cell: text as written, pipes and line breaks made harmless."""
    s = "" if value is None else str(value)
    return " ".join(s.replace("|", "/").split())


class Writer:
    """Builds the text line by line and remembers where each table row lands, and each
    table's span and header (``tables``, kept in ``meta.tables``: a citation names the
    column a figure came from)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.tables: list[dict] = []

    def line(self, s: str = "") -> tuple[int, int]:
        start = self.pos
        self.parts.append(s + "\n")
        self.pos += len(s) + 1
        return start, start + len(s)

    def table(self, header: list[str], rows: list[list[str]]) -> list[tuple[int, int]]:
        start, _ = self.line("| " + " | ".join(header) + " |")
        self.line("|" + "|".join("---" for _ in header) + "|")
        spans = [self.line("| " + " | ".join(cell(v) for v in r) + " |") for r in rows]
        self.tables.append({"start": start, "end": spans[-1][1] if spans else self.pos,
                            "header": list(header)})
        return spans

    @property
    def text(self) -> str:
        return "".join(self.parts)


def strict_json(text: str, what: str) -> Any:
    """JSON with every number kept as the literal the file writes (never re-printed from a
    float, so the stored figure has the file's precision)."""
    try:
        return json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as exc:
        raise IngestError(f"{what}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg})") from None
    except RecursionError:
        raise IngestError(f"{what}: nested too deeply to read") from None


def csv_rows(text: str, what: str, delimiter: str = ",") -> tuple[list[str], list[dict], list[str]]:
    """(header, rows as dicts of stripped cells, each row's "line N") of a CSV's text.

    Blank lines are passed over; a line with more or fewer fields than the header, a CSV
    the reader cannot read and a header without rows are each one IngestError (``what``
    says whose)."""
    try:
        table = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))
    except csv.Error as exc:
        raise IngestError(f"{what}: not readable as CSV ({exc})") from None
    if not table:
        raise IngestError(f"{what}: empty")
    header = [h.strip() for h in table[0]]
    rows, where = [], []
    for n, values in enumerate(table[1:], start=2):
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            raise IngestError(f"{what} line {n}: {len(values)} fields where the header names "
                              f"{len(header)}")
        rows.append(dict(zip(header, (v.strip() for v in values))))
        where.append(f"line {n}")
    if not rows:
        raise IngestError(f"{what}: a header and no rows")
    return header, rows, where


def to_int(value: Any) -> int | None:
    try:
        return int(float(str(value).strip()))
    except (TypeError, ValueError, OverflowError):
        return None


def is_number(value: Any) -> bool:
    try:
        float(str(value).replace(",", ""))
        return True
    except (TypeError, ValueError):
        return False


def accelerator_name(text: str) -> str | None:
    """The vocabulary's name for an accelerator field ('AMD Instinct MI300X 192GB HBM3' ->
    'MI300X', 'h200' -> 'H200'), so "8 x MI300X" reads as eight of them; None when no name
    is known."""
    from pipeline.vocab.loader import load

    if not text:
        return None
    acc = load().accelerators
    found = acc.first(text)
    if found is None:
        # spec sheets shout ("INTEL(R) XEON(R) 6787P"), trackers whisper ("mi355x"): the
        # same spellings, any case
        for name, spellings in acc.spellings.items():
            if any(re.search(rf"(?<![\w-])(?:{p})(?![\w])", text, re.I) for p in spellings):
                return name
    return found
