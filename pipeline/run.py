"""The ingest flow: walk -> ingest_file -> extract_claims -> store, one file at a time,
then the link flow: stored claims -> link stage -> links, clusters, findings, roles.

``process`` is the pure, picklable unit of work (file -> Document and its claims) so a
process pool can run it (``workers > 1``) while this process stays the single DuckDB
writer. Unchanged files are recognised from their bytes before any parsing, so a re-run
over a large corpus costs little more than hashing it.

Linking runs after the files are stored (``link_store``). Ingest keeps no claims in memory:
it stores each claim's quantity key and queues what changed in ``link_pending``; linking
then loads from DuckDB only the documents on the subjects those changes touch and
rewrites only what those subjects own (see ``_link_incremental``).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import signal
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from pipeline.ingest import IngestError, content_id, ingest_file, read_bytes
from pipeline.ingest.manifest import load as load_manifest, overrides_for
from pipeline.ingest.structured_mapping import tag as mapping_tag
from pipeline.ingest.walk import DOCUMENT, ERROR, MANIFEST, UNCHANGED, UNSUPPORTED, Found, walk
from pipeline.link_flow import ROLE_SOURCES_FIXED, LinkReport, _by_doc, _doc_metas, _infer_roles, claim_keys
from pipeline.model import Claim, Document
from pipeline.store import (LinkScope, Pending, Plan, Store, StoreError, Stored,
                            disk_full, one_line)

# Bump when a change to ingest would store different text/metadata for the same bytes,
# so that unchanged files are re-ingested once rather than skipped.
INGEST_VERSION = "1"

DEFAULT_TIMEOUT = 300.0   # seconds a worker may spend on one file (claims ingest --timeout)
PREFETCH = 2              # files handed to a worker at a time (the next one is ready)
PLAN_CHUNK = 256          # files hashed and looked up in the database together
FLUSH_DOCS = 1000         # a write transaction holds at most this many files ...
FLUSH_BYTES = 32 << 20    # ... or this many characters of text ...
FLUSH_SECONDS = 5.0       # ... or what arrived in this many seconds
MAX_KEPT_OUTCOMES = 1000  # error outcomes kept in Summary.outcomes (all are in ingest_errors)

Extractor = Callable[[Document], list[Claim]]


def default_extractor() -> Extractor:
    from pipeline.extract import extract_claims

    return extract_claims


def extractor_version() -> str:
    """The extract stage's version when it declares one (``pipeline.extract.VERSION``)."""
    try:
        import pipeline.extract as extract
    except ImportError:
        return ""
    return str(getattr(extract, "VERSION", ""))


