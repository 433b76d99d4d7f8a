"""Verdicts that read what a headline means, not only its number (docs/checking.md):
a technique, a latency's phase, a ratio's measured quantity, a coarser record, a threshold
word, a projection and a denominator in other words. The primary document is written for
these tests (invented figures about real engine and model names); each false headline has
a faithful twin that must stay `supported`, so a rule that refuses everything fails too."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.check import check

REPO = Path(__file__).resolve().parents[1]

PRIMARY = """\
# SGLang serving notes

With lookahead decoding, SGLang decodes Llama 2 13B 1.8x faster on one A100.

SGLang's new router improves throughput by more than 2x on Llama 3 8B.

On Llama 3 8B, moving the KV cache with SGLang takes 31.65 ms.

On Llama 3 8B, SGLang's mean time to first token is 749.62 ms.

On Qwen2.5-72B, SGLang achieves 4.48x higher goodput and 10.2x more stringent SLO than vLLM.

Each 8-GPU H800 node running SGLang serves 73.7k tokens per second on DeepSeek-V3.

We estimate that SGLang would reach 3.4x higher throughput than vLLM on Rubin racks.

SGLang serves Mixtral 8x7B at 6,580 tokens per second in total on 8 H100 GPUs.

Data-parallel attention gives SGLang 1.9x decoding throughput on DeepSeek-V3.

On eight MI300X GPUs, vLLM serves Llama 3 70B at 3,200 tokens per second in total.

SGLang outperforms vLLM by 3.1x in throughput on Llama 3 8B.

DeepSeek-V2-Lite has 16B total parameters.

With 128-token prompts and 2,048-token outputs, TensorRT-LLM serves LLaMA 7B at 8,348 tokens/s per GPU on H200.

| Scenario | Model | System | Tokens/s per system |
|---|---|---|---|
| Offline | Llama 2 70B | 4 x GB200 | 52,061.6 |
| Server | Llama 2 70B | 4 x GB200 | 46,016.5 |

Kernel fusion raised SGLang's per-GPU output throughput on Qwen2.5-72B from 1.2k to 1.9k tokens/s on H200.

| Model | #Total Params | #Activated Params |
|---|---|---|
| DeepSeek-V3 | 671B | 37B |
"""


def _twins(db: str, faithful: str, false: str) -> None:
    """The faithful headline is `supported` and its false twin is not."""
    v = check(faithful, db)
    assert v.verdict == "supported", (faithful, v.verdict, v.explanation)
    v = check(false, db)
    assert v.verdict != "supported", (false, v.explanation)


@pytest.fixture(scope="module")
def db(primary_db) -> str:
    return primary_db("notes.md", PRIMARY)


@pytest.mark.parametrize("faithful, false", [
    # a technique: the figure is about lookahead decoding, not speculative decoding
    ("Lookahead decoding makes SGLang decode Llama 2 13B 1.8x faster on an A100.",
     "Speculative decoding makes SGLang decode Llama 2 13B 1.8x faster on an A100."),
    # a record that says "more than 2x" does not show 2.3x
    ("SGLang's router lifts throughput by 2x on Llama 3 8B.",
     "SGLang's router lifts throughput by 2.3x on Llama 3 8B."),
    # a time to first token is not the KV transfer time
    ("SGLang's mean time to first token on Llama 3 8B is 749.62 ms.",
     "SGLang reaches a 31.65 ms time to first token on Llama 3 8B."),
    # an SLO ratio is no goodput ratio
    ("SGLang delivers 4.48x the goodput of vLLM on Qwen2.5-72B.",
     "SGLang delivers up to 8x the goodput of vLLM on Qwen2.5-72B."),
    # per node, not through every GPU
    ("Each H800 node running SGLang serves 73.7k tokens per second on DeepSeek-V3.",
     "SGLang pushes 73.7k tokens per second through every H800 GPU on DeepSeek-V3."),
    # a point "reaches" is not a floor met by any larger figure
    ("SGLang serves Mixtral 8x7B at 6,580 tokens per second in total on 8 H100 GPUs.",
     "SGLang reaches 4,120 tokens per second in total on Mixtral 8x7B on 8 H100 GPUs."),
    # an unqualified parameter count is the total
    ("DeepSeek-V3 activates 37 billion parameters per token.",
     "DeepSeek-V3 is a 37-billion-parameter model."),
    # an owner leading the headline: met by a figure on its products, not another's
    ("AMD reaches 3,200 tokens per second in total on Llama 3 70B with vLLM.",
     "Intel reaches 3,200 tokens per second in total on Llama 3 70B with vLLM."),
    # "outperforms X by": X is the baseline
    ("SGLang beats vLLM by 3.1x in throughput on Llama 3 8B.",
     "vLLM outperforms SGLang by 3.1x in throughput on Llama 3 8B."),
    # lengths written as "N-token prompts" are settings
    ("TensorRT-LLM hits 8,348 tokens/s per H200 on LLaMA 7B with 128-token prompts and 2,048-token outputs.",
     "TensorRT-LLM hits 8,348 tokens/s per H200 on LLaMA 7B with 2,048-token prompts and 128-token outputs."),
    # a benchmark scenario is a condition of its result
    ("Llama 2 70B reaches 52,061.6 tokens/s per system on 4 x GB200 in the MLPerf Offline scenario.",
     "Llama 2 70B reaches 52,061.6 tokens/s per system on 4 x GB200 in the MLPerf Server scenario."),
    # a sibling model ("-Lite") is not the model
    ("DeepSeek-V2-Lite has 16B parameters.", "DeepSeek-V2 has 16B parameters."),
    # a ratio of decoding throughput is no prefill speedup
    ("Data-parallel attention nearly doubles SGLang's decoding throughput on DeepSeek-V3.",
     "Data-parallel attention nearly doubles SGLang's prefill throughput on DeepSeek-V3."),
    # a change: the after figure alone does not show it, and the record's direction counts
    ("SGLang's per-GPU throughput on Qwen2.5-72B climbed from 1.2k to 1.9k tokens/s on H200.",
     "SGLang's per-GPU throughput on Qwen2.5-72B climbed from 1.5k to 1.9k tokens/s on H200."),
])
def test_false_headline_is_never_supported_and_its_twin_is(db, faithful, false):
    _twins(db, faithful, false)


SETTINGS = """\
# Serving settings

