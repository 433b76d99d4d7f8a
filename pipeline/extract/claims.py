"""Assemble claims from the number grammar, units, scope, conditions and stance modules."""
from __future__ import annotations

from pipeline.model import Claim, Document


def extract_claims(doc: Document) -> list[Claim]:
    """Every numeric performance claim in ``doc``, in text order (stub until issue 3)."""
    return []
