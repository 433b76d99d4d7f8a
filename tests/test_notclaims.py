"""What is not a claim (docs/extraction.md): each rule against a sentence where the same
number is a claim, so a rule that drops too much fails as surely as one that keeps too much.
Sentences are written for these tests."""
from __future__ import annotations

import pytest

from pipeline.extract import extract_claims
from pipeline.model import Document


def claims(text: str):
    return extract_claims(Document(id="t", path="t", format="text", text=text))


def surfaces(text: str) -> list[str]:
    return [c.surface for c in claims(text)]


@pytest.mark.parametrize("skipped, kept", [
    # a part number is not a time; a time is
    ("The server has two Xeon Gold 6454S processors.", "The job took 6454 s on one GPU server."),
    # TeX math is not a price; a price is
    ("The projection is $64 \\times 576$ for each head.", "The GPU rents for $64 per hour."),
    # a worked example names no system; the same time about a model run does
    ("Mowing the lawn alone takes 40 minutes.", "Fine-tuning the model on one GPU takes 40 minutes."),
    # a share of agreement is no performance figure; a share of throughput is
    ("The annotators reached 59.8% agreement.", "The kernel reached 59.8% higher throughput than the baseline."),
])
def test_rule_and_its_counterpart(skipped, kept):
    assert surfaces(skipped) == [] or all(
        c.family not in ("latency", "money", "percent") for c in claims(skipped)), surfaces(skipped)
    assert surfaces(kept), kept


def test_offered_load_is_a_setting_but_a_lone_rate_is_a_figure():
    load = claims("At 16 QPS, SGLang keeps the median TTFT under 200 ms.")
    assert [c.surface for c in load] == ["200 ms"] and load[0].offered_load == 16
    ranged = claims("We send requests at rates ranging from 1 to 16 requests per second and "
                    "measure a median latency of 2.5 s.")
    assert [c.family for c in ranged] == ["latency"]
    alone = claims("LMDeploy serves Llama 2 7B at 14.6 requests per second on one A100.")
    assert [(c.family, c.value) for c in alone] == [("request_throughput", 14.6)]


def test_length_settings_are_conditions_but_workload_statistics_are_claims():
    s = claims("With an input length of 128k tokens, prefix caching cuts prefill time by 92%.")
    assert [c.surface for c in s] == ["92%"] and s[0].isl == 128000
    stat = claims("The median input in the trace is 142K tokens.")
    assert [c.value for c in stat] == [142000]
    ctx = claims("The model supports a context length of 128K tokens.")
    assert [c.value for c in ctx] == [128000]
    seq = claims("Each prompt keeps a sequence length of 80 tokens; vLLM serves 120 tokens/s per user.")
    assert [c.value for c in seq] == [120] and seq[0].isl == 80


def test_number_and_unit_across_a_hard_line_break():
    s = claims("The best result is 1,094,347\ntokens per second per GPU on one rack.")
    assert [(c.value, c.scope) for c in s] == [(1094347, "per_gpu")]
    assert claims("It reached 1.09\nmillion tokens per second per GPU.")[0].value == 1.09e6
    assert surfaces("It took 40\n\ns for the data to arrive.") == []   # a blank line parts them


def test_chart_axis_ticks_are_not_figures_but_lists_are():
    assert surfaces("0 100 200 300 400 Bandwidth (Gbps) 0 10 20 30 40 TTFT (s)") == []
    ladder = claims("Runs at 30, 50, 75, 100, 150 and 200 tok/s/user.")
    assert len(ladder) == 6 and all(c.scope == "per_user" for c in ladder)


def test_a_setting_value_is_no_figure_and_a_reporter_loses_its_conjunction():
    s = claims("SGLang reached 900 tokens/s at a concurrency of 64, and 1.2k tokens/s at 128.")
    assert [c.value for c in s] == [900, 1200]
    r = claims("It is fast, and the team claims 3x lower latency than vLLM.")
    assert [(c.stance, c.asserted_by) for c in r] == [("reported", "team")]


