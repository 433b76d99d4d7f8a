"""Serving-benchmark printouts ("==== Serving Benchmark Result ====" blocks of
"Label (unit):   value" lines, as vLLM's and SGLang's serving benchmarks print them) and
console tables drawn with box characters (GenAI-Perf, Python ``rich``) give the same
claims in every place such output is pasted: bare, in a code fence, in an HTML ``<td>``,
in ``<pre>``, in a .txt log, in an HTML page (docs/tables.md). Every block and table here
was written for these tests; the numbers are invented."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.extract import extract_claims
from pipeline.extract.tables import setting_values
from pipeline.ingest import ingest_file
from pipeline.model import Document

VLLM = """\
============ Serving Benchmark Result ============
Successful requests:                     500       
Maximum request concurrency:             64        
Request rate configured (RPS):           8.00      
Benchmark duration (s):                  63.12     
Total input tokens:                      256000    
Total generated tokens:                  64000     
Request throughput (req/s):              7.92      
Output token throughput (tok/s):         1013.76   
Peak output token throughput (tok/s):    1400.00   
Peak concurrent requests:                71        
Total Token throughput (tok/s):          5069.63   
---------------Time to First Token----------------
Mean TTFT (ms):                          41.37     
Median TTFT (ms):                        38.05     
P99 TTFT (ms):                           97.44     
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          14.21     
Median TPOT (ms):                        13.88     
P99 TPOT (ms):                           22.70     
---------------Inter-token Latency----------------
Mean ITL (ms):                           14.02     
Median ITL (ms):                         12.61     
P99 ITL (ms):                            48.93     
==================================================
"""

SGLANG = """\
============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    16.0
Max request concurrency:                 not set
Successful requests:                     640
Benchmark duration (s):                  88.40
Total input tokens:                      327680
Total generated tokens:                  81920
Total generated tokens (retokenized):    81377
Request throughput (req/s):              7.24
Input token throughput (tok/s):          3706.79
Output token throughput (tok/s):         926.70
Total token throughput (tok/s):          4633.49
Concurrency:                             117.42
Accept length:                           2.91
----------------End-to-End Latency----------------
Mean E2E Latency (ms):                   16210.55
Median E2E Latency (ms):                 15877.02
---------------Time to First Token----------------
Mean TTFT (ms):                          402.31
Median TTFT (ms):                        377.90
P99 TTFT (ms):                           1290.64
---------------Inter-Token Latency----------------
Mean ITL (ms):                           123.96
Median ITL (ms):                         98.12
P95 ITL (ms):                            301.45
P99 ITL (ms):                            655.30
Max ITL (ms):                            2088.71
==================================================
"""

# a title with a pipe in it, thousands separators, N/A cells, rows of lengths and counts
BOX = """\
                                 ACME Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓
┃                       Statistic ┃      avg ┃    min ┃      max ┃      p99 ┃      p90 ┃      p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩
│        Time to first token (ms) │    48.20 │  31.07 │   190.44 │   181.02 │    77.15 │    52.60 │
│            Request Latency (ms) │   902.33 │ 410.80 │ 2,318.47 │ 2,290.10 │ 1,604.92 │ 1,120.35 │
│ Output Sequence Length (tokens) │   611.25 │ 204.00 │ 1,024.00 │ 1,023.50 │   990.10 │   870.00 │
│ Output Token Throughput (tok/s) │ 1,512.64 │    N/A │      N/A │      N/A │      N/A │      N/A │
│    Request Throughput (per sec) │     2.47 │    N/A │      N/A │      N/A │      N/A │      N/A │
│           Request Count (count) │    40.00 │    N/A │      N/A │      N/A │      N/A │      N/A │
└─────────────────────────────────┴──────────┴────────┴──────────┴──────────┴──────────┴──────────┘
"""

# one metric row, and the tool's result lines under the table
BOX_ONE_ROW = """\
                                  LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┳━━━━━━━┓
