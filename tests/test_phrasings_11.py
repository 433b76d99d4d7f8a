"""Round 11: what precision sample 9 and headline suite 11 showed, as general rules.

Each case states the rule in another wording than the document it came from (the corpus's
sentences stay out of the repository): a bound in a condition clause, arithmetic written
result-first, a request rate listed among a run's conditions, the basis of a price, a
comparator before an HTML-emphasised number, a capital that starts the noun phrase of what
changed, a measure or phase that belongs to the next clause, a class name in code, a
device's spec or a list price carrying the document's model or hardware, a size after an
unknown name; and in the checker, an "up to" that names another best case than the record.
"""
from __future__ import annotations

import pytest

from pipeline.api import extract
from pipeline.check import check

def _only(text: str, family: str | None = None):
    claims = [c for c in extract(text) if family is None or c.family == family]
    assert len(claims) == 1, (text, [c.surface for c in claims])
    return claims[0]


# --- look-alikes ------------------------------------------------------------------------

@pytest.mark.parametrize("text, kept", [
    # the bound a condition clause sets is no figure; the main clause's figure stays one
    ("Once the link bandwidth rises above 200 Gbps, mean TTFT stays under 1.5 s.", 1.5),
    ("If the request rate exceeds 6 req/s, the p99 latency climbs to 840 ms.", 0.84),
    ("Whenthe aggregate bandwidth exceeds 50Gbps,average TTFT drops to 900 ms.", 0.9),
])
def test_a_condition_clause_bound_is_no_figure(text, kept):
    claims = extract(text)
    assert [c.value for c in claims] == [pytest.approx(kept)], [c.surface for c in claims]


def test_a_rate_reached_before_a_comma_stays_a_claim():
    c = _only("SGLang exceeds 3,000 tokens/s on one H100, twice the baseline's rate.", "token_throughput")
    assert c.value == 3000 and c.comparator == ">"


def test_arithmetic_written_result_first_is_working():
    claims = extract("The logits of an 8B model need 12.8GB (=50k tokens * 128k vocab * 2 bytes), "
                     "more than its 16GB of weights.")
    assert sorted(c.surface for c in claims if c.family != "parameters") == ["12.8GB", "16GB"]


@pytest.mark.parametrize("text", [
    "Figure 3: TGI against vLLM serving Qwen2 72B on 4 x H100 (FP8, 16 QPS).",
    "Latency of both engines on Mixtral (BF16; 8 req/s; 4 x A100).",
])
def test_a_rate_listed_with_a_runs_conditions_is_its_offered_load(text):
    assert [c for c in extract(text) if c.family == "request_throughput"] == []


def test_a_rate_outside_the_brackets_stays_a_claim():
    c = _only("vLLM sustained 11.2 req/s (Qwen2 7B, one L40S).", "request_throughput")
    assert c.value == pytest.approx(11.2)


def test_the_count_in_a_prices_basis_is_no_length_setting():
    c = _only("Self-hosting works out to $0.31 per 1M output tokens.")
    assert (c.family, c.value, c.osl) == ("money", pytest.approx(0.31), None)


@pytest.mark.parametrize("emphasised", ["<u>2.8x</u>", "<b>2.8x</b>", "**2.8x**"])
def test_up_to_reaches_through_inline_emphasis(emphasised):
    c = _only(f"Prefill of the new release is up to {emphasised} faster than the old one.")
    assert (c.value, c.comparator) == (2.8, "<=")


# --- ratios: counts against the noun phrase of what changed ------------------------------

def test_a_capital_starting_what_changed_keeps_the_ratio():
    c = _only("The int2 format brings ~6x KV cache memory reduction.")
    assert (c.family, c.value) == ("ratio", 6)


@pytest.mark.parametrize("text", [
    "The cluster uses 8x H100 GPUs for higher throughput.",
    "It runs on 4x MI300X faster than before.",
])
def test_a_count_of_devices_stays_a_count(text):
    assert [c for c in extract(text) if c.family == "ratio"] == []


def test_what_a_percent_measures_is_its_own_phrase():
    claims = extract("The int4 cache gives ~3x memory reduction with about 5%-6% end-to-end "
                     "performance overhead.")
    pct = [c for c in claims if c.family == "percent"]
    assert len(pct) == 1 and pct[0].measures != "memory"


def test_a_condition_phrase_after_the_figure_is_not_what_it_measures():
    c = _only("The new scheduler reduces TTFT by 40% at every QPS level.")
    assert (c.measures, c.direction) == ("latency", "down")


def test_a_rate_takes_no_phase_from_the_next_clause():
    claims = extract("Eight H100s serve 60% more requests per second and cut TTFT by 30%.")
    first = min(claims, key=lambda c: c.start)
    assert (first.value, first.measures, first.phase) == (60, "throughput", None)