## DeepSeek-R1 on B200

| Change | TPS/user |
|---|---|
| Balance the MoE with EP2TP4 on DeepSeek-R1 with TensorRT-LLM | 310 |

## Output lengths

| Model | Max output |
|---|---|
| Qwen3-235B | 32K tokens |

## Transfer engine

Moving a 30 GB KV cache, the Mooncake transfer engine reached 150 GB/s between H800 nodes.

## Transfer sweep

| KV size | Mooncake bandwidth (GB/s) |
|---|---|
| 50 MB | 18.75 |

## Cluster results

| System | Throughput (tokens/s per system) |
|---|---|
| 64 x MI355X | 612,400 |
| 32 x MI355X | 330,100 |

## Provider leaderboard

| Provider | Model | P95 TTFT (s) |
|---|---|---|
| bedrock | Llama 2 13B | 0.74 |

## Overlap in each phase

Micro-batch overlap gives SGLang a 31% throughput gain in the prefill phase.

In the decode phase the gain of micro-batch overlap depends on the batch size.
The speedup of SGLang on DeepSeek-V3 reaches 18.5% at 256 tokens.

## Single-GPU results

On H200, TensorRT-LLM serves Llama 2 13B at 11,800 tokens/s per GPU.

## Free memory

With vLLM, DeepSeek-V3 leaves 34GB of free memory per H200.

## Production stack

The LMCache production stack delivers 10x higher throughput than vLLM on Llama 3 70B.

## Cache