def fingerprint(doc_id: str, overrides: dict[str, str], versions: str) -> str:
    """What makes a stored document current: its bytes, its manifest overrides, versions."""
    blob = json.dumps([doc_id, sorted(overrides.items()), versions], ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def process(path: Path, root: Path, extract: Extractor | None = None) -> tuple[Document, list[Claim]]:
    """One file -> its Document and claims; raises IngestError for bad files."""
    doc = ingest_file(path, root)
    claims = list((extract or default_extractor())(doc))
    if doc.pages:
        for claim in claims:
            if claim.page is None:
                claim.page = doc.page_at(claim.start)
    return doc, claims


@dataclass
class Outcome:
    """What happened to one file."""

    path: str                 # relative to its ingest root
    status: str               # new | skipped | replaced | error | unsupported
    reason: str = ""
    n_claims: int = 0
    trace: str = ""           # traceback text for unexpected failures (shown with --debug)
    source: str | None = None  # where it was read (Found.source): ingest_errors' key


@dataclass
class Summary:
    """Counts for the one-line report at the end of `claims ingest`."""

    files: int = 0
    new: int = 0
    skipped: int = 0
    replaced: int = 0
    errors: int = 0
    unsupported: int = 0
    claims: int = 0
    seconds: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)   # errors only (the first 1000)
    skips: list[Outcome] = field(default_factory=list)      # unsupported with a reason (the first 1000)
    # (source, previous document id, new document id) of each replacement (the first 1000)
    replacements: list[tuple[str, str | None, str]] = field(default_factory=list)
    # (feed address, items listed, items fetched) of feeds cut at --max-feed-items
    cut_feeds: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def feed_items_left_out(self) -> int:
        return sum(total - kept for _, total, kept in self.cut_feeds)

    def add(self, outcome: Outcome) -> None:
        self.keep(outcome)
        if outcome.status == "error":
            self.errors += 1
        else:
            setattr(self, outcome.status, getattr(self, outcome.status) + 1)
        self.claims += outcome.n_claims

    def keep(self, outcome: Outcome) -> None:
        """Errors are kept to be shown; other outcomes are only counted (memory stays
        bounded however many files a run sees)."""
        if outcome.status == "error" and len(self.outcomes) < MAX_KEPT_OUTCOMES:
            self.outcomes.append(outcome)
        elif outcome.status == "unsupported" and outcome.reason and len(self.skips) < MAX_KEPT_OUTCOMES:
            self.skips.append(outcome)

    def line(self) -> str:
        left = self.feed_items_left_out
        cut = (f"{left:,} feed item{'s' if left != 1 else ''} left out (over --max-feed-items); "
               if left else "")
        return (f"{self.files} files: {self.new} new, {self.skipped} skipped (unchanged), "
                f"{self.replaced} replaced, {self.errors} errors, "
                f"{self.unsupported} skipped (unsupported); {self.claims} claims; {cut}"
                f"{self.seconds:.1f} s")


@dataclass
class _Job:
    found: Found
    fingerprint: str
    doc_id: str
    source: str = ""      # Found.source: the document's identity besides its bytes
    plan: Plan | None = None   # what writing it would do, as planned before parsing


def _work(path: Path, root: Path, rel: str, fp: str, extract: Extractor | None):
    """One file -> (Stored, None, "") or (None, reason, traceback): what a worker sends back.

    The claims and their quantity keys are packed as Arrow tables here, in the worker, so
    the single writer only concatenates and inserts. Failures are values, not exceptions
    (exceptions and process pools mix badly).
    """
    try:
        doc, claims = process(path, root, extract)
        doc.path = rel
        role = text_role(doc, claims)
        if role:
            doc.meta["inferred_role"] = role
        return Stored.of(doc, claims, fp, claim_keys(claims)), None, ""
    except IngestError as exc:
        return None, str(exc), ""
    except Exception as exc:  # a bug, not a bad file: keep going, keep the traceback
        msg = " ".join(str(exc).split())
        return None, f"unexpected {type(exc).__name__}: {msg}", traceback.format_exc()


def text_role(doc: Document, claims: list[Claim]) -> str | None:
    """The role the link stage infers from a document's own text and claims, for a
    document without a manifest or metadata role; None for the others.

    Worked out where the text is at hand (a worker, in parallel) and kept in
    ``documents.meta`` as ``inferred_role``, so the link after an ingest reads neither the
    texts back nor runs the role patterns over them in the single writer process.
    """
    if doc.role_source in ROLE_SOURCES_FIXED:
        return None
    from pipeline.link import DocMeta
    from pipeline.link.roles import resolve_role

    meta = DocMeta(id=doc.id, path=doc.path, role="unknown", role_source=None,
                   published=doc.published, publisher=doc.publisher, title=doc.title,
                   author=doc.author, url=doc.url, text=doc.text)
    role, source = resolve_role(meta, claims)
    return role if source == "inferred" else None


def _web_validators(store: Store, versions: str) -> Callable[[str], dict[str, str] | None]:
    """address -> the ETag / Last-Modified stored with its current document, for a
    conditional request; None (fetch in full) when nothing is stored or the stored
    document is stale (another ingest or extract version would reprocess it)."""
    def known(url: str) -> dict[str, str] | None:
        rows = store.query("SELECT id, fingerprint, meta FROM documents WHERE path = ?", [url])[1]
        if len(rows) != 1:
            return None
        doc_id, fp, meta = rows[0]
        if fp != fingerprint(doc_id, {}, versions):
            return None
        try:
            web = (json.loads(meta) if isinstance(meta, str) else meta or {}).get("web") or {}
        except (ValueError, AttributeError):
            return None
        found = {k: web[k] for k in ("etag", "last_modified") if web.get(k)}
        return found or None

    return known


