"""Warehouse schema versions: read the version a file records, and migrate it step by step.

A warehouse records its schema version in ``schema_info`` (``key = 'version'``). The steps
are SQL files shipped in ``warehouse/migrations/`` (``NNNN_name.sql`` takes a warehouse from
version NNNN - 1 to NNNN; ``0001_initial.sql`` is version 1 itself), so an older warehouse is
brought to the current shape once, when it is opened for writing, instead of every reader
making up for missing tables and columns. Each step runs with its version bump in one
transaction: a step that fails leaves the file at the version before it.

A step that needs the pipeline's own functions to fill what its SQL adds (as sqlite-utils
migrations are Python functions) also has a function in ``FILLS``, run after its SQL in the
same transaction: version 6 computes every stored claim's facts (``link.facts``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Callable

import duckdb

WAREHOUSE_PACKAGE = "pipeline.warehouse"
_NAME = re.compile(r"^(\d{4})_(\w+)\.sql$")


class VersionError(Exception):
    """The file's schema version cannot be used by this release (one line, for the user)."""


@dataclass(frozen=True)
class Migration:
    version: int          # the version the warehouse has after this step
    name: str             # what the step does, from the file name
    sql: str


@lru_cache(maxsize=1)
def migrations() -> tuple[Migration, ...]:
    """Every step, in version order (1, 2, ...; no gaps: a gap is a packaging mistake)."""
    found = []
    for entry in files(WAREHOUSE_PACKAGE).joinpath("migrations").iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda s: s.version)
    if [s.version for s in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"warehouse/migrations: versions {[s.version for s in found]} are not 1..N")
    return tuple(found)


def latest() -> int:
    """The schema version this release writes (the last migration's)."""
    return migrations()[-1].version


def schema_at(version: int) -> str:
    """The SQL that builds an empty warehouse of ``version`` (version 1, then each step)."""
    return "\n".join(s.sql for s in migrations() if s.version <= version)


def stored_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The version the database records; None for an empty database (nothing in it yet).

    A database with tables but no version is taken for version 1 (every release has written
    one, so the shape check that follows tells a foreign file apart)."""
    tables = {name.lower() for (name,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        " AND schema_name = 'main' UNION ALL SELECT view_name FROM duckdb_views()"
        " WHERE NOT internal AND NOT temporary AND database_name = current_database()"
        " AND schema_name = 'main'").fetchall()}
    if not tables:
        return None
    if "schema_info" not in tables:
        return 1
    try:
        row = con.execute("SELECT value FROM schema_info WHERE key = 'version'").fetchone()
    except duckdb.Error:
        return 1                     # not the tool's schema_info: the shape check says so
    if row is None:
        return 1
    try:
        return int(row[0])
    except (TypeError, ValueError):
        raise VersionError(f"its schema version {row[0]!r} is not a number "
                           "(not a claims warehouse?)") from None


def refuse_newer(version: int) -> None:
    """A file written by a newer release: this one does not know its tables, so it stops."""
    if version > latest():
        from pipeline import __version__

        raise VersionError(
            f"it was written by a newer claims (warehouse schema version {version}; claims "
            f"{__version__} knows versions up to {latest()}): upgrade claims to use it")


def fill_claim_facts(con: duckdb.DuckDBPyConnection, where: str = "TRUE",
                     batch: int = 100_000) -> int:
    """Compute the facts (``link.facts.FACT_COLUMNS``) of the claims ``where`` holds, by
    the functions that compute them when a claim is stored; returns how many. Read and
    written ``batch`` claims at a time (a warehouse of millions is never held whole)."""
    from dataclasses import fields

    import pyarrow as pa

    from pipeline.link.facts import FACT_COLUMNS, FACT_TYPES, facts_row
    from pipeline.model import Claim

    # the claim's own columns only (the others are the ones being filled)
    names = [f.name for f in fields(Claim) if f.name != "findings"]
    types = {"VARCHAR": pa.string(), "INTEGER": pa.int64(), "DOUBLE": pa.float64()}
    top = con.execute("SELECT max(rowid) FROM claims").fetchone()[0]
    done = 0
    for lo in range(0, (top if top is not None else -1) + 1, batch):
        rows = con.execute("SELECT rowid, " + ", ".join(f'"{c}"' for c in names)
                           + f" FROM claims WHERE rowid >= {lo} AND rowid < {lo + batch}"
                           f" AND ({where})").fetchall()
        if not rows:
            continue
        facts = [facts_row(Claim(**dict(zip(names, r[1:])))) for r in rows]
        table = pa.table([pa.array([r[0] for r in rows], pa.int64())]
                         + [pa.array([f[i] for f in facts], types[FACT_TYPES[c]])
                            for i, c in enumerate(FACT_COLUMNS)],
                         names=["_rid"] + FACT_COLUMNS)
        con.register("_facts_batch", table)
        try:
            con.execute("UPDATE claims SET " + ", ".join(f"{c} = f.{c}" for c in FACT_COLUMNS)
                        + " FROM _facts_batch f WHERE claims.rowid = f._rid")
        finally:
            con.unregister("_facts_batch")
        done += len(rows)
    return done


# Python run after a step's SQL, in its transaction: (version -> function of the connection)
FILLS: dict[int, Callable[[duckdb.DuckDBPyConnection], object]] = {6: fill_claim_facts}


def upgrade(con: duckdb.DuckDBPyConnection, version: int) -> list[Migration]:
    """Apply the steps after ``version``, each in its own transaction; returns them."""
    done = []
    for step in migrations():
        if step.version <= version:
            continue
        con.begin()
        try:
            con.execute(step.sql)
            if step.version in FILLS:
                FILLS[step.version](con)
            con.execute("INSERT OR REPLACE INTO schema_info VALUES ('version', ?)",
                        [str(step.version)])
            con.commit()
        except BaseException:
            con.rollback()
            raise
        done.append(step)
    return done


def mark_new(con: duckdb.DuckDBPyConnection) -> None:
    """A warehouse just created from schema.sql is at the latest version."""
    con.execute("INSERT OR IGNORE INTO schema_info VALUES ('version', ?)", [str(latest())])
