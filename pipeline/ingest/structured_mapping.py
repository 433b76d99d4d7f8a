"""A user's own results (any CSV or JSON of rows) read through a mapping file (TOML).

Trackers each have a reader; everyone else's benchmark sweep is a CSV or JSON whose
columns only its author can name. A mapping file says which column is the model, the
hardware, its count, the engine, the precision, the settings (ISL, OSL, concurrency,
batch size, parallelism), and which columns hold figures, with each one's unit, scope,
statistic, phase and token kind (or the columns holding those, for a long table of
metric / value / unit rows). ``parse`` renders the file as pipe tables whose headers
write the unit and denominator, exactly as the tracker readers do, so the ordinary table
extractor makes the claims. The format is documented in docs/structured.md.

The mapping in force is process-wide (``configure``, from ``claims ingest --mapping``)
and also travels in ``$CLAIMS_MAPPING`` so worker processes read the same one. A mapping
is checked when it is loaded (unknown keys, fields, units, scopes: ``MappingError``);
a file it names columns of that the file lacks is one ``IngestError`` naming them.
"""
from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pipeline.ingest.errors import IngestError
from pipeline.ingest.structured_render import Writer, cell, csv_rows, is_number, strict_json
from pipeline.ingest.text import Parsed

__all__ = ["Mapping", "Value", "MappingError", "load", "configure", "current", "tag",
           "fits", "misfit", "parse", "parse_parquet", "parquet_columns", "PARQUET_MAGIC", "FIELDS", "SCOPES", "STATISTICS", "PHASES", "TOKENS"]

ENV = "CLAIMS_MAPPING"

# field -> the header the rendered table gives its column (the table rules read these)
FIELDS = {"model": "Model", "hardware": "Hardware", "count": "# GPUs", "engine": "Engine",
          "precision": "Precision", "isl": "ISL", "osl": "OSL", "concurrency": "Concurrency",
          "batch": "Batch size", "parallelism": "Parallelism", "date": "Date",
          "provider": "Provider"}
# scope -> the words the header writes after the unit
SCOPES = {"per_gpu": " per GPU", "per_user": " per user", "per_node": " per node",
          "per_system": " per system", "aggregate": " aggregate", "": ""}
STATISTICS = {"median": "median", "mean": "mean", "p50": "p50", "p90": "p90", "p95": "p95",
              "p99": "p99", "max": "max", "": ""}
PHASES = {"ttft": "TTFT", "tpot": "TPOT", "e2e": "E2E", "prefill": "prefill",
          "decode": "decode", "": ""}
TOKENS = {"output": "output", "input": "input", "total": "total", "": ""}
_VALUE_KEYS = {"column", "unit", "unit_column", "scope", "scope_column", "statistic",
               "statistic_column", "phase", "tokens", "label", "metric_column"}
_SOURCE_KEYS = {"title", "publisher", "published", "rows", "delimiter"}
_TOP = {"source", "columns", "fixed", "settings", "value"}
_SCOPE_IN_UNIT = re.compile(r"\s*(?:/|per\s+)\s*(user|request|gpu|node|system)\s*$", re.I)
_SCOPE_WORD = {"user": "per_user", "request": "per_user", "gpu": "per_gpu", "node": "per_node",
               "system": "per_system"}


class MappingError(ValueError):
    """A mapping file that cannot be used; ``str(exc)`` says what to fix."""


@dataclass(frozen=True)
class Value:
    """One column of figures and what they are."""

    column: str
    unit: str = ""
    unit_column: str = ""
    scope: str = ""
    scope_column: str = ""
    statistic: str = ""
    statistic_column: str = ""
    phase: str = ""
    tokens: str = ""
    label: str = ""
    metric_column: str = ""


