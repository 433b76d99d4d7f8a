"""PDF tables, read from the page layout and mapped onto the stored page text.

pdfplumber's text (what the document stores) writes a table row as one line of words
joined by single spaces, so the columns are gone from the text; they are still in the
positions of the characters. Two readers, each cell ending as a span of the stored text:

1. Ruled tables: pdfplumber's table finder with the ``lines`` strategy; every character
   inside a cell's box is looked up in the text map ``extract_text`` was built from, and
   the cell is the stretch of stored text from its first to its last character (kept only
   when that stretch holds exactly the cell's characters).
2. Tables without rules: each stored line is cut into pieces where the gap between two
   characters is wide (over half the font size; a word space is about a quarter), and
   three or more consecutive lines whose pieces line up in columns make a table, read by
   the same rules as whitespace-aligned plain text (``tables.aligned_table``).

Lines a ruled table holds are left out of the second reader. A page whose text has no
run of lines with numbers is not searched at all (most pages of a paper are prose).
"""
from __future__ import annotations

import re
from typing import Any

from pipeline.ingest.tables import (
    aligned_table, caption_above, clean, context_before, join_header, whitespace_tables, with_unit_lines,
)
from pipeline.model import Cell, Row, Table

_NUMS_RE = re.compile(r"(?<![\w.])\d[\d,.]*")
_DIGIT_RE = re.compile(r"\d")
GAP_EM = 0.5          # a gap wider than this many font sizes separates columns
MIN_ROWS = 3


def _numeric_lines(text: str) -> bool:
    """Three consecutive lines with two or more numbers each somewhere on the page."""
    run = 0
    for line in text.split("\n"):
        if len(_NUMS_RE.findall(line)) >= 2:
            run += 1
            if run >= MIN_ROWS - 1:
                return True
        else:
            run = 0
    return False


def page_tables(page: Any, text: str, number: int) -> list[Table]:
    """Tables on one pdfplumber page; offsets are into ``text``, the page's stored text
    (``page.extract_text()``, characters replaced one for one at most)."""
    if not _numeric_lines(text):
        return []
    tm = page.get_textmap()
    tuples = tm.tuples
    if len(tuples) != len(text):   # the layout no longer maps onto the text: read the text
        return text_fallback(text, number)
    offset_of = {id(obj): i for i, (_, obj) in enumerate(tuples) if obj is not None}
    tables = _ruled(page, text, number, tuples, offset_of)
    covered = [(t.start, t.end) for t in tables]
    tables += _unruled(text, number, tuples, covered)
    tables.sort(key=lambda t: t.start)
    return with_unit_lines(text, tables)


