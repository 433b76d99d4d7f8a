"""Query results as text: an aligned table, Markdown, CSV, JSON, JSON lines.

`claims sql` and `claims export` print through these, so a number reads the same in every
format: as written, never in exponent form (a user reading 1094347 should not get
1.09435e+06, nor 3e+12 for 3,000,000,000,000), and a whole float without its ``.0``.
A table cuts no cell unless asked (``max_width``): a cut value is a wrong value to copy.
"""
from __future__ import annotations

import csv
import datetime as dt
import decimal
import json
import math
import re
from typing import IO, Any, Iterable, Sequence


_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """``text`` fit to reach a terminal: C0 and C1 control characters (ESC, BEL, CR, CSI
    ...), DEL and the bidirectional overrides are shown as ``\\xNN`` / ``\\uNNNN``
    instead of being sent raw (a file name or a document could otherwise retitle the
    window, move the cursor or hide what is printed); newlines and tabs stay."""
    return _CONTROLS.sub(lambda m: (f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                                    else f"\\u{ord(m.group()):04x}"), text)


def plain_number(value: float | decimal.Decimal) -> str:
    """A number in positional notation with the digits Python's repr chose (the shortest
    that read back as the same float): 1094347.0 -> '1094347', 3e12 -> '3000000000000',
    1e-07 -> '0.0000001'; nan and infinities as DuckDB spells them."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value == 0:
            return "-0" if math.copysign(1.0, value) < 0 else "0"
        exact = decimal.Decimal(repr(value))
    else:
        exact = value
    text = format(exact, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def json_default(value: Any) -> Any:
    """What json.dumps cannot write by itself: dates as ISO, decimals as numbers, bytes as hex."""
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


def scalar(value: Any) -> str:
    """One value as text for a table, Markdown or CSV cell ('' for NULL is the caller's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (float, decimal.Decimal)):
        return plain_number(value)
    if isinstance(value, (list, dict, tuple)):
        return json.dumps(value, default=json_default, ensure_ascii=False)
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    return str(value)


def _cell(value: Any, width: int | None) -> str:
    if value is None:
        return "NULL"
    text = " ".join(scalar(value).split())
    if width is not None and len(text) > width:
        return text[: max(1, width - 1)] + "…"
    return text


def _numeric(rows: Sequence[tuple], i: int) -> bool:
    values = [r[i] for r in rows if r[i] is not None]
    return bool(values) and all(isinstance(v, (int, float, decimal.Decimal))
                                and not isinstance(v, bool) for v in values)


PLAN_COLUMNS = ("explain_key", "explain_value")


def render_plan(rows: Sequence[tuple]) -> str:
    """An EXPLAIN result as DuckDB draws it: each plan's text as it is, its lines kept (a
    table cell joins them into one line of box-drawing characters nobody can read)."""
    return "".join(f"{key}:\n{value.rstrip()}\n" for key, value in rows)


def render_table(columns: Sequence[str], rows: Sequence[tuple], max_width: int | None = None) -> str:
    """Plain aligned text table: numbers right-aligned; cells cut only at ``max_width``;
    an EXPLAIN result is its plans' text (``render_plan``)."""
    if tuple(columns) == PLAN_COLUMNS and all(isinstance(r[1], str) for r in rows):
        return render_plan(rows)
    cells = [[_cell(v, max_width) for v in row] for row in rows]
    numeric = [_numeric(rows, i) for i in range(len(columns))]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]

    def line(values: list[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)]
        return "  ".join(parts).rstrip()

    out = [line(list(columns)), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out) + "\n"


def render_markdown(columns: Sequence[str], rows: Iterable[tuple], max_width: int | None = None) -> str:
    """A GitHub-flavoured Markdown table (pipes and newlines in cells escaped)."""
    def esc(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|")

    rows = list(rows)
    if tuple(columns) == PLAN_COLUMNS and all(isinstance(r[1], str) for r in rows):
        return "".join(f"{key}:\n\n```\n{value.rstrip()}\n```\n" for key, value in rows)
    numeric = [_numeric(rows, i) for i in range(len(columns))]
    out = ["| " + " | ".join(esc(c) for c in columns) + " |",
           "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    for row in rows:
        out.append("| " + " | ".join(esc("" if v is None else _cell(v, max_width))
                                     for v in row) + " |")
    return "\n".join(out) + "\n"


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """One CSV cell. Text starting with ``= + - @`` (or a tab or carriage return) gets a
    leading single quote, so a spreadsheet opening the file shows it as text rather than
    running it as a formula (``=HYPERLINK(...)``, ``=cmd|' /C calc'!A0``: CSV injection);
    numbers are written as they are (``-5`` stays a number)."""
    if value is None:
        return ""
    text = scalar(value)
    if isinstance(value, str) and text.startswith(FORMULA_START):
        return "'" + text
    return text


def write_csv(fh: IO[str], columns: Sequence[str], rows: Iterable[tuple], delimiter: str = ",") -> None:
    """CSV with a header row; text cells that a spreadsheet would run as a formula are
    neutralised (``csv_cell``)."""
    writer = csv.writer(fh, lineterminator="\n", delimiter=delimiter)
    writer.writerow([csv_cell(c) for c in columns])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])


def write_json(fh: IO[str], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """A JSON array of objects, written a row at a time (the rows may be a stream), laid
    out as ``json.dump(..., indent=1)`` lays out the whole list."""
    first = True
    for row in rows:
        item = json.dumps([dict(zip(columns, row))], default=json_default, ensure_ascii=False,
                          indent=1)[2:-2]
        fh.write(("[\n" if first else ",\n") + item)
        first = False
    fh.write("[]\n" if first else "\n]\n")


def write_jsonl(fh: IO[str], columns: Sequence[str], rows: Iterable[tuple]) -> None:
    for row in rows:
        fh.write(json.dumps(dict(zip(columns, row)), default=json_default, ensure_ascii=False) + "\n")


def fetch_batches(cur, size: int = 2000) -> Iterable[tuple]:
    """The rows of a DuckDB cursor, fetched ``size`` at a time (memory bounded by a batch)."""
    while True:
        chunk = cur.fetchmany(size)
        if not chunk:
            return
        yield from chunk


def write_records(fh: IO[str], cur, fmt: str) -> None:
    """A query's rows as CSV (``fmt`` "csv") or JSON lines, streamed in batches. `claims
    export` and the export links of `claims serve` both write through this, so a filter's
    file has the same bytes either way; a JSON column (DuckDB type JSON, e.g. a document's
    ``meta``) is an object in a JSON line, not a string holding one."""
    columns = [d[0] for d in cur.description]
    rows = fetch_batches(cur)
    if fmt == "csv":
        write_csv(fh, columns, rows)
        return
    json_cols = {i for i, d in enumerate(cur.description) if str(d[1]).upper() == "JSON"}
    for row in rows:
        obj = {c: (json.loads(v) if i in json_cols and isinstance(v, str) else v)
               for i, (c, v) in enumerate(zip(columns, row))}
        fh.write(json.dumps(obj, default=json_default, ensure_ascii=False) + "\n")
