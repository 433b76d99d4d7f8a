"""The web app of `claims serve`: routes that read the warehouse and render templates.

Read-only by construction: the warehouse is opened read-only (``Store.open``), every route
is GET (a POST gets 405), and the SQL page runs only what ``check_read_only`` lets
`claims sql` run, under the same sandbox and with a time limit. Every string from a
document reaches the page through Jinja's autoescape; addresses from documents become
links only through ``safe_url`` (http and https). The pages carry no script at all, and
a Content-Security-Policy forbids any, so text that slipped through could not run either.

One read-only connection is opened for the server's life (opening takes ~70 ms); each
request reads through a cursor of its own (DuckDB connections are not shared between
threads). While the server runs, DuckDB lets no other process write the file: stop the
server to ingest.
"""
from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Any, Iterator
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from pipeline.fingerprint import content_key
from pipeline.judged import Judged
from pipeline.serve import queries
from pipeline.serve.checking import KeptAnswers, KeptHeadlines, LoadedChecks
from pipeline.serve.text import segments, split_quote
from pipeline.store import Store, StoreError

SQL_TIMEOUT = 10.0        # seconds a query of the SQL page may run (--sql-timeout)
SQL_ROWS = 1000           # rows the SQL page shows (a LIMIT in the query shows others)
CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
           "Cache-Control": "no-store"}
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]


@dataclass
class Settings:
    db: str | None = None
    sql_timeout: float = SQL_TIMEOUT
    allowed_hosts: tuple[str, ...] = tuple(LOOPBACK_HOSTS)


def _url(path: str, params: dict[str, Any] | None = None) -> str:
    params = {k: v for k, v in (params or {}).items() if v not in (None, "")}
    return path + ("?" + urlencode(params) if params else "")


