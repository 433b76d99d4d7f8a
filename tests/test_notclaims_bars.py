"""Thresholds, worked examples, written-out arithmetic, operating points, chart axes down a
page and setting columns are not claims (docs/extraction.md, "What is not a claim").

Each rule is tested against its counterpart (the same number where it is a figure), and
metamorphically: the same fact reworded, reordered or laid out another way gives the same
answer. Every sentence here is written for these tests."""
from __future__ import annotations

import pytest

from pipeline.extract import extract_claims
from pipeline.model import Document


def claims(text: str, fmt: str = "text"):
    return extract_claims(Document(id="t", path="t", format=fmt, text=text))


def values(text: str, family: str | None = None) -> list[float]:
    return [c.value for c in claims(text) if family is None or c.family == family]


# ------------------------------------------------------------------ thresholds

@pytest.mark.parametrize("bar", [
    "The operators set the P99 TTFT SLO to 250 ms, and the new scheduler serves 2.1x more requests.",
    "Under a 250 ms TTFT SLO, the new scheduler serves 2.1x more requests.",
    "With a time-to-first-token deadline of 250 ms, the new scheduler serves 2.1x more requests.",
    "The new scheduler serves 2.1x more requests while TTFT must stay below 250 ms.",
    "Interactive use requires a first token quickly (e.g., under 250 ms); the new scheduler serves 2.1x more requests.",
    "When the first-token latency is constrained to be under 250 ms, the new scheduler serves 2.1x more requests.",
    "The TTFT threshold is 250 ms; the new scheduler serves 2.1x more requests.",
])
def test_a_latency_bar_is_no_figure_however_it_is_worded(bar):
    got = claims(bar)
    assert [c.family for c in got] == ["ratio"], [(c.surface, c.family) for c in got]


@pytest.mark.parametrize("measured", [
    "On the chat trace the new scheduler keeps P99 TTFT at 250 ms.",
    "The new scheduler's TTFT stays under 250 ms on one H100.",
    "The engine can achieve less than 250 ms to first token on one H100.",
    "The P99 TTFT measured 250 ms, below the 300 ms SLO.",
])
def test_a_measured_latency_beside_the_same_words_stays_a_figure(measured):
    assert 0.25 in values(measured, "latency"), measured


@pytest.mark.parametrize("configured, measured", [
    ("The TBT thresholds are set to 100 ms, 200 ms and 300 ms, depending on the trace.",
     "On the three traces the engine's TBT was 100 ms, 200 ms and 300 ms."),
    ("We count a request as served when its TTFT and TBT stay within thresholds set to 10 s and 100 ms.",
     "The engine's TTFT and TBT were 10 s and 100 ms on the long trace."),
    ("Setting the TTFT and TBT thresholds to 10 s and 100 ms, respectively, the pool serves 1.6x more requests.",
     "With the new pool, TTFT and TBT drop to 10 s and 100 ms, respectively, on one H800 node."),
])
def test_values_a_setting_configures_are_bars_and_values_reached_are_figures(configured, measured):
    assert [c.family for c in claims(configured)] in ([], ["ratio"]), [c.surface for c in claims(configured)]
    assert len(values(measured, "latency")) >= 2, measured


def test_a_bar_written_as_a_list_bars_each_item():
    got = claims("Suppose the SLOs are a P90 TTFT of 0.3 seconds and a P90 TPOT of 0.05 seconds.")
    assert got == []
    # the list reordered gives the same answer
    assert claims("Suppose the SLOs are a P90 TPOT of 0.05 seconds and a P90 TTFT of 0.3 seconds.") == []
    got = claims("The SLO for TTFT is 300 ms and for TPOT 50 ms, and vLLM reached a TPOT of 42 ms.")
    assert [c.value for c in got] == [pytest.approx(0.042)]


# ------------------------------------------------------------------ worked examples

@pytest.mark.parametrize("example", [
    "Suppose a 100B model runs on one accelerator with 2 TB/s of bandwidth: each step takes 100 ms.",
    "Let's say a 100B model runs on one accelerator with 2 TB/s of bandwidth; each step then takes 100 ms.",
    "For example, if a 100B model runs on one accelerator with 2 TB/s of bandwidth, each step takes 100 ms.",
    "- Ex. 100B model on one accelerator at 2 TB/s takes 100 ms",
    "Example: a 100B model on one accelerator at 2 TB/s takes 100 ms.",
])
def test_a_worked_example_gives_no_figures(example):
    assert claims(example) == [], [(c.surface, c.family) for c in claims(example)]