def default_workers() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def ingest_paths(paths: Iterable[Path], store: Store, *, workers: int = 1, force: bool = False,
                 extract: Extractor | None = None,
                 progress: Callable[[int, str], None] | None = None,
                 on_total: Callable[[int], None] | None = None,
                 timeout: float | None = DEFAULT_TIMEOUT, follow_links: bool = False,
                 urls: Iterable[str] = (), web=None, dry_run: bool = False) -> Summary:
    """Ingest every document under ``paths`` into ``store``; never stops on a bad file.

    Files stream through: the walk is read in chunks (hashed and planned against the
    database one chunk at a time, unchanged files skipped before parsing), ``workers``
    processes parse and extract (``workers=0``: in this process, no time limit), and this
    process writes the results in large transactions (``Store.write_many``) every
    ``FLUSH_DOCS`` files, ``FLUSH_BYTES`` of text or ``FLUSH_SECONDS``, on a thread of
    its own so the workers are fed while a batch is written. Each file lands
    whole or not at all; a file a worker spends more than ``timeout`` seconds on is
    abandoned (the worker is killed and replaced) and recorded in ``ingest_errors``.

    ``urls`` are web addresses (pages, PDFs, feeds) fetched after the files with the
    ``web`` options (``pipeline.ingest.web.WebOptions``): each page goes through the same
    flow, its document's path is its address; a page the server reports unchanged since
    the stored copy (conditional request) counts as skipped.

    ``on_total`` learns how many files there are (this walks the paths once more);
    ``progress(advance, path)`` is called once per file. Raises FileNotFoundError (before
    writing anything) for a missing path.

    ``dry_run`` hashes and plans every file as an ingest would (new, replaced, skipped,
    and the replacements by source) but parses nothing and writes nothing.
    """
    started = time.perf_counter()
    paths, urls = list(paths), list(urls)
    summary = Summary()
    if on_total:
        on_total(sum(1 for f in walk(paths, follow_links) if f.kind != MANIFEST) + len(urls))
    run = _Ingest(store, summary, force, progress or (lambda n, p: None))
    pool = _Pool(workers, extract, timeout)
    found: Iterable[Found] = walk(paths, follow_links)
    source = None
    if urls:
        from pipeline.ingest.web import WebSource

        source = WebSource(urls, web, known=None if force else _web_validators(store, run.versions))
        found = itertools.chain(found, source.found())
    if dry_run:
        run.dry = True
        try:
            for job in run.jobs(found):
                run.would(job)
        finally:
            if source is not None:
                summary.cut_feeds = list(source.cut_feeds)
                source.close()
        summary.seconds = time.perf_counter() - started
        return summary
    try:
        for job, (stored, reason, trace) in pool.results(run.jobs(found)):
            if stored is None:
                run.fail(Outcome(job.found.rel, "error", reason, trace=trace, source=job.found.source), job.doc_id)
            else:
                if source is not None:
                    source.finish(stored.doc)
                stored.source = job.source
                run.add(stored)
        run.flush()
        run.close()         # the last batch is written (or its error raised) before return
    finally:
        try:
            pool.close()
        finally:
            run.abandon()   # interrupted: a batch still being written is rolled back
        if source is not None:
            summary.cut_feeds = list(source.cut_feeds)
            source.close()
    summary.seconds = time.perf_counter() - started
    return summary


