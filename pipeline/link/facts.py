"""What every comparison reads of one figure, computed once per claim and stored with it.

The checker (``checker.Checker``) and its warehouse path (``check_sql``) compare a claim
with thousands of figures on the same few facts of each: its comparison keys (model,
hardware, engine, unit, denominator, statistic, phase, token kind) and the intervals its
number stands for (``link/consistency``). Each fact is computed here by one function,
when the claim is stored (``store.Stored.of``; ``migrate`` fills them in an older
warehouse), and kept in the ``claims`` table's ``FACT_COLUMNS``: Python reads them back
with the claim (``Record.stored_facts``), SQL compares the columns instead of working
them out again. docs/checking.md lists the columns.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from pipeline.link.consistency import Figure, bounds
from pipeline.link.keys import (engine_key, hw_key, model_key, norm, scope_key, token_kind_key,
                                unit_key)
from pipeline.model import Claim


def witness_figure(c: Claim) -> Figure:
    """What a figure shows was reached: '>= 826' shows 826, 'up to 376' shows 376."""
    return Figure(c.value, c.low, c.high, "~" if c.comparator == "~" else "=", c.precision)


def full_figure(c: Claim) -> Figure:
    """The figure with its comparator: '>= 826' is [825.5, inf)."""
    return Figure(c.value, c.low, c.high, c.comparator or "=", c.precision)


@dataclass(frozen=True, slots=True)
class ClaimFacts:
    """One claim's facts; each field is a column of ``claims`` (``FACT_COLUMNS``)."""

    key_unit: str | None            # keys.unit_key: unit, with the price basis for money
    key_scope: str | None           # keys.scope_key: the denominator, None when unsaid
    key_model: str | None           # keys.model_key
    key_hw_count: int | None        # keys.hw_key: (count, accelerator)
    key_hw: str | None
    key_engine: str | None          # keys.engine_key
    key_statistic: str | None       # keys.norm of the statistic
    key_phase: str | None           # keys.norm of the phase
    key_token_kind: str | None      # keys.token_kind_key (stated, or implied by phase/scope)
    fig_p: float | None             # Figure.p: the stated precision, else the default one
    witness_lo: float | None        # consistency.bounds of witness_figure: rounding interval
    witness_hi: float | None        #   (lo, hi) and the generous interval's top
    witness_top: float | None       #   (its bottom is lo)
    full_lo: float | None           # the same of full_figure
    full_hi: float | None
    full_top: float | None

    def witness(self, c: Claim) -> tuple:
        """``consistency.bounds(witness_figure(c))``, as stored."""
        return (self.fig_p, self.witness_lo, self.witness_hi, self.witness_lo,
                self.witness_top, c.comparator != "~")

    def full(self, c: Claim) -> tuple:
        """``consistency.bounds(full_figure(c))``, as stored."""
        return (self.fig_p, self.full_lo, self.full_hi, self.full_lo, self.full_top,
                (c.comparator or "=") == "=")


FACT_COLUMNS = [f.name for f in fields(ClaimFacts)]
FACT_TYPES = {f.name: ("INTEGER" if f.name == "key_hw_count" else
                       "DOUBLE" if f.type.startswith("float") else "VARCHAR")
              for f in fields(ClaimFacts)}


def facts_of(c: Claim) -> ClaimFacts:
    """Every fact of ``c``, each by its one function."""
    hw = hw_key(c)
    if c.value is None:         # no number (never extracted so; a hand-written row)
        w = f = (None,) * 6
    else:
        w, f = bounds(witness_figure(c)), bounds(full_figure(c))
    return ClaimFacts(unit_key(c), scope_key(c.scope), model_key(c.model),
                      hw[0] if hw else None, hw[1] if hw else None, engine_key(c.engine),
                      norm(c.statistic), norm(c.phase), token_kind_key(c),
                      w[0], w[1], w[2], w[4], f[1], f[2], f[4])


def facts_row(c: Claim) -> tuple:
    """``facts_of(c)`` as a row in ``FACT_COLUMNS`` order (for the store)."""
    x = facts_of(c)
    return tuple(getattr(x, n) for n in FACT_COLUMNS)
