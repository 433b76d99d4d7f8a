"""`claims check` on the warehouse: the candidate figures are chosen in SQL.

``Checker`` (check.py) compares a claim with every primary figure of its family in
Python; at a million claims that meant building ~550k ``Claim`` objects and ~1M
consistency calls. ``SqlChecker`` runs the same ``Checker`` code, with the same verdicts
and evidence, over the few figures that can change its answer, and DuckDB finds those.

Every part of ``Checker.compare`` becomes a column that is TRUE, FALSE or NULL
("cannot tell in SQL"):

* conditions on names (model, hardware, engine, statistic, phase, token kind, unit,
  denominator) compare the keys stored with each claim (``link.facts``: the functions
  ``Checker`` reads); where the claim's key matches a figure's by a rule rather than by
  equality (a model's forms, hardware families, concurrency), the family's *distinct*
  stored keys are classified by that rule in Python and handed to DuckDB as small lookup
  lists, so they are exact;
* value comparisons (``consistency.consistent``) are written out in SQL with the same
  float operations over each figure's stored intervals (``witness_*``, ``full_*``,
  ``fig_p``: computed once from consistency's own table, ``ROUNDING``), and a result within
  1e-11 (relative) of the decision boundary is NULL; the decision over two intervals
  (``_cons_layers``) is the one part written twice, see docs/checking.md;
* a model size comes from the same lookup ``Record.params_of`` makes (own parameters
  claim, same document, ``model_params``, any primary document), in SQL;
* a money label is read from the sentence in Python only: NULL.

The predicates the verdict code applies ("exact and meets") are written once, in
``check_predicates``, over named atoms (one SQL column and one Python reading each).
Combined with SQL's three-valued AND/OR/NOT (Kleene logic), a predicate is TRUE only where
Python would say True and FALSE only where Python would say False. So ``pred IS NOT FALSE`` is a superset of the figures Python accepts, and the
rows fetched are: the first k TRUE rows in the order ``Checker`` walks its figures (or the
best by value), and every NULL row, which Python then decides. Counts ("5688 more primary
figures agree") are SQL's TRUE count plus the NULL rows Python accepts.

What ``Checker`` needs of each list of figures, and so what is fetched (everything else
only ever adds figures that the verdict code reads past):

* supports: the first 10 (the evidence shows 10) and their number;
* with fewer than 10 supports: the first 10 of each kind of near figure (partial, label
  mismatch, metric mismatch) and of the same number in another count family;
* with none: the first 10 refuting figures and their number (every figure on exactly the
  quantity when a point claim names a subject: they must agree among themselves), and for
  the "unproven" text the best figure of each pool by value (or the closest), the lowest
  and highest on the quantity, the best within a model-size condition and a second model
  there, and the number of figures with no model size that would meet the claim;
* with no denominator: the figures that would settle it (the first 10, the first 4 per
  denominator) and the highest figure per denominator.

Each query first drops figures that a necessary condition of every predicate it asks
about rules out, on the stored columns alone: a value window around the claim's number,
the denominator, the name classes. Only then are the intervals computed, and only the
chosen figures (and the parameters claims that give their model sizes) are read in full,
by rowid. A step asks all its questions in one query; a claim takes 4-8 queries.

``tests/test_check.py`` holds the SQL columns to the Python comparison figure by figure,
the early filters to keeping every figure Python accepts, and the verdicts to those of
``check_loaded`` (the whole family compared in Python).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pipeline.checker import fold_name, is_range, name_pattern, phase_must_be_stated, product_pattern
from pipeline.checker import (ACHIEVED_FAMILIES, COUNT_FAMILIES, LOWER, states_settings, MAX_EVIDENCE, MISMATCH_MIN_VALUE, names_subject,
                            SCOPED_FAMILIES, UPPER, Checker, Query, Verdict, _Cmp,
                            _distinctive, _model_match, check_loaded,
                            loaded_families)
from pipeline.check_predicates import ATOMS, PRED, column, holds, needs, needs_scope, window
from pipeline.link.consistency import ROUNDING, TRUNCATED, Figure, generous_interval, rounding_interval
from pipeline.link.keys import (COMPARED_FAMILIES, hardware_relation, model_key, same_setting,
                                token_kind_key)
from pipeline.model import Claim
from pipeline.record import DOC_INFO_COLS, INERT_STANCES, UNCHECKED_STANCES, DocInfo, Record
from pipeline.link.facts import FACT_COLUMNS, full_figure, witness_figure
from pipeline.store import CLAIM_COLUMNS, Store

_ID = CLAIM_COLUMNS.index("id")
_PLAIN_COLS = ", ".join(f'"{c}"' for c in CLAIM_COLUMNS + FACT_COLUMNS)
# what the comparison reads of a claim (the scan skips sentences and the rest)
_NARROW = "c.rowid AS _rid, " + ", ".join(f'c."{c}"' for c in (
    "id", "doc_id", "start", "end", "family", "value", "low", "high", "comparator", "precision",
    "scope", "key_scope", "key_statistic", "key_phase", "key_token_kind", "key_engine", "model",
    "key_model", "key_hw_count", "key_hw", "fig_p", "witness_lo", "witness_hi", "witness_top",
    "full_lo", "full_hi", "full_top", "model_params", "hardware", "hw_count",
    "accelerator", "engine", "concurrency", "inherited"))
_ORDER = '_pub IS NULL, _pub, _path, "start", doc_id, "end", id'   # Checker.primaries order
_COMPARATORS = ("=", "~", ">", ">=", "<", "<=")
_ACTIVE = ("(c.stance IS NULL OR c.stance NOT IN ("
           + ", ".join(f"'{s}'" for s in sorted(INERT_STANCES)) + "))")
# the figures a verdict may rest on (``Checker.primaries``)
_CHECKED = ("(c.stance IS NULL OR c.stance NOT IN ("
            + ", ".join(f"'{s}'" for s in sorted(UNCHECKED_STANCES)) + "))")
REL_TOL = 1e-11        # |margin| below this (relative) is left to Python
STRICT = False         # tests: an SQL answer Python contradicts raises instead of falling back


class Unsound(Exception):
    """SQL decided a figure that Python decides the other way (a bug): fall back."""


# --- SQL text helpers --------------------------------------------------------------------

class _Params:
    """Named query parameters: each value once, as $p0, $p1, ..."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}

    def __call__(self, value: object) -> str:
        name = f"p{len(self.values)}"
        self.values[name] = value
        return "$" + name


def _d(x: float) -> str:
    """A float literal DuckDB reads as exactly that DOUBLE (a bare 0.05 is a DECIMAL)."""
    return f"CAST('{float(x)!r}' AS DOUBLE)"


def _fin(x: str) -> str:
    return f"(CASE WHEN isfinite({x}) THEN abs({x}) ELSE 0.0 END)"


def _list(p: _Params, values: list, typ: str) -> str:
    return f"CAST({p(list(values))} AS {typ}[])"


def _differs(col: str, qv: str | None, p: "_Params") -> str:
    """SQL: the stored key in ``col`` is stated and is not the claim's ``qv`` (FALSE where
    the claim states none)."""
    return "FALSE" if not qv else f"coalesce({col} <> CAST({p(qv)} AS VARCHAR), FALSE)"