class _Ingest:
    """The single writer's side of an ingest: plans chunks of found files, buffers results
    and errors, and writes them with ``Store.write_many`` in large transactions."""

    def __init__(self, store: Store, summary: Summary, force: bool,
                 tick: Callable[[int, str], None]) -> None:
        self.store, self.summary, self.force, self.tick = store, summary, force, tick
        self.versions = f"ingest={INGEST_VERSION};extract={extractor_version()}" + mapping_tag()
        self.inflight: set[str] = set()      # document ids sent to parse, not yet written
        # (source, doc id, path) of sources holding bytes stored or on their way: written
        # once their document is (``Store.write_many(locations=)``)
        self.waiting: list[tuple[str, str, str]] = []
        self.items: list[Stored] = []
        self.errors: list[Outcome] = []
        self.chars = 0
        self.since: float | None = None
        self.writer: _Writer | None = None       # the batch being written, on its thread
        self.dry = False                         # --dry-run: plan and count, write nothing

    # --- planning: found files -> jobs ----------------------------------------------
    def jobs(self, found: Iterable[Found]) -> Iterator[_Job]:
        chunk: list[Found] = []
        for f in found:
            if f.kind == MANIFEST:
                problems = load_manifest(f.path).problems
                if problems:
                    reason = f"{len(problems)} problem(s): " + "; ".join(problems)
                    self.summary.errors += 1
                    self.summary.keep(Outcome(f.rel, "error", reason, source=f.source))
                    self.errors.append(Outcome(f.rel, "error", reason, source=f.source))
                continue
            self.summary.files += 1
            if f.kind == UNSUPPORTED:
                self.summary.add(Outcome(f.rel, "unsupported", f.reason))
                self.tick(1, f.rel)
            elif f.kind == ERROR:      # the walk's: a link not followed, a folder unreadable
                self.fail(Outcome(f.rel, "error", f.reason, source=f.source))
            elif f.kind == UNCHANGED:  # a web page the server reports unchanged (HTTP 304)
                self.summary.add(Outcome(f.rel, "skipped"))
                self.tick(1, f.rel)
            elif f.kind == DOCUMENT:
                chunk.append(f)
                # web pages are planned as they arrive (each was a download to wait for)
                if len(chunk) >= PLAN_CHUNK or f.rel.startswith(("http://", "https://")):
                    yield from self._plan(chunk)
                    chunk = []
        yield from self._plan(chunk)

    def _plan(self, chunk: list[Found]) -> Iterator[_Job]:
        """Hash a chunk of files and skip, with one query, those stored unchanged."""
        ready = []
        for f in chunk:
            try:
                data = read_bytes(f.path)
            except IngestError as exc:
                self.fail(Outcome(f.rel, "error", str(exc), source=f.source))
                continue
            overrides, _ = overrides_for(f.path, f.root)
            doc_id = content_id(data)
            del data
            ready.append((f, doc_id, fingerprint(doc_id, overrides.as_dict(), self.versions),
                          f.source))
        plans = self.store.plan_many([(d, f.rel, fp, src) for f, d, fp, src in ready],
                                     force=self.force)
        for (f, doc_id, fp, src), plan in zip(ready, plans):
            # unchanged, or the same bytes already on their way to the database (a
            # duplicate): not parsed; the source is kept among the document's locations
            if plan.action == "skipped" or (doc_id in self.inflight and plan.action == "new"):
                if plan.locate or plan.action == "new":
                    self.waiting.append((src, doc_id, f.rel))
                self.summary.add(Outcome(f.rel, "skipped"))
                self.tick(1, f.rel)
                continue
            self.inflight.add(doc_id)
            yield _Job(f, fp, doc_id, src, plan)

    def would(self, job: _Job) -> None:
        """--dry-run: count what writing the job's file would do, from its plan."""
        plan = job.plan or Plan(True)
        self.summary.add(Outcome(job.found.rel, plan.action))
        if plan.action == "replaced":
            self._replaced(job.source, plan.previous or job.doc_id, job.doc_id)
        self.tick(1, job.found.rel)

    def _replaced(self, source: str, previous: str | None, new: str) -> None:
        if len(self.summary.replacements) < MAX_KEPT_OUTCOMES:
            self.summary.replacements.append((source, previous, new))

    # --- results -> the database ----------------------------------------------------
    def add(self, stored: Stored) -> None:
        self.items.append(stored)
        self.chars += len(stored.doc.text)
        self.tick(1, stored.doc.path)
        self._maybe_flush()

    def fail(self, outcome: Outcome, doc_id: str | None = None) -> None:
        self.summary.add(outcome)
        self.errors.append(outcome)
        if doc_id:
            self.inflight.discard(doc_id)
        self.tick(1, outcome.path)
        self._maybe_flush()

    def _maybe_flush(self) -> None:
        if self.dry:
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        if (len(self.items) + len(self.errors) >= FLUSH_DOCS or self.chars >= FLUSH_BYTES
                or now - self.since >= FLUSH_SECONDS):
            self.flush()

    def flush(self) -> None:
        """Hand the buffered files and errors to the writer thread, as one transaction,
        once the batch before them is written: the workers go on parsing meanwhile (DuckDB
        lets go of the GIL while it writes)."""
        items, errors = self.items, [(o.path, o.reason, o.source) for o in self.errors]
        self.items, self.errors, self.chars, self.since = [], [], 0, None
        self._collect()
        # a source whose document is still at a worker waits for a later batch
        busy = self.inflight - {s.doc.id for s in items}
        located = [w for w in self.waiting if w[1] not in busy]
        self.waiting = [w for w in self.waiting if w[1] in busy]
        if items or errors or located:
            self.writer = _Writer(self.store, items, errors, self.force, located)

    def close(self) -> None:
        """Wait for the batch being written and record its outcomes."""
        self._collect()

    def abandon(self) -> None:
        """Stop waiting for a batch still being written (Ctrl-C, a failure): its statement
        is interrupted and its transaction rolled back; the next ingest redoes its files."""
        if self.writer is not None:
            self.writer.interrupt()
            self.writer = None

    def _collect(self) -> None:
        """The outcomes of the batch on the writer thread, when it is done (raises what
        its write raised)."""
        if self.writer is None:
            return
        items = self.writer.items
        actions, failures = self.writer.result()   # Ctrl-C here: abandon() still sees it
        self.writer = None
        for path, reason, trace in failures:
            self.summary.add(Outcome(path, "error", reason, trace=trace))
        for s, action in zip(items, actions):
            self.inflight.discard(s.doc.id)
            if action == "replaced":
                self._replaced(s.location, s.previous or s.doc.id, s.doc.id)
            if action is not None:
                self.summary.add(Outcome(s.doc.path, action,
                                         n_claims=s.n_claims if action != "skipped" else 0))


