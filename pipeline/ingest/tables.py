"""Tables in plain text, as one Table model: Markdown pipe tables and whitespace-aligned
tables, every cell with its exact span in the text.

These readers need nothing but the text, so the extractor runs them itself on a Document
whose ingest read no tables (``Document.tables is None``); the HTML and PDF readers
(``tables_html``, ``tables_pdf``) read the structure the stored text lost and fall back to
these. Nothing here knows about claims: a cell is text with a span.

Pipe tables: a header row, a separator row (``|---|``), data rows. The shapes HTML
converters leave are understood too: a caption row and a second header row each with
their own separator, a spanning header cell followed by empty ones, and a second header
row under the separator (a first cell left empty, no digits: "| | per user | per GPU |").

reStructuredText tables: grid tables (``+---+`` borders, ``+===+`` under the header; the
lines between two borders are one row) and simple tables (``===  ===`` rules; each column
runs from its rule's first ``=`` to the next column's), read from their rules so a cell
keeps its inner spaces and its exact span.

Whitespace tables: at least three consecutive lines (a header line and two or more rows)
whose columns are separated by gaps of two or more spaces (or tabs) that line up across
all of them. This is what plain-text notes and PDF text laid out by position look like.
"""
from __future__ import annotations

import re

from pipeline.model import Cell, Row, Table

_PIPE_RE = re.compile(r"(?<!\\)\|")
_ROW_FIRST = re.compile(r"[ \t]*\|[^\n]*")
_ROW_REST = re.compile(r"\n([ \t]*\|[^\n]*)")
_SEP_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_STRIP_RE = re.compile(r"<[^>]+>|\*\*|__|`")
_DIGIT_RE = re.compile(r"\d")
_HEADING_RE = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+(.+)$")
_WORD_RE = re.compile(r"\w")
_GAP_RE = re.compile(r"\t+| {2,}")
_LETTER_RE = re.compile(r"[A-Za-z]")
_NUMBER_RE = re.compile(r"[~<>]?[\d.,]+\s*[%xX]?")
_UNIT_CELL_RE = re.compile(r"[~<>$]?\d[\d.,]*\s*[A-Za-z/%µ]{1,12}(?:/[A-Za-z]{1,6})?")

MAX_HEADER_ROWS = 3
MAX_MEDIAN_CELL = 24   # characters: an aligned table's typical cell
MAX_CELL = 80
CONTEXT_CHARS = 400


def clean(cell_text: str) -> str:
    """A cell's words without Markdown or HTML markup."""
    return _STRIP_RE.sub("", cell_text).strip()


# ---------------------------------------------------------------------- shared helpers
def caption_above(text: str, table_start: int) -> str:
    """The nearest line with words within three lines above the table (a drawn border
    or a fence is no caption: "LLM Metrics" above "┏━━┳━━┓" is)."""
    before = text[max(0, table_start - 600): table_start].rstrip("\n").split("\n")
    for line in reversed(before[-3:]):
        if _WORD_RE.search(line):
            return clean(line.lstrip("#").strip())
    return ""


_UNIT_LINE_RE = re.compile(r"(?i)^\W{0,4}(?:units?\b|all\s+(?:figures|numbers|values|results)\s+(?:are\s+)?in\b|figures\s+in\b)")


def with_unit_lines(text: str, tables: list[Table]) -> list[Table]:
    """Append to each table's caption a "Unit: ..." line just below it (within two lines),
    where a table may state the unit of all its cells; and give each table the prose of
    its section before it (``section_prose``), where the unit may be stated instead."""
    for t in tables:
        after = text[t.end:t.end + 400].lstrip("\n").split("\n", 2)
        for line in after[:2]:
            if line.strip():
                if _UNIT_LINE_RE.match(clean(line)):
                    t.caption = f"{t.caption} {clean(line)}".strip()
                break
        if not t.prose:
            t.prose = section_prose(text, t.start)
    return tables


_SETUP_LIST_RE = re.compile(r"(?:[-*•+] [^\n]*(?:\n|$))+$")
# a heading underlined (perhaps overlined too) with one punctuation character repeated, as
# reStructuredText and Markdown's setext headings write them ("Results" over "=======")
_UNDERLINED_RE = re.compile(r"(?m)^[ \t]*(\w[^\n|]*?)[ \t]*\n[ \t]*([=\-~^\"'`#*+:._])\2{2,}[ \t]*$")
SECTION_CHARS = 12_000   # how far back a table's section prose is looked for
PROSE_CHARS = 2_000      # and how much of it is kept, nearest the table


def last_heading(window: str) -> tuple[str, int]:
    """The last heading in ``window`` (Markdown "# ...", or a line underlined with a
    repeated punctuation character, as reStructuredText and setext write them) and the
    offset just after it; ("", 0) without one."""
    best: tuple[str, int] = ("", 0)
    for m in _HEADING_RE.finditer(window):
        best = (m.group(1), m.end())
    for m in _UNDERLINED_RE.finditer(window, max(0, best[1] - 1)):
        best = (m.group(1), m.end())
    return clean(best[0]), best[1]


def _is_prose(p: str) -> bool:
    """A paragraph of sentences, not rows, rules or code."""
    return p[-1:] in ".:!?)" and len(p.split()) >= 5 and not p.startswith(("|", "`", "<", "=", "+"))