@pytest.mark.parametrize("family, skipped, kept", [
    # a window of time something was counted over is no time taken; a run's length is
    ("latency", "Over the past 24 hours, the cluster answered 1.2 million requests.",
     "The benchmark run on eight GPUs took 24 hours."),
    ("latency", "The scheduler rebalances the GPU cluster every 10 minutes.",
     "Rebalancing the GPU cluster takes 10 minutes."),
    # the values after a QPS label are loads a run was given; a rate reached is a figure
    ("request_throughput", "We benchmarked the H100 server across QPS 16, 32, and 1000.",
     "The H100 server sustained 16 requests per second."),
    # sizes in parentheses after a model's name name its variants; a stated size is a figure
    ("parameters", "Supported models on the GPU: Llama3.2 (1B, 3B), Intern-S1 (241B).",
     "Intern-S1 has 241B parameters and runs on one GPU node."),
    ("parameters", "<li>Llama (7B - 65B)</li>",
     "Deploy massive models like DeepSeek V3 (685B) on one GPU node."),
    # a share of a score, also the second of two ("scores of 55.6% and 56.0%")
    ("percent", "The models achieve strong scores of 55.6% and 56.0% on SWE-bench.",
     "The GPU kernels achieve 55.6% and 56.0% higher throughput on SWE-bench prompts."),
    # arithmetic written out is working, not a figure; the same ratio stated is one
    ("ratio", "On the GPU cluster the gain is 22/8 = 2.75x over the baseline.",
     "On the GPU cluster the gain is 2.75x over the baseline."),
    ("ratio", "Goodput on the GPU cluster is min(5.6 x 2, 10) requests per second.",
     "Goodput on the GPU cluster is 5.6x higher than before."),
    # a port's rated speed is the setting of a measurement over it; a speed reached is a figure
    ("bandwidth", "Each storage node is equipped with four 200 Gbps RDMA NICs.",
     "Each storage node reached 200 Gbps of RDMA read throughput."),
    ("bandwidth", "We repeat the transfer test under network setups of 4x200 Gbps and 8x400 Gbps.",
     "The transfer test reached 180 Gbps and 350 Gbps over the two network setups."),
    ("bandwidth", "Against the 200 GB/s aggregate line rate of the node, the engine was measured.",
     "The engine moved KV cache at 200 GB/s across the node."),
    # a flag's or a named setting's value sets a run up; a result printed as "name: value" is one
    ("tokens", "Launch the server with --max-model-len 32768 tokens on the GPU.",
     "The model serves a context of 32768 tokens on the GPU."),
    ("request_throughput", "The GPU benchmark ran with request_rate=8 requests/s and finished.",
     "The GPU benchmark reached 8 requests/s and finished."),
    ("request_throughput", "On the GPU server: max_concurrency: 64 requests/s",
     "On the GPU server: Request throughput: 64 requests/s"),
])
def test_setting_or_working_and_its_counterpart(family, skipped, kept):
    assert not [c for c in claims(skipped) if c.family == family], surfaces(skipped)
    assert [c for c in claims(kept) if c.family == family], kept


def test_spread_after_a_mean_is_part_of_the_figure():
    text = ("| model | t/s |\n|---|---|\n| Llama 2 7B | 132.19 ± 0.55 |\n"
            "| Llama 2 13B | 82.17 +- 0.31 |\n")
    found = claims(text)
    assert [(c.value, c.family) for c in found] == [(132.19, "token_throughput"), (82.17, "token_throughput")]


def test_a_device_column_names_hardware_the_vocabulary_lacks_and_accuracy_is_no_claim():
    """Tenstorrent-style device codes in a "Device" column are the row's hardware; a
    "Top-1 (%)" column is an accuracy; "t/s/u" is per user. A "Config" column's "TP8 FP8"
    names no device."""
    table = ("| Model | Device | Top-1 (%) | Speed (t/s/u) |\n|---|---|---|---|\n"
             "| 8b | N300 | 86 | 36.5 |\n| 8b | T3K | 84 | 46.7 |\n")
    got = claims(table)
    assert [(c.value, c.family, c.scope, c.hardware) for c in got] == [
        (36.5, "token_throughput", "per_user", "N300"), (46.7, "token_throughput", "per_user", "T3K")]
    config = claims("| Config | Throughput (tok/s) |\n|---|---|\n| TP8 FP8 | 1,200 |\n")
    assert [(c.value, c.hardware) for c in config] == [(1200, None)]


def test_tokens_per_device_is_a_count_and_per_gpu_per_second_a_rate():
    """A count of tokens per device is a size (a workload setting a headline states); with a
    time after it, it is a per-GPU rate."""
    got = claims("Two-batch overlap helps most at 256 tokens per device on the GPU.")
    assert [(c.value, c.family) for c in got] == [(256, "tokens")]
    got = claims("vLLM decodes DeepSeek-V3 at 10.1K tokens per GPU per second on GB200.")
    assert [(c.value, c.family, c.scope) for c in got] == [(10100, "token_throughput", "per_gpu")]
    got = claims("The model reads 100 tokens per second on the GPU.")
    assert [(c.value, c.family) for c in got] == [(100, "token_throughput")]