# --- subjects ---------------------------------------------------------------------------

def test_a_class_name_in_code_is_no_model():
    text = ("We patched `Qwen2MoeSparseBlockImpl` in the kernel.\n\n"
            "Provided a **2.1% E2E speedup** on Qwen2 57B.")
    c = _only(text, "percent")
    assert c.model is not None and "Impl" not in c.model


def test_a_devices_spec_takes_no_document_model():
    doc = ("# Serving DeepSeek-R1\n\nWe run DeepSeek-R1 on eight H200 GPUs.\n\n"
           "* 2x AMD EPYC 9654, 96 cores (360W)\n")
    c = _only(doc, "power")
    assert c.model is None


def test_a_list_price_takes_no_document_hardware():
    doc = ("# Serving DeepSeek-R1\n\nWe run DeepSeek-R1 on eight H200 GPUs.\n\n"
           "API pricing: $0.27/M input tokens and $1.10/M output tokens.\n\n"
           "On those GPUs our own cost is $0.09 per 1M output tokens.\n")
    by_value = {round(c.value, 2): c for c in extract(doc) if c.family == "money"}
    assert by_value[0.27].hardware is None and by_value[1.1].hardware is None
    assert by_value[0.09].hardware is not None      # a cost measured on the hardware keeps it


def test_a_size_after_an_unknown_name_is_that_names():
    doc = "<ul>\n<li>Llama 3.1 (8B-405B)</li>\n<li>Orion-X2 (314B)</li>\n</ul>\n"
    c = _only(doc, "parameters")
    assert (c.value, c.model) == (314e9, "Orion-X2")


# --- the checker: "up to N" names a best case ---------------------------------------------

PRIMARY = """---
title: "Expert parallelism notes"
publisher: "Example Labs"
---
# Expert parallelism notes

We ran SGLang with expert parallelism on our cluster. On DeepSeek-V3, our SGLang deployment
reached a 4.6x decode speedup over the TP8 baseline and a 2.1x prefill speedup over it.
"""


@pytest.fixture(scope="module")
def record(ingest_texts) -> str:
    return ingest_texts("phrasings11", {"ep.md": PRIMARY})


@pytest.mark.parametrize("headline, verdict", [
    ("SGLang's decode runs up to 4.6x faster than the TP8 baseline on DeepSeek-V3", "supported"),
    # another best case than the record's 4.6x: it does not hold, nor is it refuted
    ("SGLang's decode runs up to 2.1x faster than the TP8 baseline on DeepSeek-V3", "unproven"),
    # above the record's best: refuted
    ("SGLang's decode runs up to 7x faster than the TP8 baseline on DeepSeek-V3", "contradicted"),
])
def test_up_to_names_the_records_best_case(record, headline, verdict):
    v = check(headline, record)
    assert v.verdict == verdict, v.explanation


# --- conditions of one item among many ----------------------------------------------------

def test_each_price_keeps_its_own_basis():
    prices = {round(c.value, 2): c for c in extract(
        "API rates: $0.07/M input tokens (cache hit), $0.27/M input tokens (cache miss), "
        "$1.10/M output tokens.")}
    assert (prices[0.07].price_basis, prices[0.27].price_basis, prices[1.1].price_basis) == \
        ("cache hit", "cache miss", None)


def test_a_slide_lines_technique_is_its_own():
    slide = ("Results\nSetup: Qwen2 7B. Batch size 128. Input len 2048.\n"
             "Baseline scheduler + separate requests 9.1 s\n"
             "Cut tokenizer overhead with the new overlap scheduler\n"
             "Overlap scheduler + batched requests 7.9 s\n"
             "Ideal: GPU time only 7.2 s\n"
             "12\n")
    by_value = {c.value: c for c in extract(slide) if c.family == "latency"}
    assert (by_value[9.1].technique, by_value[7.9].technique, by_value[7.2].technique) == \
        (None, "overlap scheduler", None)
    assert not [c for c in extract(slide) if c.value == 12]     # the slide's number


PRICES = """---
title: "API pricing"
publisher: "Example Labs"
---
# API pricing

We serve DeepSeek-V3 through our API. We charge $0.07/M input tokens (cache hit),
$0.27/M input tokens (cache miss), $1.10/M output tokens.
"""


@pytest.fixture(scope="module")
def prices(ingest_texts) -> str:
    return ingest_texts("prices11", {"pricing.md": PRICES})


