"""Figures written together in prose (docs/extraction.md, "Lists", "Changes", "Sizes that
name a model"): each figure gets its own qualifier and shares what the sentence says of all
of them. Every case is a set of wordings of the same facts: each wording must give the
expected reading, so all of them give the same claims (a metamorphic test)."""
from __future__ import annotations

import json

import pytest

from pipeline.api import extract

# what the rules decide: the figure, its own qualifiers and the shared conditions
FIELDS = ("value", "family", "scope", "phase", "statistic", "measures", "direction", "baseline",
          "model", "accelerator", "engine", "isl", "batch_size")


def _facts(text: str, families: tuple[str, ...] | None = None) -> list[tuple]:
    """The claims of ``text`` (under a heading, as a document would hold it), one tuple of
    ``FIELDS`` each, in value order (wordings may order the figures differently)."""
    claims = extract("# Notes\n\n" + text)
    rows = [tuple(round(getattr(c, f), 6) if isinstance(getattr(c, f), float) else getattr(c, f)
                  for f in FIELDS)
            for c in claims if families is None or c.family in families]
    return sorted(rows, key=lambda r: (r[1], r[0]))


def _row(**kw) -> tuple:
    return tuple(round(kw[f], 6) if isinstance(kw.get(f), float) else kw.get(f) for f in FIELDS)


def _check(wordings: list[str], expected: list[tuple], families: tuple[str, ...] | None = None) -> None:
    expected = sorted(expected, key=lambda r: (r[1], r[0]))
    readings = {w: _facts(w, families) for w in wordings}
    for w, got in readings.items():
        assert got == expected, f"{w}\n got      {got}\n expected {expected}"


# ---------------------------------------------------------------- ratios with own qualifiers

PHASE_SPEEDUPS = [
    "On H100, SGLang gives Llama 3 8B speedups of 1.6x (prefill) and 2.4x (decode) over vLLM.",
    "On H100, SGLang speeds up Llama 3 8B by 1.6x and 2.4x over vLLM for prefill and decode respectively.",
    "For prefill and decode respectively, SGLang is 1.6x and 2.4x faster than vLLM on H100 with Llama 3 8B.",
    "SGLang delivers 1.6x higher prefill throughput and 2.4x higher decode throughput than vLLM on H100 "
    "with Llama 3 8B.",
]


def test_each_ratio_keeps_its_own_phase_and_shares_the_comparison():
    shared = dict(family="ratio", measures="throughput", direction="up", baseline="vLLM",
                  model="Llama 3 8B", accelerator="H100", engine="SGLang")
    _check(PHASE_SPEEDUPS, [_row(value=1.6, phase="prefill", **shared),
                            _row(value=2.4, phase="decode", **shared)])


HARDWARE_SPEEDUPS = [
    "We measured speedups of 2.1x, 1.8x and 1.4x on A100, H100 and L40S respectively for vLLM over TGI.",
    "On A100, H100 and L40S, vLLM is 2.1x, 1.8x and 1.4x faster than TGI, respectively.",
    "vLLM runs 2.1x (A100), 1.8x (H100) and 1.4x (L40S) faster than TGI.",
]


def test_each_ratio_keeps_its_own_hardware():
    shared = dict(family="ratio", measures="throughput", direction="up", baseline="TGI", engine="vLLM")
    _check(HARDWARE_SPEEDUPS, [_row(value=2.1, accelerator="A100", **shared),
                               _row(value=1.8, accelerator="H100", **shared),
                               _row(value=1.4, accelerator="L40S", **shared)])


LATENCY_CUTS = [
    "On H200, the new scheduler reduces TTFT and TPOT by 35% and 20% compared with vLLM.",
    "On H200, the new scheduler cuts TTFT by 35% and TPOT by 20% compared with vLLM.",
    "On H200, TTFT and TPOT drop 35% and 20% respectively versus vLLM with the new scheduler.",
    "Compared with vLLM, the new scheduler lowers TTFT and TPOT on H200 by 35% and 20%, respectively.",
]


def test_each_percent_measures_its_own_quantity():
    shared = dict(family="percent", measures="latency", direction="down", baseline="vLLM", accelerator="H200")
    _check(LATENCY_CUTS, [_row(value=35.0, phase="ttft", **shared), _row(value=20.0, phase="tpot", **shared)])


WORD_QUALIFIED = [
    "Against the H200 setup, the rack shows up to 3.8x prefill and 4.8x decode throughput gains.",
    "The top speedups reach 3.8x in prefill and 4.8x in decoding over the H200 setup.",
    "Over the H200 setup, prefill and decode throughput rise 3.8x and 4.8x respectively.",
]


def test_a_word_after_each_member_is_its_own_qualifier():
    shared = dict(family="ratio", measures="throughput", direction="up", baseline="H200")
    _check(WORD_QUALIFIED, [_row(value=3.8, phase="prefill", **shared), _row(value=4.8, phase="decode", **shared)])


