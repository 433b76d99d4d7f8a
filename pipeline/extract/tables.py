"""Pipe tables (Markdown, and HTML tables rendered as pipe rows by ingest) with cell offsets.

A number in a table cell rarely carries its unit; the column header does ("Throughput
(out tok/s/GPU)", "Mean TTFT (ms)"), the row names the subject ("llama_70b", "GPT-J 6B"),
a one-cell row names a section ("**H100**"), and a caption line above the table sets
conditions for all of it ("H200 FP8 Max throughput").
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import re

from pipeline.extract.patterns import AtLineStart

# Patterns used inside functions, compiled once.
_PIPE_RE = re.compile(r"(?<!\\)\|")


_ROWS = AtLineStart(r"[ \t]*\|[^\n]*")   # lines that start with a pipe
_SEP_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_STRIP_RE = re.compile(r"<[^>]+>|\*\*|__|`")


@dataclass
class Cell:
    start: int
    end: int
    col: int
    text: str


@dataclass
class Row:
    start: int
    end: int
    cells: list[Cell]
    section: str | None = None


@dataclass
class Table:
    start: int
    end: int
    header: list[str]
    rows: list[Row] = field(default_factory=list)
    caption: str = ""

    def column_header(self, col: int) -> str:
        return self.header[col] if 0 <= col < len(self.header) else ""


def clean(cell_text: str) -> str:
    return _STRIP_RE.sub("", cell_text).strip()


def _cells(text: str, s: int, e: int) -> list[Cell]:
    line = text[s:e]
    cells = []
    # Split on unescaped pipes; the leading pipe opens the first cell.
    positions = [m.start() for m in _PIPE_RE.finditer(line)]
    if not positions:
        return cells
    if line[: positions[0]].strip():
        positions.insert(0, -1)
    for col, (a, b) in enumerate(zip(positions, positions[1:] + ([len(line)] if line.rstrip()[-1:] != "|" else []))):
        cs, ce = a + 1, b
        while cs < ce and line[cs].isspace():
            cs += 1
        while ce > cs and line[ce - 1].isspace():
            ce -= 1
        cells.append(Cell(s + cs, s + ce, col, line[cs:ce]))
    return cells


def find_tables(text: str) -> list[Table]:
    """Every pipe table: a header row, a separator row, then data rows."""
    lines = list(_ROWS.spans(text))
    tables: list[Table] = []
    i = 0
    while i < len(lines) - 1:
        hs, he = lines[i]
        ss, se = lines[i + 1]
        between = text[he:ss]
        if between.strip() or not _SEP_RE.match(text[ss:se]):
            i += 1
            continue
        header = [clean(c.text) for c in _cells(text, hs, he)]
        table = Table(start=hs, end=se, header=header, caption=_caption(text, hs))
        section = None
        j = i + 2
        prev_end = se
        while j < len(lines) and not text[prev_end: lines[j][0]].strip():
            rs, re_ = lines[j]
            cells = _cells(text, rs, re_)
            filled = [c for c in cells if clean(c.text)]
            if len(filled) == 1 and len(header) > 2 and filled[0].col == 0:
                section = clean(filled[0].text)
            else:
                table.rows.append(Row(rs, re_, cells, section))
            table.end = re_
            prev_end = re_
            j += 1
        tables.append(table)
        i = j
    return tables


def _caption(text: str, table_start: int) -> str:
    """The nearest non-empty line within three lines above the table."""
    before = text[max(0, table_start - 600): table_start].rstrip("\n").split("\n")
    for line in reversed(before[-3:]):
        if line.strip():
            return clean(line.lstrip("#").strip())
    return ""


class TableIndex:
    """Find the table cell holding an offset in O(log n)."""

    def __init__(self, tables: list[Table]):
        self.cells: list[tuple[int, int, Table, Row, Cell]] = []
        for t in tables:
            for r in t.rows:
                for c in r.cells:
                    self.cells.append((c.start, c.end, t, r, c))
        self.starts = [c[0] for c in self.cells]
        self.tables = tables
        self.table_starts = [t.start for t in tables]

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