@dataclass(frozen=True)
class Mapping:
    """A loaded, checked mapping file."""

    path: str
    columns: dict[str, str]                       # field -> column
    values: tuple[Value, ...]
    fixed: dict[str, str] = field(default_factory=dict)   # field -> value for every row
    settings: tuple[str, ...] = ()                # other columns kept as written
    source: dict[str, str] = field(default_factory=dict)

    def needed(self) -> list[str]:
        """Every column the mapping names, in the order written."""
        names = list(self.columns.values()) + list(self.settings)
        for v in self.values:
            names += [c for c in (v.column, v.unit_column, v.scope_column,
                                  v.statistic_column, v.metric_column) if c]
        return list(dict.fromkeys(names))

    def digest(self) -> str:
        blob = json.dumps(asdict(self) | {"path": ""}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


# --- loading and checking --------------------------------------------------------------------

def unit_scope(unit: str) -> tuple[str, str] | None:
    """(unit, scope) when ``unit`` is a unit the extractor reads ("tokens/s", "ms", "W"),
    optionally with a denominator ("tok/s/user", "tokens/s per GPU"); None otherwise."""
    from pipeline.vocab.loader import load as vocab

    u = unit.strip()
    scope = ""
    m = _SCOPE_IN_UNIT.search(u)
    if m and m.start() > 0:
        scope, u = _SCOPE_WORD[m.group(1).lower()], u[:m.start()].strip()
    if not u:
        return None
    found = vocab().match_unit(u, 0, len(u))
    if found is None or found[0].end() != len(u):
        return None
    return u, scope


def _choice(where: str, key: str, value: Any, allowed: dict[str, str]) -> str:
    v = str(value).strip()
    if v.lower() not in allowed:
        raise MappingError(f"{where}: {key} {v!r} is not one of "
                           f"{', '.join(k for k in allowed if k)}")
    return v.lower()


def _text(where: str, key: str, value: Any) -> str:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool) or str(value).strip() == "":
        raise MappingError(f"{where}: {key} must be a column name (text), not {value!r}")
    return str(value).strip()


