"""What every DuckDB connection the tool opens must carry, and the shape it must find.

Three guards, applied by ``Store.open`` to every connection (writer and readers alike):

- the sandbox: no file, network or extension access from SQL, no extension autoinstall or
  autoload, configuration locked. A warehouse file is data from anywhere; a view in it
  that calls ``read_text`` must not put a local file into a report, and ``--db x.sqlite``
  must not make DuckDB download a scanner extension;
- the optimizer guard: DuckDB 2.0.1's ``common_subplan`` optimizer returns wrong rows for
  a UNION ALL of two columns of one view (duckdb#25819: ``SELECT src_doc FROM conflicts
  UNION ALL SELECT dst_doc FROM conflicts`` gave the src ids twice). It stays off until
  the pinned DuckDB range (pyproject.toml) only holds releases with the fix;
- the shape: a warehouse whose tables are not the tool's (a ``documents`` view, a
  ``claims`` table without its columns, someone else's DuckDB file) is refused with one
  line, and a reader whose stored views differ from the shipped ones uses the shipped ones
  (as temporary views over the verified tables).
"""
from __future__ import annotations

import functools
import re
import threading
import time
from typing import Any, Callable, Sequence

import duckdb

# The settings of the sandbox; lock_configuration is set last, after the guards below.
SANDBOX_CONFIG = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "lock_configuration": True,
}
DISABLED_OPTIMIZERS = "common_subplan"     # duckdb#25819, see the module docstring
# DuckDB's memory for a warehouse file (its buffer pool, sorts and joins; more spills to
# `<db>.tmp`). Its default, 80% of the machine's RAM, lets it keep every block it has read:
# a partitioned link of 10M claims would hold the whole ~1-2 GB file on top of its
# partition (docs/scale.md). The same for every connection: DuckDB refuses a second
# connection to a file with another configuration.
MEMORY_LIMIT = "1GB"

_VIEW_HEAD = re.compile(r"CREATE\s+OR\s+REPLACE\s+VIEW(?=\s+(\w+))", re.I)


class ShapeError(Exception):
    """The database is not a claims warehouse (its first problem, in one line)."""


