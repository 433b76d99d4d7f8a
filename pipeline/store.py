"""DuckDB: schema, one-transaction-per-document writes, read-only connections for queries.

A file lands whole or not at all: its document row, its pages and its claims are written
in one transaction, after removing whatever an earlier version of the same file left
behind (its claims' links and cluster memberships included). Claims go in as one Arrow
batch, not a row at a time. Queries (`claims sql`, `claims export`) open the database
read-only, and `check_read_only` refuses any statement that is not a single read.

For the link stage the same transaction stores each claim's quantity key (``claim_keys``)
and queues the change in ``link_pending``; ``iter_claims`` streams back just the claims a
relink needs, and ``save_links`` writes a link result (all of it, or only what the
relinked subjects own) in one transaction.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import errno
import functools
import json
import operator
import os
import re
import shutil
import types
import typing
from dataclasses import dataclass, field, fields
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import duckdb

from pipeline import dbguard, migrate
from pipeline.ingest.walk import printable
from pipeline.link.facts import FACT_COLUMNS, ClaimFacts, facts_row
from pipeline.model import Claim, Document, Link

WAREHOUSE_PACKAGE = "pipeline.warehouse"
DEFAULT_DB = Path("warehouse") / "claims.duckdb"
DB_ENV = "CLAIMS_DB"
READ_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


# What no connection of the tool may do beyond reading and writing its database file
# (read or write other files, load or install extensions, change settings back): see
# pipeline/dbguard.py, which applies it with the optimizer guard.
SANDBOX_CONFIG = dbguard.SANDBOX_CONFIG


class StoreError(Exception):
    """A problem the user can fix (no database, a write in `sql`, a locked file)."""


_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (?P<exe>\S+)? ?\(PID (?P<pid>\d+)\)")


def _open_error(db: Path, exc: duckdb.Error, read_only: bool) -> str:
    """One line for a failed open; a lock held by another process says the database is busy."""
    text = str(exc)
    if "Could not set lock" in text or "Conflicting lock" in text:
        m = _LOCK_HOLDER.search(text)
        who = f"another process (PID {m.group('pid')})" if m else "another process"
        if read_only:
            return (f"database {db} is busy: {who} is writing to it (a `claims ingest` or "
                    "`claims link`); DuckDB lets no other process read it meanwhile, so run "
                    "this again when that one has finished")
        return (f"database {db} is in use by {who}; only one process at a time can write "
                "to it: wait for that one to finish (or stop it) and run this again")
    if "extension" in text.lower():
        return (f"cannot open {db}: it is not a DuckDB database (reading it would take a DuckDB "
                "extension, and the tool never installs or loads one)")
    problem = damaged(exc)
    if problem:
        return f"cannot open {db}: {problem}"
    return f"cannot open {db}: {one_line(exc)}"


def _rollback(con) -> None:
    """Roll back, keeping the error that got us here: a commit that failed (a full disk)
    has ended the transaction already, and "cannot rollback - no transaction is active"
    would hide why."""
    try:
        con.rollback()
    except duckdb.Error:
        pass


_WRITE_TARGET = re.compile(r'(?:write|writing|extend)[^"]*"(?P<path>[^"]+)"', re.I)


def disk_full(exc: BaseException, db: Path | None = None) -> str | None:
    """One line for a write that failed because the disk is full (ENOSPC), else None."""
    text = str(exc)
    if getattr(exc, "errno", None) != errno.ENOSPC and "No space left on device" not in text \
            and "disk is full" not in text.lower():
        return None
    m = _WRITE_TARGET.search(text)
    target = Path(m.group("path")) if m else db
    where = ""
    if target is not None:
        folder = target.parent if str(target.parent) else Path(".")
        try:
            free = shutil.disk_usage(folder).free
            where = f" on the disk holding {folder} ({free / 1e6:,.1f} MB free)"
        except OSError:
            where = f" on the disk holding {folder}"
    what = f"writing {target}" if target is not None else "writing the database"
    return (f"disk full: no space left{where} while {what}; the batch being written was "
            "rolled back and everything committed before is kept: free some space (or give "
            "--db on another disk) and run the same command again")


_DAMAGE = ("Could not read enough bytes", "Corrupt database file", "checksum",
           "database file is corrupted", "Invalid database header")


def damaged(exc: BaseException) -> str | None:
    """One line for a read that failed because the database file is truncated or
    corrupt, else None."""
    text = one_line(exc)
    if not isinstance(exc, duckdb.Error) or not any(k.lower() in text.lower() for k in _DAMAGE):
        return None
    return (f"the database file is damaged (truncated or corrupt): {text}; restore it from a "
            "copy, or ingest again into a new --db")


def one_line(exc: BaseException) -> str:
    """The first line of an exception's message, for errors shown to users."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def resolve_db(db: str | os.PathLike | None = None) -> Path:
    """--db, else $CLAIMS_DB, else warehouse/claims.duckdb under the current folder."""
    chosen = db or os.environ.get(DB_ENV) or DEFAULT_DB
    return Path(chosen).expanduser()


@functools.lru_cache(maxsize=1)
def schema_sql() -> str:
    """warehouse/schema.sql as shipped inside the installed package."""
    return files(WAREHOUSE_PACKAGE).joinpath("schema.sql").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def view_sqls() -> tuple[tuple[str, str], ...]:
    """(name, SQL) of every warehouse/views/*.sql, in name order."""
    folder = files(WAREHOUSE_PACKAGE).joinpath("views")
    if not folder.is_dir():
        return ()
    return tuple((p.name, p.read_text(encoding="utf-8"))
                 for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".sql"))


_LEADING_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.S)
_EXPLAIN_HEAD = re.compile(r"EXPLAIN\b\s*(?:ANALY[SZ]E\b\s*)?(?:\((?:[^()'\"]|'[^']*')*\)\s*)?", re.I)
_PIVOT_HEAD = re.compile(r"PIVOT(?:_WIDER)?\b", re.I)


def _head(sql: str) -> str:
    """The statement without the comments and blank space before it."""
    return sql[_LEADING_COMMENTS.match(sql).end():]