def test_a_member_that_says_what_it_compares_keeps_its_reading():
    got = {c.value: c for c in extract(
        "On MI300X, vLLM reaches 2.7x higher throughput and 5x faster TPOT than TGI on Llama 3 8B.")}
    assert got[2.7].measures == "throughput" and got[2.7].phase is None
    assert got[5.0].phase == "tpot" and got[5.0].direction == "down"
    assert got[2.7].baseline == got[5.0].baseline == "TGI"
    got = {c.value: c for c in extract("FP8 can double performance and halve memory use on H100.")}
    assert got[2.0].measures != "memory"


def test_a_list_of_measured_quantities_pairs_with_its_percents():
    got = {c.value: c for c in extract("Throughput and memory use improve by 20% and 30% respectively over TGI.")}
    assert got[20.0].measures == "throughput" and got[30.0].measures == "memory"
    assert got[20.0].baseline == got[30.0].baseline == "TGI"


def test_names_pair_with_the_figures_that_complete_them():
    got = {c.value: c for c in extract("H100 and H200 reach 900 and 1,200 tokens/s with Llama 3 8B.")}
    assert got[900.0].accelerator == "H100" and got[1200.0].accelerator == "H200"
    assert got[900.0].model == got[1200.0].model == "Llama 3 8B"


def test_a_list_of_unequal_length_pairs_nothing():
    """Two phases and three figures: no pairing is read (a pairing by position would give
    1.6x the prefill phase)."""
    got = {c.value: c for c in extract(
        "For prefill and decode respectively, SGLang is 1.6x, 2.4x and 3.1x faster than vLLM.")}
    assert got[1.6].phase != "prefill"
    assert len({got[v].phase for v in (1.6, 2.4, 3.1)}) == 1


SETTING_LISTS = [
    "On 4 nodes of H100, per-node throughputs were 41,200, 39,800 and 35,100 tokens/s for prompt lengths "
    "of 1K, 2K and 4K, respectively.",
    "At prompt lengths of 1K, 2K and 4K respectively, per-node throughput on 4 nodes of H100 was 41,200, "
    "39,800 and 35,100 tokens/s.",
]


def test_each_figure_takes_its_place_in_a_list_of_settings():
    shared = dict(family="token_throughput", scope="per_node", accelerator="H100")
    _check(SETTING_LISTS, [_row(value=41200.0, isl=1000.0, **shared), _row(value=39800.0, isl=2000.0, **shared),
                           _row(value=35100.0, isl=4000.0, **shared)], ("token_throughput",))


def test_batch_sizes_pair_with_their_figures():
    got = {c.value: c for c in extract(
        "At batch sizes 8, 32 and 64 respectively, vLLM reached 900, 2,400 and 3,100 tokens/s on H100.")}
    assert [got[v].batch_size for v in (900.0, 2400.0, 3100.0)] == [8.0, 32.0, 64.0]


def test_a_named_figure_with_its_own_unit_keeps_its_engine():
    """The list rule does not carry a name written after the second figure back to a first
    that has its own unit and words ("credited to" names the second's source)."""
    got = {c.value: c for c in extract(
        "Each H100 produced 654,000 tokens per second per GPU and 1.09 million credited to SGLang.")}
    assert got[654000.0].engine != "SGLang"


# ---------------------------------------------------------------- changes

TPOT_CHANGE = [
    "On H100, the TPOT of Llama 3 8B fell from 52 ms to 31 ms with SGLang.",
    "With SGLang, Llama 3 8B's TPOT on H100 went 52 ms -> 31 ms.",
    "On H100 with SGLang, Llama 3 8B's TPOT dropped to 31 ms from 52 ms.",
    "Llama 3 8B TPOT on H100 with SGLang: 52 ms → 31 ms.",
]


def test_both_figures_of_a_change_measure_one_quantity_on_one_system():
    shared = dict(family="latency", phase="tpot", model="Llama 3 8B", accelerator="H100", engine="SGLang")
    _check(TPOT_CHANGE, [_row(value=0.052, **shared), _row(value=0.031, **shared)])


THROUGHPUT_CHANGE = [
    "Decode throughput per GPU increased from 1,200 to 1,800 tokens/s on H200 for Llama 3 70B.",
    "On H200 with Llama 3 70B, per-GPU decode throughput rose from 1.2k to 1.8k tokens/s.",
    "Llama 3 70B decode throughput on H200: 1,200 -> 1,800 tokens/s per GPU.",
    "For Llama 3 70B on H200, decode throughput per GPU climbed to 1,800 tokens/s, up from 1,200.",
]


def test_a_change_in_throughput_keeps_its_denominator_on_both_figures():
    shared = dict(family="token_throughput", scope="per_gpu", phase="decode", model="Llama 3 70B", accelerator="H200")
    _check(THROUGHPUT_CHANGE, [_row(value=1200.0, **shared), _row(value=1800.0, **shared)])


@pytest.mark.parametrize("text", [
    "On H100, TTFT went from 120 ms to 80 ms after enabling chunked prefill.",
    "On H100, TTFT went 120 ms -> 80 ms after enabling chunked prefill.",
])
def test_the_after_figure_of_a_change_is_a_measurement_not_a_time_reference(text):
    assert sorted(round(c.value, 3) for c in extract(text) if c.family == "latency") == [0.08, 0.12]


