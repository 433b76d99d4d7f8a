"""A verdict as schema.org ClaimReview JSON-LD, the markup fact-checkers publish and
Google's Fact Check Tools read (docs/formats.md#claimreview).

The review says what `claims check` said: ``claimReviewed`` is the headline as given,
``reviewRating.alternateName`` the verdict, ``reviewRating.ratingExplanation`` its
explanation, and ``ratingValue`` a number on the 1-5 scale fact-checkers use
(``RATING_VALUE``). The documents come from the warehouse: ``itemReviewed.appearance``
lists the documents whose figures support the headline (where the claim appears),
``firstAppearance`` the earliest dated of them, and ``citation`` every document the
evidence comes from, each described by how its figure bears on the headline. A document
holding a contradicting figure is cited, never listed as an appearance of the claim.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:
    from pipeline.checker import Evidence, Verdict
    from pipeline.store import Store

CONTEXT = "https://schema.org"
# Verdict -> ratingValue on the 1 (false) .. 5 (true) scale. "ambiguous" sits in the
# middle: the headline is true on one reading of its denominator and not on another.
# "unproven" has no value: nothing in the record bears on the headline, and a number
# would rank absence of evidence against evidence.
RATING_VALUE = {"supported": 5, "ambiguous": 3, "contradicted": 1}
BEST_RATING, WORST_RATING = 5, 1
APPEARS_IN = frozenset({"supports"})   # evidence relations that show the claim made


@dataclass(frozen=True)
class SourceDoc:
    """What a ClaimReview says about a document the evidence comes from."""

    path: str
    title: str | None = None
    url: str | None = None
    publisher: str | None = None
    published: str | None = None    # ISO date
    role: str = "unknown"

    def creative_work(self, description: str | None = None) -> dict[str, Any]:
        """The document as a schema.org CreativeWork: its address when it has one, its
        path in the warehouse as ``identifier`` always."""
        work: dict[str, Any] = {"@type": "CreativeWork"}
        if self.url:
            work["url"] = self.url
        work["name"] = self.title or self.path
        work["identifier"] = self.path
        if self.published:
            work["datePublished"] = self.published
        if self.publisher:
            work["publisher"] = {"@type": "Organization", "name": self.publisher}
        if description:
            work["description"] = description
        return work


def evidence_documents(verdict: "Verdict", store: "Store") -> dict[str, SourceDoc]:
    """Evidence claim id -> its document, read from the warehouse (one query)."""
    ids = sorted({e.id for e in verdict.evidence})
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    _, rows = store.query(
        "SELECT c.id, d.path, d.title, d.url, d.publisher, d.published, d.role "
        f"FROM claims c JOIN documents d ON d.id = c.doc_id WHERE c.id IN ({marks})", ids)
    return {cid: SourceDoc(path, title, url, publisher,
                           published.isoformat() if published is not None else None, role)
            for cid, path, title, url, publisher, published, role in rows}


def review_url(headline: str) -> str:
    """A name for a review not (yet) published at an address: the same headline always
    gets the same one."""
    return "urn:claims:check:" + hashlib.sha256(headline.encode("utf-8")).hexdigest()[:16]


def rating(verdict: "Verdict") -> dict[str, Any]:
    """``reviewRating``: the verdict as ``alternateName`` (what search results show), its
    explanation, and a ratingValue where the verdict has one (``RATING_VALUE``)."""
    out: dict[str, Any] = {"@type": "Rating", "alternateName": verdict.verdict}
    value = RATING_VALUE.get(verdict.verdict)
    if value is not None:
        out.update(ratingValue=value, bestRating=BEST_RATING, worstRating=WORST_RATING)
    out["ratingExplanation"] = verdict.explanation
    return out


def _bearing(e: "Evidence") -> str:
    """How one evidence figure bears on the headline, in the words `claims check` prints."""
    text = f"{e.relation}: {e.surface}"
    if e.page:
        text += f" (p. {e.page})"
    return text + (f"; {e.detail}" if e.detail else "") \
        + (f"; {e.derived}" if getattr(e, "derived", "") else "")


def claim_review(headline: str, verdict: "Verdict", documents: Mapping[str, SourceDoc],
                 *, url: str | None = None, tool_version: str | None = None,
                 published: dt.date | None = None) -> dict[str, Any]:
    """The ClaimReview of ``verdict`` on ``headline``; ``documents`` maps each evidence
    claim id to its document (``evidence_documents``). ``url`` is where the review is
    published (default ``review_url``); ``published`` its date (default today, UTC)."""
    if tool_version is None:
        from pipeline import __version__ as tool_version
    published = published or dt.datetime.now(dt.timezone.utc).date()
    item: dict[str, Any] = {"@type": "Claim"}
    appears = _unique(documents[e.id] for e in verdict.evidence
                      if e.relation in APPEARS_IN and e.id in documents)
    if appears:
        item["appearance"] = [d.creative_work() for d in appears]
        dated = [d for d in appears if d.published]
        if dated:
            item["firstAppearance"] = min(dated, key=lambda d: (d.published, d.path)).creative_work()
    review: dict[str, Any] = {
        "@context": CONTEXT,
        "@type": "ClaimReview",
        "url": url or review_url(headline),
        "claimReviewed": headline,
        "datePublished": published.isoformat(),
        "author": {"@type": "Organization", "name": "claims",
                   "description": f"claims {tool_version}: an automated check of the "
                                  "headline against the primary figures in its warehouse"},
        "reviewRating": rating(verdict),
        "itemReviewed": item,
    }
    if verdict.query is not None:
        review["description"] = "read as: " + verdict.query.reading()
    cited: dict[str, list[str]] = {}
    for e in verdict.evidence:
        d = documents.get(e.id)
        if d is not None:
            cited.setdefault(d.path, []).append(_bearing(e))
    by_path = {d.path: d for d in documents.values()}
    if cited:
        review["citation"] = [by_path[p].creative_work("; ".join(lines))
                              for p, lines in cited.items()]
    return review


def _unique(docs: Iterable[SourceDoc]) -> list[SourceDoc]:
    seen: dict[str, SourceDoc] = {}
    for d in docs:
        seen.setdefault(d.path, d)
    return list(seen.values())
