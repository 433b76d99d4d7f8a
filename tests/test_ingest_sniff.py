"""The content decides the format when the extension lies or is missing."""
from __future__ import annotations

import shutil

import pytest

from pipeline.ingest import IngestError, ingest_file
from pipeline.ingest.sniff import detect, sniff


def test_pdf_named_txt_is_read_as_pdf(tmp_path, sample_pdf):
    shutil.copy(sample_pdf, tmp_path / "notes.txt")
    doc = ingest_file(tmp_path / "notes.txt", tmp_path)
    assert doc.format == "pdf" and len(doc.pages) == 3


def test_html_named_md_is_read_as_html(tmp_path, fixtures):
    shutil.copy(fixtures / "blog.html", tmp_path / "page.md")
    doc = ingest_file(tmp_path / "page.md", tmp_path)
    assert doc.format == "html"
    assert "SCRIPT-MARKER" not in doc.text


def test_no_extension_markdown_and_html(tmp_path, fixtures):
    shutil.copy(fixtures / "post.md", tmp_path / "POST")
    shutil.copy(fixtures / "blog.html", tmp_path / "PAGE")
    assert ingest_file(tmp_path / "POST", tmp_path).format == "markdown"
    assert ingest_file(tmp_path / "PAGE", tmp_path).format == "html"


def test_text_saved_as_pdf_is_read_as_text(tmp_path):
    (tmp_path / "notes.pdf").write_text("Just a note: 7 ms per token.\n")
    doc = ingest_file(tmp_path / "notes.pdf", tmp_path)
    assert doc.format == "text" and "7 ms per token" in doc.text


def test_binary_pdf_without_header_is_refused(tmp_path):
    from pathlib import Path
    with pytest.raises(IngestError, match="not a PDF"):
        detect(Path("x.pdf"), bytes(range(256)) * 4)


@pytest.mark.parametrize("head, expected", [
    (b"", "empty"),
    (b"%PDF-1.5\n%\xe2\xe3", "pdf"),
    (b"  <!DOCTYPE html><html>", "html"),
    (b"<?xml version='1.0'?>\n<html xmlns='x'>", "html"),
    (b"---\ntitle: x\n---\nbody", "markdown"),
    (b"+++\ntitle = 'x'\n+++\n", "markdown"),
    (b"#!/bin/sh\necho hi\n", "script"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
    (b"plain words only", "text"),
    ("Text in UTF-16".encode("utf-16-le"), "text"),
])
def test_sniff(head, expected):
    assert sniff(head) == expected


def test_mdx_page_is_read_as_markdown(tmp_path):
    """A docs site's .mdx page (Markdown with JSX components) is read, its tables too."""
    from pipeline.ingest.sniff import detect

    page = tmp_path / "bench.mdx"
    page.write_text("import Tabs from '@theme/Tabs';\n\n# Results\n\n| Model | Tokens/s |\n"
                    "|---|---|\n| Llama 3 8B | 1,234 |\n", encoding="utf-8")
    assert detect(page, page.read_bytes()[:512]) == "markdown"
