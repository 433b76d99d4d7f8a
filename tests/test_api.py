"""The Python API (pipeline/api.py, docs/python-api.md): the page's examples run as written,
and each function answers as the command it stands for does."""
from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.api import Warehouse, document, extract
from pipeline.extract import extract_claims
from pipeline.store import StoreError

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "python-api.md"
CORPUS = REPO / "corpus"


def _python_blocks(markdown: str) -> list[tuple[int, str]]:
    """(line number, code) of each ```python block."""
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```", markdown, re.S | re.M):
        out.append((markdown.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


def test_the_python_api_page_runs_as_written(tmp_path, monkeypatch):
    """Every ```python block of docs/python-api.md, run in order in one namespace as
    doctests, in a folder holding a copy of corpus/: the outputs shown are the outputs."""
    shutil.copytree(CORPUS, tmp_path / "corpus")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLAIMS_DB", raising=False)
    text = DOC.read_text(encoding="utf-8")
    blocks = _python_blocks(text)
    assert len(blocks) >= 8, "the page lost its examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for line, code in blocks:
        test = parser.get_doctest(code, globs, f"python-api.md:{line}", str(DOC), line)
        assert test.examples, f"the block at line {line} holds no >>> example"
        runner.run(test, clear_globs=False)
        globs = test.globs              # the next block sees what this one defined
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {DOC.name} failed (see above)"


# --- extract --------------------------------------------------------------------------------

def test_extract_is_the_extractor_on_a_document_with_a_stable_id():
    text = "Llama 3.1 70B serves 1,200 tokens/s per GPU on H100 with SGLang."
    got = extract(text, title="A note", publisher="LMSYS", url="https://example.com/a")
    doc = document(text, title="A note", publisher="LMSYS", url="https://example.com/a")
    assert [c.to_dict() for c in got] == [c.to_dict() for c in extract_claims(doc)]
    assert [c.surface for c in got] == ["1,200 tokens/s"]
    assert got[0].doc_id == doc.id == document(text).id
    assert len(doc.id) == 16 and doc.path == "<text>" and doc.format == "text"
    assert doc.title == "A note" and doc.url == "https://example.com/a"
    assert document(text + " ").id != doc.id
    assert all(text[c.start:c.end] == c.surface for c in got)


def test_extract_metadata_is_checked():
    with pytest.raises(TypeError, match="titel"):
        extract("x", titel="typo")
    with pytest.raises(ValueError, match="format"):
        extract("x", format="html")
    with pytest.raises(ValueError, match="role"):
        extract("x", role="tertiary")
    with pytest.raises(TypeError):
        extract(b"bytes")
    assert document("x", role="primary").role_source == "metadata"
    assert document("x", url="https://www.example.com/post").publisher    # from the host, as ingest
    assert extract("") == []


# --- the warehouse ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wh(tmp_path_factory) -> Warehouse:
    w = Warehouse(tmp_path_factory.mktemp("wh") / "claims.duckdb")
    report = w.ingest(CORPUS, workers=0)
    assert report.errors == [] and report.summary.claims > 0 and report.link is not None
    return w


def test_ingest_is_the_commands_ingest(wh, tmp_path, run_cli):
    """The same corpus through `claims ingest` stores the same claims."""
    db = tmp_path / "cli.duckdb"
    run_cli("ingest", str(CORPUS), "--db", str(db), "-q", "--workers", "0", cwd=tmp_path, check=True)
    query = 'SELECT id, surface, family, scope, model, hardware, engine FROM claims ORDER BY id'
    assert Warehouse(db).sql(query).to_pylist() == wh.sql(query).to_pylist()
    links = "SELECT src, dst, relation FROM links ORDER BY ALL"
    assert Warehouse(db).sql(links).to_pylist() == wh.sql(links).to_pylist()


def test_ingest_refuses_a_missing_path_before_writing(tmp_path):
    w = Warehouse(tmp_path / "new.duckdb")
    with pytest.raises(FileNotFoundError, match="nope"):
        w.ingest([tmp_path / "nope"])
    assert not w.path.exists()
    with pytest.raises(ValueError):
        w.ingest([])


def test_ingest_records_a_bad_file_and_goes_on(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "good.md").write_text("Kimi K3 reaches 62.7 tokens/s per user on 16 GB300s.\n")
    (tmp_path / "docs" / "bad.pdf").write_bytes(b"%PDF-1.7 not really")
    w = Warehouse(tmp_path / "w.duckdb")
    report = w.ingest(tmp_path / "docs", workers=0)
    assert report.summary.new == 1 and [p for p, _ in report.errors] == ["bad.pdf"]
    assert "1 errors" in str(report)
    again = w.ingest(tmp_path / "docs", workers=0, link=False)
    assert again.summary.skipped == 1 and again.link is None
    assert w.link() is not None


def test_claims_filters(wh):
    every = wh.claims()
    assert every.num_rows == wh.sql("SELECT count(*) AS n FROM claims").to_pylist()[0]["n"]
    assert {"doc_path", "doc_role", "surface", "family"} <= set(every.column_names)
    kimi = wh.claims(model="Kimi K3", family="token_throughput")
    assert kimi.column("surface").to_pylist() == ["62.7 tokens/s/user"]
    no_model = wh.claims(model=None)
    assert no_model.num_rows > 0 and set(no_model.column("model").to_pylist()) == {None}
    both = wh.claims(family=["money", "percent"])
    assert set(both.column("family").to_pylist()) == {"money", "percent"}
    assert wh.claims(family=[]).num_rows == 0
    assert wh.claims(surface="x'); DROP TABLE claims; --").num_rows == 0     # values are parameters
    with pytest.raises(TypeError, match="modle"):
        wh.claims(modle="Kimi K3")
    with pytest.raises(TypeError):
        wh.claims(**{'model" = model OR "1': 1})


def test_sql_reads_only(wh):
    assert wh.sql("SELECT 1 AS one").to_pylist() == [{"one": 1}]
    assert wh.sql("SELECT ? AS x", [7], timeout=30).to_pylist() == [{"x": 7}]
    for statement in ("DELETE FROM claims", "DROP TABLE claims", "ATTACH 'x.db'",
                      "SELECT 1; SELECT 2", "COPY claims TO 'out.csv'"):
        with pytest.raises(StoreError):
            wh.sql(statement)
    with pytest.raises(StoreError):                 # the sandbox: no files from a query
        Warehouse(wh.path).sql("SELECT * FROM read_text('/etc/hostname')")


def test_as_pandas(wh, monkeypatch):
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            wh.claims(as_pandas=True)
        return
    frame = wh.claims(model="Kimi K3", as_pandas=True)
    assert list(frame["surface"]) == ["2.8 trillion parameters", "62.7 tokens/s/user"]


def test_check_and_trace_answer_as_the_command(wh, run_cli, tmp_path):
    import json

    headline = "Kimi K3 reaches 62.7 tokens/s per user"
    proc = run_cli("check", headline, "--db", str(wh.path), "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    verdict = wh.check(headline)
    assert verdict.verdict == "supported"
    assert json.loads(json.dumps(verdict.to_dict(), default=str)) == json.loads(proc.stdout)
    claim_id = verdict.evidence[0].id
    t = wh.trace(claim_id[:8])
    assert t.claim.id == claim_id and t.doc.path == "kimi-k3.txt"
    proc = run_cli("trace", claim_id, "--db", str(wh.path), "--format", "json", cwd=tmp_path)
    assert json.loads(proc.stdout)["claim"]["id"] == claim_id
    with pytest.raises(LookupError):
        wh.trace("not-an-id")


def test_missing_warehouse_is_a_store_error(tmp_path):
    w = Warehouse(tmp_path / "none.duckdb")
    with pytest.raises(StoreError, match="no database"):
        w.claims()
    with pytest.raises(StoreError, match="no database"):
        w.check("Kimi K3 reaches 62.7 tokens/s per user")
    assert repr(w) == f"Warehouse({str(w.path)!r})"


def test_default_path_is_the_commands(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAIMS_DB", str(tmp_path / "env.duckdb"))
    assert Warehouse().path == tmp_path / "env.duckdb"


# --- the package's top level ---------------------------------------------------------------

def test_top_level_names_are_lazy_and_cycle_free():
    """`import pipeline` imports no API module (the command's start stays fast); each
    top-level name imports on first use in a fresh interpreter, alone."""
    env = {k: v for k, v in os.environ.items() if k != "CLAIMS_DB"}
    code = (
        "import sys, pipeline\n"
        "assert 'pipeline.api' not in sys.modules and 'pipeline.extract' not in sys.modules\n"
        "assert isinstance(pipeline.__version__, str)\n"
        "from pipeline import Warehouse, IngestReport, extract_text, Claim, Document, Verdict, Trace\n"
        "import pipeline.api, pipeline.extract\n"
        "assert extract_text is pipeline.api.extract and Warehouse is pipeline.api.Warehouse\n"
        "assert pipeline.extract.VERSION\n"            # still the extractor subpackage
        "assert set(pipeline.__all__) <= set(dir(pipeline))\n"
        "try:\n    pipeline.nothing\nexcept AttributeError:\n    pass\nelse:\n    raise SystemExit(1)\n"
        "print(len(extract_text('It serves 1,200 tokens/s per GPU on H100.')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "1"
    for module in ("pipeline.api", "pipeline.check", "pipeline.trace"):
        proc = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                              text=True, env=env, cwd=REPO, timeout=60)
        assert proc.returncode == 0, proc.stderr
