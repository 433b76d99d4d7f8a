"""Scope, statistic, conditions, stance and carried context, on text written for these tests."""
from __future__ import annotations

import pytest

from pipeline.extract import extract_claims
from pipeline.model import Document


def claims(text: str, title: str | None = None):
    return extract_claims(Document(id="t", path="t.md", format="markdown", text=text, title=title))


def by_surface(found, surface):
    hits = [c for c in found if c.surface == surface]
    assert hits, [(c.surface, c.family) for c in found]
    return hits[0]


def test_scopes_from_unit_suffix_and_clause():
    found = claims(
        "The rig sustains 41,000 tokens/s per GPU at a P50 of 120 tok/s/user. "
        "For a single user it streams 610 tokens per second. "
        "Each node delivers 320K tokens/s. "
        "Across the whole fleet, total output was 9.1 million tokens/s. "
        "A rumour mentions 5 million tokens per second."
    )
    assert by_surface(found, "41,000 tokens/s").scope == "per_gpu"
    p50 = by_surface(found, "120 tok/s/user")
    assert p50.scope == "per_user" and p50.statistic == "p50"
    assert by_surface(found, "41,000 tokens/s").statistic is None
    assert by_surface(found, "610 tokens per second").scope == "per_user"
    assert by_surface(found, "320K tokens/s").scope == "per_node"
    assert by_surface(found, "9.1 million tokens/s").scope == "aggregate"
    assert by_surface(found, "5 million tokens per second").scope == "unspecified"


def test_bare_numbers_borrow_unit_from_the_figure_they_refer_to():
    found = claims(
        "The tuned path hit 730 tokens/s per user at P90. The default path reaches 510, "
        "so the tuned one is 43% faster.\n\nLater, the 730 figure was quoted again."
    )
    five = by_surface(found, "510")
    assert five.implied and five.family == "token_throughput" and five.scope == "per_user"
    again = [c for c in found if c.surface == "730" and c.implied]
    assert again and again[0].scope == "per_user" and again[0].statistic == "p90"


def test_list_siblings_share_a_unit():
    found = claims("Two numbers lack a source: 420,000 tokens per second per GPU and 1.3 million.")
    sib = by_surface(found, "1.3 million")
    assert sib.family == "token_throughput" and sib.value == 1.3e6 and sib.scope == "per_gpu"


def test_throughput_at_an_operating_point():
    found = claims("The site shows 38,000 tokens/s per GPU at 90 tok/s. It also lists 35,500 at 120 tok/s.")
    op = by_surface(found, "35,500")
    assert op.family == "token_throughput" and op.scope == "per_gpu"
    assert by_surface(found, "120 tok/s").scope == "per_user"


def test_counts_are_not_promoted():
    found = claims("The lab ran 760 tokens/s per user. It used 16 boards and 3 racks.")
    assert [c.surface for c in found] == ["760 tokens/s"]


def test_conditions_from_the_sentence():
    c = claims("On four H200 GPUs, Qwen2.5-72B in FP8 with EAGLE-3 ran at 215 tokens/s per user "
               "under vLLM at concurrency 1 with ISL/OSL=1K/1K on ShareGPT.")[0]
    assert c.hardware == "4 x H200" and c.model.startswith("Qwen2.5-72B")
    assert c.dtype == "FP8" and c.technique == "EAGLE-3" and c.engine == "vLLM"
    assert c.concurrency == 1 and (c.isl, c.osl) == (1000, 1000) and c.workload == "ShareGPT"


def test_subject_inherits_from_paragraph_and_title():
    found = claims("Mixtral 8x22B was the target.\n\nThe decoder later reached 2,900 tokens/s.",
                   title="Serving Mixtral 8x22B on H100")
    c = by_surface(found, "2,900 tokens/s")
    assert c.inherited and c.model == "Mixtral 8x22B" and c.accelerator == "H100"


def test_stance_and_attribution():
    found = claims(
        "The Acme blog reports 1,900 tokens/s per user. "
        "No benchmark shows 5,000 tokens/s per user. "
        "If batching doubled, it would reach 3,800 tokens/s per user. "
        "Could it hit 9,000 tokens/s per user?"
    )
    rep = by_surface(found, "1,900 tokens/s")
    assert rep.stance == "reported" and rep.asserted_by == "Acme blog"
    assert by_surface(found, "5,000 tokens/s").stance == "negated"
    assert by_surface(found, "3,800 tokens/s").stance == "hypothetical"
    assert by_surface(found, "9,000 tokens/s").stance == "questioned"


