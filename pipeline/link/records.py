"""Plain inputs and outputs of the link stage, picklable for a worker process."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from pipeline.model import Document, Link


@dataclass
class DocMeta:
    """What linking needs to know about a document (not its claims)."""

    id: str
    path: str = ""
    role: str = "unknown"            # primary | secondary | unknown
    role_source: str | None = None   # manifest | metadata | inferred | None
    published: str | None = None
    publisher: str | None = None
    title: str | None = None
    text: str | None = None          # only for role inference; None is fine
    author: str | None = None
    url: str | None = None

    @classmethod
    def of(cls, src: Any, **overrides: Any) -> "DocMeta":
        """The metadata of ``src`` (a ``Document``, a ``DocInfo``, a ``document_rows`` dict:
        whatever holds these fields by name), with ``overrides`` on top: the one place a
        document's metadata becomes the link stage's record."""
        if isinstance(src, Mapping):
            values = {f.name: src.get(f.name) for f in fields(cls)}
        else:
            values = {f.name: getattr(src, f.name, None) for f in fields(cls)}
        values.update(overrides)
        return cls(**values)

    @classmethod
    def from_document(cls, d: Document, with_text: bool = True) -> "DocMeta":
        return cls.of(d, text=d.text if with_text else None)


@dataclass
class LinkResult:
    """Everything the link stage concludes; the store writes it as tables."""

    links: list[Link] = field(default_factory=list)
    findings: dict[str, list[str]] = field(default_factory=dict)   # claim id -> findings
    clusters: dict[str, str] = field(default_factory=dict)         # claim id -> cluster id
    roles: dict[str, tuple[str, str]] = field(default_factory=dict)  # doc id -> (role, source)
    keys: dict[str, str] = field(default_factory=dict)             # claim id -> quantity key

    def cluster_rows(self) -> list[tuple[str, str]]:
        """(cluster_id, claim_id) rows for the ``clusters`` table."""
        return sorted((c, k) for k, c in self.clusters.items())
