"""HTML: the article text without boilerplate, metadata from the head."""
from __future__ import annotations

import re

import pytest

from pipeline.ingest import IngestError, ingest_file
from pipeline.ingest.html import _tree, fallback_text

MARKERS = ("NAV-MARKER", "COOKIE-MARKER", "SCRIPT-MARKER", "STYLE-MARKER", "FOOTER-MARKER",
           "SIDEBAR-MARKER", "analyticsQueue", "Accept all", "Careers")


@pytest.fixture(scope="module")
def blog(fixtures):
    return ingest_file(fixtures / "blog.html", fixtures)


def test_main_text_is_kept(blog):
    assert blog.format == "html"
    text = " ".join(blog.text.split())
    assert "one user saw a median of 412 tokens per second, up from 236 tokens per second" in text
    assert "grew by only 11 percent" in text
    assert "the median of seven runs" in text


@pytest.mark.parametrize("marker", MARKERS)
def test_boilerplate_is_dropped(blog, marker):
    assert marker not in blog.text


def test_table_rows_one_per_line(blog):
    rows = [ln for ln in blog.text.splitlines() if ln.startswith("|")]
    assert any(re.fullmatch(r"\| speculative \| 412 \| 176 \|\s*", r) for r in rows)
    assert any(re.fullmatch(r"\| baseline \| 236 \| 181 \|\s*", r) for r in rows)


def test_metadata_from_meta_tags(blog):
    assert blog.title == "Speculative decoding on eight accelerators"
    assert blog.publisher == "Quillfeather Labs"
    assert blog.url == "https://quillfeather.example/blog/spec-decode"
    assert blog.published == "2025-02-11"
    assert blog.author == "Mara Okonkwo"


def test_declared_charset_page(fixtures):
    doc = ingest_file(fixtures / "docs.htm", fixtures)
    assert doc.meta["encoding"] in ("windows-1252", "cp1252")
    assert "close to the card’s rated 2.0 TB/s" in " ".join(doc.text.split())
    assert "euros (€)" in doc.text
    assert "NAV-MARKER" not in doc.text and "FOOTER-MARKER" not in doc.text
    assert doc.title == "Kernel benchmark notes"
    assert doc.author == "Teodor Lindqvist"
    assert doc.published == "2024-10-02"
    assert any(ln.startswith("| 32768 | 1.9 TB/s |") for ln in doc.text.splitlines())


def test_fallback_extractor_skips_boilerplate(fixtures):
    html = (fixtures / "blog.html").read_text(encoding="utf-8")
    text = fallback_text(_tree(html))
    assert "412 tokens per second" in text
    assert "| speculative | 412 | 176 |" in text.splitlines()
    for marker in MARKERS:
        assert marker not in text


def test_tiny_page_still_yields_its_text(tmp_path):
    (tmp_path / "t.html").write_text("<html><body><p>Peak 5 ms.</p>"
                                     "<footer>FOOTER-MARKER</footer></body></html>")
    doc = ingest_file(tmp_path / "t.html", tmp_path)
    assert "Peak 5 ms." in doc.text and "FOOTER-MARKER" not in doc.text


def test_page_without_text_is_an_error(tmp_path):
    (tmp_path / "e.html").write_text("<html><head><script>x=1</script></head><body></body></html>")
    with pytest.raises(IngestError, match="no text"):
        ingest_file(tmp_path / "e.html", tmp_path)
