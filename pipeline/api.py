"""The Python API (docs/python-api.md): the claims of a string, and a warehouse to ingest
into, query, check headlines against and trace figures through.

    from pipeline.api import extract, Warehouse

    claims = extract("It reaches 826 tokens/s per user on four B300 GPUs.")
    wh = Warehouse("claims.duckdb")
    wh.ingest(["corpus/"])
    wh.check("DeepSeek-V4.1-Flash reached 826 tokens/s per user")

Every function here calls the code the `claims` command calls (``extract`` the extractor
`claims ingest` runs on each file; ``Warehouse.ingest`` the same ingest and link flow;
``check``, ``sql``, ``trace`` the same readers), so the API and the CLI cannot disagree.
Heavier modules are imported inside the functions: importing this module costs little.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence, Union

from pipeline.model import ROLES, Claim, Document

if TYPE_CHECKING:       # for annotations only: imported when used
    import pyarrow
    from pipeline.check import Verdict
    from pipeline.link_flow import LinkReport
    from pipeline.run import Summary
    from pipeline.trace import Trace

__all__ = ["extract", "document", "Warehouse", "IngestReport", "DOCUMENT_FIELDS"]

# The Document fields ``extract`` and ``document`` take as keyword arguments. Title,
# publisher and URL matter to extraction: a figure whose sentence names no model or engine
# takes the one the title names, or the engine whose own post it is (docs/extraction.md).
DOCUMENT_FIELDS = ("title", "publisher", "url", "published", "author", "role", "path", "format")
TEXT_FORMATS = ("text", "markdown")   # the formats whose text is the document as given

PathLike = Union[str, "os.PathLike[str]"]


def document(text: str, **metadata: Any) -> Document:
    """The Document ``extract`` reads: ``text`` exactly as given (every claim's offsets
    point into it) and the metadata given (``DOCUMENT_FIELDS``).

    Its ``id`` is the first 16 hex digits of the SHA-256 of the text's UTF-8 bytes: the
    same text always gets the same id (and so its claims the same ids), and it is the id
    `claims ingest` gives a UTF-8 text file holding exactly these bytes. ``path`` defaults
    to ``"<text>"``, ``format`` to ``"text"`` (``"markdown"`` is the other choice),
    ``role`` to ``"unknown"``. A URL without a publisher gives the publisher its host
    names, as ingest does.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    unknown = sorted(set(metadata) - set(DOCUMENT_FIELDS))
    if unknown:
        raise TypeError(f"unknown document field{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(unknown)} (known: {', '.join(DOCUMENT_FIELDS)})")
    fmt = metadata.pop("format", None) or "text"
    if fmt not in TEXT_FORMATS:
        raise ValueError(f"format must be one of {', '.join(TEXT_FORMATS)}, not {fmt!r} "
                         "(ingest HTML and PDF files with Warehouse.ingest or `claims extract FILE`)")
    role = metadata.pop("role", None) or "unknown"
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    path = metadata.pop("path", None) or "<text>"
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    doc = Document(id=digest, path=str(path), format=fmt, text=text, role=role, **metadata)
    if role != "unknown":
        doc.role_source = "metadata"
    if not doc.publisher and doc.url:
        from pipeline.ingest.meta import publisher_from_url

        doc.publisher = publisher_from_url(doc.url)
    return doc


def extract(text: str, **metadata: Any) -> list[Claim]:
    """Every numeric performance claim in ``text``, in text order, read by the extractor
    `claims ingest` runs (``pipeline.extract.extract_claims``).

    ``metadata`` fills the Document (``title``, ``publisher``, ``url``, ``published``,
    ``author``, ``role``, ``path``, ``format``; see ``document``). For each claim,
    ``text[claim.start:claim.end] == claim.surface``.
    """
    from pipeline.extract import extract_claims

    return extract_claims(document(text, **metadata))


