"""Hostile metadata in reports and exports (issue 15, part 5): `$...$` in titles and
publishers (matplotlib mathtext), `javascript:` and markup-carrying URLs, CSV formulas."""
from __future__ import annotations

import csv
import io
import re

import pytest

MANIFEST = """path,role,publisher,title,url,date
a.md,primary,$x^$ Labs,Bench $\\frac{1$ results,javascript:alert(1),2025-01-01
b.md,primary,Pub $2$,B $title$,https://example.com/x?a=<img src=x onerror=alert(1)>,2025-01-02
c.md,secondary,=HYPERLINK("http://evil.example"),"=cmd|' /C calc'!A0",data:text/html;base64,PHNjcmlwdD4=,2025-02-01
"""
DOCS = {
    "a.md": "# A\nOn one H100, vLLM serves Llama-3-8B at 120 tokens/s per user. SGLang serves "
            "Llama-3-8B at 150 tokens/s per user on one H100.\n",
    "b.md": "# B\nTensorRT-LLM serves Llama-3-70B at 45 tokens/s per user on 8 H100 GPUs.\n",
    "c.md": "# C\nA blog says vLLM serves Llama-3-8B at 125 tokens/s per user on one H100.\n",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("hostile_report")
    corpus = tmp / "c"
    corpus.mkdir()
    (corpus / "sources.csv").write_text(MANIFEST)
    for name, text in DOCS.items():
        (corpus / name).write_text(text)
    run_cli("ingest", "c", "--db", "w.duckdb", "-q", cwd=tmp, check=True)
    p = run_cli("report", "--db", "w.duckdb", "-o", "out", cwd=tmp)
    return tmp, p


def test_dollar_signs_in_titles_and_publishers_do_not_stop_the_report(hostile):
    tmp, p = hostile
    assert p.returncode == 0, p.stderr
    html = (tmp / "out" / "report.html").read_text()
    assert html.count("<svg") == 1               # the per-user chart, labels with `$` in them
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert "$x^$ Labs" in svg


def _pages(tmp, ext: str) -> dict:
    out = tmp / "out"
    return {f: f.read_text() for f in [out / f"report{ext}", *sorted((out / "pages").glob(f"*{ext}"))]}


def test_no_link_but_http_and_a_content_security_policy(hostile):
    tmp, _ = hostile
    pages = _pages(tmp, ".html")
    shown = False
    for path, html in pages.items():
        hrefs = re.findall(r'href="([^"]*)"', html)
        # anchors, the report's own pages, and http(s) addresses: nothing else is a link
        assert all(h.startswith(("#", "https://", "http://"))
                   or re.fullmatch(r"(?:pages/|\.\./)?[a-z0-9-]+\.html(?:#[\w-]+)?", h)
                   for h in hrefs), (path, hrefs)
        assert "javascript:" not in "".join(hrefs) and "data:" not in "".join(hrefs)
        assert "<img" not in html.lower()
        shown |= "javascript:alert(1)" in html            # shown, as text
        csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
        assert csp and "default-src 'none'" in csp.group(1) and "script" not in csp.group(1)
    assert shown
    assert any('href="https://example.com/x?a=%3Cimg%20src=x%20onerror=alert(1)%3E"' in h
               for h in pages.values())


def test_markdown_urls_are_validated_and_cannot_break_out(hostile):
    tmp, _ = hostile
    md = "\n".join(_pages(tmp, ".md").values())
    autolinks = re.findall(r"<([^<>\s]+)>", md)
    assert autolinks == ["https://example.com/x?a=%3Cimg%20src=x%20onerror=alert(1)%3E"]
    assert "<img" not in md and "<javascript:" not in md and "<data:" not in md
    assert "javascript:alert(1) (not http(s): not linked)" in md


def test_csv_export_neutralises_formulas(hostile, run_cli):
    tmp, _ = hostile
    p = run_cli("export", "documents", "-f", "csv", "--db", "w.duckdb", cwd=tmp, check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    c = next(r for r in rows if r["path"] == "c.md")
    assert c["title"] == "'=cmd|' /C calc'!A0"
    assert c["publisher"] == "'=HYPERLINK(\"http://evil.example\")"
    for r in rows:
        for v in r.values():
            assert not v.startswith(("=", "+", "-", "@")), v


def test_csv_cells_numbers_stay_numbers():
    from pipeline.output import write_csv

    buf = io.StringIO()
    write_csv(buf, ["n", "s", "t"], [(-5, "-5", "@SUM(A1)"), (1.5, "+1", "\tx")])
    assert buf.getvalue().splitlines() == ["n,s,t", "-5,'-5,'@SUM(A1)", "1.5,'+1,'\tx"]
