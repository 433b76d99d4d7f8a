"""The ingest flow: walk -> ingest_file -> extract_claims -> store, one file at a time.

``process`` is the pure, picklable unit of work (file -> Document and its claims) so a
process pool can run it (``workers > 1``) while this process stays the single DuckDB
writer. Unchanged files are recognised from their bytes before any parsing, so a re-run
over a large corpus costs little more than hashing it.
"""
from __future__ import annotations

import hashlib
import json
import time
import traceback
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from pipeline.ingest import IngestError, content_id, ingest_file, read_bytes
from pipeline.ingest.manifest import load as load_manifest, overrides_for
from pipeline.ingest.walk import DOCUMENT, MANIFEST, UNSUPPORTED, Found, walk
from pipeline.model import Claim, Document
from pipeline.store import Store

# Bump when a change to ingest would store different text/metadata for the same bytes,
# so that unchanged files are re-ingested once rather than skipped.
INGEST_VERSION = "1"

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
    outcomes: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        if outcome.status == "error":
            self.errors += 1
        else:
            setattr(self, outcome.status, getattr(self, outcome.status) + 1)
        self.claims += outcome.n_claims

    def line(self) -> str:
        return (f"{self.files} files: {self.new} new, {self.skipped} skipped (unchanged), "
                f"{self.replaced} replaced, {self.errors} errors, "
                f"{self.unsupported} skipped (unsupported); {self.claims} claims; "
                f"{self.seconds:.1f} s")


@dataclass
class _Job:
    found: Found
    fingerprint: str


def _safe_process(path: Path, root: Path, extract: Extractor | None):
    """``process`` with failures returned as values (exceptions and pools mix badly)."""
    try:
        return process(path, root, extract), None, ""
    except IngestError as exc:
        return None, str(exc), ""
    except Exception as exc:  # a bug, not a bad file: keep going, keep the traceback
        msg = " ".join(str(exc).split())
        return None, f"unexpected {type(exc).__name__}: {msg}", traceback.format_exc()


def ingest_paths(paths: Iterable[Path], store: Store, *, workers: int = 1, force: bool = False,
                 extract: Extractor | None = None,
                 progress: Callable[[int, str], None] | None = None,
                 on_total: Callable[[int], None] | None = None) -> Summary:
    """Ingest every document under ``paths`` into ``store``; never stops on a bad file.

    ``on_total`` learns how many files were found; ``progress(advance, path)`` is called
    once per file. Raises FileNotFoundError (before writing anything) for a missing path.
    """
    started = time.perf_counter()
    found = list(walk(paths))
    summary = Summary(files=len([f for f in found if f.kind != MANIFEST]))
    if on_total:
        on_total(summary.files)
    tick = progress or (lambda n, p: None)
    versions = f"ingest={INGEST_VERSION};extract={extractor_version()}"

    for f in found:
        if f.kind == MANIFEST:
            problems = load_manifest(f.path).problems
            if problems:
                reason = f"{len(problems)} problem(s): " + "; ".join(problems)
                store.record_error(f.rel, reason)
                summary.errors += 1
                summary.outcomes.append(Outcome(f.rel, "error", reason))
    jobs: list[_Job] = []
    for f in found:
        if f.kind == UNSUPPORTED:
            summary.add(Outcome(f.rel, "unsupported"))
            tick(1, f.rel)
            continue
        if f.kind != DOCUMENT:
            continue
        try:
            data = read_bytes(f.path)
        except IngestError as exc:
            _fail(store, summary, Outcome(f.rel, "error", str(exc)))
            tick(1, f.rel)
            continue
        overrides, _ = overrides_for(f.path, f.root)
        doc_id = content_id(data)
        fp = fingerprint(doc_id, overrides.as_dict(), versions)
        if store.plan(doc_id, f.rel, fp, force=force).action == "skipped":
            summary.add(Outcome(f.rel, "skipped"))
            tick(1, f.rel)
            continue
        jobs.append(_Job(f, fp))

    for job, (result, reason, trace) in _run(jobs, workers, extract):
        rel = job.found.rel
        if result is None:
            _fail(store, summary, Outcome(rel, "error", reason, trace=trace))
        else:
            doc, claims = result
            doc.path = rel
            try:
                action = store.write(doc, claims, job.fingerprint, force=force)
            except Exception as exc:
                msg = " ".join(str(exc).split())
                _fail(store, summary, Outcome(rel, "error", f"not stored: {type(exc).__name__}: {msg}",
                                              trace=traceback.format_exc()))
            else:
                summary.add(Outcome(rel, action, n_claims=len(claims) if action != "skipped" else 0))
        tick(1, rel)
    summary.seconds = time.perf_counter() - started
    return summary


def _fail(store: Store, summary: Summary, outcome: Outcome) -> None:
    store.record_error(outcome.path, outcome.reason)
    summary.add(outcome)


def _run(jobs: list[_Job], workers: int, extract: Extractor | None) -> Iterator[tuple[_Job, tuple]]:
    """Results in job order; in this process when workers <= 1, else in a process pool."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield job, _safe_process(job.found.path, job.found.root, extract)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: list[Future] = [pool.submit(_safe_process, j.found.path, j.found.root, extract)
                                 for j in jobs]
        for job, fut in zip(jobs, futures):
            yield job, fut.result()