class _Writer:
    """One batch written on a thread of its own, through its own connection.

    A daemon thread: an interrupted ingest does not wait for it at exit, and what it has
    not committed is lost whole (each file lands whole or not at all)."""

    def __init__(self, store: Store, items: list[Stored], errors: list[tuple[str, str]],
                 force: bool, located: list[tuple[str, str, str]] = ()) -> None:
        self.items = items
        self.store = store.cursor()         # a DuckDB connection is not shared by threads
        self.out: tuple | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(items, errors, force, located),
                                       name="claims-writer", daemon=True)
        self.thread.start()

    def _run(self, items, errors, force, located) -> None:
        try:
            self.out = _write_batch(self.store, items, errors, force, located)
        except BaseException as exc:        # handed to the thread that waits for it
            self.error = exc
        finally:
            self.store.con.close()

    def result(self) -> tuple[list[str | None], list[tuple[str, str, str]]]:
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.out

    def interrupt(self) -> None:
        try:
            self.store.con.interrupt()
        except Exception:   # already closed: the write is over
            pass


def _write_batch(store: Store, items: list[Stored], errors: list[tuple[str, str]],
                 force: bool, located: list[tuple[str, str, str]] = ()
                 ) -> tuple[list[str | None], list[tuple[str, str, str]]]:
    """Write files, errors and sources of duplicates in one transaction; if that fails,
    the files one at a time so that one bad file fails alone. -> (each file's action or
    None, (path, reason, traceback) of each file that failed). Runs on the writer thread:
    it records nothing."""
    try:
        return store.write_many(items, force=force, errors=errors, locations=located), []
    except Exception as exc:
        full = disk_full(exc, store.path)
        if full:        # every file would fail the same way: stop, saying so
            raise StoreError(full) from None
        actions: list[str | None] = []
        failures = []
        for s in items:
            try:
                actions.append(store.write_many([s], force=force)[0])
            except Exception as exc:
                full = disk_full(exc, store.path)
                if full:
                    raise StoreError(full) from None
                msg = " ".join(str(exc).split())
                reason = f"not stored: {type(exc).__name__}: {msg}"
                actions.append(None)
                failures.append((s.doc.path, reason, traceback.format_exc()))
                errors.append((s.doc.path, reason, s.location))
        store.write_many([], errors=errors, locations=located)
        return actions, failures


