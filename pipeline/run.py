"""The ingest flow: walk -> ingest_file -> extract_claims -> store, one file at a time.

``process`` is the pure, picklable unit of work (file -> Document and its claims) so a
process pool (``pipeline.pool``) can run it (``workers > 1``) while this process stays the
single DuckDB writer. Unchanged files are recognised from their bytes before any parsing,
so a re-run over a large corpus costs little more than hashing it.

Linking runs after the files are stored (``link_store``, in ``pipeline.link_flow``, also
importable from here). Ingest keeps no claims in memory: it stores each claim's quantity
key and queues what changed in ``link_pending`` for the link flow.
"""
from __future__ import annotations

import hashlib
import functools
import itertools
import json
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from pipeline.ingest import IngestError, content_id, ingest_file, read_bytes
from pipeline.ingest.manifest import load as load_manifest, overrides_for
from pipeline.ingest.structured_mapping import tag as mapping_tag
from pipeline.ingest.walk import DOCUMENT, ERROR, MANIFEST, UNCHANGED, UNSUPPORTED, Found, walk
from pipeline.link_flow import link_store  # noqa: F401  (the entry points stay importable from here)
from pipeline.link_state import ROLE_SOURCES_FIXED, claim_keys
from pipeline.model import Claim, Document
from pipeline.pool import Pool, default_workers  # noqa: F401  (cli and api read it from here)
from pipeline.store import (Plan, Store, StoreError, Stored,
                            disk_full)

# Bump when a change to ingest would store different text/metadata for the same bytes,
# so that unchanged files are re-ingested once rather than skipped.
INGEST_VERSION = "1"

DEFAULT_TIMEOUT = 300.0   # seconds a worker may spend on one file (claims ingest --timeout)
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

    meta = DocMeta.of(doc, role="unknown", role_source=None)
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
    pool = _pool(workers, extract, timeout)
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
        for job, (stored, reason, trace) in pool.results(run.jobs(found), _job_args):
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


def _job_args(job: _Job) -> tuple:
    """What a worker process is sent for a job: ``_work``'s arguments but the extractor."""
    return (job.found.path, job.found.root, job.found.rel, job.fingerprint)


def _failed(reason: str, trace: str) -> tuple[None, str, str]:
    """A job the pool gave up on, as ``_work`` reports a failure."""
    return None, reason, trace


def _prepare(extract: Extractor | None) -> None:
    """Import and compile before the workers are forked, so each inherits them: the
    extractor, the vocabularies, role inference's cue table and the quantity keys."""
    (extract or default_extractor())
    from pipeline.link.roles import cue_table
    from pipeline.vocab.loader import load

    cue_table()
    load()
    claim_keys([])


def _pool(workers: int, extract: Extractor | None, timeout: float | None) -> Pool:
    """The worker processes of an ingest: each runs ``_work`` on the files sent to it."""
    return Pool(workers, functools.partial(_work, extract=extract), timeout, _failed,
                prepare=functools.partial(_prepare, extract))