Of all the input tokens DeepSeek-V3 served, 56.3% hit the on-disk KV cache.
"""


@pytest.fixture(scope="module")
def settings_db(primary_db) -> str:
    return primary_db("settings.md", SETTINGS)


@pytest.mark.parametrize("faithful, false", [
    # joined parallel degrees are two settings, also in a table row's description
    ("TensorRT-LLM's EP2TP4 layout runs DeepSeek-R1 at 310 tokens/s per user.",
     "TensorRT-LLM's EP4TP2 layout runs DeepSeek-R1 at 310 tokens/s per user."),
    # an output length is no input length
    ("Qwen3-235B writes at most 32K tokens of output.",
     "Qwen3-235B's input is capped at 32K tokens."),
    # a workload size the headline states must be the evidence's (18.75 GB/s is 150 Gbps,
    # measured on a 50 MB transfer)
    ("Moving a 30 GB KV cache, Mooncake's transfer engine reached 150 GB/s on H800 nodes.",
     "Mooncake's transfer engine reached 150 Gbps moving a 30 GB KV cache."),
    # "a 32-GPU MI355X cluster" is 32 x MI355X, not the 64-GPU row
    ("A 64-GPU MI355X system reached about 612,000 tokens per second.",
     "A 32-GPU MI355X system reached about 612,000 tokens per second."),
    # a provider named with its owner ("Amazon Bedrock") is the row's provider "bedrock"
    ("Amazon Bedrock's Llama 2 13B returns its first token within 0.74 s at the 95th percentile.",
     "Microsoft Azure's Llama 2 13B returns its first token within 0.74 s at the 95th percentile."),
    # a ratio that names no phase is of the phase its paragraph last named
    ("Micro-batch overlap speeds up SGLang's decoding of DeepSeek-V3 by 18.5%.",
     "Micro-batch overlap speeds up SGLang's prefill of DeepSeek-V3 by 18.5%."),
    # a rate credited to eight GPUs is the server's, not settled by one GPU's figure
    ("One H200 GPU generates 11,800 tokens per second on Llama 2 13B with TensorRT-LLM.",
     "A full eight-GPU H200 server generates 11,800 tokens per second on Llama 2 13B."),
    # a memory figure on an uncounted H200 does not show one across eight
    ("vLLM leaves 34GB free per H200 for DeepSeek-V3.",
     "vLLM leaves 34GB free across a whole 8x H200 node for DeepSeek-V3."),
    # the claim's engine is the figure's baseline
    ("The LMCache production stack boosts Llama 3 70B throughput by 10x over vLLM.",
     "vLLM boosts Llama 3 70B throughput by 10x."),
    # a cache hit is no miss
    ("56.3% of DeepSeek-V3's input tokens hit the KV cache.",
     "56.3% of DeepSeek-V3's input tokens missed the KV cache."),
])
def test_a_setting_the_headline_states_must_be_the_evidences(settings_db, faithful, false):
    v = check(faithful, settings_db)
    assert v.verdict == "supported", (faithful, v.verdict, v.explanation)
    v = check(false, settings_db)
    assert v.verdict != "supported", (false, v.explanation)


def test_a_rate_credited_to_counted_accelerators_is_the_whole_systems(settings_db):
    """No denominator, but a counted set of accelerators: read as the whole system's rate,
    the 32-GPU row (330,100) refutes 612,000; the 64-GPU row still supports its own figure."""
    v = check("A 32-GPU MI355X system reached about 612,000 tokens per second.", settings_db)
    assert v.verdict == "contradicted", v.explanation
    assert "whole system" in v.explanation
    v = check("A 64-GPU MI355X system topped 700,000 tokens per second.", settings_db)
    assert v.verdict == "contradicted", v.explanation
    v = check("A 64-GPU MI355X system reached about 612,000 tokens per second.", settings_db)
    assert v.verdict == "supported", v.explanation


def test_a_projection_is_no_measurement(db):
    v = check("SGLang measured 3.4x higher throughput than vLLM on Rubin racks.", db)
    assert v.verdict != "supported", v.explanation


def test_a_ratio_of_an_unknown_quantity_is_not_met_by_a_bare_ratio(db):
    v = check("SGLang lifts cache hit rates 2x on Llama 3 8B.", db)
    assert v.verdict != "supported", v.explanation


@pytest.mark.parametrize("headline", [
    "SGLang's per-GPU throughput on Qwen2.5-72B slipped from 1.9k to 1.2k tokens/s on H200.",
    "SGLang now serves Qwen2.5-72B at 1.2k tokens/s per GPU on H200, down from 1.9k.",
])
def test_a_change_stated_the_other_way_is_contradicted(db, headline):
    v = check(headline, db)
    assert v.verdict == "contradicted", v.explanation


def test_a_relayed_claim_is_no_evidence(primary_db):
    db = primary_db("relay.md", "# vLLM notes\n\nThe DeepSpeed-FastGen team recently published a post "
                    "claiming 2x throughput improvement over vLLM on LLaMA-7B.\n\nIn our tests on "
                    "LLaMA-7B, vLLM is up to 1.8x faster than DeepSpeed-FastGen.\n")
    v = check("DeepSpeed-FastGen runs LLaMA-7B up to 1.8x faster than vLLM.", db)
    assert v.verdict != "supported", v.explanation
    v = check("vLLM runs LLaMA-7B up to 1.8x faster than DeepSpeed-FastGen.", db)
    assert v.verdict == "supported", v.explanation


CAUSES = """\
# Engine release notes

