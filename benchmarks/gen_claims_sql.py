"""Synthetic claims written straight into a warehouse by DuckDB SQL (issue 16's 10M rows).

``bench_link.synthetic_claims`` builds Claim objects in Python (10M claims: ~40 minutes of
building on this machine); here one ``INSERT ... SELECT`` per million claims draws every
column from ``hash()`` of the row number, so a 10M warehouse takes a few minutes and the
same rows every time. The statistics follow ``bench_link`` (its families, shares, units,
sentences, hardware, engines and baselines are read from it: one description of the
synthetic record), with one change that matters for partitioned linking, the sizes of
subjects:

* documents of 40 claims about three models each, a fifth of them secondary (half of
  whose claims credit a publisher), publishers of five documents each;
* a document's model is, with probability ``POPULAR_SHARE`` (0.1), one of ``N_POPULAR``
  (1,000) popular models drawn Zipf-like (model ``k`` with weight ~1/k: the first holds
  ~1% of all claims, 100,000 at 10M; the hundredth ~0.01%), otherwise one of ``n / 100``
  models of the long tail (~90 claims each). So there are many small subjects and a few
  large ones, and the largest grows with the record, as a popular model's would;
* each (model, family, scope) has a few true values that documents restate, rounded or
  not: ``3`` for a tail model, about one per 200 claims for a popular one (a popular
  model's figures are many runs, not one number quoted 30,000 times).

The rows are what ``Store.write_many`` would store for such claims (manifest roles, their
facts filled by ``migrate.fill_claim_facts``, no quantity keys: a full link computes them);
nothing is linked.
"""
from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pipeline.migrate import fill_claim_facts  # noqa: E402

from bench_link import (BASELINES, CLAIMS_PER_DOC, ENGINES, FAMILIES, HARDWARE,  # noqa: E402
                        SCOPES, SENTENCES)

CHUNK = 1_000_000          # claims per INSERT (a multiple of CLAIMS_PER_DOC)
POPULAR_SHARE = 0.10       # of a document's model slots: a popular model
N_POPULAR = 1000           # popular models, Zipf-like weights
CLAIMS_PER_VALUE = 200     # a popular model's claims per true value of a (family, scope)
DOCS_PER_PUBLISHER = 5
SECONDARY = 0.2


def _lit(v) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(float(v))


def _list(values) -> str:
    return "[" + ", ".join(_lit(v) for v in values) + "]"


def _pick(values, r: str) -> str:
    """One of ``values``, uniformly by the uniform draw ``r`` (SQL)."""
    return f"{_list(values)}[1 + least(floor({r} * {len(values)})::INT, {len(values) - 1})]"


def _r(*parts: str) -> str:
    """A uniform draw in [0, 1) from the hash of ``parts`` (SQL expressions)."""
    return f"(hash({', '.join(parts)}) % 1000000007) / 1000000007.0"


def _family_case(field: int) -> str:
    """CASE over the family draw ``rf`` giving field ``field`` of ``FAMILIES``."""
    out, cum = [], 0.0
    for fam in FAMILIES[:-1]:
        cum += fam[2]
        out.append(f"WHEN rf < {cum!r} THEN {_lit(fam[field])}")
    return "CASE " + " ".join(out) + f" ELSE {_lit(FAMILIES[-1][field])} END"


def _sentence_case() -> str:
    draw = _r("i", "'tpl'")
    parts = [f"WHEN '{fam}' THEN {_pick(SENTENCES[fam], draw)}" for fam in SENTENCES]
    return "CASE family " + " ".join(parts) + " END"