# ---------------------------------------------------------------------- ruled
def _ruled(page: Any, text: str, number: int, tuples: list, offset_of: dict[int, int]) -> list[Table]:
    if not (page.lines or page.rects):
        return []
    try:
        found = page.find_tables({"vertical_strategy": "lines", "horizontal_strategy": "lines"})
    except Exception:  # a layout pdfplumber cannot grid must not lose the page
        return []
    out = []
    for ft in found:
        x0, top, x1, bottom = ft.bbox
        chars = [c for c in page.chars if x0 <= (c["x0"] + c["x1"]) / 2 <= x1 and top <= (c["top"] + c["bottom"]) / 2 <= bottom]
        grid: list[list[tuple[int, tuple | None]]] = []
        for r in ft.rows:
            grid.append([(j, cell) for j, cell in enumerate(r.cells)])
        spans: dict[tuple[int, int], list[int]] = {}
        for ch in chars:
            off = offset_of.get(id(ch))
            if off is None:
                continue
            cx, cy = (ch["x0"] + ch["x1"]) / 2, (ch["top"] + ch["bottom"]) / 2
            for i, row in enumerate(grid):
                hit = next((j for j, cell in row if cell is not None and cell[0] <= cx <= cell[2] and cell[1] <= cy <= cell[3]), None)
                if hit is not None:
                    spans.setdefault((i, hit), []).append(off)
                    break
        rows: list[Row] = []
        broken = total = 0
        for i, row in enumerate(grid):
            cells = []
            for j, _ in row:
                offs = spans.get((i, j))
                if not offs:
                    continue
                s, e = min(offs), max(offs) + 1
                # the stretch must hold this cell's characters and nothing else
                if sum(1 for k in range(s, e) if not text[k].isspace()) != len(offs):
                    continue
                total += 1
                # a cell starts and ends at word boundaries; lines of a chart cut words
                if (s > 0 and not text[s - 1].isspace()) or (e < len(text) and not text[e].isspace()):
                    broken += 1
                    continue
                cells.append(Cell(s, e, j, text[s:e], number))
            if cells:
                rows.append(Row(min(c.start for c in cells), max(c.end for c in cells), cells))
        # a box around code or a figure is no table: two rows of two cells at least
        if sum(1 for r in rows if len(r.cells) >= 2) < 2 or broken * 10 > total:
            continue
        header_rows = [rows[0]]
        data = rows[1:]
        if len(data) > 1 and not any(_DIGIT_RE.search(c.text) for c in data[0].cells):
            header_rows.append(data.pop(0))
        ncols = max(len(r.cells) for r in ft.rows)
        grid_text = []
        for r in header_rows:
            texts = [""] * ncols
            for c in r.cells:
                texts[c.col] = clean(" ".join(c.text.split()))
            grid_text.append(texts)
        start = min(r.start for r in rows)
        out.append(Table(start=start, end=max(r.end for r in rows), header=join_header(grid_text, ncols),
                         rows=data, caption=caption_above(text, start), header_rows=header_rows,
                         context=context_before(text, start), source="pdf-ruled", page=number))
    return out


# ---------------------------------------------------------------------- unruled
def _pieces(text: str, tuples: list, a: int, b: int) -> list[tuple[int, int, float, float]]:
    """The pieces of the stored line ``text[a:b]`` between wide gaps: (start, end, x0, x1)."""
    out: list[list] = []
    prev = None
    for k in range(a, b):
        obj = tuples[k][1]
        if obj is None or text[k].isspace():
            continue
        if not obj.get("upright", True):  # rotated text: axis titles of a chart
            return []
        size = obj.get("size") or 10
        if prev is not None and obj["x0"] - prev["x1"] <= GAP_EM * size and obj["x0"] >= prev["x0"] and out:
            out[-1][1] = k + 1
            out[-1][3] = max(out[-1][3], obj["x1"])
        else:
            out.append([k, k + 1, obj["x0"], obj["x1"]])
        prev = obj
    return [tuple(p) for p in out]


def _unruled(text: str, number: int, tuples: list, covered: list[tuple[int, int]]) -> list[Table]:
    tables: list[Table] = []
    block_spans: list[tuple[int, int]] = []
    block_pieces: list[list] = []

    def flush() -> None:
        if len(block_spans) >= MIN_ROWS:
            t = aligned_table(text, list(block_spans), list(block_pieces), number, "pdf")
            if t is not None:
                tables.append(t)
        block_spans.clear()
        block_pieces.clear()

    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        le = n if nl < 0 else nl
        inside = any(s < le and pos < e for s, e in covered)
        pieces = [] if inside else _pieces(text, tuples, pos, le)
        if len(pieces) >= 2:
            block_spans.append((pos, le))
            block_pieces.append(pieces)
        else:
            flush()
        if nl < 0:
            break
        pos = nl + 1
    flush()
    return tables


def text_fallback(text: str, number: int) -> list[Table]:
    """The page's tables as its text alone shows them (whitespace-aligned lines)."""
    tables = whitespace_tables(text, page=number)
    for t in tables:
        t.source = "pdf-text"
    return tables


def shift(tables: list[Table], by: int) -> list[Table]:
    """Move every span of ``tables`` by ``by`` characters (a page's offset in the document)."""
    for t in tables:
        t.start += by
        t.end += by
        for r in t.header_rows + t.rows:
            r.start += by
            r.end += by
            for c in r.cells:
                c.start += by
                c.end += by
    return tables
