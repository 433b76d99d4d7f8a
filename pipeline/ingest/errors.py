"""The exceptions the ingest stage raises on purpose: for a file, and for a web address.

A bad file must never stop a run, so every format module turns what went wrong into an
``IngestError`` whose message is a single human-readable line; the caller records it in
``ingest_errors`` and moves on. Anything else escaping ``ingest_file`` is a bug. The web
fetcher, robots.txt and feed reader share ``FetchError`` / ``Refused`` from here, so none
of them has to import another to raise what the others catch (no import cycle).
"""
from __future__ import annotations


class IngestError(Exception):
    """A file that cannot become a Document; ``str(exc)`` is the one-line reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(" ".join(reason.split()))


class FetchError(Exception):
    """An address that cannot become a document; ``str(exc)`` is the one-line reason."""

    def __init__(self, reason: str, status: int | None = None) -> None:
        super().__init__(" ".join(reason.split()))
        self.status = status


class Refused(FetchError):
    """The address (or where it resolves or redirects) is not allowed."""
