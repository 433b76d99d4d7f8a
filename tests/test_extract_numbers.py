"""The number grammar and units, on sentences written for these tests."""
from __future__ import annotations

import pytest

from pipeline.extract import extract_claims
from pipeline.model import Document


def claims(text: str):
    return extract_claims(Document(id="t", path="t.txt", format="text", text=text))


def one(text: str):
    found = claims(text)
    assert len(found) == 1, [(c.surface, c.family) for c in found]
    return found[0]


@pytest.mark.parametrize("text, value, family, unit", [
    ("The cluster served 3,450 tokens/s overall.", 3450, "token_throughput", "tokens/s"),
    ("We saw 1.25 million tokens per second in total.", 1.25e6, "token_throughput", "tokens/s"),
    ("Our box did 612K tok/s in aggregate.", 612e3, "token_throughput", "tokens/s"),
    ("The gateway handled 48 requests per second.", 48, "request_throughput", "requests/s"),
    ("First tokens arrived after 240 ms.", 0.24, "latency", "s"),
    ("The batch job needed 2.5 hours.", 9000, "latency", "s"),
    ("Each card carries 96 GB of memory.", 96e9, "memory", "bytes"),
    ("Each card carries 64 GiB of memory.", 64 * 2**30, "memory", "bytes"),
    ("The link moves 3.2 TB/s.", 3.2e12, "bandwidth", "bytes/s"),
    ("The chip peaks at 990 TFLOPS.", 990e12, "compute", "FLOP/s"),
    ("The rack draws 120 kW.", 120e3, "power", "W"),
    ("The new kernel is 3.7x faster.", 3.7, "ratio", "x"),
    ("It ran 12.5 times quicker.", 12.5, "ratio", "x"),
    ("Throughput rose fivefold.", 5, "ratio", "x"),
    ("Hit rates climbed to 71%.", 71, "percent", "%"),
    ("Renting one costs $2.40 per GPU-hour.", 2.40, "money", "USD"),
    ("The model has 405 billion parameters.", 405e9, "parameters", "count"),
    ("A 70-billion-parameter model fits.", 70e9, "parameters", "count"),
    ("It accepts a 256K-token window.", 256e3, "tokens", "count"),
    ("It accepts a 2-million-token window.", 2e6, "tokens", "count"),
])
def test_units_and_values(text, value, family, unit):
    c = one(text)
    assert c.family == family and c.unit == unit
    assert c.value == pytest.approx(value)
    assert c.surface == text[c.start:c.end]


@pytest.mark.parametrize("text, low, high", [
    ("Speed stayed between 40 and 90 tokens/s per user.", 40, 90),
    ("Gains were 15–25% on long prompts.", 15, 25),
    ("Expect a 1.5-2.2x speedup.", 1.5, 2.2),
    ("Speed ranged from 40 to 90 tokens/s per user.", 40, 90),
])
def test_ranges_keep_both_ends(text, low, high):
    c = one(text)
    assert (c.low, c.high) == (pytest.approx(low), pytest.approx(high))
    assert c.value == pytest.approx(low)


@pytest.mark.parametrize("text, comp", [
    ("It delivers more than 500 tokens/s per user.", ">"),
    ("It delivers at least 500 tokens/s per user.", ">="),
    ("It delivers 500+ tokens/s per user.", ">="),
    ("It delivers up to 500 tokens/s per user.", "<="),
    ("It delivers under 500 tokens/s per user.", "<"),
    ("It delivers roughly 500 tokens/s per user.", "~"),
    ("It delivers 500 tokens/s per user.", "="),
    ("Roughly 500 tokens/s per user.", "~"),          # comparators are read case-blind
    ("It delivers UP TO 500 tokens/s per user.", "<="),
    ("It delivers No Less Than 500 tokens/s per user.", ">="),
])
def test_comparators(text, comp):
    assert one(text).comparator == comp


@pytest.mark.parametrize("text, precision", [
    ("About 2.35 million tokens/s in total.", 5000),
    ("A price of $17 per GPU-hour.", 0.5),
    ("A price of $17.25 per GPU-hour.", 0.005),
    ("It reached 880 tokens/s per user.", 0.5),
])
def test_precision_is_half_the_last_digit(text, precision):
    assert one(text).precision == pytest.approx(precision)


