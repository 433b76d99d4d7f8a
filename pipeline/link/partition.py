"""One partition of the record linked at a time: the pure part (no database).

Why linking can be cut into partitions: every pair relation (supports, restates, mismatch,
conflicts, operating-point conflicts) joins two claims of the same subject block
(``relations.blocks_by_subject``, ``operating_point_conflicts`` blocks on subject too),
and clusters are components of those links, so a group of whole subjects can be linked
alone. Three things reach outside a subject, and each is given its own partition:

* a derived check (``derives``) joins a ratio claim to figures of its own document, of any
  subject: derived checks are done document by document (``link_documents``);
* an operating point is read off the per-user speed in the same sentence, of any subject:
  a subject partition loads the per-user speeds of the documents on its subjects;
* ``misattributed`` looks at every figure of the credited documents, of any subject:
  worked out separately, one group of credited sources at a time (``misattributions``).

``pipeline/link_parts.py`` feeds these functions from DuckDB and writes what they return.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pipeline.model import Claim, Link

from . import _finish, _no_gc, _pair_links, _prepare_all
from .attribution import SourceIndex
from .derive import OPERAND_FAMILIES, RATIO_FAMILIES, derive_links
from .findings import held_figures, misattributed
from .keys import subject_of_key
from .consistency import Figure, bounds
from .prepare import INERT_STANCES, figure_of
from .records import DocMeta, LinkResult


@_no_gc
def link_documents(claims: list[Claim], docs: dict[str, DocMeta],
                   roles: dict[str, tuple[str, str]], sources: SourceIndex) -> LinkResult:
    """Whole documents: their derived checks, and the findings of their claims that have
    no subject (no pair link can reach those). Only the claims ``document_part`` keeps
    need be given."""
    prepared = _prepare_all(claims, docs, roles)
    return _finish(claims, prepared, derive_links(claims, prepared), roles, sources)


def document_part(claims: Iterable[Claim], subjects: Iterable[str | None]
                  ) -> tuple[list[Claim], list[str | None]]:
    """What ``link_documents`` reads of whole documents: ratios and the figures they can be
    the arithmetic of (``derive.py``), and every claim without a subject; with their
    subjects."""
    kept = [(c, s) for c, s in zip(claims, subjects)
            if s is None or c.family in RATIO_FAMILIES or c.family in OPERAND_FAMILIES]
    return [c for c, _ in kept], [s for _, s in kept]


@_no_gc
def link_subjects(claims: list[Claim], docs: dict[str, DocMeta],
                  roles: dict[str, tuple[str, str]], sources: SourceIndex,
                  subjects: set[str], derived: Iterable[Link] = ()) -> LinkResult:
    """Every claim on ``subjects`` (plus the per-user speeds of their documents and the
    operands of their derived checks): pair links, clusters and findings of those claims.

    ``derived`` are the stored derived checks of ratio claims on these subjects (done by
    ``link_documents``): they count for ``unsourced`` and are not returned again.
    """
    prepared = _prepare_all(claims, docs, roles)
    derived = list(derived)
    result = _finish(claims, prepared, _pair_links(prepared, sources, subjects) + derived,
                     roles, sources)
    result.links = [ln for ln in result.links if ln.relation != "derives"]
    return result


@dataclass(slots=True)
class PartResult:
    """What one partition adds to the record: the driver writes it (``Store.append_links``)."""

    links: list[Link] = field(default_factory=list)
    clusters: list[tuple[str, str]] = field(default_factory=list)   # (cluster id, claim id)
    findings: dict[str, list[str]] = field(default_factory=dict)    # changed ones only


def _changed(claims: Iterable[Claim], found: dict[str, list[str]],
             mis: set[str]) -> dict[str, list[str]]:
    """Findings of ``claims`` (with ``misattributed`` as decided over the whole record)
    that differ from what is stored."""
    out = {}
    for c in claims:
        now = with_misattribution(found.get(c.id, []), c.id, mis)
        if now != c.findings:
            out[c.id] = now
    return out


def documents_partition(part: list[Claim], subjects: list[str | None],
                        docs: dict[str, DocMeta], roles: dict[str, tuple[str, str]],
                        sources: SourceIndex, mis: set[str]) -> PartResult:
    """One partition of whole documents, ``part`` being their ``document_part`` (and
    ``subjects`` its claims' subjects): derived checks, and the findings of the claims
    without a subject. A plain function of its arguments, so ``link_parts`` runs it here
    or as a Ray task alike."""
    result = link_documents(part, docs, roles, sources)
    return PartResult(result.links, [], _changed(
        (c for c, s in zip(part, subjects) if s is None), result.findings, mis))


def subjects_partition(claims: list[Claim], docs: dict[str, DocMeta],
                       roles: dict[str, tuple[str, str]], sources: SourceIndex,
                       subjects: set[str], derived: list[Link], mis: set[str]) -> PartResult:
    """One partition of whole subjects (``link_subjects``' arguments): the pair links,
    clusters and findings of the claims on ``subjects`` (the siblings and operands loaded
    with them belong to other partitions). Runs here or as a Ray task alike."""
    result = link_subjects(claims, docs, roles, sources, subjects, derived)
    own = {c.id for c in claims if subject_of_key(result.keys[c.id]) in subjects}
    return PartResult([ln for ln in result.links if ln.src in own],
                      sorted((k, cid) for cid, k in result.clusters.items() if cid in own),
                      _changed((c for c in claims if c.id in own), result.findings, mis))


# What misattribution reads of a claim (the fields ``figure_of`` and ``INERT_STANCES`` need)
FIGURE_COLUMNS = ("id", "doc_id", "start", "end", "surface", "value", "family", "unit", "low",
                  "high", "comparator", "precision", "stance", "asserted_by")


@dataclass(slots=True)
class _Figure:
    """The part of ``prepare.Prepared`` that ``findings.misattributed`` and ``agree`` read:
    built without the rest (reading what a figure measures is most of ``prepare``)."""

    id: str
    doc: str
    family: str
    active: bool
    fig: Figure
    bnd: tuple


def _figure(c: Claim) -> _Figure:
    fig = figure_of(c)
    return _Figure(c.id, c.doc_id, c.family, c.stance not in INERT_STANCES, fig, bounds(fig))


def misattributions(claims: list[Claim], sources: SourceIndex, credits: set[str]) -> set[str]:
    """Ids of the claims crediting one of ``credits`` that are misattributed; ``claims``
    (``FIGURE_COLUMNS`` suffice) must hold those claims and every document the credits
    resolve to."""
    prepared = [_figure(c) for c in claims]
    held = held_figures(prepared)
    return {c.id for c, p in zip(claims, prepared)
            if c.asserted_by in credits and misattributed(c, p, held, sources)}


def with_misattribution(found: list[str], claim_id: str, mis: set[str]) -> list[str]:
    """A claim's findings with ``misattributed`` as decided over the whole record (it is
    the last of ``findings.FINDINGS``)."""
    out = [f for f in found if f != "misattributed"]
    if claim_id in mis:
        out.append("misattributed")
    return out