def test_model_parameter_count_is_a_claim():
    found = claims("Our new model, Falcon-Next, has 180B parameters and beats larger 400B models.")
    sizes = sorted(c.value for c in found if c.family == "parameters")
    assert sizes == [180e9, 400e9]


def test_markdown_table_cells_take_header_units_and_row_subjects():
    text = (
        "**B200 FP8 peak throughput**\n\n"
        "| Model | Batch | Input Length | Throughput (out tok/s/GPU) | TTFT (ms) | Speedup |\n"
        "|---|---|---|---|---|---|\n"
        "| **H100** |\n"
        "| Llama 3.1 70B | 64 | 2048 | 4,120 | 85.5 | 2.1x |\n"
    )
    found = claims(text)
    thr = by_surface(found, "4,120")
    assert thr.family == "token_throughput" and thr.scope == "per_gpu" and thr.token_kind == "output"
    assert thr.model == "Llama 3.1 70B" and thr.accelerator == "H100" and thr.batch_size == 64
    assert thr.statistic == "peak" and thr.in_table
    ttft = by_surface(found, "85.5")
    assert ttft.family == "latency" and abs(ttft.value - 0.0855) < 1e-9 and ttft.phase == "ttft"
    assert by_surface(found, "2.1x").family == "ratio"
    assert not [c for c in found if c.surface == "64"], "batch size is a condition"


def test_reach_is_a_threshold_only_when_denied_or_asked():
    found = claims("The slow path reaches 430 tokens/s per user. Neither build reaches 900 tokens/s per user. "
                   "Did any build reach 1,200 tokens/s per user?")
    assert by_surface(found, "430 tokens/s").comparator == "="
    assert by_surface(found, "900 tokens/s").comparator == ">="
    assert by_surface(found, "1,200 tokens/s").comparator == ">="


def test_table_column_header_names_the_hardware_of_its_cells():
    text = (
        "Memory per accelerator on the H100 test bench:\n\n"
        "| Spec | H100 | MI300X |\n|---|---|---|\n| Memory | 80 GB | 192 GB |\n"
    )
    found = claims(text)
    assert by_surface(found, "80 GB").accelerator == "H100"
    assert by_surface(found, "192 GB").accelerator == "MI300X"


def test_subject_carries_from_the_section_heading():
    text = ("# Results\n\n### Qwen2.5-32B on 2 x L40S\n\nWe used the default settings.\n\n"
            "It sustains 2,400 tokens/s in total.\n\n### Other notes\n\nA separate run reached 75 tokens/s.")
    found = claims(text)
    c = by_surface(found, "2,400 tokens/s")
    assert c.inherited and c.model == "Qwen2.5-32B" and c.hardware == "2 x L40S"
    other = by_surface(found, "75 tokens/s")
    assert other.model is None and other.hardware is None


def test_accelerator_named_denominators_and_shared_denominators():
    found = claims("It can reach 2.2k tokens/s (32-way EP) or ~2.0k tokens/s (96-way EP) per H200 GPU. "
                   "vLLM hits 1.9k tok/s/H200.")
    assert by_surface(found, "2.2k tokens/s").scope == "per_gpu"
    assert by_surface(found, "2.0k tokens/s").scope == "per_gpu"
    thr = by_surface(found, "1.9k tok/s/H200")
    assert thr.scope == "per_gpu" and thr.engine == "vLLM"


def test_memory_inside_a_product_name_is_not_a_claim():
    found = claims("We ran on NVIDIA A100-80GB GPUs and an A10G (24GB). Each card holds 48 GB of memory.")
    assert [c.surface for c in found if c.family == "memory"] == ["48 GB"]


def test_engine_a_document_names_throughout_is_its_subject():
    about = ("We deployed the model with SGLang. SGLang was configured with 8-way TP. "
             "SGLang's router spreads load. We tuned SGLang's scheduler. SGLang kept up.\n\n"
             "Each node reached 22,000 output tokens per second.")
    assert by_surface(claims(about), "22,000 output tokens per second").engine == "SGLang"
    # a comparison names its rival too: no engine is the document's
    rivals = about.replace("We tuned SGLang's scheduler.", "vLLM was the baseline. vLLM lagged.")
    assert by_surface(claims(rivals), "22,000 output tokens per second").engine is None


def test_architecture_refined_to_the_one_part_the_document_names():
    one = "Throughput rose to 4600 TPS/GPU on Blackwell.\n\nThe runs used 8 B200 GPUs."
    assert by_surface(claims(one), "4600 TPS/GPU").accelerator == "B200"
    two = one + " Other runs used GB200 NVL72 racks."
    assert by_surface(claims(two), "4600 TPS/GPU").accelerator == "Blackwell"


