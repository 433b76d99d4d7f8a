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
import json
import time
import traceback
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator

from pipeline.ingest import IngestError, content_id, ingest_file, read_bytes
from pipeline.ingest.manifest import load as load_manifest, overrides_for
from pipeline.ingest.walk import DOCUMENT, MANIFEST, UNSUPPORTED, Found, walk
from pipeline.model import Claim, Document
from pipeline.store import LinkScope, LinkTotals, Pending, Store

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
                action = store.write(doc, claims, job.fingerprint, force=force,
                                     keys=claim_keys(claims))
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


# --- link: after an ingest (incremental) or the whole record (`claims link`) -------------

ROLE_SOURCES_FIXED = ("manifest", "metadata")


def claim_keys(claims: Iterable[Claim]) -> list[tuple[str, str, str | None]]:
    """(claim id, quantity key, subject) of each claim, for the ``claim_keys`` table."""
    from pipeline.link.keys import quantity_key, subject_of_key

    out = []
    for c in claims:
        k = quantity_key(c)
        out.append((c.id, k, subject_of_key(k)))
    return out


@dataclass
class LinkReport:
    """What a link run did, for the lines `claims ingest` and `claims link` print."""

    mode: str                                    # full | incremental
    claims: int = 0                              # claims held while linking
    subjects: int = 0                            # subjects relinked (incremental)
    inferred: list[tuple[str, str]] = field(default_factory=list)   # (path, role) to show
    totals: LinkTotals = field(default_factory=LinkTotals)
    seconds: float = 0.0

    def line(self) -> str:
        t = self.totals
        rel = ", ".join(f"{t.relations.get(r, 0):,} {r}" for r in RELATIONS)
        fin = ", ".join(f"{t.findings.get(f, 0):,} {f}" for f in FINDING_NAMES)
        how = (f"full, {self.claims:,} claims" if self.mode == "full" else
               f"{self.subjects:,} subject{'s' if self.subjects != 1 else ''}, "
               f"{self.claims:,} claims held")
        return (f"linked ({how}) in {self.seconds:.1f} s: {sum(t.relations.values()):,} links "
                f"({rel}); findings: {fin}; {t.clusters:,} clusters")


RELATIONS = ("supports", "restates", "conflicts", "mismatch", "derives")
FINDING_NAMES = ("unsourced", "ambiguous", "misattributed")


def role_hint(path: str, role: str) -> str:
    """One line telling the user a role was guessed and how to override it."""
    other = {"primary": "secondary", "secondary": "primary"}.get(role, "primary|secondary")
    return f"inferred role: {role:<9} {path}  (override: sources.csv row \"{path},{other}\")"


def link_store(store: Store, full: bool = False) -> LinkReport | None:
    """Link what changed since the last link, or everything with ``full``.

    Returns None when nothing is pending (every file was skipped): nothing is relinked.
    Falls back to a full link when the database holds claims without stored keys (it was
    written before linking existed) or removed claims had none.
    """
    started = time.perf_counter()
    pending = store.pending()
    if not full and pending.empty:
        return None
    report = None
    if not (full or pending.full or store.needs_full_link()):
        report = _link_incremental(store, pending)
    if report is None:
        report = _link_full(store)
    report.totals = store.link_totals()
    report.seconds = time.perf_counter() - started
    return report


def _doc_metas(store: Store):
    """DocMeta of every document (no text) and the roles earlier links inferred.

    A manifest or metadata role is passed as given; any other role is left for the link
    stage, with a previously inferred one handed over as known so it is not re-inferred
    from partial claims.
    """
    from pipeline.link import DocMeta

    metas: dict[str, DocMeta] = {}
    known: dict[str, tuple[str, str]] = {}
    stored: dict[str, tuple[str, str | None]] = {}
    for r in store.document_rows():
        fixed = r["role_source"] in ROLE_SOURCES_FIXED
        metas[r["id"]] = DocMeta(
            id=r["id"], path=r["path"], role=r["role"] if fixed else "unknown",
            role_source=r["role_source"] if fixed else None, published=r["published"],
            publisher=r["publisher"], title=r["title"], author=r["author"], url=r["url"])
        stored[r["id"]] = (r["role"], r["role_source"])
        if r["role_source"] == "inferred":
            known[r["id"]] = (r["role"], "inferred")
    return metas, known, stored


def _infer_roles(store: Store, metas: dict, doc_ids: Iterable[str],
                 by_doc: dict[str, list[Claim]]) -> dict[str, tuple[str, str]]:
    """Roles of documents without a manifest/metadata role, one text in memory at a time."""
    from pipeline.link.roles import resolve_role

    out = {}
    for d, text in store.iter_texts(d for d in doc_ids if metas[d].role_source is None):
        out[d] = resolve_role(replace(metas[d], text=text), by_doc.get(d, ()))
    return out


def _by_doc(claims: list[Claim]) -> dict[str, list[Claim]]:
    out: dict[str, list[Claim]] = {}
    for c in claims:
        out.setdefault(c.doc_id, []).append(c)
    return out


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

    inferred = _infer_roles(store, metas, added, _by_doc(new_claims))
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