def _code(col: str, classes: dict[str, list], null_code: str | None, p: _Params,
          typ: str = "VARCHAR") -> str:
    """A column's class from lists of its stored values; a value in no list is NULL."""
    out = [f"CASE WHEN {col} IS NULL THEN " + (f"'{null_code}'" if null_code else "NULL")]
    for code, values in classes.items():
        if values:
            out.append(f"WHEN list_contains({_list(p, values, typ)}, {col}) THEN '{code}'")
    return " ".join(out) + " END"


@dataclass
class _Side:
    """One figure in SQL: column names of its value, precision (``Figure.p``), comparator,
    rounding interval (r0, r1), generous upper end (g1; the lower end is r0), magnitude,
    and a flag for rows SQL cannot judge (missing or non-finite numbers)."""

    v: str
    p: str
    cmp: str
    r0: str
    r1: str
    g1: str
    mag: str
    bad: str


def _cons_layers(x: str, a: Figure, b: _Side) -> list[list[str]]:
    """``consistency.consistent(a, b)`` as columns ``x_*`` in four layers; the last is
    ``x``: TRUE, FALSE, or NULL within REL_TOL of the boundary. ``a`` is a constant.

    This restates ``consistent_bounds``' decision (which pair of intervals, strict or not,
    the 1e-9 slack) rather than generating it: SQL must add a NULL band at each of its
    comparisons, the precision branch included, and a form both could read would put that
    band, or a function call per operation, into the linker's hot path. The intervals
    themselves are the figures' stored facts (``link.facts``)."""
    pa = a.p
    ra, ga = rounding_interval(a), generous_interval(a)      # ga[0] == ra[0]
    scale = max([1.0, abs(a.value), abs(pa)] + [abs(v) for v in (*ra, *ga) if math.isfinite(v)])
    m1 = f"({_d(pa)} - {b.p} * {_d(1.000001)})"
    m2 = f"({b.p} - {_d(pa)} * {_d(1.000001)})"
    tolp = f"({_d(1e-12)} * greatest(abs({_d(pa)}), abs({b.p})))"
    tol = f"({_d(REL_TOL)} * greatest({_d(scale)}, {b.mag}))"
    eq = "TRUE" if a.comparator == "=" else "FALSE"

    def tv(m: str) -> str:
        """m > 0 as TRUE, FALSE, or NULL when within tol of 0 (Python decides)."""
        return (f"(CASE WHEN isnan({m}) THEN NULL WHEN {m} > {tol} THEN TRUE "
                f"WHEN {m} < -{tol} THEN FALSE END)")

    return [
        [f"(CASE WHEN {b.bad} THEN NULL WHEN isnan({m1}) OR isnan({m2}) OR abs({m1}) <= {tolp} "
         f"OR abs({m2}) <= {tolp} THEN NULL WHEN {m1} > 0 THEN 1 WHEN {m2} > 0 THEN 2 ELSE 3 END) "
         f"AS {x}_br",
         f"greatest({_d(ra[0])}, {b.r0}) AS {x}_lo"],
        [f"(CASE {x}_br WHEN 1 THEN least({_d(ga[1])}, {b.r1}) WHEN 2 THEN least({_d(ra[1])}, {b.g1}) "
         f"ELSE least({_d(ra[1])}, {b.r1}) END) AS {x}_hi"],
        [f"({_d(1e-9)} * greatest({_fin(x + '_lo')}, {_fin(x + '_hi')}, {_d(1.0)})) AS {x}_eps"],
        [f"(CASE WHEN {x}_br IS NULL THEN NULL "
         f"WHEN {x}_br = 3 AND {eq} AND {b.cmp} = '=' THEN "
         f"({tv(f'(({x}_hi - {x}_eps) - {x}_lo)')} OR {tv(f'({x}_eps - abs({_d(a.value)} - {b.v}))')}) "
         f"ELSE {tv(f'({x}_hi + {x}_eps - {x}_lo)')} END) AS {x}"],
    ]


def _window(a: Figure) -> str:
    """A necessary condition, on the stored columns, for consistent(a, witness of p): the
    figure's generous interval lies within [lo - D, hi + D], D = 2|p| + 5% of its size, and
    must reach a's generous interval (give or take far more than consistent's 1e-9), or
    its value equals a's (consistent's strict test compares values, which need not lie
    between low and high). A row it drops is one Python's comparison rejects; a row it
    cannot judge passes."""
    a0, a1 = generous_interval(a)
    lo = "least(coalesce(c.low, c.value), coalesce(c.high, c.value))"
    hi = "greatest(coalesce(c.low, c.value), coalesce(c.high, c.value))"
    p = "abs(c.fig_p)"
    size = f"greatest(abs({lo}), abs({hi}))"
    reach = f"(2 * {p} + {_d(0.05)} * {size})"
    slack = (f"({_d(1e-6)} * ({_d(1 + abs(a.value) + sum(abs(x) for x in (a0, a1) if math.isfinite(x)))} "
             f"+ {size} + {p} + abs(c.value)))")
    conds = []
    if math.isfinite(a1):
        conds.append(f"{lo} - {reach} <= {_d(a1)} + {slack}")
    if math.isfinite(a0):
        conds.append(f"{hi} + {reach} >= {_d(a0)} - {slack}")
    same = f"abs(c.value - {_d(a.value)}) <= {slack}"
    return f"coalesce(({' AND '.join(conds) or 'TRUE'}) OR {same}, TRUE)"


def _layer_ctes(src: str, name: str, tests: list[list[list[str]]]) -> list[str]:
    """CTEs name1..name4 over ``src``, layer i holding layer i of every consistency test."""
    out = []
    for i in range(4):
        cols = ", ".join(col for t in tests for col in t[i])
        out.append(f"{name}{i + 1} AS (SELECT *{', ' + cols if cols else ''} FROM "
                   f"{src if i == 0 else name + str(i)})")
    return out


def _default_p(value: str, precision: str) -> str:
    """``Figure.p``: the stated precision, else 0.5 for a whole number, else NULL."""
    return (f"(CASE WHEN {precision} IS NOT NULL THEN {precision} "
            f"WHEN isfinite({value}) AND {value} = trunc({value}) THEN {_d(0.5)} END)")


class _X(str):
    """A number in SQL, written out by Python arithmetic: consistency's interval rule
    (``ROUNDING``) applied to column expressions gives their SQL."""

    @staticmethod
    def of(x) -> "_X":
        return x if isinstance(x, _X) else _X(_d(x))

    def __add__(self, o): return _X(f"({self} + {_X.of(o)})")
    def __radd__(self, o): return _X(f"({_X.of(o)} + {self})")
    def __sub__(self, o): return _X(f"({self} - {_X.of(o)})")
    def __rsub__(self, o): return _X(f"({_X.of(o)} - {self})")
    def __mul__(self, o): return _X(f"({self} * {_X.of(o)})")
    def __rmul__(self, o): return _X(f"({_X.of(o)} * {self})")
    def __abs__(self): return _X(f"abs({self})")


