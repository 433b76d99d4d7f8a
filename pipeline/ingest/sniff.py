"""Which format a file is in: by extension first, corrected by its first bytes.

Extensions lie (a PDF saved as `.txt`, an HTML page saved as `.md`) or are missing, so
strong signatures in the content win: the `%PDF-` header, an HTML document opening, and
binary content (which no text format can hold). Weak signals (front matter, a `#`
heading) only decide for files without a known extension.
"""
from __future__ import annotations

import re
from pathlib import Path

from pipeline.ingest import structured
from pipeline.ingest.errors import IngestError
from pipeline.ingest.text import BOMS, looks_utf16

EXTENSIONS: dict[str, str] = {
    ".txt": "text", ".text": "text",
    # documentation markup read as plain text (its grid tables too: ingest/tables.py)
    ".rst": "text", ".rest": "text", ".adoc": "text", ".asciidoc": "text",
    ".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".mkd": "markdown",
    ".mdx": "markdown",   # Markdown with JSX components (docs sites): the prose and tables are Markdown
    ".html": "html", ".htm": "html", ".xhtml": "html",
    ".pdf": "pdf",
    # benchmark result files (ingest/structured.py): read when their content is one of the
    # kinds it knows, refused with a reason otherwise
    ".json": "markdown", ".csv": "markdown",
}
FORMATS = ("text", "markdown", "html", "pdf")

# Only signatures no prose starts with; other binaries are caught by NULs/control bytes.
# Compressed files (gzip, zip, xz, 7z) are refused, never unpacked: no decompression bomb.
_BINARY_MAGIC = (
    b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"PK\x03\x04", b"\x1f\x8b", b"\x7fELF",
    b"\xfd7zXZ", b"7z\xbc\xaf", b"SQLite format 3\x00", b"\xd0\xcf\x11\xe0",
)
_HTML_START = re.compile(
    rb"\A(?:\s|<\?xml[^>]*>|<!--.*?-->)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])",
    re.IGNORECASE | re.DOTALL)
_FRONT_MATTER = re.compile(rb"\A(?:---|\+\+\+)[ \t]*\r?\n")
_MD_HEADING = re.compile(rb"^#{1,6} \S", re.MULTILINE)
# Control bytes that never occur in text (TAB, LF, FF, CR, ESC are allowed).
_CONTROL = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


_MAGIC_NAMES = {b"\x89PNG": "PNG image", b"\xff\xd8\xff": "JPEG image", b"GIF8": "GIF image",
                b"PK\x03\x04": "zip", b"\x1f\x8b": "gzip", b"\x7fELF": "executable",
                b"\xfd7zXZ": "xz", b"7z\xbc\xaf": "7z", b"SQLite format 3\x00": "SQLite database",
                b"\xd0\xcf\x11\xe0": "MS Office document"}
_COMPRESSED = {"zip", "gzip", "xz", "7z"}


def binary_kind(head: bytes) -> str | None:
    """A name for a binary signature ('gzip', 'PNG image'), or None."""
    for magic, name in _MAGIC_NAMES.items():
        if head.startswith(magic):
            return name
    return None


def by_extension(path: Path) -> str | None:
    """The format the file name claims, or None for extensions we do not read."""
    return EXTENSIONS.get(path.suffix.lower())


def _as_utf8(head: bytes) -> bytes:
    """The head re-encoded as UTF-8 when a BOM or the NUL pattern says UTF-16/32, so the
    signatures below match whatever the encoding."""
    for bom, codec in BOMS:
        if head.startswith(bom):
            return head[len(bom):].decode(codec, errors="ignore").encode("utf-8")
    wide = looks_utf16(head)
    return head.decode(wide, errors="ignore").encode("utf-8") if wide else head


def is_binary(head: bytes) -> bool:
    """True for content no text format can hold: known magic numbers, NULs, control bytes."""
    if any(head.startswith(bom) for bom, _ in BOMS):
        return False
    if head.startswith(_BINARY_MAGIC):
        return True
    if not head:
        return False
    if b"\x00" in head and looks_utf16(head):
        return False
    # NULs count as control bytes: text with a few stray ones (a bad export, a scraped
    # page) is still text and they become U+FFFD; binary formats hold them everywhere.
    controls = len(head) - len(head.translate(None, _CONTROL))   # one pass, in C
    return controls / len(head) > 0.05


def sniff(head: bytes) -> str:
    """Content-only guess: pdf | html | markdown | text | script | binary | empty."""
    if not head:
        return "empty"
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if is_binary(head):
        return "binary"
    body = _as_utf8(head)
    if _HTML_START.match(body):
        return "html"
    if body.startswith(b"#!"):
        return "script"
    if _FRONT_MATTER.match(body) or _MD_HEADING.search(body):
        return "markdown"
    return "text"


def detect(path: Path, head: bytes) -> str:
    """The format to read ``path`` as, or IngestError when no format fits.

    ``head`` is the start of the file (a few KB are enough).
    """
    claimed = by_extension(path)
    found = sniff(head)
    if found == "empty":
        raise IngestError("empty file (0 bytes)")
    if head.startswith(structured.PARQUET_MAGIC):
        # a Parquet table of results is read through the user's mapping, never as text
        why = structured.parquet(head)
        if why:
            raise IngestError(why)
        return "markdown"
    if found in ("pdf", "html"):
        return found
    body = _as_utf8(head)
    if found == "binary":
        if claimed == "pdf":
            raise IngestError("not a PDF: no %PDF- header and the content is binary")
        kind = binary_kind(head)
        if kind in _COMPRESSED:
            raise IngestError(f"{kind} file: unpack it first (compressed files are not opened)")
        raise IngestError(f"binary content{' (' + kind + ')' if kind else ''}, not "
                          f"{claimed or 'text'}: only text, Markdown, HTML and PDF are read")
    # Benchmark result files are known by their content, whatever their name (.json, .csv,
    # an MLPerf log's .txt); they are stored as the Markdown structured.parse renders.
    if structured.kind_of(body):
        return "markdown"
    if path.suffix.lower() in structured.SUFFIXES:
        raise IngestError(structured.not_recognised(path.suffix, head))
    if claimed == "pdf":
        # A text file saved as .pdf: believe the content.
        return "markdown" if found == "markdown" else "text"
    if claimed:
        return claimed
    return "markdown" if found == "markdown" else "text"
