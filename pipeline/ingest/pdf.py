"""PDF: pdfplumber's text page by page, joined, with a Page record for every page.

The gold labels quote substrings of ``page.extract_text()`` with default settings, so
that is exactly what is stored; pages are joined with a blank line so a sentence never
runs across a page break, and ``Document.pages`` maps every offset back to its page.
pdfplumber lays text out line by line, so table rows stay one per line.
"""
from __future__ import annotations

import io
import logging
from typing import Any

from pipeline.ingest import meta as m
from pipeline.ingest.errors import IngestError
from pipeline.ingest.text import Parsed
from pipeline.model import Page

PAGE_SEPARATOR = "\n\n"

for _name in ("pdfminer", "pdfplumber"):
    logging.getLogger(_name).setLevel(logging.ERROR)


def _info_value(value: Any) -> str | None:
    """PDF info values come as str, bytes (maybe UTF-16 with BOM) or PDF literals."""
    name = getattr(value, "name", None)
    if name is not None:
        value = name
    if isinstance(value, bytes):
        if value.startswith((b"\xfe\xff", b"\xff\xfe")):
            value = value.decode("utf-16", errors="replace")
        else:
            value = value.decode("utf-8", errors="replace")
    return m.clean(value)


def _clean_page_text(text: str) -> str:
    # NUL and lone surrogates cannot be stored; 1:1 replacement keeps offsets stable.
    return "".join("\ufffd" if c == "\x00" or "\ud800" <= c <= "\udfff" else c for c in text)


def parse(data: bytes) -> Parsed:
    """Text of every page, page offsets, and title/author/date from the info dictionary."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    parts: list[str] = []
    pages: list[Page] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            info = dict(pdf.metadata or {})
            offset = 0
            for number, page in enumerate(pdf.pages, start=1):
                if parts:
                    offset += len(PAGE_SEPARATOR)
                text = _clean_page_text(page.extract_text() or "")
                pages.append(Page(number=number, start=offset, end=offset + len(text)))
                parts.append(text)
                offset += len(text)
                page.close()
    except PDFPasswordIncorrect:
        raise IngestError("encrypted PDF: a password is needed") from None
    except IngestError:
        raise
    except Exception as exc:  # pdfminer raises many unrelated types on broken files
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise IngestError(f"unreadable PDF ({type(exc).__name__}{': ' + detail if detail else ''})") from None
    if not pages:
        raise IngestError("PDF has no pages")
    text = PAGE_SEPARATOR.join(parts)
    if not text.strip():
        raise IngestError(f"PDF has no extractable text in {len(pages)} pages (scanned images?)")
    meta: dict[str, Any] = {"n_pages": len(pages)}
    for key in ("Producer", "Creator", "Subject", "Keywords", "CreationDate", "ModDate"):
        value = _info_value(info.get(key))
        if value:
            meta[key.lower()] = value
    published = m.iso_date(_info_value(info.get("CreationDate")))
    if published:
        meta["published_source"] = "pdf_creation_date"
    title = _info_value(info.get("Title"))
    if not title:
        from pipeline.ingest.text import first_line_title

        title = first_line_title(parts[0], limit=160) if parts else None
        if title:
            meta["title_source"] = "first_line"
    return Parsed(text, "pdf", title=title, author=_info_value(info.get("Author")),
                  published=published, pages=pages, meta=meta)