@pytest.mark.parametrize("headline, verdict", [
    ("DeepSeek-V3 is priced at $0.27 per million input tokens on a cache miss", "supported"),
    # the cache-miss price is not the price on a hit
    ("DeepSeek-V3 is priced at $0.27 per million input tokens on a cache hit", "contradicted"),
])
def test_a_price_is_judged_at_its_basis(prices, headline, verdict):
    v = check(headline, prices)
    assert v.verdict == verdict, v.explanation


# --- headline wordings of suite 11 --------------------------------------------------------

@pytest.mark.parametrize("spelled, plain", [
    ("FastGen offers up to double TGI's throughput on Llama 2 13B.",
     "FastGen offers up to 2x TGI's throughput on Llama 2 13B."),
    ("The engine delivers triple vLLM's throughput on Qwen2 7B.",
     "The engine delivers 3x vLLM's throughput on Qwen2 7B."),
])
def test_a_spelled_multiple_of_a_rivals_figure_has_the_rival_as_baseline(spelled, plain):
    a, b = _only(spelled), _only(plain)
    assert (a.value, a.baseline, a.direction, a.engine) == (b.value, b.baseline, b.direction, b.engine)
    assert a.baseline is not None and a.engine != a.baseline


def test_a_prefill_decode_split_is_a_technique_not_a_phase():
    c = _only("With a prefill-decode split, SGLang served 980 output tokens per second on Qwen2 7B.")
    assert (c.technique, c.phase) == ("disaggregated prefill", None)


def test_tokens_in_and_out_are_the_runs_lengths():
    c = _only("The batch of 128 requests took 4.2 seconds on Qwen2 7B (2,048 tokens in, 32 out).")
    assert (c.value, c.isl, c.osl) == (4.2, 2048, 32)


# --- a section's run ----------------------------------------------------------------------

SECTIONS = """# Serving Qwen2 72B with our engine

## Latency run
Our numbers below use **Batch = 1, ISL = 2K, OSL = 512, num_requests = 20**.

```bash
# launch the benchmark
bench --model qwen2-72b --requests 20
```

### Output
```
Request Throughput (req/sec):          0.31
Total Output Throughput (tok/s):       90.2
Per User Output Throughput (tok/s):    88.4
Average request latency (ms):          5810.4
```

## Throughput run
Our numbers below use **Batch = 256, ISL = 1K, OSL = 1K**.

### Output
```
Request Throughput (req/sec):          14.2
Total Output Throughput (tok/s):       9120.7
Per User Output Throughput (tok/s):    35.6
Average request latency (ms):          28110.9
```
"""


def test_a_sections_one_run_sets_its_figures_settings():
    by_value = {c.value: c for c in extract(SECTIONS) if c.family in ("request_throughput", "token_throughput")}
    latency_run, throughput_run = by_value[0.31], by_value[14.2]
    assert (latency_run.batch_size, latency_run.isl, latency_run.osl) == (1, 2000, 512)
    assert by_value[88.4].isl == 2000
    assert (throughput_run.batch_size, throughput_run.isl, throughput_run.osl) == (256, 1000, 1000)


def test_a_section_that_states_two_runs_settles_none():
    doc = SECTIONS.replace("## Throughput run\n", "")      # one section, two runs stated
    by_value = {c.value: c for c in extract(doc) if c.family == "request_throughput"}
    assert by_value[14.2].batch_size is None


# --- subjects declared by key ---------------------------------------------------------------

DECLARED = """## Backend: vllm
### Model: acme/acme-chat-4096-llama2-13b
### Number of GPUs: 1
| bits | gpus | generation speed [tokens/sec] |
|---:|:---|---:|
| 16 | 1 x A100 | 41.9 |
| 8 | 1 x A100 | 30.1 |
### Number of GPUs: 2
| bits | gpus | generation speed [tokens/sec] |
|---:|:---|---:|
| 16 | 2 x A100 | 39.4 |
### Model: acme/acme-chat-4096-llama2-70b
### Number of GPUs: 1
| bits | gpus | generation speed [tokens/sec] |
|---:|:---|---:|
| 16 | 1 x A100 | 12.2 |
"""


def test_a_model_declared_by_key_is_the_model_of_the_tables_below():
    by_value = {c.value: c for c in extract(DECLARED)}
    assert by_value[41.9].model == by_value[39.4].model == "acme/acme-chat-4096-llama2-13b"
    assert by_value[12.2].model == "acme/acme-chat-4096-llama2-70b"
    assert by_value[41.9].engine == "vLLM"
    # the numbers inside the declared name are no figures
    assert not [c for c in extract(DECLARED) if c.value in (4096, 13e9, 70e9)]


