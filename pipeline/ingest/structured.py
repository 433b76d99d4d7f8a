"""Benchmark result files -> a faithful Markdown rendering whose table cells become claims.

Read by content, never by name alone (``kind_of``): MLPerf Inference summary rows
(``summary_results.json``, or a CSV with the same columns), an MLPerf run's
``mlperf_log_summary.txt``, and llmperf summary JSONs (the llmperf leaderboard's
``raw_data/summary/*.json``). ``parse`` renders the file as a title line and pipe tables,
one line per row, fields in a fixed order, with each column's unit and denominator in its
header ("Result (tokens/s per system)", "TTFT p99 (s)"), so the ordinary table extractor
turns each result cell into one claim with the same fields as a prose claim, and every
claim keeps ``text[start:end] == surface``. Numbers are written exactly as the file writes
them (JSON number literals are kept as text, never re-printed from floats).

Provenance goes to ``Document.meta``: ``source_kind``, and per rendered row its span in the
text, its JSON pointer or CSV line, and for MLPerf the citation fields (version, division,
result ID, scenario, submitter, system, location, details). The rules and limits are in
docs/structured.md.

A file that looks like one of these kinds but is not well formed (a CSV without a needed
column, a JSON of another shape, a result that is no number) raises one IngestError that
names the place; nothing of it is stored.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Callable

from pipeline.ingest import structured_inferencex as inferencex
from pipeline.ingest import structured_mapping as mapping
from pipeline.ingest.errors import IngestError
from pipeline.ingest.structured_render import Writer as _Writer, accelerator_name as _accelerator_name, \
    cell as _cell, csv_rows, is_number as _number, strict_json as _strict_json, to_int as _int
from pipeline.ingest.text import Parsed, decode

__all__ = ["kind_of", "parse", "or_else", "not_recognised", "in_folder", "parquet", "log_units", "KINDS",
           "MLPERF_REQUIRED", "SUFFIXES"]

KINDS = ("mlperf_summary_json", "mlperf_summary_csv", "mlperf_log_summary", "llmperf_summary",
         "inferencex", "mapped")
SUFFIXES = (".json", ".csv")          # files of these extensions must be one of the kinds
PARQUET_MAGIC = mapping.PARQUET_MAGIC    # Parquet files start (and end) with it

# --- recognition (on the first few KB) ------------------------------------------------------

# Performance_Result and two more of a summary row's fields make an MLPerf summary (a row
# that then lacks a needed field is refused by name, not read as prose)
_MLPERF_KEYS = ("Performance_Units", "Scenario", "Model", "ID", "Submitter", "Accelerator")
_LLMPERF_KEY = re.compile(r'"results_(?:ttft_s|inter_token_latency_s|end_to_end_latency_s|'
                          r'request_output_throughput_token_per_s|mean_output_throughput_token_per_s)')
# an object's first key, or an array's first object: a Markdown page opening with a link
# ("[![badge]...") or a template tag ("{% ... %}") is no JSON
_JSON_START = re.compile(r'(?:\[\s*)?\{\s*"')
_LOG_HEAD = re.compile(r"\A\s*=+[ \t]*\n[ \t]*MLPerf Results Summary[ \t]*\n[ \t]*=+[ \t]*\n")


def _head_text(head: bytes) -> str:
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if head.startswith(bom):
            return head[len(bom):].decode(codec, errors="ignore")
    return head.decode("utf-8", errors="ignore")


def kind_of(head: bytes | str) -> str | None:
    """Which kind of result file ``head`` (the file's first bytes) starts, or None.

    JSON: an array or object whose first keys include MLPerf's ``Performance_Result`` and
    two more summary fields (Scenario, Model, ID, ...), or llmperf's ``results_...``
    metrics. CSV: a first line of comma-separated names holding those MLPerf columns. Log: the
    ``MLPerf Results Summary`` banner the LoadGen writes at the top.
    """
    text = head if isinstance(head, str) else _head_text(head)
    body = text.lstrip()
    # a user's mapping (claims ingest --mapping) first: it names the columns of their files
    if mapping.current() is not None and (_JSON_START.match(body) or _is_csv_head(body)) \
            and mapping.fits(body):
        return "mapped"
    if _JSON_START.match(body):
        if '"Performance_Result"' in body and sum(f'"{k}"' in body for k in _MLPERF_KEYS) >= 2:
            return "mlperf_summary_json"
        if _LLMPERF_KEY.search(body) and '"model"' in body:
            return "llmperf_summary"
        if inferencex.looks_like(body):
            return "inferencex"
        return None
    if _LOG_HEAD.match(text):
        return "mlperf_log_summary"
    first = body.split("\n", 1)[0]
    names = {n.strip().strip('"') for n in first.split(",")}
    if "Performance_Result" in names and len(names & set(_MLPERF_KEYS)) >= 2:
        return "mlperf_summary_csv"
    if inferencex.looks_like(body):
        return "inferencex"
    return None


def _is_csv_head(body: str) -> bool:
    """A first line of at least two delimited names (a CSV header), not a sentence."""
    first = body.split("\n", 1)[0]
    delim = (mapping.current().source.get("delimiter", ",") if mapping.current() else ",")
    return first.count(delim) >= 1 and not first.startswith("#")


def not_recognised(suffix: str, head: bytes) -> str:
    """The one-line error for a .json/.csv file that is none of the kinds read."""
    text = _head_text(head).lstrip()
    what = "JSON" if suffix.lower() == ".json" else "CSV"
    shown = ""
    if mapping.current() is not None:
        return f"{what} file not read: {mapping.misfit(text)}"
    if what == "CSV":
        shown = f" (its columns: {text.split(chr(10), 1)[0][:120].strip()})"
    elif text[:1] not in ("[", "{"):
        shown = " (it does not start with [ or {)"
    return (f"{what} file of another shape{shown}: only MLPerf summary results "
            f"(Performance_Result, Performance_Units, Scenario, ...), llmperf summary JSONs "
            f"(results_ttft_s_quantiles_p50, ...) and InferenceX results (tput_per_gpu, "
            f"median_intvty, ...) are read, or any CSV/JSON with --mapping (docs/structured.md)")


def parquet(path_or_head: Any) -> str:
    """'' when a Parquet file is to be read (a mapping is in force and, given a path, the
    file has every column it names); else why not. Parquet is binary: only a mapping
    says what its columns are."""
    m = mapping.current()
    if m is None:
        return "Parquet file: read it through a mapping (--mapping MAP.toml, docs/structured.md)"
    if isinstance(path_or_head, bytes):
        return ""
    try:
        names = mapping.parquet_columns(str(path_or_head))
    except IngestError:
        return ""                      # damaged: read, so its error is recorded
    missing = [c for c in m.needed() if c.split(".")[0] not in names]
    if len(missing) == len(m.needed()):
        return (f"not a benchmark result file: it has none of the columns the mapping "
                f"{m.path} names (its columns: {', '.join(names)[:160]})")
    return ""                          # all there, or some missing: read (an error names them)


def in_folder(suffix: str, head: bytes) -> str:
    """Why a .json/.csv file met inside a folder is skipped ('' when it is a result file
    to read). Such folders hold all kinds of data files (package.json, a notebook's CSV):
    one that is no benchmark result is skipped with this reason, never an error; one that
    looks like a result but is broken is read, and its error recorded."""
    if kind_of(head):
        return ""
    text = _head_text(head).lstrip()
    if mapping.current() is not None:
        return f"not a benchmark result file: {mapping.misfit(text)}"
    what = "JSON" if suffix.lower() == ".json" else "CSV"
    return (f"not a benchmark result file ({what} of another shape): no MLPerf, llmperf or "
            f"InferenceX fields (read your own results with --mapping, docs/structured.md)")


def or_else(fallback: Callable[[bytes], Parsed]) -> Callable[[bytes], Parsed]:
    """A parser that reads a result file with ``parse`` and anything else with ``fallback``
    (the PARSERS entry of the format sniff.detect gives result files)."""
    def parse_any(data: bytes) -> Parsed:
        if data.startswith(mapping.PARQUET_MAGIC) or kind_of(decode(data[:8192]).text):
            return parse(data)
        return fallback(data)
    parse_any.__name__ = f"structured_or_{getattr(fallback, '__module__', 'x').rsplit('.', 1)[-1]}"
    return parse_any


# --- rendering ------------------------------------------------------------------------------

def parse(data: bytes) -> Parsed:
    """Render a result file (kind by ``kind_of``); IngestError for a malformed one."""
    if data.startswith(mapping.PARQUET_MAGIC):          # binary: only through a mapping
        parsed = mapping.parse_parquet(data)
        parsed.meta = {"source_kind": "mapped_parquet", **parsed.meta}
        parsed.role = parsed.role or "primary"
        return parsed
    decoded = decode(data)
    kind = kind_of(decoded.text[:8192])
    if kind is None:
        raise IngestError("not a benchmark result file: no MLPerf or llmperf fields found")
    parsed = {"mlperf_summary_json": _mlperf_json, "mlperf_summary_csv": _mlperf_csv,
              "mlperf_log_summary": _mlperf_log, "llmperf_summary": _llmperf,
              "inferencex": inferencex.parse, "mapped": mapping.parse}[kind](decoded.text)
    parsed.meta = {**decoded.meta(), "source_kind": kind, **parsed.meta}
    parsed.role = parsed.role or "primary"
    return parsed


# --- MLPerf summary rows --------------------------------------------------------------------

MLPERF_REQUIRED = ("ID", "Submitter", "Category", "Model", "Scenario", "Accelerator", "a#",
                   "Nodes", "Performance_Result", "Performance_Units")

# The published unit -> (the unit the header writes, the noun of the table)
_MLPERF_UNITS = {
    "tokens/s": ("tokens/s per system", "Tokens/s"),
    "queries/s": ("queries/s per system", "Queries/s"),
    "samples/s": ("samples/s per system", "Samples/s"),
    "latency (ms)": ("ms", "Latency (ms)"),
}
_ACCURACY_SUFFIX = re.compile(r"^(?P<model>.+?)-(?P<target>99(?:\.9)?)$")
_HETERO = re.compile(r"\(x\d+\)")


def _mlperf_json(text: str) -> Parsed:
    rows = _strict_json(text, "MLPerf summary JSON")
    if isinstance(rows, dict):
        raise IngestError("MLPerf summary JSON of another shape: an object, not the array of "
                          "result rows summary_results.json holds")
    if not isinstance(rows, list) or not rows:
        raise IngestError("MLPerf summary JSON of another shape: no array of result rows")
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise IngestError(f"MLPerf summary JSON of another shape: row /{i} is "
                              f"{type(r).__name__}, not an object of fields")
    return _mlperf(rows, [f"/{i}" for i in range(len(rows))], "json")


def _mlperf_csv(text: str) -> Parsed:
    header, rows, where = csv_rows(text, "MLPerf summary CSV")
    missing = [k for k in MLPERF_REQUIRED if k not in header]
    if missing:
        raise IngestError(f"MLPerf summary CSV without the column{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(missing)}: every result row needs "
                          f"{', '.join(MLPERF_REQUIRED)}")
    return _mlperf(rows, where, "csv")


def _hardware(r: dict) -> tuple[str, int | None, str]:
    """(hardware cell, accelerator count of the whole system, how it was read).

    A result is per system: ``a#`` accelerators per node times ``Nodes``. A system without
    accelerators is its host processors (``p#`` per node). Mixed accelerators ("MI300X
    (x32), MI325X (x16)") are written part by part ("32 x MI300X + 16 x MI325X"): the
    claims model holds one accelerator, so such a row reads as its first part, never as a
    bare accelerator that would stand for any count of it.
    """
    acc = _cell(r.get("Accelerator"))
    per_node, nodes = _int(r.get("a#")), _int(r.get("Nodes")) or 1
    if acc and _HETERO.search(acc):
        parts = []
        for piece in acc.split(","):
            m = re.search(r"\(x(\d+)\)", piece)
            name = _accelerator_name(piece) or re.sub(r"\s*\(x\d+\)", "", piece).strip()
            parts.append(f"{m.group(1)} x {name}" if m else name)
        return (f"{' + '.join(parts)} ({acc})", (per_node * nodes if per_node else None),
                "mixed accelerators: the claims model reads the first part")
    if acc and per_node:
        n = per_node * nodes
        name = _accelerator_name(acc)
        if name and name != acc:
            return f"{n} x {name} ({acc})", n, "a# x Nodes"
        return f"{n} x {acc}", n, "a# x Nodes"
    proc, per = _cell(r.get("Processor")), _int(r.get("p#")) or _int(r.get("host_processors_per_node"))
    if proc:
        n = (per or 1) * nodes
        name = _accelerator_name(proc)
        cell = f"{n} x {name} ({proc})" if name and name != proc else f"{n} x {proc}"
        return cell, None, "host processors (no accelerator)"
    return acc, None, "no accelerator count"


def _mlperf(rows: list[dict], where: list[str], source: str) -> Parsed:
    # Units: Queries/s on an LLM benchmark whose other scenarios are in Tokens/s is the
    # mislabel docs/structured.md describes (the run logs report that figure as completed
    # tokens per second): such rows are read as tokens/s, and the correction is kept.
    token_models = {str(r.get("Model")) for r in rows
                    if str(r.get("Performance_Units", "")).strip().lower() == "tokens/s"}
    groups: dict[str, list[int]] = {}
    units: list[str] = []
    corrections = []
    for i, r in enumerate(rows):
        for k in ("ID", "Model", "Scenario", "Performance_Result", "Performance_Units"):
            if _cell(r.get(k)) == "":
                raise IngestError(f"MLPerf summary row {where[i]}: no {k}")
        if not _number(r["Performance_Result"]):
            raise IngestError(f"MLPerf summary row {where[i]} (result {r['ID']}): "
                              f"Performance_Result {r['Performance_Result']!r} is not a number")
        published = _cell(r["Performance_Units"])
        unit = published.lower()
        if unit == "queries/s" and str(r["Model"]) in token_models \
                and _cell(r["Scenario"]).lower() in ("server", "interactive"):
            unit = "tokens/s"
            corrections.append({"row": where[i], "id": _cell(r["ID"]), "published": published,
                                "read_as": "Tokens/s",
                                "why": "an LLM benchmark's result is completed tokens per "
                                       "second (its other scenarios here say Tokens/s; the "
                                       "run log reports this figure as tokens per second)"})
        if unit not in _MLPERF_UNITS:
            raise IngestError(f"MLPerf summary row {where[i]} (result {r['ID']}): unknown "
                              f"Performance_Units {published!r}")
        units.append(unit)
        groups.setdefault(unit, []).append(i)

    versions = sorted({_cell(r.get("version")) for r in rows if _cell(r.get("version"))})
    version = ", ".join(versions)
    title = f"MLPerf Inference {version + ' ' if version else ''}results (MLCommons)"
    w = _Writer()
    w.line(f"# {title}")
    w.line()
    w.line(f"{len(rows)} result rows. Each result is the whole system's figure "
           f"(accelerators per node x nodes), as MLCommons publishes it.")
    row_meta: list[dict] = [{} for _ in rows]
    for unit in _MLPERF_UNITS:
        idx = groups.get(unit)
        if not idx:
            continue
        header_unit, noun = _MLPERF_UNITS[unit]
        power = any(_cell(rows[i].get("Power_Result")) for i in idx)
        w.line()
        w.line(f"## {noun} results")
        w.line()
        header = ["Result ID", "Division", "Submitter", "System", "Benchmark", "Model",
                  "Accuracy target", "Scenario", "Hardware", "# Accelerators", "Nodes",
                  "Precision", f"Result ({header_unit})"]
        if power:
            header.append("Power (W)")
        # the long software list last: the citation fields stay next to the figure in a quote
        header += ["Units as published", "Software"]
        body = []
        for i in idx:
            r = rows[i]
            hw, count, how = _hardware(r)
            model = _cell(r["Model"])
            m = _ACCURACY_SUFFIX.match(model)
            bench = f"MLPerf Inference {version + ' ' if version else ''}{model}"
            cells = [_cell(r["ID"]), _cell(r.get("Category")), _cell(r.get("Submitter")),
                     _cell(r.get("System")), bench, m.group("model") if m else model,
                     f"{m.group('target')}%" if m else "", _cell(r["Scenario"]), hw,
                     "" if count is None else str(count), _cell(r.get("Nodes")),
                     _cell(r.get("weight_data_types")), _cell(r["Performance_Result"])]
            if power:
                pu = _cell(r.get("Power_Units")).lower()
                cells.append(_cell(r.get("Power_Result")) if pu in ("watts", "w") else "")
            cells += [_cell(r["Performance_Units"]), _cell(r.get("Software"))]
            body.append(cells)
            row_meta[i] = {
                "row": where[i], "version": version or None, "division": _cell(r.get("Category")),
                "result_id": _cell(r["ID"]), "scenario": _cell(r["Scenario"]), "model": model,
                "submitter": _cell(r.get("Submitter")), "system": _cell(r.get("System")),
                "unit_published": _cell(r["Performance_Units"]), "unit": unit,
                "hardware_count": count, "hardware_read": how,
                "location": _cell(r.get("Location")) or None, "details": _cell(r.get("Details")) or None,
            }
        for i, (start, end) in zip(idx, w.table(header, body)):
            row_meta[i]["start"], row_meta[i]["end"] = start, end
    w.line()
    meta = {"rows": row_meta, "n_rows": len(rows), "row_source": source,
            "citation": "MLPerf Inference results: cite version, division, result ID, "
                        "benchmark and scenario; a figure derived from a result (per "
                        "accelerator) is not an official MLPerf result"}
    if corrections:
        meta["unit_corrections"] = corrections
    return Parsed(w.text, "markdown", title=title, publisher="MLCommons",
                  meta={**meta, "tables": w.tables})


# --- MLPerf run log -------------------------------------------------------------------------

_LOG_FIELD = re.compile(r"^[ \t]*(?P<key>[^:\n]+?)[ \t]*:[ \t]*(?P<value>[^\n]*?)[ \t]*$", re.M)
_PCT = re.compile(r"^(?P<p>\d+(?:\.\d+)?) percentile (?P<what>.+?) \(ns\)$", re.I)


def _mlperf_log(text: str) -> Parsed:
    fields: dict[str, str] = {}
    for m in _LOG_FIELD.finditer(text):
        fields.setdefault(m.group("key").strip(), m.group("value").strip())
    tokens = fields.get("Completed tokens per second")
    if tokens is None or not _number(tokens):
        raise IngestError("MLPerf log summary without a 'Completed tokens per second' figure: "
                          "only LLM runs' summaries are read")
    scenario, mode = fields.get("Scenario", ""), fields.get("Mode", "")
    valid = fields.get("Result is", "")
    title = f"MLPerf Inference run summary: {scenario} scenario, {mode}, result {valid}"
    w = _Writer()
    w.line(f"# {title}")
    w.line()
    head = ["SUT", "Scenario", "Mode", "Result", "Completed tokens per second (tokens/s per system)"]
    w.table(head, [[fields.get("SUT name", ""), scenario, mode, valid, tokens]])
    lat: dict[str, dict[str, str]] = {}
    for key, value in fields.items():
        m = _PCT.match(key)
        what = None
        if m:
            what, stat = m.group("what").lower(), f"p{m.group('p').rstrip('0').rstrip('.')}"
        elif key.endswith("(ns)") and key.split()[0] in ("Mean", "Min", "Max"):
            what, stat = key.split(" ", 1)[1][:-5].strip().lower(), key.split()[0].lower()
        if what and _number(value):
            lat.setdefault(what, {})[stat] = value
    names = {"latency": "End-to-end latency", "first token latency": "TTFT",
             "time to output token": "Time per output token"}
    # the 99.9th percentile has no statistic in the claims model: kept in meta only
    stats = ["p50", "p90", "p95", "p97", "p99", "mean", "max"]
    for what, label in names.items():
        got = lat.get(what)
        if not got:
            continue
        cols = [s for s in stats if s in got]
        w.line()
        w.line(f"## {label}")
        w.line()
        # percentile headers as "P99" / "99.9%"; the extractor reads the statistic there
        hdr = [f"{label} {s if s in ('mean', 'max') else s[1:] + '%' if s == 'p97' else s.upper()} (ns)"
               for s in cols]
        w.table(["Scenario"] + hdr, [[scenario] + [got[s] for s in cols]])
    w.line()
    limits = {k: fields[k] for k in ("target_qps", "ttft_latency (ns)", "tpot_latency (ns)",
                                     "samples_per_query", "min_duration (ms)") if k in fields}
    meta = {"log_fields": {k: fields[k] for k in ("SUT name", "Scenario", "Mode",
                                                  "Completed samples per second",
                                                  "Completed tokens per second", "Result is")
                           if k in fields},
            "test_parameters": limits, "latency_ns": lat}
    return Parsed(w.text, "markdown", title=title, publisher="MLCommons",
                  meta={**meta, "tables": w.tables})


def log_units(result: float, log_text: str) -> str | None:
    """Which figure of a run's log summary a published result is: 'tokens/s' when it is the
    completed tokens per second, 'samples/s' when the completed samples per second (within
    0.5%, the summary's rounding), None when neither: the check of a row's unit against
    its run's log (the Queries/s trap)."""
    fields = {m.group("key").strip(): m.group("value").strip() for m in _LOG_FIELD.finditer(log_text)}
    for key, unit in (("Completed tokens per second", "tokens/s"),
                      ("Completed samples per second", "samples/s")):
        v = fields.get(key)
        if v and _number(v) and abs(float(v) - result) <= 0.005 * max(abs(float(v)), 1e-9):
            return unit
    return None


# --- llmperf summaries ----------------------------------------------------------------------

# (JSON key stem, header label, unit written in the header, section heading)
_LLMPERF_METRICS = (
    ("results_request_output_throughput_token_per_s", "Output throughput {s}", "tokens/s per request",
     "Output tokens per second of each request"),
    ("results_ttft_s", "TTFT {s}", "s", "Time to first token"),
    ("results_inter_token_latency_s", "Inter-token latency {s}", "s", "Inter-token latency"),
    ("results_end_to_end_latency_s", "End-to-end latency {s}", "s", "End-to-end request latency"),
)
# statistics the claims model names (p25/p75/min have no statistic there: kept in meta only)
_LLMPERF_STATS = (("quantiles_p50", "median"), ("quantiles_p90", "p90"), ("quantiles_p95", "p95"),
                  ("quantiles_p99", "p99"), ("mean", "mean"), ("max", "max"))
_LLMPERF_SETTINGS = ("Provider", "Model", "Input tokens", "Output tokens", "Concurrency")


def _llmperf(text: str) -> Parsed:
    data = _strict_json(text, "llmperf summary")
    objs = data if isinstance(data, list) else [data]
    if not objs or not all(isinstance(o, dict) for o in objs):
        raise IngestError("llmperf summary of another shape: not an object (or array of "
                          "objects) of summary fields")
    pointers = [f"/{i}" for i in range(len(objs))] if isinstance(data, list) else [""]
    for o, p in zip(objs, pointers):
        if _cell(o.get("model")) == "":
            raise IngestError(f"llmperf summary {p or '/'}: no model")
        if not any(k.startswith(m[0]) for m in _LLMPERF_METRICS for k in o):
            raise IngestError(f"llmperf summary {p or '/'}: no results_* metric fields")
        for k, v in o.items():
            if k.startswith("results_") and isinstance(v, (dict, list)):
                raise IngestError(f"llmperf summary {p or '/'}/{k}: a nested value, not a figure")
    providers = sorted({_cell(o.get("framework")) for o in objs if _cell(o.get("framework"))})
    models = sorted({_cell(o["model"]) for o in objs})
    title = f"llmperf results: {', '.join(providers) or 'unknown provider'}, {', '.join(models)}"
    w = _Writer()
    w.line(f"# {title}")
    w.line()
    settings = []
    for o in objs:
        settings.append([_cell(o.get("framework")), _cell(o["model"]),
                         _cell(o.get("mean_input_tokens")), _cell(o.get("mean_output_tokens")),
                         _cell(o.get("num_concurrent_requests"))])
    w.line("One row per run: output throughput per request is what one user sees; the "
           "overall throughput counts all concurrent requests together.")
    rows_meta: list[dict] = [{"pointer": p, "name": _cell(o.get("name")) or None,
                              "version": _cell(o.get("version")) or None, "cells": {}}
                             for o, p in zip(objs, pointers)]
    for stem, label, unit, heading in _LLMPERF_METRICS:
        cols = [(suffix, stat) for suffix, stat in _LLMPERF_STATS
                if any(f"{stem}_{suffix}" in o for o in objs)]
        if not cols:
            continue
        header = list(_LLMPERF_SETTINGS) + [f"{label.format(s=stat)} ({unit})" for _, stat in cols]
        body = []
        for o, s in zip(objs, settings):
            body.append(s + [_cell(o.get(f"{stem}_{suffix}")) for suffix, _ in cols])
        w.line()
        w.line(f"## {heading}")
        w.line()
        spans = w.table(header, body)
        for rm, (start, end), p in zip(rows_meta, spans, pointers):
            rm["cells"].update({h: f"{p}/{stem}_{suffix}" for h, (suffix, _) in
                                zip(header[len(_LLMPERF_SETTINGS):], cols)})
            rm.setdefault("spans", []).append([start, end])
    overall = [("results_mean_output_throughput_token_per_s", "Overall output throughput (tokens/s, all requests)"),
               ("results_num_completed_requests_per_min", "Completed requests (requests/min)")]
    cols = [(k, h) for k, h in overall if any(k in o for o in objs)]
    if cols:
        header = list(_LLMPERF_SETTINGS) + [h for _, h in cols]
        w.line()
        w.line("## Overall")
        w.line()
        spans = w.table(header, [s + [_cell(o.get(k)) for k, _ in cols] for o, s in zip(objs, settings)])
        for rm, (start, end), p in zip(rows_meta, spans, pointers):
            rm["cells"].update({h: f"{p}/{k}" for k, h in cols})
            rm.setdefault("spans", []).append([start, end])
    w.line()
    published = None
    stamps = [_int(o.get("timestamp")) for o in objs if _int(o.get("timestamp"))]
    if stamps:
        try:
            published = datetime.fromtimestamp(min(stamps), tz=timezone.utc).date().isoformat()
        except (OverflowError, OSError, ValueError):
            published = None
    meta: dict[str, Any] = {"rows": rows_meta}
    if published:
        meta["published_source"] = "timestamp"
    return Parsed(w.text, "markdown", title=title, publisher="llmperf leaderboard",
                  published=published, meta={**meta, "tables": w.tables})