def gen_sql(lo: int, hi: int, n: int) -> str:
    """SELECT of the generated rows ``lo`` to ``hi`` of an ``n``-claim record, with every
    claim column and the document's ``secondary`` flag."""
    n_docs = (n + CLAIMS_PER_DOC - 1) // CLAIMS_PER_DOC
    n_tail = max(10, n // 100)
    n_pubs = max(10, n_docs // DOCS_PER_PUBLISHER)
    log_pop = math.log(N_POPULAR + 1)
    popular_claims = n * POPULAR_SHARE          # expected claims of all popular models
    var_draw = _r("i", "'var'")
    variant = f"floor({var_draw} * n_values)::INT"
    value_draw = _r("model", "family", "coalesce(scope, '')", variant)
    slots = []
    for s in range(3):
        u, z, t = (_r("d", f"'{what}{s}'") for what in ("slot", "zipf", "tail"))
        k = f"least(floor(pow({N_POPULAR + 1}, {z}))::INT, {N_POPULAR})"
        tail = f"floor({t} * {n_tail})::INT"
        slots.append(f"CASE WHEN {u} < {POPULAR_SHARE} THEN -{k} ELSE {tail} END")
    return f"""
    WITH rows AS (
        SELECT i, i // {CLAIMS_PER_DOC} AS d, i % {CLAIMS_PER_DOC} AS k,
               {_r('i', "'fam'")} AS rf
        FROM range({lo}, {hi}) t(i)
    ), drawn AS (
        SELECT *, {_r('d', "'sec'")} < {SECONDARY} AS secondary,
               [{', '.join(slots)}][1 + floor({_r('i', "'slot'")} * 3)::INT] AS m,
               {_family_case(0)} AS family, {_family_case(1)} AS unit,
               {_family_case(3)} AS base
        FROM rows
    ), named AS (
        SELECT *, CASE WHEN m < 0 THEN 'Popular-' || (-m) ELSE 'Model-' || m END AS model,
               CASE WHEN family = 'token_throughput' THEN {_pick(SCOPES, _r('i', "'scope'"))}
               END AS scope,
               -- true values of (model, family, scope): 3, or one per CLAIMS_PER_VALUE
               -- expected claims of a popular model
               CASE WHEN m < 0 THEN greatest(3, round({popular_claims!r}
                    * ln((-m + 1.0) / (-m)) / {log_pop!r} / {CLAIMS_PER_VALUE}))::INT
                    ELSE 3 END AS n_values
        FROM drawn
    ), valued AS (
        SELECT *, round(base * (0.2 + 4.8 * {value_draw}), 1) AS v0,
               {_r('i', "'round'")} < 0.3 AS rounded
        FROM named
    ), figured AS (
        SELECT *, pow(10, greatest(0, length(floor(v0)::BIGINT::VARCHAR) - 2)) AS mag
        FROM valued
    ), claimed AS (
        SELECT *, CASE WHEN rounded THEN round(v0 / mag) * mag ELSE v0 END AS value,
               CASE WHEN rounded THEN mag / 2 ELSE 0.05 END AS precision,
               k * 200 + floor({_r('i', "'pos'")} * 100)::INT AS start
        FROM figured
    ), surfaced AS (
        SELECT *, value::VARCHAR AS surface FROM claimed
    )
    SELECT 'c' || i AS id, 'd' || d AS doc_id, start, start + length(surface) AS "end",
           surface, value, family, unit, precision, scope,
           CASE WHEN {_r('i', "'cmp'")} < 0.85 THEN '='
                ELSE {_pick(['>', '>=', '<=', '~'], _r('i', "'cmpk'"))} END AS comparator,
           {_pick([None, None, 'p90', 'median'], _r('i', "'stat'"))} AS statistic,
           CASE WHEN family = 'money' THEN 'per GPU-hour' END AS per_basis,
           start - start % 400 AS sentence_start, start - start % 400 + 400 AS sentence_end,
           replace(replace(replace({_sentence_case()}, '{{m}}', model), '{{v}}', surface),
                   '{{b}}', {_pick(BASELINES, _r('i', "'base'"))}) AS sentence,
           model,
           CASE WHEN {_r('i', "'hw'")} < 0.6 THEN {_pick(HARDWARE, _r('i', "'hwk'"))} END
               AS hardware,
           {_pick(ENGINES, _r('i', "'eng'"))} AS engine,
           CASE WHEN secondary AND {_r('i', "'cred'")} < 0.5
                THEN 'pub' || floor({_r('i', "'credk'")} * {n_pubs})::INT END AS asserted_by,
           CASE WHEN {_r('i', "'stance'")} < 0.95 THEN 'asserted' ELSE 'negated' END AS stance,
           d, secondary
    FROM surfaced
    """


CLAIM_OUT = ("id", "doc_id", "start", "end", "surface", "value", "family", "unit", "precision",
             "scope", "comparator", "statistic", "per_basis", "sentence_start", "sentence_end",
             "sentence", "model", "hardware", "engine", "asserted_by", "stance")


def write_claims(store, n: int, chunk: int = CHUNK, progress=None) -> None:
    """Generate ``n`` claims and their documents into ``store`` (an empty warehouse), one
    committed INSERT of ``chunk`` claims (and their documents) at a time."""
    n_docs = (n + CLAIMS_PER_DOC - 1) // CLAIMS_PER_DOC
    n_pubs = max(10, n_docs // DOCS_PER_PUBLISHER)
    con = store.con
    cols = ", ".join(f'"{c}"' for c in CLAIM_OUT)
    t0 = time.perf_counter()
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        con.begin()
        con.execute(f"CREATE TEMP TABLE _gen AS {gen_sql(lo, hi, n)}")
        con.execute(f"INSERT INTO claims ({cols}, findings) SELECT {cols}, []::VARCHAR[] FROM _gen")
        con.execute(f"""
            INSERT INTO documents (id, path, format, title, publisher, published, role,
                                   role_source, n_chars, n_bytes, text, meta, fingerprint,
                                   ingested_at)
            SELECT 'd' || d, 'd' || d || '.md', 'markdown', 'doc ' || d,
                   'pub' || (d % {n_pubs}), make_date(2026, 1 + (d % 12)::INT, 1 + (d % 28)::INT),
                   CASE WHEN secondary THEN 'secondary' ELSE 'primary' END, 'manifest',
                   length(text), strlen(text), text, '{{}}', 'd' || d, now()::TIMESTAMP
            FROM (SELECT d, any_value(secondary) AS secondary,
                         string_agg(sentence, chr(10) ORDER BY start) AS text
                  FROM _gen GROUP BY d)""")
        con.execute("DROP TABLE _gen")
        # the facts Store.write_many stores with each claim (link.facts), as a migration
        # fills them: every comparison reads them
        fill_claim_facts(con, where="key_unit IS NULL")
        con.commit()
        if progress:
            progress(f"generated {hi:,} of {n:,} claims in {time.perf_counter() - t0:.0f} s")


def subject_sizes(store, top: int = 5) -> tuple[int, list[tuple[str, int]]]:
    """(number of models, the ``top`` largest with their claims): the subjects' spread."""
    n = store.query("SELECT count(DISTINCT model) FROM claims")[1][0][0]
    rows = store.query(f"SELECT model, count(*) FROM claims GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT {top}")[1]
    return n, rows
