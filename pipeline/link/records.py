"""Plain inputs and outputs of the link stage, picklable for a worker process."""
from __future__ import annotations

from dataclasses import dataclass, field

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
    def from_document(cls, d: Document, with_text: bool = True) -> "DocMeta":
        return cls(id=d.id, path=d.path, role=d.role, role_source=d.role_source,
                   published=d.published, publisher=d.publisher, title=d.title,
                   text=d.text if with_text else None, author=d.author, url=d.url)


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
