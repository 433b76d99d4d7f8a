"""InferenceX (SemiAnalysis) benchmark results -> pipe tables whose cells become claims.

InferenceX publishes one result per serving configuration x sequence lengths x
concurrency x date. Its export schema (the public database dump and API rows) pairs a
**config** (``hardware``, ``framework``, ``model``, ``precision``, ``spec_method``,
``disagg``, ``prefill_tp/ep/dp_attention/num_workers``, the same for decode, and
``num_prefill_gpu`` / ``num_decode_gpu``) with **result rows** (``date``, ``isl``, ``osl``,
``conc``, ``image`` and a ``metrics`` object: ``tput_per_gpu``, ``output_tput_per_gpu``,
``input_tput_per_gpu``, ``{mean,median,p90,p99}_{ttft,tpot,itl,e2el}`` in seconds and
``*_intvty`` in tokens/s per user). Read here, by content:

* a JSON array of result rows, each holding its config fields (flat, or under ``config``)
  and its metrics (under ``metrics``, or flat);
* a JSON object with one ``config`` and its rows (``results``, ``rows`` or
  ``benchmark_results``);
* a JSON object with the dump's two tables, ``configs`` and ``benchmark_results``, joined
  on ``config_id``;
* a CSV of flat rows with the same column names.

Scope: ``tput_per_gpu`` is total (input + output) tokens/s divided by every GPU of the
deployment; for a disaggregated one ``output_tput_per_gpu`` is divided by the decode GPUs
and ``input_tput_per_gpu`` by the prefill GPUs, so those two go to a table of their own
whose headers say so. ``*_intvty`` is 1000 / TPOT (ms): ``p90_intvty`` is the speed at
the P90 TPOT, the slow tail of what users see, and its header says so. Rows with an
``error`` are left out (counted in meta). The rules are in docs/structured.md.
"""
from __future__ import annotations

import re
from typing import Any

from pipeline.ingest.errors import IngestError
from pipeline.ingest.structured_render import (Writer, accelerator_name, cell, csv_rows,
                                               is_number, strict_json, to_int)
from pipeline.ingest.text import Parsed

__all__ = ["looks_like", "parse", "MODELS", "FRAMEWORKS"]

# the documented enum values -> names the vocabulary reads (the key is kept beside them)
MODELS = {"dsr1": "DeepSeek-R1-0528", "gptoss120b": "gpt-oss-120b",
          "llama70b": "Llama 3.3 70B", "qwen3.5": "Qwen-3.5-397B-A17B",
          "kimik2.5": "Kimi-K2.5", "minimaxm2.5": "MiniMax-M2.5", "glm5": "GLM-5"}
FRAMEWORKS = {"trt": "TensorRT-LLM", "vllm": "vLLM", "sglang": "SGLang",
              "dynamo-trt": "Dynamo TensorRT-LLM", "dynamo-trtllm": "Dynamo TensorRT-LLM",
              "dynamo-sglang": "Dynamo SGLang", "mori-sglang": "SGLang",
              "sglang-disagg": "SGLang", "atom": "ATOM"}

_CONFIG_KEYS = ("hardware", "hw", "framework", "model", "precision", "spec_method", "disagg",
                "is_multinode", "prefill_tp", "prefill_ep", "prefill_dp_attention",
                "prefill_num_workers", "decode_tp", "decode_ep", "decode_dp_attention",
                "decode_num_workers", "num_prefill_gpu", "num_decode_gpu", "tp", "ep",
                "dp_attention")