def test_an_example_of_a_measurement_and_a_stated_premise_stay_figures():
    # "for example" that introduces a measured result is no supposition
    assert 100 in [round(c.value * 1000) for c in claims(
        "For example, the engine decodes each step in 100 ms on one H100.") if c.family == "latency"]
    # a publisher's estimate states its premise; both numbers are its claims
    got = claims("Assuming one accelerator rents for $3 per hour, the fleet costs $72,000 a day.")
    assert sorted(c.value for c in got if c.family == "money") == [3, 72000]


# ------------------------------------------------------------------ arithmetic written out

@pytest.mark.parametrize("working", [
    "Each box costs 3*150=450 dollars in the puzzle.",
    "Per-GPU rate = 12 x 250 = 3000 tokens/s in this estimate.",
    "The transfer takes 4096 tokens * (2 MB/token) / (50 GB/s * 4) = 41 ms.",
])
def test_arithmetic_written_out_is_working(working):
    assert claims(working) == [], [(c.surface, c.family) for c in claims(working)]


def test_a_figure_next_to_a_product_name_is_not_arithmetic():
    assert values("The engine reaches 3000 tokens/s on 8 x H100.", "token_throughput") == [3000]


# ------------------------------------------------------------------ operating points

_PACKED = "Prompts are packed to 8K or 32K tokens. "


@pytest.mark.parametrize("text", [
    "The new kernel improves decode throughput by 1.3x at 8K and 1.5x at 32K.",
    "At 8K the new kernel improves decode throughput by 1.3x, and at 32K by 1.5x.",
    "The new kernel improves decode throughput by 1.3x at a context length of 8K and 1.5x at 32K.",
])
def test_a_context_length_the_figures_were_read_at_is_a_setting(text):
    got = [c for c in claims(_PACKED + text) if c.start >= len(_PACKED)]
    assert [(c.family, c.value) for c in got] == [("ratio", 1.3), ("ratio", 1.5)], [c.surface for c in got]


def test_a_context_length_a_model_supports_stays_a_claim():
    assert values("The model supports a context length of 32K tokens.", "tokens") == [32000]
    assert values("We trained the model for 2T tokens and it reached 1.3x the throughput of its predecessor.",
                  "tokens") == [2e12]


# ------------------------------------------------------------------ chart axes down a page

# a chart's y-axis that PDF text wrote at the ends of the lines of the paragraph beside it;
# the paragraph's own figure (50 ms) lends its unit to the bare ticks
_LEAD = "Our service cuts the time to first token to 50 ms and "
_AXIS_DOWN = (_LEAD + "100\n"
              "keeps the cache warm across sessions\n"
              "80\n"
              "so that repeated prefixes are cheap 60\n"
              "to serve at scale.\n"
              "40\n"
              "20\n")


def test_tick_labels_down_the_line_ends_are_an_axis():
    assert [c.surface for c in claims(_AXIS_DOWN)] == ["50 ms"]


def test_an_axis_read_upward_or_spaced_otherwise_is_still_an_axis():
    up = _AXIS_DOWN
    for a, b in (("100", "T5"), ("80", "T4"), ("60", "T3"), ("40", "T2"), ("20", "T1")):
        up = up.replace(a, b)
    for a, b in (("T5", "20"), ("T4", "40"), ("T3", "60"), ("T2", "80"), ("T1", "100")):
        up = up.replace(a, b)
    assert [c.surface for c in claims(up)] == ["50 ms"]
    # the same ticks one to a line, with a blank line inside the run
    alone = _LEAD + "100\n80\n\n60\n40\n20\n"
    assert [c.surface for c in claims(alone)] == ["50 ms"]


def test_measured_values_at_line_ends_are_not_an_axis():
    text = ("The first run served 1,234 tokens/s\n"
            "The second run served 1,107 tokens/s\n"
            "The third run served 986 tokens/s\n"
            "The fourth run served 871 tokens/s\n")
    assert values(text, "token_throughput") == [1234, 1107, 986, 871]
    # round but uneven numbers at line ends are no axis either
    text = "Batch one took 100 ms\nBatch two took 80 ms\nBatch three took 90 ms\nBatch four took 20 ms\n"
    assert len(values(text, "latency")) == 4


# ------------------------------------------------------------------ setting columns

_ADAPTERS = ("The table gives request throughput (req/s) for each setup.\n\n"
             "| Setup | n | Ours | Baseline |\n|---|---|---|---|\n"
             "| A | 4 | 8.1 | 2.2 |\n| A | 200 | 7.6 | 0.3 |\n")


def test_a_variable_column_is_a_setting():
    got = claims(_ADAPTERS, "markdown")
    assert sorted(c.value for c in got) == [0.3, 2.2, 7.6, 8.1]