def check_read_only(sql: str) -> None:
    """Raise StoreError unless ``sql`` is exactly one read (SELECT, WITH, FROM, VALUES,
    PIVOT, UNPIVOT, SUMMARIZE, DESCRIBE, SHOW, or EXPLAIN [ANALYZE] of one of them).

    This is the first of three locks on `claims sql`: the statement type (writes, DDL,
    ATTACH, COPY, EXPORT, INSTALL/LOAD, SET, PRAGMA, CALL, transactions are refused here);
    then a read-only connection; then the sandbox (``pipeline.dbguard``), under which
    DuckDB itself refuses any file, network or extension access from inside a SELECT
    (read_csv, read_text, read_parquet, glob, a quoted file name) and any change of its
    settings. A PIVOT without an IN list is DuckDB's one multi-statement read (it finds the
    column values first); EXPLAIN ANALYZE runs its statement, so what it explains must be
    a read too.
    """
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise StoreError(f"SQL not understood: {one_line(exc)}") from None
    if not statements:
        raise StoreError("no SQL statement given")
    if len(statements) > 1:
        raise StoreError(f"one statement at a time, got {len(statements)}")
    kind, head = statements[0].type, _head(sql)
    if kind is duckdb.StatementType.MULTI and _PIVOT_HEAD.match(head):
        return
    m = _EXPLAIN_HEAD.match(head)
    if kind is duckdb.StatementType.EXPLAIN or (kind is duckdb.StatementType.MULTI and m):
        inner = head[m.end():] if m else ""
        try:
            check_read_only(inner)
        except StoreError as exc:
            raise StoreError(f"{exc} (inside EXPLAIN)") from None
        return
    if kind not in READ_STATEMENTS:
        name = getattr(kind, "name", str(kind))
        hint = (" (DESCRIBE, SHOW TABLES and SELECT * FROM duckdb_tables() read the schema)"
                if name in ("PRAGMA", "CALL") else "")
        article = "an" if name[:1] in "AEIOU" else "a"
        raise StoreError(f"refused: `claims sql` only reads the warehouse and this is "
                         f"{article} {name} statement{hint}")


def sql_error(exc: BaseException) -> str:
    """One line for a query that failed in `claims sql`; sandbox refusals say so."""
    text = one_line(exc)
    if isinstance(exc, duckdb.PermissionException) or "disabled by configuration" in text \
            or "Cannot change configuration option" in text:
        detail = text.split(":", 1)[-1].strip()
        return f"refused: `claims sql` only reads the warehouse, not files, extensions or settings ({detail})"
    return text


# --- Arrow schema for claims, derived from the dataclass so the two cannot drift ---------

def _arrow_type(hint: Any):
    import pyarrow as pa

    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        hint = args[0]
    if typing.get_origin(hint) is list:
        return pa.list_(pa.string())
    return {str: pa.string(), float: pa.float64(), int: pa.int64(), bool: pa.bool_()}[hint]


def arrow_schema(record: type):
    import pyarrow as pa

    hints = typing.get_type_hints(record)
    return pa.schema([(f.name, _arrow_type(hints[f.name])) for f in fields(record)])


def KEYS_SCHEMA():
    import pyarrow as pa

    return pa.schema([("claim_id", pa.string()), ("doc_id", pa.string()), ("qkey", pa.string()),
                      ("subject", pa.string())])


CLAIM_COLUMNS = [f.name for f in fields(Claim)]
# claim columns whose values repeat across claims (few distinct ones): ``iter_claims`` keeps
# one string object per distinct value
REPEATED_COLUMNS = frozenset({
    "doc_id", "family", "unit", "unit_text", "comparator", "scope", "statistic", "phase",
    "token_kind", "per_basis", "model", "hardware", "accelerator", "engine", "dtype",
    "technique", "parallelism", "workload", "price_basis", "asserted_by", "stance", "baseline",
    "direction", "measures"})
LINK_COLUMNS = [f.name for f in fields(Link)]
DOCUMENT_COLUMNS = ["id", "path", "format", "title", "publisher", "url", "published", "author",
                    "role", "role_source", "n_chars", "n_bytes", "text", "meta", "fingerprint",
                    "ingested_at"]
DOCUMENT_SELECT = ", ".join("CAST(published AS DATE)" if c == "published" else
                            "CAST(meta AS JSON)" if c == "meta" else c for c in DOCUMENT_COLUMNS)


@functools.lru_cache(maxsize=None)
def claim_schema():
    """The Arrow schema of the ``claims`` table (Claim's fields, then its facts: the
    ``FACT_COLUMNS`` of ``link.facts``, in order)."""
    import pyarrow as pa

    return pa.schema(list(arrow_schema(Claim)) + list(arrow_schema(ClaimFacts)))


def rows_table(rows: Sequence[tuple], schema):
    """Row tuples (in the schema's column order) as one Arrow table of one chunk: the
    columns are cut by zip in C and each becomes an array in one call."""
    import pyarrow as pa

    columns = list(zip(*rows)) if rows else [()] * len(schema)
    return pa.Table.from_arrays([pa.array(col, f.type) for f, col in zip(schema, columns)],
                                schema=schema)


_claim_row = operator.attrgetter(*CLAIM_COLUMNS)


def _documents_table(items: Sequence["Stored"], at: dt.datetime):
    import pyarrow as pa

    docs = [s.doc for s in items]
    fp = {d.id: s.fingerprint for d, s in zip(docs, items)}
    strings = {c: pa.array([getattr(d, c) for d in docs], pa.string()) for c in
               ("id", "path", "format", "title", "publisher", "url", "published", "author",
                "role", "role_source", "text")}
    return pa.table({
        **strings,
        "n_chars": pa.array([len(d.text) for d in docs], pa.int64()),
        "n_bytes": pa.array([d.meta.get("n_bytes") for d in docs], pa.int64()),
        "meta": pa.array([json.dumps(d.meta, ensure_ascii=False, default=str) for d in docs],
                         pa.string()),
        "fingerprint": pa.array([fp[d.id] for d in docs], pa.string()),
        "ingested_at": pa.array([at] * len(docs), pa.timestamp("us")),
    })