## Batching requests several steps ahead

We now schedule the batch once for several consecutive decoding steps.

This improves the throughput of serving Llama 3 70B on 4 H100 GPUs by 28%.

## Overlapping output handling

Detokenization now runs while the next step computes; the time per output token on Llama 3
70B drops by 9%.

Kernel autotuning and int8/int4 weights raise request throughput on Mistral 7B by 30% and
45% respectively compared to fp16.
"""


@pytest.fixture(scope="module")
def causes_db(primary_db) -> str:
    return primary_db("release.md", CAUSES)


@pytest.mark.parametrize("faithful, false", [
    # a change is credited to its cause: the 28% came from scheduling steps ahead, not from
    # overlapping output handling (the section the figure stands in says which)
    ("Multi-step scheduling raises Llama 3 70B throughput on 4 H100 GPUs by 28%.",
     "Overlapped output processing raises Llama 3 70B throughput on 4 H100 GPUs by 28%."),
    # "improves X ... by 28%": the verb far before "by" gives the direction
    ("Throughput of Llama 3 70B on 4 H100 GPUs rose by 28% with multi-step scheduling.",
     "Throughput of Llama 3 70B on 4 H100 GPUs fell by 28% with multi-step scheduling."),
    # "respectively": 45% is int4's gain, 30% int8's
    ("INT4 weights lift Mistral 7B request throughput by 45% over fp16.",
     "INT8 weights lift Mistral 7B request throughput by 45% over fp16."),
    # "30% and 45% ... compared to fp16": both members of the list are gains over fp16
    ("INT8 weights lift Mistral 7B request throughput by 30% over fp16.",
     "INT8 weights cut Mistral 7B request throughput by 30% against fp16."),
])
def test_a_change_is_credited_to_its_cause_and_list_place(causes_db, faithful, false):
    _twins(causes_db, faithful, false)


def test_a_leading_phrase_is_no_subject():
    from pipeline.checker import read_claim

    q = read_claim("Under tensor parallelism, DeepSeek-V3 on vLLM leaves 34GB of free memory per H200")
    assert q.subject_text is None
    q = read_claim("Under heavy load, DistServe serves 3,000 tokens per second on Llama 3 8B")
    assert q.subject_text == "DistServe"
    # in a change, the leading capital opens the cause, judged as a whole
    q = read_claim("Multi-step scheduling raises Llama 3 70B throughput by 28%")
    assert q.subject_text is None and q.cause == "Multi step scheduling"
    # an action opening the headline is no one's name; a name of two words is whole
    q = read_claim("Switching to the new backend lifted DeepSeek-R1 to 299 tokens per second per user")
    assert q.subject_text is None
    q = read_claim("Red Hat's vLLM ran Llama 3.1 8B at 5,777 tokens per second on one H100")
    assert q.subject_text == "Red Hat"


def test_a_name_of_two_words_is_found_joined():
    from pipeline.checker import _names_in

    assert _names_in("Red Hat", "| closed | RedHat | Dell PowerEdge |")
    assert _names_in("Red Hat", "served by red-hat engineers")
    assert not _names_in("Red Hat", "a red hatchback")


def test_a_technique_naming_a_phase_sets_no_phase():
    from pipeline.api import extract

    got = extract("SGLang with prefill-decode disaggregation ran DeepSeek-V3 at 2,000 tokens/s per GPU.")
    assert [(c.phase, c.technique) for c in got] == [(None, "disaggregated prefill")]
    got = extract("With prefill-decode disaggregation, prefill throughput reached 5,000 tokens/s per GPU.")
    assert [c.phase for c in got] == ["prefill"]


def test_a_v_before_the_version_is_a_spelling_of_the_model():
    from pipeline.vocab.loader import load

    v = load()
    assert v.canonical_model("llama-v2-70b") == v.canonical_model("Llama-2-70B") == "Llama 2 70B"
    assert v.canonical_model("DeepSeek-V3") == "DeepSeek-V3"


def test_a_secondary_figure_is_read_with_its_cause_as_a_headline_is():
    """The report and trace judge a stored secondary figure the way check judges a headline
    (one judgement): its cause is read from its sentence."""
    from pipeline.api import extract
    from pipeline.checker import query_from_claim, read_claim

    text = "vLLM's asynchronous output processing improves Llama 3 70B throughput by 28%."
    (c,) = [c for c in extract(text) if c.family == "percent"]
    assert query_from_claim(c).cause == read_claim(text).cause == "asynchronous output processing"


LISTS = """\
---
title: "Engine v2: Paged Scheduler, Prefix Router, Faster Grammars"
---

