"""The `claims` command: parses arguments, calls the library, prints. Nothing else.

Errors a user can cause (a missing path, no database, a write through `sql`) print one
line on stderr and exit non-zero; `--debug` shows the traceback instead.
"""
from __future__ import annotations

import json
import os
import re
import sys
import traceback
from enum import Enum
from pathlib import Path
from typing import Any, Iterable, Optional

import typer

from pipeline.dbguard import QueryTimeout, run_limited
from pipeline.output import terminal_safe
from pipeline.store import StoreError, Store, check_read_only, one_line, sql_error

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Extract, cross-reference and check numeric performance claims.")


def _flags_take_no_value() -> None:
    """Typer's help prints `<bool>` beside every flag, as if `--strict` took a value; a
    flag takes none, so its type column stays empty (typer's own --help included). One
    patch here rather than a metavar on each option."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich
    if getattr(shown, "flag_aware", False):
        return

    def display_type_rich(self, ctx):
        return "" if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich.flag_aware = True
    TyperOption.display_type_rich = display_type_rich


_flags_take_no_value()


def _print_version(value: bool) -> None:
    if value:
        from pipeline import __version__

        print(f"claims {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print the version (from the installed package) and exit."),
) -> None:
    """Extract, cross-reference and check numeric performance claims."""

DbOption = typer.Option(None, "--db", help="DuckDB file (default: $CLAIMS_DB or warehouse/claims.duckdb).")
DebugOption = typer.Option(False, "--debug", help="Show tracebacks.")
PROGRESS_THRESHOLD = 5       # "more than a handful of files"
DEFAULT_TIMEOUT = 300.0      # pipeline.run.DEFAULT_TIMEOUT (not imported: keeps --help fast)
SQL_TIMEOUT = 120.0          # seconds `claims sql` lets a query run by default
SQL_TABLE_ROWS = 100_000     # rows a table or Markdown result holds (data formats stream)
SERVE_SQL_TIMEOUT = 10.0     # pipeline.serve.app.SQL_TIMEOUT (not imported: keeps --help fast)


class UserError(Exception):
    """Something the user can fix; printed as one line."""


class TimeLimit(UserError):
    """A query stopped at its time limit (exit 124, as timeout(1) does)."""


class _State:
    debug = False


def _err(message: str) -> None:
    print(f"error: {terminal_safe(message)}", file=sys.stderr)


def _say(text: str) -> None:
    """A line on stdout with what came from files or documents (paths, names) made safe
    for a terminal: no control character reaches it raw."""
    print(terminal_safe(text))


# --- ingest -------------------------------------------------------------------------------

@app.command()
def ingest(
    sources: Optional[list[str]] = typer.Argument(
        None, metavar="PATH_OR_URL...",
        help="Files, folders (walked recursively) and web addresses (pages, PDFs, RSS/Atom feeds)."),
    db: Optional[str] = DbOption,
    urls_file: Optional[Path] = typer.Option(
        None, "--urls", help="A file of web addresses, one a line (# starts a comment)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any file failed."),
    force: bool = typer.Option(False, "--force", help="Re-ingest unchanged files too."),
    dry_run: bool = typer.Option(
        False, "--dry-run",
        help="Show what would change (new, replaced and unchanged sources) without parsing, "
             "writing or linking anything."),
    workers: Optional[int] = typer.Option(
        None, "--workers", min=0, show_default=False,
        help="Processes parsing and extracting files (default: the number of cores; 0: "
             "in this process, without a time limit)."),
    timeout: float = typer.Option(
        DEFAULT_TIMEOUT, "--timeout", min=0,
        help="Seconds a worker may spend on one file before it is abandoned and recorded "
             "as an error (0: no limit)."),
    ray: Optional[str] = typer.Option(
        None, "--ray", metavar="[ADDRESS]",
        help="Parse and extract on a Ray cluster (needs Ray Data: the package's ray extra). ADDRESS is "
             "auto, HOST:PORT or ray://HOST:PORT (write --ray=ADDRESS); without one a local "
             "Ray with this machine's cores. Files must be at the same path on every node "
             "(docs/scale.md)."),
    ray_shards: Optional[Path] = typer.Option(
        None, "--ray-shards",
        help="With --ray: folder the workers write their Parquet shards to, on a file system "
             "every node and this machine share (default: a temporary folder beside the "
             "database, removed afterwards)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the summary lines."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="List each document whose role was inferred."),
    no_link: bool = typer.Option(False, "--no-link", help="Store only; link later (`claims link`)."),
    follow_links: bool = typer.Option(
        False, "--follow-links", help="Follow symlinks that lead outside the folders given."),
    mapping: Optional[Path] = typer.Option(
        None, "--mapping", metavar="MAP.toml",
        help="Read CSV/JSON files of your own results through this mapping (TOML: which "
             "column is the model, hardware, engine, each figure's unit, scope, statistic; "
             "docs/structured.md)."),
    max_file_mb: float = typer.Option(50, "--max-file-mb", min=0.001,
                                      help="Largest file or download read, in MB."),
    max_pdf_pages: int = typer.Option(2000, "--max-pdf-pages", min=1,
                                      help="PDFs with more pages are refused."),
    max_inflate_mb: float = typer.Option(
        256, "--max-inflate-mb", min=0.001,
        help="Most data a PDF's compressed streams may expand to, in MB (decompression bombs)."),
    allow_private: bool = typer.Option(
        False, "--allow-private",
        help="Fetch addresses on loopback and private networks (refused by default)."),
    allow_link_local: bool = typer.Option(
        False, "--allow-link-local",
        help="With --allow-private, also fetch link-local and cloud-metadata addresses "
             "(169.254.0.0/16, fe80::/10, fd00:ec2::254; refused even with --allow-private)."),
    max_feed_items: int = typer.Option(100, "--max-feed-items", min=1,
                                       help="Items fetched from one feed (the rest are counted "
                                            "as left out)."),
    delay: float = typer.Option(1.0, "--delay", min=0,
                                help="Seconds between two requests to one web host."),
    http_timeout: float = typer.Option(30.0, "--http-timeout", min=0.05,
                                       help="Seconds to wait for a web server to answer."),
    debug: bool = DebugOption,
) -> None:
    """Read documents into the database, extract their claims and link them."""
    from pipeline.ingest.limits import Limits, configure
    from pipeline.run import default_workers

    _State.debug = _State.debug or debug
    if workers is None:
        workers = default_workers()
    configure(Limits.from_flags(max_file_mb, max_pdf_pages, max_inflate_mb))
    _use_mapping(mapping)
    sources, ray = _ray_address(sources or [], ray)
    paths, urls = _split_sources(sources, urls_file)
    if ray is not None and (urls or dry_run):
        raise UserError("--ray ingests files and folders; web addresses and --dry-run run "
                        "without it")
    missing = [str(p) for p in paths if not _lexists(p)]
    if missing:
        raise UserError(f"no such file or folder: {', '.join(missing)}")
    web = None
    if urls:
        from pipeline.ingest.web import WebOptions

        web = WebOptions(allow_private=allow_private, allow_link_local=allow_link_local,
                         delay=delay, timeout=http_timeout, max_feed_items=max_feed_items)
    if dry_run:
        summary = _dry_run(db, paths, urls, web, force, follow_links, quiet)
    else:
        with Store.open(db) as store:
            summary, link_failed = _ingest_and_link(store, paths, urls, web, force, workers,
                                                    timeout, follow_links, quiet, verbose, no_link,
                                                    ray, ray_shards)
    errors = [o for o in summary.outcomes if o.status == "error"]
    for o in errors[:20]:
        _err(f"{o.path}: {o.reason}")
        if _State.debug and o.trace:
            print(terminal_safe(o.trace), file=sys.stderr)
    if len(errors) > 20:
        _err(f"... and {len(errors) - 20} more (SELECT * FROM ingest_errors)")
    if not quiet:
        for o in summary.skips[:20]:
            _say(f"skipped: {o.path}: {o.reason}")
        if len(summary.skips) > 20:
            print(f"skipped: ... and {len(summary.skips) - 20} more with a reason")
    for feed, total, kept in summary.cut_feeds[:20]:
        _say(f"feed {feed}: lists {total:,} items, the first {kept:,} fetched, "
             f"{total - kept:,} left out (raise --max-feed-items to fetch more)")
    print(("dry run, nothing written: " if dry_run else "") + summary.line())
    if (not dry_run and link_failed) or (strict and summary.errors):
        raise typer.Exit(1)


def _ray_address(sources: list[str], ray: str | None) -> tuple[list[str], str | None]:
    """``--ray PATH`` reads PATH as the option's value: a value that is no Ray address
    (auto, local, HOST:PORT, ray://...) but names a file or folder is a source again."""
    if ray is None or ray in ("auto", "local") or ":" in ray:
        return sources, ray
    if _lexists(Path(ray)):
        return [ray, *sources], "local"
    raise UserError(f"--ray {ray}: not a Ray address (auto, HOST:PORT or ray://HOST:PORT) "
                    "nor a file or folder")


def _use_mapping(path: Path | None) -> None:
    """Load and check ``--mapping`` before anything is read: a bad mapping is one clear
    error up front, not one per file."""
    from pipeline.ingest import structured_mapping

    if path is None:
        structured_mapping.configure(None)
        return
    try:
        structured_mapping.configure(structured_mapping.load(path))
    except structured_mapping.MappingError as exc:
        raise UserError(str(exc)) from None


def _ingest_and_link(store, paths, urls, web, force, workers, timeout, follow_links, quiet,
                     verbose, no_link, ray=None, ray_shards=None):
    """Ingest into ``store`` and link what changed -> (summary, whether linking failed)."""
    from pipeline.run import ingest_paths, link_store

    with _Progress(enabled=not quiet) as bar:
        if ray is not None:
            from pipeline.ray_ingest import RayUnavailable, ingest_ray

            try:
                summary = ingest_ray(paths, store, address=ray, force=force,
                                     follow_links=follow_links, shards=ray_shards,
                                     on_total=bar.start if bar.enabled else None,
                                     progress=bar.advance)
            except RayUnavailable as exc:
                raise UserError(str(exc)) from None
        else:
            summary = ingest_paths(paths, store, workers=workers, force=force, timeout=timeout,
                                   follow_links=follow_links, urls=urls, web=web,
                                   on_total=bar.start if bar.enabled else None,
                                   progress=bar.advance)
    if not quiet:
        _print_replacements(summary)
    if no_link:
        return summary, False
    try:
        report = link_store(store, partitioned=ray is not None, ray=ray)
    except Exception as exc:
        if _State.debug:
            raise
        from pipeline.store import damaged, disk_full

        if damaged(exc):
            raise StoreError(damaged(exc)) from None
        full = disk_full(exc, store.path)
        _err(f"linking failed ({full or type(exc).__name__ + ': ' + one_line(exc)}); the "
             "documents are stored, `claims link` retries")
        return summary, True
    _print_link_report(report, quiet, verbose)
    return summary, False


def _dry_run(db, paths, urls, web, force, follow_links, quiet):
    """Plan the ingest against the database (read-only; an empty one when there is none
    yet) and print what would be replaced; nothing is parsed or written."""
    from pipeline.run import ingest_paths
    from pipeline.store import resolve_db

    existing = resolve_db(db).is_file()
    with (Store.open(db, read_only=True) if existing else Store.open(":memory:")) as store:
        summary = ingest_paths(paths, store, force=force, follow_links=follow_links,
                               urls=urls, web=web, dry_run=True)
    if not quiet:
        _print_replacements(summary, would=True)
    return summary


def _print_replacements(summary, would: bool = False) -> None:
    """One line per source whose stored bytes were replaced by others, naming the source
    (the resolved file path or address) and both versions: nothing is replaced
    unannounced. Documents redone from unchanged bytes (--force, a new pipeline version,
    new manifest values) are counted in one line."""
    verb = "would replace" if would else "replaced"
    changed = [(src, old, new) for src, old, new in summary.replacements if old != new]
    for source, old, new in changed:
        _say(f"{verb}: {source} (document {old} -> {new})")
    redone = len(summary.replacements) - len(changed)
    if redone:
        print(f"{'would redo' if would else 'redone'}: {redone} unchanged document"
              f"{'s' if redone != 1 else ''} (--force, a new pipeline version or new manifest values)")
    more = summary.replaced - len(summary.replacements)
    if more > 0:
        print(f"{verb}: ... and {more} more")


def _split_sources(sources: list[str], urls_file: Path | None) -> tuple[list[Path], list[str]]:
    """Paths and web addresses from the arguments and the --urls file, in order."""
    from pipeline.ingest.web import is_address

    paths = [Path(s) for s in sources if not is_address(s)]
    urls = [s.strip() for s in sources if is_address(s)]
    if urls_file is not None:
        text = _read_urls_file(urls_file)
        for line in text.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                urls.append(re.split(r"\s#", line, maxsplit=1)[0].strip())
    if not paths and not urls:
        raise UserError("nothing to ingest: give files, folders or web addresses "
                        "(or --urls FILE with one address a line)")
    return paths, urls


def _read_urls_file(path: Path) -> str:
    """The --urls file's text, read with the cap of every list a user hands over
    (``userinput.LIST_MAX``): a larger file, or an endless one (``/dev/zero``), is refused
    with one line rather than read into memory."""
    from pipeline.userinput import LIST_MAX, InputError, read_capped

    try:
        with open(path, "rb") as fh:
            data = read_capped(fh, f"the --urls file {path}", LIST_MAX, "a list of addresses")
    except OSError as exc:
        raise UserError(f"cannot read the --urls file {path}: {exc.strerror or exc}") from None
    except InputError as exc:
        raise UserError(str(exc)) from None
    return data.decode("utf-8-sig", errors="replace")


def _lexists(path: Path) -> bool:
    """The path names something (a broken symlink too); unreachable counts as missing."""
    try:
        return os.path.lexists(path)
    except (OSError, ValueError):
        return False


def _print_link_report(report, quiet: bool, verbose: bool = False) -> None:
    """Inferred roles (one summary line; with ``verbose`` one line each, with how to
    override them), then the link line."""
    from pipeline.link_flow import role_hint, roles_line

    if report is None:
        return
    if verbose:
        for path, role in report.inferred:
            _say(role_hint(path, role))
    elif not quiet and report.inferred:
        print(roles_line(report.inferred))
    print(report.line())


class _Progress:
    """A rich progress bar on stderr, only on a terminal and only for more than a handful."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = None
        self.task = None

    def __enter__(self) -> "_Progress":
        return self

    def start(self, total: int) -> None:
        if not self.enabled or total <= PROGRESS_THRESHOLD:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)

        self.bar = Progress(TextColumn("ingest"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TextColumn("{task.description}"),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        self.task = self.bar.add_task("", total=total)

    def advance(self, n: int, path: str) -> None:
        if self.bar is not None:
            from rich.markup import escape

            # a path is text, never rich markup (`[/]doc.md` would stop the run) nor
            # terminal control sequences
            self.bar.update(self.task, advance=n, description=escape(terminal_safe(path[-50:])))

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


# --- link ---------------------------------------------------------------------------------

@app.command("link")
def link_cmd(
    db: Optional[str] = DbOption,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only the summary line."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="List each document whose inferred role changed."),
    partitioned: bool = typer.Option(
        False, "--partitioned",
        help="Link a group of subjects at a time from the database, in bounded memory "
             "(the same links; for warehouses too large to hold in memory, docs/scale.md)."),
    ray: Optional[str] = typer.Option(
        None, "--ray", metavar="[ADDRESS]",
        help="Link the partitions as Ray tasks (implies --partitioned; needs the package's "
             "ray extra). ADDRESS is auto, HOST:PORT or ray://HOST:PORT (write "
             "--ray=ADDRESS); without one a local Ray with this machine's cores."),
    debug: bool = DebugOption,
) -> None:
    """Relink every stored claim (after changing vocabularies or the link stage)."""
    from pipeline.run import link_store
    from pipeline.store import resolve_db

    _State.debug = _State.debug or debug
    if ray is not None:
        if _ray_address([], ray)[0]:
            raise UserError(f"--ray {ray}: not a Ray address (auto, HOST:PORT or ray://HOST:PORT)")
        partitioned = True
    if not resolve_db(db).is_file():
        raise UserError(f"no database at {resolve_db(db)} (run `claims ingest` first, or pass --db)")
    with Store.open(db) as store:
        if ray is None:
            report = link_store(store, full=True, partitioned=partitioned)
        else:
            from pipeline.ray_ingest import RayUnavailable

            try:
                report = link_store(store, full=True, partitioned=True, ray=ray)
            except RayUnavailable as exc:
                raise UserError(str(exc)) from None
    _print_link_report(report, quiet, verbose)


@app.command("migrate")
def migrate_cmd(
    db: Optional[str] = DbOption,
    debug: bool = DebugOption,
) -> None:
    """Bring a warehouse written by an older claims to this release's schema version.

    Every row is kept; each step runs in a transaction of its own. `claims ingest` and
    `claims link` do the same when they open an older warehouse; read-only commands ask
    for this first."""
    from pipeline.migrate import latest
    from pipeline.store import resolve_db

    _State.debug = _State.debug or debug
    if not resolve_db(db).is_file():
        raise UserError(f"no database at {resolve_db(db)} (run `claims ingest` first, or pass --db)")
    with Store.open(db) as store:
        steps = store.migrated
    where = str(resolve_db(db))
    if steps:
        names = ", ".join(s.name.replace("_", " ") for s in steps)
        _say(f"{where}: schema version {steps[0].version - 1} -> {steps[-1].version} ({names})")
    else:
        _say(f"{where}: already at schema version {latest()}")


# --- sql ----------------------------------------------------------------------------------

class SqlFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"
    jsonl = "jsonl"
    markdown = "markdown"


@app.command()
def sql(
    query: Optional[str] = typer.Argument(
        None, metavar="[QUERY]",
        help="One read-only statement (SELECT, WITH, FROM, PIVOT, SUMMARIZE, DESCRIBE, SHOW, "
             "EXPLAIN, ...); `-` reads it from stdin."),
    file: Optional[Path] = typer.Option(None, "--file", help="Read the statement from this file."),
    db: Optional[str] = DbOption,
    fmt: SqlFormat = typer.Option(SqlFormat.table, "--format", "-f",
                                  help="table, csv, json, jsonl (one object a line) or markdown."),
    max_width: Optional[int] = typer.Option(
        None, "--max-width", min=2, show_default=False,
        help="Cut table and markdown cells longer than this (default: never cut)."),
    timeout: float = typer.Option(
        SQL_TIMEOUT, "--timeout", min=0,
        help="Stop the query after this many seconds (exit 124; 0: no limit). Ctrl-C stops "
             "it at once (exit 130)."),
    debug: bool = DebugOption,
) -> None:
    """Run a read-only query; writes are refused."""
    from pipeline import output

    _State.debug = _State.debug or debug
    query = _statement(query, file)
    check_read_only(query)
    out = _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout
    writers = {SqlFormat.csv: output.write_csv, SqlFormat.json: output.write_json,
               SqlFormat.jsonl: output.write_jsonl}
    shown: dict[str, Any] = {}

    def stream() -> None:
        """Data formats: rows fetched and written in batches (memory bounded by a batch,
        whatever the result's size). Tables: at most SQL_TABLE_ROWS rows held."""
        cur = store.con.execute(query)
        columns = [d[0] for d in cur.description]
        if fmt in writers:
            writers[fmt](out, columns, _batches(cur))
            return
        rows = cur.fetchmany(SQL_TABLE_ROWS + 1)
        shown["more"] = len(rows) > SQL_TABLE_ROWS
        shown["table"] = (columns, rows[:SQL_TABLE_ROWS])

    with Store.open(db, read_only=True) as store:
        try:
            run_limited(store.con, stream, timeout or None)
        except QueryTimeout as exc:
            raise TimeLimit(str(exc)) from None
        except (BrokenPipeError, KeyboardInterrupt):
            raise
        except Exception as exc:
            if _State.debug:
                raise
            from pipeline.store import damaged

            raise UserError(damaged(exc) or sql_error(exc)) from None
    if "table" not in shown:
        return
    columns, rows = shown["table"]
    if fmt is SqlFormat.markdown:
        out.write(terminal_safe(output.render_markdown(columns, rows, max_width)))
    else:
        out.write(terminal_safe(output.render_table(columns, rows, max_width)))
    if shown["more"]:
        _err(f"only the first {SQL_TABLE_ROWS:,} rows are shown as a {fmt.value}: "
             "-f csv, json or jsonl stream every row (or add a LIMIT)")
        raise typer.Exit(2)


class _Safe:
    """A stream for a terminal: what is written has its control characters shown, not
    sent (``terminal_safe``). Data formats (CSV, JSON) go out raw when redirected."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(terminal_safe(text))

    def flush(self) -> None:
        self.stream.flush()


def _statement(query: str | None, file: Path | None) -> str:
    """The statement from the argument, stdin (`-`) or --file: exactly one of them."""
    if query is not None and file is not None:
        raise UserError("give the statement once: as an argument, `-` (stdin) or --file, not two")
    from pipeline.userinput import LIST_MAX, InputError, read_capped

    try:
        if file is not None:
            with open(file, "rb") as fh:
                return read_capped(fh, f"the statement file {file}", LIST_MAX,
                                   "a SQL statement").decode("utf-8-sig")
        if query == "-":
            return read_capped(sys.stdin.buffer, "the statement on stdin", LIST_MAX,
                               "a SQL statement").decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {file or 'stdin'}: "
                        f"{getattr(exc, 'strerror', None) or one_line(exc)}") from None
    except InputError as exc:
        raise UserError(str(exc)) from None
    if query is None:
        raise UserError("no statement: give one as an argument, `-` to read stdin, or --file FILE")
    return query


# --- export -------------------------------------------------------------------------------

class ExportKind(str, Enum):
    documents = "documents"
    claims = "claims"
    links = "links"
    graph = "graph"
    prov = "prov"


class ExportFormat(str, Enum):
    jsonl = "jsonl"
    csv = "csv"
    parquet = "parquet"
    graphml = "graphml"
    gexf = "gexf"
    json = "json"


GRAPH_FORMATS = (ExportFormat.graphml, ExportFormat.gexf, ExportFormat.json)


EXPORT_SQL = {
    ExportKind.documents: "SELECT * FROM documents ORDER BY path, id",
    # every Claim field, then its document's path, title, publisher, role, date and URL
    ExportKind.claims: 'SELECT * FROM claims_full ORDER BY doc_path, start, "end", id',
    ExportKind.links: ("SELECT l.*, ds.path AS src_doc_path, dd.path AS dst_doc_path FROM links l "
                       "LEFT JOIN claims cs ON cs.id = l.src LEFT JOIN documents ds ON ds.id = cs.doc_id "
                       "LEFT JOIN claims cd ON cd.id = l.dst LEFT JOIN documents dd ON dd.id = cd.doc_id "
                       "ORDER BY l.src, l.dst, l.relation"),
}


@app.command()
def export(
    kind: ExportKind = typer.Argument(..., help="documents, claims, links, graph or prov "
                                                "(the claim graph as W3C PROV-JSON)."),
    db: Optional[str] = DbOption,
    fmt: Optional[ExportFormat] = typer.Option(
        None, "--format", "-f", show_default=False,
        help="Tables: jsonl (default), csv or parquet. graph: graphml (default), gexf or json. "
             "prov: json (PROV-JSON, the default)."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="File (default: stdout)."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help="graph: one cluster (id or prefix)."),
    model: Optional[str] = typer.Option(None, "--model", help="graph: the claims on one model, with their clusters."),
    claim: Optional[str] = typer.Option(None, "--claim", help="graph: one claim's story (its cluster and its document)."),
    debug: bool = DebugOption,
) -> None:
    """Write a table out as JSON lines, CSV or Parquet, a graph as GraphML, GEXF or JSON,
    or the whole claim graph as W3C PROV-JSON (docs/formats.md)."""
    from pipeline.output import write_records

    _State.debug = _State.debug or debug
    if kind is ExportKind.graph:
        return _export_graph(db, fmt or ExportFormat.graphml, output, cluster, model, claim)
    if kind is ExportKind.prov:
        return _export_prov(db, fmt or ExportFormat.json, output, cluster or model or claim)
    fmt = fmt or ExportFormat.jsonl
    if fmt in GRAPH_FORMATS:
        raise UserError(f"{fmt.value} is a graph format: `claims export graph --format {fmt.value}`")
    if cluster or model or claim:
        raise UserError("--cluster, --model and --claim select a graph: `claims export graph`")
    if fmt is ExportFormat.parquet and output is None:
        raise UserError("parquet is binary: give a file with -o FILE")
    _check_output_file(output)
    with Store.open(db, read_only=True) as store:
        if fmt is ExportFormat.parquet:
            import pyarrow.parquet as pq

            table = store.arrow(EXPORT_SQL[kind])
            try:
                pq.write_table(table, str(output))
            except OSError as exc:
                raise UserError(f"cannot write {output}: {exc.strerror or one_line(exc)}") from None
            return
        cur = store.cursor_for(EXPORT_SQL[kind])
        try:
            fh = output.open("w", encoding="utf-8", newline="") if output else sys.stdout
        except OSError as exc:
            raise UserError(f"cannot write {output}: {exc.strerror or one_line(exc)}") from None
        try:
            if kind is ExportKind.links and fmt is not ExportFormat.csv:
                columns = [d[0] for d in cur.description]
                for row in _batches(cur):
                    fh.write(json.dumps(_link_line(columns, row), default=_json_default,
                                        ensure_ascii=False) + "\n")
            else:
                write_records(fh, cur, fmt.value)
        finally:
            if output:
                fh.close()


def _check_output_file(output: Path | None) -> None:
    """-o FILE names a file that can be created: not a folder, in a folder that exists."""
    if output is not None and output.is_dir():
        raise UserError(f"{output} is a folder; -o takes a file name")
    if output is not None and not output.parent.is_dir():
        raise UserError(f"cannot write {output}: no folder {output.parent} (create it first)")


def _export_graph(db, fmt: "ExportFormat", output: Path | None, cluster: str | None,
                  model: str | None, claim: str | None) -> None:
    """`claims export graph`: one cluster, one model or one claim's story (docs/graph.md)."""
    from pipeline.graph import GraphError, build_graph, select_claim, select_cluster, select_model
    from pipeline.record import open_record

    if fmt not in GRAPH_FORMATS:
        raise UserError(f"a graph is written as graphml, gexf or json, not {fmt.value}")
    if sum(x is not None for x in (cluster, model, claim)) != 1:
        raise UserError("give one of --cluster ID, --model M or --claim ID: a graph is built "
                        "per cluster or filter, never for the whole warehouse")
    _check_output_file(output)
    record = open_record(db)
    try:
        if cluster is not None:
            kid, ids = select_cluster(record, cluster)
            label = f"cluster {kid}"
        elif model is not None:
            ids, label = select_model(record, model), f"model {model}"
        else:
            cid, ids = select_claim(record, claim)
            label = f"claim {cid}"
        g = build_graph(record, ids, label=label)
    except GraphError as exc:
        raise UserError(str(exc)) from None
    from pipeline.graph import write_graph

    try:
        write_graph(g, fmt.value, output if output is not None else sys.stdout.buffer)
    except OSError as exc:
        raise UserError(f"cannot write {output}: {exc.strerror or one_line(exc)}") from None
    if output is None:
        sys.stdout.flush()


def _export_prov(db, fmt: "ExportFormat", output: Path | None, selection: str | None) -> None:
    """`claims export prov`: documents, claims, ingest and extraction, and the links that
    are provenance, as PROV-JSON (docs/formats.md#prov)."""
    from pipeline.formats.prov import write_prov

    if fmt is not ExportFormat.json:
        raise UserError(f"prov is written as PROV-JSON (--format json), not {fmt.value}")
    if selection:
        raise UserError("--cluster, --model and --claim select a graph: `claims export graph`; "
                        "prov exports the whole warehouse")
    _check_output_file(output)
    with Store.open(db, read_only=True) as store:
        try:
            fh = output.open("w", encoding="utf-8") if output else (
                _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout)
        except OSError as exc:
            raise UserError(f"cannot write {output}: {exc.strerror or one_line(exc)}") from None
        try:
            write_prov(store, fh)
        finally:
            if output:
                fh.close()


def _link_line(columns: list[str], row: tuple) -> dict[str, Any]:
    """One JSON line of `export links`: the link stage's export record plus doc paths."""
    from pipeline.link import link_to_export
    from pipeline.model import Link
    from pipeline.store import LINK_COLUMNS

    values = dict(zip(columns, row))
    out = link_to_export(Link(**{c: values[c] for c in LINK_COLUMNS}))
    out.update((c, v) for c, v in values.items() if c not in out)
    return out


def _batches(cur, size: int = 2000) -> Iterable[tuple]:
    from pipeline.output import fetch_batches

    return fetch_batches(cur, size)


def _json_default(value: Any) -> Any:
    from pipeline.output import json_default

    return json_default(value)


# --- report, trace, check -----------------------------------------------------------------

class OutFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("report")
def report_cmd(
    db: Optional[str] = DbOption,
    output: Path = typer.Option(Path("."), "-o", "--output",
                                help="Folder for report.html, report.md and pages/ (created if "
                                     "missing)."),
    model: Optional[str] = typer.Option(
        None, "--model", help="Only figures on this model (aliases folded) and their clusters."),
    since: Optional[str] = typer.Option(
        None, "--since", help="Only documents published on or after this date (YYYY-MM-DD, "
                              "YYYY-MM or YYYY); undated documents are left out."),
    doc: Optional[str] = typer.Option(
        None, "--doc", help="Only this document: its path (or the end of it) or an id prefix."),
    workers: Optional[int] = typer.Option(
        None, "--workers", min=1, show_default=False,
        help="Processes checking the figures outside primary documents (default: the number "
             "of cores)."),
    debug: bool = DebugOption,
) -> None:
    """Write report.html and report.md (the summary) and pages/ (one page per model or
    subject and per document, each cluster with its graph), all linked and self-contained."""
    from pipeline.report import write_report
    from pipeline.record import open_record
    from pipeline.report.scope import Scope, ScopeError, parse_since
    from pipeline.run import default_workers

    _State.debug = _State.debug or debug
    if output.exists() and not output.is_dir():
        raise UserError(f"{output} is a file; -o takes a folder")
    try:
        scope = Scope(model=model, since=parse_since(since) if since is not None else None,
                      doc=doc)
    except ScopeError as exc:
        raise UserError(str(exc)) from None
    record = open_record(db)
    try:
        files = write_report(record, output, scope=scope,
                             workers=workers if workers is not None else default_workers())
    except ScopeError as exc:
        raise UserError(str(exc)) from None
    big, size = files.largest()
    _say(f"wrote {files.html} and {files.md}, and {len(files.pages)} pages in "
         f"{files.html.parent / 'pages'} (largest {big.name}, {size / 1e6:.1f} MB)")


def _emit(result, fmt: "OutFormat", as_text) -> None:
    """A result of trace or check on stdout: its ``to_dict()`` as JSON, or its text."""
    if fmt is OutFormat.json:
        out = _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout
        json.dump(result.to_dict(), out, default=_json_default, ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        sys.stdout.write(terminal_safe(as_text(result)))


@app.command("trace")
def trace_cmd(
    claim_id: str = typer.Argument(..., help="A claim id (or a unique prefix of one)."),
    db: Optional[str] = DbOption,
    fmt: OutFormat = typer.Option(OutFormat.text, "--format", "-f", help="text or json."),
    debug: bool = DebugOption,
) -> None:
    """One figure's chain: where it appears, whom it cites, what supports or contradicts it."""
    from pipeline.record import open_record
    from pipeline.trace import TraceError, format_trace, trace

    _State.debug = _State.debug or debug
    record = open_record(db)
    try:
        t = trace(claim_id, record)
    except TraceError as exc:
        raise UserError(str(exc)) from None
    _emit(t, fmt, format_trace)


VERDICT_EXIT = {"supported": 0, "contradicted": 3, "unproven": 4, "ambiguous": 5}


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    claimreview = "claimreview"


@app.command("check", epilog="Exit codes: 0 supported, 3 contradicted, 4 unproven, "
                             "5 ambiguous; 2 a problem you can fix (no database, bad option), "
                             "1 an unexpected failure.")
def check_cmd(
    text: str = typer.Argument(..., help='A claim in plain words, e.g. "X topped 1,000 tokens/s per user".'),
    db: Optional[str] = DbOption,
    fmt: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f",
                                    help="text, json, or claimreview (schema.org ClaimReview "
                                         "JSON-LD, as fact-checkers publish; docs/formats.md)."),
    review_url: Optional[str] = typer.Option(
        None, "--review-url", show_default=False,
        help="claimreview: the address the review will be published at (its `url`; "
             "default: a urn: naming this headline)."),
    debug: bool = DebugOption,
) -> None:
    """Check a claim against the record: supported, contradicted, unproven or ambiguous.

    The exit code tells the verdict, so a script can branch on it: 0 supported,
    3 contradicted, 4 unproven, 5 ambiguous (2 and 1 stay errors).
    """
    from pipeline.check import check, format_verdict

    _State.debug = _State.debug or debug
    verdict = check(text, db)
    if fmt is CheckFormat.claimreview:
        _emit_claimreview(text, verdict, db, review_url)
    else:
        _emit(verdict, OutFormat(fmt.value), format_verdict)
    code = VERDICT_EXIT.get(verdict.verdict, 1)
    if code:
        raise typer.Exit(code)


def _emit_claimreview(text: str, verdict, db: str | None, url: str | None) -> None:
    """The verdict as ClaimReview JSON-LD, its evidence documents read from the warehouse."""
    from pipeline.formats.claimreview import claim_review, evidence_documents

    with Store.open(db, read_only=True) as store:
        documents = evidence_documents(verdict, store)
    out = _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout
    json.dump(claim_review(text, verdict, documents, url=url), out, ensure_ascii=False, indent=1)
    out.write("\n")


# --- serve --------------------------------------------------------------------------------

@app.command("serve")
def serve_cmd(
    db: Optional[str] = DbOption,
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on; anything but loopback is warned about "
                                  "(the pages answer anyone who can reach it)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
    sql_timeout: float = typer.Option(
        SERVE_SQL_TIMEOUT, "--sql-timeout", min=0,
        help="Seconds a query of the SQL page may run before it is stopped (0: no limit)."),
    debug: bool = DebugOption,
) -> None:
    """Browse, filter and check the warehouse in a web browser (local and read-only)."""
    from pipeline.serve import run

    _State.debug = _State.debug or debug
    try:
        run(db, host, port, sql_timeout)
    except OSError as exc:      # the port is taken, the address is not this machine's
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or one_line(exc)}") from None


# --- extract, explain: one text, no database -------------------------------------------------

class ExtractFormat(str, Enum):
    table = "table"
    json = "json"
    jsonl = "jsonl"


SourceArgument = typer.Argument(
    ..., metavar="TEXT|FILE|-",
    help="The text itself, a file (text, Markdown, HTML, PDF, benchmark results: read as "
         "`claims ingest` reads it) or `-` for stdin.")
TitleOption = typer.Option(None, "--title", help="The document's title (a figure whose sentence "
                                                 "names no model takes the title's).")
PublisherOption = typer.Option(None, "--publisher", help="The document's publisher.")
UrlOption = typer.Option(None, "--url", help="The document's web address.")
EXTRACT_COLUMNS = ("start", "surface", "cmp", "value", "unit", "family", "scope", "model",
                   "hardware", "engine", "conditions")
_LOOKS_LIKE_FILE = re.compile(r"(?i)^\S+\.(?:md|markdown|txt|text|html?|xhtml|pdf|json|csv)$")


def _one_document(source: str, title: str | None, publisher: str | None, url: str | None):
    """The Document of TEXT, FILE or `-` (stdin), with the metadata given."""
    from pipeline.api import document
    from pipeline.ingest import IngestError, ingest_bytes, ingest_file

    meta = {k: v for k, v in (("title", title), ("publisher", publisher), ("url", url)) if v}
    try:
        if source == "-":
            from pipeline.ingest.limits import current
            from pipeline.userinput import InputError, read_capped

            try:
                data = read_capped(sys.stdin.buffer, "stdin", current().max_file_bytes,
                                   "one document to read", nul_ok=True)
            except InputError as exc:
                raise UserError(str(exc)) from None
            doc = ingest_bytes(data, "<stdin>")
        elif os.path.isfile(source):
            path = Path(source).resolve()
            doc = ingest_file(path, path.parent)
        elif _LOOKS_LIKE_FILE.match(source):
            raise UserError(f"no such file: {source} (to read it as text, add words around it)")
        else:
            return document(source, **meta)
    except IngestError as exc:
        raise UserError(f"{'stdin' if source == '-' else source}: {exc}") from None
    for key, value in meta.items():
        setattr(doc, key, value)
    if url and not publisher:
        from pipeline.ingest.meta import publisher_from_url

        doc.publisher = publisher_from_url(url) or doc.publisher
    return doc


@app.command("extract")
def extract_cmd(
    source: str = SourceArgument,
    fmt: ExtractFormat = typer.Option(ExtractFormat.table, "--format", "-f",
                                      help="table, json (an array of claims) or jsonl (one a line)."),
    title: Optional[str] = TitleOption,
    publisher: Optional[str] = PublisherOption,
    url: Optional[str] = UrlOption,
    debug: bool = DebugOption,
) -> None:
    """Print the claims of one text, file or stdin, without a database."""
    from pipeline import output
    from pipeline.explain import conditions
    from pipeline.extract import extract_claims

    _State.debug = _State.debug or debug
    doc = _one_document(source, title, publisher, url)
    claims = extract_claims(doc)
    out = _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout
    if fmt is ExtractFormat.table:
        rows = [(c.start, c.surface, c.comparator, c.value, c.unit, c.family, c.scope or "",
                 c.model or "", c.hardware or "", c.engine or "", conditions(c)) for c in claims]
        out.write(terminal_safe(output.render_table(EXTRACT_COLUMNS, rows)))
        return
    records = [c.to_dict() for c in claims]
    columns = list(records[0]) if records else []
    rows = [tuple(r.values()) for r in records]
    (output.write_json if fmt is ExtractFormat.json else output.write_jsonl)(out, columns, rows)


@app.command("explain")
def explain_cmd(
    source: str = SourceArgument,
    fmt: OutFormat = typer.Option(OutFormat.text, "--format", "-f", help="text or json."),
    title: Optional[str] = TitleOption,
    publisher: Optional[str] = PublisherOption,
    url: Optional[str] = UrlOption,
    debug: bool = DebugOption,
) -> None:
    """Number by number, why each became a claim (unit, scope, subject, conditions) or why
    not (a name, a date, a setting, no unit ...)."""
    from pipeline.explain import explain_document, format_explanation

    _State.debug = _State.debug or debug
    figures = explain_document(_one_document(source, title, publisher, url))
    if fmt is OutFormat.json:
        out = _Safe(sys.stdout) if sys.stdout.isatty() else sys.stdout
        json.dump([f.to_dict() for f in figures], out, default=_json_default, ensure_ascii=False,
                  indent=1)
        out.write("\n")
    else:
        sys.stdout.write(terminal_safe(format_explanation(figures)))


# --- entry point --------------------------------------------------------------------------

def _bare_ray(args: list[str]) -> list[str]:
    """`ingest --ray [ADDRESS]`, `link --ray [ADDRESS]`: typer has no option with an optional value, so a bare
    ``--ray`` (the last word, or followed by another option) is read as ``--ray=local``."""
    out = list(args)
    for i, a in enumerate(out):
        if a == "--":
            break
        if a == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--ray=local"
    return out


def main(argv: list[str] | None = None) -> None:
    """Console script: run the app, turning user-fixable errors into one line on stderr."""
    _State.debug = os.environ.get("CLAIMS_DEBUG", "") not in ("", "0") or "--debug" in (argv or sys.argv[1:])
    try:
        # Without standalone mode click returns a command's Exit code instead of exiting.
        code = app(args=_bare_ray(sys.argv[1:] if argv is None else argv),
                   standalone_mode=False)
        if isinstance(code, int) and code:
            if code == 130:     # click turned Ctrl-C into an exit code
                _err("interrupted")
            sys.exit(code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (UserError, StoreError) as exc:
        if _State.debug:
            traceback.print_exc()
        _err(str(exc))
        sys.exit(124 if isinstance(exc, TimeLimit) else 2)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except KeyboardInterrupt:
        _err("interrupted")
        sys.exit(130)
    except Exception as exc:
        from pipeline.store import damaged, disk_full

        problem = damaged(exc) or disk_full(exc)
        if problem:         # a damaged database or a full disk: the user's to fix
            if _State.debug:
                traceback.print_exc()
            _err(problem)
            sys.exit(2)
        # Usage errors from typer's (vendored) click know how to show themselves.
        show, code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(code, int):
            show()
            sys.exit(code)
        if type(exc).__name__ == "Abort":
            _err("aborted")
            sys.exit(1)
        if _State.debug:
            traceback.print_exc()
        else:
            _err(f"unexpected {type(exc).__name__}: {one_line(exc)} (run with --debug for details)")
        sys.exit(1)


if __name__ == "__main__":
    main()
