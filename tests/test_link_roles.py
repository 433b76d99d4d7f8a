"""Role inference (pipeline/link/roles.py) on small documents written for the test."""
from __future__ import annotations

import random
import re
import string
import sys

from pipeline.link import roles
from pipeline.link.records import DocMeta
from pipeline.link.roles import (_clean, _evidence_scan, evidence, infer_from_text, own_names,
                                 resolve_role)
from pipeline.model import Claim
from pipeline.vocab import scan
from pipeline.vocab.caseless import FOLD_FIX, fold as _fold


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


# Role inference tries each pattern only where a fixed piece of it (a needle) is in the text;
# these tests hold it to what running every pattern over the whole text gives.
def fast_equals_scan(text: str, claims=(), meta=None) -> tuple[float, float]:
    fast = evidence(text, claims, meta)
    assert fast == _evidence_scan(_clean(text), list(claims), meta), text
    return fast


def test_fold_reads_every_case_blind_match_of_an_ascii_letter_as_that_letter():
    chars = "".join(chr(i) for i in range(sys.maxunicode + 1) if not 0xD800 <= i < 0xE000)
    for letter in string.ascii_lowercase:
        for m in re.finditer(letter, chars, re.I):
            assert _fold(m[0]) in (letter, None), (letter, hex(ord(m[0])))
    assert _fold("\u0130") is None              # "İ" lower-cases to two characters
    # a folded character that stands for a word character, "/" or "-" is one of them
    for c in chars:
        f = c.lower()
        if len(f) == 1 and f.translate(FOLD_FIX) in roles._WORDISH:
            assert re.fullmatch(r"[\w/\-]", c), hex(ord(c))


def test_cues_in_any_case_or_case_blind_spelling_are_counted():
    # the needles are looked for in lower case; the patterns are case-blind
    assert fast_equals_scan("WE MEASURED IT. OUR RESULTS ARE IN THIS PAGE.") == (3.0, 0.0)
    assert fast_equals_scan("We Measured it. Our Results.\n## METHODOLOGY") == (3.0, 0.0)
    # dotless i and long s match i and s case-blind, though they do not lower-case to them
    assert fast_equals_scan("th\u0131s page") == (1.0, 0.0)
    assert fast_equals_scan("our re\u017fults, u\u017f") == (1.1, 0.0)
    # "İ" lower-cases to two characters: the whole-text scan is used, with the same result
    assert fast_equals_scan("\u0130stanbul: we measured it.") == (1.0, 0.0)
    # the case-sensitive attribution patterns keep their case
    assert fast_equals_scan("ACCORDING TO NVIDIA, Acme SAID so.") == (0.0, 0.0)
    assert fast_equals_scan("According to Nvidia, Acme said so.") == (0.0, 2.0)


def test_names_and_clauses_of_any_length_before_the_verb():
    name = "Abc-" + "x" * 120 + ".Corp"
    news = DocMeta(id="d", title="News")
    for text, sec in ((f"{name} said it.", 2.0), (f"{name}'s blog post.", 1.0),
                      (f"{name}, {'y' * 58}, recently reported 3x.", 1.0),   # clause <= 60
                      (f"{name}, {'y' * 61}, recently reported 3x.", 0.0),
                      ("Acme said.Nvidia said.Nvidia's post", 5.0),
                      ("Acme said Bob said it", 4.0), ("said Acme", 0.0),
                      ("reported by reported by Acme", 1.0), ("Acme\nsaid", 0.0),
                      ("Nvidia’s keynote and AMD's slides", 2.0),
                      ("The vendor said so. The firm says so. The startup claims so.", 3.0)):
        assert fast_equals_scan(text, (), news)[1] == sec, text


def test_teams_bylines_and_we_are():
    intro = DocMeta(id="d", title="SGLang meetup")
    text = "by the Acme team and the vLLM team has shipped"
    assert fast_equals_scan(text) == (0.0, 2.0)
    assert fast_equals_scan(text, (), DocMeta(id="d", author="vLLM Team")) == (2.0, 1.0)
    assert fast_equals_scan("The vLLM team has shipped it.", (), intro) == (0.0, 1.0)
    # a byline: a line that ends in "Team" (blanks aside) in the first 3,000 characters
    for text, prim in (("Intro\n  SGLang Team  \r\nSGLang is fast.", 2.0),
                       ("Intro\nSGLang Teams\nSGLang is fast.", 0.0),
                       ("Intro\nSGLang Team is here.\nSGLang is fast.", 0.0),
                       ("x" * 2990 + "\nSGLang Team\n", 0.0)):
        assert fast_equals_scan(text, (), intro)[0] == prim, text
    # "we're a team @org", any case, in the first 5,000 characters
    meta = DocMeta(id="d", title="Acme kernels")
    we_are = "WE'RE A TINY TEAM @ACME-AI building kernels."
    assert fast_equals_scan("x " * 2480 + we_are, (), meta)[0] == 2.1   # "acme": its own
    assert fast_equals_scan("x " * 2490 + we_are, (), meta)[0] == 0.1   # cut at 5,000
    assert fast_equals_scan("x " * 2000 + "we are the kernel team at acme.", (), meta)[0] == 2.1