@pytest.mark.parametrize("text", [
    "We tested Llama 3 on H200 and B300 boards with EAGLE-3 in FP8.",
    "Mistral 7B and Qwen2.5-14B were compared on an MI300X node in 2025.",
    "See Section 4.2, Figure 3 and version v0.7.1, released on March 3, 2025.",
    "The GB300 NVL72 and the DGX B200 were both in the lab on 2025-06-01.",
    "Five engineers spent three weeks on it.",
    "Results at P99 on TP8 with 2xTP4 are in Table 2.",
])
def test_numbers_inside_names_dates_and_counts_are_not_claims(text):
    assert claims(text) == []


def test_hardware_count_is_a_condition_not_a_claim():
    c = one("On eight H200 GPUs the server reached 9,800 tokens/s per GPU.")
    assert c.value == 9800 and c.hardware == "8 x H200" and c.scope == "per_gpu"
    c = one("With 8x H100 the node reached 21,000 tokens/s.")
    assert c.value == 21000 and c.hardware == "8 x H100"


def test_systems_expand_to_counted_accelerators():
    c = one("A DGX H100 serves 14,200 tokens/s.")
    assert c.hw_count == 8 and c.accelerator == "H100"
    c = one("A GB200 NVL72 rack serves 2.1 million tokens/s.")
    assert c.hw_count == 72 and c.accelerator == "GB200"


def test_money_basis_and_scope():
    c = one("The provider lists $0.90 per million tokens.")
    assert c.family == "money" and c.per_basis == "million tokens"
    c = one("Spot capacity went for $1.85 per GPU-hour at off-peak prices.")
    assert c.scope == "per_gpu" and c.per_basis == "GPU-hour" and "off-peak" in (c.price_basis or "")


def test_spelled_numbers_with_units():
    c = one("A rewrite gave a hundred percent more speed.")
    assert c.family == "percent" and c.value == 100
    assert claims("Four teams joined.") == []


def test_durations_that_date_an_event_are_not_latency():
    assert claims("The patch landed two days earlier.") == []


@pytest.mark.parametrize("text", [
    "The new build breaks 700 tokens/s per user.",
    "The new build crossed 700 tokens/s per user.",
    "The new build tops 700 tokens/s per user.",
])
def test_records_broken_are_lower_bounds(text):
    assert one(text).comparator == ">"


def test_a_range_with_its_unit_on_both_ends():
    from pipeline.extract import extract_claims
    from pipeline.model import Document
    found = extract_claims(Document(id="t", path="t.md", format="markdown",
                                    text="With SGLang, throughput rose about 7%–8% and latency fell 2x-3x."))
    assert [(c.low, c.high, c.family) for c in found] == [(7.0, 8.0, "percent"), (2.0, 3.0, "ratio")]


@pytest.mark.parametrize("text, before, after", [
    ("Speed rose from 40 to 90 tokens/s per user.", 40, 90),
    ("Fusion lifted throughput on Qwen2.5-72B from 1.2k to 1.9k tokens/s per GPU.", 1200, 1900),
    ("Hit rates improved from 15% to 25% on long prompts.", 15, 25),
])
def test_a_change_is_two_figures_not_a_range(text, before, after):
    """'rose from A to B' is a before and an after (pipeline/extract/change.py)."""
    found = claims(text)
    assert [(c.value, c.low, c.high) for c in found] == [(before, None, None), (after, None, None)]


def _md(text: str):
    return extract_claims(Document(id="t", path="t.md", format="markdown", text=text))


def test_a_multi_line_html_tag_holds_no_figures():
    found = _md('SGLang serves 120 tokens/s per user.\n\n<img src="a.png"\n     style="width: 75%;\n'
                '     max-width: 100%;">\n')
    assert [c.value for c in found] == [120]


def test_a_unit_in_parentheses_after_the_measured_quantity_before_a_table():
    text = ("We measure the token generation throughput (tokens/s) of each engine.\n\n"
            "| model | vLLM | SGLang |\n| --- | --- | --- |\n| Llama-2-7B | 112.9 | 159.4 |\n")
    assert [(c.value, c.family) for c in _md(text)] == [(112.9, "token_throughput"),
                                                        (159.4, "token_throughput")]


@pytest.mark.parametrize("statement, scope", [
    ("All benchmarks are run at batch size=1.", "per_user"),
    ("All benchmarks are run at batch size=16.", "unspecified"),
])
def test_a_section_measured_one_request_at_a_time_gives_per_user_rates(statement, scope):
    text = (f"## Benchmarks\n\n{statement}\n\n### Int8\n\n| Model | Tokens/Second |\n| --- | --- |\n"
            "| Llama-2-7B | 155.58 |\n\n## Other\n\n| Model | Tokens/Second |\n| --- | --- |\n"
            "| Llama-2-7B | 99.5 |\n")
    got = {c.value: c.scope or "unspecified" for c in _md(text)}
    assert got[155.58] == scope and got[99.5] == "unspecified"