def context_before(text: str, table_start: int) -> str:
    """The last heading and the last paragraph before the table (a few hundred
    characters), where a table's subject is often named; in a section of several tables,
    the paragraph above the first of them (tables are no paragraphs)."""
    lo = max(0, table_start - SECTION_CHARS)
    window = text[lo:table_start]
    heading, after = last_heading(window)
    paras = [p.strip() for p in window[after:].split("\n\n") if p.strip()]
    is_prose = [_is_prose(p) for p in paras]
    last = max((i for i, ok in enumerate(is_prose) if ok), default=-1)
    para = clean(paras[last])[-CONTEXT_CHARS:] if last >= 0 else ""
    # a setup list between that paragraph and the table ("- GPU: RTX 4090", "- Batch: 1")
    # states the conditions of every row
    setup = [clean(p)[-CONTEXT_CHARS:] for p in paras[last + 1:] if _SETUP_LIST_RE.match(p)]
    return " ".join(x for x in (heading, para, *setup) if x)


def section_prose(text: str, table_start: int) -> str:
    """The paragraphs of prose of the table's section before it (from its heading, tables
    and lists left out), nearest the table kept: where a unit for the whole table may
    be stated ("we report the inference speed (tokens/s)")."""
    window = text[max(0, table_start - SECTION_CHARS):table_start]
    _, after = last_heading(window)
    paras = [" ".join(p.split()) for p in window[after:].split("\n\n") if _is_prose(p.strip())]
    return " ".join(paras)[-PROSE_CHARS:]


def join_header(rows: list[list[str]], ncols: int, spanning: bool = True) -> list[str]:
    """One text per column from one or more header rows (top to bottom). An empty cell of
    an upper row right of a filled one, under which a lower row has text, is a spanning
    cell's continuation and takes its text ("Throughput | |" over "per user | per GPU");
    not when the rows are one header wrapped over lines (``spanning=False``)."""
    filled: list[list[str]] = []
    for i, cells in enumerate(rows):
        cells = list(cells) + [""] * (ncols - len(cells))
        if spanning and i < len(rows) - 1:
            last = ""
            for j in range(ncols):
                if cells[j]:
                    last = cells[j]
                elif last and any(j < len(r) and r[j] for r in rows[i + 1:]):
                    cells[j] = last
                else:
                    last = ""
        filled.append(cells)
    return [" ".join(c[j] for c in filled if j < len(c) and c[j]) for j in range(ncols)]


# ---------------------------------------------------------------------- pipe tables
def _line_spans(text: str, start: int, end: int):
    m = _ROW_FIRST.match(text, start, end) if start == 0 or text[start - 1] == "\n" else None
    if m:
        yield m.span()
    for m in _ROW_REST.finditer(text, start, end):
        yield m.span(1)


def pipe_cells(text: str, s: int, e: int) -> list[Cell]:
    """The cells of the pipe row ``text[s:e]``, trimmed, with their columns."""
    line = text[s:e]
    cells = []
    positions = [m.start() for m in _PIPE_RE.finditer(line)]
    if not positions:
        return cells
    if line[: positions[0]].strip():
        positions.insert(0, -1)
    ends = positions[1:] + ([len(line)] if line.rstrip()[-1:] != "|" else [])
    for col, (a, b) in enumerate(zip(positions, ends)):
        cs, ce = trimmed(line, a + 1, b)
        cells.append(Cell(s + cs, s + ce, col, line[cs:ce]))
    return cells


def _texts(cells: list[Cell]) -> list[str]:
    return [clean(c.text) for c in cells]


def pipe_tables(text: str, start: int = 0, end: int | None = None, wrapped: bool = False) -> list[Table]:
    """Every pipe table in ``text[start:end]``. ``wrapped``: the table was drawn by a
    terminal tool that wraps long cells over lines (``box_tables``): lines of header
    above the separator are one header, and a body line without a number and with an
    empty cell goes on the row above (its cells join that row's, each with its span)."""
    end = len(text) if end is None else end
    lines = list(_line_spans(text, start, end))
    tables: list[Table] = []
    i = 0
    n = len(lines)
    floor = 0   # lines before this belong to the table above
    while i < n - 1:
        hs, he = lines[i]
        ss, se = lines[i + 1]
        if text[he:ss].strip() or not _SEP_RE.match(text[ss:se]):
            i += 1
            continue
        head_lines = [(hs, he)]
        j = i + 2
        # more header rows, each with its own separator (converters of HTML tables)
        while (j + 1 < n and len(head_lines) < MAX_HEADER_ROWS and not text[lines[j - 1][1]:lines[j][0]].strip()
               and not text[lines[j][1]:lines[j + 1][0]].strip() and _SEP_RE.match(text[lines[j + 1][0]:lines[j + 1][1]])
               and not _SEP_RE.match(text[lines[j][0]:lines[j][1]])):
            head_lines.append(lines[j])
            j += 2
        if wrapped:
            k = i
            while (k > floor and len(head_lines) < MAX_HEADER_ROWS and not text[lines[k - 1][1]:lines[k][0]].strip()
                   and not _SEP_RE.match(text[lines[k - 1][0]:lines[k - 1][1]])):
                k -= 1
                head_lines.insert(0, lines[k])
            hs = head_lines[0][0]
        header_rows = [Row(a, b, pipe_cells(text, a, b)) for a, b in head_lines]
        caption = ""
        # a first "header" row with one filled cell above another header row is a caption
        if len(header_rows) > 1:
            filled = [c for c in header_rows[0].cells if clean(c.text)]
            if len(filled) == 1 and filled[0].col == 0:
                caption = clean(filled[0].text)
                header_rows = header_rows[1:]
        prev_end = lines[j - 1][1]
        # a second header row below the separator: first cell empty, no digits
        while (j < n and len(header_rows) < MAX_HEADER_ROWS and not text[prev_end:lines[j][0]].strip()):
            cells = pipe_cells(text, *lines[j])
            texts = _texts(cells)
            # ... and blank where the next row has its label ("| | per user |" over "| vLLM | 45 |",
            # not "| | Architecture | MoE |" over "| | Params | 21B |")
            nxt = _texts(pipe_cells(text, *lines[j + 1])) if j + 1 < n else []
            label_at = next((k for k, x in enumerate(nxt) if x), 0)
            if (len(texts) > 1 and not texts[0] and any(texts) and not _DIGIT_RE.search("".join(texts))
                    and (label_at >= len(texts) or not texts[label_at]) and "-" not in texts
                    and j + 1 < n and not text[lines[j][1]:lines[j + 1][0]].strip()):
                header_rows.append(Row(lines[j][0], lines[j][1], cells))
                prev_end = lines[j][1]
                j += 1
            else:
                break
        ncols = max(len(r.cells) for r in header_rows)
        header = join_header([_texts(r.cells) for r in header_rows], ncols, spanning=not wrapped)
        table = Table(start=hs, end=prev_end, header=header, header_rows=header_rows,
                      caption=caption or caption_above(text, hs), context=context_before(text, hs),
                      source="pipe")
        section = None
        while j < n and not text[prev_end:lines[j][0]].strip():
            rs, re_ = lines[j]
            if _SEP_RE.match(text[rs:re_]):
                prev_end = re_
                j += 1
                continue
            cells = pipe_cells(text, rs, re_)
            filled = [c for c in cells if clean(c.text)]
            if (wrapped and table.rows and filled and len(filled) < len(cells)
                    and not _DIGIT_RE.search(text, rs, re_)):
                table.rows[-1].cells.extend(filled)   # a wrapped row's next line
                table.rows[-1].end = re_
            elif len(filled) == 1 and len(header) > 2 and filled[0].col == 0:
                section = clean(filled[0].text)
            else:
                table.rows.append(Row(rs, re_, cells, section))
            table.end = re_
            prev_end = re_
            j += 1
        tables.append(table)
        i = floor = j
    return tables