def test_engine_mentions_found_from_their_first_letters():
    pattern = roles._engines().pattern
    needles = scan.needles(pattern)
    assert needles is not None and {"nvidia", "dynamo", "vllm", "sgl"} <= set(needles)
    for text in ("(vLLM) vllm-x -vLLM _vLLM VLLM", "NVIDIA  Dynamo, dynamo SGLang; SGL",
                 "x\u212aTransformers KTRANSFORMERS", "text-generation-inference Text  Generation",
                 "vLLM", "hf Transformers HF\ttransformers Hugging Face Transformers"):
        assert roles._systems(text, _fold(text)) == roles._systems(text), text
    # lower-cased prefixes of a case-blind pattern, none beginning with another
    assert scan.needles(re.compile(r"(?:[Vv]LLM|Dynamo|(?:ab|bc){2}d|abc)", re.I)) == (
        "ab", "bc", "vllm", "dynamo")                  # one repetition, then stop
    assert scan.needles(re.compile(r"x?Dynamo", re.I)) is None      # "x", one letter
    assert scan.needles(re.compile(r"(?<![\w-])(?:\w+LLM|vLLM)")) is None


def test_every_cue_is_found_where_its_needles_say():
    """Each cue of role_cues.toml alone: its fast matches are its scan's, on texts made of
    the words its patterns and needles are built from."""
    table = roles.cue_table()
    words = ("we We our Our us this page said says Acme vLLM's post the company firm reported "
             "by According to according credited Credited to as As per reportedly word around "
             "town In in a blog team Team has SGLang, with llm-d 0.3, also tested measured "
             "methodology 'we're").split()
    rng = random.Random(17)
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        low = _fold(text)
        spaced = table.words.find(low)
        for cue in table.cues:
            fast = [m.span() for m in table.matches(cue, text, low, spaced)]
            assert fast == [m.span() for m in cue.pattern.finditer(text)], (cue.name, text)


def test_the_fast_counts_equal_whole_text_scans_on_random_texts():
    words = ("we We WE our Our us US this This page dashboard work was led methodology "
             "according to According the The company firm vendor startup team Team said says "
             "told claims stated announced reports reported writes wrote published tested also "
             "recently by By from From credited Credited as per As reportedly Allegedly 's ’s "
             "blog post paper keynote Word around town In a Nvidia vLLM SGLang Acme It AMD "
             "llm-d X.Y 've 're have measured ran benchmarked results runs setup Dynamo "
             "TRT-LLM llama.cpp Hugging Face Transformers between focus use hour \u0131 \u017f "
             "\u212a é 🚀 0.3 @acme-ai").split()
    pieces = ["[a link](https://x.y/we)", "![an image](a.png)", "https://x.y/our",
              "We're a tiny team @deepseek-ai", "SGLang Team\n", "the SGLang team has",
              "Acme, with llm-d 0.3, reports", "Acme's blog post", "The company said"]
    seps = [" "] * 12 + ["", ",", ", ", ".", "\n", "-", "/", "(", "*", '"', "“", "'", "’"]
    rng = random.Random(7)
    for _ in range(1500):
        parts = []
        for _ in range(rng.randint(0, 80)):
            w = rng.choice(pieces) if rng.random() < 0.1 else rng.choice(words)
            parts += [w.upper() if rng.random() < 0.05 else w, rng.choice(seps)]
        text = "".join(parts)
        meta = rng.choice([None, DocMeta(id="d", author="vLLM Team", title="vLLM notes"),
                           DocMeta(id="d", author="jane@acme.com", title="Acme & SGLang")])
        claims = [claim(i, engine=rng.choice([None, "vLLM", "SGLang"]),
                        in_table=rng.random() < 0.5) for i in range(rng.choice([0, 1, 4]))]
        fast_equals_scan(text, claims, meta)