def test_a_time_after_an_event_outside_a_change_stays_no_figure():
    assert not [c for c in extract("The cache is flushed 80 ms after the request ends.") if c.family == "latency"]


def test_a_range_is_no_change():
    """"ranging from 1.5x to 2.3x" states a spread: the second figure does not take the
    first one's conditions as a change's after figure would."""
    from pipeline.extract.change import change_pairs
    text = "# Notes\n\nLookahead gives a latency reduction ranging from 1.5x to 2.3x on A100."
    assert change_pairs(text, extract(text)) == []


# ---------------------------------------------------------------- sizes that name a model

@pytest.mark.parametrize("text", [
    "Moving to Llama-3.1-70B on 8 GPUs, the trend matches the case with 8B.",
    "Results for Llama-3.1-70B look like those in the 8B setting.",
    "With Llama-3.1-70B on 8 GPUs, we saw the same curve as in the 8B configuration.",
])
def test_a_size_that_labels_a_configuration_is_no_claim(text):
    assert not [c for c in extract(text) if c.family == "parameters"]


SIZED_VARIANT = [
    "We serve Llama 3 on H100. For the 70B variant, TTFT is 140 ms.",
    "We serve Llama 3 on H100. The 70B model has a TTFT of 140 ms.",
    "We serve Llama 3 on H100. TTFT is 140 ms for the 70B version.",
]


def test_a_figure_on_a_variant_named_by_its_size_takes_the_family_at_that_size():
    _check(SIZED_VARIANT, [_row(value=0.14, family="latency", phase="ttft", model="Llama 3 70B", accelerator="H100")],
           ("latency",))


@pytest.mark.parametrize("text", [
    "For the 8B and 70B models, the weights are Llama-3.1-8B and Llama-3.1-70B.",
    "Our runs cover two models, Llama 3.1 8B and 70B, on H100.",
    "We compare Llama 3.1 8B and 70B models on H100.",
    "We tested Llama-3.1-8B on H100. The 70B model needed four of them.",
])
def test_a_bare_size_is_never_tagged_with_a_model_of_another_size(text):
    sizes = {c.value: c.model for c in extract(text) if c.family == "parameters"}
    assert sizes.get(70e9) == "Llama 3.1 70B", sizes


def test_a_size_of_some_other_model_carries_no_model_of_another_size():
    text = "# DeepSeek-V3 serving\n\nDeepSeek-V3 runs on 8 H200. Serving a 1T model would need more memory."
    (c,) = [c for c in extract(text) if c.family == "parameters"]
    assert c.value == 1e12 and c.model != "DeepSeek-V3"


@pytest.mark.parametrize("text, model", [
    ("Deploy models like DeepSeek V3 (685B) on MI300X.", "DeepSeek-V3"),
    ("In DeepSeek-R1, only 37B of its 671B total parameters are active per token.", "DeepSeek-R1"),
    ("DeepSeek-V3 has 671B parameters with 37B activated per token.", "DeepSeek-V3"),
])
def test_a_size_written_with_its_model_stays_that_models(text, model):
    assert {c.model for c in extract(text) if c.family == "parameters"} == {model}


# ---------------------------------------------------------------- through the CLI

def test_coordinated_figures_through_ingest_and_export(tmp_path, run_cli):
    """The stored claims, as `claims export` writes them, carry each figure's own phase and
    the shared comparison; a change's two figures carry one system."""
    doc = tmp_path / "docs" / "notes.md"
    doc.parent.mkdir()
    doc.write_text("# Scheduler notes\n\n" + PHASE_SPEEDUPS[0] + "\n\n" + TPOT_CHANGE[1] + "\n", "utf-8")
    db = tmp_path / "c.duckdb"
    run_cli("ingest", str(doc.parent), "--db", str(db), "--no-link", cwd=tmp_path, check=True)
    out = run_cli("export", "claims", "--db", str(db), "--format", "jsonl", cwd=tmp_path, check=True).stdout
    rows = {round(r["value"], 3): r for r in map(json.loads, out.splitlines())}
    assert rows[1.6]["phase"] == "prefill" and rows[2.4]["phase"] == "decode"
    for v in (1.6, 2.4):
        assert rows[v]["baseline"] == "vLLM" and rows[v]["direction"] == "up" and rows[v]["engine"] == "SGLang"
    for v in (0.052, 0.031):
        assert rows[v]["phase"] == "tpot" and rows[v]["model"] == "Llama 3 8B" and rows[v]["accelerator"] == "H100"


@pytest.mark.parametrize("text, before, after", [
    ("Serving on H200 now runs at 1.2k tokens/s per GPU, down from 1.9k.", 1900.0, 1200.0),
    ("On H200 the rate is 1,800 tokens/s (up from 1,200).", 1200.0, 1800.0),
    ("TPOT on B200 went 52 ms -> 31 ms.", 52.0, 31.0),
])
def test_a_change_is_read_past_a_names_digits(text, before, after):
    """"on H200, down from 1.9k" moved from 1.9k to the figure before it, not to 200."""
    from pipeline.extract.change import find_changes
    (ch,) = find_changes(text)
    assert (ch.before, ch.after) == (before, after)