def _greatest(*xs) -> _X:
    return _X(f"greatest({', '.join(map(_X.of, xs))})")


_BAD = ("(_pb IS NULL OR value IS NULL OR NOT isfinite(value) OR NOT isfinite(_pb) "
        "OR NOT isfinite(coalesce(low, value)) OR NOT isfinite(coalesce(high, value)))")
# a figure's intervals are its stored facts (link.facts: witness_figure, full_figure)
WITNESS = _Side("value", "_pb", "_cw", "witness_lo", "witness_hi", "witness_top", "_bmag", "_bad")
FULL = _Side("value", "_pb", "_cf", "full_lo", "full_hi", "full_top", "_bmag",
             f"(_bad OR _cf NOT IN ({', '.join(repr(c) for c in _COMPARATORS)}))")
SIZE = _Side("_psize", "_spb", "'='", "_sr0", "_sr1", "_sg1", "_smag",
             "(_spb IS NULL OR NOT isfinite(_psize) OR NOT isfinite(_spb))")


def _finite_figure(f: Figure) -> bool:
    xs = [f.value, f.low, f.high, f.precision]
    return all(x is None or (isinstance(x, (int, float)) and math.isfinite(x)) for x in xs) \
        and isinstance(f.value, (int, float)) and f.p > 0


# --- the record the checker sees: the figures fetched so far ------------------------------

class _Partial(Record):
    """A Record holding only the claims fetched, kept in Record.load's order."""

    def add(self, rows: list[tuple]) -> list[Claim]:
        """The claims of these rows (``CLAIM_COLUMNS + FACT_COLUMNS``) not held yet, added."""
        new = [self.add_row(r) for r in rows if r[_ID] not in self.claims]
        items = sorted(self.claims.values(), key=lambda c: (c.doc_id, c.start, c.end, c.id))
        self.claims = {c.id: c for c in items}
        if hasattr(self, "_pidx"):
            del self._pidx
        return new


# --- one claim checked: its SQL, its fetched figures, its counts ----------------------------

