"""PDF: text page by page, offsets that map back to pages, metadata from the info dict."""
from __future__ import annotations

import shutil

import pdfplumber
import pytest

from conftest import PDF_PAGES
from pipeline.ingest import IngestError, ingest_file
from pipeline.ingest.pdf import PAGE_SEPARATOR


@pytest.fixture(scope="module")
def doc(sample_pdf):
    return ingest_file(sample_pdf, sample_pdf.parent)


def test_pages_cover_the_text(doc):
    assert [p.number for p in doc.pages] == [1, 2, 3]
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    for a, b in zip(doc.pages, doc.pages[1:]):
        assert doc.text[a.end:b.start] == PAGE_SEPARATOR


def test_page_text_is_pdfplumbers_default(doc, sample_pdf):
    with pdfplumber.open(sample_pdf) as pdf:
        expected = [p.extract_text() for p in pdf.pages]
    assert [doc.text[p.start:p.end] for p in doc.pages] == expected


@pytest.mark.parametrize("needle, page", [
    ("410 tokens/s", 1), ("1,234 tokens/s per GPU", 2), ("| tuned | 1234 |", 2), ("2.5x", 3)])
def test_offsets_map_to_pages(doc, needle, page):
    assert doc.page_at(doc.text.index(needle)) == page


def test_table_rows_stay_one_per_line(doc):
    assert "| engine | tok/s |" in doc.text.splitlines()


def test_metadata(doc):
    assert doc.format == "pdf"
    assert doc.title == "Decode speed notes"
    assert doc.author == "Test Author"
    assert doc.published == "2024-05-06"
    assert doc.meta["n_pages"] == 3


def test_first_line_is_the_title_without_metadata(tmp_path):
    from conftest import write_pdf

    path = write_pdf(tmp_path / "bare.pdf", [["A bare deck", "with 3 ms latency"]])
    assert ingest_file(path, tmp_path).title == "A bare deck"


def test_corrupt_pdf_is_an_error(fixtures):
    with pytest.raises(IngestError, match="unreadable PDF"):
        ingest_file(fixtures / "corrupt.pdf", fixtures)


def test_truncated_pdf_is_an_error(tmp_path, sample_pdf):
    data = sample_pdf.read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 3])
    with pytest.raises(IngestError):
        ingest_file(tmp_path / "cut.pdf", tmp_path)
