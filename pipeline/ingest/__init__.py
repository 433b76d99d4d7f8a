"""file -> Document. ``ingest_file`` is the stage's single entry point.

It is a pure function of the file's bytes, its path relative to the ingest root, and any
sources.csv between the root and the file: no database, no claims. That keeps it safe to
run in a worker process (issue 6) and easy to test.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

from pipeline.ingest import html, markdown, pdf, structured, text
from pipeline.ingest.errors import IngestError
from pipeline.ingest.limits import Limits, current as current_limits, size
from pipeline.ingest.manifest import Overrides, overrides_for
from pipeline.ingest.meta import better_title, date_from_path, publisher_from_url
from pipeline.ingest.sniff import detect
from pipeline.model import Document

__all__ = ["ingest_file", "ingest_bytes", "content_id", "IngestError", "Overrides"]

# "markdown" also reads benchmark result files (sniff.detect gives them that format)
PARSERS = {"text": text.parse, "markdown": structured.or_else(markdown.parse), "html": html.parse,
           "pdf": pdf.parse}


def content_id(data: bytes) -> str:
    """The document id: first 16 hex digits of the SHA-256 of the file's bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def read_bytes(path: Path, limits: Limits | None = None) -> bytes:
    """The file's bytes, with every OS problem turned into a one-line IngestError.

    Only regular files are read (a FIFO would block, a device never end), and never more
    than the size limit: the size is checked before reading and the read stops one byte
    past the limit, so a file that grows meanwhile is refused too.
    """
    limit = (limits or current_limits()).max_file_bytes
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise IngestError(_open_problem(Path(path), exc)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IngestError("is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise IngestError("not a regular file (a pipe, socket or device): left alone")
        if st.st_size > limit:
            raise IngestError(_too_big(st.st_size, limit))
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # ask for the size the file has (a buffer of the limit's size per read costs
            # more than the read), then for the rest up to the limit if it grew meanwhile
            want = min(st.st_size, limit) + 1
            data = fh.read(want)
            if len(data) == want and want <= limit:
                data += fh.read(limit + 1 - want)
    except OSError as exc:
        raise IngestError(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise IngestError(f"file grew past the {size(limit)} limit while being read: raise it "
                          "with --max-file-mb if the file is meant to be read")
    return data


def _too_big(n: int, limit: int) -> str:
    return (f"file is {size(n)}, over the {size(limit)} limit: raise it with --max-file-mb "
            "if the file is meant to be read")


def _open_problem(path: Path, exc: OSError) -> str:
    """What went wrong opening ``path``, and what to do about it."""
    if exc.errno == errno.ENOENT:
        if os.path.islink(path):
            return f"broken symlink: its target {os.readlink(path)} does not exist"
        return "file vanished before it was read (moved or deleted during the run?)"
    if exc.errno == errno.ELOOP:
        return "symlink loop: the link never reaches a file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "cannot read file: permission denied (give read permission or leave it out)"
    if exc.errno == errno.EISDIR:
        return "is a folder, not a file"
    return f"cannot read file: {exc.strerror or exc}"


def ingest_bytes(data: bytes, rel_path: str, overrides: Overrides | None = None,
                 fmt: str | None = None) -> Document:
    """Turn ``data`` (the bytes of the file at ``rel_path``) into a Document.

    ``fmt`` skips detection when the caller already knows the format (a web download
    sniffed with its Content-Type); otherwise name and content decide (``sniff.detect``).
    """
    limit = current_limits().max_file_bytes
    if len(data) > limit:
        raise IngestError(_too_big(len(data), limit))
    fmt = fmt or detect(Path(rel_path), data[:8192])
    parsed = PARSERS[fmt](data)
    if not parsed.text.strip():
        raise IngestError("no text in the file (only blank space)")
    doc = Document(
        id=content_id(data), path=rel_path, format=fmt, text=parsed.text,
        title=parsed.title, publisher=parsed.publisher, url=parsed.url,
        published=parsed.published, author=parsed.author, pages=parsed.pages,
        meta={**parsed.meta, "n_bytes": len(data)}, tables=parsed.tables,
    )
    if parsed.role:
        doc.role, doc.role_source = parsed.role, "metadata"
    if not doc.published:
        doc.published = date_from_path(rel_path)
        if doc.published:
            doc.meta["published_source"] = "path"
    if overrides:
        applied = overrides.as_dict()
        for key, value in applied.items():
            setattr(doc, key, value)
        if "role" in applied:
            doc.role_source = "manifest"
        if applied:
            doc.meta["manifest"] = sorted(applied)
    title = better_title(doc.title, rel_path)
    if title != doc.title:
        doc.meta["title_as_read"], doc.title = doc.title, title
    if not doc.publisher and doc.url:
        doc.publisher = publisher_from_url(doc.url)
        if doc.publisher:
            doc.meta["publisher_source"] = "url"
    return doc


def ingest_file(path: Path, root: Path) -> Document:
    """Read ``path`` (somewhere under ``root``) into a Document, applying sources.csv.

    Raises IngestError, with a one-line reason, for any file that cannot be a Document.
    """
    path, root = Path(path), Path(root)
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = path.name
    overrides, _ = overrides_for(path, root)
    return ingest_bytes(read_bytes(path), rel, overrides)
