"""The report's files and the links between them.

``report.html`` / ``report.md`` (the summary) sit in the output folder; every model or
subject page and every document page sits in ``pages/`` beside them, named by a slug that
is safe on any file system and in a URL (gather.page_slug). A ``PageIndex`` answers, from
the page being written, the relative address of another page or of a cluster on it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from pipeline.report.gather import Fig, ReportData, page_slug

PAGES_DIR = "pages"


def doc_slug(d) -> str:
    name = d.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return page_slug("doc", d.id, name)


@dataclass
class PageIndex:
    """Relative addresses of the report's pages, seen from one page."""

    ext: str = ".html"
    from_pages: bool = False                 # the page being written is in pages/
    groups: dict[str, str] = field(default_factory=dict)     # group key -> slug
    clusters: dict[str, str] = field(default_factory=dict)   # cluster id -> slug
    docs: dict[str, str] = field(default_factory=dict)       # document id -> slug
    claim_cluster: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, data: ReportData, ext: str = ".html") -> "PageIndex":
        r = data.record
        return cls(ext=ext,
                   groups={g.key: g.slug for g in data.groups},
                   clusters=data.page_of_cluster(),
                   docs={d.id: doc_slug(d) for d, _ in data.documents},
                   claim_cluster=dict(r.clusters))

    def inside(self) -> "PageIndex":
        """The same index, for a page in pages/."""
        return replace(self, from_pages=True)

    def _to(self, slug: str) -> str:
        return ("" if self.from_pages else PAGES_DIR + "/") + slug + self.ext

    @property
    def summary(self) -> str:
        return ("../report" if self.from_pages else "report") + self.ext

    def group(self, g) -> str:
        return self._to(g.slug)

    def doc(self, d) -> str | None:
        slug = self.docs.get(d.id)
        return self._to(slug) if slug else None

    def cluster(self, cluster_id: str) -> str | None:
        slug = self.clusters.get(cluster_id)
        return self._to(slug) if slug else None

    def cluster_of(self, f: Fig) -> str | None:
        """The page and anchor of the cluster a figure is in, if it is in one."""
        cid = self.claim_cluster.get(f.claim.id)
        page = self.cluster(cid) if cid else None
        return f"{page}#{cid}" if page else None