@dataclass
class Stored:
    """One file ready for ``Store.write_many``: its document, and its claims and their
    quantity keys as rows (taken where the claims were extracted, e.g. in a worker
    process; the single writer turns a batch of them into Arrow tables and inserts)."""

    doc: Document
    fingerprint: str
    claims: list[tuple]             # a row per claim, in CLAIM_COLUMNS + FACT_COLUMNS order
    keys: list[tuple] | None = None  # (claim id, doc id, quantity key, subject), or None
    duplicate: str | None = None    # a claim id that occurs twice (the write is refused)
    source: str | None = None       # where it was read (resolved path, URL); None: doc.path
    previous: str | None = None     # set by the write: the document the source held before

    @property
    def location(self) -> str:
        """The source this document was read from (its display path when none was given)."""
        return self.source or self.doc.path

    @classmethod
    def of(cls, doc: Document, claims: Sequence[Claim], fingerprint: str,
           keys: Sequence[tuple[str, str, str | None]] | None = None,
           source: str | None = None) -> "Stored":
        """Check the claims belong to ``doc`` (ValueError if not) and take their rows.

        Plain tuples: they pickle fast between processes, and the writer turns a whole
        batch of files into Arrow at once (per-file Arrow tables cost ~40 array calls
        per file)."""
        seen: set[str] = set()
        duplicate = None
        for c in claims:
            if c.doc_id != doc.id:
                raise ValueError(f"claim {c.id} has doc_id {c.doc_id!r}, expected {doc.id!r}")
            if c.id in seen:
                duplicate = c.id
            seen.add(c.id)
        rows = [_claim_row(c) + facts_row(c) for c in claims]
        key_rows = [(k[0], doc.id, k[1], k[2]) for k in keys] if keys else None
        return cls(doc, fingerprint, rows, key_rows, duplicate, source)

    @property
    def n_claims(self) -> int:
        return len(self.claims)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass
class Pending:
    """Changes since the last link: documents added and removed, keys of removed claims."""

    added: list[str] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    full: bool = False

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.keys or self.full)


@dataclass
class LinkScope:
    """What an incremental link owns: claims whose pair links, clusters and findings it
    rewrote, and ratio claims whose derived checks it redid."""

    claims: set[str] = field(default_factory=set)
    ratios: set[str] = field(default_factory=set)


@dataclass
class LinkTotals:
    relations: dict[str, int] = field(default_factory=dict)
    findings: dict[str, int] = field(default_factory=dict)
    clusters: int = 0


@dataclass
class Plan:
    """What writing a document read from one source would do: insert it, which stored
    documents it removes, and whether the source held other bytes before (a replacement,
    even when the old document stays because another source still holds it)."""

    insert: bool
    stale: list[str] = field(default_factory=list)
    replaces: bool = False
    previous: str | None = None     # the document the source held before, when it changed
    locate: bool = False            # the source is not yet among the document's locations

    @property
    def action(self) -> str:
        if self.stale or self.replaces:
            return "replaced"
        return "new" if self.insert else "skipped"


class _Known:
    """What the planner knows of stored documents: fingerprints, sources, legacy paths.

    A document stored before sources were kept (no ``locations`` row) is found by its
    display path instead, as it was then."""

    def __init__(self, rows: Iterable[tuple[str, str, str, str | None]]) -> None:
        self.fp: dict[str, str] = {}
        self.sources: dict[str, set[str]] = {}
        self.by_source: dict[str, str] = {}
        self.legacy: dict[str, set[str]] = {}
        self.path: dict[str, str] = {}
        for doc_id, path, fp, source in rows:
            self.fp[doc_id], self.path[doc_id] = fp, path
            self.sources.setdefault(doc_id, set())
            if source is not None:
                self.sources[doc_id].add(source)
                self.by_source[source] = doc_id
        for doc_id, srcs in self.sources.items():
            if not srcs:
                self.legacy.setdefault(self.path[doc_id], set()).add(doc_id)

    def holder(self, source: str, path: str) -> str | None:
        """The document this source holds now (a legacy one by its path)."""
        found = self.by_source.get(source)
        if found is None and self.legacy.get(path):
            found = min(self.legacy[path])
        return found

    def owns(self, doc_id: str, source: str, path: str) -> bool:
        return source in self.sources.get(doc_id, ()) or doc_id in self.legacy.get(path, ())

    def drop(self, doc_id: str) -> None:
        for src in self.sources.pop(doc_id, set()):
            if self.by_source.get(src) == doc_id:
                del self.by_source[src]
        path = self.path.pop(doc_id, None)
        self.legacy.get(path, set()).discard(doc_id)
        self.fp.pop(doc_id, None)

    def point(self, source: str, doc_id: str, path: str) -> None:
        """``source`` now holds ``doc_id`` (its document stored or kept)."""
        before = self.by_source.get(source)
        if before is not None and before != doc_id:
            self.sources.get(before, set()).discard(source)
        self.legacy.get(self.path.get(doc_id), set()).discard(doc_id)   # now it has a source
        self.by_source[source] = doc_id
        self.sources.setdefault(doc_id, set()).add(source)
        self.path.setdefault(doc_id, path)

    def plan(self, doc_id: str, path: str, fp: str, source: str, force: bool) -> Plan:
        prev = self.holder(source, path)
        plan = Plan(False)
        if prev is not None and prev != doc_id:
            plan.replaces, plan.previous = True, prev
            left = self.sources.get(prev, set()) - {source}
            if not left:                 # no other source holds its bytes: it goes
                plan.stale.append(prev)
            else:
                self.sources[prev] = left
                self.by_source.pop(source, None)
        if doc_id not in self.fp:
            plan.insert = True
        elif self.owns(doc_id, source, path) and (force or self.fp[doc_id] != fp):
            plan.insert = True           # its own source, new overrides or versions: redo
            plan.stale.append(doc_id)
        for gone in plan.stale:
            self.drop(gone)
        if plan.insert:
            self.fp[doc_id] = fp
        plan.locate = source not in self.sources.get(doc_id, ())
        self.point(source, doc_id, path)
        return plan


DUCKDB_HEADER_BYTES = 3 * 4096   # the file header and two database headers


def _truncated(con, db: Path) -> str | None:
    """Why the file is shorter than its own header says (cut short by a copy, a full disk
    or a crash of the file system), or None. Checked at open, so a truncated warehouse is
    refused in one line before any query reads past its end.

    DuckDB writes whole blocks after its header, and a checkpoint cuts free blocks off the
    end of the file while ``total_blocks`` still counts them (a second ingest that frees
    the last blocks leaves a file shorter than ``total_blocks`` says: sound, not damaged).
    So the file must hold whole blocks, at least as many as are in use."""
    if str(db) == ":memory:":
        return None
    try:
        row = con.execute("SELECT used_blocks, block_size FROM pragma_database_size() "
                          "WHERE database_name = current_database()").fetchone()
        have = os.path.getsize(db)
    except (duckdb.Error, OSError):
        return None
    if not row or row[0] is None or not row[1]:
        return None
    used, size = int(row[0]), int(row[1])
    want = DUCKDB_HEADER_BYTES + used * size
    if have < want:
        return (f"it is {have:,} bytes and its header says {want:,} are in use (truncated: "
                "a copy cut short, or a disk that filled up?)")
    if used and (have - DUCKDB_HEADER_BYTES) % size:
        return (f"it is {have:,} bytes, not a whole number of its {size:,}-byte blocks "
                "(truncated: a copy cut short, or a disk that filled up?)")
    return None


