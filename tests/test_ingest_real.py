"""The real third-party corpus (shared/corpus/real) through the real CLI, read at run time.

Known passages come from the files themselves and from the hand-made gold labels in
shared/gold/dev.jsonl (quotes are exact substrings of the documents; PDF lines carry the
page), so no corpus text is copied into this repository.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pdfplumber
import pytest

from pipeline.model import Document, Page

SUMMARY = re.compile(r"(\d+) files: (\d+) new, (\d+) skipped \(unchanged\), (\d+) replaced, "
                     r"(\d+) errors, (\d+) skipped \(unsupported\)")


@pytest.fixture(scope="module")
def ingested(REAL, real_warehouse, tmp_path_factory, run_cli):
    """The first run is the session's shared one (conftest's ``real_warehouse``, quiet,
    its output kept); the second, not quiet, runs on a copy of the database it made."""
    first = real_warehouse
    db = real_warehouse.copy(tmp_path_factory.mktemp("real"))
    second = run_cli("ingest", str(REAL), "--db", str(db), cwd=db.parent, check=True)
    con = duckdb.connect(str(db), read_only=True)
    yield first, second, con
    con.close()


def _docs_on_disk(real: Path) -> list[str]:
    return sorted(p.relative_to(real).as_posix() for p in real.rglob("*")
                  if p.suffix in (".md", ".pdf") and p.is_file())


def _load(con, rel: str) -> Document:
    row = con.execute("SELECT id, format, text FROM documents WHERE path = ?", [rel]).fetchone()
    assert row, f"{rel} was not ingested"
    pages = [Page(*r) for r in con.execute(
        'SELECT page, start, "end" FROM pages WHERE doc_id = ? ORDER BY page', [row[0]]).fetchall()]
    return Document(id=row[0], path=rel, format=row[1], text=row[2], pages=pages)


def test_every_document_is_ingested_without_error(ingested, REAL):
    first, second, con = ingested
    on_disk = _docs_on_disk(REAL)
    assert len(on_disk) >= 61
    files, new, skipped, replaced, errors, unsupported = map(int, SUMMARY.search(first.stdout).groups())
    assert (new, errors, replaced) == (len(on_disk), 0, 0)
    assert unsupported == files - len(on_disk)     # MANIFEST.tsv is read as a manifest, not a file
    stored = [r[0] for r in con.execute("SELECT path FROM documents ORDER BY path").fetchall()]
    assert stored == on_disk
    assert "README.md" in stored
    assert con.execute("SELECT count(*) FROM ingest_errors").fetchone() == (0,)
    assert first.stderr.strip() == ""


def test_second_run_skips_everything(ingested, REAL):
    _, second, con = ingested
    files, new, skipped, replaced, errors, _ = map(int, SUMMARY.search(second.stdout).groups())
    assert (new, replaced, errors, skipped) == (0, 0, 0, len(_docs_on_disk(REAL)))
    assert second.stderr.strip() == ""
    assert con.execute("SELECT count(*) FROM documents").fetchone() == (len(_docs_on_disk(REAL)),)


@pytest.mark.parametrize("rel", [
    "tensorrt-llm/H200launch.md", "vllm-blog/2024-09-05-perf-update.md",
    "hao-ai-lab-blog/distserve/index.md", "lmdeploy/a100_fp16.md",
    "sglang-learning-materials/Efficient LLM Deployment and Serving.md",
])
def test_markdown_text_is_the_file_minus_front_matter(ingested, REAL, rel):
    _, _, con = ingested
    doc = _load(con, rel)
    raw = (REAL / rel).read_bytes().decode("utf-8").replace("\r\n", "\n")
    assert raw.endswith(doc.text) and len(raw) - len(doc.text) < 1500
    lines = [ln for ln in raw.splitlines() if ln.strip()]
    # the last line and every table row survive, one per line
    assert lines[-1] in doc.text.splitlines()
    rows = [ln for ln in lines if ln.lstrip().startswith("|")]
    assert set(rows) <= set(doc.text.splitlines())


def test_markdown_front_matter_becomes_metadata(ingested):
    _, _, con = ingested
    title, published, author = con.execute(
        "SELECT title, published::VARCHAR, author FROM documents "
        "WHERE path = 'hao-ai-lab-blog/distserve/index.md'").fetchone()
    assert title and published == "2024-03-17" and "," in author   # TOML front matter, authors list
    n_dated = con.execute("SELECT count(*) FROM documents WHERE published IS NOT NULL").fetchone()[0]
    assert n_dated >= 30


def _gold(shared: Path) -> list[dict]:
    path = shared / "gold" / "dev.jsonl"
    if not path.is_file():
        pytest.skip("gold labels are missing")
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [g for g in lines if g["doc"].startswith("corpus/real/")]


def test_gold_quotes_are_in_the_stored_text(ingested, SHARED):
    _, _, con = ingested
    gold = _gold(SHARED)
    assert {g["doc"].endswith(".pdf") for g in gold} == {True, False}
    for g in gold:
        doc = _load(con, g["doc"].removeprefix("corpus/real/"))
        assert g["quote"] in doc.text, (g["doc"], g["quote"])


def test_pdf_figures_map_to_their_gold_page(ingested, SHARED):
    _, _, con = ingested
    paged = [g for g in _gold(SHARED) if "page" in g]
    assert len(paged) >= 5
    for g in paged:
        doc = _load(con, g["doc"].removeprefix("corpus/real/"))
        # the quote may occur on several pages; one occurrence must be on the labelled page
        starts = [m.start() for m in re.finditer(re.escape(g["quote"]), doc.text)]
        assert g["page"] in {doc.page_at(s) for s in starts}, g


@pytest.mark.parametrize("rel, page", [
    ("deepseek-v2/deepseek-v2-tech-report.pdf", 5),
    ("mooncake/Mooncake-FAST25.pdf", 2),
    ("sglang-learning-materials/amd_dev_day_v2.pdf", 3),
])
def test_pdf_page_text_is_pdfplumbers(ingested, REAL, rel, page):
    _, _, con = ingested
    doc = _load(con, rel)
    with pdfplumber.open(REAL / rel) as pdf:
        assert len(doc.pages) == len(pdf.pages)
        expected = pdf.pages[page - 1].extract_text()
    p = doc.pages[page - 1]
    assert doc.text[p.start:p.end] == expected
    assert doc.page_at(p.start) == page and doc.page_at(p.end - 1) == page