## Highlights

- Paged scheduler: 1.2x higher throughput on Llama 3 8B.
- Prefix router: up to 2.6x higher throughput on Llama 3 8B.
- **Grammar engine**: 3.7x faster JSON decoding on Llama 3 8B.

## Workloads

We compared Engine v2 with vLLM on three applications.

- **Chatbot**: Engine v2 sustains 1.7x higher goodput than vLLM on Llama 3 8B.
- **Code completion**: Engine v2 sustains 2.9x higher goodput than vLLM on Llama 3 8B.

## Overlap

We built Dual-stream Overlap (DSO), which runs communication beside computation.

## Results

After tuning, DSO lifts decode throughput of Llama 3 8B by 18.5%.
"""


@pytest.fixture(scope="module")
def lists_db(primary_db) -> str:
    return primary_db("release-v2.md", LISTS)


@pytest.mark.parametrize("faithful, false", [
    # a list item's figure is its own label's, not a sibling item's nor the title's
    ("Engine v2's prefix router delivers up to 2.6x higher throughput on Llama 3 8B.",
     "Engine v2's paged scheduler delivers up to 2.6x higher throughput on Llama 3 8B."),
    ("Engine v2's paged scheduler delivers 1.2x higher throughput on Llama 3 8B.",
     "Engine v2's prefix router delivers 1.2x higher throughput on Llama 3 8B."),
    # the application a figure was measured on is a condition of it
    ("Engine v2 sustains 2.9x higher goodput than vLLM on Llama 3 8B for code completion.",
     "Engine v2 sustains 2.9x higher goodput than vLLM on Llama 3 8B for chatbots."),
    ("On a chatbot workload, Engine v2 has 1.7x higher goodput than vLLM on Llama 3 8B.",
     "On summarization, Engine v2 has 1.7x higher goodput than vLLM on Llama 3 8B."),
    # an acronym the post defines stands for its technique in the sentences after
    ("Dual-stream overlap lifts Llama 3 8B decode throughput by 18.5%.",
     "Speculative decoding lifts Llama 3 8B decode throughput by 18.5%."),
])
def test_a_figure_is_its_list_items_and_its_applications(lists_db, faithful, false):
    _twins(lists_db, faithful, false)


def test_lead_in_keeps_a_list_items_own_line_only():
    from pipeline.cause import lead_in, own_topic

    text = "Intro line\n\n- Scheduler: 1.1x faster\n  wrapped\n- Router: 1.9x faster\n"
    lead = lead_in(text, text.index("faster\n", text.index("Router")) + 6)
    assert "Scheduler" not in lead and "Router" in lead and "Intro" in lead
    assert own_topic(lead)
    # a PDF's bullet alone on its line, the item on the next
    pdf = "Features\n•\nScheduler 1.1x\n•\nRouter 1.9x"
    assert lead_in(pdf, len(pdf)).split() == ["Features", "•", "Router", "1.9x"]
    # not a list item: the lead-in is the paragraph, untouched
    plain = "Scheduler gives 1.1x. Router gives 1.9x."
    assert lead_in(plain, len(plain)) == plain and not own_topic(plain)


def test_acronyms_are_read_from_their_definition():
    from pipeline.cause import acronyms

    got = acronyms("We use Two-batch Overlap (TBO) and Time to First Token (TTFT); "
                   "the GPU (graphics card) and Llama (LLM) are no definitions.")
    assert got == {"TBO": "Two batch Overlap", "TTFT": "Time to First Token"}


COUNTS = """\
# FastAttn kernel on H200: 2.6x more Llama 3 70B throughput

