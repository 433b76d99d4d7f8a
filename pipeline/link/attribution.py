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
    """Name tokens of every document, to look up attributions."""

    names: dict[str, frozenset[str]] = field(default_factory=dict)
    _cache: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def add(self, doc_id: str, *fields: str | None) -> None:
        toks: set[str] = set()
        for f in fields:
            if f:
                toks |= tokens(f)
                if "://" in f:
                    host = re.sub(r"^https?://(www\.)?", "", f).split("/")[0]
                    toks |= set(host.split(".")[:-1])
        self.names[doc_id] = frozenset(toks)

    def resolve(self, asserted_by: str | None) -> tuple[str, ...]:
        """Documents whose metadata names the source; empty when none does."""
        if not asserted_by:
            return ()
        hit = self._cache.get(asserted_by)
        if hit is None:
            want = tokens(asserted_by)
            hit = tuple(d for d, names in self.names.items() if want and want <= names)
            self._cache[asserted_by] = hit
        return hit