def _verify_blocks(con) -> None:
    """Read every stored value once, so a block whose checksum fails (a garbled file)
    raises here, when the writer opens, and not after new files were committed on top of
    it. DuckDB checks a block's checksum only when it reads the block; hashing every column
    of every table reads them all (1.2 s at a million claims, on a shared 2-core machine;
    readers skip it: they change nothing and fail with the same one line when they meet
    the block)."""
    for (table,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
            " AND schema_name = 'main' ORDER BY table_name").fetchall():
        con.execute(f"SELECT count(*), bit_xor(hash(COLUMNS(*))) FROM {_q(table)}").fetchall()


class Store:
    """One DuckDB connection, either the single writer or a read-only reader."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path, read_only: bool) -> None:
        self.con, self.path, self.read_only = con, path, read_only
        self.shadowed: list[str] = []      # views a reader takes from the package, not the file
        self.migrated: list[migrate.Migration] = []   # schema steps this open applied

    def cursor(self) -> "Store":
        """The same database through a connection of its own, for another thread (a
        DuckDB connection is not to be shared between threads). Settings are the
        database's, so the guards hold; temporary views are per connection, so a reader's
        are made again."""
        cur = Store(self.con.cursor(), self.path, self.read_only)
        cur.shadowed = list(self.shadowed)
        if self.read_only and self.shadowed:
            dbguard.shadow_views(cur.con, view_sqls(), self.shadowed)
        return cur

    # --- opening ---------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike | None = None, read_only: bool = False,
             sandbox: bool = True) -> "Store":
        """Open (and on first write, create) the database; StoreError on user problems.

        DuckDB lets one process write a database file and no other process read it
        meanwhile: a second writer, or a reader during an ingest, gets a StoreError saying
        the database is busy and which process holds it. Every connection is sandboxed
        (no file, network or extension access from SQL, configuration locked) and carries
        the optimizer guard (``pipeline.dbguard``; ``sandbox`` is kept for callers, the
        guards are not optional); a database that is not a claims warehouse is refused.
        """
        db = resolve_db(path)
        if printable(str(db)) != str(db):    # DuckDB takes UTF-8 names only (std::bad_cast)
            raise StoreError(f"cannot use {printable(str(db))}: the database's name is not valid "
                             "UTF-8 (its bytes are shown as \\xNN): rename it or give another --db")
        if read_only and not db.is_file():
            raise StoreError(f"no database at {db} (run `claims ingest` first, or pass --db)")
        if not read_only:
            try:
                db.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create {db.parent}: {exc.strerror}") from None
        try:
            con = dbguard.connect(str(db), read_only=read_only)
        except duckdb.Error as exc:
            raise StoreError(_open_error(db, exc, read_only)) from None
        store = cls(con, db, read_only)
        try:
            short = _truncated(con, db)
            if short:
                raise StoreError(f"cannot use {db}: the database file is damaged: {short}; "
                                 "restore it from a copy, or ingest again into a new --db")
            if not read_only:
                _verify_blocks(con)
            store.migrated = store._upgrade()
            store.shadowed = dbguard.check_shape(con, schema_sql(), view_sqls(),
                                                 writer=not read_only)
            if read_only:
                dbguard.shadow_views(con, view_sqls(), store.shadowed)
            else:
                store.apply_schema()
        except (dbguard.ShapeError, migrate.VersionError) as exc:
            con.close()
            raise StoreError(f"cannot use {db}: {exc}") from None
        except duckdb.Error as exc:
            con.close()
            problem = damaged(exc) or disk_full(exc, db)
            if problem:
                raise StoreError(f"cannot use {db}: {problem}") from None
            raise
        except BaseException:
            con.close()
            raise
        return store

    def _upgrade(self) -> list[migrate.Migration]:
        """Bring an older warehouse to the current schema version (a writer), step by step
        (``pipeline.migrate``); the steps applied. Its shape is checked against its own
        version first, so a foreign file is refused, never "migrated". A reader cannot
        write: it is told how to upgrade; a file newer than this release is refused."""
        version = migrate.stored_version(self.con)
        if version is None:
            return []
        migrate.refuse_newer(version)
        if version == migrate.latest():
            return []
        dbguard.check_shape(self.con, migrate.schema_at(version), (), writer=not self.read_only)
        if self.read_only:
            raise migrate.VersionError(
                f"it is an older warehouse (schema version {version}; this claims uses "
                f"{migrate.latest()}): run `claims migrate --db {self.path}` once to upgrade it "
                "(every row is kept; `claims ingest` and `claims link` upgrade it too)")
        return migrate.upgrade(self.con, version)

    def apply_schema(self) -> None:
        """Create tables (idempotent), record the schema version of a new warehouse, and
        (re)create the views shipped in warehouse/views."""
        self.con.execute(schema_sql())
        migrate.mark_new(self.con)
        for name, sql in view_sqls():
            try:
                self.con.execute(sql)
            except duckdb.Error as exc:
                raise StoreError(f"warehouse/views/{name}: {one_line(exc)}") from None

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- ingest writes ---------------------------------------------------------------
    def plan(self, doc_id: str, path: str, fingerprint: str, force: bool = False,
             source: str | None = None) -> Plan:
        """Skip an unchanged source, replace a changed one, never store the same bytes twice.

        A document is its bytes (``doc_id``) read from a source (``source``: the resolved
        file path or the address; ``path`` when not given). The same bytes already stored
        from another source count as unchanged (the source is added to the document's
        locations); a source whose bytes changed replaces its own earlier version, which is
        removed unless another source still holds it; ``force`` redoes a stored document
        read from its own source even when nothing changed.
        """
        return self.plan_many([(doc_id, path, fingerprint, source)], force)[0]

    def plan_many(self, items: Sequence[tuple], force: bool = False) -> list[Plan]:
        """``plan`` for (doc id, path, fingerprint[, source]) items in order, one query.

        Each item is planned as if the ones before it had been written (a file that moves
        to another path while its old path gets new bytes is still stored once).
        """
        import pyarrow as pa

        if not items:
            return []
        items = [(i[0], i[1], i[2], (i[3] if len(i) > 3 and i[3] else i[1])) for i in items]
        probe = pa.table({"id": pa.array([i[0] for i in items], pa.string()),
                          "path": pa.array([i[1] for i in items], pa.string()),
                          "source": pa.array([i[3] for i in items], pa.string())})
        self.con.register("_plan_batch", probe)
        try:
            rows = self.con.execute(
                "SELECT d.id, d.path, d.fingerprint, l.source FROM documents d"
                " LEFT JOIN locations l ON l.doc_id = d.id"
                " WHERE d.id IN (SELECT id FROM _plan_batch)"
                " OR d.id IN (SELECT doc_id FROM locations"
                "             WHERE source IN (SELECT source FROM _plan_batch))"
                " OR (d.path IN (SELECT path FROM _plan_batch)"
                "     AND d.id NOT IN (SELECT doc_id FROM locations))"
            ).fetchall()
        finally:
            self._forget("_plan_batch")
        known = _Known(rows)
        return [known.plan(doc_id, path, fp, source, force) for doc_id, path, fp, source in items]

    def write(self, doc: Document, claims: Sequence[Claim], fingerprint: str,
              at: dt.datetime | None = None, force: bool = False,
              keys: Sequence[tuple[str, str, str | None]] | None = None,
              source: str | None = None) -> str:
        """Store ``doc`` with its pages and claims in one transaction; returns the action.

        ``keys`` are the claims' (claim id, quantity key, subject) for ``claim_keys``; the
        document is also queued in ``link_pending`` for the next link. ``source`` is where
        it was read (see ``plan``).
        """
        return self.write_many([Stored.of(doc, claims, fingerprint, keys, source)],
                               at=at, force=force)[0]

    def write_many(self, items: Sequence["Stored"], at: dt.datetime | None = None,
                   force: bool = False, errors: Sequence[tuple[str, str]] = (),
                   locations: Sequence[tuple[str, str, str]] = ()) -> list[str]:
        """Store many files in one transaction: each lands whole, and all or none of them.

        Returns each item's action (new | replaced | skipped), planned in order as ``plan``
        does. ``errors`` are (path, reason[, source]) of files that failed, kept in
        ``ingest_errors`` (the latest reason per source; per path when no source is given)
        in the same transaction; a stored source loses its error. ``locations`` are (source, doc id, path) of sources found to hold bytes
        already stored (a duplicate skipped before parsing): each is kept if its document
        is stored. Rows go in as Arrow batches: one INSERT per table for the whole batch.
        """
        at = at or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
        con = self.con
        con.begin()
        try:
            actions = self._write_batch(items, at, force) if items else []
            located = [(s.location, s.doc.id, s.doc.path) for s in items] + list(locations)
            if located:
                self._locate(located, at)
            if errors:
                self._record_errors(errors, at)
            con.commit()
        except BaseException:
            _rollback(con)
            raise
        finally:
            for name in ("_docs_batch", "_pages_batch", "_claims_batch", "_keys_batch",
                         "_paths_batch", "_errors_batch", "_locations_batch", "_gone_batch"):
                self._forget(name)
        return actions

    def _write_batch(self, items: Sequence["Stored"], at: dt.datetime, force: bool) -> list[str]:
        import pyarrow as pa

        con = self.con
        plans = self.plan_many([(s.doc.id, s.doc.path, s.fingerprint, s.location)
                                for s in items], force)
        stale: set[str] = set()
        inserts: dict[str, Stored] = {}
        for s, plan in zip(items, plans):
            s.previous = plan.previous
            for gone in plan.stale:
                stale.add(gone)
                inserts.pop(gone, None)     # written earlier in this batch, replaced again
            if plan.insert:
                inserts[s.doc.id] = s
        if stale:
            self._delete(sorted(stale))
            gone = sorted(stale - set(inserts))     # redone documents keep their sources
            if gone:
                con.register("_gone_batch", pa.table({"id": pa.array(gone, pa.string())}))
                con.execute("DELETE FROM locations WHERE doc_id IN (SELECT id FROM _gone_batch)")
        new = list(inserts.values())
        for s in new:
            if s.duplicate is not None:     # claims.id is unique without an index (schema.sql)
                raise duckdb.ConstraintException(
                    f"Duplicate key \"id: {s.duplicate}\" violates uniqueness of claims.id")
        if new:
            con.register("_docs_batch", _documents_table(new, at))
            cols = ", ".join(DOCUMENT_COLUMNS)
            con.execute(f"INSERT INTO documents ({cols}) SELECT {DOCUMENT_SELECT} FROM _docs_batch")
            pages = [(s.doc.id, p.number, p.start, p.end) for s in new for p in s.doc.pages]
            if pages:
                con.register("_pages_batch", pa.table(
                    [pa.array([p[i] for p in pages], t) for i, t in
                     enumerate((pa.string(), pa.int32(), pa.int32(), pa.int32()))],
                    names=["doc_id", "page", "start", "end"]))
                con.execute('INSERT INTO pages (doc_id, page, start, "end")'
                            ' SELECT doc_id, page, start, "end" FROM _pages_batch')
            claims = [row for s in new for row in s.claims]
            if claims:
                # one chunk: DuckDB scans a table of many small chunks several times slower
                con.register("_claims_batch", rows_table(claims, claim_schema()))
                qcols = ", ".join(_q(c) for c in CLAIM_COLUMNS + FACT_COLUMNS)
                con.execute(f"INSERT INTO claims ({qcols}) SELECT {qcols} FROM _claims_batch")
            keys = [row for s in new if s.keys for row in s.keys]
            if keys:
                con.register("_keys_batch", rows_table(keys, KEYS_SCHEMA()))
                con.execute("INSERT INTO claim_keys SELECT claim_id, doc_id, qkey, subject FROM _keys_batch")
            con.execute("INSERT INTO link_pending (change, doc_id)"
                        " SELECT 'added', id FROM _docs_batch")
        con.register("_paths_batch", pa.table({"path": pa.array([s.doc.path for s in items], pa.string()),
                                               "source": pa.array([s.location for s in items], pa.string())}))
        # a stored source loses its error; a row from before sources were kept, by its path
        con.execute("DELETE FROM ingest_errors WHERE source IN (SELECT source FROM _paths_batch)"
                    " OR (source IS NULL AND path IN (SELECT path FROM _paths_batch))")
        return [p.action for p in plans]

    def _locate(self, located: Sequence[tuple[str, str, str]], at: dt.datetime) -> None:
        """Point each source at the document it holds now (the last word per source wins);
        a source whose document is not stored (its write failed) keeps what it had."""
        import pyarrow as pa

        latest = {src: (doc_id, path) for src, doc_id, path in located}
        self.con.register("_locations_batch", pa.table({
            "source": pa.array(list(latest), pa.string()),
            "doc_id": pa.array([v[0] for v in latest.values()], pa.string()),
            "path": pa.array([v[1] for v in latest.values()], pa.string()),
            "seen_at": pa.array([at] * len(latest), pa.timestamp("us"))}))
        self.con.execute("DELETE FROM locations WHERE source IN (SELECT b.source FROM _locations_batch b"
                         " WHERE b.doc_id IN (SELECT id FROM documents))")
        self.con.execute("INSERT INTO locations SELECT source, doc_id, path, seen_at FROM _locations_batch"
                         " WHERE doc_id IN (SELECT id FROM documents)")

    def _forget(self, name: str) -> None:
        try:
            self.con.unregister(name)
        except duckdb.Error:
            pass

    def _delete(self, doc_ids: list[str]) -> None:
        """Remove documents and everything hanging off them (pages, claims, links, clusters).

        What the next link must revisit is queued in ``link_pending``: the removed
        documents (with the names attribution matches on) and their claims' quantity keys.
        """
        ids = list(doc_ids)
        con = self.con
        con.execute("INSERT INTO link_pending (change, qkey) SELECT DISTINCT 'key', qkey"
                    " FROM claim_keys WHERE list_contains(?, doc_id)", [ids])
        con.execute("INSERT INTO link_pending (change) SELECT 'full' WHERE EXISTS ("
                    " SELECT 1 FROM claims c WHERE list_contains(?, c.doc_id)"
                    " AND c.id NOT IN (SELECT claim_id FROM claim_keys))", [ids])
        con.execute("INSERT INTO link_pending (change, doc_id, path, publisher, title, author, url)"
                    " SELECT 'removed', id, path, publisher, title, author, url FROM documents"
                    " WHERE list_contains(?, id)", [ids])
        con.execute("DELETE FROM link_pending WHERE change = 'added' AND list_contains(?, doc_id)", [ids])
        con.execute("DELETE FROM claim_keys WHERE list_contains(?, doc_id)", [ids])
        claim_ids = "SELECT id FROM claims WHERE list_contains(?, doc_id)"
        self.con.execute(f"DELETE FROM links WHERE src IN ({claim_ids}) OR dst IN ({claim_ids})"
                         f" OR other IN ({claim_ids})", [ids, ids, ids])
        self.con.execute(f"DELETE FROM clusters WHERE claim_id IN ({claim_ids})", [ids])
        for table, col in (("claims", "doc_id"), ("pages", "doc_id"), ("documents", "id")):
            self.con.execute(f"DELETE FROM {table} WHERE list_contains(?, {col})", [ids])

    def record_error(self, path: str, reason: str, at: dt.datetime | None = None,
                     source: str | None = None) -> None:
        """Keep only the latest failure per source (per display path when none is given)."""
        self.write_many([], at=at, errors=[(path, reason, source)])

    def _record_errors(self, errors: Sequence[tuple], at: dt.datetime) -> None:
        """(path, reason[, source]) rows, one per source: a file is identified by where it
        was read, as documents are (two folders' README.md are two rows); without a source
        (an address that never parsed, an older caller) the display path stands for it."""
        import pyarrow as pa

        latest: dict[str, tuple[str, str, str | None]] = {}
        for error in errors:
            path, reason = error[0], error[1]
            source = error[2] if len(error) > 2 else None
            if source:                   # a name that is not UTF-8 is kept as \xNN text
                source = printable(source)
            latest[source or path] = (path, " ".join(reason.split()), source)
        rows = list(latest.values())
        self.con.register("_errors_batch", pa.table({
            "path": pa.array([r[0] for r in rows], pa.string()),
            "reason": pa.array([r[1] for r in rows], pa.string()),
            "failed_at": pa.array([at] * len(rows), pa.timestamp("us")),
            "source": pa.array([r[2] for r in rows], pa.string())}))
        self.con.execute("DELETE FROM ingest_errors WHERE coalesce(source, path) IN"
                         " (SELECT coalesce(source, path) FROM _errors_batch)"
                         " OR (source IS NULL AND path IN (SELECT path FROM _errors_batch))")
        self.con.execute("INSERT INTO ingest_errors (path, reason, failed_at, source)"
                         " SELECT path, reason, failed_at, source FROM _errors_batch")

    def write_links(self, links: Iterable[Link], clusters: Iterable[tuple[str, str]] = ()) -> None:
        """Replace all links and clusters in one transaction (nothing else changes)."""
        self.save_links(list(links), list(clusters), done=False)

    # --- link stage: what to relink, and its results ----------------------------------
    def pending(self) -> "Pending":
        """Changes queued since the last link (see ``link_pending`` in schema.sql)."""
        p = Pending()
        for change, doc_id, qkey, path, publisher, title, author, url in self.con.execute(
                "SELECT change, doc_id, qkey, path, publisher, title, author, url"
                " FROM link_pending ORDER BY ALL").fetchall():
            if change == "added":
                p.added.append(doc_id)
            elif change == "removed":
                p.removed.append(dict(id=doc_id, path=path, publisher=publisher, title=title,
                                      author=author, url=url))
            elif change == "key":
                p.keys.add(qkey)
            else:
                p.full = True
        p.added = sorted(set(p.added))
        return p

    def needs_full_link(self) -> bool:
        """Claims without stored keys, or documents never linked and not queued (a
        database written before linking existed, or by ``write`` without keys)."""
        return bool(self.con.execute(
            "SELECT EXISTS (SELECT 1 FROM claims WHERE id NOT IN (SELECT claim_id FROM claim_keys))"
            " OR EXISTS (SELECT 1 FROM documents WHERE role_source IS NULL AND id NOT IN"
            " (SELECT doc_id FROM link_pending WHERE change = 'added'))").fetchone()[0])

    def document_rows(self) -> list[dict[str, Any]]:
        """Every document's metadata (not its text), for the link stage's DocMeta."""
        cur = self.con.execute(
            "SELECT id, path, role, role_source, strftime(published, '%Y-%m-%d') AS published,"
            " publisher, title, author, url FROM documents ORDER BY id")
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]

    def iter_texts(self, doc_ids: Iterable[str], batch_rows: int = 64) -> Iterator[tuple[str, str]]:
        """(id, text) of these documents in id order, a few texts in memory at a time."""
        with self._ids("_text_ids", doc_ids):
            cur = self.con.execute("SELECT id, text FROM documents"
                                   " WHERE id IN (SELECT id FROM _text_ids) ORDER BY id")
            while rows := cur.fetchmany(batch_rows):
                yield from rows

    def inferred_roles(self, doc_ids: Iterable[str]) -> dict[str, str]:
        """Roles the ingest workers inferred (``meta.inferred_role``) for these documents."""
        with self._ids("_role_ids", doc_ids):
            rows = self.con.execute(
                "SELECT id, json_extract_string(meta, '$.inferred_role') FROM documents"
                " WHERE id IN (SELECT id FROM _role_ids)").fetchall()
        return {d: r for d, r in rows if r in ("primary", "secondary", "unknown")}

    def subjects_of(self, doc_ids: Sequence[str]) -> set[str]:
        """Subjects of the stored claims of these documents."""
        with self._ids("_doc_ids", doc_ids):
            rows = self.con.execute("SELECT DISTINCT subject FROM claim_keys WHERE subject IS NOT NULL"
                                    " AND doc_id IN (SELECT id FROM _doc_ids)").fetchall()
        return {r[0] for r in rows}

    def documents_on(self, subjects: Sequence[str], families: Iterable[str] | None = None) -> set[str]:
        """Documents holding a claim on one of these subjects (of these families)."""
        where = ""
        if families is not None:
            where = " AND split_part(qkey, '|', 1) IN (SELECT id FROM _families)"
        with self._ids("_subjects", subjects), self._ids("_families", families or ()):
            rows = self.con.execute("SELECT DISTINCT doc_id FROM claim_keys"
                                    " WHERE subject IN (SELECT id FROM _subjects)" + where).fetchall()
        return {r[0] for r in rows}

    def attributions(self, doc_ids: Sequence[str] | None = None,
                     subjects: Sequence[str] | None = None) -> list[tuple[str, str | None]]:
        """Distinct (asserted_by, subject) of claims that credit a source; with ``doc_ids``
        or ``subjects`` only those of claims in these documents or on these subjects."""
        where = ""
        with self._ids("_doc_ids", doc_ids or []), self._ids("_subjects", subjects or []):
            if doc_ids is not None or subjects is not None:
                where = (" AND (c.doc_id IN (SELECT id FROM _doc_ids)"
                         " OR k.subject IN (SELECT id FROM _subjects))")
            rows = self.con.execute(
                "SELECT DISTINCT c.asserted_by, k.subject FROM claims c"
                " LEFT JOIN claim_keys k ON k.claim_id = c.id"
                " WHERE c.asserted_by IS NOT NULL" + where + " ORDER BY ALL").fetchall()
        return [(r[0], r[1]) for r in rows]

    def iter_claims(self, docs: Iterable[str] | None = None, subjects: Iterable[str] = (),
                    siblings: tuple[Iterable[str], str, str] | None = None,
                    asserted_by: Iterable[str] = (), batch_rows: int = 20000,
                    ids: Iterable[str] = (), columns: Sequence[str] | None = None
                    ) -> Iterator[Claim]:
        """Stored claims as records, fetched in Arrow batches, in (doc_id, start, end, id)
        order. All of them; or, with ``docs`` given, every claim of those documents, the
        claims on ``subjects``, the claims of family and scope ``siblings[1:]`` in the
        documents ``siblings[0]``, the claims crediting a source in ``asserted_by`` and
        the claims ``ids``. ``columns`` (the required fields among them) fetches only
        those; the others keep their defaults."""
        names = list(columns or CLAIM_COLUMNS)
        cols = ", ".join("c." + _q(c) for c in names)
        sib_docs, sib_family, sib_scope = siblings or ((), "", "")
        where, params = "", []
        if docs is not None:
            where = (" WHERE c.doc_id IN (SELECT id FROM _docs)"
                     " OR c.id IN (SELECT claim_id FROM claim_keys WHERE subject IN (SELECT id FROM _subjects))"
                     " OR (c.family = ? AND c.scope = ? AND c.doc_id IN (SELECT id FROM _siblings))"
                     " OR c.asserted_by IN (SELECT id FROM _credits)"
                     " OR c.id IN (SELECT id FROM _claim_ids)")
            params = [sib_family, sib_scope]
        with self._ids("_docs", docs or ()), self._ids("_subjects", subjects), \
                self._ids("_siblings", sib_docs), self._ids("_credits", asserted_by), \
                self._ids("_claim_ids", ids):
            rel = self.con.sql(
                f'SELECT {cols} FROM claims c{where} ORDER BY c.doc_id, c.start, c."end", c.id',
                params=params or None)
            reader = (getattr(rel, "to_arrow_reader", None) or rel.fetch_arrow_reader)(batch_rows)
            # one string object per distinct value of a column that repeats (a family, a
            # model, a document id), not one per claim: a partition of 250,000 claims is
            # ~40% smaller in memory, and the link holds a partition at a time
            shared = {c: {} for c in names if c in REPEATED_COLUMNS}

            def columns_of(batch):
                out = []
                for name, col in zip(names, batch.columns):
                    values = col.to_pylist()
                    same = shared.get(name)
                    if same is not None:
                        values = [same.setdefault(v, v) for v in values]
                    out.append(values)
                return out

            if columns is not None:
                for batch in reader:
                    for values in zip(*columns_of(batch)):
                        yield Claim(**dict(zip(names, values)))
                return
            findings = CLAIM_COLUMNS.index("findings")
            for batch in reader:
                for values in zip(*columns_of(batch)):   # columns in Claim order
                    c = Claim(*values)
                    if values[findings] is None:
                        c.findings = []
                    yield c

    def save_links(self, links: list[Link], clusters: list[tuple[str, str]],
                   findings: dict[str, list[str]] | None = None,
                   roles: dict[str, str] | None = None,
                   keys: list[tuple[str, str, str, str | None]] | None = None,
                   scope: "LinkScope | None" = None, done: bool = True) -> None:
        """Write a link result in one transaction; with ``done`` clear ``link_pending``.

        Without ``scope`` every link and cluster is replaced (a full link). With it, only
        what the relinked claims own is: pair links of ``scope.claims``, derived checks of
        ``scope.ratios`` and cluster rows of ``scope.claims``. ``findings`` (claim id ->
        list) are the claims' new findings (only those that changed need be given);
        ``roles`` are inferred roles (doc id -> role), never written over a manifest or
        metadata role; ``keys`` (claim id, doc id, quantity key, subject) replace all of
        ``claim_keys``.
        """
        import pyarrow as pa

        con = self.con
        names = ["_own_claims", "_own_ratios", "_links_batch", "_clusters_batch",
                 "_findings_batch", "_roles_batch", "_keys_batch"]
        con.begin()
        try:
            if scope is None:
                con.execute("DELETE FROM links")
                con.execute("DELETE FROM clusters")
            else:
                con.register("_own_claims", pa.table({"id": pa.array(sorted(scope.claims), pa.string())}))
                con.register("_own_ratios", pa.table({"id": pa.array(sorted(scope.ratios), pa.string())}))
                con.execute("DELETE FROM links WHERE (relation <> 'derives' AND"
                            " (src IN (SELECT id FROM _own_claims) OR dst IN (SELECT id FROM _own_claims)))"
                            " OR (relation = 'derives' AND src IN (SELECT id FROM _own_ratios))")
                con.execute("DELETE FROM clusters WHERE claim_id IN (SELECT id FROM _own_claims)")
            self.append_links(links, clusters, findings)
            if roles:
                con.register("_roles_batch", pa.table({
                    "id": pa.array(list(roles), pa.string()),
                    "role": pa.array(list(roles.values()), pa.string())}))
                con.execute("UPDATE documents SET role = r.role, role_source = 'inferred'"
                            " FROM _roles_batch r WHERE documents.id = r.id"
                            " AND (documents.role_source IS NULL OR documents.role_source = 'inferred')")
            if keys is not None:
                con.execute("DELETE FROM claim_keys")
                self.append_keys(keys)
            if done:
                con.execute("DELETE FROM link_pending")
            con.commit()
        except BaseException:
            _rollback(con)
            raise
        finally:
            for name in names:
                self._forget(name)

    def derived_links(self, subjects: Iterable[str]) -> list[Link]:
        """The stored derived checks (``derives``) of ratio claims on these subjects."""
        cols = ", ".join("l." + _q(c) for c in LINK_COLUMNS)
        with self._ids("_subjects", subjects):
            rows = self.con.execute(
                f"SELECT {cols} FROM links l WHERE l.relation = 'derives' AND l.src IN"
                " (SELECT claim_id FROM claim_keys WHERE subject IN (SELECT id FROM _subjects))"
                " ORDER BY l.src, l.dst").fetchall()
        return [Link(*r) for r in rows]

    def append_links(self, links: list[Link], clusters: list[tuple[str, str]] = (),
                     findings: dict[str, list[str]] | None = None) -> None:
        """Insert links and cluster rows and set claims' findings, inside the caller's
        transaction (``save_links``, or a link written partition by partition)."""
        import pyarrow as pa

        con = self.con
        try:
            if links:
                con.register("_links_batch", pa.Table.from_pylist([vars(ln) for ln in links],
                                                                  schema=arrow_schema(Link)))
                cols = ", ".join(_q(c) for c in LINK_COLUMNS)
                con.execute(f"INSERT INTO links ({cols}) SELECT {cols} FROM _links_batch")
            if clusters:
                con.register("_clusters_batch", pa.table({
                    "cluster_id": pa.array([c[0] for c in clusters], pa.string()),
                    "claim_id": pa.array([c[1] for c in clusters], pa.string())}))
                con.execute("INSERT INTO clusters SELECT cluster_id, claim_id FROM _clusters_batch")
            if findings:
                con.register("_findings_batch", pa.table({
                    "id": pa.array(list(findings), pa.string()),
                    "findings": pa.array(list(findings.values()), pa.list_(pa.string()))}))
                con.execute("UPDATE claims SET findings = f.findings FROM _findings_batch f"
                            " WHERE claims.id = f.id")
        finally:
            for name in ("_links_batch", "_clusters_batch", "_findings_batch"):
                self._forget(name)

    def append_keys(self, keys: list[tuple[str, str, str, str | None]]) -> None:
        """Insert (claim id, doc id, quantity key, subject) rows into ``claim_keys``, inside
        the caller's transaction."""
        if not keys:
            return
        self.con.register("_keys_batch", rows_table(keys, KEYS_SCHEMA()))
        try:
            self.con.execute("INSERT INTO claim_keys SELECT claim_id, doc_id, qkey, subject"
                             " FROM _keys_batch")
        finally:
            self._forget("_keys_batch")

    def link_totals(self) -> "LinkTotals":
        """Links per relation, findings per kind and the number of clusters, as stored."""
        t = LinkTotals()
        t.relations = dict(self.con.execute(
            "SELECT relation, count(*) FROM links GROUP BY relation").fetchall())
        t.findings = dict(self.con.execute(
            "SELECT f, count(*) FROM (SELECT unnest(findings) AS f FROM claims) GROUP BY f").fetchall())
        t.clusters = self.con.execute("SELECT count(DISTINCT cluster_id) FROM clusters").fetchone()[0]
        return t

    @contextlib.contextmanager
    def _ids(self, name: str, values: Iterable[str]):
        """Register ``values`` as a one-column (``id``) table for ``IN (SELECT id ...)``."""
        import pyarrow as pa

        self.con.register(name, pa.table({"id": pa.array(sorted(set(values)), pa.string())}))
        try:
            yield
        finally:
            self._forget(name)

    # --- reads -----------------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] | None = None) -> tuple[list[str], list[tuple]]:
        """Column names and rows of a query."""
        cur = self.con.execute(sql, params or [])
        return [d[0] for d in cur.description], cur.fetchall()

    def arrow(self, sql: str):
        """The query's result as one Arrow table (Parquet export)."""
        rel = self.con.sql(sql)
        to_arrow = getattr(rel, "to_arrow_table", None) or rel.arrow
        return to_arrow()

    def cursor_for(self, sql: str):
        """A cursor whose rows can be fetched in batches (exports)."""
        return self.con.execute(sql)
