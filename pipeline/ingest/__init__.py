"""file -> Document. ``ingest_file`` is the stage's single entry point.

It is a pure function of the file's bytes, its path relative to the ingest root, and any
sources.csv between the root and the file: no database, no claims. That keeps it safe to
run in a worker process (issue 6) and easy to test.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from pipeline.ingest import html, markdown, pdf, text
from pipeline.ingest.errors import IngestError
from pipeline.ingest.manifest import Overrides, overrides_for
from pipeline.ingest.meta import date_from_path
from pipeline.ingest.sniff import detect
from pipeline.model import Document

__all__ = ["ingest_file", "ingest_bytes", "content_id", "IngestError", "Overrides"]

PARSERS = {"text": text.parse, "markdown": markdown.parse, "html": html.parse, "pdf": pdf.parse}


def content_id(data: bytes) -> str:
    """The document id: first 16 hex digits of the SHA-256 of the file's bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


def read_bytes(path: Path) -> bytes:
    """The file's bytes, with OS errors turned into a one-line IngestError."""
    try:
        return path.read_bytes()
    except IsADirectoryError:
        raise IngestError("is a folder, not a file") from None
    except OSError as exc:
        raise IngestError(f"cannot read file: {exc.strerror or exc}") from None


def ingest_bytes(data: bytes, rel_path: str, overrides: Overrides | None = None) -> Document:
    """Turn ``data`` (the bytes of the file at ``rel_path``) into a Document."""
    fmt = detect(Path(rel_path), data[:8192])
    parsed = PARSERS[fmt](data)
    if not parsed.text.strip():
        raise IngestError("no text in the file")
    doc = Document(
        id=content_id(data), path=rel_path, format=fmt, text=parsed.text,
        title=parsed.title, publisher=parsed.publisher, url=parsed.url,
        published=parsed.published, author=parsed.author, pages=parsed.pages,
        meta={**parsed.meta, "n_bytes": len(data)},
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