def load(path: str | Path) -> Mapping:
    """Read and check a mapping file; MappingError says what is wrong and where."""
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MappingError(f"mapping {p}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MappingError(f"mapping {p}: cannot read it ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MappingError(f"mapping {p}: not valid TOML ({exc})") from None
    return from_dict(raw, str(p))


def from_dict(raw: dict[str, Any], path: str) -> Mapping:
    """A checked Mapping from a parsed TOML document (``path`` names it in messages)."""
    where = f"mapping {path}"
    unknown = sorted(set(raw) - _TOP)
    if unknown:
        raise MappingError(f"{where}: unknown section {', '.join(map(repr, unknown))} "
                           f"(sections: [source], [columns], [fixed], settings, [[value]])")
    for key in ("source", "columns", "fixed"):
        if key in raw and not isinstance(raw[key], dict):
            raise MappingError(f"{where}: {key} must be a table ([{key}] with key = value lines)")
    if "value" in raw and not isinstance(raw["value"], (list, dict)):
        raise MappingError(f"{where}: value must be a table ([[value]] with column = ..., unit = ...)")
    columns: dict[str, str] = {}
    given = dict(raw.get("columns") or {})
    if isinstance(given.get("settings"), list):
        # "settings = [...]" written under [columns] belongs to it in TOML: meant the same
        if raw.get("settings"):
            raise MappingError(f"{where}: settings given twice (top level and in [columns])")
        raw = {**raw, "settings": given.pop("settings")}
    for key, col in given.items():
        if key not in FIELDS:
            raise MappingError(f"{where} [columns]: unknown field {key!r} (fields: "
                               f"{', '.join(FIELDS)}; other columns go in settings = [...])")
        columns[key] = _text(f"{where} [columns]", key, col)
    fixed: dict[str, str] = {}
    for key, val in (raw.get("fixed") or {}).items():
        if key not in FIELDS:
            raise MappingError(f"{where} [fixed]: unknown field {key!r} (fields: {', '.join(FIELDS)})")
        if key in columns:
            raise MappingError(f"{where}: {key} is both a column and fixed; keep one")
        fixed[key] = cell(val)
    settings = raw.get("settings") or []
    if not isinstance(settings, list):
        raise MappingError(f"{where}: settings must be a list of column names")
    settings_t = tuple(_text(f"{where} settings", "entry", s) for s in settings)
    source = {}
    for key, val in (raw.get("source") or {}).items():
        if key not in _SOURCE_KEYS:
            raise MappingError(f"{where} [source]: unknown key {key!r} (keys: "
                               f"{', '.join(sorted(_SOURCE_KEYS))})")
        source[key] = str(val)
    if "delimiter" in source and len(source["delimiter"]) != 1:
        raise MappingError(f"{where} [source]: delimiter must be one character")
    entries = raw.get("value")
    if isinstance(entries, dict):
        entries = [entries]
    if not entries:
        raise MappingError(f"{where}: no [[value]] entry: name at least one column of figures "
                           f"(column = \"...\", unit = \"tokens/s\")")
    values = []
    for i, e in enumerate(entries, start=1):
        w = f"{where} [[value]] {i}"
        if not isinstance(e, dict):
            raise MappingError(f"{w}: not a table of keys")
        bad = sorted(set(e) - _VALUE_KEYS)
        if bad:
            raise MappingError(f"{w}: unknown key {', '.join(map(repr, bad))} (keys: "
                               f"{', '.join(sorted(_VALUE_KEYS))})")
        if "column" not in e:
            raise MappingError(f"{w}: no column (the column holding the figures)")
        v = {k: _text(w, k, e[k]) for k in ("column", "unit_column", "scope_column",
                                              "statistic_column", "metric_column") if k in e}
        w = f"{w} (column {v['column']!r})"
        if bool(e.get("unit")) == bool(e.get("unit_column")):
            raise MappingError(f"{w}: give exactly one of unit = \"tokens/s\" or unit_column = "
                               f"\"...\" (the column holding each row's unit)")
        if e.get("unit"):
            read = unit_scope(str(e["unit"]))
            if read is None:
                raise MappingError(f"{w}: unknown unit {e['unit']!r}: use a unit the extractor "
                                   f"reads (tokens/s, requests/s, s, ms, us, ns, W, GB, %, x; "
                                   f"pipeline/vocab/units.toml), with scope = \"per_gpu\" etc. "
                                   f"for the denominator")
            v["unit"] = read[0]
            if read[1] and e.get("scope") and _choice(w, "scope", e["scope"], SCOPES) != read[1]:
                raise MappingError(f"{w}: unit {e['unit']!r} and scope {e['scope']!r} disagree")
            v["scope"] = read[1]
        for key, allowed in (("scope", SCOPES), ("statistic", STATISTICS), ("phase", PHASES),
                             ("tokens", TOKENS)):
            if key in e:
                v[key] = _choice(w, key, e[key], allowed)
        if "label" in e:
            v["label"] = cell(e["label"])
        values.append(Value(**v))
    return Mapping(path=path, columns=columns, values=tuple(values), fixed=fixed,
                   settings=settings_t, source=source)


# --- the mapping in force --------------------------------------------------------------------

_current: Mapping | None = None


def configure(mapping: Mapping | None) -> None:
    """Make ``mapping`` the one in force here and in processes started from now on."""
    global _current
    _current = mapping
    if mapping is None:
        os.environ.pop(ENV, None)
    else:
        os.environ[ENV] = json.dumps(asdict(mapping))


_from_env: tuple[str, Mapping | None] = ("", None)


def current() -> Mapping | None:
    """The mapping in force: ``configure``'s, else ``$CLAIMS_MAPPING``'s, else None."""
    global _from_env
    if _current is not None:
        return _current
    raw = os.environ.get(ENV)
    if not raw:
        return None
    if _from_env[0] != raw:           # decoded once per value, not per file
        try:
            d = json.loads(raw)
            m = Mapping(path=d["path"], columns=d["columns"],
                        values=tuple(Value(**v) for v in d["values"]), fixed=d["fixed"],
                        settings=tuple(d["settings"]), source=d["source"])
        except (ValueError, KeyError, TypeError):
            m = None
        _from_env = (raw, m)
    return _from_env[1]


@contextlib.contextmanager
def using(mapping: Mapping | None) -> Iterator[Mapping | None]:
    """``mapping`` in force inside the block (tests), the previous one restored after."""
    before, env = _current, os.environ.get(ENV)
    configure(mapping)
    try:
        yield mapping
    finally:
        configure(before)
        if before is None and env is not None:
            os.environ[ENV] = env


def tag() -> str:
    """What a stored document read with the mapping in force depends on ('' without
    one): a changed mapping makes files read with it current no longer."""
    m = current()
    return f";mapping={m.digest()}" if m else ""


# --- which files it applies to ---------------------------------------------------------------

def _header(head: str, mapping: Mapping) -> list[str] | None:
    """A CSV head's column names (None for JSON)."""
    body = head.lstrip("\ufeff").lstrip()
    if body[:1] in ("[", "{"):
        return None
    first = body.split("\n", 1)[0].rstrip("\r")
    try:
        return [c.strip() for c in next(csv.reader([first], delimiter=mapping.source.get("delimiter", ",")))]
    except (csv.Error, StopIteration):
        return []


def _missing(head: str, mapping: Mapping) -> list[str]:
    names = _header(head, mapping)
    if names is None:                    # JSON: every key named in the first rows read
        return [c for c in mapping.needed() if f'"{c.split(".")[0]}"' not in head]
    return [c for c in mapping.needed() if c not in names]


def fits(head: str, mapping: Mapping | None = None) -> str:
    """'all' when the file's head has every column the mapping names, 'some' when it has
    a value column but misses others (a result file with a broken column: an error),
    '' when none (another file: not the mapping's)."""
    mapping = mapping or current()
    if mapping is None:
        return ""
    pointer = [p for p in mapping.source.get("rows", "").split("/") if p]
    if pointer and _header(head, mapping) is None and f'"{pointer[0]}"' in head:
        return "all"        # JSON whose rows sit under the pointer: the parse checks them
    missing = _missing(head, mapping)
    if not missing:
        return "all"
    if any(v.column not in missing for v in mapping.values):
        return "some"
    return ""


def misfit(head: str, mapping: Mapping | None = None) -> str:
    """Why the mapping does not apply to a file: the columns it names that the file lacks."""
    mapping = mapping or current()
    if mapping is None:
        return ""
    missing = _missing(head, mapping)
    names = _header(head, mapping)
    shown = f" (its columns: {', '.join(names)[:160]})" if names else ""
    if len(missing) == len(mapping.needed()):
        return f"it has none of the columns the mapping {mapping.path} names{shown}"
    return f"{misfit_for(missing, mapping)}{shown}"


# --- reading rows ----------------------------------------------------------------------------

def _pointer(data: Any, pointer: str) -> Any:
    node = data
    for part in [p for p in pointer.split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise IngestError(f"mapped JSON: the rows pointer {pointer!r} leads nowhere "
                              f"(no {part!r})")
    return node


def _get(row: dict, column: str) -> Any:
    """A row's value for a column: the key itself, else a dotted path into nested objects."""
    if column in row:
        return row[column]
    node: Any = row
    for part in column.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _rows(text: str, mapping: Mapping) -> tuple[list[dict], list[str], list[str]]:
    """(rows, where each is, the columns the file has)."""
    if text.lstrip("\ufeff").lstrip()[:1] in ("[", "{"):
        data = strict_json(text, "mapped JSON")
        pointer = mapping.source.get("rows", "")
        items = _pointer(data, pointer) if pointer else data
        if isinstance(items, dict):
            lists = [k for k, v in items.items()
                     if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
            if len(lists) == 1:                 # {"results": [{...}, ...]}
                pointer, items = f"{pointer}/{lists[0]}", items[lists[0]]
            elif lists:
                raise IngestError(f"mapped JSON: several arrays of rows ({', '.join(lists)}): "
                                  f"name one with rows = \"/{lists[0]}\" in the mapping's [source]")
        where = None
        if isinstance(items, dict):
            where, items = [pointer or "/"], [items]     # one result object: one row
        if not isinstance(items, list):
            raise IngestError("mapped JSON of another shape: no array of row objects (set "
                              "rows = \"/path/to/array\" in the mapping's [source])")
        for i, r in enumerate(items):
            if not isinstance(r, dict):
                raise IngestError(f"mapped JSON {pointer}/{i}: {type(r).__name__}, not an object")
        keys = list(dict.fromkeys(k for r in items for k in r))
        missing = [c for c in mapping.needed()
                   if not any(_get(r, c) is not None or c in r for r in items)]
        if missing:
            raise IngestError(f"{misfit_for(missing, mapping)} (its keys: {', '.join(keys)[:160]})")
        return items, where or [f"{pointer}/{i}" for i in range(len(items))], keys
    header, rows, where = csv_rows(text, "mapped CSV", mapping.source.get("delimiter", ","))
    missing = [c for c in mapping.needed() if c not in header]
    if missing:
        raise IngestError(f"{misfit_for(missing, mapping)} (its columns: {', '.join(header)[:160]})")
    return rows, where, header


def misfit_for(missing: list[str], mapping: Mapping) -> str:
    return (f"the mapping {mapping.path} names column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))} that the file does not have")


# --- rendering -------------------------------------------------------------------------------

def _header_for(v: Value, unit: str, scope: str, statistic: str, metric: str) -> str:
    """A column header the table rules read: label, statistic, then unit and scope."""
    family = _family(unit)
    label = v.label or metric
    if not label:
        label = {"token_throughput": "throughput", "request_throughput": "request throughput",
                 "latency": "latency", "power": "power", "memory": "memory"}.get(family, "value")
    words = [PHASES.get(v.phase, "") if v.phase and PHASES[v.phase].lower() not in label.lower() else "",
             TOKENS.get(v.tokens, "") if v.tokens and v.tokens not in label.lower() else "",
             label, STATISTICS.get(statistic, "")]
    text = " ".join(w for w in words if w)
    text = text[:1].upper() + text[1:]
    return f"{text} ({unit}{SCOPES.get(scope, '')})"


def _family(unit: str) -> str:
    from pipeline.vocab.loader import load as vocab

    found = vocab().match_unit(unit, 0, len(unit))
    return found[1].family if found else ""


def _in_force(mapping: Mapping | None) -> Mapping:
    mapping = mapping or current()
    if mapping is None:
        raise IngestError("no mapping in force (claims ingest FILE --mapping MAP.toml)")
    return mapping


def parse(text: str, mapping: Mapping | None = None) -> Parsed:
    """Render a CSV/JSON of results through ``mapping`` (the one in force by default)."""
    mapping = _in_force(mapping)
    rows, where, _ = _rows(text, mapping)
    return _render(rows, where, mapping)


# --- Parquet ---------------------------------------------------------------------------------

PARQUET_MAGIC = b"PAR1"


def parquet_columns(source: Any) -> list[str]:
    """The column names of a Parquet file (its footer only), for the folder walk."""
    import pyarrow.parquet as pq

    try:
        return list(pq.ParquetFile(source).schema_arrow.names)
    except Exception as exc:  # pyarrow raises its own kinds for any damage
        raise IngestError(f"Parquet file not readable ({type(exc).__name__}: "
                          f"{' '.join(str(exc).split())[:160]})") from None


def parse_parquet(data: bytes, mapping: Mapping | None = None) -> Parsed:
    """Render a Parquet file of results through ``mapping``. Its size once decoded is
    checked against the ingest's decompression limit (``--max-inflate-mb``) from the
    footer, before any column is read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.ingest.limits import current as limits, size

    mapping = _in_force(mapping)
    try:
        pf = pq.ParquetFile(pa.BufferReader(data))
        meta = pf.metadata
        decoded = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        if decoded > limits().max_inflate_bytes:
            raise IngestError(f"Parquet file decodes to {size(decoded)}, over the "
                              f"{size(limits().max_inflate_bytes)} limit (--max-inflate-mb)")
        names = list(pf.schema_arrow.names)
        missing = [c for c in mapping.needed() if c.split(".")[0] not in names]
        if missing:
            raise IngestError(f"{misfit_for(missing, mapping)} (its columns: {', '.join(names)[:160]})")
        rows = pf.read().to_pylist()
    except IngestError:
        raise
    except Exception as exc:  # pyarrow raises its own kinds for any damage
        raise IngestError(f"Parquet file not readable ({type(exc).__name__}: "
                          f"{' '.join(str(exc).split())[:160]})") from None
    if not rows:
        raise IngestError("Parquet file: no rows")
    # a missing or NaN figure is no figure
    for r in rows:
        for k, v in r.items():
            if isinstance(v, float) and v != v:
                r[k] = None
    return _render(rows, [f"row {i + 1}" for i in range(len(rows))], mapping)


def _render(rows: list[dict], where: list[str], mapping: Mapping) -> Parsed:
    """The rows as pipe tables whose headers carry each figure's unit and scope."""
    ident = [f for f in FIELDS if f in mapping.columns or f in mapping.fixed]
    settings = list(mapping.settings)

    def ident_cells(r: dict) -> list[str]:
        out = []
        for f in ident:
            val = cell(_get(r, mapping.columns[f])) if f in mapping.columns else mapping.fixed[f]
            if f == "hardware":
                count = (cell(_get(r, mapping.columns["count"])) if "count" in mapping.columns
                         else mapping.fixed.get("count", ""))
                if count and val and is_number(count) and not re.match(r"\d+\s*x\s", val):
                    val = f"{count.split('.')[0]} x {val}"
            out.append(val)
        return out

    # each figure goes to the table of its header (wide files: one table; long files: one
    # per metric, unit, scope and statistic)
    tables: dict[str, list[tuple[int, str, str]]] = {}   # header -> (row, figure, value column)
    for i, (r, w) in enumerate(zip(rows, where)):
        for v in mapping.values:
            raw = cell(_get(r, v.column))
            if raw == "":
                continue
            if not is_number(raw):
                raise IngestError(f"mapped file {w}: column {v.column!r} holds {raw[:40]!r}, "
                                  f"not a number")
            unit, scope = v.unit, v.scope
            if v.unit_column:
                given = cell(_get(r, v.unit_column))
                read = unit_scope(given)
                if read is None:
                    raise IngestError(f"mapped file {w}: unit {given!r} (column "
                                      f"{v.unit_column!r}) is not a unit the extractor reads "
                                      f"(tokens/s, requests/s, s, ms, W, ...)")
                unit, scope = read[0], read[1] or scope
            if v.scope_column:
                scope = _row_choice(w, r, v.scope_column, SCOPES) or scope
            statistic = v.statistic
            if v.statistic_column:
                statistic = _row_choice(w, r, v.statistic_column, STATISTICS) or statistic
            metric = cell(_get(r, v.metric_column)) if v.metric_column else ""
            # a metric name is a label, never a unit or a figure: digits and brackets out
            metric = re.sub(r"[()\[\]\d]+", " ", metric).strip()
            header = _header_for(v, unit, scope, statistic, metric)
            tables.setdefault(header, []).append((i, raw, v.column))

    if not tables:
        raise IngestError("mapped file: no figure in any value column")
    title = mapping.source.get("title") or "Benchmark results"
    w = Writer()
    w.line(f"# {title}")
    w.line()
    w.line(f"{len(rows)} rows, read through the mapping {Path(mapping.path).name}.")
    row_meta: list[dict] = [{"row": where[i], "cells": {}, "spans": []} for i in range(len(rows))]
    wide = len({h for h in tables}) == len(mapping.values) and not any(
        v.unit_column or v.metric_column or v.statistic_column or v.scope_column for v in mapping.values)
    groups = [list(tables)] if wide else [[h] for h in tables]
    for headers in groups:
        members = sorted({i for h in headers for i, _, _ in tables[h]})
        by = {(h, i): (fig, col) for h in headers for i, fig, col in tables[h]}
        header = [FIELDS[f] for f in ident] + settings + headers
        body = [ident_cells(rows[i]) + [cell(_get(rows[i], s)) for s in settings]
                + [by.get((h, i), ("", ""))[0] for h in headers] for i in members]
        w.line()
        if not wide:            # each metric's table under its own heading, never run together
            w.line(f"## {headers[0]}")
            w.line()
        for i, span in zip(members, w.table(header, body)):
            row_meta[i]["spans"].append(list(span))
            row_meta[i]["cells"].update({h: by[(h, i)][1] for h in headers if (h, i) in by})
    w.line()
    for m in row_meta:
        if m["spans"]:
            m["start"], m["end"] = m["spans"][0]
    meta: dict[str, Any] = {"rows": [m for m in row_meta if m["spans"]], "n_rows": len(rows),
                            "mapping": mapping.path, "mapping_digest": mapping.digest()}
    published = mapping.source.get("published")
    if not published and "date" in mapping.columns:
        # the latest date a row states (ISO dates only: a file's own spelling is not guessed)
        dates = sorted(d[:10] for d in (cell(_get(r, mapping.columns["date"])) for r in rows)
                       if re.match(r"\d{4}-\d\d-\d\d", d))
        if dates:
            published = dates[-1]
            meta["published_source"] = "latest row date"
    return Parsed(w.text, "markdown", title=title, publisher=mapping.source.get("publisher"),
                  published=published, meta={**meta, "tables": w.tables})


def _row_choice(where: str, row: dict, column: str, allowed: dict[str, str]) -> str:
    v = cell(_get(row, column)).lower()
    if v not in allowed:
        raise IngestError(f"mapped file {where}: {v!r} in column {column!r} is not one of "
                          f"{', '.join(k for k in allowed if k)}")
    return v