def test_names_written_as_identifiers_are_not_mentions():
    text = ("| Step | TPS/User | Code |\n|---|---|---|\n"
            "| Relax acceptance | 368 | [deepseek_v3#mtp](https://example.org/deepseek_v3#mtp) |\n")
    found = claims(text, title="DeepSeek-R1 on B200")
    assert by_surface(found, "368").model == "DeepSeek-R1"


def test_setup_list_before_a_table_gives_its_hardware():
    text = ("## Benchmarks\n\nThese benchmarks show decoding speed at batch size one.\n\n"
            "- Tested with version 0.1.6\n- GPU: RTX 4090\n\n"
            "| Model | Decode tokens/s |\n|---|---|\n| Mistral 7B | 156.3 |\n")
    assert by_surface(claims(text), "156.3").accelerator == "RTX 4090"


def test_phase_written_after_each_figure_is_its_own():
    found = claims("Each H800 node delivers ~73.7k tokens/s input during prefilling or "
                   "~14.8k tokens/s output during decoding.")
    assert by_surface(found, "73.7k tokens/s").phase == "prefill"
    assert by_surface(found, "14.8k tokens/s").phase == "decode"


def test_compute_rate_with_its_precision_between():
    found = claims("The kernel reaches 1,350 FP8 TFLOPS on H800, and 580 BF16 TFLOPS in BF16. "
                   "The model has 20 FP8 layers.")
    assert [(c.surface, c.family, c.dtype) for c in found] == [
        ("1,350 FP8 TFLOPS", "compute", "FP8"), ("580 BF16 TFLOPS", "compute", "BF16")]


def test_parameter_kind_from_a_column_header():
    from pipeline.link.measure import param_kind
    found = claims("| Model | #Total Params | #Activated Params |\n|---|---|---|\n"
                   "| DeepSeek-V3 | 671B | 37B |\n")
    assert {c.value: param_kind(c) for c in found} == {671e9: "total", 37e9: "activated"}


def test_bits_and_bytes_per_second_differ_eightfold():
    found = claims("The NIC runs at 200 Gbps, the link at 400 Gb/s and HBM at 3.35 TB/s; "
                   "NVLink moves 900 GB/s.")
    assert {c.surface: c.value for c in found} == {
        "200 Gbps": 25e9, "400 Gb/s": 50e9, "3.35 TB/s": 3.35e12, "900 GB/s": 900e9}


def test_a_model_named_as_a_yardstick_is_no_subject():
    found = claims("# GPT-4-level answers on a desktop\n\nThe desktop decodes at 8 tokens/s.")
    assert by_surface(found, "8 tokens/s").model is None


def test_a_family_word_after_a_part_is_no_second_part():
    # "RTX PRO 6000 Blackwell": "6000" is the part's name, never a count of Blackwell GPUs
    for text in ("Eight RTX PRO 6000 Blackwell GPUs serve 9,100 tokens/s in total.",
                 "Eight RTX PRO 6000 GPUs serve 9,100 tokens/s in total."):
        c = by_surface(claims(text), "9,100 tokens/s")
        assert (c.hw_count, c.hardware) == (8, "8 x RTX PRO 6000"), text
    c = by_surface(claims("Each RTX PRO 6000 Blackwell GPU serves 1,100 tokens/s."), "1,100 tokens/s")
    assert c.scope == "per_gpu" and c.hw_count is None


def test_accelerators_in_the_plural_then_each_are_per_gpu():
    c = by_surface(claims("The lab's H100s each pushed 3,900 tokens per second."), "3,900 tokens per second")
    assert c.scope == "per_gpu"
    c = by_surface(claims("The lab's 32 H100s pushed 124,000 tokens per second."), "124,000 tokens per second")
    assert c.scope != "per_gpu"


def test_a_range_after_a_model_family_is_no_version():
    # "DeepSeek 2.5 to 3.4 times": a range of ratios, not the model "DeepSeek 2.5"
    found = claims("SGLang decoded DeepSeek 2.5 to 3.4 times faster on GB200 than on H100.")
    c = by_surface(found, "2.5 to 3.4 times")
    assert (c.low, c.high) == (2.5, 3.4)
    assert by_surface(claims("SGLang decoded DeepSeek 2.5 at 30 tokens/s."), "30 tokens/s").model == "DeepSeek 2.5"