def test_a_size_bounding_a_class_of_models_inherits_no_model():
    found = _md("# DeepSeek-V2\n\nDeepSeek-V2 is fast.\n\n#### Benchmarks (Models smaller than 16B)\n\n"
                "DeepSeek-V2 has 236B parameters.\n")
    assert [(c.value, c.model) for c in found] == [(16e9, None), (236e9, "DeepSeek-V2")]


@pytest.mark.parametrize("head", ["% Improvement", "Improvement (%)"])
def test_a_percent_change_column_beside_metric_rows_holds_percents(head):
    """A transposed table (metrics down the first column) with a change column: its cells
    are percents whatever quantity the row measures."""
    text = (f"| Metric | FP16 | FP8 | {head} |\n| --- | --- | --- | --- |\n"
            "| Token Throughput (tokens/sec) | 2474.2 | 6049.1 | 144.48 |\n"
            "| Average Time To First Token (ms) | 147.5 | 88.0 | 40.36 |\n")
    got = {c.value: c.family for c in _md(text)}
    assert got[144.48] == "percent" and got[40.36] == "percent"
    assert got[2474.2] == "token_throughput"


def test_a_bare_rate_column_beside_results_is_the_load_offered():
    sweep = _md("| RPS | Engine | Median TTFT (ms) | Request throughput |\n| --- | --- | --- | --- |\n"
                "| 4 | SGLang | 35.2 | 3.9 |\n| 8 | SGLang | 41.7 | 7.6 |\n")
    assert sorted((c.family, c.value) for c in sweep) == [
        ("latency", 0.0352), ("latency", 0.0417), ("request_throughput", 3.9), ("request_throughput", 7.6)]
    assert {c.offered_load for c in sweep} == {4.0, 8.0}
    alone = _md("| Model | RPS |\n| --- | --- |\n| Llama-2-7B | 14.6 |\n")
    assert [(c.family, c.value) for c in alone] == [("request_throughput", 14.6)]


def test_a_cell_may_write_its_denominator_after_its_number():
    text = ("| Model | GPUs | Prefill Throughput (tokens/sec) |\n| --- | --- | --- |\n"
            "| DeepSeek R1 | 96 x H100 | 52.3k / node |\n| Kimi K2 | 128 x H200 | 56k per GPU |\n")
    assert [(c.value, c.scope) for c in _md(text)] == [(52300, "per_node"), (56000, "per_gpu")]


@pytest.mark.parametrize("text, found", [
    ("We observed a *1.5x* reduction in latency.", [1.5]),
    ("We observed a **1.5x** reduction in latency.", [1.5]),
    ("The grid is 2x * 3 cells.", []),
])
def test_emphasis_after_a_ratio_is_no_multiplication(text, found):
    assert [c.value for c in _md(text)] == found


def test_rows_with_a_software_column_take_no_engine_from_the_document():
    text = ("# vLLM on MI300X\n\nvLLM serves Llama 2 70B fast. vLLM is tuned here. vLLM wins. vLLM rocks. "
            "vLLM again.\n\n## Results\n\n| System | Software | Tokens/s |\n| --- | --- | --- |\n"
            "| A | TensorRT 10.11 | 52,061.6 |\n| B | vLLM 0.9 | 46,016.5 |\n")
    got = {c.value: c.engine for c in _md(text) if c.family == "token_throughput"}
    assert got == {52061.6: None, 46016.5: "vLLM"}


@pytest.mark.parametrize("intro, model, hardware", [
    ("Our case study is Llama-3.3-70B on 4 H100s.", "Llama-3.3-70B", "4 x H100"),
    ("We compare Llama-3.3-70B and Qwen2.5-72B on 4 H100s and 8 A100s.", None, None),
])
def test_figures_of_a_run_take_the_one_model_and_hardware_a_document_names(intro, model, hardware):
    text = (f"# Tuning notes\n\n{intro}\n\n## Batch size\n\nSome words.\n\n### Results\n\n"
            "| Metric | Run A | Run B |\n| --- | --- | --- |\n"
            "| Token Throughput (tokens/sec) | 1564.3 | 2474.2 |\n"
            "| Request Throughput (req/sec) | 0.76 | 1.20 |\n\n"
            "Each GPU has 80 GB of memory.\n")
    got = {c.value: c for c in _md(text)}
    assert (got[1564.3].model, got[1564.3].hardware) == (model, hardware)
    assert got[80e9].model is None      # a device's specification is no run on the model
