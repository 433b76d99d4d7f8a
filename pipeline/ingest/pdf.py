"""PDF: pdfplumber's text page by page, joined, with a Page record for every page.

The gold labels quote substrings of ``page.extract_text()`` with default settings, so
that is exactly what is stored; pages are joined with a blank line so a sentence never
runs across a page break, and ``Document.pages`` maps every offset back to its page.
pdfplumber lays text out line by line, so table rows stay one per line.
"""
from __future__ import annotations

import contextlib
import io
import itertools
import logging
import threading
import zlib
from typing import Any, Iterator

from pipeline.ingest import meta as m
from pipeline.ingest.errors import IngestError
from pipeline.ingest.limits import current as current_limits, size
from pipeline.ingest.text import Parsed
from pipeline.model import Page

PAGE_SEPARATOR = "\n\n"

for _name in ("pdfminer", "pdfplumber"):
    logging.getLogger(_name).setLevel(logging.ERROR)


# --- decompression bombs ------------------------------------------------------------------
# pdfminer inflates a stream in one call (zlib.decompress, lzwdecode, rldecode), so a few
# KB of Flate data can ask for gigabytes. The decoders it calls are swapped, in pdfminer's
# own module only, for ones that count what they produce against a per-document budget
# and stop at it. Outside ``parse`` (no budget set) they behave exactly like the originals.

class InflateLimit(Exception):
    """A PDF's streams expanded past ``Limits.max_inflate_bytes``."""


class _Budget(threading.local):
    remaining: int | None = None    # bytes still allowed; None: not counting
    exceeded: bool = False


_budget = _Budget()


def _spend(n: int) -> None:
    if _budget.remaining is None:
        return
    _budget.remaining -= n
    if _budget.remaining < 0:
        _budget.exceeded = True
        raise InflateLimit()


def _cap() -> int:
    """``max_length`` for one decompress call: one byte past the budget (0: no cap)."""
    return 0 if _budget.remaining is None else max(_budget.remaining, 0) + 1


class _Inflater:
    """zlib.decompressobj whose output is counted against the budget."""

    def __init__(self, *args: Any) -> None:
        self._d = zlib.decompressobj(*args)

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        out = self._d.decompress(data, _cap())
        _spend(len(out))             # at the cap: one byte past the budget, refused
        return out

    def flush(self, *args: Any) -> bytes:
        out = self._d.flush(*args)
        _spend(len(out))
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._d, name)


class _CountingZlib:
    """Stands in for the ``zlib`` module inside pdfminer.pdftypes."""

    error = zlib.error

    @staticmethod
    def decompress(data: bytes, wbits: int = zlib.MAX_WBITS, bufsize: int = 16384) -> bytes:
        d = _Inflater(wbits)
        out = d.decompress(data)
        if not d.eof:
            raise zlib.error("Error -5 while decompressing data: incomplete or truncated stream")
        return out

    @staticmethod
    def decompressobj(*args: Any) -> _Inflater:
        return _Inflater(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)


def _decompress_corrupted(data: bytes) -> bytes:
    """pdfminer's fallback for Flate data with a bad checksum, without its byte-at-a-time
    string growth (quadratic on large streams): as much as inflates, errors near the end
    (the checksum) forgiven, errors earlier raised."""
    d = _Inflater()
    parts: list[bytes] = []
    pos = 0
    step = 1 << 16
    while pos < len(data):
        chunk = data[pos:pos + step]
        try:
            parts.append(d.decompress(chunk))
        except zlib.error:
            if step > 1:           # find the failing byte
                step = 1
                d = _Inflater()
                pos = 0
                parts = []         # (what was inflated is counted again: an upper bound)
                continue
            if pos < len(data) - 3:
                raise
            break
        pos += len(chunk)
    return b"".join(parts)


def _lzwdecode(data: bytes) -> bytes:
    from pdfminer.lzw import LZWDecoder

    parts: list[bytes] = []
    for chunk in LZWDecoder(io.BytesIO(data)).run():
        _spend(len(chunk))
        parts.append(chunk)
    return b"".join(parts)