class _Ctx:
    """SQL for one query (a claim read, or its settled or positive form)."""

    def __init__(self, chk: "SqlChecker", q: Query) -> None:
        self.chk, self.q = chk, q
        f = q.figure
        assert f is not None
        self.f = f
        self.counts: dict[str, int] = {}
        self.rows: list[Claim] | None = None
        self.rows_by_id: dict[str, Claim] = {}
        self.cross: list | None = None
        self.cross_rows: list[str] | None = None
        self.mode = "check"
        self.cross_needed = f.family in COUNT_FAMILIES and abs(f.value) >= MISMATCH_MIN_VALUE
        self._profiled = False
        self._table: str | None = None

    # --- what the family holds, classified by the Python key functions ------------------
    def _profile(self) -> None:
        if self._profiled:
            return
        self._profiled = True
        f, store = self.f, self.chk.store
        # the claim's own keys, as Checker.compare reads them (link.facts)
        fk = self.chk.facts(f)
        self.qk, self.qh, self.qe, self.qstat = fk.model, fk.hw, fk.engine, fk.statistic
        self.qphase, self.qtk, self.qscope = fk.phase, fk.token_kind, fk.scope
        self.soft = bool(f.inherited)
        # the distinct stored values the key functions must classify: one scan of the family
        sets = []
        if f.concurrency is not None:
            sets.append(("c", ("concurrency",)))
        if self.qh is not None:
            sets.append(("h", ("key_hw_count", "key_hw")))
        cols = list(dict.fromkeys(c for _, cs in sets for c in cs))
        masks = {sum(1 << (len(cols) - 1 - i) for i, c in enumerate(cols) if c not in cs): k
                 for k, cs in sets}
        masks[(1 << len(cols)) - 1] = "bad"
        bad = "count(*) FILTER (WHERE value IS NULL OR isnan(value))"
        if sets:
            _, rows = store.query(
                f"SELECT grouping_id({', '.join(cols)}), {', '.join(cols)}, {bad} FROM claims "
                "WHERE family = $fam GROUP BY GROUPING SETS "
                f"({', '.join('(' + ', '.join(cs) + ')' for _, cs in sets)}, ())",
                {"fam": f.family})
        else:
            _, rows = store.query(f"SELECT 0, {bad} FROM claims WHERE family = $fam",
                                  {"fam": f.family})
        got: dict[str, list[dict]] = {}
        for r in rows:
            got.setdefault(masks[r[0]], []).append(dict(zip(cols + ["bad"], r[1:])))
        if got["bad"][0]["bad"]:
            raise _Fallback("values SQL cannot order as Python does")
        # the distinct model keys of the family, each classified by Checker's own rule
        self.models = []
        if self.qk is not None:
            _, mrows = store.query("SELECT DISTINCT key_model FROM claims WHERE family = $fam "
                                   "AND key_model IS NOT NULL", {"fam": f.family})
            self.models = [r[0] for r in mrows]

        def vals(k: str, col: str) -> list:
            return [r[col] for r in got.get(k, []) if r[col] is not None]
        self.concs = vals("c", "concurrency")
        self.hws = [(r["key_hw_count"], r["key_hw"]) for r in got.get("h", [])]

    # --- the candidate relation ---------------------------------------------------------
    def relation(self, p: _Params, names: list[str] | None = None, cross: bool = False,
                 early: bool = True) -> str:
        """WITH ... cand AS (...): the figures ``Checker._candidates`` walks (with ``cross``:
        those ``_cross_family`` walks), each part of ``Checker.compare`` a three-valued
        column. ``names``: the predicates the query asks about; figures for which a
        necessary condition of every one of them is FALSE are dropped early (unless not
        ``early``: the tests compare every figure's columns with Python)."""
        self._profile()
        f, q, chk = self.f, self.q, self.chk
        ctes: list[str] = []
        joins = ""
        soft = f"({'TRUE' if self.soft else 'FALSE'} OR coalesce(b.inherited, FALSE))"
        if self.qk is not None:
            codes = ["ok" if _model_match(self.qk, k) else "bad" for k in self.models]
            # a last row of NULLs gives the lists their types even when empty; NULL never joins
            ctes.append(f"mm AS (SELECT unnest({_list(p, self.models + [None], 'VARCHAR')}) AS key, "
                        f"unnest({_list(p, codes + [None], 'VARCHAR')}) AS code)")
            joins += " LEFT JOIN mm cm ON cm.key = b.key_model"
        primary = "d.role = 'primary'"
        if chk.extra_primary:
            primary = (f"({primary} OR list_contains("
                       f"{_list(p, sorted(chk.extra_primary), 'VARCHAR')}, d.id))")
        if cross:
            where = (f"list_contains({_list(p, sorted(COUNT_FAMILIES - {f.family}), 'VARCHAR')}, "
                     "c.family)")
        else:
            # the claim's family and unit (``Checker._candidates``: the stored unit key)
            where = f"c.family = {p(f.family)} AND c.key_unit = {p(chk.facts(f).unit)}"
        windows = ([witness_figure(f)] if cross else self.windows(names or [])) if early else None
        if windows:
            where += " AND (" + " OR ".join(_window(a) for a in windows) + ")"
        if not cross and names and self.qscope is not None and all(map(needs_scope, names)):
            # each predicate asked needs the same denominator (or, outside the throughput
            # families, none stated): a filter the scan applies itself
            where += f" AND {self.scope_sql('c.key_scope', p)[1]}"
        subj = "TRUE"
        if q.subject_text:
            # ``check._names_in``: the name, folded, in the figure's sentence or its
            # document's title, publisher or path
            pat = p(name_pattern(q.subject_text))
            subj = " OR ".join(
                f"regexp_matches(regexp_replace(lower(coalesce({col}, '')), '[\\s_-]+', ' ', 'g'), "
                f"{pat})" for col in ("c.sentence", "d.title", "d.publisher", "d.path"))
            prod = product_pattern(q.subject_text)
            if prod:
                # ``checker.owns_product``: one of the owner's products
                subj += " OR " + " OR ".join(f"regexp_matches(coalesce({col}, ''), {p(prod)})"
                                             for col in ("c.accelerator", "c.hardware", "c.engine"))
            # ``checker._ends_with_engine``: the figure's engine is the subject's last words
            fe = "regexp_replace(lower(c.engine), '[\\s_-]+', ' ', 'g')"
            fs = p(fold_name(q.subject_text))
            subj += (f" OR (c.engine IS NOT NULL AND c.engine <> '' AND ({fe} = {fs} "
                     f"OR suffix({fs}, ' ' || {fe})))")
        ctes.append(f"base AS (SELECT {_NARROW}, d.published AS _pub, d.path AS _path, "
                    f"({subj}) AS _subj FROM claims c "
                    f"JOIN documents d ON d.id = c.doc_id WHERE {where} AND {primary} "
                    f"AND {_CHECKED})")
        # the figure states the claim's number (``check._point_matches``): it settles a
        # denominator, and (from 10 up) marks a metric mismatch
        same = _cons_layers("_cs", witness_figure(f), WITNESS)
        same_sql = ("FALSE" if abs(f.value) < MISMATCH_MIN_VALUE
                    else f"(abs(value) >= {_d(MISMATCH_MIN_VALUE)} AND _cs)")
        if cross:
            meq = "TRUE"
            if f.model:         # ``Checker._cross_family``: the same model key
                meq = f"(b.key_model IS NOT DISTINCT FROM CAST({p(self.qk)} AS VARCHAR))"
            ctes.append(f"c1 AS (SELECT b.*, {meq} AS _meq FROM base b{joins})")
            ctes += self._arith("c1", [same])
            ctes.append(f"cand AS (SELECT *, {same_sql} AND _meq AS _cross FROM k4)")
            return "WITH " + ",\n".join(ctes)
        cols: list[str] = []
        # model
        if self.qk is not None:
            mc = "(CASE WHEN b.key_model IS NULL THEN 'none' ELSE cm.code END)"
            cols += [f"({mc} = 'none' OR ({mc} = 'bad' AND {soft})) AS o_model",
                     f"({mc} = 'bad' AND NOT {soft}) AS d_model"]
        else:
            cols += ["FALSE AS o_model", "FALSE AS d_model"]
        # hardware
        if self.qh is not None and not self.hws:
            cols += ["NULL::BOOLEAN AS o_hw", "NULL::BOOLEAN AS d_hw"]
        elif self.qh is not None:
            # each stored (count, accelerator) key classified by Checker's own rule
            codes = [hardware_relation(self.qh, (n, acc) if acc is not None else None)
                     for n, acc in self.hws]
            ctes.append("hm AS (SELECT unnest({}) AS n, unnest({}) AS a, unnest({}) AS code)".format(
                _list(p, [n for n, _ in self.hws], "BIGINT"),
                _list(p, [a for _, a in self.hws], "VARCHAR"), _list(p, codes, "VARCHAR")))
            joins += (" LEFT JOIN hm ON hm.n IS NOT DISTINCT FROM b.key_hw_count"
                      " AND hm.a IS NOT DISTINCT FROM b.key_hw")
            cols += [f"(hm.code = 'open' OR (hm.code = 'bad' AND {soft})) AS o_hw",
                     f"(hm.code = 'bad' AND NOT {soft}) AS d_hw"]
        else:
            cols += ["FALSE AS o_hw", "FALSE AS d_hw"]
        # engine, statistic (their stored keys): open when the figure leaves them out
        for name, qv, col in (("eng", self.qe, "b.key_engine"), ("stat", self.qstat, "b.key_statistic")):
            if qv is None:
                cols += [f"FALSE AS o_{name}", f"FALSE AS d_{name}"]
            else:
                cols += [f"({col} IS NULL) AS o_{name}", f"{_differs(col, qv, p)} AS d_{name}"]
        if f.concurrency is not None:
            a = f.concurrency
            cl = {"ok": [], "bad": []}
            for v in self.concs:
                cl["ok" if same_setting(a, v) else "bad"].append(v)
            code = _code("b.concurrency", cl, "none", p, "DOUBLE")
            cols += [f"(({code}) = 'none') AS o_conc", f"(({code}) = 'bad') AS d_conc"]
        else:
            cols += ["FALSE AS o_conc", "FALSE AS d_conc"]
        # phase and token kind (stated, or implied by the phase): differ where both state one
        cols.append(f"{_differs('b.key_phase', self.qphase, p)} AS d_phase")
        # a latency phase the figure leaves unsaid is open (``Checker.compare``)
        cols.append(f"({'b.key_phase IS NULL' if phase_must_be_stated(f) else 'FALSE'}) AS o_phase")
        cols.append(f"{_differs('b.key_token_kind', self.qtk, p)} AS d_tk")
        # money label: read from the sentence, in Python
        if q.label is None:
            cols += ["FALSE AS o_label", "FALSE AS d_label"]
        elif f.family != "money":
            cols += ["TRUE AS o_label", "FALSE AS d_label"]
        else:
            cols += ["NULL::BOOLEAN AS o_label", "NULL::BOOLEAN AS d_label"]
        cols.append(f"{self.scope_sql('b.key_scope', p)[0]} AS _sc")
        # model size: Record.params_of in SQL (the figure's own parameters claim, else one
        # on its model in its document, else its model_params, else one in a primary
        # document; the first by implied, inherited, start, then Record.load's order)
        if q.size is not None:
            ctes.append(
                "prm AS (SELECT c.doc_id, c.key_model AS key, c.value, c.precision, c.implied, "
                f"c.inherited, c.start, c.\"end\", c.id, coalesce({primary}, FALSE) AS prim "
                "FROM claims c LEFT JOIN documents d ON d.id = c.doc_id "
                f"WHERE c.family = 'parameters' AND {_ACTIVE} AND c.key_model IS NOT NULL)")
            ctes.append("sd AS (SELECT doc_id, key, arg_min({'v': value, 'p': precision}, "
                        "{'a': implied, 'b': inherited, 's': start, 'e': \"end\", 'i': id}) AS best "
                        "FROM prm GROUP BY doc_id, key)")
            ctes.append("aw AS (SELECT key, arg_min({'v': value, 'p': precision}, "
                        "{'a': implied, 'b': inherited, 's': start, 'd': doc_id, 'e': \"end\", "
                        "'i': id}) AS best FROM prm WHERE prim GROUP BY key)")
            joins += (" LEFT JOIN sd ON sd.doc_id = b.doc_id AND sd.key = b.key_model"
                      " LEFT JOIN aw ON aw.key = b.key_model")
            own = "(b.family = 'parameters' AND coalesce(b.model, '') <> '')"
            mp = "(b.model_params IS NOT NULL AND b.model_params <> 0)"
            cols += [
                f"CASE WHEN {own} THEN b.value WHEN b.key_model IS NULL THEN "
                f"(CASE WHEN {mp} THEN b.model_params END) WHEN sd.best IS NOT NULL THEN sd.best.v "
                f"WHEN {mp} THEN b.model_params WHEN aw.best IS NOT NULL THEN aw.best.v END AS _psize",
                f"CASE WHEN {own} THEN b.precision WHEN b.key_model IS NULL THEN NULL "
                f"WHEN sd.best IS NOT NULL THEN sd.best.p WHEN {mp} THEN NULL "
                f"WHEN aw.best IS NOT NULL THEN aw.best.p END AS _pprec"]
            osize = "(_psize IS NULL)"
        else:
            osize = "FALSE"
        ctes.append(f"c1 AS (SELECT b.*, {', '.join(cols)} FROM base b{joins})")
        ctes.append(f"c2 AS (SELECT *, {osize} AS o_size FROM c1)")
        need = self.necessary(names) if early else "TRUE"
        ctes.append(f"c3 AS (SELECT * FROM c2 WHERE ({need}) IS NOT FALSE)")
        # the numbers
        full = full_figure(f)
        tests = [_cons_layers("_cm", full, WITNESS), _cons_layers("_cq", full, FULL)]
        src = "c3"
        if q.size is not None:
            ctes.append(f"s1 AS (SELECT *, {_default_p('_psize', '_pprec')} AS _spb FROM c3)")
            # a model size is a point ("=")
            r0, r1 = ROUNDING["="](_X("_psize"), _X("_psize"), _X("_spb"), _greatest)
            ctes.append(f"s2 AS (SELECT *, {r0} AS _sr0, {r1} AS _sr1, "
                        f"{r1 + _X('_spb') if '=' in TRUNCATED else r1} AS _sg1, "
                        f"greatest({_fin('_psize')}, {_fin('_spb')}) AS _smag FROM s1)")
            tests.append(_cons_layers("_cz", q.size, SIZE))
            src = "s2"
            dsize = "(CASE WHEN _psize IS NULL THEN FALSE ELSE NOT _cz END)"
        else:
            dsize = "FALSE"
        tests.append(same)
        ctes += self._arith(src, tests)
        # a point claim is not shown by a figure rounded more coarsely (``Checker.compare``)
        meets_sql = "_cm"
        if (f.comparator or "=") == "=":
            coarse = f"(fig_p > {_d(full_figure(f).p * 1.000001)})"
            meets_sql = f"(_cm AND NOT {coarse})"
        # a range against a point, either way round: decided by ``range_shown`` in Python
        # (NULL), the rest known in SQL
        rng = ("(CASE WHEN low IS NULL OR high IS NULL THEN FALSE END)" if is_range(f)
               else "(CASE WHEN low IS NULL OR high IS NULL THEN TRUE END)")
        if is_range(f) or (f.comparator or "=") in ("=", "~"):
            meets_sql = f"({meets_sql} AND {rng})"
        ctes.append(
            f"c4 AS (SELECT *, {dsize} AS d_size, {meets_sql} AS _meets, (NOT _cq) AS _refutes, "
            f"{same_sql} AS _same, _cs AS _point, {rng} AS _rng FROM k4)")
        # the atoms the predicates are written in (check_predicates), one column each
        atoms = ", ".join(f"{a.sql} AS {column(n)}" for n, a in ATOMS.items())
        ctes.append(f"cand AS (SELECT *, {atoms} FROM c4)")
        return "WITH " + ",\n".join(ctes)

    def scope_sql(self, col: str, p: _Params) -> tuple[str, str]:
        """The class ``Checker.compare`` gives a figure's denominator (its key in column
        ``col``): same | differs | open | free; and the condition that it is same or free,
        as a filter the scan can push down."""
        if self.qscope is None:
            return "'free'", "TRUE"
        said, scoped = f"{col} = CAST({p(self.qscope)} AS VARCHAR)", self.f.family in SCOPED_FAMILIES
        return (f"(CASE WHEN {col} IS NULL THEN {repr('open' if scoped else 'free')} "
                f"WHEN {said} THEN 'same' ELSE 'differs' END)",
                said if scoped else f"({said} OR {col} IS NULL)")

    @staticmethod
    def _arith(src: str, tests: list[list[list[str]]]) -> list[str]:
        """What the consistency tests read of each figure besides its stored intervals, then
        the tests, as CTEs b1, b3, k1..k4."""
        return [
            "b1 AS (SELECT *, fig_p AS _pb, "
            "least(coalesce(low, value), coalesce(high, value)) AS _blo, "
            "greatest(coalesce(low, value), coalesce(high, value)) AS _bhi, "
            "CASE WHEN comparator = '~' THEN '~' ELSE '=' END AS _cw, "
            f"coalesce(nullif(comparator, ''), '=') AS _cf FROM {src})",
            f"b3 AS (SELECT *, {_BAD} AS _bad, "
            f"greatest({_fin('value')}, {_fin('_blo')}, {_fin('_bhi')}, {_fin('_pb')}) AS _bmag FROM b1)",
        ] + _layer_ctes("b3", "k", tests)

    # --- the predicates Checker applies (check_predicates: each written once) -----------
    PRED = PRED
    py = staticmethod(holds)

    @staticmethod
    def necessary(names: list[str] | None) -> str:
        """FALSE where every predicate ``names`` is FALSE, on the columns known before the
        value tests."""
        if not names:
            return "TRUE"
        return " OR ".join(f"({needs(n)})" for n in names)

    def windows(self, names: list[str]) -> list[Figure] | None:
        """The value windows a query for ``names`` may scan (None: the whole family)."""
        wins = [window(n) for n in names]
        if None in wins:
            return None
        figs = {"full": full_figure(self.f), "point": witness_figure(self.f)}
        return [figs[k] for k in sorted(set(wins))]

    # --- fetching ------------------------------------------------------------------------
    # the columns of cand that ``select`` and the predicates (PRED) read
    KEPT = ("_rid", "id", "doc_id", "model", "value", "scope", "_pub", "_path", "start",
            "end") + tuple(map(column, ATOMS))

    def cand_table(self) -> str:
        """A temporary table of every candidate's columns, computed once for this query's
        ``select`` calls. Planning the candidate relation (a few hundred expressions) costs
        DuckDB more than running it on a family of thousands of figures, and a check asks
        2-4 times; the early filters of ``relation`` only drop rows whose flags are all
        FALSE, which ``select`` drops anyway, so the answers are the same. The table holds
        the family's candidates (a few narrow columns each) until ``SqlChecker.check``
        returns."""
        if self._table is None:
            p = _Params()
            rel = self.relation(p, early=False)
            name = f"_check_cand_{len(self.chk._tables)}"
            cols = ", ".join(f'"{c}"' for c in self.KEPT)
            self.chk.store.con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {rel}\n"
                                       f"SELECT {cols} FROM cand", p.values)
            self.chk._tables.append(name)
            self._table = name
        return self._table

    def select(self, specs: list[tuple], shared: bool = True) -> list[tuple]:
        """One query for several asks, each (kind, predicate, arg, partition):

        * ("first", name, k, part): the first k TRUE figures in Checker's order (per part;
          k None: all), with the TRUE count;
        * ("best", name, mode, part): the figure Checker's max / min / closest (mode) would
          pick among the TRUE ones (per part);
        * ("two", name, None, None): TRUE figures of two different named models;

        and for each, every NULL figure (that could be or beat those). Rows are
        (rowid, id, doc_id, model, flag per ask..., TRUE count per ask...). With
        ``shared`` the figures are read from ``cand_table`` (for a query that asks again),
        else from the relation narrowed to what these asks can accept."""
        p = _Params()
        f = self.f
        rel, source = "WITH ", self.cand_table() if shared else "cand"
        if not shared:
            rel = self.relation(p, sorted({sp[1] for sp in specs})) + ",\n"
        flags, wins, keeps = [], [], []
        aggs: dict[str | None, list[str]] = {None: []}   # per partition (DuckDB's windowed
        for i, (kind, name, arg, part) in enumerate(specs):   # FILTER aggregates are slow)
            pred = self.PRED[name]
            if kind == "two":
                pred = f"({pred}) AND coalesce(model, '') <> ''"
            flags.append(f"({pred}) AS _f{i}")
            by = f"{part}, " if part else ""
            aggs[None].append(f"count(*) FILTER (WHERE _f{i}) AS _n{i}")
            if kind == "first":
                if arg is None:
                    keeps.append(f"_f{i} IS NOT FALSE")
                    continue
                wins.append(f"row_number() OVER (PARTITION BY {by}_f{i} ORDER BY {_ORDER}) AS _w{i}")
                keeps.append(f"_f{i} IS NULL OR (_f{i} AND _w{i} <= {arg})")
            elif kind == "two":
                wins.append(f"row_number() OVER (PARTITION BY model, _f{i} ORDER BY {_ORDER}) AS _w{i}")
                wins.append(f"dense_rank() OVER (PARTITION BY _f{i} ORDER BY model) AS _v{i}")
                keeps.append(f"_f{i} IS NULL OR (_f{i} AND _w{i} = 1 AND _v{i} <= 2)")
            else:
                if arg == "closest":
                    fv = _d(f.value)
                    key = (f"(CASE WHEN {fv} > 0 AND value > 0 THEN abs(ln({fv} / value)) "
                           f"ELSE abs({fv} - value) END)")
                else:
                    key = "value"
                agg, direction = ("max", "DESC") if arg == "max" else ("min", "ASC")
                aggs.setdefault(part, []).append(f"{agg}({key}) FILTER (WHERE _f{i}) AS _t{i}")
                wins.append(f"row_number() OVER (PARTITION BY {by}_f{i} ORDER BY {key} "
                            f"{direction}, {_ORDER}) AS _w{i}")
                if arg == "closest":
                    # Python's distances may differ from SQL's in the last bits: keep ties
                    near = f"{key} <= _t{i} + {_d(1e-9)} * (1 + _t{i})"
                    keeps.append(f"(_f{i} AND {near}) OR (_f{i} IS NULL AND (_t{i} IS NULL OR {near}))")
                else:
                    cmp = ">=" if arg == "max" else "<="
                    keeps.append(f"(_f{i} AND _w{i} = 1) OR "
                                 f"(_f{i} IS NULL AND (_t{i} IS NULL OR {key} {cmp} _t{i}))")
        n = len(specs)
        any_ = " OR ".join(f"_f{i} IS NOT FALSE" for i in range(n))
        ctes = [f"t AS (SELECT _rid, id, doc_id, model, value, scope, _pub, _path, \"start\", "
                f"\"end\", {', '.join(flags)} FROM {source} WHERE {any_})",
                f"a0 AS (SELECT {', '.join(aggs[None])} FROM t)"]
        joins = " CROSS JOIN a0"
        for j, (part, cols) in enumerate((k, v) for k, v in aggs.items() if k is not None):
            ctes.append(f"a{j + 1} AS (SELECT {part} AS _p, {', '.join(cols)} FROM t GROUP BY {part})")
            joins += f" LEFT JOIN a{j + 1} ON a{j + 1}._p IS NOT DISTINCT FROM t.{part}"
        win = (", " + ", ".join(wins)) if wins else ""
        sql = (rel + ",\n".join(ctes) + ",\n"
               f"u AS (SELECT *{win} FROM t{joins})\n"
               f"SELECT _rid, id, doc_id, model, {', '.join(f'_f{i}' for i in range(n))}, "
               f"{', '.join(f'_n{i}' for i in range(n))} FROM u WHERE "
               + " OR ".join(f"({k})" for k in keeps))
        _, rows = self.chk.store.query(sql, p.values)
        return rows

    def resolve(self, asked: list[tuple[list[tuple], list[tuple]]]) -> dict[str, int]:
        """Fetch the figures of several ``select`` answers at once, let Python decide the
        NULL ones, and count: for each "first" ask, TRUE rows + NULL rows Python accepts."""
        metas = {r[1]: r[:4] for rows, _ in asked for r in rows}
        self.chk.fetch(list(metas.values()))
        counts: dict[str, int] = {}
        cmps: dict[str, _Cmp] = {}
        for rows, specs in asked:
            n = len(specs)
            for i, (kind, name, _, _) in enumerate(specs):
                certain = accepted = 0
                for r in rows:
                    flag = r[4 + i]
                    if flag is False:
                        continue
                    c = self.chk.record.claims[r[1]]
                    self.rows_by_id[c.id] = c
                    if c.id not in cmps:
                        cmps[c.id] = self.chk.compare(self.q, c)
                    py = self.py(name, cmps[c.id], self.chk, self.q)
                    if flag is True:
                        if not py:
                            self.chk.unsound(f"{name}: SQL TRUE, Python False for {c.id}")
                        certain = r[4 + n + i]
                    elif py:
                        accepted += 1
                if kind == "first":
                    counts[name] = max(counts.get(name, 0), certain + accepted)
        return counts

    def table(self, names: list[str], early: bool = True) -> dict[str, tuple]:
        """{claim id: flag of each predicate} for the figures the query for ``names`` reads
        (with ``early``) or for every candidate; ``names == ["cross"]``: the cross-family
        relation. The tests hold these to Python's comparison."""
        p = _Params()
        if names == ["cross"]:
            rel, flags = self.relation(p, cross=True, early=early), "_cross"
        else:
            rel = self.relation(p, names, early=early)
            flags = ", ".join(f"({self.PRED[n]})" for n in names)
        _, rows = self.chk.store.query(f"{rel}\nSELECT id, {flags} FROM cand", p.values)
        return {r[0]: r[1:] for r in rows}

    # --- what Checker will ask for -----------------------------------------------------
    def candidates(self, mode: str) -> list[Claim]:
        if self.rows is None:
            if mode == "unscoped":
                self._load_unscoped()
            else:
                self._load_check()
            self.rows = self.chk.in_order(list(self.rows_by_id.values()))
        return self.rows

    def _ask(self, *specs: tuple) -> tuple[list[tuple], list[tuple]]:
        return (self.select(list(specs)), list(specs))

    def _load_check(self) -> None:
        f, q = self.f, self.q
        n_sup = self.resolve([self._ask(("first", "supports", MAX_EVIDENCE, None))])["supports"]
        self.counts["supports"] = n_sup
        if n_sup >= MAX_EVIDENCE:
            return              # the evidence is the first ten supports; the text counts them
        asks = [("first", "near_mismatch", MAX_EVIDENCE, None),
                ("first", "near_label", MAX_EVIDENCE, None),
                ("first", "near_partial", MAX_EVIDENCE, None)]
        batch = []
        if n_sup == 0:
            subject = names_subject(f)
            if f.comparator in UPPER:
                asks.append(("first", "contradicts", MAX_EVIDENCE, None))
            elif subject:
                # a point claim or a floor: the figures on exactly the quantity must agree
                # among themselves
                asks += [("first", "exact", None, None), ("first", "contradicts", None, None)]
            if subject:
                asks += [("first", "exact", 2, None), ("first", "contradicts", 2, None)]
            if q.size is not None:
                asks.append(("first", "unknown", 1, None))
            # the unproven text: the best figure of each pool, the ends of the quantity,
            # the best within the size condition and a second model there
            mode = "max" if f.comparator not in UPPER else "min"
            if f.comparator not in LOWER and f.comparator not in UPPER:
                mode = "closest"
            bests = [("best", name, mode, None) for name in ("pool", "same_model", "scope_ok")]
            if subject:
                bests += [("best", "exact", "min", None), ("best", "exact", "max", None)]
            if q.size is not None:
                bests += [("best", "inside", "max" if f.comparator not in UPPER else "min", None),
                          ("two", "inside", None, None)]
            batch.append(self._ask(*bests))
        batch.insert(0, self._ask(*asks))
        got = self.resolve(batch + self._cross_batch())
        for kind in ("contradicts", "unknown"):
            if kind in got:
                self.counts[kind] = got[kind]

    def _load_unscoped(self) -> None:
        f = self.f
        asks = []
        if not (f.model is None and f.hardware is None and not _distinctive(f)):
            asks += [("first", "settle", MAX_EVIDENCE, None), ("first", "settle", 4, "scope")]
        # Checker fills its dict per denominator in walking order, then keeps the highest
        asks += [("first", "by_scope", 1, "scope"), ("best", "by_scope", "max", "scope")]
        # one query: read from the relation narrowed to these asks, not a shared table
        self.resolve([(self.select(asks, shared=False), asks)] + self._cross_batch())

    def _cross_batch(self) -> list[tuple[list[tuple], list[tuple]]]:
        """The same number in another count family (read with the step that needs it)."""
        if not self.cross_needed or self.cross_rows is not None:
            return []
        p = _Params()
        rel = self.relation(p, cross=True)
        sql = (f"{rel}\nSELECT _rid, id, doc_id, model FROM cand WHERE _cross IS NOT FALSE "
               f"QUALIFY _cross IS NULL OR row_number() OVER (PARTITION BY _cross "
               f"ORDER BY {_ORDER}) <= {MAX_EVIDENCE}")
        _, rows = self.chk.store.query(sql, p.values)
        self.cross_rows = [r[1] for r in rows]
        return [(rows, [])]

    def cross_claims(self) -> list[Claim]:
        if self.cross_rows is None:
            self.resolve(self._cross_batch())
        return self.chk.in_order([self.chk.record.claims[i] for i in self.cross_rows])


