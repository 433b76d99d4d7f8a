"""DuckDB: schema, one-transaction-per-document writes, read-only connections for queries.

A file lands whole or not at all: its document row, its pages and its claims are written
in one transaction, after removing whatever an earlier version of the same file left
behind (its claims' links and cluster memberships included). Claims go in as one Arrow
batch, not a row at a time. Queries (`claims sql`, `claims export`) open the database
read-only, and `check_read_only` refuses any statement that is not a single read.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import types
import typing
from dataclasses import dataclass, field, fields
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterable, Sequence

import duckdb

from pipeline.model import Claim, Document, Link

WAREHOUSE_PACKAGE = "pipeline.warehouse"
DEFAULT_DB = Path("warehouse") / "claims.duckdb"
DB_ENV = "CLAIMS_DB"
READ_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


class StoreError(Exception):
    """A problem the user can fix (no database, a write in `sql`, a locked file)."""


def one_line(exc: BaseException) -> str:
    """The first line of an exception's message, for errors shown to users."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def resolve_db(db: str | os.PathLike | None = None) -> Path:
    """--db, else $CLAIMS_DB, else warehouse/claims.duckdb under the current folder."""
    chosen = db or os.environ.get(DB_ENV) or DEFAULT_DB
    return Path(chosen).expanduser()


def schema_sql() -> str:
    """warehouse/schema.sql as shipped inside the installed package."""
    return files(WAREHOUSE_PACKAGE).joinpath("schema.sql").read_text(encoding="utf-8")


def view_sqls() -> list[tuple[str, str]]:
    """(name, SQL) of every warehouse/views/*.sql, in name order."""
    folder = files(WAREHOUSE_PACKAGE).joinpath("views")
    if not folder.is_dir():
        return []
    return [(p.name, p.read_text(encoding="utf-8"))
            for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".sql")]


