"""`claims trace CLAIM_ID`: where a figure appears, whom it cites, what bears on it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.record import open_record
from pipeline.trace import TraceError, format_trace, trace
from claimdb import claim_id

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("trace") / "t.duckdb"
    run_cli("ingest", str(REPO / "tests" / "fixtures" / "check"), "--db", str(db), "-q",
            cwd=REPO, check=True)
    return str(db)




def test_secondary_figure_chain(db):
    cid = claim_id(db, "weekly-roundup.md", "212 tokens/s")
    t = trace(cid, open_record(db))
    assert t.doc.path == "weekly-roundup.md" and t.doc.role == "secondary"
    assert t.quote[1] == "212 tokens/s" and "Orbit Compute" in t.quote[0]
    supported_by = [s for s in t.steps if s.relation in ("supports", "restates")]
    assert any(s.doc.path == "orbit-llama-405b.md" and s.claim.surface == "212 tokens/s"
               for s in supported_by)
    # cluster in publication order, the primary post first
    assert t.cluster and t.cluster[0][1].path == "orbit-llama-405b.md"
    assert t.verdict is not None and t.verdict.verdict == "supported"
    text = format_trace(t)
    assert "weekly-roundup.md [" in text and "»212 tokens/s«" in text
    assert "first" in text and "<- this figure" in text
    assert "check      supported" in text


def test_conflict_and_derivation(db):
    rec = open_record(db)
    t = trace(claim_id(db, "tidewater-405b.md", "6,100 tokens/s"), rec)
    assert any(s.relation == "conflicts" and s.claim.surface == "9,800 tokens/s" for s in t.steps)
    assert t.verdict is None                     # a primary figure is not checked
    t = trace(claim_id(db, "orbit-llama-405b.md", "38%"), rec)
    operands = {s.phrase: s.claim.surface for s in t.steps if s.relation == "derives"}
    assert operands == {"computed from (a)": "212 tokens/s", "computed from (b)": "154 tokens/s"}


def test_prefix_and_unknown_ids(db):
    rec = open_record(db)
    cid = claim_id(db, "harbor-qwen.md", "140 tokens/s")
    assert trace(cid[:8], rec).claim.id == cid
    with pytest.raises(TraceError):
        trace("zzzz", rec)


def test_cli(db, run_cli):
    cid = claim_id(db, "weekly-roundup.md", "5,000 tokens per second")
    p = run_cli("trace", cid, "--db", db, cwd=REPO, check=True)
    assert p.stdout.startswith("5,000 tokens per second")
    assert "cites      Harbor AI -> harbor-qwen.md" in p.stdout
    assert "check      ambiguous" in p.stdout
    p = run_cli("trace", cid, "--db", db, "--format", "json", cwd=REPO, check=True)
    out = json.loads(p.stdout)
    assert out["claim"]["doc_path"] == "weekly-roundup.md"
    assert out["cited_documents"] == ["harbor-qwen.md"]
    assert out["verdict"]["verdict"] == "ambiguous"
    p = run_cli("trace", "nosuchclaim", "--db", db, cwd=REPO)
    assert p.returncode == 2 and "no claim with id" in p.stderr