class _Asked:
    """The store, answering a query asked again during one check from the first answer: a
    claim without a denominator is checked again with the one a figure settles, and both
    read the same profile of the family and the same figures in other count families.
    ``kept`` (`claims serve`, whose warehouse cannot change while it runs) keeps answers
    across checks: anything with ``get(key)`` and ``put(key, answer)``; queries of the
    check's own temporary tables are never kept there."""

    def __init__(self, store: Store, kept=None) -> None:
        self.store, self.kept = store, kept
        self.answers: dict[tuple[str, str], tuple[list[str], list[tuple]]] = {}

    def query(self, sql: str, params=None) -> tuple[list[str], list[tuple]]:
        key = (sql, repr(params))
        if key not in self.answers:
            shared = self.kept is not None and "_check_cand_" not in sql
            got = self.kept.get(key) if shared else None
            if got is None:
                got = self.store.query(sql, params)
                if shared:
                    self.kept.put(key, got)
            self.answers[key] = got
        return self.answers[key]

    def __getattr__(self, name: str):
        return getattr(self.store, name)


class SqlChecker(Checker):
    """``Checker`` over the warehouse: the figures it compares are chosen in SQL."""

    def __init__(self, store: Store, kept=None) -> None:
        super().__init__(_Partial(db_path=str(store.path), store=store))
        self.store = _Asked(store, kept)
        self._stack: list[_Ctx] = []
        self._pairs: set[tuple[str, str]] = set()     # parameters claims fetched for
        self._keys: set[str] = set()
        self.extra_primary: set[str] = set()
        self._roles: dict[str, tuple[str, str]] = {}
        self._tables: list[str] = []     # temporary tables of candidates (_Ctx.cand_table)
        self._infer_roles()

    def check(self, q: Query) -> Verdict:
        try:
            return super().check(q)
        finally:
            for name in self._tables:
                self.store.con.execute(f"DROP TABLE IF EXISTS {name}")
            self._tables.clear()
            self.store.answers.clear()

    # --- documents whose role was never set: inferred as Record.load does -------------
    def _infer_roles(self) -> None:
        _, rows = self.store.query(f"SELECT {DOC_INFO_COLS} FROM documents WHERE role = 'unknown' "
                                   "AND role_source IS NULL ORDER BY path, id")
        if not rows:
            return
        rec = Record(db_path=str(self.store.path))
        for r in rows:
            d = DocInfo.from_row(r)
            rec.docs[d.id] = d
        rec._infer_missing_roles(self.store, all_claims=False)
        for d in rec.docs.values():
            self._roles[d.id] = (d.role, d.role_source)
            if d.role == "primary":
                self.extra_primary.add(d.id)

    # --- the record grows as figures are fetched ---------------------------------------
    def fetch(self, meta: list[tuple]) -> list[Claim]:
        """The claims of these (rowid, id, doc_id, model) rows, in this order: read in full
        once, with their documents and the parameters claims ``Record.params_of`` would
        take for them."""
        rec = self.record
        new = [m for m in meta if m[1] not in rec.claims]
        if new:
            rowids = {m[0] for m in new}
            pairs = {(m[2], k) for m in new if (k := model_key(m[3])) is not None}
            rowids |= self._param_rows(pairs - self._pairs, {k for _, k in pairs} - self._keys)
            self._pairs |= pairs
            self._keys |= {k for _, k in pairs}
            _, rows = self.store.query(f"SELECT {_PLAIN_COLS} FROM claims WHERE rowid IN "
                                       "(SELECT unnest(CAST($r AS BIGINT[])))",
                                       {"r": sorted(rowids)})
            claims = rec.add(rows)
            want = {c.doc_id for c in claims} - set(rec.docs)
            if want:
                _, drows = self.store.query(f"SELECT {DOC_INFO_COLS} FROM documents WHERE id IN "
                                            "(SELECT unnest(CAST($ids AS VARCHAR[])))",
                                            {"ids": sorted(want)})
                for r in drows:
                    d = DocInfo.from_row(r)
                    if d.id in self._roles:
                        d.role, d.role_source = self._roles[d.id]
                    rec.docs[d.id] = d
        return [rec.claims[m[1]] for m in meta]

    def _param_rows(self, pairs: set[tuple[str, str]], keys: set[str]) -> set[int]:
        """Rowids of the parameters claims ``Record.params_of`` picks for figures in these
        (document, model key) pairs: the first active one on the key in that document,
        and the first in any primary document, by (implied, inherited, start) over
        Record.load's order (by their stored model keys)."""
        if not pairs and not keys:
            return set()
        p = _Params()
        want = sorted({k for _, k in pairs} | keys)
        primary = "d.role = 'primary'"
        if self.extra_primary:
            primary = (f"({primary} OR list_contains("
                       f"{_list(p, sorted(self.extra_primary), 'VARCHAR')}, d.id))")
        _, rows = self.store.query(
            f"SELECT c.rowid, c.key_model, c.implied, c.inherited, c.start, c.doc_id, c.\"end\", c.id, "
            f"coalesce({primary}, FALSE) FROM claims c LEFT JOIN documents d ON d.id = c.doc_id "
            f"WHERE c.family = 'parameters' AND {_ACTIVE} AND list_contains("
            f"{_list(p, want, 'VARCHAR')}, c.key_model)", p.values)
        first: dict[tuple, tuple] = {}
        for rowid, k, *order, prim in rows:
            doc = order[3]
            for slot in ([(doc, k)] if (doc, k) in pairs else []) + ([k] if prim and k in keys else []):
                if slot not in first or tuple(order) < first[slot][1]:
                    first[slot] = (rowid, tuple(order))
        return {v[0] for v in first.values()}

    def in_order(self, claims: list[Claim]) -> list[Claim]:
        """Checker's order: Record.load's, then publication order of the documents."""
        base = sorted(claims, key=lambda c: (c.doc_id, c.start, c.end, c.id))
        return sorted(base, key=lambda c: (self.record.doc(c).order_key(), c.start))

    def unsound(self, what: str) -> None:
        raise Unsound(what)

    # --- Checker's hooks -----------------------------------------------------------------
    def _check(self, q: Query) -> Verdict:
        f = q.figure
        assert f is not None
        self._stack.append(_Ctx(self, q))
        try:
            return super()._check(q)
        finally:
            self._stack.pop()

    def _unscoped(self, q: Query) -> Verdict:
        self._stack.append(_Ctx(self, q))
        self._stack[-1].mode = "unscoped"
        try:
            return super()._unscoped(q)
        finally:
            self._stack.pop()

    def _candidates(self, f: Claim) -> list[Claim]:
        ctx = self._stack[-1]
        assert ctx.f is f
        return ctx.candidates(ctx.mode)

    def _cross_family(self, f: Claim):
        ctx = self._stack[-1]
        if not ctx.cross_needed or ctx.counts.get("supports", 0) >= MAX_EVIDENCE:
            return []       # (ten supports fill the evidence: near figures are never shown)
        if ctx.cross is None:
            saved = self.primaries
            try:
                self.primaries = ctx.cross_claims()
                ctx.cross = super()._cross_family(f)
            finally:
                self.primaries = saved
        return list(ctx.cross)

    def _total(self, kind: str, items: list) -> int:
        ctx = self._stack[-1]
        if kind in ctx.counts:
            return ctx.counts[kind]
        return len(items)