## Results

FastAttn lifts Llama 3 70B throughput on H200 by 2.6x.

| Model | GPUs | Throughput without FastAttn (tok/s/GPU) | Throughput with FastAttn (tok/s/GPU) |
|---|---|---|---|
| Llama 3 70B | 1 | 1,100 | 2,860 |
| Llama 3 70B | 8 | 12,000 | 21,600 |

The single-GPU run gains 2.6x throughput with FastAttn on 1 H200.
"""


@pytest.fixture(scope="module")
def counts_db(primary_db) -> str:
    return primary_db("fastattn.md", COUNTS)


def test_an_uncounted_figure_takes_the_count_its_document_gives_it(counts_db):
    # the heading's "2.6x on H200" is the 1-GPU run's (the document says so): not eight
    v = check("FastAttn lifts Llama 3 70B throughput 2.6x on eight H200 GPUs.", counts_db)
    assert v.verdict != "supported", v.explanation
    v = check("FastAttn lifts Llama 3 70B throughput 2.6x on one H200 GPU.", counts_db)
    assert v.verdict == "supported", v.explanation


VENDORS = """\
# FlashX decoding kernels

FlashX decodes shared prefixes 3.1x faster than vLLM; it supports NVIDIA GPUs only.

On one MI300X, RocServe serves Llama 3 8B at 2,400 tokens per second in total.
"""


@pytest.fixture(scope="module")
def vendors_db(primary_db) -> str:
    return primary_db("flashx.md", VENDORS)


def test_a_vendors_gpus_hold_for_its_parts_only(vendors_db):
    # "on AMD GPUs" is met by an MI300X figure, never by a figure that names no hardware
    v = check("On AMD GPUs, RocServe serves Llama 3 8B at 2,400 tokens per second in total.", vendors_db)
    assert v.verdict == "supported", v.explanation
    v = check("On NVIDIA GPUs, RocServe serves Llama 3 8B at 2,400 tokens per second in total.", vendors_db)
    assert v.verdict != "supported", v.explanation
    v = check("FlashX decodes shared prefixes 3.1x faster than vLLM on AMD GPUs.", vendors_db)
    assert v.verdict != "supported", v.explanation
    v = check("FlashX decodes shared prefixes 3.1x faster than vLLM.", vendors_db)
    assert v.verdict == "supported", v.explanation


STANDING = """\
# Cluster network notes

On a default network we measured an RDMA write bandwidth of 712 Gbps between MI300X nodes, slightly below the figures the vendor reported.

With tuned MTU, RocServe serves Llama 3 8B at 5,100 tokens per second in total on one MI300X, ahead of the vendor's own result.
"""


@pytest.fixture(scope="module")
def standing_db(primary_db) -> str:
    return primary_db("network.md", STANDING)


@pytest.mark.parametrize("faithful, false", [
    # a figure set against a reference with no number: the source's "below" is no "beat"
    ("The RDMA write bandwidth between MI300X nodes was 712 Gbps, below the vendor's figures.",
     "The RDMA write bandwidth between MI300X nodes was 712 Gbps, beating the vendor's figures."),
    ("RocServe serves Llama 3 8B at 5,100 tokens per second in total on one MI300X, ahead of the vendor.",
     "RocServe serves Llama 3 8B at 5,100 tokens per second in total on one MI300X, behind the vendor."),
])
def test_a_figure_stands_against_its_reference_as_the_source_says(standing_db, faithful, false):
    _twins(standing_db, faithful, false)


def test_the_reports_checker_reads_counts_as_the_plain_one(counts_db):
    """The report's ``IndexedChecker`` (own attributes, a narrowed ``primaries`` for a while)
    answers a counted headline as ``Checker`` does."""
    from pipeline.check import Checker, read_claim
    from pipeline.record import Record
    from pipeline.report.verdicts import IndexedChecker
    from pipeline.store import Store

    with Store.open(counts_db, read_only=True) as store:
        record = Record.load(store)
        for text in ("FastAttn lifts Llama 3 70B throughput 2.6x on eight H200 GPUs.",
                     "FastAttn lifts Llama 3 70B throughput 2.6x on one H200 GPU."):
            plain = Checker(record).check(read_claim(text))
            indexed = IndexedChecker(record).check(read_claim(text))
            assert indexed.to_dict() == plain.to_dict(), text


SETUPS = """\
# Cluster results

