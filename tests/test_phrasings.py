"""The same figure in the words a journalist or an engineer uses: each phrasing gives the
claim its plainer spelling gives (metamorphic), and the look-alikes next to it stay no claims.

Round 10: units spelled out ("tokens per GPU per second", "gigabits per second"), a multiple
written before its number ("by a factor of 2.54") or as a verb ("quadruples"), one token per
period ("a new token every 0.21 seconds"), counts that name their tokens ("8,596 input
tokens"), a model's capability against a run's length setting, the rivals a figure's engine
beat, and the serving mode (online against offline) as a condition.
"""
from __future__ import annotations

import pytest

from pipeline.api import extract
from pipeline.check import check

FIELDS = ("family", "value", "scope", "token_kind", "phase", "direction", "measures", "baseline")


def _one(text: str):
    claims = extract(text)
    assert len(claims) == 1, (text, [c.surface for c in claims])
    return claims[0]


def _facts(c) -> tuple:
    return tuple(getattr(c, f) for f in FIELDS)


@pytest.mark.parametrize("spelled, plain", [
    ("vLLM hits 26.2K prefill tokens per GPU per second on GB200.",
     "vLLM hits 26.2K prefill tokens/s per GPU on GB200."),
    ("vLLM hits 26.2K prefill tokens per GPU-second on GB200.",
     "vLLM hits 26.2K prefill tokens/s per GPU on GB200."),
    ("The store moves KV cache at 40 gigabits per second.",
     "The store moves KV cache at 40 Gbps."),
    ("Enabling EPLB cut decode throughput by a factor of 2.54.",
     "Enabling EPLB cut decode throughput by 2.54x."),
    ("The int4 KV cache quadruples request throughput.",
     "The int4 KV cache gives 4x request throughput."),
])
def test_spelled_out_units_give_the_plain_claim(spelled, plain):
    assert _facts(_one(spelled)) == _facts(_one(plain))


def test_one_token_per_period_is_the_time_between_tokens():
    c = _one("Anyscale's Llama 2 70B streams a new token every 0.21 seconds.")
    assert (c.family, c.value, c.phase) == ("latency", 0.21, "tpot")
    # a reporting period is still no time taken
    assert extract("The dashboard refreshes its metrics every 10 seconds.") == []


def test_counts_that_name_their_tokens():
    c = _one("The conversation trace averages 8,596 input tokens per request.")
    assert (c.family, c.value, c.token_kind) == ("tokens", 8596, "input")
    c = _one("The model supports outputs of 80K tokens.")
    assert (c.family, c.value, c.token_kind) == ("tokens", 80_000, "output")


@pytest.mark.parametrize("text", [
    "With 2,000 input tokens, TTFT was 0.3 s.",
    "With an input length of 2,000 tokens, TTFT was 0.3 s.",
])
def test_a_length_beside_another_figure_is_its_setting(text):
    c = _one(text)
    assert (c.family, c.value, c.isl) == ("latency", 0.3, 2000)


@pytest.mark.parametrize("text", [
    "TensorRT-LLM outperformed both vLLM and SGLang, achieving 4,176 tokens/s on H200.",
    "TensorRT-LLM beat vLLM and SGLang with 4,176 tokens/s on H200.",
    "At 4,176 tokens/s on H200, TensorRT-LLM was faster than SGLang.",
])
def test_the_rivals_a_figure_beat_are_not_its_engine(text):
    assert _one(text).engine == "TensorRT-LLM"


def test_a_baseline_before_the_subject_stays_a_baseline():
    c = _one("Compared with vLLM, SGLang delivers 2.5x higher throughput.")
    assert (c.engine, c.baseline) == ("SGLang", "vLLM")


@pytest.mark.parametrize("text, mode", [
    ("In offline scenarios, H200 reached 6,311 tokens/s with SGLang.", "offline inference"),
    ("H200 reached its best offline throughput of 6,311 tokens/s.", "offline inference"),
    ("H200 reached the highest online throughput of 4,176 tokens/s.", "online serving"),
    ("In the MLPerf Offline scenario, H200 reached 6,311 tokens/s.", "MLPerf Offline"),
])
def test_serving_mode_is_a_condition(text, mode):
    assert _one(text).workload == mode


# --- the checker over a record written here ------------------------------------------------

PRIMARY = """---
title: "Serving notes"
publisher: "Example Labs"
---
# Serving notes

We ran Llama 2 7B with LMDeploy on one A100 at batch size 64, with 128 input tokens and
2,048 output tokens; it generated 1,852 output tokens per second.

In offline scenarios, the H200 reached the highest overall throughput of 6,311 tokens/s on
DeepSeek-R1 with SGLang. TensorRT-LLM outperformed both vLLM and SGLang, achieving the highest
online throughput of 4,176 tokens/s on DeepSeek-R1 on H200.

Our cache served 600B input tokens on DeepSeek-V3 last week, of which 330B tokens (55%) hit
the on-disk KV cache.

With its v0.2 release, SGLang made JSON decoding 2x faster on Llama 3 8B.

With SGLang on Qwen3-8B, the Mooncake transfer engine moved an 8,192-token prompt's KV cache
in 20.31 ms.
"""


@pytest.fixture(scope="module")
def record(ingest_texts) -> str:
    return ingest_texts("phrasings", {"notes.md": PRIMARY})


