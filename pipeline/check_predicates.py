"""The predicates the verdict code applies to a compared figure, each written once.

``Checker.compare`` sums up one primary figure against a claim as a ``_Cmp`` (the
conditions it leaves open or states differently, its denominator, whether its value meets
or refutes the claim); the verdict code then keeps the figures for which a predicate
holds: "supports" is *on exactly the quantity and meets the claim*. The SQL checker
(check_sql.py) must find the same figures in DuckDB. Both read the predicates here.

Each predicate is an expression over named **atoms**, and each atom has one SQL reading
(a column expression of check_sql's candidate relation: TRUE, FALSE, or NULL where SQL
cannot tell) and one Python reading (of ``_Cmp``). From the one expression come:

* ``PRED[name]``: the predicate in SQL, over the atoms' columns;
* ``needs(name)``: a necessary condition on the columns known before the numbers are
  compared: the *late* atoms (read off the values) are NULL there, and by Kleene logic an
  expression FALSE with some inputs unknown is FALSE whatever they are;
* ``holds(name, c, chk, q)``: the Python answer, which decides the rows SQL leaves NULL and
  checks the ones it calls TRUE;
* ``window(name)``: the value window a query for it may scan ("full": the figure's value
  meets the claim, "point": it states the claim's number), when the predicate is FALSE
  wherever the atom of that window is;
* ``needs_scope(name)``: whether the predicate is FALSE wherever the denominator is not
  the claim's (a filter the scan applies itself).

The Python readings are those of the verdict code (``Checker._check``, ``_near_one``,
``_unproven_text``, ``_unscoped``, ``settles``); ``tests/test_check.py`` holds each
predicate's Python reading to those functions and each SQL column to its Python reading,
figure by figure.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from pipeline.checker import Query, _Cmp, _point_matches, range_shown
from pipeline.link.keys import scope_key

_SIZE = "model size"


@dataclass(frozen=True)
class Atom:
    """One condition: its SQL column expression, its Python reading of ``_Cmp`` (given the
    checker and the query), whether it is read off the compared numbers (``late``: known
    only after the value tests), and the value window outside which it is FALSE."""

    sql: str
    py: Callable[[_Cmp, object, Query], bool]
    late: bool = False
    window: str | None = None


def _opens(name: str) -> Callable[[_Cmp, object, Query], bool]:
    return lambda c, chk, q: name in c.open


def _differs(name: str) -> Callable[[_Cmp, object, Query], bool]:
    return lambda c, chk, q: name in c.differs


def _shows_range(c: _Cmp, chk, q: Query) -> bool:
    # settles' range test (the claim read with its comparator's witness). SQL's _rng is
    # TRUE only where neither is a range and FALSE only where the claim is a range and the
    # figure is not: the same answer for any comparator, so it reads this too
    f = q.figure
    return range_shown(replace(f, comparator="~" if f.comparator == "~" else "="), c.claim)


# The SQL columns are check_sql's (``_Ctx.relation``): o_*/d_* "open"/"differs" per
# condition, _subj the subject named, _sc the denominator's class, _meets/_refutes/_same/
# _point/_rng the value tests. Conditions SQL does not restate are compared in Python
# (``check_sql._query_ok``), so the two "other conditions" atoms list all SQL knows.
ATOMS: dict[str, Atom] = {
    "open": Atom("(o_model OR o_hw OR o_eng OR o_conc OR o_stat OR o_phase OR o_label "
                 "OR NOT _subj)", lambda c, chk, q: bool(set(c.open) - {_SIZE})),
    "differs": Atom("(d_model OR d_hw OR d_eng OR d_conc OR d_stat OR d_phase OR d_tk "
                    "OR d_label)", lambda c, chk, q: bool(set(c.differs) - {_SIZE})),
    "reversed": Atom("FALSE", lambda c, chk, q: c.reversed),    # comparisons: Python only
    "open_model": Atom("o_model", _opens("model")),
    "differs_model": Atom("d_model", _differs("model")),
    "differs_hardware": Atom("d_hw", _differs("hardware")),
    "differs_engine": Atom("d_eng", _differs("engine")),
    "differs_concurrency": Atom("d_conc", _differs("concurrency")),
    "differs_statistic": Atom("d_stat", _differs("statistic")),
    "open_label": Atom("o_label", _opens("label")),
    "differs_label": Atom("d_label", _differs("label")),
    "open_subject": Atom("(NOT _subj)",
                         lambda c, chk, q: bool(q.subject_text) and q.subject_text in c.open),
    "open_size": Atom("o_size", _opens(_SIZE)),
    "differs_size": Atom("d_size", _differs(_SIZE), late=True),
    "scope_ok": Atom("(_sc IN ('same', 'free'))", lambda c, chk, q: c.scope in ("same", "free")),
    "scope_differs": Atom("(_sc = 'differs')", lambda c, chk, q: c.scope == "differs"),
    "scope_stated": Atom("(key_scope IS NOT NULL)",
                         lambda c, chk, q: scope_key(c.claim.scope) is not None),
    "meets": Atom("_meets", lambda c, chk, q: c.meets, late=True, window="full"),
    "refutes": Atom("_refutes", lambda c, chk, q: c.refutes, late=True),
    "same_number": Atom("_same", lambda c, chk, q: chk._same_number(q.figure, c.claim),
                        late=True, window="point"),
    "states_number": Atom("_point", lambda c, chk, q: _point_matches(q.figure, c.claim),
                          late=True, window="point"),
    "range_shown": Atom("_rng", _shows_range, late=True),
}


# --- expressions over atoms --------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    """AND / OR / NOT over atoms, read as SQL or evaluated (Kleene logic: None unknown)."""

    op: str                 # "atom", "and", "or", "not"
    args: tuple

    def __and__(self, other: "Expr") -> "Expr":
        return Expr("and", (self, other))

    def __or__(self, other: "Expr") -> "Expr":
        return Expr("or", (self, other))

    def __invert__(self) -> "Expr":
        return Expr("not", (self,))

    def sql(self, atom: Callable[[str], str]) -> str:
        if self.op == "atom":
            return atom(self.args[0])
        if self.op == "not":
            return f"(NOT {self.args[0].sql(atom)})"
        return "(" + f" {self.op.upper()} ".join(a.sql(atom) for a in self.args) + ")"

    def value(self, atom: Callable[[str], bool | None]) -> bool | None:
        """Three-valued, short-circuit (exact for two-valued atoms, Kleene for None)."""
        if self.op == "atom":
            return atom(self.args[0])
        if self.op == "not":
            v = self.args[0].value(atom)
            return None if v is None else not v
        stop = self.op == "or"          # OR stops at TRUE, AND at FALSE
        unknown = False
        for a in self.args:
            v = a.value(atom)
            if v is stop:
                return stop
            unknown = unknown or v is None
        return None if unknown else not stop


A = {name: Expr("atom", (name,)) for name in ATOMS}

# on exactly the quantity: no condition open or different, the same denominator
EXACT = (~A["open"] & ~A["open_size"] & ~A["differs"] & ~A["differs_size"] & A["scope_ok"]
         & ~A["reversed"])
POOL = A["scope_ok"] & ~A["differs"] & ~A["open"]        # model size aside
SUBJECT_DIFFERS = A["differs_model"] | A["differs_hardware"] | A["differs_engine"]
DIFFERS = A["differs"] | A["differs_size"]
# ``Checker._near_one``: not exact, on the same subject; the same number in another
# denominator (a metric mismatch), else a value that meets the claim under another label,
# else conditions left open
_GATE = ~EXACT & ~SUBJECT_DIFFERS
_MISMATCH = A["scope_differs"] & ~DIFFERS & A["same_number"]
_LABEL = A["differs_label"] | (A["open_label"] & ~DIFFERS)

PREDICATES: dict[str, Expr] = {
    "supports": EXACT & A["meets"],                                  # Checker._check
    "contradicts": EXACT & A["refutes"],
    "exact": EXACT,
    "unknown": A["open_size"] & A["meets"],                          # _unproven_text
    "pool": POOL,
    "same_model": A["scope_ok"] & ~A["differs_model"] & ~A["open_model"],
    "scope_ok": A["scope_ok"],
    "inside": POOL & ~A["open_size"] & ~A["differs_size"],
    "settle": (A["scope_stated"] & A["states_number"] & A["range_shown"]   # settles
               & ~A["open_subject"]
               & ~(SUBJECT_DIFFERS | A["differs_concurrency"] | A["differs_statistic"]
                   | A["differs_size"])),
    "by_scope": A["scope_stated"] & ~(SUBJECT_DIFFERS | A["differs_size"]),   # _unscoped
    "near_mismatch": _GATE & _MISMATCH,                               # _near_one
    "near_label": _GATE & ~_MISMATCH & A["meets"] & _LABEL,
    "near_partial": (_GATE & ~_MISMATCH & A["meets"] & ~_LABEL & ~DIFFERS
                     & (A["open"] | A["open_size"]) & ~A["scope_differs"] & ~A["open_model"]),
}


def column(name: str) -> str:
    """The candidate relation's column holding atom ``name``."""
    return f"a_{name}"


PRED: dict[str, str] = {n: e.sql(column) for n, e in PREDICATES.items()}


def needs(name: str) -> str:
    """SQL over the columns known before the value tests (atoms written out): FALSE only
    where ``name`` is FALSE whatever the numbers say."""
    return PREDICATES[name].sql(lambda a: "NULL::BOOLEAN" if ATOMS[a].late else ATOMS[a].sql)


def holds(name: str, c: _Cmp, chk, q: Query) -> bool:
    """The predicate in Python, on ``Checker.compare``'s result."""
    return bool(PREDICATES[name].value(lambda a: ATOMS[a].py(c, chk, q)))


def _false_with(name: str, false: set[str]) -> bool:
    """Is ``name`` FALSE wherever the atoms ``false`` are, whatever the others are?"""
    return PREDICATES[name].value(lambda a: False if a in false else None) is False


def window(name: str) -> str | None:
    wins = sorted({a.window for a in ATOMS.values() if a.window})
    got = [w for w in wins if _false_with(name, {n for n, a in ATOMS.items() if a.window == w})]
    return got[0] if got else None


def needs_scope(name: str) -> bool:
    return _false_with(name, {"scope_ok"})
