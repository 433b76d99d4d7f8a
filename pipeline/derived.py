"""Per-accelerator and per-node figures derived from MLPerf results, kept apart from results.

An MLPerf Inference result is the whole system's figure: ``a#`` accelerators per node times
``Nodes`` (docs/structured.md). MLCommons publishes no per-accelerator result, and its
results guidelines forbid presenting a figure derived from one (per accelerator, per node)
as an official MLPerf result. Headlines say "per GPU" all the same, so the record needs the
division to judge them, and needs it marked for what it is.

The division is made in one place, the warehouse view ``derived_figures``
(warehouse/views/derived_figures.sql): one row per per-system throughput claim of an MLPerf
summary row and per divisor (its accelerators, its nodes), with ``role = 'derived'``, the
claim and row it came from and the divisor. This module reads that view into
``DerivedFigure`` records and writes them the one way they are shown everywhere
(``claims check``, ``claims trace``, the report): ``derived: 169,197 / 48 accelerators``.
A derived figure is never a claim: it has no span in any text, is never a primary figure of
the checker, and is only ever used to judge a per-GPU or per-node headline
(``pipeline.derived_check``).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from typing import Iterable

from pipeline.citation import grouped
from pipeline.model import Claim
from pipeline.words import fmt_number, scope_words

__all__ = ["DerivedFigure", "load_derived", "derived_claim", "NOT_OFFICIAL"]

NOT_OFFICIAL = "not an official MLPerf result"
_COLUMNS = ("claim_id", "doc_id", "path", "row_pointer", "result_id", "version", "division",
            "benchmark", "scenario", "scope", "divisor", "divided_by", "value", "precision",
            "family", "unit", "system_value", "system_surface", "hardware", "accelerators", "nodes", "mixed")


@dataclass(frozen=True)
class DerivedFigure:
    """One row of ``derived_figures``: ``value = system_value / divisor``.

    ``scope`` is ``per_gpu`` (divided by the system's accelerators) or ``per_node``
    (divided by its nodes); ``mixed``: more than one kind of accelerator, so the
    per-accelerator figure is an average over all of them and describes none of them."""

    claim_id: str
    doc_id: str
    path: str
    row_pointer: str | None
    result_id: str | None
    version: str | None
    division: str | None
    benchmark: str | None
    scenario: str | None
    scope: str
    divisor: int
    divided_by: str          # accelerators | nodes
    value: float
    precision: float | None
    family: str
    unit: str
    system_value: float
    system_surface: str
    hardware: str | None
    accelerators: int | None
    nodes: int | None
    mixed: bool
    role: str = "derived"

    @property
    def division_text(self) -> str:
        """'169,197.0 / 48 accelerators' (the per-system figure as the file writes it, and the divisor)."""
        what = self.divided_by if self.divisor != 1 else self.divided_by.rstrip("s")
        return f"{grouped(self.system_surface)} / {self.divisor} {what}"

    def text(self) -> str:
        """'derived: 169,197.0 / 48 accelerators = 3,524.9 tokens/s per GPU (from the
        per-system MLPerf result 5.1-0065, Offline; not an official MLPerf result)'."""
        mixed = "; an average over mixed accelerators" if self.mixed and self.scope == "per_gpu" else ""
        rid = f" {self.result_id}" if self.result_id else ""
        scen = f", {self.scenario}" if self.scenario else ""
        return (f"derived: {self.division_text} = {fmt_number(round(self.value, 1))} "
                f"{self.unit} {scope_words(self.scope)} (from the per-system MLPerf result"
                f"{rid}{scen}{mixed}; {NOT_OFFICIAL})")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_row(cls, row) -> "DerivedFigure":
        """A row of the view as a mapping (``SELECT * FROM derived_figures``: `claims
        serve`'s page), so a page writes it the way ``text`` does."""
        return cls(*(row[k] for k in _COLUMNS[:-1]), mixed=bool(row["mixed"]))


def load_derived(store, claim_ids: Iterable[str] | None = None, scope: str | None = None,
                 family: str | None = None) -> list[DerivedFigure]:
    """The derived figures in the warehouse (``store.query``), optionally only those of
    ``claim_ids``, of one ``scope`` (per_gpu, per_node) or ``family``."""
    sql = f"SELECT {', '.join(_COLUMNS)} FROM derived_figures"
    where, params = [], []
    if claim_ids is not None:
        where.append("list_contains(?, claim_id)")
        params.append(sorted(set(claim_ids)))
    if scope is not None:
        where.append("scope = ?")
        params.append(scope)
    if family is not None:
        where.append("family = ?")
        params.append(family)
    if where:
        sql += " WHERE " + " AND ".join(where)
    _, rows = store.query(sql + " ORDER BY path, claim_id, scope", params)
    return [DerivedFigure.from_row(dict(zip(_COLUMNS, r))) for r in rows]


def by_claim(figures: Iterable[DerivedFigure]) -> dict[str, list[DerivedFigure]]:
    """claim id -> its derived figures (per GPU first)."""
    out: dict[str, list[DerivedFigure]] = defaultdict(list)
    for d in figures:
        out[d.claim_id].append(d)
    for v in out.values():
        v.sort(key=lambda d: d.scope != "per_gpu")
    return dict(out)


def derived_claim(source: Claim, d: DerivedFigure) -> Claim:
    """The per-system claim ``source`` as the derived figure ``d`` reads: its value, bounds
    and precision divided, its scope the derived one; every condition (model, hardware
    with its count, engine, scenario) stays the row's. It keeps the source's id and span, so
    what cites it cites the row; it is held only by the derived check, never stored."""
    div = float(d.divisor)
    return replace(source, value=d.value,
                   low=None if source.low is None else source.low / div,
                   high=None if source.high is None else source.high / div,
                   precision=d.precision, scope=d.scope, findings=[])
