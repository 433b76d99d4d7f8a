"""Warehouse schema versions: read the version a file records, and migrate it step by step.

A warehouse records its schema version in ``schema_info`` (``key = 'version'``). The steps
are SQL files shipped in ``warehouse/migrations/`` (``NNNN_name.sql`` takes a warehouse from
version NNNN - 1 to NNNN; ``0001_initial.sql`` is version 1 itself), so an older warehouse is
brought to the current shape once, when it is opened for writing, instead of every reader
making up for missing tables and columns. Each step runs with its version bump in one
transaction: a step that fails leaves the file at the version before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

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


def upgrade(con: duckdb.DuckDBPyConnection, version: int) -> list[Migration]:
    """Apply the steps after ``version``, each in its own transaction; returns them."""
    done = []
    for step in migrations():
        if step.version <= version:
            continue
        con.begin()
        try:
            con.execute(step.sql)
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