def _rldecode(data: bytes) -> bytes:
    """RunLengthDecode (PDF 1.7, 7.4.5), counted; a truncated run ends the data."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        length = data[i]
        i += 1
        if length == 128:
            break
        if length < 128:
            run = data[i:i + length + 1]
            i += length + 1
            _spend(len(run))
            out += run
        else:
            if i >= n:
                break
            _spend(257 - length)
            out += data[i:i + 1] * (257 - length)
            i += 1
    return bytes(out)


def _install_guards() -> None:
    from pdfminer import pdftypes

    if getattr(pdftypes, "_claims_guarded", False):
        return
    pdftypes.zlib = _CountingZlib()
    pdftypes.decompress_corrupted = _decompress_corrupted
    pdftypes.lzwdecode = _lzwdecode
    pdftypes.rldecode = _rldecode
    pdftypes._claims_guarded = True


@contextlib.contextmanager
def _inflate_budget(limit: int) -> Iterator[None]:
    _install_guards()
    _budget.remaining, _budget.exceeded = limit, False
    try:
        yield
    finally:
        _budget.remaining = None


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


def _refusal(exc: BaseException, limit: int) -> str:
    if isinstance(exc, InflateLimit):
        return (f"PDF streams expand past {size(limit)} (a decompression bomb?): raise the "
                "limit with --max-inflate-mb if the file is meant to be read")
    if isinstance(exc, RecursionError):
        return "unreadable PDF: its objects nest too deeply"
    return "unreadable PDF: it needs more memory than there is"


def _clean_page_text(text: str) -> str:
    # NUL and lone surrogates cannot be stored; 1:1 replacement keeps offsets stable.
    return "".join("\ufffd" if c == "\x00" or "\ud800" <= c <= "\udfff" else c for c in text)


def _page_tables(page: Any, text: str, number: int, offset: int) -> list:
    """The page's tables (``tables_pdf``), spans moved to the page's place in the
    document; a table the reader cannot make sense of is left to the text readers."""
    from pipeline.ingest import tables_pdf

    try:
        return tables_pdf.shift(tables_pdf.page_tables(page, text, number), offset)
    except (InflateLimit, RecursionError, MemoryError):
        raise
    except Exception:  # the page's text is what matters; its tables are read from it alone
        try:
            return tables_pdf.shift(tables_pdf.text_fallback(text, number), offset)
        except Exception:
            return []


def parse(data: bytes) -> Parsed:
    """Text of every page, page offsets, and title/author/date from the info dictionary."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect
    from pdfminer.pdfpage import PDFPage

    limits = current_limits()
    parts: list[str] = []
    pages: list[Page] = []
    tables: list = []
    try:
        with _inflate_budget(limits.max_inflate_bytes), pdfplumber.open(io.BytesIO(data)) as pdf:
            info = dict(pdf.metadata or {})
            n = sum(1 for _ in itertools.islice(PDFPage.create_pages(pdf.doc),
                                                limits.max_pdf_pages + 1))
            if n > limits.max_pdf_pages:
                raise IngestError(f"PDF has more than {limits.max_pdf_pages:,} pages: raise the "
                                  "limit with --max-pdf-pages if it is meant to be read")
            offset = 0
            for number, page in enumerate(pdf.pages, start=1):
                if parts:
                    offset += len(PAGE_SEPARATOR)
                text = _clean_page_text(page.extract_text() or "")
                pages.append(Page(number=number, start=offset, end=offset + len(text)))
                tables += _page_tables(page, text, number, offset)
                parts.append(text)
                offset += len(text)
                page.close()
            if _budget.exceeded:    # a decoder's refusal that pdfminer swallowed
                raise InflateLimit()
    except PDFPasswordIncorrect:
        raise IngestError("encrypted PDF: a password is needed (save a decrypted copy, "
                          "e.g. qpdf --decrypt, and ingest that)") from None
    except IngestError:
        raise
    except (InflateLimit, RecursionError, MemoryError) as exc:
        raise IngestError(_refusal(exc, limits.max_inflate_bytes)) from None
    except Exception as exc:  # pdfminer raises many unrelated types on broken files
        if _budget.exceeded or isinstance(exc.__context__, InflateLimit):
            raise IngestError(_refusal(InflateLimit(), limits.max_inflate_bytes)) from None
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        raise IngestError(f"unreadable PDF ({type(exc).__name__}{': ' + detail[:120] if detail else ''}): "
                          "damaged or cut short? fetch or export it again") from None
    if not pages:
        raise IngestError("PDF has no pages")
    text = PAGE_SEPARATOR.join(parts)
    if not text.strip():
        raise IngestError(f"PDF has no extractable text in {len(pages)} pages (scanned images? "
                          "run OCR on it, e.g. ocrmypdf, and ingest the result)")
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
                  published=published, pages=pages, meta=meta, tables=tables)
