"""Document roles: is a document the measurer's own (primary) or coverage (secondary)?

Precedence is the manifest, then the document's own metadata, then inference from the
text. Inference weighs attribution ("according to", "X said", "X's post reports") against
first-person measurement ("we measured", "our results", "this page"); claims the extractor
marked as reported count as attribution. The result carries its source so ``claims
ingest`` can print inferred roles for a user to correct in sources.csv.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.model import Claim

from .records import DocMeta

_SECONDARY = [re.compile(p, re.I) for p in (
    r"\baccording to\b", r"\b(?:said|says|told|claimed|claims)\b",
    r"\b(?:reported(?:ly)?|reports)\b", r"\bcredited to\b", r"\bas per\b",
    r"\b\w+'s (?:blog )?(?:post|page|paper|announcement|report|document|release)\b",
    r"\bword around town\b", r"\bthe (?:company|firm|team) (?:says|said)\b",
    r"\bin a (?:blog )?post\b",
)]
_PRIMARY = [re.compile(p, re.I) for p in (
    r"\bwe (?:measured|ran|run|benchmark(?:ed)?|test(?:ed)?|observe[d]?|achieve[d]?|"
    r"report|present|built|release[d]?|evaluate[d]?|deploy(?:ed)?|serve[d]?|reach(?:ed)?|"
    r"see|saw|use[d]?|implemented|added|ship(?:ped)?)\b",
    r"\bour (?:results|measurements?|benchmarks?|runs?|setup|team|work|kernels?|system|"
    r"implementation|numbers|release)\b",
    r"\bthis (?:page|benchmark|dashboard|table|work was led)\b",
    r"\bmethodology\b", r"\bre-?benchmarked\b",
)]
VALID = ("primary", "secondary")


def _count(patterns: list[re.Pattern], text: str) -> int:
    return sum(len(p.findall(text)) for p in patterns)


def infer_from_text(text: str | None, claims: Iterable[Claim] = ()) -> str:
    """'primary', 'secondary' or 'unknown' from cues in the text and its claims."""
    claims = list(claims)
    sec = _count(_SECONDARY, text or "")
    prim = _count(_PRIMARY, text or "")
    reported = sum(1 for c in claims if c.stance == "reported" or c.asserted_by)
    tabled = sum(1 for c in claims if c.in_table)
    sec += reported
    if sec >= 2 and sec > 2 * prim:
        return "secondary"
    if prim >= 1 or (tabled >= 3 and sec <= tabled):
        return "primary"
    if sec >= 1 and prim == 0:
        return "secondary"
    return "unknown"


def resolve_role(doc: DocMeta, claims: Iterable[Claim] = ()) -> tuple[str, str]:
    """(role, role_source): manifest > metadata > inferred."""
    if doc.role in VALID and doc.role_source in ("manifest", "metadata"):
        return (doc.role, doc.role_source)
    if doc.role in VALID and doc.role_source is None:
        return (doc.role, "metadata")
    return (infer_from_text(doc.text, claims), "inferred")