def connect(path: str, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A sandboxed connection with the optimizer guard on and its configuration locked."""
    return _open(path, read_only, external_access=False)


def scratch() -> duckdb.DuckDBPyConnection:
    """An in-memory connection that reads the tool's own files (the Parquet shards of a Ray
    run): file access on, since that is its job, and otherwise as ``connect``: no extension
    autoinstall or autoload, the optimizer guard on, the configuration locked."""
    return _open(":memory:", False, external_access=True)


def _open(path: str, read_only: bool, external_access: bool) -> duckdb.DuckDBPyConnection:
    config = {k: v for k, v in SANDBOX_CONFIG.items() if k != "lock_configuration"}
    config["enable_external_access"] = external_access
    if path != ":memory:":
        config["memory_limit"] = MEMORY_LIMIT
    con = duckdb.connect(path, read_only=read_only, config=config)
    try:
        settle(con)
    except BaseException:
        con.close()
        raise
    return con


def settle(con: duckdb.DuckDBPyConnection) -> None:
    """The session settings of every connection, then the lock that keeps them."""
    con.execute("SET enable_progress_bar = false")   # no bar of DuckDB's own in our output
    con.execute(f"SET disabled_optimizers = '{DISABLED_OPTIMIZERS}'")
    con.execute("SET lock_configuration = true")


@functools.lru_cache(maxsize=8)
def reference(schema: str, views: tuple[tuple[str, str], ...]) -> tuple[dict, dict]:
    """(tables: name -> columns, views: name -> SQL as DuckDB keeps it) of a database built
    in memory from the shipped schema and views: the shape a warehouse must have, read from
    the same files that create it (one rule, one place). An older warehouse is checked
    against the schema of its own version (``pipeline.migrate.schema_at``), then migrated."""
    con = connect(":memory:", read_only=False)
    try:
        con.execute(schema)
        for _, sql in views:
            con.execute(sql)
        tables = _tables(con)
        stored = _views(con)
    finally:
        con.close()
    return tables, stored


def _tables(con) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for table, column in con.execute(
            "SELECT table_name, column_name FROM duckdb_columns()"
            " WHERE database_name = current_database() AND schema_name = 'main'"
            " AND table_name IN (SELECT table_name FROM duckdb_tables()"
            "   WHERE database_name = current_database() AND schema_name = 'main')").fetchall():
        out.setdefault(table.lower(), set()).add(column.lower())
    return out


def _views(con) -> dict[str, str]:
    return {name.lower(): sql for name, sql in con.execute(
        "SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND NOT temporary"
        " AND database_name = current_database() AND schema_name = 'main'").fetchall()}


def check_shape(con, schema: str, views: Sequence[tuple[str, str]], writer: bool) -> list[str]:
    """Raise ShapeError unless the database is a claims warehouse (or, for a writer, a new
    empty one); returns the names of shipped views whose stored SQL differs or is missing
    (a reader shadows them with the shipped ones)."""
    ref_tables, ref_views = reference(schema, tuple(views))
    tables, stored = _tables(con), _views(con)
    if not tables and not stored:
        if writer:
            return []
        raise ShapeError("it is an empty database, not a claims warehouse (run `claims ingest` first)")
    problems = []
    for name, columns in sorted(ref_tables.items(), key=lambda kv: (kv[0] not in stored, kv[0])):
        if name in stored:
            problems.append(f"`{name}` is a view, not the warehouse's table")
        elif name not in tables:
            problems.append(f"no `{name}` table")
        else:
            missing = columns - tables[name]
            if missing:
                problems.append(f"table `{name}` lacks column(s) {', '.join(sorted(missing))}")
    for name in ref_views:
        if name in tables:
            problems.append(f"`{name}` is a table, not the warehouse's view")
    if problems:
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise ShapeError(f"not a claims warehouse: {problems[0]}{more}")
    return [name for name, sql in ref_views.items() if stored.get(name) != sql]


def shadow_views(con, views: Sequence[tuple[str, str]], names: Sequence[str]) -> None:
    """Create the shipped definitions of ``names`` as temporary views of this connection
    (they come first in name lookup), so a reader never runs a view the file brought."""
    wanted = set(names)
    for _, sql in views:
        head = _VIEW_HEAD.search(sql)
        if head and head.group(1).lower() in wanted:
            con.execute(_VIEW_HEAD.sub("CREATE OR REPLACE TEMP VIEW", sql, count=1))


# --- a query with a time limit that Ctrl-C can stop ---------------------------------------

class QueryTimeout(Exception):
    """The query ran past its time limit and was stopped."""


def run_limited(con, run: Callable[[], Any], timeout: float | None, poll: float = 0.1) -> Any:
    """``run()`` (a query on ``con``) on a thread of its own, stopped by
    ``con.interrupt()`` when it passes ``timeout`` seconds (QueryTimeout) or when Ctrl-C
    reaches this thread (KeyboardInterrupt, at once: the wait here is interruptible, a
    call into DuckDB is not)."""
    box: dict[str, Any] = {}
    done = threading.Event()     # waited on, not join(): an interrupted join can leave the
                                 # thread marked finished while DuckDB still runs in it

    def target() -> None:
        try:
            box["value"] = run()
        except BaseException as exc:            # handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=target, name="claims-query", daemon=True)
    started = time.monotonic()
    worker.start()
    timed_out = False
    try:
        while not done.wait(poll):
            if timeout and not timed_out and time.monotonic() - started > timeout:
                timed_out = True
                con.interrupt()
    except KeyboardInterrupt:
        con.interrupt()
        done.wait(30)                           # the connection is free to close after this
        raise
    if timed_out and ("error" in box or "value" not in box):
        raise QueryTimeout(f"the query ran past the {timeout:g} s limit and was stopped "
                           "(raise it with --timeout; 0: no limit)")
    if "error" in box:
        raise box["error"]
    return box["value"]