def test_a_thinking_budget_row_is_a_setting():
    # the same facts with the models' columns swapped give the same answer
    for a, b in (("Gemma-9B", "Qwen-7B"), ("Qwen-7B", "Gemma-9B")):
        speed = {"Gemma-9B": "41.5", "Qwen-7B": "37.2"}
        budget = {"Gemma-9B": "32K", "Qwen-7B": "64K"}
        ttft = {"Gemma-9B": "210", "Qwen-7B": "250"}
        table = (f"| Metric | {a} | {b} |\n|---|---|---|\n"
                 f"| Decode speed (tokens/s) | {speed[a]} | {speed[b]} |\n"
                 f"| TTFT (ms) | {ttft[a]} | {ttft[b]} |\n"
                 f"| Extended Thinking | {budget[a]} | {budget[b]} |\n")
        got = claims(table, "markdown")
        assert sorted((c.value, c.osl, c.model) for c in got) == [
            (0.21, 32000, "Gemma-9B"), (0.25, 64000, "Qwen-7B"),
            (37.2, 64000, "Qwen-7B"), (41.5, 32000, "Gemma-9B")], [(c.surface, c.family) for c in got]
    # a row that states a size stays a claim
    table = ("| Metric | Gemma-9B | Qwen-7B |\n|---|---|---|\n"
             "| Decode speed (tokens/s) | 41.5 | 37.2 |\n| TTFT (ms) | 210 | 250 |\n"
             "| Context length | 32K | 64K |\n")
    assert sorted(c.value for c in claims(table, "markdown")) == [0.21, 0.25, 37.2, 41.5, 32000, 64000]


def test_a_handful_of_parameters_is_no_model_size():
    assert claims("The window is defined by two parameters: its width and its depth.") == []
    assert claims("The scheduler exposes 12 parameters to tune.") == []
    assert values("The draft model has 68M parameters.", "parameters") == [68e6]
    assert values("The draft model has 68 million parameters.", "parameters") == [68e6]


@pytest.mark.parametrize("label", ["RPS", "RPS (req/s)"])
def test_a_rate_column_written_as_measured_is_a_result_and_round_loads_are_settings(label):
    measured = (f"| Model | {label} | Mean TTFT (ms) |\n|---|---|---|\n"
                "| Qwen-7B | 12.384 | 310 |\n| Qwen-14B | 6.915 | 420 |\n")
    got = claims(measured, "markdown")
    assert sorted((c.family, c.value) for c in got if c.family == "request_throughput") == [
        ("request_throughput", 6.915), ("request_throughput", 12.384)]
    assert all(c.offered_load is None for c in got)
    # the same table with the loads of a sweep: the rates are the runs' settings
    swept = measured.replace("12.384", "4").replace("6.915", "8")
    got = claims(swept, "markdown")
    assert [c.family for c in got] == ["latency", "latency"] and [c.offered_load for c in got] == [4, 8]


# ------------------------------------------------------------------ names

@pytest.mark.parametrize("text, accelerator", [
    ("The results below were collected on a CLOUD-a100-80G GPU: TTFT was 41 ms.", "A100"),
    ("The results below were collected on a CLOUD-A100-80G GPU: TTFT was 41 ms.", "A100"),
    ("The results below were collected on one A100 80GB GPU: TTFT was 41 ms.", "A100"),
    ("The results below were collected on an h100 instance: TTFT was 41 ms.", "H100"),
])
def test_an_accelerator_in_an_instance_name_is_read_in_any_case(text, accelerator):
    (c,) = claims(text)
    assert (c.value, c.accelerator) == (0.041, accelerator)


def test_a_numbered_step_is_no_model():
    doc = ("## Step 1: Start the server\n\nRun the container.\n\n"
           "## Step 2: Measure\n\nThe mean TTFT was 35 ms.\n")
    (c,) = claims(doc, "markdown")
    assert c.model is None
    # a model of the family spelled alike, with its own version, is still read
    (c,) = claims("Step-2 decodes 52 tokens/s per user on one GPU.")
    assert c.model == "Step-2"


@pytest.mark.parametrize("name", ["H100 80GB", "H100 SXM 80GB", "H200 141GB", "A100 80GB", "A100-80GB"])
def test_memory_written_into_a_product_name_is_part_of_the_name(name):
    got = claims(f"We benchmarked on {name}, and measured 2,400 tokens/s.")
    assert [c.family for c in got] == ["token_throughput"], [c.surface for c in got]
    # the same memory stated as the part's specification is a figure
    assert values(f"Each {name.split()[0].split('-')[0]} has 80 GB of HBM.", "memory") == [80e9]