def _query_ok(q: Query) -> bool:
    """Can SQL choose this claim's candidates? Comparisons (ratios and percents, judged on
    baseline, direction and measured quantity), "up to" claims (a best case, judged by
    the highest figure), achieved compute and bandwidth, parameter counts (total unless
    another kind is stated), a stated workload size and an input or output length are
    compared in Python over their family: the rule stays in one place (``Checker.compare``
    and ``link.keys.comparison_differs``), not restated here."""
    f = q.figure
    if f is None:
        return True
    if f.family in COMPARED_FAMILIES or q.peak:
        return False
    if f.family == "money" and f.price_basis is not None:
        return False     # what a price is at is compared in Python (``Checker.compare``)
    if f.family in ACHIEVED_FAMILIES or f.family == "parameters":
        return False     # a count's kind (total unless stated) is read from its words
    if states_settings(f) or f.technique or q.reads_text():
        return False     # a workload size, application, link, reference, configuration or
                         # node count the claim states is looked for in the evidence's text
    if f.family == "tokens" and token_kind_key(f):
        return False     # a length that says not whose it is leaves "input"/"output" open
                         # (the claim's kind stated, or implied by its phase: "prefill")
    if f.hw_count:
        return False     # a figure on an uncounted accelerator takes its document's count
    if not _finite_figure(full_figure(f)):
        return False
    return q.size is None or _finite_figure(q.size)


