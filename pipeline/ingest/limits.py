"""How much the ingest stage will read: file size, PDF pages, decompressed PDF data.

Users point the tool at folders and addresses they did not write, so every reader has a
ceiling, each with a flag on `claims ingest` and a default that fits any real article or
paper:

* ``max_file_bytes`` (``--max-file-mb``, 50 MB): a larger file or download is refused
  before it is read into memory.
* ``max_pdf_pages`` (``--max-pdf-pages``, 2,000): pages are counted before any text is
  extracted.
* ``max_inflate_bytes`` (``--max-inflate-mb``, 256 MB): the data a PDF's compressed streams
  (Flate, LZW, RunLength) decode to, per document, so a small file cannot expand into
  gigabytes (a decompression bomb). Real PDFs decode to about 0.1-2x their size.

The limits in force are process-wide (``configure``) and also travel in ``$CLAIMS_LIMITS``
so worker processes, however they are started, read the same ones.
"""
from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, fields
from typing import Iterator

MB = 1 << 20
ENV = "CLAIMS_LIMITS"


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 50 * MB
    max_pdf_pages: int = 2000
    max_inflate_bytes: int = 256 * MB

    @classmethod
    def from_flags(cls, max_file_mb: float | None = None, max_pdf_pages: int | None = None,
                   max_inflate_mb: float | None = None) -> "Limits":
        d = cls()
        return cls(
            max_file_bytes=d.max_file_bytes if max_file_mb is None else int(max_file_mb * MB),
            max_pdf_pages=d.max_pdf_pages if max_pdf_pages is None else int(max_pdf_pages),
            max_inflate_bytes=(d.max_inflate_bytes if max_inflate_mb is None
                               else int(max_inflate_mb * MB)))


_current: Limits | None = None


def current() -> Limits:
    """The limits in force: ``configure``'s, else ``$CLAIMS_LIMITS``, else the defaults."""
    if _current is not None:
        return _current
    raw = os.environ.get(ENV)
    if raw:
        try:
            given = json.loads(raw)
            names = {f.name for f in fields(Limits)}
            return Limits(**{k: int(v) for k, v in given.items() if k in names})
        except (ValueError, TypeError, AttributeError):
            pass
    return Limits()


def configure(limits: Limits | None) -> None:
    """Make ``limits`` the ones in force here and in processes started from now on."""
    global _current
    _current = limits
    if limits is None:
        os.environ.pop(ENV, None)
    else:
        os.environ[ENV] = json.dumps(asdict(limits))


@contextlib.contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """``limits`` in force inside the block (tests), the previous ones restored after."""
    before, env = _current, os.environ.get(ENV)
    configure(limits)
    try:
        yield limits
    finally:
        configure(before)
        if env is not None:
            os.environ[ENV] = env


def size(n: float) -> str:
    """A byte count for messages: '73.2 MB', '512 KB', '90 bytes'."""
    if n >= MB:
        return f"{n / MB:.1f}".rstrip("0").rstrip(".") + " MB"
    if n >= 1024:
        return f"{n / 1024:.0f} KB"
    return f"{int(n)} bytes"