def test_a_possessor_after_a_multiple_is_its_baseline():
    for text in ("TurboMind reaches 1.5x vLLM's performance on H800.",
                 "TurboMind reaches 1.5 times vLLM's performance on H800."):
        c = [x for x in claims(text) if x.family == "ratio"][0]
        assert (c.baseline, c.direction) == ("vLLM", "up"), text
        assert c.engine != "vLLM"


def test_a_model_owning_the_paper_is_not_the_figures_subject():
    c = by_surface(claims("Mixtral 8x22B activates 39B parameters, DeepSeek-V2's paper shows."), "39B parameters")
    assert c.model == "Mixtral 8x22B"
    c = by_surface(claims("DeepSeek-V2's paper reports 236B total parameters."), "236B total parameters")
    assert c.model == "DeepSeek-V2"


@pytest.mark.parametrize("text", [
    "The model card lists a maximum output length of 100K tokens for Orca-9.",
    "Orca-9 has a maximum output length of 100K tokens.",
    "Orca-9's input length limit is 100K tokens.",
])
def test_a_length_figure_is_not_its_own_length_setting(text):
    """A token count the sentence calls an input or output length is the figure itself,
    never a setting it was measured at (the same fact in three wordings)."""
    (c,) = [c for c in claims(text) if c.family == "tokens"]
    assert c.value == 100_000 and c.isl is None and c.osl is None, (c.isl, c.osl)


PROJECTED = """# Cluster notes

## Measured

FastX serves Llama 3 8B at 9,000 tokens/s on one H100.

## On hardware we do not have

We do not have this hardware, so {declaration}

### Speedups

| Model | Speedup |
|---|---|
| Llama 3 8B | 2.4x |

## Next

FastX reaches 3.1x higher throughput than vLLM on H100.
"""


@pytest.mark.parametrize("declaration", [
    "the numbers below are projections.",
    "all figures in this section are estimates.",
    "the results that follow are simulated.",
])
def test_a_section_declared_projected_holds_no_measurement(declaration):
    """A sentence declaring what follows hypothetical covers its section, subsections
    included, and ends at the next heading of its level; the same declaration in three
    wordings gives the same stances."""
    found = {c.surface: c.stance for c in claims(PROJECTED.format(declaration=declaration))}
    assert found == {"9,000 tokens/s": "asserted", "2.4x": "hypothetical", "3.1x": "asserted"}, found


@pytest.mark.parametrize("text", [
    "One L4 handles 30k tokens on Llama 3.1 8B, while vLLM gets barely 10k.",
    "One L4 handles 30k tokens on Llama 3.1 8B, whereas vLLM manages about 10k.",
    "One L4 handles 30k tokens on Llama 3.1 8B; vLLM gets barely 10k.",
])
def test_an_engine_in_a_contrasted_clause_is_not_the_figures(text):
    """The engine a contrast names after the figure is the other clause's, even where
    that clause's number is no claim of its own."""
    (c,) = [c for c in claims(text) if c.surface.startswith("30k")]
    assert c.engine is None, c.engine
    assert c.model == "Llama 3.1 8B"


@pytest.mark.parametrize("text, stance", [
    ("We estimate that FastX should gain on Rubin: a 1.5x - 2x speedup over the baseline.", "hypothetical"),
    ("We estimate that FastX should gain on Rubin, with a 1.5x - 2x speedup over the baseline.", "hypothetical"),
    ("If you batch, throughput rises: we measured 900 tokens/s on one H100.", "asserted"),
    ("Results: FastX reaches 900 tokens/s on one H100.", "asserted"),
])
def test_an_estimate_carries_across_a_colon(text, stance):
    (c,) = claims(text)
    assert c.stance == stance, (text, c.stance)


@pytest.mark.parametrize("text, who", [
    ("Public Rubin material lists each Rubin GPU with 22 TB/s of HBM bandwidth.", "Public Rubin material"),
    ("NVIDIA's datasheet lists 4.8 TB/s of HBM bandwidth for the H200.", "NVIDIA's datasheet"),
    ("vLLM, with [its wide-EP release](https://example.org/a/very/long/link/to/the/release/notes/of/that/version), "
     "reports 2.2k tokens/s per H200 GPU.", "vLLM"),
])
def test_a_figure_a_document_relays_from_a_named_source_is_reported(text, who):
    """A spec sheet's or another project's figure the document only relays is theirs:
    stance reported, with the source, however long the bracket before the verb."""
    (c,) = claims(text)
    assert (c.stance, c.asserted_by) == ("reported", who), (c.stance, c.asserted_by)
