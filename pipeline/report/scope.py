"""Which figures a report covers: ``--model``, ``--since`` and ``--doc`` (all given must hold).

A filter selects figures; a cluster with a selected figure is shown whole (its other
sources are the story of that figure), and every selected figure outside primary documents
is still checked against the whole primary record.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pipeline.graph import GraphError, select_model
from pipeline.record import Record


class ScopeError(ValueError):
    """A filter that matches nothing or cannot be read (shown to the user as is)."""


@dataclass(frozen=True)
class Scope:
    model: str | None = None
    since: str | None = None        # YYYY-MM-DD: documents published on or after it
    doc: str | None = None          # a path, the end of a path, or a document id prefix

    @property
    def narrowed(self) -> bool:
        return any(x is not None for x in (self.model, self.since, self.doc))

    def words(self) -> str:
        """'model Llama-3-70B, since 2025-01-01' (empty when nothing is filtered)."""
        parts = []
        if self.model is not None:
            parts.append(f"model {self.model}")
        if self.since is not None:
            parts.append(f"documents published since {self.since}")
        if self.doc is not None:
            parts.append(f"document {self.doc}")
        return ", ".join(parts)


def parse_since(text: str) -> str:
    """'2025-03-01' (also '2025-03' and '2025', read as the first day) or ScopeError."""
    t = text.strip()
    pad = {4: "-01-01", 7: "-01"}.get(len(t), "")
    try:
        return dt.date.fromisoformat(t + pad).isoformat()
    except ValueError:
        raise ScopeError(f"--since takes a date as YYYY-MM-DD (or YYYY-MM, YYYY), "
                         f"not {text!r}") from None


def match_docs(record: Record, doc: str) -> set[str]:
    """Documents whose path is ``doc``, ends with ``/doc``, or whose id starts with it."""
    want = doc.strip()
    if not want:
        raise ScopeError("--doc takes a document path or id, not an empty string")
    hits = {d.id for d in record.docs.values()
            if d.path == want or d.path.endswith("/" + want.lstrip("/"))
            or (len(want) >= 6 and d.id.startswith(want))}
    if not hits:
        raise ScopeError(f"no document {doc!r} in the warehouse (give its path as "
                         "`claims export documents` lists it, or an id prefix)")
    return hits


def select(record: Record, scope: Scope) -> tuple[set[str] | None, set[str] | None]:
    """(claim ids in scope, document ids in scope); None for 'all'."""
    if not scope.narrowed:
        return None, None
    claims: set[str] = set(record.claims)
    docs: set[str] = set(record.docs)
    if scope.doc is not None:
        docs &= match_docs(record, scope.doc)
    if scope.since is not None:
        since = parse_since(scope.since)
        docs &= {d.id for d in record.docs.values() if d.published and d.published >= since}
    if scope.doc is not None or scope.since is not None:
        claims = {k for k in claims if record.claims[k].doc_id in docs}
    if scope.model is not None:
        try:
            on_model = select_model(record, scope.model)
        except GraphError as exc:
            raise ScopeError(str(exc)) from None
        claims &= on_model
        docs &= {record.claims[k].doc_id for k in claims}
    if not docs:
        raise ScopeError(f"no document matches {scope.words()}")
    return claims, docs
