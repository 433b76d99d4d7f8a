"""`claims extract` (one text's claims, no database) through the real command, and
`claims explain` (why each number is a claim or not) on sentences written for these tests.

explain decides nothing itself: it reads what the extractor's own steps recorded, so the
claims it shows are exactly extract's and each reason is the step's."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pipeline.api import Warehouse, extract
from pipeline.explain import NO_CONTEXT, explain, explain_document, format_explanation

REPO = Path(__file__).resolve().parents[1]

SENTENCE = ("On four B300 GPUs, DeepSeek-V4.1-Flash reaches 826 tokens/s per user with vLLM "
            "at P90, 2.1x the throughput of SGLang.")


# --- claims extract -------------------------------------------------------------------------

def test_extract_text_as_a_table(run_cli, tmp_path):
    proc = run_cli("extract", SENTENCE, cwd=tmp_path, check=True)
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["start", "surface", "cmp", "value", "unit", "family", "scope",
                                "model", "hardware", "engine", "conditions"]
    row = next(line for line in lines if "826 tokens/s" in line)
    for part in ("token_throughput", "per_user", "DeepSeek-V4.1-Flash", "4 x B300", "vLLM", "p90"):
        assert part in row
    assert lines[-1] == "(2 rows)"
    assert not (tmp_path / "warehouse").exists()        # no database made or read


def test_extract_a_file_as_ingest_reads_it(run_cli, tmp_path):
    """`claims extract FILE -f jsonl` gives the claims `claims ingest` stores for that file,
    with the same ids."""
    page = tmp_path / "post.md"
    page.write_text("---\ntitle: Serving Kimi K3 on GB300\npublisher: Moonshot AI\n---\n\n"
                    "# Results\n\nOn 16 GB300 GPUs it reaches 62.7 tokens/s per user at P90, "
                    "and a node serves 12,000 tokens/s at a concurrency of 64.\n", encoding="utf-8")
    proc = run_cli("extract", str(page), "-f", "jsonl", cwd=tmp_path, check=True)
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [c["surface"] for c in got] == ["62.7 tokens/s", "12,000 tokens/s"]
    assert got[0]["model"] == "Kimi K3" and got[0]["inherited"] is True
    assert got[1]["concurrency"] == 64
    assert {c["doc_id"] for c in got} == {hashlib.sha256(page.read_bytes()).hexdigest()[:16]}
    wh = Warehouse(tmp_path / "w.duckdb")
    wh.ingest(page, workers=0, link=False)
    stored = wh.sql("SELECT id, surface, scope, model, hardware FROM claims ORDER BY start").to_pylist()
    assert stored == [{k: c[k] for k in ("id", "surface", "scope", "model", "hardware")} for c in got]


def test_extract_stdin_as_json_and_metadata(run_cli, tmp_path):
    import subprocess

    from conftest import claims_command

    proc = subprocess.run([*claims_command(), "extract", "-", "-f", "json",
                           "--title", "DeepSeek-V4.1-Flash on vLLM", "--publisher", "vLLM"],
                          input="It reaches 575 tokens/s per user.\n", capture_output=True,
                          text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert [(c["surface"], c["model"], c["engine"]) for c in got] == \
        [("575 tokens/s", "DeepSeek-V4.1-Flash", "vLLM")]
    # the same text as an argument, through the Python API, reads the same
    mine = extract("It reaches 575 tokens/s per user.", title="DeepSeek-V4.1-Flash on vLLM",
                   publisher="vLLM")
    assert [(c.surface, c.model, c.engine, c.scope) for c in mine] == \
        [(c["surface"], c["model"], c["engine"], c["scope"]) for c in got]


def test_extract_errors_are_one_line(run_cli, tmp_path):
    proc = run_cli("extract", "missing.pdf", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("error: no such file: missing.pdf")
    assert len(proc.stderr.splitlines()) == 1
    (tmp_path / "blank.txt").write_text("   \n")
    proc = run_cli("extract", "blank.txt", "-f", "jsonl", cwd=tmp_path)
    assert proc.returncode == 2 and "no text" in proc.stderr and "Traceback" not in proc.stderr


# --- claims explain ----------------------------------------------------------------------------

def _reasons(text: str) -> dict[str, str]:
    return {f.text: (f"claim {f.claim.surface}" if f.claim else f.reason) for f in explain(text)}


def test_explain_on_the_command_line(run_cli, tmp_path):
    text = "At 16 QPS, TTFT stays under 200 ms for Llama 3.1 70B on 8x H100."
    proc = run_cli("explain", text, cwd=tmp_path, check=True)
    out = proc.stdout
    assert '"16" at 3: not a claim: an offered load' in out
    assert '"200" at 28: claim "200 ms"' in out and "offered load 16" in out
    assert 'inside the model name "Llama 3.1 70B"' in out
    assert out.rstrip().endswith("(5 numbers, 1 claim)")
    proc = run_cli("explain", text, "-f", "json", cwd=tmp_path, check=True)
    got = json.loads(proc.stdout)
    assert [f["claim"] for f in got] == [False, True, False, False, False]
    assert got[1]["fields"]["offered_load"] == 16 and got[1]["read"]["comparator"] == "<"


@pytest.mark.parametrize("text, number, reason", [
    # names, dates, versions, references: masked
    ("vLLM serves Llama 3.1 70B at 2,400 tokens/s per GPU.", "70B", 'inside the model name "Llama 3.1 70B"'),
    ("The March 3, 2025 release serves 2,400 tokens/s per GPU.", "2025", '"March 3, 2025" is a date'),
    ("As Figure 4 shows, it serves 2,400 tokens/s per GPU.", "4", '"Figure 4" is a date, version'),
    ("It serves 2,400 tokens/s per GPU [12].", "12", 'inside "[12]"'),
    ("Run `serve --port 8080` to get 2,400 tokens/s per GPU.", "8080", "inside \"`serve --port 8080`\""),
    # settings of the sentence's other figures (notclaims.py, via _not_a_claim)
    ("At 16 QPS, TTFT stays under 200 ms on H100.", "16", "an offered load"),
    ("With an input length of 128k tokens, prefill takes 1.5 seconds on H100.", "128k",
     "a length setting (ISL)"),
    ("On H100 the p50 TTFT is 90 ms at a concurrency of 64.", "64", "its value is the concurrency of \"90 ms\""),
    ("On 8x H100, it serves 2,400 tokens/s per GPU.", "8", "its value is the hardware count of \"2,400 tokens/s\""),
    # no figure at all
    ("It takes 40 minutes to mow the lawn.", "40", "a worked example"),
    ("The judge model reached 59.8% agreement with human raters.", "59.8", "a share of quality"),
    ("TTFT on H100\n0 100 200 300 400 ms\n", "400", "a chart axis"),
    ("Each step emits 2 tokens on H100 GPUs.", "2", "a tiny token count"),
    ("We tried 250 times on H100.", "250", NO_CONTEXT),
    ("It serves between 30 and 200 requests/s on H100.", "200", 'part of the figure "30 and 200 requests/s"'),
    ("| Model | Batch | Throughput (tok/s) |\n|---|---|---|\n| Llama-70B | 64 | 1,250 |\n", "64",
     'a setting column ("Batch")'),
])
def test_explain_says_why_a_number_is_no_claim(text, number, reason):
    got = _reasons(text)
    assert number in got, got
    assert not got[number].startswith("claim"), got
    assert reason in got[number], got


def test_explain_says_how_a_claim_was_read():
    figs = {f.text: f for f in explain(SENTENCE)}
    speed = dict(figs["826"].how)
    assert speed["unit"] == 'token_throughput, tokens/s (written "tokens/s")'
    assert speed["scope"] == "per_user (the unit's own denominator)"
    assert speed["subject"] == "model DeepSeek-V4.1-Flash, hardware 4 x B300, engine vLLM"
    assert "statistic p90" in speed["conditions"]
    ratio = dict(figs["2.1"].how)
    assert ratio["comparison"] == "baseline SGLang, direction up, measures throughput"
    carried = {f.text: dict(f.how) for f in explain(
        "vLLM serves Llama 3 8B at 2,400 tokens/s per GPU. It reaches 575 on H200.") if f.claim}
    assert carried["575"]["unit"].endswith('carried from "2,400 tokens/s"')
    titled = dict(explain("It reaches 575 tokens/s per user.", title="Kimi K3 results")[0].how)
    assert "model Kimi K3" in titled["subject"] and "carried from" in titled["subject"]
    assert "unspecified" in dict(explain("The server reaches 3,000 tokens/s.")[0].how)["scope"]
    assert format_explanation([]) == "no numbers in the text\n"


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "corpus").iterdir()
                                        if p.suffix in (".md", ".txt", ".html")))
def test_explain_shows_exactly_the_claims_extract_finds(name):
    """On the demo corpus (read as ingest reads it) and the sentences above: every claim
    extract finds is one figure of explain, with the same fields."""
    from pipeline.extract import extract_claims
    from pipeline.ingest import ingest_file

    doc = ingest_file(REPO / "corpus" / name, REPO / "corpus")
    want = [c.to_dict() for c in extract_claims(doc)]
    figures = explain_document(doc)
    assert [f.claim.to_dict() for f in figures if f.claim is not None] == want
    assert all(f.reason for f in figures if f.claim is None)


@pytest.mark.parametrize("text", [
    SENTENCE, "At 16 QPS, TTFT stays under 200 ms for Llama 3.1 70B on 8x H100.",
    "It is twice as fast as vLLM, at 3x lower cost and $2 per million tokens.",
])
def test_explain_and_extract_agree_on_sentences(text):
    assert [f.claim.to_dict() for f in explain(text) if f.claim] == [c.to_dict() for c in extract(text)]