@pytest.mark.parametrize("headline, verdict", [
    # the source names no denominator either: the claim restates it
    ("LMDeploy generated about 1,852 output tokens per second on Llama 2 7B on one A100 at batch 64", "supported"),
    # ... but one request's share of that batch is another quantity
    ("Each of the 64 requests LMDeploy ran on one A100 got about 1,852 tokens per second on Llama 2 7B", "unproven"),
    # a figure credited to a counted set of GPUs is the set's, and none is on record
    ("Eight A100s running LMDeploy generated about 1,852 output tokens per second on Llama 2 7B", "unproven"),
    # the online figure is no offline figure: the offline best on record is 6,311
    ("The H200 reached its best offline DeepSeek-R1 throughput of 4,176 tokens per second", "contradicted"),
    ("TensorRT-LLM reached 4,176 tokens per second online on DeepSeek-R1 on H200", "supported"),
])
def test_open_denominators_and_serving_modes(record, headline, verdict):
    v = check(headline, record)
    assert v.verdict == verdict, v.explanation


def test_a_rivals_figure_never_supports_the_rival(record):
    # 4,176 is TensorRT-LLM's, which beat SGLang: no reading makes it SGLang's
    v = check("SGLang reached 4,176 tokens per second in aggregate on DeepSeek-R1 on H200", record)
    assert v.verdict != "supported", v.explanation


# --- precision sample 8: look-alikes and subjects ---------------------------------------

@pytest.mark.parametrize("text", [
    "Suppose a chatbot requires TTFT < 300 ms and TPOT < 40 ms for its users.",
    "We define goodput (P90 TTFT < 300ms and P90 TPOT < 40ms) as the highest rate served.",
])
def test_a_latency_written_as_a_requirement_is_no_claim(text):
    assert [c for c in extract(text) if c.family == "latency"] == []


def test_a_latency_a_system_kept_under_stays_a_claim():
    assert _one("On H100, our engine kept TTFT < 300 ms for the whole run.").value == 0.3


@pytest.mark.parametrize("text", [
    "The engine reached 5,100 tokens per second per GPU for 4,000-token input lengths.",
    "The engine reached 5,100 tokens per second per GPU with 4,000 input tokens.",
    "The engine reached 5,100 tokens per second per GPU at an input length of 4,000 tokens.",
])
def test_an_input_length_is_the_setting_of_the_figure(text):
    c = _one(text)
    assert (c.family, c.value, c.isl) == ("token_throughput", 5100, 4000)


def test_what_a_model_was_built_from_is_not_the_model():
    claims = extract("DeepSeek-V3 is built on our previous DeepSeek-V2 model, and comprises 671 "
                     "billion parameters in total.")
    assert [(c.value, c.model) for c in claims] == [(671e9, "DeepSeek-V3")]


def test_a_rivals_own_figure_is_the_rivals():
    claims = extract("vLLM outperforms TGI, reaching 5.8 requests/second against TGI's 3.6 requests/second.")
    assert [(c.value, c.engine) for c in claims] == [(5.8, "vLLM"), (3.6, "TGI")]


def test_a_share_of_one_kind_of_tokens():
    assert _one("About 40% of the input tokens hit the cache.").token_kind == "input"


def test_a_share_of_tokens_that_says_not_which_meets_no_claim_on_output_tokens(record):
    assert check("55% of DeepSeek-V3's tokens hit its KV cache", record).verdict == "supported"
    v = check("55% of DeepSeek-V3's output tokens are served from its KV cache", record)
    assert v.verdict == "unproven", v.explanation


@pytest.mark.parametrize("headline, verdict", [
    ("SGLang v0.2 made JSON decoding 2x faster on Llama 3 8B", "supported"),
    # the figure is v0.2's: another release's claim is not shown by it
    ("SGLang's v0.4 release made JSON decoding 2x faster on Llama 3 8B", "unproven"),
])
def test_an_engine_release_must_be_the_evidences(record, headline, verdict):
    v = check(headline, record)
    assert v.verdict == verdict, v.explanation


@pytest.mark.parametrize("cell", ["128", "128 tokens"])
def test_a_setting_cell_with_its_unit_is_the_rows_setting(cell):
    # the paragraph's one prompt length is not the length of a row that states its own
    text = ("For a prompt length of 32,768 tokens the transfer took **76.78 ms**.\n\n"
            "| Prompt Length | TTFT (ms) | KV Size |\n|---|---:|---:|\n"
            f"| {cell} | 129.21 | 49 MB |\n")
    got = {c.surface: c.isl for c in extract(text)}
    assert got == {"76.78 ms": 32768, "129.21": 128, "49 MB": 128}


@pytest.mark.parametrize("headline, verdict", [
    ("With SGLang, Mooncake moved an 8,192-token Qwen3-8B prompt's KV cache in about 20 ms", "supported"),
    # the run is SGLang's: a second engine the headline names must be the evidence's
    ("With vLLM, Mooncake moved an 8,192-token Qwen3-8B prompt's KV cache in about 20 ms", "unproven"),
])
def test_every_engine_a_headline_names_is_the_evidences(record, headline, verdict):
    v = check(headline, record)
    assert v.verdict == verdict, v.explanation


@pytest.mark.parametrize("text, nodes", [
    ("across two eight-H800 nodes", 2), ("on two 8-GPU nodes", 2), ("across two 8xH100 nodes", 2),
    ("on two H200 nodes", 2), ("a two-node H100 system", 2), ("each 8-GPU node", None),
])
def test_a_nodes_own_accelerators_do_not_count_the_nodes(text, nodes):
    from pipeline.cause import nodes_of
    assert nodes_of(text, 0) == nodes