def test_a_fiscal_half_is_a_date_but_a_gpu_is_not():
    assert claims("In H1 2025 the fleet doubled.") == [] or all(c.family == "ratio" for c in claims(
        "In H1 2025 the fleet doubled."))
    assert values("In FY25 the cluster served 1.2M tokens/s.", "token_throughput") == [1.2e6]


@pytest.mark.parametrize("slot", ["PCIe 5.0 x 16", "PCIe Gen5 x16", "PCIe x16"])
def test_a_link_lane_width_is_no_bandwidth(slot):
    got = claims(f"The GPUs talk over {slot} (64 GB/s per link) and reach 52 GB/s.")
    assert 16 not in [c.value for c in got] and 16e9 not in [c.value for c in got], [c.surface for c in got]
    assert 52e9 in [c.value for c in got]


def test_an_axis_with_magnitudes_is_an_axis_and_a_flattened_row_is_not():
    lead = "TTFT rises sharply once prompts pass 32k tokens.\n"
    for axis in ("8k 16k 32k 64k 128k", "128k 64k 32k 16k 8k", "10K 20K 30K 40K 50K"):
        got = claims(lead + axis + "\nPrompt Length\n")
        assert [c.surface for c in got] == ["32k tokens"], (axis, [c.surface for c in got])
    row = claims("#Total Params 67B 72B 70B 39B\n")
    assert len([c for c in row if c.family == "parameters"]) == 4


@pytest.mark.parametrize("configured", [
    "We set the CPU offload buffer (i.e., `offload_gb`) to 120 GB per pod; the pool then served 2.1x more requests.",
    "The CPU offload buffer is set to 120 GB per pod; the pool then served 2.1x more requests.",
    "The CPU offload buffer (default: 120 GB per pod) lets the pool serve 2.1x more requests.",
])
def test_a_value_a_run_was_set_to_is_configuration(configured):
    assert [c.family for c in claims(configured)] == ["ratio"], [c.surface for c in claims(configured)]


def test_a_value_reached_after_a_setting_stays_a_figure():
    assert values("Throughput rose to 3,000 tokens/s after we set the batch to 64.") == [3000]
    assert values("The release sets a record of 3,000 tokens/s on one H100.") == [3000]
    assert values("The pool holds 120 GB of KV cache per pod.", "memory") == [120e9]
    # a limit a model has is its capacity, not a run's setting
    assert values("The model's input is capped at 80K tokens.", "tokens") == [80000]


def test_a_cited_year_with_its_letter_is_no_size():
    assert claims("Lightning attention (Lee et al., 2024b) keeps decoding linear in the context.") == []


def test_a_set_of_documents_sets_nothing():
    assert values("Another paper in the set reports up to 376 tokens per second on one node.") == [376]
    assert values("Each set of runs reaches up to 376 tokens per second.") == [376]


@pytest.mark.parametrize("flag", ['(`--memory="96g"`)', "(--memory 96g)", "(`--shm-size=96g`)"])
def test_a_value_restated_by_the_flag_that_set_it_is_configuration(flag):
    assert claims(f"* RAM: 96 GiB {flag}") == []
    # the same value without the flag is the machine's specification
    assert values("* RAM: 96 GiB", "memory") == [96 * 2**30]
    assert values("* RAM: 96 GiB (DDR5)", "memory") == [96 * 2**30]


@pytest.mark.parametrize("text, kept", [
    (".. image:: chart.png\n   :width: 100%\n\nFastX keeps the GPU at 95% utilization.", ["95%"]),
    (".. figure:: chart.png\n   :scale: 50%\n\nFastX keeps the GPU at 95% utilization.", ["95%"]),
    ("FastX probes the model regularly (e.g., every 32, 64, or 128 tokens) and saves 29% of "
     "tokens.", ["29%"]),
    ("FastX probes the model regularly (for example every 32 or 64 tokens) and saves 29% of "
     "tokens.", ["29%"]),
    ("FastX generated 12,800 tokens per second (e.g., on one H100).", ["12,800 tokens per second"]),
])
def test_layout_options_and_example_values_are_no_figures(text, kept):
    """A markup layout option (":width: 100%") and values listed as examples of a setting
    ("(e.g., every 32, 64 or 128 tokens)") are no figures; a measured rate beside an
    "e.g." bracket stays one."""
    from pipeline.extract import extract_claims
    from pipeline.model import Document

    got = [c.surface for c in extract_claims(Document(id="t", path="t.rst", format="text", text=text))]
    assert got == kept, got
