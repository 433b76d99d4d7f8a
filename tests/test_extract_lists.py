"""Figures written as a list, and conditions a sentence states once (docs/extraction.md,
"Lists"): each case has a twin in another wording that must give the same reading."""
from __future__ import annotations

import pytest

from pipeline.api import extract


def _by_value(text: str) -> dict[float, object]:
    return {c.value: c for c in extract(text)}


@pytest.mark.parametrize("text", [
    "With int8/int4 weights applied to Mistral 7B, request throughput is improved by 30% and 45% "
    "respectively compared to fp16.",
    "Applying INT8/INT4 weights to Mistral 7B lifts its request throughput by 30% and 45% "
    "respectively compared to fp16.",
])
def test_respectively_gives_each_figure_its_place_in_the_list(text):
    got = _by_value(text)
    assert got[30.0].dtype == "INT8" and got[45.0].dtype == "INT4"
    for v in (30.0, 45.0):
        assert got[v].direction == "up" and got[v].measures == "throughput"
        assert got[v].baseline == "fp16"


def test_respectively_maps_accelerators_and_engines():
    got = _by_value("H100 and H200 reach 90 and 80 TFLOPS respectively.")
    assert got[90e12].accelerator == "H100" and got[80e12].accelerator == "H200"
    got = _by_value("vLLM and SGLang reach 1,200 and 1,500 tokens/s respectively on Llama 3 8B.")
    assert got[1200.0].engine == "vLLM" and got[1500.0].engine == "SGLang"


def test_without_respectively_the_nearest_name_stays():
    got = _by_value("vLLM and SGLang reach 1,200 and 1,500 tokens/s on Llama 3 8B.")
    assert got[1500.0].engine == "SGLang"


@pytest.mark.parametrize("text", [
    "The number of KV blocks can be increased by 4 times with INT4 KV.",
    "The number of KV blocks grows 4x with INT4 KV.",
])
def test_a_factor_after_by_is_a_ratio(text):
    got = _by_value(text)
    assert got[4.0].family == "ratio" and got[4.0].direction == "up"


def test_times_that_count_repetitions_stay_no_ratio():
    assert not extract("We sample each prompt 32 times and average the results.")


@pytest.mark.parametrize("text, direction", [
    ("This improves the throughput of running Llama 3 70B models on 4 H100 GPUs by 28%.", "up"),
    ("Our scheduler raises the throughput of serving Llama 3 70B on 4 H100 GPUs by 28%.", "up"),
    ("The new kernel reduces the time to first token of long prompts on Llama 3 70B by 28%.", "down"),
])
def test_the_verb_that_by_completes_gives_the_direction(text, direction):
    (c,) = extract(text)
    assert c.direction == direction


@pytest.mark.parametrize("text, scope", [
    ("Each Nvidia GB200 delivers 7,400 tokens per second on Llama 2 70B.", "per_gpu"),
    ("Every H100 serves 7,400 tokens per second on Llama 2 70B.", "per_gpu"),
    ("The nodes in our cluster each delivered 28,000 tokens per second on Llama 2 70B.", "per_node"),
    ("Each GB200 NVL72 rack serves 1,000,000 tokens per second on Llama 2 70B.", None),
])
def test_each_names_the_denominator(text, scope):
    c = max(extract(text), key=lambda c: c.value)
    assert (c.scope if c.scope != "unspecified" else None) in ((scope,) if scope else (None, "per_system"))


@pytest.mark.parametrize("text", [
    "Each node delivers an average throughput of ~73.7k tokens/s input during prefilling or "
    "~14.8k tokens/s output during decoding.",
    "On average, each node delivers ~73.7k tokens/s input during prefilling or ~14.8k tokens/s "
    "output during decoding.",
])
def test_a_statistic_stated_once_holds_for_figures_of_its_kind(text):
    got = _by_value(text)
    assert got[73700.0].statistic == got[14800.0].statistic == "mean"


def test_a_statistic_before_a_clause_holds_for_the_one_figure():
    (c,) = extract("Even at the 99th percentile, the engine answered in 4.97 seconds.")
    assert c.statistic == "p99"


@pytest.mark.parametrize("table", [
    # statistics as columns, metrics as rows (a tool's printout) ...
    "| Statistic | avg | p99 |\n|---|---|---|\n| Time to first token (ms) | 13.68 | 18.81 |\n"
    "| Inter token latency (ms) | 1.86 | 2.11 |\n",
    # ... and the same facts with statistics as rows
    "| Statistic | Time to first token (ms) | Inter token latency (ms) |\n|---|---|---|\n"
    "| avg | 13.68 | 1.86 |\n| p99 | 18.81 | 2.11 |\n",
])
def test_a_statistic_on_either_axis_of_a_table(table):
    got = _by_value("# Benchmark of Llama 3 8B on H100\n\n" + table)
    assert got[0.01368].statistic == "mean" and got[0.01881].statistic == "p99"


def test_a_specification_row_is_no_statistic():
    got = _by_value("# GPUs\n\n| Spec | MI300X | H200 |\n|---|---|---|\n"
                    "| Peak Memory Bandwidth | 5.3TB/s | 4.8TB/s |\n")
    assert got[5.3e12].statistic in (None, "peak") and got[4.8e12].family == "bandwidth"


@pytest.mark.parametrize("text", [
    "The eight-B200 system served 29,745 tokens per second on Llama 2 70B.",
    "The 8-B200 system served 29,745 tokens per second on Llama 2 70B.",
    "The eight B200 system served 29,745 tokens per second on Llama 2 70B.",
])
def test_a_count_joined_to_the_accelerator_by_a_hyphen(text):
    (c,) = extract(text)
    assert (c.hw_count, c.accelerator) == (8, "B200")


def test_a_name_inside_a_hyphenated_word_stays_no_accelerator():
    from pipeline.extract.masks import find_names
    from pipeline.vocab.loader import load

    assert not [n for n in find_names("the DGX-B200 box and Llama-2-70B", load()) if n.kind == "accelerator"]
