"""A benchmark tool's printed results ("Mean TTFT (ms):   33.71") are a table read on its
side, also inside a code fence; a configuration in a fence stays code (docs/tables.md).
Text written for these tests."""
from __future__ import annotations

from pipeline.extract import extract_claims
from pipeline.model import Document

RESULTS = """\
============ Serving Benchmark Result ============
Successful requests:                     200
Benchmark duration (s):                  41.20
Total input tokens:                      61000
Request throughput (req/s):              4.85
Output token throughput (tok/s):         1210.40
---------------Time to First Token----------------
Mean TTFT (ms):                          88.10
P99 TTFT (ms):                           240.55
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          7.92
==================================================
"""

CONFIG = """\
max_tokens: 512
batch_size: 32
tensor_parallel_size: 8
"""


def claims(text: str):
    return extract_claims(Document(id="t", path="t.md", format="markdown", text=text))


def facts(found):
    return sorted((round(c.value, 6), c.family, c.statistic, c.phase) for c in found)


def test_printed_results_read_the_same_inside_and_outside_a_fence():
    lead = "We ran Qwen2.5-7B with vLLM on one H100.\n\n"
    bare = claims(lead + RESULTS)
    fenced = claims(lead + "```\n" + RESULTS + "```\n")
    assert facts(bare) == facts(fenced)
    got = {(round(c.value, 6), c.family) for c in fenced}
    assert {(4.85, "request_throughput"), (1210.4, "token_throughput"), (0.0881, "latency"),
            (0.24055, "latency"), (0.00792, "latency"), (41.2, "latency")} <= got
    ttft = [c for c in fenced if c.value == 0.0881][0]
    assert (ttft.statistic, ttft.phase) == ("mean", "ttft")
    # a total of the run is a figure, not the input length of the others
    assert all(c.isl is None for c in fenced)
    assert (61000, "tokens") in got


def test_a_configuration_in_a_fence_stays_code():
    assert claims("Our settings:\n\n```yaml\n" + CONFIG + "```\n") == []


def test_printed_output_lines_with_units_inside_a_fence_are_read():
    out = ("If it works you will see:\n\n```\nThroughput: 7.15 requests/s, 4656.00 total tokens/s, "
           "1072.15 output tokens/s\nTotal num prompt tokens:  5014\n```\n")
    got = {(c.value, c.family, c.token_kind) for c in claims(out)}
    assert {(7.15, "request_throughput", None), (4656.0, "token_throughput", "total"),
            (1072.15, "token_throughput", "output")} <= got
    # the command that printed it is code
    assert claims("Run it:\n\n```bash\npython bench.py --rate 7.15 --tokens 4656\n```\n") == []


def test_a_header_ending_in_a_time_unit_and_a_prompt_length_column():
    table = ("|    PP |     TG |    B |   T_PP s | S_PP t/s |\n|---|---|---|---|---|\n"
             "|   512 |    128 |    1 |    0.108 |  1186.64 |\n")
    found = claims(table)
    assert sorted((c.value, c.family) for c in found) == [(0.108, "latency"), (1186.64, "token_throughput")]
    assert all(c.parallelism is None for c in found)   # "PP 512" is no pipeline degree