## Network

These numbers come from a stock, untuned fabric configuration. We measured 388 Gbps of RDMA write bandwidth between H200 nodes. Careful tuning of the MTU could add more later.

After hand tuning of the queue pairs, the second cluster reached 402 Gbps of RDMA write bandwidth between B200 nodes.

## Serving

A two-node H100 system served Llama 3 70B at 41,200 tokens per second in total with FastServe.

| System | Nodes | Model | Tokens/s per system |
|---|---|---|---|
| Rack A (16 x H200) | 2 | Llama 3 70B | 58,300 |
| Rack B (32 x H200) | 4 | Llama 3 70B | 117,900 |

## Decoding

For JSON decoding, FastServe's grammar backend runs 3.3x faster than the previous one.

## Latency

FastServe holds Qwen2.5-7B's mean inter-token latency at 10.8 ms on one L40S.

## Backends

LMDeploy's PyTorch engine runs Qwen2.5-7B 1.7x faster with CUDA graphs.
"""


@pytest.fixture(scope="module")
def setups_db(primary_db) -> str:
    return primary_db("cluster.md", SETUPS)


@pytest.mark.parametrize("faithful, false", [
    # a figure of a default, untuned configuration is no evidence of what tuning reached;
    # a tuned figure is none of an out-of-the-box run
    ("On a default configuration, RDMA write bandwidth between H200 nodes was 388 Gbps.",
     "After careful tuning, RDMA write bandwidth between H200 nodes reached 388 Gbps."),
    ("With hand tuning, RDMA write bandwidth between B200 nodes reached 402 Gbps.",
     "Out of the box, RDMA write bandwidth between B200 nodes reached 402 Gbps."),
    # the number of nodes, in the sentence or in a table's own column
    ("FastServe served Llama 3 70B at 41,200 tokens per second in total on two H100 nodes.",
     "FastServe served Llama 3 70B at 41,200 tokens per second in total on four H100 nodes."),
    ("A 4-node H200 rack served Llama 3 70B at 117,900 tokens per second.",
     "A 2-node H200 rack served Llama 3 70B at 117,900 tokens per second."),
    ("A system of two H200 nodes served Llama 3 70B at 58,300 tokens per second.",
     "A system of eight H200 nodes served Llama 3 70B at 58,300 tokens per second."),
    # unconstrained generation is not the constrained (JSON) decoding the figure is of
    ("FastServe's grammar backend makes JSON decoding 3.3x faster.",
     "FastServe's grammar backend makes unconstrained text generation 3.3x faster."),
    # a model family named with no model: a figure on another family's model does not show it
    ("FastServe's Qwen deployment holds mean inter-token latency at 10.8 ms.",
     "FastServe's DeepSeek deployment holds mean inter-token latency at 10.8 ms."),
    # a backend of one engine is not another's
    ("LMDeploy's PyTorch engine got 1.7x faster on Qwen2.5-7B with CUDA graphs.",
     "LMDeploy's TurboMind engine got 1.7x faster on Qwen2.5-7B with CUDA graphs."),
])
def test_configuration_nodes_and_decoding_kind_must_be_the_evidences(setups_db, faithful, false):
    _twins(setups_db, faithful, false)


def test_a_node_count_reads_the_same_in_words_digits_and_a_table_column():
    """Metamorphic: the count of nodes is the same fact written "two-node", "2 nodes",
    "across two nodes" or in a table's Nodes column."""
    import re

    from pipeline.cause import nodes_of, table_cell

    for text in ("a two-node system served 9 tokens", "2 nodes served 9 tokens",
                 "served 9 tokens across two nodes", "a dual-node box served 9 tokens"):
        assert nodes_of(text, text.index("9")) == 2, text
    assert nodes_of("8 GPUs per node served 9 tokens", 20) is None
    assert nodes_of("3 nodes per rack", 0) is None
    header = re.compile(r"^nodes?$", re.I)
    table = "| System | Nodes | Tokens/s |\n|:--|--:|--:|\n| X | 2 | 9 |\n"
    assert table_cell(table, table.index("9"), header) == "2"
    assert table_cell("2 nodes and 9", 12, header) is None