LOAD_BELOW = 3000   # claims in the families read: below this, loading them all is faster


def check_query(q: Query, store: Store, load_below: int = LOAD_BELOW,
                loaded=check_loaded, kept=None) -> Verdict:
    """Check a read claim against the warehouse, choosing its candidate figures in SQL.

    A warehouse holding fewer than ``load_below`` claims of the families concerned is
    compared whole in Python (``check_loaded``: a few thousand claims take less time than
    planning the queries); the answer is the same either way. ``loaded(q, store)`` gives
    ``check_loaded``'s answer (`claims serve` passes one that keeps the loaded figures, and
    ``kept``, answers of queries kept across checks: ``_Asked``). Where ``loaded`` already
    ``holds(q)`` the query's figures in memory, it answers without SQL (unless
    ``load_below`` is 0: always SQL)."""
    if q.figure is None or not _query_ok(q):
        return loaded(q, store)
    if load_below > 0:
        if _holds(loaded, q):
            return loaded(q, store)
        _, rows = store.query("SELECT count(*) FROM claims WHERE list_contains("
                              "CAST($f AS VARCHAR[]), family)", {"f": sorted(loaded_families(q))})
        if rows[0][0] < load_below:
            return loaded(q, store)
    chk = SqlChecker(store, kept)
    try:
        return chk.check(q)
    except (Unsound, _Fallback):
        if STRICT:
            raise
        return loaded(q, store)


def _holds(loaded, q: Query) -> bool:
    holds = getattr(loaded, "holds", None)
    return holds is not None and holds(q)


class _Fallback(Exception):
    """Values SQL cannot order as Python does (NaN, missing): load everything instead."""