@dataclass
class IngestReport:
    """What ``Warehouse.ingest`` did: the ingest summary (files new, skipped, replaced, in
    error; claims stored) and the link report (None when nothing changed or ``link=False``).
    ``str()`` gives the lines `claims ingest` prints."""

    summary: "Summary"
    link: "LinkReport | None" = None

    @property
    def errors(self) -> list[tuple[str, str]]:
        """(path, reason) of each file that failed (the first 1,000)."""
        return [(o.path, o.reason) for o in self.summary.outcomes if o.status == "error"]

    def __str__(self) -> str:
        lines = [self.link.line()] if self.link is not None else []
        return "\n".join(lines + [self.summary.line()])


class Warehouse:
    """A claims warehouse: one DuckDB file, as `claims --db PATH` uses it.

    Each call opens the file and closes it again, so a ``Warehouse`` holds no connection
    between calls: DuckDB lets one process write a file and no other read it meanwhile,
    and the `claims` command can use the same file between two calls. ``path=None`` takes
    ``$CLAIMS_DB`` or ``warehouse/claims.duckdb``, as the command does.
    """

    def __init__(self, path: PathLike | None = None) -> None:
        from pipeline.store import resolve_db

        self.path: Path = resolve_db(path)

    def __repr__(self) -> str:
        return f"Warehouse({str(self.path)!r})"

    # --- writing ----------------------------------------------------------------------
    def ingest(self, paths: PathLike | Iterable[PathLike], *, force: bool = False,
               workers: int | None = None, timeout: float | None = None,
               follow_links: bool = False, link: bool = True) -> IngestReport:
        """Read files, folders (walked recursively) and web addresses into the warehouse,
        extract their claims and link them: what `claims ingest PATH...` does, through the
        same functions (``pipeline.run.ingest_paths`` then ``link_store``).

        ``workers``: processes parsing and extracting (default: the number of cores; 0: in
        this process). ``timeout``: seconds a worker may spend on one file (default: the
        command's). ``force`` re-ingests unchanged files; ``link=False`` only stores (link
        later with ``link()``). Raises FileNotFoundError, before writing anything, for a
        path that does not exist; a file that cannot be read is recorded in the report's
        ``errors`` (and the ``ingest_errors`` table), as the command does.
        """
        from pipeline.ingest.web import WebOptions, is_address
        from pipeline.run import DEFAULT_TIMEOUT, default_workers, ingest_paths, link_store
        from pipeline.store import Store

        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        items = [os.fspath(p) for p in paths]
        urls = [p for p in items if is_address(p)]
        files = [Path(p) for p in items if not is_address(p)]
        missing = [str(p) for p in files if not os.path.lexists(p)]
        if missing:
            raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")
        if not files and not urls:
            raise ValueError("nothing to ingest: give files, folders or web addresses")
        with Store.open(self.path) as store:
            summary = ingest_paths(
                files, store, workers=default_workers() if workers is None else workers,
                force=force, timeout=DEFAULT_TIMEOUT if timeout is None else timeout,
                follow_links=follow_links, urls=urls, web=WebOptions() if urls else None)
            report = link_store(store) if link else None
        return IngestReport(summary, report)

    def link(self, full: bool = True) -> "LinkReport | None":
        """Relink the stored claims (`claims link`); ``full=False`` links only what changed
        since the last link (None when nothing did)."""
        from pipeline.run import link_store
        from pipeline.store import Store

        with Store.open(self.path) as store:
            return link_store(store, full=full)

    # --- reading ----------------------------------------------------------------------
    def check(self, text: str) -> "Verdict":
        """Check a claim in plain words against the warehouse (`claims check`): a Verdict
        whose ``verdict`` is supported, contradicted, unproven or ambiguous, with its
        ``explanation`` and ``evidence`` (``to_dict()`` gives the JSON `--format json`
        prints)."""
        from pipeline.check import check

        return check(text, str(self.path))

    def sql(self, query: str, params: Sequence[Any] | None = None, *,
            as_pandas: bool = False, timeout: float | None = None):
        """Run one read-only statement (`claims sql`: writes are refused with StoreError,
        as are file, network and extension access from inside the query) and return the
        result as a ``pyarrow.Table``, or a pandas DataFrame with ``as_pandas=True`` (pandas
        must be installed; it is not a dependency). ``params`` fill ``?`` placeholders;
        ``timeout`` stops the query after that many seconds (``pipeline.dbguard.QueryTimeout``).
        A query DuckDB cannot run raises its ``duckdb.Error``."""
        import duckdb

        from pipeline.dbguard import run_limited
        from pipeline.store import Store, StoreError, check_read_only, sql_error

        check_read_only(query)
        if as_pandas:
            _need_pandas()
        with Store.open(self.path, read_only=True) as store:
            def run():
                return _arrow(store.con.sql(query, params=list(params) if params else None))

            try:
                table = run_limited(store.con, run, timeout) if timeout else run()
            except duckdb.PermissionException as exc:   # the sandbox refused: as a write is
                raise StoreError(sql_error(exc)) from exc
        return table.to_pandas() if as_pandas else table

    def claims(self, *, as_pandas: bool = False, **filters: Any):
        """The stored claims whose columns equal the filters (``model="Kimi K3"``,
        ``family="token_throughput"``, ``scope="per_user"``), as ``sql`` returns them: one
        row per claim with every Claim field and its document's path, title, publisher,
        role, date and URL (the ``claims_full`` view, columns ``doc_path``, ``doc_role``
        ...), in document and text order.

        A filter of None matches NULL; a list, tuple or set matches any of its values. An
        unknown column raises TypeError naming the known ones.
        """
        columns = self._claim_columns()
        unknown = sorted(set(filters) - set(columns))
        if unknown:
            raise TypeError(f"no claim column {', '.join(unknown)} (columns: {', '.join(columns)})")
        where, params = [], []
        for name, value in filters.items():
            col = '"' + name.replace('"', '""') + '"'
            if value is None:
                where.append(f"{col} IS NULL")
            elif isinstance(value, (list, tuple, set, frozenset)):
                values = list(value)
                if not values:
                    where.append("FALSE")
                else:
                    where.append(f"{col} IN ({', '.join('?' * len(values))})")
                    params.extend(values)
            else:
                where.append(f"{col} = ?")
                params.append(value)
        query = "SELECT * FROM claims_full"
        if where:
            query += " WHERE " + " AND ".join(where)
        query += ' ORDER BY doc_path, start, "end", id'
        return self.sql(query, params, as_pandas=as_pandas)

    def _claim_columns(self) -> list[str]:
        from pipeline.store import Store

        with Store.open(self.path, read_only=True) as store:
            return [row[0] for row in store.con.execute("DESCRIBE claims_full").fetchall()]

    def trace(self, claim_id: str) -> "Trace":
        """One figure's chain (`claims trace`): where it appears, whom it cites, what
        supports or contradicts it. ``claim_id`` may be a unique prefix of an id;
        LookupError (``pipeline.trace.TraceError``) when no claim or several match.
        ``pipeline.trace.format_trace`` gives the command's text, ``to_dict()`` its JSON."""
        from pipeline.record import open_record
        from pipeline.trace import trace

        return trace(claim_id, open_record(str(self.path)))


def _arrow(rel) -> "pyarrow.Table":
    """A DuckDB relation as one Arrow table, whichever name this DuckDB gives the call."""
    import pyarrow

    if rel is None:                     # a statement with no result
        return pyarrow.table({})
    fetch = getattr(rel, "to_arrow_table", None) or rel.arrow
    table = fetch()
    if not hasattr(table, "to_pandas"):        # a RecordBatchReader
        table = table.read_all()
    return table


def _need_pandas() -> None:
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise ImportError("as_pandas=True needs pandas, which claims does not install: "
                          "`pip install pandas`, or use the Arrow table") from None