class _Worker:
    """One worker process and the files sent to it, oldest (the one it is on) first."""

    def __init__(self, ctx, extract: Extractor | None) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, extract, os.getpid()),
                                daemon=True, name="claims-ingest-worker")
        self.proc.start()
        child.close()
        self.queue: deque[_Job] = deque()
        self.since = 0.0       # when it started on queue[0]

    def send(self, job: _Job) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.queue.append(job)
        self.conn.send((str(job.found.path), str(job.found.root), job.found.rel, job.fingerprint))

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()

    def exit_reason(self) -> str:
        self.proc.join(timeout=5)
        code = self.proc.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"


def _worker_main(conn, extract: Extractor | None, parent: int) -> None:
    """A worker: files in, ``_work`` results out, until told to stop or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the writer's to handle
    _die_with(parent)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        path, root, rel, fp = msg
        result = _work(Path(path), Path(root), rel, fp, extract)
        try:
            conn.send(result)
        except (EOFError, OSError):
            return
        except Exception as exc:    # the result would not pickle
            conn.send((None, f"unexpected {type(exc).__name__}: {one_line(exc)}",
                       traceback.format_exc()))


def _die_with(parent: int) -> None:
    """Linux: get SIGKILL when the parent dies (a SIGKILLed ingest leaves no orphans)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)       # PR_SET_PDEATHSIG
    except Exception:
        pass
    if os.getppid() != parent:
        os._exit(0)


class _Pool:
    """``workers`` processes, each given up to ``PREFETCH`` files at a time; results come
    back as they finish. A worker whose current file has run ``timeout`` seconds, or that
    dies, is replaced: that file fails, the files queued behind it go to other workers.
    With ``workers=0`` files are processed in this process (no time limit)."""

    def __init__(self, workers: int, extract: Extractor | None, timeout: float | None) -> None:
        self.n, self.extract = workers, extract
        self.timeout = timeout if timeout and timeout > 0 else None
        self.workers: list[_Worker] = []
        self.ctx = None

    def _start(self) -> None:
        import multiprocessing as mp

        # fork: workers inherit the loaded extractor and vocabularies (and any callable
        # passed as ``extract``); elsewhere the platform's default start method
        method = "fork" if "fork" in mp.get_all_start_methods() else None
        self.ctx = mp.get_context(method)
        if method == "fork":
            (self.extract or default_extractor())  # import and compile before forking
            import pipeline.link.roles  # noqa: F401  (role inference runs in the workers too)
            from pipeline.vocab.loader import load

            load()
            claim_keys([])
        self.workers = [_Worker(self.ctx, self.extract) for _ in range(self.n)]

    def results(self, jobs: Iterator[_Job]) -> Iterator[tuple[_Job, tuple]]:
        if self.n <= 0:
            for job in jobs:
                yield job, _work(job.found.path, job.found.root, job.found.rel,
                                 job.fingerprint, self.extract)
            return
        from multiprocessing.connection import wait

        source = iter(jobs)
        first = next(source, None)
        if first is None:          # nothing to parse: no processes started
            return
        self._start()
        retry: deque[_Job] = deque([first])
        exhausted = False
        while True:
            for w in self.workers:
                while len(w.queue) < PREFETCH:
                    if retry:
                        w.send(retry.popleft())
                    elif not exhausted and (job := next(source, None)) is not None:
                        w.send(job)
                    else:
                        exhausted = True
                        break
            busy = [w for w in self.workers if w.queue]
            if not busy:
                return
            deadline = None
            if self.timeout:
                deadline = max(0.0, min(w.since for w in busy) + self.timeout - time.monotonic())
            ready = set(wait([w.conn for w in busy], timeout=deadline))
            for w in busy:
                if w.conn in ready:
                    try:
                        result = w.conn.recv()
                    except (EOFError, OSError):
                        yield self._replace(w, retry, f"worker process died ({w.exit_reason()})")
                        continue
                    job = w.queue.popleft()
                    w.since = time.monotonic()
                    yield job, result
                elif self.timeout and time.monotonic() - w.since >= self.timeout:
                    yield self._replace(w, retry, f"gave up after {self.timeout:g} s (the per-file "
                                                  "time limit; raise it with --timeout)")

    def _replace(self, w: _Worker, retry: deque, reason: str):
        """Stop ``w`` and start another; its current file fails with ``reason``."""
        job = w.queue.popleft()
        retry.extendleft(reversed(w.queue))
        w.queue.clear()
        w.stop(kill=True)
        self.workers[self.workers.index(w)] = _Worker(self.ctx, self.extract)
        return job, (None, reason, "")

    def close(self) -> None:
        for w in self.workers:
            w.stop(kill=bool(w.queue))
        self.workers = []