def test_a_count_of_machines_is_no_count_of_accelerators():
    """"two H200 nodes" counts servers; "two H200 GPUs" counts accelerators."""
    from pipeline.api import extract

    for text, count in (("Two H200 nodes served Llama 3 70B at 58,300 tokens per second.", None),
                        ("On four B200 servers the model ran at 9,100 tokens per second.", None),
                        ("Two H200 GPUs served Llama 3 70B at 5,300 tokens per second.", 2),
                        ("An eight-GPU H200 server served Llama 3 70B at 9,300 tokens per second.", 8),
                        ("A whole 8x H200 node served Llama 3 70B at 9,300 tokens per second.", 8),
                        ("An eight-GPU Instinct MI325X server hit 9,300 tokens per second.", 8),
                        ("Eight AMD Instinct MI300X GPUs served 9,300 tokens per second.", 8),
                        ("A four-card Arc Pro B60 system ran at 3,009 tokens per second.", 4)):
        (c,) = [c for c in extract(text) if c.family == "token_throughput"]
        assert c.hw_count == count, (text, c.hardware)


@pytest.mark.parametrize("text", [
    "The new router cut the benchmark from 7.0 to 6.6 seconds.",
    "The new router cut the Llama 3 8B benchmark (batch 256, 4,096-token inputs, 16-token "
    "outputs, eight H100 GPUs) from 7.0 to 6.6 seconds.",
    "The new router cut the benchmark to 6.6 seconds, down from 7.0.",
])
def test_a_change_reads_the_same_with_its_settings_in_brackets(text):
    """Metamorphic: a bracket of settings between the verb and "from" leaves the change
    (7.0 -> 6.6, the figure is the after) as it is; lengths the figure carries as its input
    and output are not also numbers its evidence must write."""
    from pipeline.check import read_claim

    q = read_claim(text)
    assert q.change is not None and (q.change.before, q.change.after) == (7.0, 6.6), text
    assert q.figure.value == 6.6 and q.stated == [], (q.figure.surface, q.stated)


def test_a_bare_family_name_is_a_model_family_unless_it_is_a_company_or_a_program():
    from pipeline.checker import family_named

    assert family_named("SGLang's large-scale DeepSeek deployment holds 10 ms") == "deepseek"
    assert family_named("Qwen models run 2x faster on SGLang") == "qwen"
    assert family_named("DeepSeek's file system sustains 6.6 TiB/s") is None
    assert family_named("vLLM beats llama.cpp by 2x") is None


@pytest.mark.parametrize("text, before, after, value", [
    ("The new router cut mean time to first token from 1,112 ms to 310 ms.", 1112, 310, 0.31),
    ("The new router cut mean time to first token from 1.112 s to 0.31 s.", 1.112, 0.31, 0.31),
    ("Batching the calls slowed the benchmark from 6.6 to 7.0 seconds.", 6.6, 7.0, 7.0),
    ("Batching the calls stretched the benchmark from 6.6 s to 7.0 s.", 6.6, 7.0, 7.0),
])
def test_a_change_is_read_in_any_unit_and_with_any_verb_of_change(text, before, after, value):
    """The after figure of a change is found whatever unit the figures are stored in (ms
    are stored as seconds), keeps what the sentence says of the quantity ("mean"), and a
    slowdown is a change as a cut is."""
    from pipeline.check import read_claim

    q = read_claim(text)
    assert (q.change.before, q.change.after) == (before, after), text
    assert abs(q.figure.value - value) < 1e-9, (q.figure.surface, q.figure.value)
    if "mean" in text:
        assert q.figure.statistic == "mean", q.reading()


def test_a_ratios_out_of_the_box_is_its_baseline_not_its_configuration():
    """"3x out-of-the-box acceleration" compares with an untuned run; "726 Gbps out of the
    box" was measured on one."""
    from pipeline.check import read_claim

    assert read_claim("The kernels give Llama 2 up to 3x out-of-the-box acceleration on MI250.").setup is None
    assert read_claim("Out of the box, RDMA bandwidth between MI250 nodes was 700 Gbps.").setup \
        == "default configuration"