def check_read_only(sql: str) -> None:
    """Raise StoreError unless ``sql`` is exactly one SELECT/WITH/EXPLAIN-style read."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise StoreError(f"SQL not understood: {one_line(exc)}") from None
    if not statements:
        raise StoreError("no SQL statement given")
    if len(statements) > 1:
        raise StoreError(f"one statement at a time, got {len(statements)}")
    kind = statements[0].type
    if kind not in READ_STATEMENTS:
        name = getattr(kind, "name", str(kind))
        raise StoreError(f"refused: `claims sql` is read-only and this is a {name} statement")


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


CLAIM_COLUMNS = [f.name for f in fields(Claim)]
LINK_COLUMNS = [f.name for f in fields(Link)]


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass
class Plan:
    """What writing a document would do: insert it, and which stored documents it replaces."""

    insert: bool
    stale: list[str] = field(default_factory=list)

    @property
    def action(self) -> str:
        if self.stale:
            return "replaced"
        return "new" if self.insert else "skipped"


class Store:
    """One DuckDB connection, either the single writer or a read-only reader."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: Path, read_only: bool) -> None:
        self.con, self.path, self.read_only = con, path, read_only

    # --- opening ---------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike | None = None, read_only: bool = False) -> "Store":
        """Open (and on first write, create) the database; StoreError on user problems."""
        db = resolve_db(path)
        if read_only and not db.is_file():
            raise StoreError(f"no database at {db} (run `claims ingest` first, or pass --db)")
        if not read_only:
            try:
                db.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create {db.parent}: {exc.strerror}") from None
        try:
            con = duckdb.connect(str(db), read_only=read_only)
        except duckdb.Error as exc:
            raise StoreError(f"cannot open {db}: {one_line(exc)}") from None
        store = cls(con, db, read_only)
        if not read_only:
            store.apply_schema()
        return store

    def apply_schema(self) -> None:
        """Create tables (idempotent) and (re)create the views shipped in warehouse/views."""
        self.con.execute(schema_sql())
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
    def plan(self, doc_id: str, path: str, fingerprint: str, force: bool = False) -> Plan:
        """Skip an unchanged file, replace a changed one, never store the same bytes twice.

        Same bytes already stored under another path count as unchanged (a duplicate);
        ``force`` replaces a stored document even when nothing changed.
        """
        row = self.con.execute(
            "SELECT path, fingerprint FROM documents WHERE id = ?", [doc_id]).fetchone()
        stale = [r[0] for r in self.con.execute(
            "SELECT id FROM documents WHERE path = ? AND id <> ? ORDER BY id",
            [path, doc_id]).fetchall()]
        if row is None:
            return Plan(True, stale)
        stored_path, stored_fp = row
        if stored_path == path and (force or stored_fp != fingerprint):
            return Plan(True, stale + [doc_id])
        return Plan(False, stale)

    def write(self, doc: Document, claims: Sequence[Claim], fingerprint: str,
              at: dt.datetime | None = None, force: bool = False) -> str:
        """Store ``doc`` with its pages and claims in one transaction; returns the action."""
        for c in claims:
            if c.doc_id != doc.id:
                raise ValueError(f"claim {c.id} has doc_id {c.doc_id!r}, expected {doc.id!r}")
        at = at or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
        con = self.con
        con.begin()
        try:
            plan = self.plan(doc.id, doc.path, fingerprint, force)
            if plan.stale:
                self._delete(plan.stale)
            if plan.insert:
                self._insert_document(doc, fingerprint, at)
                if doc.pages:
                    con.executemany('INSERT INTO pages (doc_id, page, start, "end") VALUES (?, ?, ?, ?)',
                                    [(doc.id, p.number, p.start, p.end) for p in doc.pages])
                self._insert_claims(claims)
            con.execute("DELETE FROM ingest_errors WHERE path = ?", [doc.path])
            con.commit()
        except BaseException:
            con.rollback()
            self._forget("_claims_batch")
            raise
        return plan.action

    def _forget(self, name: str) -> None:
        try:
            self.con.unregister(name)
        except duckdb.Error:
            pass

    def _insert_document(self, doc: Document, fingerprint: str, at: dt.datetime) -> None:
        self.con.execute(
            "INSERT INTO documents (id, path, format, title, publisher, url, published, author,"
            " role, role_source, n_chars, n_bytes, text, meta, fingerprint, ingested_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [doc.id, doc.path, doc.format, doc.title, doc.publisher, doc.url, doc.published,
             doc.author, doc.role, doc.role_source, doc.n_chars, doc.meta.get("n_bytes"),
             doc.text, json.dumps(doc.meta, ensure_ascii=False, default=str), fingerprint, at])

    def _insert_claims(self, claims: Sequence[Claim]) -> None:
        if not claims:
            return
        import pyarrow as pa

        batch = pa.Table.from_pylist([c.to_dict() for c in claims], schema=arrow_schema(Claim))
        cols = ", ".join(_q(c) for c in CLAIM_COLUMNS)
        self.con.register("_claims_batch", batch)
        # On failure the transaction is aborted and unregistering would mask the real
        # error; write() drops the registration after its rollback instead.
        self.con.execute(f"INSERT INTO claims ({cols}) SELECT {cols} FROM _claims_batch")
        self.con.unregister("_claims_batch")

    def _delete(self, doc_ids: list[str]) -> None:
        """Remove documents and everything hanging off them (pages, claims, links, clusters)."""
        ids = list(doc_ids)
        claim_ids = "SELECT id FROM claims WHERE list_contains(?, doc_id)"
        self.con.execute(f"DELETE FROM links WHERE src IN ({claim_ids}) OR dst IN ({claim_ids})"
                         f" OR other IN ({claim_ids})", [ids, ids, ids])
        self.con.execute(f"DELETE FROM clusters WHERE claim_id IN ({claim_ids})", [ids])
        for table, col in (("claims", "doc_id"), ("pages", "doc_id"), ("documents", "id")):
            self.con.execute(f"DELETE FROM {table} WHERE list_contains(?, {col})", [ids])

    def record_error(self, path: str, reason: str, at: dt.datetime | None = None) -> None:
        """Keep only the latest failure per path."""
        at = at or dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
        self.con.begin()
        self.con.execute("DELETE FROM ingest_errors WHERE path = ?", [path])
        self.con.execute("INSERT INTO ingest_errors VALUES (?, ?, ?)",
                         [path, " ".join(reason.split()), at])
        self.con.commit()

    def write_links(self, links: Iterable[Link], clusters: Iterable[tuple[str, str]] = ()) -> None:
        """Replace all links and clusters in one transaction (for the link stage)."""
        import pyarrow as pa

        rows = [vars(l) for l in links]
        self.con.begin()
        try:
            self.con.execute("DELETE FROM links")
            self.con.execute("DELETE FROM clusters")
            if rows:
                batch = pa.Table.from_pylist(rows, schema=arrow_schema(Link))
                cols = ", ".join(_q(c) for c in LINK_COLUMNS)
                self.con.register("_links_batch", batch)
                self.con.execute(f"INSERT INTO links ({cols}) SELECT {cols} FROM _links_batch")
                self.con.unregister("_links_batch")
            pairs = list(clusters)
            if pairs:
                self.con.executemany("INSERT INTO clusters VALUES (?, ?)", pairs)
            self.con.commit()
        except BaseException:
            self.con.rollback()
            self._forget("_links_batch")
            raise

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