# --- link: after an ingest (incremental) or the whole record (`claims link`) -------------



def link_store(store: Store, full: bool = False, partitioned: bool = False,
               ray: str | None = None) -> LinkReport | None:
    """Link what changed since the last link, or everything with ``full``.

    Returns None when nothing is pending (every file was skipped): nothing is relinked.
    Falls back to a full link when the database holds claims without stored keys (it was
    written before linking existed) or removed claims had none. ``partitioned``: a full
    link runs partition by partition in bounded memory (``pipeline.link_parts``), and so
    does the link after an ingest that added at least half of the documents (an
    incremental link would hold all of them). ``ray``: those partitions run as Ray tasks
    on the Ray at that address (``link_parts.link_partitioned``).
    """
    started = time.perf_counter()
    pending = store.pending()
    if not full and pending.empty:
        return None
    if partitioned and pending.added and not full:
        n_docs = store.query("SELECT count(*) FROM documents")[1][0][0]
        full = 2 * len(pending.added) >= n_docs
    report = None
    if not (full or pending.full or store.needs_full_link()):
        report = _link_incremental(store, pending)
    if report is None and partitioned:
        from pipeline.link_parts import link_partitioned

        report = link_partitioned(store, ray=ray)
    if report is None:
        report = _link_full(store)
    report.totals = store.link_totals()
    report.seconds = time.perf_counter() - started
    return report


def _link_full(store: Store) -> LinkReport:
    """Relink the whole record: every link, cluster, finding, inferred role and key."""
    from pipeline.link import LinkResult, relink, touched_keys
    from pipeline.link.keys import subject_of_key

    metas, _, stored = _doc_metas(store)
    claims = list(store.iter_claims())
    inferred = _infer_roles(store, metas, metas, _by_doc(claims))
    # relink with every key touched and every document new is link() from scratch, with
    # the roles inferred above (so no document text is held while linking)
    result = relink(claims, metas, LinkResult(roles=inferred), touched_keys(claims),
                    new_docs=set(metas))
    findings = {c.id: f for c in claims if (f := result.findings.get(c.id, [])) != c.findings}
    keys = [(c.id, c.doc_id, result.keys[c.id], subject_of_key(result.keys[c.id]))
            for c in claims]
    changed = {d: r[0] for d, r in inferred.items() if stored[d] != r}
    store.save_links(result.links, result.cluster_rows(), findings, changed, keys=keys)
    return LinkReport("full", claims=len(claims),
                      inferred=sorted((metas[d].path, r) for d, r in changed.items()))