# GitHub's tables may leave out the outer pipes: "MODEL | TYPE | TTFT (ms)" over "-- | -- | --"
_BARE_SEP_RE = re.compile(r"(?m)^[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)+$")


def bare_pipe_tables(text: str) -> list[Table]:
    """Pipe tables written without outer pipes: a header line with pipes, a separator of
    dashes and pipes under it, then rows with pipes up to a blank line."""
    tables = []
    for m in _BARE_SEP_RE.finditer(text):
        hs = text.rfind("\n", 0, max(0, m.start() - 1)) + 1
        he = m.start() - 1
        if he <= hs or "|" not in text[hs:he] or text[hs:he].lstrip().startswith("|"):
            continue
        header_row = Row(hs, he, pipe_cells(text, hs, he))
        ncols = len(header_row.cells)
        table = Table(start=hs, end=m.end(), header=join_header([_texts(header_row.cells)], ncols),
                      header_rows=[header_row], caption=caption_above(text, hs),
                      context=context_before(text, hs), source="pipe")
        pos = m.end() + 1
        while pos < len(text):
            le = text.find("\n", pos)
            le = len(text) if le < 0 else le
            if not text[pos:le].strip() or "|" not in text[pos:le]:
                break
            table.rows.append(Row(pos, le, pipe_cells(text, pos, le)))
            table.end = le
            pos = le + 1
        if table.rows:
            tables.append(table)
    return tables


# ---------------------------------------------------------------------- whitespace tables
def _split_ws(line: str) -> list[tuple[int, int]]:
    """(start, end) of the pieces of ``line`` between gaps of 2+ spaces or tabs."""
    out, pos = [], 0
    for m in _GAP_RE.finditer(line):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(line.rstrip()):
        out.append((pos, len(line.rstrip())))
    # leading indentation is no column
    return [(a, b) for a, b in out if line[a:b].strip()]


def _columns(lines: list[list[tuple[int, int, float, float]]]) -> list[tuple[float, float]] | None:
    """Columns shared by a block of lines: the pieces' horizontal extents (x0, x1), merged
    where they overlap on any line, so a column is a stretch no gap crosses. None when
    fewer than two columns."""
    spans = sorted((x0, x1) for line in lines for _, _, x0, x1 in line)
    cols: list[list[float]] = []
    for x0, x1 in spans:
        if cols and x0 < cols[-1][1]:
            cols[-1][1] = max(cols[-1][1], x1)
        else:
            cols.append([x0, x1])
    return [(a, b) for a, b in cols] if len(cols) >= 2 else None


def _edge_prose(text: str, pieces: list[list[tuple[int, int, float, float]]]) -> list[list]:
    """The pieces without a first or last column of prose (a page's other text column
    beside a table: long runs of words on most lines)."""
    cols = _columns(pieces)
    if cols is None:
        return pieces
    for edge in (cols[0], cols[-1]):
        inside = [p for line in pieces for p in line if edge[0] <= p[2] < edge[1]]
        long = sum(1 for s, e, _, _ in inside if e - s > 30)
        if inside and long * 2 >= len(pieces):
            pieces = [[p for p in line if not edge[0] <= p[2] < edge[1]] for line in pieces]
    return pieces


