"""HTML tables, read from the DOM and mapped onto the stored text.

The stored text of a page is trafilatura's Markdown (or the fallback walk's), where a
table is pipe rows; what the flattening loses (which rows are headers, spanning cells, the
caption) is still in the DOM. Each ``<table>`` is read from the tree (logical columns
with ``colspan`` expanded, ``<thead>`` rows and rows of ``<th>`` cells as header rows,
``<caption>``), and each cell's text is found in the stored text, row by row, in order,
on pipe lines after the previous cell: the cell's span is where its text is. A table
whose cells cannot be found is left to the pipe reader over the text, as are pipe tables
the DOM does not hold.
"""
from __future__ import annotations

import re
from typing import Any

from pipeline.ingest.tables import (
    caption_above, clean, context_before, join_header, pipe_cells, text_tables, with_unit_lines,
)
from pipeline.model import Cell, Row, Table

_DIGIT_RE = re.compile(r"\d")
_EDGE_OPEN_RE = re.compile(r"(?:\*\*|__|`|\*|_)")
_EDGE_CLOSE_RE = re.compile(r"(?:\*\*|__|`|\*|_)$")
WINDOW = 4000          # how far past the previous row a row's text may be looked for
MAX_CELLS = 20000      # a page's table cells read at most (huge generated pages)


def _norm(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").split())


def _dom_rows(table: Any) -> tuple[list[tuple[bool, list[tuple[int, str]]]], str]:
    """((is header row, [(column, text)]) for every row of ``table``, caption)."""
    caption = ""
    cap = table.find("caption")
    if cap is not None:
        caption = _norm(cap.text_content())
    rows = []
    for tr in table.iter("tr"):
        # rows of nested tables belong to those tables
        if next((a for a in tr.iterancestors("table")), None) is not table:
            continue
        in_head = any(a.tag == "thead" for a in tr.iterancestors("thead", "table") if a.tag == "thead")
        cells, col, all_th = [], 0, True
        for td in tr:
            if td.tag not in ("td", "th"):
                continue
            all_th = all_th and td.tag == "th"
            try:
                span = max(1, min(int(td.get("colspan") or 1), 50))
            except ValueError:
                span = 1
            cells.append((col, span, _norm(td.text_content())))
            col += span
        if cells:
            rows.append((in_head or all_th, cells))
    return rows, caption


def _trim_markup(text: str, s: int, e: int) -> tuple[int, int]:
    """A pipe cell's span without the emphasis the converter wrapped it in."""
    while True:
        m = _EDGE_OPEN_RE.match(text, s, e)
        n = _EDGE_CLOSE_RE.search(text, s, e)
        if not (m and n and m.end() <= n.start()):
            return s, e
        s, e = m.end(), n.start()


def _find_row(text: str, cells: list[tuple[int, int, str]], pos: int) -> tuple[list[Cell], int] | None:
    """The cells of one DOM row on the first pipe line at or after ``pos`` whose cells
    read the same (markup aside): each DOM cell gets its pipe cell's span."""
    wanted = [(col, _norm(t)) for col, _, t in cells if _norm(t)]
    if not wanted:
        return None
    limit = min(len(text), pos + WINDOW)
    for ls, le in _pipe_lines(text, pos, limit):
        pcells = [c for c in pipe_cells(text, ls, le) if _norm(clean(c.text))]
        if len(pcells) != len(wanted):
            continue
        if all(_norm(clean(c.text)) == t for c, (_, t) in zip(pcells, wanted)):
            out = []
            for c, (col, _) in zip(pcells, wanted):
                s, e = _trim_markup(text, c.start, c.end)
                out.append(Cell(s, e, col, text[s:e]))
            return out, le
    return None


def _pipe_lines(text: str, pos: int, limit: int):
    """(start, end) of the pipe lines starting in ``text[pos:limit]``."""
    k = text.rfind("\n", 0, pos) + 1
    while k < limit:
        le = text.find("\n", k)
        le = len(text) if le < 0 else le
        if text[k:le].lstrip().startswith("|"):
            yield k, le
        k = le + 1


def dom_tables(tree: Any, text: str) -> list[Table]:
    """Tables of the page ``tree`` with spans in ``text``; the tables of ``text`` no DOM
    table accounts for are added as the text readers read them."""
    pipes = text_tables(text)     # what the text alone shows (pipe, whitespace-aligned)
    if tree is None or "|" not in text:
        return pipes
    out: list[Table] = []
    pos = 0
    budget = MAX_CELLS
    for el in tree.iter("table"):
        rows, caption = _dom_rows(el)
        n = sum(len(c) for _, c in rows)
        budget -= n
        if budget < 0:
            break
        if len(rows) < 2:
            continue
        found: list[tuple[bool, Row]] = []
        cur = pos
        for is_head, cells in rows:
            hit = _find_row(text, cells, cur)
            if hit is None:
                continue
            row_cells, le = hit
            ls = text.rfind("\n", 0, row_cells[0].start) + 1
            found.append((is_head, Row(ls, le, row_cells)))
            cur = le
        data = [r for h, r in found if not h]
        heads = [r for h, r in found if h]
        if not data or len(found) < max(2, len(rows) // 2):
            continue
        if not heads:
            heads, data = [data[0]], data[1:]
        if not data:
            continue
        ncols = max(max((col + span for col, span, _ in cells), default=0) for _, cells in rows)
        grid = []
        for is_head, cells in rows:
            if not is_head:
                continue
            line = [""] * ncols
            for col, span, t in cells:   # a cell spanning columns heads each of them
                for k in range(col, min(ncols, col + span)):
                    line[k] = clean(t)
            grid.append(line)
        if not grid:
            grid = [[""] * ncols]
            for c in heads[0].cells:
                if c.col < ncols:
                    grid[0][c.col] = clean(c.text)
        section, body = None, []
        for r in data:
            filled = [c for c in r.cells if clean(c.text)]
            if len(filled) == 1 and ncols > 2 and filled[0].col == 0 and not _DIGIT_RE.search(filled[0].text):
                section = clean(filled[0].text)
                continue
            r.section = section
            body.append(r)
        start = min(r.start for r in heads + data)
        t = Table(start=start, end=max(r.end for r in heads + data), header=join_header(grid, ncols),
                  rows=body, caption=caption or caption_above(text, start), header_rows=heads,
                  context=context_before(text, start), source="html")
        out.append(t)
        pos = t.end
    if not out:
        return pipes
    taken = [(t.start, t.end) for t in out]
    out += [p for p in pipes if not any(s < p.end and p.start < e for s, e in taken)]
    out.sort(key=lambda t: t.start)
    return with_unit_lines(text, out)