def _link_incremental(store: Store, pending: Pending) -> LinkReport | None:
    """Relink only the subjects the pending changes touch; None when a full link is needed.

    What the changes touch: the subjects of the added documents' claims and of removed
    claims, plus the subjects of claims whose attribution now resolves to other
    documents (a source added or removed). Loaded: the claims on touched subjects, the
    added documents, the documents holding a ratio claim on a touched subject or credited
    by an owned claim, the per-user speeds in other documents on a touched subject (they
    set operating points) and the claims whose attribution moved. Rewritten: the pair links, clusters and findings of claims on
    touched subjects and in added documents, the derived checks of ratio claims there, and
    the misattribution finding of claims whose attribution moved. Everything else a full
    link would conclude depends only on claims left untouched, so it stays as stored.
    """
    from pipeline.link import DocMeta, LinkResult, _sources, relink, touched_keys
    from pipeline.link.derive import RATIO_FAMILIES
    from pipeline.link.findings import FINDINGS
    from pipeline.link.keys import subject_key, subject_of_key

    metas, known, _ = _doc_metas(store)
    added = {d for d in pending.added if d in metas}
    subjects = store.subjects_of(added) | {s for s in map(subject_of_key, pending.keys) if s}

    # attributions that resolve differently now that documents came and went
    before = {d: m for d, m in metas.items() if d not in added}
    for r in pending.removed:
        before.setdefault(r["id"], DocMeta(id=r["id"], path=r["path"] or "", publisher=r["publisher"],
                                           title=r["title"], author=r["author"], url=r["url"]))
    old_idx, new_idx = _sources(before), _sources(metas)
    moved: set[str] = set()
    for by, subj in store.attributions():
        if any(set(old_idx.resolve(by, strict)) != set(new_idx.resolve(by, strict))
               for strict in (False, True)):
            moved.add(by)
            if subj:
                subjects.add(subj)

    # whole documents: added ones (roles, derived checks), those with a ratio claim on a
    # touched subject (derived checks seek operands in their own document), and those that
    # owned claims credit (misattribution looks at all their figures); of the other
    # documents on a touched subject only the per-user speeds that set operating points
    docs = set(added) | store.documents_on(subjects, families=RATIO_FAMILIES)
    for by, _ in store.attributions(doc_ids=added, subjects=subjects):
        docs |= set(new_idx.resolve(by, strict=True))
    for by in moved:
        docs |= set(new_idx.resolve(by, strict=True))
    claims = list(store.iter_claims(
        docs=docs, subjects=subjects, asserted_by=moved,
        siblings=(store.documents_on(subjects), "token_throughput", "per_user")))

    new_claims = [c for c in claims if c.doc_id in added]
    touched = (touched_keys(new_claims) | pending.keys
               | touched_keys(c for c in claims if subject_key(c) in subjects))
    if {s for s in map(subject_of_key, touched) if s} != subjects:
        return None     # stored keys disagree with today's link stage: relink everything

    inferred = _infer_roles(store, metas, added, _by_doc(new_claims), stored=True)
    result = relink(claims, metas, LinkResult(roles={**known, **inferred}), touched,
                    new_docs=added)

    subject = {cid: subject_of_key(k) for cid, k in result.keys.items()}
    own = {c.id for c in claims if subject[c.id] in subjects}
    ratios = {c.id for c in claims if c.family in RATIO_FAMILIES
              and (c.doc_id in added or subject[c.id] in subjects)}
    links = [ln for ln in result.links
             if (ln.src in ratios if ln.relation == "derives" else ln.src in own)]
    findings: dict[str, list[str]] = {}
    for c in claims:
        if c.id in own or c.doc_id in added:
            now = result.findings.get(c.id, [])
        elif c.asserted_by in moved:
            kept = set(c.findings) - {"misattributed"}
            if "misattributed" in result.findings.get(c.id, ()):
                kept.add("misattributed")
            now = [f for f in FINDINGS if f in kept]
        else:
            continue
        if now != c.findings:
            findings[c.id] = now
    clusters = sorted((k, cid) for cid, k in result.clusters.items() if cid in own)
    store.save_links(links, clusters, findings, {d: r[0] for d, r in inferred.items()},
                     scope=LinkScope(own, ratios))
    shown = sorted((metas[d].path, r[0]) for d, r in inferred.items())
    return LinkReport("incremental", claims=len(claims), subjects=len(subjects), inferred=shown)