_ROW_KEYS = ("isl", "osl", "conc", "date", "image", "config_id", "benchmark_type")
_STATS = (("median", "median"), ("mean", "mean"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"))
# metric stem -> (header label, unit written in the header); latencies are seconds
_LATENCIES = (("ttft", "TTFT", "s"), ("tpot", "TPOT", "s"), ("itl", "ITL", "s"),
              ("e2el", "E2E latency", "s"))
_METRIC = re.compile(r"^(?:(?:mean|median|std|p\d+(?:\.\d+)?)_(?:ttft|tpot|itl|e2el|intvty)|"
                     r"(?:output_|input_)?tput_per_gpu|(?:total|output|input)_tput_tps)$")
_SIGNATURE = re.compile(r'"(?:tput_per_gpu|(?:median|mean|p90|p99)_intvty)"')


def looks_like(head: str) -> bool:
    """True when ``head`` (a file's first KB, decoded) starts an InferenceX result file: a
    JSON naming ``tput_per_gpu`` or an ``*_intvty`` metric with two config or row fields,
    or a CSV header with those columns."""
    body = head.lstrip()
    if body[:1] in ("[", "{"):
        if not _SIGNATURE.search(body):
            return False
        return sum(f'"{k}"' in body for k in _CONFIG_KEYS + _ROW_KEYS) >= 2
    names = {n.strip().strip('"') for n in body.split("\n", 1)[0].split(",")}
    if not names & {"tput_per_gpu", "median_intvty", "p90_intvty"}:
        return False
    return len(names & set(_CONFIG_KEYS + _ROW_KEYS)) >= 2


# --- reading the shapes into flat rows -------------------------------------------------------

def _rows(text: str) -> tuple[list[dict], list[str], str]:
    """(flat rows, where each came from, the shape read) from any of the export shapes."""
    if text.lstrip()[:1] not in ("[", "{"):
        return _csv_rows(text)
    data = strict_json(text, "InferenceX results")
    if isinstance(data, list):
        return _objects(data, "", "rows"), [f"/{i}" for i in range(len(data))], "rows"
    if not isinstance(data, dict):
        raise IngestError("InferenceX results of another shape: not an array or object")
    if isinstance(data.get("configs"), list) and isinstance(data.get("benchmark_results"), list):
        return _joined(data["configs"], data["benchmark_results"])
    for key in ("results", "rows", "benchmark_results"):
        if isinstance(data.get(key), list):
            config = data.get("config") if isinstance(data.get("config"), dict) else {}
            rows = _objects(data[key], f"/{key}", key)
            return ([{**config, **r} for r in rows],
                    [f"/{key}/{i}" for i in range(len(rows))], "config + rows")
    # one flat result (the per-run file the benchmark job writes)
    return _objects([data], "", "result"), ["/"], "one result"


def _objects(items: list, prefix: str, what: str) -> list[dict]:
    out = []
    for i, r in enumerate(items):
        if not isinstance(r, dict):
            raise IngestError(f"InferenceX results of another shape: {prefix}/{i} is "
                              f"{type(r).__name__}, not an object of fields")
        flat = dict(r)
        if isinstance(r.get("config"), dict):
            flat = {**r["config"], **{k: v for k, v in r.items() if k != "config"}}
        out.append(flat)
    if not out:
        raise IngestError(f"InferenceX results: no {what}")
    return out


def _joined(configs: list, results: list) -> tuple[list[dict], list[str], str]:
    by_id: dict[str, dict] = {}
    for i, c in enumerate(configs):
        if not isinstance(c, dict) or c.get("id") is None:
            raise IngestError(f"InferenceX configs/{i}: not a config object with an id")
        by_id[str(c["id"])] = {k: v for k, v in c.items() if k != "id"}
    rows = _objects(results, "/benchmark_results", "benchmark_results")
    out = []
    for i, r in enumerate(rows):
        cid = r.get("config_id")
        if cid is None or str(cid) not in by_id:
            raise IngestError(f"InferenceX /benchmark_results/{i}: config_id {cid!r} is not "
                              f"among the configs")
        out.append({**by_id[str(cid)], **r})
    return out, [f"/benchmark_results/{i}" for i in range(len(out))], "configs + benchmark_results"


def _csv_rows(text: str) -> tuple[list[dict], list[str], str]:
    _, rows, where = csv_rows(text, "InferenceX results CSV")
    return rows, where, "csv"


def _metrics(r: dict, where: str) -> dict[str, str]:
    """The row's metrics, as the file writes them (nested ``metrics`` or flat keys)."""
    m = r.get("metrics")
    found = dict(m) if isinstance(m, dict) else {}
    found.update({k: v for k, v in r.items() if _METRIC.match(k) and k not in found})
    out = {}
    for k, v in found.items():
        if v is None or cell(v) == "":
            continue
        if isinstance(v, (dict, list)) or not is_number(v):
            raise IngestError(f"InferenceX row {where}: metric {k} is {cell(v)[:40]!r}, not a number")
        out[k] = cell(v)
    return out


# --- rendering -------------------------------------------------------------------------------

def _flag(v: Any) -> bool:
    return str(v).strip().lower() in ("true", "1", "yes")


def _gpus(r: dict) -> tuple[int | None, int | None, int | None]:
    """(all GPUs, prefill GPUs, decode GPUs): the sum for a disaggregated deployment,
    the prefill pool (the same GPUs as decode) otherwise; the TP size for a per-run file."""
    pre, dec = to_int(r.get("num_prefill_gpu")), to_int(r.get("num_decode_gpu"))
    if _flag(r.get("disagg")):
        return ((pre or 0) + (dec or 0)) or None, pre, dec
    n = pre or dec or to_int(r.get("decode_tp")) or to_int(r.get("tp"))
    return n, n, n


def _parallel(r: dict, side: str) -> str:
    tp = cell(r.get(f"{side}_tp") if r.get(f"{side}_tp") is not None else r.get("tp"))
    ep = cell(r.get(f"{side}_ep") if r.get(f"{side}_ep") is not None else r.get("ep"))
    dp = r.get(f"{side}_dp_attention", r.get("dp_attention"))
    parts = [f"TP{tp}" if tp else "", f"EP{ep}" if ep else "",
             "DP attention" if dp is not None and _flag(dp) else ""]
    workers = to_int(r.get(f"{side}_num_workers"))
    if workers:
        parts.append(f"x{workers} worker{'s' if workers != 1 else ''}")
    return " ".join(p for p in parts if p)


def _spec(r: dict) -> str:
    """The speculative decoding method; "off" for "none" (a "none" or "no" in a row would
    read as a negation of its figures)."""
    spec = cell(r.get("spec_method")) or cell(r.get("mtp"))
    if spec.lower() in ("", "none", "false", "off", "no"):
        return "off" if spec else ""
    return spec.upper() if spec.lower() == "mtp" else spec


def _named(value: Any, names: dict[str, str]) -> str:
    raw = cell(value)
    known = names.get(raw.lower())
    return f"{known} ({raw})" if known and known != raw else raw


def _hardware(r: dict, n: int | None) -> str:
    raw = cell(r.get("hardware") or r.get("hw"))
    name = accelerator_name(raw) or raw
    shown = f"{name} ({raw})" if name != raw else raw
    return f"{n} x {shown}" if n else shown


def _pointer(where: str, r: dict, key: str) -> str:
    """Where a metric sits in the file: a JSON pointer, or the CSV column's name."""
    if not where.startswith("/"):
        return key
    base = "" if where == "/" else where
    nested = isinstance(r.get("metrics"), dict) and key in r["metrics"]
    return f"{base}/metrics/{key}" if nested else f"{base}/{key}"


def parse(text: str) -> Parsed:
    """Render an InferenceX result file (shapes in the module docstring)."""
    rows, where, shape = _rows(text)
    kept, failed = [], []
    for r, w in zip(rows, where):
        if r.get("error") not in (None, "", "null"):
            failed.append({"row": w, "error": cell(r.get("error"))[:200]})
            continue
        if cell(r.get("hardware") or r.get("hw")) == "" or cell(r.get("model")) == "":
            raise IngestError(f"InferenceX row {w}: no hardware or model (a result row needs "
                              f"its config: hardware, framework, model, precision, ...)")
        metrics = _metrics(r, w)
        if not metrics:
            raise IngestError(f"InferenceX row {w}: no metrics (tput_per_gpu, median_ttft, ...)")
        kept.append((r, w, metrics))
    if not kept:
        raise IngestError(f"InferenceX results: all {len(rows)} rows failed (each has an error)")

    w = Writer()
    title = "InferenceX benchmark results (SemiAnalysis)"
    w.line(f"# {title}")
    w.line()
    w.line(f"{len(kept)} result rows, one per configuration, sequence lengths, concurrency and "
           f"date. Throughput is per GPU of the deployment; interactivity is 1000 / TPOT in ms, "
           f"so its p90 and p99 are the slow tail of what users see (the speed at the P90 or "
           f"P99 TPOT), not the fastest users.")
    settings = ["Date", "Model", "Hardware", "# GPUs", "Framework", "Precision",
                "Spec decoding", "Serving", "Prefill parallelism", "Decode parallelism",
                "ISL", "OSL", "Concurrency"]
    present = {k for _, _, m in kept for k in m}
    row_meta: list[dict] = []

    def setting_cells(r: dict, n: int | None) -> list[str]:
        date = cell(r.get("date"))
        return [date[:10] if re.match(r"\d{4}-\d\d-\d\dT", date) else date,
                _named(r.get("model"), MODELS), _hardware(r, n), "" if n is None else str(n),
                _named(r.get("framework"), FRAMEWORKS), cell(r.get("precision")).upper(),
                _spec(r), "disaggregated" if _flag(r.get("disagg")) else "aggregated",
                _parallel(r, "prefill"), _parallel(r, "decode"),
                cell(r.get("isl")), cell(r.get("osl")), cell(r.get("conc"))]

    def metric_columns(keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(k, h) for k, h in keys if k in present]

    thr = metric_columns([("tput_per_gpu", "Total throughput (tokens/s per GPU)"),
                          ("output_tput_per_gpu", "Output throughput (tokens/s per GPU)"),
                          ("input_tput_per_gpu", "Input throughput (tokens/s per GPU)"),
                          ("total_tput_tps", "Total throughput (tokens/s per system)"),
                          ("output_tput_tps", "Output throughput (tokens/s per system)"),
                          ("input_tput_tps", "Input throughput (tokens/s per system)")])
    speed = metric_columns([(f"{k}_intvty", f"Interactivity {s}{', slow tail' if s in ('p90', 'p95', 'p99') else ''} "
                             f"(tokens/s per user)") for k, s in _STATS])
    lat = metric_columns([(f"{k}_{stem}", f"{label} {s} ({unit})")
                          for stem, label, unit in _LATENCIES for k, s in _STATS])
    # a disaggregated deployment divides output by its decode GPUs and input by its
    # prefill GPUs: those figures are no per-GPU figure of the whole deployment
    split = [("output_tput_per_gpu", "Output throughput (tokens/s per decode GPU)"),
             ("input_tput_per_gpu", "Input throughput (tokens/s per prefill GPU)")]
    groups = [("Aggregated serving", [x for x in kept if not _flag(x[0].get("disagg"))], thr),
              ("Disaggregated serving (prefill and decode on separate GPUs)",
               [x for x in kept if _flag(x[0].get("disagg"))],
               [(k, dict(split).get(k, h)) for k, h in thr])]
    for heading, members, thr_cols in groups:
        if not members:
            continue
        cols = thr_cols + speed + lat
        header = settings + [h for _, h in cols] + ["Image"]
        body, metas = [], []
        for r, where_, metrics in members:
            n, pre, dec = _gpus(r)
            body.append(setting_cells(r, n) + [metrics.get(k, "") for k, _ in cols]
                        + [cell(r.get("image"))])
            metas.append({"row": where_, "hardware": cell(r.get("hardware") or r.get("hw")),
                          "model": cell(r.get("model")), "framework": cell(r.get("framework")),
                          "date": cell(r.get("date")) or None, "gpus": n, "prefill_gpus": pre,
                          "decode_gpus": dec, "config_id": cell(r.get("config_id")) or None,
                          "run_url": cell(r.get("run_url")) or None,
                          "cells": {h: _pointer(where_, r, k) for k, h in cols if k in metrics}})
        w.line()
        w.line(f"## {heading}")
        w.line()
        for m, (start, end) in zip(metas, w.table(header, body)):
            m["start"], m["end"] = start, end
            row_meta.append(m)
    w.line()
    dates = sorted(d[:10] for d in (cell(r.get("date")) for r, _, _ in kept)
                   if re.match(r"\d{4}-\d\d-\d\d", d))
    meta: dict[str, Any] = {"rows": row_meta, "n_rows": len(kept), "shape": shape,
                            "metric_notes": {
                                "tput_per_gpu": "total (input + output) tokens/s over all GPUs",
                                "intvty": "1000 / TPOT in ms: p90/p99 are the slow tail",
                                "disaggregated": "output per decode GPU, input per prefill GPU"}}
    if failed:
        meta["rows_failed"] = failed
    published = None
    if dates:
        published = dates[-1]
        meta["published_source"] = "latest result date"
        meta["dates"] = [dates[0], dates[-1]]
    return Parsed(w.text, "markdown", title=title, publisher="SemiAnalysis InferenceX",
                  published=published, meta={**meta, "tables": w.tables})