def aligned_table(text: str, rows_spans: list[tuple[int, int]],
                  pieces: list[list[tuple[int, int, float, float]]], page: int | None,
                  source: str) -> Table | None:
    """A table from lines cut into pieces at wide gaps: ``pieces[i]`` holds (start, end,
    x0, x1) of line ``i``, offsets into ``text`` and horizontal extents (character columns
    of plain text, points of a PDF page). The first line is the header."""
    pieces = _edge_prose(text, pieces)
    keep = [i for i, line in enumerate(pieces) if line]
    if len(keep) < 3:
        return None
    rows_spans = [(min(p[0] for p in pieces[i]), max(p[1] for p in pieces[i])) for i in keep]
    pieces = [pieces[i] for i in keep]
    cols = _columns(pieces)
    if cols is None:
        return None
    rows: list[Row] = []
    for (a, b), line in zip(rows_spans, pieces):
        by_col: dict[int, list[tuple[int, int]]] = {}
        k = 0
        for s, e, x0, _ in line:
            while k < len(cols) - 1 and x0 >= cols[k][1]:
                k += 1
            by_col.setdefault(k, []).append((s, e))
        cells = [Cell(ps[0][0], ps[-1][1], col, text[ps[0][0]:ps[-1][1]], page) for col, ps in sorted(by_col.items())]
        rows.append(Row(a, b, cells))
    head = rows[0]
    head_texts = [c.text for c in head.cells]
    if len(head.cells) < 2 or any(_NUMBER_RE.fullmatch(t) for t in head_texts) or not _LETTER_RE.search(" ".join(head_texts)):
        return None
    data = rows[1:]
    if sum(1 for r in data if any(_NUMBER_RE.fullmatch(c.text) or _UNIT_CELL_RE.fullmatch(c.text) for c in r.cells)) < 2:
        return None
    # cells are short: lines of two prose columns side by side are no table
    lengths = sorted(len(c.text) for r in data for c in r.cells)
    if lengths[len(lengths) // 2] > MAX_MEDIAN_CELL or lengths[-1] > MAX_CELL:
        return None
    # letters or digits one by one ("s n e k o t", "1 2 3 4 0 0"): a chart's axes, no table
    cells = [c for r in rows for c in r.cells]
    if sum(1 for c in cells if _SCATTERED_RE.search(c.text)) * 10 > len(cells):
        return None
    # a second header line: no digits, the first column blank
    header_rows = [head]
    if data and data[0].cells and data[0].cells[0].col != 0 and not any(_DIGIT_RE.search(c.text) for c in data[0].cells):
        header_rows.append(data.pop(0))
    grid = []
    for r in header_rows:
        texts = [""] * len(cols)
        for c in r.cells:
            texts[c.col] = clean(c.text)
        grid.append(texts)
    header = join_header(grid, len(cols))
    start = rows_spans[0][0]
    return Table(start=start, end=rows_spans[-1][1], header=header, rows=data, header_rows=header_rows,
                 caption=caption_above(text, start), context=context_before(text, start),
                 source=source, page=page)


def _ws_block(text: str, spans: list[tuple[int, int]], page: int | None) -> Table | None:
    # cheap refusals first: a header with letters, two rows below it with digits
    if not _LETTER_RE.search(text, *spans[0]) or sum(1 for a, b in spans[1:3] if _DIGIT_RE.search(text, a, b)) < 1:
        return None
    pieces = [[(a + s, a + e, float(s), float(e)) for s, e in _split_ws(text[a:b])] for a, b in spans]
    return aligned_table(text, spans, pieces, page, "whitespace")


def whitespace_tables(text: str, start: int = 0, end: int | None = None, page: int | None = None,
                      skip: list[tuple[int, int]] | None = None) -> list[Table]:
    """Whitespace-aligned tables in ``text[start:end]``, outside the ``skip`` spans."""
    end = len(text) if end is None else end
    skip = skip or []
    tables: list[Table] = []
    block: list[tuple[int, int]] = []

    def flush() -> None:
        if len(block) >= 3:
            t = _ws_block(text, block, page)
            if t is not None:
                tables.append(t)
        block.clear()

    si = 0
    prev_end = -2
    for ls, le in _lines_with(text, ("  ", "\t"), start, end):
        while si < len(skip) and skip[si][1] <= ls:
            si += 1
        if si < len(skip) and skip[si][0] < le and ls < skip[si][1]:
            continue
        line = text[ls:le].strip()
        if line.startswith(("|", "```")) or not _INNER_GAP_RE.search(line):
            continue
        if ls != prev_end + 1:   # a line between: the block ends
            flush()
        block.append((ls, le))
        prev_end = le
    flush()
    return tables


def _lines_with(text: str, needles: tuple[str, ...], start: int, end: int):
    """(start, end) of each line of ``text[start:end]`` holding one of ``needles``, in
    order; lines without them are skipped by ``str.find``, in C (each needle's next
    place is looked up again only once passed, so the text is read once per needle)."""
    nxt = {x: text.find(x, start, end) for x in needles}
    pos = start
    while pos < end:
        for x, k in list(nxt.items()):
            if 0 <= k < pos:
                nxt[x] = text.find(x, pos, end)
        hits = [k for k in nxt.values() if k >= 0]
        if not hits:
            return
        k = min(hits)
        ls = max(text.rfind("\n", start, k) + 1, start)
        le = text.find("\n", k, end)
        le = end if le < 0 else le
        yield ls, le
        pos = le + 1


_INNER_GAP_RE = re.compile(r"\S(?: {2,}|\t)[ \t]*\S")


# ---------------------------------------------------------------------- HTML source tables
_TABLE_RE = re.compile(r"<table\b[^>]*>(.*?)</table\s*>", re.S | re.I)
_THEAD_RE = re.compile(r"<thead\b[^>]*>.*?</thead\s*>", re.S | re.I)
_TR_RE = re.compile(r"<tr\b[^>]*>(.*?)(?=</tr\s*>|<tr\b|$)", re.S | re.I)
_CELL_RE = re.compile(r"<(td|th)\b([^>]*)>(.*?)(?=</t[dh]\s*>|<t[dh]\b|$)", re.S | re.I)
_COLSPAN_RE = re.compile(r"colspan\s*=\s*[\"']?(\d+)", re.I)
_ROWSPAN_RE = re.compile(r"rowspan\s*=\s*[\"']?(\d+)", re.I)
_LEAD_TAG_RE = re.compile(r"\s*(?:<[^>]*>\s*)*")
_TRAIL_TAG_RE = re.compile(r"(?:\s*<[^>]*>)*\s*$")
_SCATTERED_RE = re.compile(r"(?:^|\s)\S(?:\s\S){3,}(?:\s|$)")
# a cell holding a list, a paragraph, a nested table or a code block (a fence, ``<pre>``)
_BLOCK_TAG_RE = re.compile(r"<(?:li|ul|ol|p|div|table|h\d|pre)\b|^[ \t]*(?:```|~~~)", re.I | re.M)
MAX_SOURCE_TABLE = 200_000   # characters of one HTML table read at most


def _source_table_spans(text: str):
    """``<table ...>...</table>`` matches, found from each closing tag back to its opening
    one (a text of many unclosed tables costs one pass, not one per table)."""
    lower = text.lower() if ("<T" in text or "</T" in text) else text
    pos = 0
    while True:
        close = lower.find("</table", pos)
        if close < 0:
            return
        open_ = lower.rfind("<table", pos, close)
        end = lower.find(">", close)
        if end < 0:
            return
        if open_ >= 0:
            m = _TABLE_RE.match(text, open_, end + 1)
            if m:
                yield m
        pos = end + 1


def html_source_tables(text: str) -> list[Table]:
    """``<table>`` elements written into a Markdown or text file as HTML source (READMEs
    do this): each cell's span is its text between the tags around it."""
    out: list[Table] = []
    for m in _source_table_spans(text):
        if m.end() - m.start() > MAX_SOURCE_TABLE:
            continue
        heads = [h.span() for h in _THEAD_RE.finditer(text, m.start(1), m.end(1))]
        rows: list[tuple[bool, Row]] = []
        below: dict[int, int] = {}   # column -> rows a cell above still spans (rowspan)
        for tr in _TR_RE.finditer(text, m.start(1), m.end(1)):
            cells, col, all_th = [], 0, True
            taken = {k for k, n in below.items() if n > 0}
            for cm in _CELL_RE.finditer(text, tr.start(1), tr.end(1)):
                while col in taken:
                    col += 1   # under a cell of a row above that spans this one
                all_th = all_th and cm.group(1).lower() == "th"
                span = _COLSPAN_RE.search(cm.group(2))
                width = max(1, min(int(span.group(1)), 50)) if span else 1
                down = _ROWSPAN_RE.search(cm.group(2))
                if down and int(down.group(1)) > 1:
                    for k in range(col, col + width):
                        below[k] = min(int(down.group(1)), 1000)
                a, b = cm.span(3)
                a = _LEAD_TAG_RE.match(text, a, b).end()
                b = a + len(_TRAIL_TAG_RE.sub("", text[a:b]))
                if b > a:
                    cells.append(Cell(a, b, col, text[a:b]))
                col += width
            below = {k: n - 1 for k, n in below.items() if n > 1}
            if cells:
                in_head = any(hs <= tr.start() < he for hs, he in heads)
                rows.append((in_head or all_th, Row(tr.start(), tr.end(), cells)))
        # a layout table (lists, paragraphs or code blocks in its cells) holds prose or
        # printed output, not data: the readers of those read its cells' text
        if len(rows) < 2 or any(_BLOCK_TAG_RE.search(c.text) for _, r in rows for c in r.cells):
            continue
        header_rows = [r for h, r in rows if h] or [rows[0][1]]
        data = [r for h, r in rows if not h] if any(h for h, _ in rows) else [r for _, r in rows[1:]]
        ncols = max(c.col + 1 for _, r in rows for c in r.cells)
        grid = []
        for r in header_rows:
            line = [""] * ncols
            for c in r.cells:
                line[c.col] = clean(" ".join(c.text.split()))
            grid.append(line)
        out.append(Table(start=m.start(), end=m.end(), header=join_header(grid, ncols), rows=data,
                         header_rows=header_rows, caption=caption_above(text, m.start()),
                         context=context_before(text, m.start()), source="html-source"))
    return out


# ---------------------------------------------------------------------- key: value blocks
# a printed label starts with a letter, or with a percentile ("99% percentile latency",
# "99.90 percentile latency (ns)", as vLLM's latency benchmark and MLPerf print them)
KV_KEY_START = r"(?:[A-Za-z]|\d{1,2}(?:\.\d{1,2})?(?:th|%)?[ \t]+(?=[A-Za-z]))"
_KV_BODY = (r"(?P<line>[ \t]*(?P<key>" + KV_KEY_START + r"[^:\n|]{1,80}?)[ \t]*:[ \t]+"
            r"(?P<value>[~<>]?\d[\d,]*(?:\.\d+)?(?:[ \t]*[A-Za-z%/]{1,10})?)[ \t]*)(?=\n|$)")
_KV_LINE_RE = re.compile(_KV_BODY)
# a line of the same printout whose value is words ("Backend:  sglang-oai", "Max request
# concurrency:  not set", "Model:  Llama-3.1-8B"): part of the block, never one of its figures
_KV_WORDS_RE = re.compile(r"(?P<line>[ \t]*(?P<key>" + KV_KEY_START + r"[^:\n|]{1,80}?)[ \t]*:[ \t]+"
                          r"(?P<value>[A-Za-z][^\n]{0,59}?)[ \t]*)(?=\n|$)")
MAX_KV_WORDS = 6   # a longer value after a colon is a sentence, not a printed setting
MIN_KV_LINES = 3


def _kv_caption(text: str, start: int) -> str:
    """A printout's banner just above the block ("===== Serving Benchmark Result =====")
    is its caption; else the line above, as for any table."""
    above = text[max(0, start - 400):start].rstrip("\n").rsplit("\n", 1)[-1]
    title = _RULE_TITLE_RE.fullmatch(above.strip())
    if title:
        return title.group(1).strip()
    # under a drawn table the lines above are that table's, no caption of these
    return "" if _BOX_EDGE_RE.fullmatch(above) else caption_above(text, start)


def _kv_needed(text: str, start: int) -> int:
    """How many lines with a figure make a block: three, or one right under a drawn
    table, where the tool goes on printing its results ("Request throughput (per sec):
    6.38" under GenAI-Perf's table)."""
    above = text.rfind("\n", 0, max(0, start - 1)) + 1
    return 1 if start and _BOX_EDGE_RE.fullmatch(text, above, start - 1) else MIN_KV_LINES


def keyvalue_tables(text: str, skip: list[tuple[int, int]] | None = None) -> list[Table]:
    """Blocks of three or more consecutive "Metric (unit):   value" lines, as benchmark
    tools print their results: a table of one value column whose row labels name the
    metric (the extractor reads it on its side, like any transposed table). Lines of the
    same printout whose value is words ("Backend: sglang-oai") keep the block whole and are
    rows too (a setting "not set" is no condition); they do not count towards the three."""
    skip = skip or []
    tables: list[Table] = []
    block: list[tuple[re.Match, bool]] = []   # (line, has a number)
    sections: dict[int, str] = {}   # line start -> the rule's title above it

    def flush() -> None:
        while block and not block[-1][1]:   # words after the last figure: no part of it
            block.pop()
        if block and sum(1 for _, numeric in block if numeric) >= _kv_needed(text, block[0][0].start("line")):
            rows = [Row(m.start("line"), m.end("line"), [Cell(m.start("key"), m.end("key"), 0, m.group("key")),
                                                         Cell(m.start("value"), m.end("value"), 1, m.group("value"))],
                        section=sections.get(m.start("line")))
                    for m, _ in block]
            start = block[0][0].start("line")
            tables.append(Table(start=start, end=block[-1][0].end("line"), header=["", ""], rows=rows,
                                caption=_kv_caption(text, start), context=context_before(text, start),
                                source="key-value"))
        block.clear()

    prev_end = -2
    section: str | None = None
    for ls, le in _lines_with(text, (":",), 0, len(text)):
        m = _KV_LINE_RE.match(text, ls, le)
        numeric = m is not None and m.end("line") == le
        if not numeric:
            m = _KV_WORDS_RE.match(text, ls, le)
            if m is not None and len(m.group("value").split()) > MAX_KV_WORDS:
                m = None
        if m is None or m.end("line") != le or any(s < le and ls < e for s, e in skip):
            continue
        if ls != prev_end + 1:
            # rules between groups ("----- Time to First Token -----") keep one block;
            # the rule's title is the section of the lines under it
            gap = _RULES_RE.fullmatch(text, prev_end + 1, ls) if block else None
            if gap is None:
                flush()
                section = None
            else:
                titles = [t.strip() for t in _RULE_TITLE_RE.findall(gap.group(0)) if t.strip()]
                section = titles[-1] if titles else section
        if section:
            sections[ls] = section
        block.append((m, numeric))
        prev_end = le
    flush()
    return tables


_RULES_RE = re.compile(r"(?:[ \t]*[-=_*]{3,}[^\n:]{0,60}?[-=_*]{3,}[ \t]*\n)+")
_RULE_TITLE_RE = re.compile(r"[-=_*]{3,}([^\n\-=_*:]{0,60})[-=_*]{3,}")


# Box-drawing tables (rich, tabulate's "fancy_grid", genai-perf, many benchmark printers):
# cell walls and rule lines drawn with Unicode box characters. Each maps to the one ASCII
# character a pipe table uses there, so the text keeps its length and every cell its offsets.
_BOX_WALLS = "│┃║╎╏┆┇┊┋"
_BOX_RULES = "─━═┄┅┈┉╌╍"
_BOX_JOINS = "┌┍┎┏┐┑┒┓└┕┖┗┘┙┚┛├┝┞┟┠┡┢┣┤┥┦┧┨┩┪┫┬┭┮┯┰┱┲┳┴┵┶┷┸┹┺┻┼┽┾┿╀╁╂╃╄╅╆╇╈╉╊╋╒╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡╢╣╤╥╦╧╨╩╪╫╬╭╮╯╰"
_BOX_MAP = str.maketrans({**{c: "|" for c in _BOX_WALLS + _BOX_JOINS}, **{c: "-" for c in _BOX_RULES}})
_BOX_RE = re.compile("[" + _BOX_WALLS + "][^\n]*[" + _BOX_WALLS + "]")
# a top or bottom border ("┏━━┳━━┓", "└──┴──┘", "╭──╮"): in a pipe table's lines it would
# read as a separator, and make the row above it a header
_BOX_EDGE_RE = re.compile("(?m)^[ \t]*[┌┍┎┏╒╓╔╭└┕┖┗╘╙╚╰][" + _BOX_RULES + _BOX_JOINS + "]*[ \t]*$")


def box_tables(text: str) -> list[Table]:
    """Tables drawn with box characters, read as the pipe tables they draw (same offsets):
    walls and joins become pipes, rules dashes, and the top and bottom borders blanks,
    which end the table as the lines around a pipe table do."""
    if not _BOX_RE.search(text):
        return []
    plain = _BOX_EDGE_RE.sub(lambda m: " " * len(m.group(0)), text).translate(_BOX_MAP)
    return _redrawn_tables(text, plain, "box")


def _redrawn_tables(text: str, plain: str, source: str) -> list[Table]:
    """The pipe tables of ``plain``, a copy of ``text`` with a drawing's characters
    rewritten as a pipe table's (same length, so every span holds in ``text``), with their
    caption and context read from ``text``."""
    tables = pipe_tables(plain, wrapped=source == "box")
    for t in tables:
        t.caption = caption_above(text, t.start)
        t.context = context_before(text, t.start)
        t.source = source
    return tables


# ---------------------------------------------------------------------- reStructuredText tables
# A grid table's border ("+-----+-----+", "+=====+=====+" under its header), as
# reStructuredText and pandoc draw them.
_GRID_BORDER_RE = re.compile(r"[ \t]*\+(?:[-=]{2,}\+)+[ \t]*")
_GRID_RULE_RE = re.compile(r"[ \t]*[|+](?:[-=]{2,}[+|])+[ \t]*")
_GRID_LINE_RE = re.compile(r"[ \t]*[|+][^\n]*[|+][ \t]*")
_RULE_PIECE_RE = re.compile(r"[-=+ \t]*")
MAX_RST_TABLE_LINES = 2000


def _lines_of(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line of ``text``, without its newline."""
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def trimmed(text: str, a: int, b: int) -> tuple[int, int]:
    """``(a, b)`` narrowed past the white space at both ends of ``text[a:b]`` (table cells
    here, sentences and paragraphs in ``extract/sentences.py``)."""
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


Piece = tuple[Cell, int]   # a cell of one line, and how many columns it spans


def _rst_table(text: str, groups: list[list[list[Piece]]], n_head: int, ncols: int, start: int,
               end: int, source: str) -> Table | None:
    """A Table from row groups (each a list of lines, each line its cells): the first
    ``n_head`` groups are the header (their lines joined per column, a cell spanning
    columns repeated over them); a body group is one row whose cells are every line's
    pieces, each with its own span ("Qwen-7B" over "-Chat" in one cell is two cells of
    its column). A body row with only its first cell filled, in a table of three or more
    columns, is a section label for the rows under it."""
    if n_head == 0:
        n_head = 1   # no header drawn: the first row names the columns
    head, body = groups[:n_head], groups[n_head:]
    if not body:
        return None
    head_lines = [line for g in head for line in g]
    grid = []
    for line in head_lines:
        cells = [""] * ncols
        for c, span in line:
            for k in range(c.col, min(ncols, c.col + span)):
                cells[k] = clean(c.text)
        grid.append(cells)
    header_rows = [Row(min(c.start for c, _ in line), max(c.end for c, _ in line), [c for c, _ in line])
                   for line in head_lines if line]
    table = Table(start=start, end=end, header=join_header(grid, ncols, spanning=False), header_rows=header_rows,
                  caption=caption_above(text, start), context=context_before(text, start), source=source)
    section = None
    for g in body:
        cells = [c for line in g for c, _ in line if c.text]
        if not cells:
            continue
        if ncols > 2 and all(c.col == 0 for c in cells) and len(g) == 1:
            section = clean(" ".join(c.text for c in cells))
            continue
        table.rows.append(Row(min(c.start for c in cells), max(c.end for c in cells), cells, section))
    return table if table.rows else None


def _grid_line_cells(text: str, ls: int, le: int, bounds: list[int]) -> list[Piece]:
    """The cells of one content line of a grid table: the stretches between walls
    (``|``, or ``+`` where a spanning row's border crosses) at the column boundaries
    ``bounds`` (offsets in the line); a stretch of rule characters is a border piece."""
    walls = [b for b in bounds if ls + b < le and text[ls + b] in "|+"]
    out = []
    for a, b in zip(walls, walls[1:]):
        s, e = trimmed(text, ls + a + 1, ls + b)
        if e > s and _RULE_PIECE_RE.fullmatch(text, s, e) and ("--" in text[s:e] or "==" in text[s:e]):
            continue
        out.append((Cell(s, e, bounds.index(a), text[s:e]), bounds.index(b) - bounds.index(a)))
    return out


def grid_tables(text: str) -> list[Table]:
    """Grid tables (reStructuredText, pandoc): column boundaries are the ``+`` of the
    borders; the lines between two borders are one row (a cell's text may wrap over
    them); the border of ``=`` closes the header (without one, the first row is the
    header); a cell spanning columns is the text between the walls that are there."""
    if not _GRID_BORDER_RE.search(text):
        return []
    lines = _lines_of(text)
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        ls, le = lines[i]
        if not _GRID_BORDER_RE.fullmatch(text, ls, le):
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and j - i < MAX_RST_TABLE_LINES and _GRID_LINE_RE.fullmatch(text, *lines[j + 1]):
            j += 1
        while j > i and not _GRID_BORDER_RE.fullmatch(text, *lines[j]):
            j -= 1   # a table ends on a border
        if j - i < 2:
            i = j + 1
            continue
        indent = len(text[ls:le]) - len(text[ls:le].lstrip())
        # inner rules may be drawn with walls at their ends ("|-----+-----|", as tabulate's
        # "psql" format writes the one under its header)
        borders = [k for k in range(i, j + 1) if _GRID_RULE_RE.fullmatch(text, *lines[k])]
        bounds = sorted({m.start() for k in borders for m in re.finditer(r"\+", text[lines[k][0]:lines[k][1]])})
        bounds = [b for b in bounds if b >= indent]
        eq = next((n for n, k in enumerate(borders) if "=" in text[lines[k][0]:lines[k][1]]), None)
        groups: list[list[list[Piece]]] = []
        for n, (a, b) in enumerate(zip(borders, borders[1:])):
            for k in range(a + 1, b):
                cells = _grid_line_cells(text, *lines[k], bounds)
                filled = {c.col for c, _ in cells if c.text}
                # in the body, a line with its first cell and another filled starts a row
                # (tables drawn with no border between rows); other lines go on with it
                if k == a + 1 or n < (eq or 1) or not (0 in filled and len(filled) > 1):
                    if k == a + 1:
                        groups.append([])
                    groups[-1].append(cells)
                else:
                    groups.append([cells])
        table = _rst_table(text, groups, eq or 0, len(bounds) - 1, ls + indent, lines[j][1], "grid")
        if table is not None:
            tables.append(table)
        i = j + 1
    return tables


# A simple table's rule: two or more columns of "=" ("=====  ======"); "-" rules under a
# header cell say which columns it spans
_SIMPLE_RULE_RE = re.compile(r"[ \t]*=+(?:[ \t]+=+)+[ \t]*")
_SPAN_RULE_RE = re.compile(r"[ \t]*-+(?:[ \t]+-+)*[ \t]*")
_RUN_RE = re.compile(r"=+|-+")
_RULE_GAP_RE = re.compile(r"==[ \t]+==")


def _simple_line_cells(text: str, ls: int, le: int, cols: list[tuple[int, int]]) -> list[Piece]:
    """The cells of one line of a simple table: each column's stretch runs from its
    rule's first character to the next column's (the last to the line's end)."""
    out = []
    for k, (a, _) in enumerate(cols):
        b = cols[k + 1][0] if k + 1 < len(cols) else le - ls
        s, e = trimmed(text, min(le, ls + a), min(le, ls + b))
        if e > s:
            out.append((Cell(s, e, k, text[s:e]), 1))
    return out


def simple_tables(text: str) -> list[Table]:
    """reStructuredText simple tables: a rule of "=" columns above and below the header
    and at the end; each column runs from its rule's first "=" up to the next column's
    (so a header or cell may hold single spaces: "Num. GPU"); a body line whose first
    column is blank goes on with the row above (its pieces are cells of their columns);
    a "-" rule under a header line spans that line's cells over the columns it covers;
    blank lines in the body separate nothing."""
    if not _RULE_GAP_RE.search(text):
        return []
    lines = _lines_of(text)
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        ls, le = lines[i]
        if not _SIMPLE_RULE_RE.fullmatch(text, ls, le):
            i += 1
            continue
        layout = [(m.start(), m.end()) for m in _RUN_RE.finditer(text, ls, le)]
        cols = [(a - ls, b - ls) for a, b in layout]
        same = lambda k: _SIMPLE_RULE_RE.fullmatch(text, *lines[k]) and \
            [(m.start() - lines[k][0]) for m in _RUN_RE.finditer(text, *lines[k])] == [a for a, _ in cols]  # noqa: E731
        rules = [i]
        k = i + 1
        while k < len(lines) and k - i < MAX_RST_TABLE_LINES:
            ks, ke = lines[k]
            if same(k):
                rules.append(k)
                if k + 1 >= len(lines) or not text[lines[k + 1][0]:lines[k + 1][1]].strip():
                    break   # a rule followed by a blank line ends the table
            elif _SIMPLE_RULE_RE.fullmatch(text, ks, ke):
                break       # another table's rule
            elif text[ks:ke].strip() and text[ks:ks + cols[0][0]].strip():
                break       # text left of the table's first column: prose
            k += 1
        if len(rules) < 2 or rules[-1] == i + 1:
            i = max(k, i + 1)
            continue
        heads = 1 if len(rules) >= 3 else 0
        groups: list[list[list[Piece]]] = []
        if heads:
            head: list[list[Piece]] = []
            for n in range(rules[0] + 1, rules[1]):
                ns, ne = lines[n]
                if _SPAN_RULE_RE.fullmatch(text, ns, ne) and head:
                    # "-----  -----" under a header line: each run spans the columns it covers
                    runs = [(m.start() - ns, m.end() - ns) for m in _RUN_RE.finditer(text, ns, ne)]
                    spanned = []
                    for c, _ in head[-1]:
                        a = cols[c.col][0]
                        run = next(((x, y) for x, y in runs if x <= a < y), None)
                        spanned.append((c, sum(1 for x, _ in cols if run and run[0] <= x < run[1]) or 1))
                    head[-1] = spanned
                    continue
                if text[ns:ne].strip():
                    head.append(_simple_line_cells(text, ns, ne, cols))
            groups.append(head)
        body_from = rules[1] if heads else rules[0]
        for n in range(body_from + 1, rules[-1]):
            ns, ne = lines[n]
            if not text[ns:ne].strip() or _SIMPLE_RULE_RE.fullmatch(text, ns, ne) or _SPAN_RULE_RE.fullmatch(text, ns, ne):
                continue
            cells = _simple_line_cells(text, ns, ne, cols)
            if groups[heads:] and cells and cells[0][0].col > 0:
                groups[-1].append(cells)    # first column blank: the row above goes on
            else:
                groups.append([cells])
        table = _rst_table(text, groups, heads, len(cols), ls + cols[0][0], lines[rules[-1]][1], "rst-simple")
        if table is not None:
            tables.append(table)
        i = rules[-1] + 1
    return tables


def text_tables(text: str) -> list[Table]:
    """Pipe tables, box-drawn tables, HTML source tables and whitespace tables of a plain
    or Markdown text, in text order."""
    tables = pipe_tables(text) if "|" in text else []
    if "│" in text or "┃" in text or "║" in text:
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in box_tables(text) if not any(s < t.end and t.start < e for s, e in taken)]
    if "-+" in text:
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in grid_tables(text) if not any(s < t.end and t.start < e for s, e in taken)]
    if "==" in text:
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in simple_tables(text) if not any(s < t.end and t.start < e for s, e in taken)]
    if "|" in text and "--" in text:
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in bare_pipe_tables(text) if not any(s < t.end and t.start < e for s, e in taken)]
    if "<t" in text or "<T" in text:
        taken = [(t.start, t.end) for t in tables]
        tables += [t for t in html_source_tables(text) if not any(s < t.end and t.start < e for s, e in taken)]
    # "Metric (unit):   value" lines before aligned columns: their gap of spaces makes
    # them look like a two-column table whose first line is a header
    if ":" in text:
        tables += keyvalue_tables(text, skip=sorted((t.start, t.end) for t in tables))
    if "  " in text or "\t" in text:
        tables += whitespace_tables(text, skip=sorted((t.start, t.end) for t in tables))
    return with_unit_lines(text, sorted(tables, key=lambda t: t.start))