def _environment() -> Environment:
    from pipeline.derived import DerivedFigure
    from pipeline.output import scalar
    from pipeline.words import fmt_number, safe_url, scope_words

    env = Environment(loader=PackageLoader("pipeline.serve", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.globals.update(url=_url, quote=split_quote, safe_url=safe_url, facets=queries.FACETS)
    env.filters.update(number=fmt_number, scope=scope_words,
                       cell=lambda v: "NULL" if v is None else scalar(v),
                       thousands=lambda n: f"{n:,}",
                       derived=lambda row: DerivedFigure.from_row(row).text())
    return env


class Server:
    """The warehouse connection and the pages."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store.open(settings.db, read_only=True)
        self.lock = threading.Lock()
        self.env = _environment()
        self.checks = LoadedChecks()     # figures kept for checks compared in Python
        self.answers = KeptAnswers()     # answers of the SQL checker's queries
        # verdicts on figures outside primary documents, kept per warehouse state (on disk,
        # shared with `claims report` and `claims trace`), and the check box's answers: the
        # warehouse is read-only for the server's life, so an answer never goes stale
        self.judged = Judged(content_key(self.store.con))
        self.headlines = KeptHeadlines()
        self._preloading: Store | None = None
        self._preloader = threading.Thread(target=self._preload, name="claims-serve-preload",
                                           daemon=True)
        self._preloader.start()

    def _preload(self) -> None:
        """Load the figures ``checks`` keeps while the first pages are asked for."""
        try:
            with self.cursor() as cur:
                self._preloading = cur
                self.checks.preload(cur)
        except Exception:      # stopped by close(); checks then load as they go
            pass
        finally:
            self._preloading = None

    @contextlib.contextmanager
    def cursor(self) -> Iterator[Store]:
        with self.lock:
            cur = self.store.cursor()
        try:
            yield cur
        finally:
            cur.con.close()

    def close(self) -> None:
        """Stop the preload (DuckDB refuses to close a database a cursor is reading), then
        close the warehouse."""
        cur = self._preloading
        if cur is not None:
            with contextlib.suppress(Exception):
                cur.con.interrupt()
        self._preloader.join()
        self.store.close()

    def page(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(template).render(db=str(self.store.path), **context)
        return HTMLResponse(html, status_code=status, headers=HEADERS)

    # --- home ---------------------------------------------------------------------------
    def home(self, request: Request) -> Response:
        with self.cursor() as cur:
            counts = dict(zip(
                ("documents", "claims", "links", "conflicts", "unsourced", "mismatches",
                 "derived", "clusters"),
                cur.con.execute(
                    "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM claims), "
                    "(SELECT count(*) FROM links), "
                    "(SELECT count(*) FROM links WHERE relation = 'conflicts'), "
                    "(SELECT count(*) FROM claims WHERE list_contains(findings, 'unsourced')), "
                    "(SELECT count(*) FROM links WHERE relation = 'mismatch'), "
                    "(SELECT count(*) FROM links WHERE relation = 'derives'), "
                    "(SELECT count(DISTINCT cluster_id) FROM clusters)").fetchone()))
        return self.page("home.html", counts=counts, nav="home")

    # --- claims -------------------------------------------------------------------------
    def claims(self, request: Request) -> Response:
        flt = queries.ClaimFilter.from_params(request.query_params)
        with self.cursor() as cur:
            total, facets = queries.facet_counts(cur.con, flt)
            rows = flt.page_rows(cur.con)
            doc_label = None
            if flt.facets.get("document") not in (None, queries.NONE):
                hit = cur.con.execute("SELECT path FROM documents WHERE id = ?",
                                      [flt.facets["document"]]).fetchone()
                doc_label = hit[0] if hit else flt.facets["document"]
        pages = max(1, -(-total // flt.size))
        return self.page("claims.html", flt=flt, total=total, facets=facets, rows=rows,
                         pages=pages, sorts=list(queries.SORTS), doc_label=doc_label,
                         nav="claims")

    def export(self, request: Request) -> Response:
        from pipeline.output import write_records
        from pipeline.serve.stream import stream

        fmt = request.path_params["fmt"]
        if fmt not in ("csv", "jsonl"):
            return self.error(404, f"no export as {fmt!r}: claims.csv or claims.jsonl")
        flt = queries.ClaimFilter.from_params(request.query_params)
        sql, params = flt.export_sql()

        def write(fh) -> None:
            with self.cursor() as cur:
                write_records(fh, cur.con.execute(sql, params), fmt)

        media = "text/csv" if fmt == "csv" else "application/x-ndjson"
        return StreamingResponse(stream(write), media_type=f"{media}; charset=utf-8",
                                 headers={**HEADERS, "Content-Disposition":
                                          f'attachment; filename="claims.{fmt}"'})

    def claim(self, request: Request) -> Response:
        from pipeline.serve.around import trace_of
        from pipeline.trace import TraceError

        claim_id = request.path_params["claim_id"]
        with self.cursor() as cur:
            try:
                t = trace_of(cur, claim_id, loaded=self.checks, kept=self.answers,
                             judged=self.judged)
            except TraceError as exc:
                return self.error(404, str(exc))
            linked = cur.con.execute("SELECT count(*) FROM links").fetchone()[0] > 0
        if t.claim.id != claim_id:
            return RedirectResponse(_url(f"/claims/{t.claim.id}"), status_code=302)
        steps = sorted(t.steps, key=lambda s: (s.doc.order_key(), s.claim.start))
        story = t.story.to_dict() if t.story is not None else None
        return self.page("trace.html", t=t, steps=steps, story=story, linked=linked,
                         story_lines=t.story.lines() if t.story is not None else [],
                         nav="claims")

    # --- documents ----------------------------------------------------------------------
    def documents(self, request: Request) -> Response:
        q = (request.query_params.get("q") or "").strip()
        role = request.query_params.get("role") or ""
        page = queries._int(request.query_params.get("page"), 1, 1, 10**9)
        with self.cursor() as cur:
            total, rows = queries.documents_page(cur.con, q, role, page)
        pages = max(1, -(-total // queries.PAGE_SIZE))
        return self.page("documents.html", rows=rows, total=total, q=q, role=role, page=page,
                         pages=pages, nav="documents")

    def document(self, request: Request) -> Response:
        from pipeline.store import DOCUMENT_SELECT

        doc_id = request.path_params["doc_id"]
        with self.cursor() as cur:
            res = cur.con.execute(f"SELECT {DOCUMENT_SELECT} FROM documents WHERE id = ?",
                                  [doc_id])
            columns = [d[0] for d in res.description]
            row = res.fetchone()
            if row is None:
                return self.error(404, f"no document with id {doc_id!r}")
            doc = dict(zip(columns, row))
            pages = cur.con.execute("SELECT page, start FROM pages WHERE doc_id = ? "
                                    "ORDER BY page", [doc_id]).fetchall()
            res = cur.con.execute(f"SELECT {queries.ROW_COLUMNS} FROM claims_full "
                                  f"WHERE doc_id = ? ORDER BY start, \"end\", id", [doc_id])
            ccols = [d[0] for d in res.description]
            claims = [dict(zip(ccols, r)) for r in res.fetchall()]
            sources = [r[0] for r in cur.con.execute(
                "SELECT source FROM locations WHERE doc_id = ? ORDER BY source",
                [doc_id]).fetchall()] if _has_table(cur, "locations") else []
        runs = segments(doc["text"] or "", [(c["start"], c["end"], c) for c in claims], pages)
        return self.page("document.html", doc=doc, claims=claims, runs=runs,
                         n_pages=len(pages), sources=sources, nav="documents")

    # --- views --------------------------------------------------------------------------
    def view(self, request: Request) -> Response:
        view = queries.VIEWS.get(request.path_params["name"])
        if view is None:
            return self.error(404, f"no view {request.path_params['name']!r}")
        page = queries._int(request.query_params.get("page"), 1, 1, 10**9)
        with self.cursor() as cur:
            total, rows = queries.view_page(cur.con, view, page)
        pages = max(1, -(-total // queries.PAGE_SIZE))
        return self.page(f"view_{view.name}.html", view=view, rows=rows, total=total, page=page,
                         pages=pages, nav=view.name)

    # --- check --------------------------------------------------------------------------
    def check(self, request: Request) -> Response:
        from pipeline.check import check

        text = (request.query_params.get("q") or "").strip()
        verdict = None
        if text:
            # on this server's connection: a second one to the same file in one process
            # would clash with its locked settings
            verdict = self.headlines.get(text)
            if verdict is None:
                with self.cursor() as cur:
                    verdict = check(text, store=cur, loaded=self.checks, kept=self.answers)
                self.headlines.put(text, verdict)
        return self.page("check.html", text=text, v=verdict, nav="check")

    # --- sql ----------------------------------------------------------------------------
    def sql(self, request: Request) -> Response:
        from pipeline.dbguard import QueryTimeout, run_limited
        from pipeline.store import check_read_only, damaged, sql_error

        text = request.query_params.get("q") or ""
        error = None
        columns: list[str] = []
        rows: list[tuple] = []
        more = False
        if text.strip():
            try:
                check_read_only(text)
                with self.cursor() as cur:
                    def fetch() -> tuple[list[str], list[tuple]]:
                        res = cur.con.execute(text)
                        names = [d[0] for d in res.description] if res.description else []
                        return names, res.fetchmany(SQL_ROWS + 1) if names else []

                    columns, rows = run_limited(cur.con, fetch, self.settings.sql_timeout or None)
                more = len(rows) > SQL_ROWS
                rows = rows[:SQL_ROWS]
            except StoreError as exc:
                error = str(exc)
            except QueryTimeout:
                error = (f"the query ran past the {self.settings.sql_timeout:g} s limit of this "
                         "page and was stopped (`claims sql --timeout` runs it longer)")
            except Exception as exc:       # a DuckDB error: the user's SQL, shown in one line
                error = damaged(exc) or sql_error(exc)
        return self.page("sql.html", text=text, columns=columns, rows=rows, more=more,
                         error=error, limit=SQL_ROWS, timeout=self.settings.sql_timeout,
                         nav="sql")

    # --- the rest -----------------------------------------------------------------------
    def css(self, request: Request) -> Response:
        from importlib.resources import files

        name = request.path_params["name"]
        package = {"report.css": "pipeline.report", "serve.css": "pipeline.serve"}.get(name)
        if package is None:
            return self.error(404, "no such file")
        text = files(package).joinpath(
            name if package == "pipeline.report" else f"static/{name}").read_text("utf-8")
        return Response(text, media_type="text/css; charset=utf-8",
                        headers={**HEADERS, "Cache-Control": "max-age=3600"})

    def error(self, status: int, message: str) -> HTMLResponse:
        return self.page("error.html", status=status, code=status, message=message)


def _has_table(cur: Store, name: str) -> bool:
    return bool(cur.con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = ? "
                                "AND database_name = current_database()", [name]).fetchone()[0])


def create_app(settings: Settings) -> Starlette:
    """The app over ``settings.db`` (opened read-only now: StoreError when it cannot be)."""
    server = Server(settings)
    routes = [
        Route("/", server.home),
        Route("/claims", server.claims),
        Route("/claims.{fmt:str}", server.export),
        Route("/claims/{claim_id:str}", server.claim),
        Route("/documents", server.documents),
        Route("/documents/{doc_id:str}", server.document),
        Route("/views/{name:str}", server.view),
        Route("/check", server.check),
        Route("/sql", server.sql),
        Route("/static/{name:str}", server.css),
    ]

    async def not_found(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 405:
            return Response("read-only: only GET requests\n", status_code=405,
                            headers={**HEADERS, "Allow": "GET, HEAD"})
        return server.error(exc.status_code, exc.detail or "not found")

    async def failed(request: Request, exc: Exception) -> Response:
        from pipeline.store import damaged, one_line

        if isinstance(exc, StoreError):
            return server.error(503, str(exc))
        return server.error(500, damaged(exc) or f"unexpected {type(exc).__name__}: {one_line(exc)}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        server.close()

    app = Starlette(routes=routes,
                    middleware=[Middleware(TrustedHostMiddleware,
                                           allowed_hosts=list(settings.allowed_hosts))],
                    exception_handlers={HTTPException: not_found, Exception: failed},
                    lifespan=lifespan)
    app.state.server = server
    return app
