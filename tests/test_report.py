"""`claims report`: report.html (self-contained) and report.md over corpus/ and own fixtures."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.report import write_report
from pipeline.record import open_record

REPO = Path(__file__).resolve().parents[1]
# Figures seed 000 says the coverage carries and no document contains.
SEED_UNSOURCED = ["20.9 times", "325 tokens per second", "943 tokens per second",
                  "654,000 tokens per second", "1.09 million tokens per second", "$38"]


def _ingest(run_cli, folder: Path, db: Path) -> str:
    run_cli("ingest", str(folder), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


@pytest.fixture(scope="module")
def corpus_report(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("report")
    db = _ingest(run_cli, REPO / "corpus", tmp / "c.duckdb")
    out = tmp / "out"
    p = run_cli("report", "--db", db, "-o", str(out), cwd=REPO, check=True)
    assert "report.html" in p.stdout and "report.md" in p.stdout
    return db, (out / "report.html").read_text(), (out / "report.md").read_text()


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("freport")
    db = _ingest(run_cli, REPO / "tests" / "fixtures" / "check", tmp / "f.duckdb")
    html_path, md_path = write_report(open_record(db), tmp / "out")
    return db, html_path.read_text(), md_path.read_text()


def section(html: str, sid: str) -> str:
    i = html.index(f'<section id="{sid}">')
    return html[i:html.index("</section>", i)]


def rows_with(html_part: str, surface: str) -> list[str]:
    from html import escape

    return [r for r in html_part.split("<tr>") if f"<mark>{escape(surface)}</mark>" in r]


def test_html_is_self_contained(corpus_report):
    _, html, _ = corpus_report
    low = html.lower()
    for banned in ("<script", "<link", "<img", "<iframe", " src=", "@import", "@font-face",
                   "url(http", 'href="http://', "xlink:href=\"http"):
        assert banned not in low, banned
    hrefs = re.findall(r'href="([^"]*)"', html)
    # anchors inside the page, and plain links to the documents' own URLs (not resources)
    assert all(h.startswith("#") or h.startswith("https://example.com/") for h in hrefs)
    assert "<style>" in html and html.count("<svg") == 2
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "duplicate element ids across inline SVGs"


def test_seed_unsourced_figures_are_shown_unsourced(corpus_report):
    _, html, md = corpus_report
    cov = section(html, "coverage")
    for surface in SEED_UNSOURCED:
        rows = rows_with(cov, surface)
        assert rows, surface
        assert all("t-unsourced" in r and "v-supported" not in r for r in rows), surface
    [row] = rows_with(cov, "$38")
    assert "label mismatch" in row and "$38.96" in row and "off-peak prices" in row
    md_cov = md[md.index("## Figures no primary document contains"):md.index("## Charts")]
    for surface in SEED_UNSOURCED:
        esc = re.sub(r"([\\`*_\[\]<>|#$])", r"\\\1", surface).replace("\\$", "$")
        lines = [l for l in md_cov.splitlines() if f"**{esc}**" in l and l.startswith("- ")]
        assert lines and all("unsourced" in l for l in lines), surface


def test_figures_trace_back_to_path_span_and_text(corpus_report):
    db, html, md = corpus_report
    con = duckdb.connect(db, read_only=True)
    texts = dict(con.execute("SELECT path, text FROM documents").fetchall())
    spans = set(con.execute("SELECT d.path, c.start, c.\"end\" FROM claims c "
                            "JOIN documents d ON d.id = c.doc_id").fetchall())
    con.close()
    html_refs = re.findall(r"<code>([^<]+)</code> <code>\[(\d+):(\d+)\]</code>", html)
    md_refs = re.findall(r"`([^`\[]+) \[(\d+):(\d+)\]`", md)
    assert len(html_refs) > 30 and len(md_refs) > 30
    for path, s, e in html_refs + md_refs:
        assert (path, int(s), int(e)) in spans
    # the highlighted text is the figure at its span
    n = 0
    for m in re.finditer(r"<mark>([^<]+)</mark> .*?</blockquote><span class=\"where\"[^>]*>"
                         r"<code>([^<]+)</code> <code>\[(\d+):(\d+)\]</code>", html):
        from html import unescape

        surface, path, s, e = unescape(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
        assert texts[path][s:e] == surface
        n += 1
    assert n >= 15


def test_clusters_in_publication_order_with_conflict_called_out(corpus_report):
    _, html, md = corpus_report
    cl = section(html, "clusters")
    conflict = cl[:cl.index("</article>")]          # conflicts sort first
    assert "f-conflict" in conflict and "first source" in conflict
    assert conflict.index("954K tokens/s") < conflict.index("471,578 tok/s/GPU")
    assert "operating point" in section(html, "conflicts")
    assert "## Claim clusters" in md and "(first source)" in md


def test_overview_and_verdicts(corpus_report):
    _, html, md = corpus_report
    ov = section(html, "overview")
    assert "documents" in ov and "v-unproven" in ov
    assert "| documents | 7 |" in md
    assert "unproven" in md


def test_charts_are_inline_svg_with_text(corpus_report):
    _, html, md = corpus_report
    charts = section(html, "charts")
    assert "Per-user speed by system and source" in charts
    assert "claimed 1,000" in charts                  # the coverage's figure as a line
    assert "954K" in charts                           # per-GPU figure at its operating point
    assert "### Per-user speed against per-GPU throughput" in md


def test_fixture_report_derived_conflict_label(fixture_report):
    _, html, md = fixture_report
    der = section(html, "derived")
    assert "(212 / 154 − 1) × 100 = 37.7% (stated 38%)" in der and "v-supported" in der
    assert "6,100 tokens/s" in section(html, "conflicts")
    cov = section(html, "coverage")
    [row] = rows_with(cov, "$2.10")
    assert "t-unsourced" in row and "label mismatch" in row
    [row] = rows_with(cov, "18,000 tokens/s")
    assert "t-unsourced" in row
    [row] = rows_with(cov, "5,000 tokens per second")
    assert "v-ambiguous" in row
    [row] = rows_with(cov, "212 tokens/s")
    assert "v-supported" in row and "t-unsourced" not in row
    assert "(212 / 154 − 1) × 100 = 37.7% (stated 38%)" in md


def test_links_computed_in_memory_when_the_database_has_none(fixture_report, tmp_path):
    db, _, _ = fixture_report
    copy = tmp_path / "nolinks.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("DELETE FROM links")
    con.execute("DELETE FROM clusters")
    con.close()
    rec = open_record(str(copy))
    assert rec.linked_in_memory and rec.links and rec.clusters
    html_path, _ = write_report(rec, tmp_path / "out")
    assert "Links were computed in memory" in html_path.read_text()


def test_cli_errors(run_cli, tmp_path, corpus_report):
    db, _, _ = corpus_report
    afile = tmp_path / "f.txt"
    afile.write_text("x")
    p = run_cli("report", "--db", db, "-o", str(afile), cwd=REPO)
    assert p.returncode == 2 and "takes a folder" in p.stderr
    p = run_cli("report", "--db", str(tmp_path / "missing.duckdb"), cwd=REPO)
    assert p.returncode == 2 and p.stderr.startswith("error: no database")
