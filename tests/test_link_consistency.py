"""Rounding- and comparator-aware consistency, and subject normalisation."""
from __future__ import annotations

from hypothesis import given, strategies as st

from pipeline.link.consistency import Figure, consistent
from pipeline.link.keys import engine_key, hardware_key, model_key, quantity_key
from pipeline.link.roles import infer_from_text
from pipeline.model import Claim


def F(v, p=None, cmp="=", low=None, high=None):
    return Figure(v, low, high, cmp, p)


def test_issue_examples():
    assert consistent(F(1.09e6, 5000), F(1094347, 0.5))
    assert consistent(F(38, 0.5), F(38.96, 0.005))          # truncated dollars
    assert consistent(F(1000, 0.5, ">"), F(1038, 0.5))
    assert not consistent(F(1000, 0.5, ">"), F(826, 0.5))
    assert consistent(F(376, 0.5, "<="), F(350, 0.5))
    assert not consistent(F(376, 0.5, "<="), F(380, 0.5))


def test_same_precision_is_strict():
    assert not consistent(F(825, 0.5), F(826, 0.5))
    assert consistent(F(826, 0.5), F(826, 0.5))
    assert not consistent(F(954000, 500), F(471578, 0.5))


def test_approx_and_ranges():
    assert consistent(F(1000, 0.5, "~"), F(1038, 0.5))
    assert not consistent(F(1000, 0.5, "~"), F(1200, 0.5))
    assert consistent(F(100, 0.5, low=30, high=200), F(150, 0.5))


@given(st.floats(1, 1e9), st.floats(1, 1e9))
def test_symmetric(a, b):
    assert consistent(F(a), F(b)) == consistent(F(b), F(a))


@given(st.floats(1e-3, 1e9, allow_nan=False))
def test_reflexive(a):
    assert consistent(F(a), F(a))


def test_aliases():
    assert model_key("Meta's Llama 4 Maverick") == model_key("Llama-4-Maverick") == "llama 4 maverick"
    assert model_key("DeepSeek-V4.1 Flash") == model_key("DeepSeek-V4.1-Flash")
    assert hardware_key("DGX B200") == hardware_key("8 x B200") == (8, "B200")
    assert hardware_key("GB300 NVL72") == hardware_key("72 x GB300")
    assert hardware_key(None, 4, "b300") == hardware_key("4 x B300")
    assert engine_key("TRT-LLM") == engine_key("TensorRT-LLM")
    assert engine_key("Dynamo SGLang") != engine_key("SGLang")


def test_hardware_labels_and_systems():
    """The extractor writes "N x ACC (SYSTEM LABEL)": the label goes, the count stays."""
    rack = hardware_key("72 x GB300")
    assert rack == (72, "GB300")
    assert hardware_key("72 x GB300 (GB300 NVL72)") == rack
    assert hardware_key("GB300 NVL72") == rack and hardware_key("GB300 NVL 72") == rack
    assert hardware_key("72 x GB300 NVL72") == rack          # one rack, written with its size
    assert hardware_key("2 x GB300 NVL72") == (144, "GB300")  # two racks
    assert hardware_key("8 x B200 (DGX B200)") == hardware_key("DGX B200") == (8, "B200")
    assert hardware_key("8 x H800 (H800 node)") == hardware_key("H800 node") == (8, "H800")
    assert hardware_key("(GB200 NVL72)") == (72, "GB200")
    assert hardware_key("NVIDIA H100 GPUs") == (None, "H100")
    assert hardware_key("16 x GB300") != rack


def test_quantity_key():
    c = Claim(id="x", doc_id="d", start=0, end=3, surface="826", value=826,
              family="token_throughput", unit="tokens/s", scope="per_user", statistic="P90",
              model="DeepSeek-V4.1-Flash")
    assert quantity_key(c) == "token_throughput|per_user|p90|*|*|m:deepseek v4.1 flash"


def test_role_cues():
    assert infer_from_text("According to the vLLM post, it reached 826. SGLang said more.") == "secondary"
    assert infer_from_text("We measured 826 tokens/s on our cluster.") == "primary"
    assert infer_from_text("Nothing here.") == "unknown"


@given(st.floats(1, 1e7), st.floats(1, 1e7), st.sampled_from(["=", ">", ">=", "<=", "~"]),
       st.sampled_from([None, 0.5, 5000.0, 0.005]))
def test_cached_bounds_match(a, b, cmp, p):
    from pipeline.link.consistency import bounds, consistent_bounds
    fa, fb = F(a, p, cmp), F(b, 0.5)
    assert consistent_bounds(bounds(fa), a, bounds(fb), b) == consistent(fa, fb)
    assert consistent_bounds(bounds(fb), b, bounds(fa), a) == consistent(fb, fa)
