"""What the ingest flow (``pipeline.run``), the link flow (``pipeline.link_flow``) and the
partitioned link (``pipeline.link_parts``) share: the quantity keys stored per claim, the
report a link run prints, every document's metadata and the roles inferred for it. One
module below all three, so none imports another for these.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from pipeline.model import Claim
from pipeline.store import LinkTotals, Store

# roles a link never overrides: set by a manifest row or the document's own metadata
ROLE_SOURCES_FIXED = ("manifest", "metadata")


def claim_keys(claims: Iterable[Claim]) -> list[tuple[str, str, str | None]]:
    """(claim id, quantity key, subject) of each claim, for the ``claim_keys`` table."""
    from pipeline.link.keys import quantity_key, subject_of_key

    out = []
    for c in claims:
        k = quantity_key(c)
        out.append((c.id, k, subject_of_key(k)))
    return out


@dataclass
class LinkReport:
    """What a link run did, for the lines `claims ingest` and `claims link` print."""

    mode: str                                    # full | incremental
    claims: int = 0                              # claims held while linking
    subjects: int = 0                            # subjects relinked (incremental)
    inferred: list[tuple[str, str]] = field(default_factory=list)   # (path, role) to show
    totals: LinkTotals = field(default_factory=LinkTotals)
    seconds: float = 0.0

    def line(self) -> str:
        t = self.totals
        rel = ", ".join(f"{t.relations.get(r, 0):,} {r}" for r in RELATIONS)
        fin = ", ".join(f"{t.findings.get(f, 0):,} {f}" for f in FINDING_NAMES)
        how = (f"full, {self.claims:,} claims" if self.mode == "full" else
               f"{self.subjects:,} subject{'s' if self.subjects != 1 else ''}, "
               f"{self.claims:,} claims held")
        return (f"linked ({how}) in {self.seconds:.1f} s: {sum(t.relations.values()):,} links "
                f"({rel}); findings: {fin}; {t.clusters:,} clusters")


RELATIONS = ("supports", "restates", "conflicts", "mismatch", "derives")
FINDING_NAMES = ("unsourced", "ambiguous", "misattributed")


def role_hint(path: str, role: str) -> str:
    """One line telling the user a role was guessed and how to override it."""
    other = {"primary": "secondary", "secondary": "primary"}.get(role, "primary|secondary")
    return f"inferred role: {role:<9} {path}  (override: sources.csv row \"{path},{other}\")"


def roles_line(inferred: list[tuple[str, str]]) -> str:
    """One line for the roles a link inferred: how many of each, and where the list is."""
    counts = {r: sum(1 for _, role in inferred if role == r) for r in ("primary", "secondary", "unknown")}
    parts = ", ".join(f"{n} {r}" for r, n in counts.items() if n)
    n = len(inferred)
    return (f"inferred roles: {n} document{'s' if n != 1 else ''} ({parts}); `-v` lists them, "
            "a sources.csv row sets a role")


def _doc_metas(store: Store):
    """DocMeta of every document (no text) and the roles earlier links inferred.

    A manifest or metadata role is passed as given; any other role is left for the link
    stage, with a previously inferred one handed over as known so it is not re-inferred
    from partial claims.
    """
    from pipeline.link import DocMeta

    metas: dict[str, DocMeta] = {}
    known: dict[str, tuple[str, str]] = {}
    stored: dict[str, tuple[str, str | None]] = {}
    for r in store.document_rows():
        fixed = r["role_source"] in ROLE_SOURCES_FIXED
        metas[r["id"]] = DocMeta.of(r, role=r["role"] if fixed else "unknown",
                                    role_source=r["role_source"] if fixed else None, text=None)
        stored[r["id"]] = (r["role"], r["role_source"])
        if r["role_source"] == "inferred":
            known[r["id"]] = (r["role"], "inferred")
    return metas, known, stored


def _infer_roles(store: Store, metas: dict, doc_ids: Iterable[str],
                 by_doc: dict[str, list[Claim]], stored: bool = False) -> dict[str, tuple[str, str]]:
    """Roles of documents without a manifest/metadata role, one text in memory at a time.

    With ``stored``, a role the ingest worker already inferred (``text_role``, kept in
    ``documents.meta``) is taken as it is; `claims link` (full) infers every one again.
    """
    from pipeline.link.roles import resolve_role

    todo = [d for d in doc_ids if metas[d].role_source is None]
    out = {d: (r, "inferred") for d, r in store.inferred_roles(todo).items()} if stored else {}
    for d, text in store.iter_texts(d for d in todo if d not in out):
        out[d] = resolve_role(replace(metas[d], text=text), by_doc.get(d, ()))
    return out


def _by_doc(claims: list[Claim]) -> dict[str, list[Claim]]:
    out: dict[str, list[Claim]] = {}
    for c in claims:
        out.setdefault(c.doc_id, []).append(c)
    return out
