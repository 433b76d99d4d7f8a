"""Resolve who a claim is attributed to ("the vLLM post", "SemiAnalysis") to documents.

Restatement and misattribution both hinge on this: a secondary claim restates a primary
one only when it credits that primary's publisher, and it is misattributed when the
credited source is in the record but holds no such figure. Matching is on metadata only
(publisher, title, author, URL host, file name), never on body text, so a document that
merely mentions vLLM is not taken for vLLM's own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .keys import norm

_STOP = frozenset({
    "the", "a", "an", "post", "blog", "page", "team", "document", "paper", "site",
    "report", "reports", "article", "own", "official", "announcement", "its", "their",
    "s", "website", "writeup", "benchmark", "benchmarks", "data", "results", "of", "by",
})
_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9.+]*")


def tokens(text: str | None) -> frozenset[str]:
    """Normalised word tokens of a name, without filler words."""
    t = norm(text)
    if not t:
        return frozenset()
    return frozenset(w.strip(".") for w in _TOKEN_RE.findall(t)) - _STOP


@dataclass
class SourceIndex:
    """Name tokens of every document, to look up attributions.

    ``who`` names (publisher, author, URL host, file name) say whose document it is;
    ``what`` names (the title) only say what it is about, so a title that mentions Nvidia
    does not make a document Nvidia's. Titles are a fallback for positive matches
    (restatement: "InferenceX" names the SemiAnalysis page); a negative finding
    (misattribution) needs a ``who`` match.
    """

    who: dict[str, frozenset[str]] = field(default_factory=dict)
    what: dict[str, frozenset[str]] = field(default_factory=dict)
    _cache: dict[tuple[str, bool], tuple[str, ...]] = field(default_factory=dict)
    # token -> documents whose names hold it (a lookup intersects a few small sets instead of
    # testing every document: linear in the record, not in record x distinct sources)
    _who_idx: dict[str, set[str]] = field(default_factory=dict)
    _what_idx: dict[str, set[str]] = field(default_factory=dict)
    _order: dict[str, int] = field(default_factory=dict)

    def add(self, doc_id: str, publisher: str | None = None, title: str | None = None,
            author: str | None = None, url: str | None = None, path: str | None = None) -> None:
        who: set[str] = set(tokens(publisher)) | set(tokens(author)) | set(tokens(path))
        if url and "://" in url:
            host = re.sub(r"^https?://(www\.)?", "", url).split("/")[0]
            who |= set(host.split(".")[:-1]) - {"example", "com", "org"}
        self.who[doc_id] = frozenset(who)
        self.what[doc_id] = tokens(title)
        self._order.setdefault(doc_id, len(self._order))
        for t in self.who[doc_id]:
            self._who_idx.setdefault(t, set()).add(doc_id)
        for t in self.what[doc_id]:
            self._what_idx.setdefault(t, set()).add(doc_id)
        self._cache.clear()

    @staticmethod
    def _having(index: dict[str, set[str]], want: frozenset[str]) -> set[str]:
        sets = sorted((index.get(t, set()) for t in want), key=len)
        if not sets or not sets[0]:
            return set()
        return set(sets[0]).intersection(*sets[1:])

    def resolve(self, asserted_by: str | None, strict: bool = False) -> tuple[str, ...]:
        """Documents the source names; ``strict`` uses only whose-document names."""
        if not asserted_by:
            return ()
        key = (asserted_by, strict)
        hit = self._cache.get(key)
        if hit is None:
            want = tokens(asserted_by)
            docs = self._having(self._who_idx, want) if want else set()
            if not docs and not strict and want:
                docs = self._having(self._what_idx, want)
            hit = tuple(sorted(docs, key=self._order.__getitem__))   # in the order added
            self._cache[key] = hit
        return hit