def test_a_model_declared_in_a_sections_lead_reaches_its_sub_sections_tables():
    doc = ("## Fine-tuning memory\n\nWe measured the optimizers' memory.\n\n"
           "**Model:** [acme/Orca-Mini-3B](https://example.com/orca) (full fine-tuning, fp32)\n\n"
           "### One A100 80GB\n\n| Optimizer | Peak GPU Memory |\n|---|---|\n"
           "| AdamW | 11609.8 MB |\n| AdamW 8-bit | 7135.6 MB |\n")
    c = next(c for c in extract(doc) if c.family == "memory" and c.in_table)
    assert c.model == "acme/Orca-Mini-3B"


def test_prose_in_a_parent_section_names_no_tables_model():
    doc = ("# Serving Kimi K2 on 128 GPUs\n\n## Results\n\nWe reuse the setup of our earlier "
           "DeepSeek-R1 post.\n\n### Cluster\n\n| Metric | Value |\n|---|---|\n"
           "| Decode throughput | 384k tokens/sec |\n| Prefill throughput | 896k tokens/sec |\n")
    models = {c.model for c in extract(doc) if c.family == "token_throughput"}
    assert "DeepSeek-R1" not in models


def test_a_precision_after_a_space_ends_the_model_name():
    table = ("<summary>Qwen 2.5 3B Instruct</summary>\n\n| | Batch Size | Throughput (tokens/s) |\n"
             "|---|---|---|\n| FP16 | 1 | 25.66 |\n| NF4 | 1 | 16.45 |\n| INT8 | 8 | 87.01 |\n")
    by_value = {c.value: c for c in extract(table)}
    assert {c.model for c in by_value.values()} == {"Qwen 2.5 3B Instruct"}
    assert (by_value[25.66].dtype, by_value[16.45].dtype, by_value[87.01].dtype) == ("FP16", "NF4", "INT8")


# --- precision sample 10 ------------------------------------------------------------------

def test_an_argument_of_a_function_written_out_is_working():
    claims = extract("Goodput = min(4.2 x 3, 12) = 12 reqs/s / 4 GPUs = 3 reqs/s per GPU.")
    assert [c for c in claims if c.value == 12] == []


@pytest.mark.parametrize("text", [
    "Code and math samples make up around 45% of all the data.",
    "About 30% of the pre-training corpus is multilingual text.",
])
def test_a_share_of_a_training_set_is_no_performance_figure(text):
    assert extract(text) == []


def test_a_sideways_row_of_output_lengths_holds_settings():
    table = ("| Prompt | 1K | 4K |\n|---|---|---|\n| Output length | 300tokens | 300tokens |\n"
             "| Prefill token/s | 105 | 88 |\n")
    assert [c for c in extract(table) if c.family == "tokens"] == []
    # a row label that is no workload setting keeps its figures ("seed mean" is a statistic)
    table2 = ("| metric | offload | kvcached |\n|---|---|---|\n| seed mean | 122 ms | 140 ms |\n"
              "| seed p99 | 210 ms | 260 ms |\n")
    assert len(extract(table2)) == 4


def test_a_figure_completing_by_takes_its_verb_and_noun():
    claims = sorted(extract("Our method can reduce the latency by up to 2x and boost throughput "
                            "by up to 2.5x."), key=lambda c: c.start)
    assert [(c.direction, c.measures) for c in claims] == [("down", "latency"), ("up", "throughput")]


@pytest.mark.parametrize("text", [
    "The newer GPUs have similar peak Tensor Core performance (fp16 input, without sparsity); "
    "the L40S has 2x throughput with fp16 accumulation compared to fp32 accumulation.",
    "Without speculative decoding, vLLM reaches 50 tokens/s per user on H100.",
])
def test_a_condition_written_with_without_denies_nothing(text):
    assert [c.stance for c in extract(text)] == ["asserted"]


def test_a_difference_from_a_device_is_the_subjects():
    doc = ("# AMD GPUs for inference\n\nWe compare the chips below.\n\n"
           "The MI355x offers 32GB more HBM and 1.2TB/s higher bandwidth than MI300x.\n")
    assert {c.hardware for c in extract(doc)} == {"MI355X"}


# --- the review's sample of stored claims ---------------------------------------------------

def test_a_displayed_tex_environment_holds_no_figures():
    text = ("Problem: if the system \\begin{align*} 4x-3y&=c,\\\\ 5y-7x&=d. \\end{align*} has a "
            "nonzero solution, find c/d. The server reached 2x higher throughput.")
    assert [(c.value, c.family) for c in extract(text)] == [(2, "ratio")]


def test_lengths_a_workload_was_packed_to_are_settings():
    text = ("Requests are sampled chat turns, truncated to 4K or 8K tokens, and the server runs "
            "with its default cache size.")
    assert extract(text) == []
