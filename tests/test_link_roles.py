"""Role inference (pipeline/link/roles.py) on small documents written for the test."""
from __future__ import annotations

from pipeline.link.records import DocMeta
from pipeline.link.roles import evidence, infer_from_text, own_names, resolve_role
from pipeline.model import Claim


def claim(i: int, **kw) -> Claim:
    kw.setdefault("family", "token_throughput")
    return Claim(id=f"c{i}", doc_id="d", start=0, end=1, surface="1", value=1.0, unit="tokens/s",
                 **kw)


def role(text: str, claims=(), **meta) -> str:
    m = DocMeta(id="d", path="d.md", text=text, **meta)
    return resolve_role(m, claims)[0]


def test_own_measurement_with_adverbs_and_own_nouns():
    assert role("We also benchmarked Orca-70B on 8 x H100 and it reached 900 tokens/s.") == "primary"
    assert role("Our microbenchmarks show the backend saturates at 64K tokens.") == "primary"
    assert role("Reproducing our MLPerf inference submission step by step.") == "primary"


def test_benchmark_table_outweighs_a_couple_of_credits():
    text = ("| model | tokens/s |\n| Orca-70B | 10,907 |\n| Orca-13B | 3,679 |\n"
            "In the latest MLPerf round, Acme demonstrated 4.5x, as reported by Acme.")
    claims = [claim(i, in_table=True) for i in range(9)] + \
        [claim(9, stance="reported", asserted_by="Acme"), claim(10, asserted_by="Acme")]
    assert role(text, claims) == "primary"


def test_publisher_writing_about_its_own_system():
    text = ("Recent community benchmarks on an H200 cluster show 2.2k tokens/s per GPU. "
            "This article outlines the key optimizations the vLLM team has built.")
    reported = [claim(1, stance="reported", asserted_by="community benchmarks")]
    assert role(text, reported, author="vLLM Team",
                title="vLLM Large Scale Serving: 2.2k tok/s per H200") == "primary"
    # the same words from someone else are coverage of the vLLM team
    assert role(text + " According to Acme, it is fast.", reported, author="Jane Doe",
                title="Large scale serving, reviewed") == "secondary"


def test_byline_team_email_and_we_are_a_team():
    slides = "The First SGLang Online Meetup\nSGLang Team\n\nSGLang: 5x higher throughput\n"
    assert own_names(DocMeta(id="d"), slides) == {"sglang"}
    assert role(slides) == "primary"
    assert own_names(DocMeta(id="d", author="jane.doe@acme.com"), "") == {"acme"}
    assert role("Highlights: MI300X serving 2x faster than before.",
                author="jane.doe@acme.com", title="Acme & SGLang") == "primary"
    assert "acme" in own_names(DocMeta(id="d"), "We're a tiny team @acme-ai building kernels.")


def test_a_deck_about_one_system():
    text = ("SGLang: An Efficient Open-Source Framework\nSGLang is a fast serving engine. "
            "SGLang achieves 52.3K in-tok/s. SGLang is 5x faster than vanilla TP.")
    assert role(text, title="Co-hosted by") == "primary"


def test_coverage_credits_others():
    text = ("According to Nvidia, the new stack offers 20.9 times the performance. "
            "The company said a single user sees 325 tokens per second. Acme's post reports 943.")
    assert role(text) == "secondary"


def test_recap_of_other_teams_work():
    text = ("A Look Back at the Meetup, organised by SGLang, FlashInfer and MLC-LLM\n"
            "Two speakers from the SGLang team have significantly advanced CPU overlap. "
            "The SGLang team is dedicated to further work. "
            "XGrammar has demonstrated a 30% improvement in end-to-end speed.")
    assert role(text) == "secondary"


def test_third_party_reports_count_unless_they_are_the_author():
    text = ("SGLang tested DeepSeek-R1 on 96 H100 GPUs. vLLM, with llm-d 0.3, reports 2.2k "
            "tokens/s per H200.")
    p, s = evidence(text, (), DocMeta(id="d", author="Jane Doe", title="Disaggregation, later"))
    assert s >= 2 and p == 0
    p, s = evidence(text, (), DocMeta(id="d", author="vLLM Team", title="vLLM notes"))
    assert s == 1              # only SGLang's test is someone else's


def test_words_that_are_not_sources():
    for text in ("Sort the requests in the queue according to matched prefix length.",
                 "The model says an ideal pipeline keeps both busy.",
                 "Figure 10 reports the comparison at each workload.",
                 "Not because we've made grand claims."):
        assert infer_from_text(text) == "unknown", text
    # links and images do not carry cues ("en-us" in a URL is not "us")
    assert evidence("See [the post](https://example.com/en-us/we/our/x).")[0] == 0
    assert own_names(DocMeta(id="d"), "![Meetup Team](figs/team.png)\nText") == set()


def test_manifest_and_metadata_win():
    m = DocMeta(id="d", text="According to Nvidia it is fast.", role="primary",
                role_source="manifest")
    assert resolve_role(m) == ("primary", "manifest")
    m = DocMeta(id="d", text="We measured it.", role="secondary", role_source=None)
    assert resolve_role(m) == ("secondary", "metadata")
    assert resolve_role(DocMeta(id="d", text="We measured it."))[1] == "inferred"
