"""The one exception the ingest stage raises on purpose.

A bad file must never stop a run, so every format module turns what went wrong into an
``IngestError`` whose message is a single human-readable line; the caller records it in
``ingest_errors`` and moves on. Anything else escaping ``ingest_file`` is a bug.
"""
from __future__ import annotations


class IngestError(Exception):
    """A file that cannot become a Document; ``str(exc)`` is the one-line reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(" ".join(reason.split()))