┃                Statistic ┃   avg ┃   min ┃   max ┃   p99 ┃   p90 ┃   p75 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━╇━━━━━━━┩
│ Time to first token (ms) │ 21.40 │ 17.02 │ 60.11 │ 55.87 │ 24.30 │ 22.05 │
└──────────────────────────┴───────┴───────┴───────┴───────┴───────┴───────┘
Output token throughput (per sec): 873.12
Request throughput (per sec): 5.41
"""

LEAD = "We served Llama-3.1-8B on one H100 and printed the results."

LAYOUTS = {
    "bare.md": lambda b: f"# Run\n\n{LEAD}\n\n{b}",
    "fenced.md": lambda b: f"# Run\n\n{LEAD}\n\n```\n{b}```\n",
    "td-fenced.md": lambda b: (f"# Run\n\n{LEAD}\n\n<table>\n<tr><th>this run</th><th>notes</th></tr>\n<tr>\n<td>\n\n"
                               f"```\n{b}```\n\n</td>\n<td>one client</td>\n</tr>\n</table>\n"),
    "td-pre.md": lambda b: f"# Run\n\n{LEAD}\n\n<table><tr><td><pre>\n{b}</pre></td></tr></table>\n",
    "log.txt": lambda b: f"{LEAD}\n\n{b}",
    "page.html": lambda b: (f"<html><head><title>Run</title></head><body><h1>Run</h1><p>{LEAD}</p>"
                            f"<pre>{b}</pre></body></html>\n"),
}

FIELDS = ("value", "family", "unit", "statistic", "phase", "token_kind", "concurrency", "offered_load",
          "isl", "osl", "model", "hardware")


def _facts(claims) -> list[tuple]:
    return sorted((c.surface,) + tuple(getattr(c, f) for f in FIELDS) for c in claims)


def _ingested(tmp_path: Path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    doc = ingest_file(path, tmp_path)
    claims = extract_claims(doc)
    for c in claims:
        assert doc.text[c.start:c.end] == c.surface
    return doc, claims


def _claims(text: str, fmt: str = "markdown"):
    return extract_claims(Document(id="t", path="t.md", format=fmt, text=text))


@pytest.mark.parametrize("block", [VLLM, SGLANG, BOX, BOX_ONE_ROW], ids=["vllm", "sglang", "box", "box-one-row"])
def test_the_same_printout_gives_the_same_claims_wherever_it_is_pasted(tmp_path, block):
    got = {name: _facts(_ingested(tmp_path, name, render(block))[1]) for name, render in LAYOUTS.items()}
    first = got["fenced.md"]
    assert len(first) >= 8
    for name, facts in got.items():
        assert facts == first, name


_UNIT_LINE_RE = re.compile(r"(?m)^(?P<key>[A-Za-z][^:\n]*\((?:ms|s|req/s|tok/s)\)):[ \t]+(?P<value>\d[\d.]*)[ \t]*$")


@pytest.mark.parametrize("block", [VLLM, SGLANG], ids=["vllm", "sglang"])
def test_every_line_with_a_unit_in_its_label_is_a_claim_spanning_its_value(block):
    text = f"{LEAD}\n\n```\n{block}```\n"
    claims = _claims(text)
    want = {(m.start("value"), m.group("value")) for m in _UNIT_LINE_RE.finditer(text)}
    assert len(want) >= 12
    # and the run's token totals, counts of tokens (neutral), nothing else
    assert {(c.start, c.surface) for c in claims if c.family != "tokens"} == want
    totals = {(m.start(1), m.group(1)) for m in re.finditer(r"(?m)^Total (?:input|generated) tokens[^:]*:\s+(\d+)", text)}
    assert {(c.start, c.surface) for c in claims if c.family == "tokens"} <= totals
    for c in claims:
        if c.family == "tokens":
            continue
        key = text[text.rfind("\n", 0, c.start) + 1:c.start]
        stat = re.match(r"\s*(Mean|Median|P99|P95|Peak|Max)\b", key)
        want_stat = {"Mean": "mean", "Median": "median", "P99": "p99", "P95": "p95", "Peak": "peak",
                     "Max": "peak"}.get(stat.group(1)) if stat else None
        assert c.statistic == want_stat, key
        want_phase = ("ttft" if "TTFT" in key else "tpot" if re.search("TPOT|ITL", key)
                      else "e2e" if "E2E" in key else None)
        assert c.phase == want_phase, key
        want_family = ("latency" if "(ms)" in key or "(s)" in key else "request_throughput" if "req/s" in key
                       else "token_throughput")
        assert c.family == want_family, key
        if "(ms)" in key:
            assert c.unit == "s" and c.value == pytest.approx(float(c.surface) / 1000)


def test_settings_of_the_block_are_conditions_and_counts_are_no_claims():
    vllm = _claims(f"```\n{VLLM}```\n")
    assert vllm and all(c.concurrency == 64 and c.offered_load == 8.0 for c in vllm)
    sgl = _claims(f"```\n{SGLANG}```\n")
    # "not set" is no condition, and "Concurrency: 117.42" is the mean a tool measured:
    # no setting, no claim
    assert sgl and all(c.concurrency is None and c.offered_load == 16.0 for c in sgl)
    for claims, block in ((vllm, VLLM), (sgl, SGLANG)):
        surfaces = {c.surface for c in claims}
        for label in ("Successful requests", "Concurrency", "Accept length", "Peak concurrent requests",
                      "Maximum request concurrency", "Request rate configured (RPS)", "Traffic request rate"):
            m = re.search(rf"(?m)^{re.escape(label)}:\s+(\S+)", block)
            if m:
                assert m.group(1) not in surfaces, label


def test_token_totals_of_a_run_are_token_counts_not_lengths():
    text = SGLANG.replace("Request throughput (req/s)", "Total input tokens (text):   1200\nRequest throughput (req/s)")
    claims = _claims(f"```\n{text}```\n")
    assert all(c.isl is None and c.osl is None for c in claims)
    totals = {c.surface: c for c in _claims(SGLANG) if c.family == "tokens"}
    # read beside the block's figures, a run's totals are counts of tokens (neutral)
    assert set(totals) <= {"327680", "81920", "81377"}


def test_two_blocks_keep_their_own_conditions():
    fast = SGLANG.replace("16.0", "32.0").replace("7.24", "9.81")
    claims = _claims(f"## Rate 16\n\n```\n{SGLANG}```\n\n## Rate 32\n\n```\n{fast}```\n")
    by_value = {c.surface: c.offered_load for c in claims}
    assert by_value["7.24"] == 16.0 and by_value["9.81"] == 32.0


def test_a_box_table_takes_its_statistics_from_the_column_headers():
    claims = _claims(f"```\n{BOX}```\n")
    by = {(c.surface, round(c.value, 6)): c for c in claims}
    ttft = [c for c in claims if c.phase == "ttft"]
    assert sorted((c.surface, c.statistic) for c in ttft) == sorted(
        [("48.20", "mean"), ("31.07", None), ("190.44", None), ("181.02", "p99"), ("77.15", "p90"), ("52.60", "p75")])
    assert by[("2,318.47", 2.31847)].family == "latency"   # thousands separator, ms -> s
    assert by[("1,512.64", 1512.64)].family == "token_throughput"
    assert by[("2.47", 2.47)].family == "request_throughput"
    # N/A holds no number; lengths and counts are no latency and set no length condition
    assert not any(c.family == "latency" and "N/A" in c.surface for c in claims)
    assert all(c.isl is None and c.osl is None for c in claims)
    assert not any(c.surface in ("40.00", "611.25") and c.family != "tokens" for c in claims)


def test_a_one_row_box_table_and_the_result_lines_under_it():
    claims = _claims(f"```\n{BOX_ONE_ROW}```\n")
    got = {(c.surface, c.family, c.statistic) for c in claims}
    assert {("21.40", "latency", "mean"), ("55.87", "latency", "p99"), ("873.12", "token_throughput", None),
            ("5.41", "request_throughput", None)} <= got
    # two result lines that no drawn table stands above are no printout
    alone = BOX_ONE_ROW.split("└")[1].split("\n", 1)[1]
    assert _claims(f"```\n{alone}```\n") == []


def test_a_box_table_of_configuration_stays_code():
    config = ("┏━━━━━━━━━━━━┳━━━━━━━┓\n┃ Parameter  ┃ Value ┃\n┡━━━━━━━━━━━━╇━━━━━━━┩\n"
              "│ max_tokens │   512 │\n│ batch_size │    32 │\n│ tp_size    │     8 │\n└────────────┴───────┘\n")
    assert _claims(f"```\n{config}```\n") == []


def test_a_count_setting_written_with_a_fraction_is_a_measured_mean():
    assert setting_values("concurrency", "Concurrency", "64") == {"concurrency": 64.0}
    assert setting_values("concurrency", "Concurrency", "117.42") == {}
    assert setting_values("osl", "Output Sequence Length", "1,024.00") == {}
    assert setting_values("isl_osl", "ISL/OSL", "1,024.00") == {}
    assert setting_values("isl_osl", "ISL/OSL", "1024/128") == {"isl": 1024.0, "osl": 128.0}
    assert setting_values("isl", "ISL", "1.5k") == {"isl": 1500.0}


WRAPPED = """\
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓
┃                Statistic ┃      avg ┃      p99 ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩
│ Time to first token (ms) │    33.10 │    80.52 │
│  Output Token Throughput │ 1,204.77 │      N/A │
│             (tokens/sec) │          │          │
│     Request Latency (ms) │   640.02 │ 1,310.09 │
└──────────────────────────┴──────────┴──────────┘
"""

WRAPPED_HEADER = """\
┏━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━━━━━━━━┓
┃             ┃ Output       ┃     Time to ┃
┃ Model       ┃ throughput   ┃ first token ┃
┃             ┃ (tok/s)      ┃        (ms) ┃
┡━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━━━━━━┩
│ Qwen2.5-7B  │ 2,310.50     │       45.30 │
│ Llama-3.1-8B│ 2,101.20     │       51.75 │
└─────────────┴──────────────┴─────────────┘
"""


def test_a_box_table_wrapped_over_lines_reads_as_the_unwrapped_one():
    wide = WRAPPED.replace("│  Output Token Throughput │", "│Output Token Throughput (tokens/sec)│")
    wide = "\n".join(x for x in wide.splitlines() if "(tokens/sec) │          │" not in x) + "\n"
    got = {(c.surface, c.family, c.unit, c.statistic, c.phase) for c in _claims(f"```\n{WRAPPED}```\n")}
    assert got == {(c.surface, c.family, c.unit, c.statistic, c.phase) for c in _claims(f"```\n{wide}```\n")}
    assert ("1,204.77", "token_throughput", "tokens/s", "mean", None) in got
    # a header wrapped over three lines is one header per column
    rows = {(c.surface, c.family, c.model, c.phase) for c in _claims(f"```\n{WRAPPED_HEADER}```\n")}
    assert {("2,310.50", "token_throughput", "Qwen2.5-7B", None), ("45.30", "latency", "Qwen2.5-7B", "ttft"),
            ("51.75", "latency", "Llama 3.1 8B", "ttft")} <= rows


def test_figures_printed_to_four_places_and_e2el_labels():
    block = ("===========================================================\n"
             "= PERFORMANCE OVERVIEW\n"
             "===========================================================\n"
             "Request Throughput (req/sec):                     12.4307\n"
             "Per User Output Throughput (tokens/sec/user):     37.1150\n"
             "Per GPU Output Throughput (tokens/sec/gpu):       1590.1200\n"
             "Mean E2EL (ms):                                   5120.4400\n"
             "P99 E2EL (ms):                                    7702.9100\n")
    got = {(c.surface, c.family, c.scope, c.statistic, c.phase) for c in _claims(f"```\n{block}```\n")}
    assert {("12.4307", "request_throughput", None, None, None), ("37.1150", "token_throughput", "per_user", None, None),
            ("1590.1200", "token_throughput", "per_gpu", None, None), ("5120.4400", "latency", None, "mean", "e2e"),
            ("7702.9100", "latency", None, "p99", "e2e")} <= got
    # a month and year is still no figure
    assert _claims("Released 12.2024 with a latency of 40 ms.")[0].surface == "40 ms"


def test_percentile_labels_name_a_statistic_and_are_no_figures():
    block = ("Avg latency: 2.4105 seconds\n10% percentile latency: 2.3012 seconds\n"
             "50% percentile latency: 2.3990 seconds\n90% percentile latency: 2.5178 seconds\n"
             "99% percentile latency: 2.6620 seconds\n")
    for text in (f"```\n{block}```\n", block):
        got = sorted((c.surface, c.family, c.statistic) for c in _claims(text))
        assert got == [("2.3012 seconds", "latency", None), ("2.3990 seconds", "latency", "p50"),
                       ("2.4105 seconds", "latency", "mean"), ("2.5178 seconds", "latency", "p90"),
                       ("2.6620 seconds", "latency", "p99")]
    mlperf = ("Min latency (ns)                : 310070400\nMean latency (ns)               : 30190551020\n"
              "99.00 percentile latency (ns)   : 101200330120\n99.90 percentile latency (ns)   : 120015007300\n")
    got = {(c.surface, c.family, c.statistic) for c in _claims(mlperf, "text")}
    # "99.00 percentile" is the p99; "99.90" is no statistic the claims model names
    assert {("30190551020", "latency", "mean"), ("101200330120", "latency", "p99"),
            ("120015007300", "latency", None)} <= got
    assert not any(c.surface.startswith("99") for c in _claims(mlperf, "text"))
