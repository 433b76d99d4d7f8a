"""`claims ingest --ray`: the per-file work of an ingest mapped over a Ray cluster.

The flow is the one of ``run.ingest_paths`` with Ray Data in place of the worker processes:

1. this process walks the paths and plans every file against the database exactly as the
   ``--workers`` flow does (``run._Ingest.jobs``: content hash, unchanged files skipped
   before parsing, the same bytes from two sources parsed once);
2. Ray maps the worker's own function (``run._work``: parse, extract, infer the role,
   quantity keys) over the files to parse: ``ray.data.from_items(jobs)`` ->
   ``flat_map(file_rows)`` -> ``write_parquet`` of shards holding the rows of the
   ``documents``, ``pages``, ``claims`` and ``errors`` of those files (one Parquet dataset
   partitioned by ``table=``, one JSON payload a row). A file that fails is an error row;
   a task whose worker died is retried by Ray (``TASK_RETRIES``), and a task that still
   fails leaves its files without rows, which are then recorded as errors, never a failed
   job (tests/test_ray_ingest.py kills workers);
3. DuckDB reads the shard folder (``read_parquet``) and this process writes each file
   through ``run._Ingest``, i.e. ``Store.write_many``: the same content-hash identity,
   replacement and idempotent re-ingest as ``--workers``; then ``claims ingest`` links.

So ``--ray`` and ``--workers`` give the same database (tests/test_ray_ingest.py). The files
(and the shard folder) must be at the same path on every Ray node: a shared file system.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from pipeline.model import Document, Page
from pipeline.run import Outcome, Summary, _Ingest, _Job, _work
from pipeline.ray_cluster import LOCAL, TASK_RETRIES, RayUnavailable, connect  # noqa: F401
from pipeline.store import Store, Stored

TABLES = ("documents", "pages", "claims", "errors")
FILES_PER_TASK = 8


def file_rows(item: dict[str, Any]) -> list[dict[str, Any]]:
    """One file -> its shard rows: (table, file, seq, data) with ``data`` a JSON payload.

    Runs on a Ray worker: the same ``run._work`` the worker processes run, so a file that
    fails (a bad file, or a bug) is an ``errors`` row, not a failed task.
    """
    n = item["file"]
    stored, reason, trace = _work(Path(item["path"]), Path(item["root"]), item["rel"],
                                  item["fp"], None)
    if stored is None:
        return [_row("errors", n, 0, {"reason": reason, "trace": trace})]
    doc = dataclasses.replace(stored.doc, tables=None, pages=[])
    head = dataclasses.asdict(doc)
    head["duplicate"] = stored.duplicate
    rows = [_row("documents", n, 0, head)]
    rows += [_row("pages", n, i, [p.number, p.start, p.end])
             for i, p in enumerate(stored.doc.pages)]
    keys = stored.keys or [None] * len(stored.claims)
    rows += [_row("claims", n, i, [list(c), list(k) if k else None])
             for i, (c, k) in enumerate(zip(stored.claims, keys))]
    return rows


def _row(table: str, file: int, seq: int, data: Any) -> dict[str, Any]:
    return {"table": table, "file": file, "seq": seq,
            "data": json.dumps(data, ensure_ascii=False, default=str)}


def _map(jobs: list[_Job], shards: Path) -> None:
    """Run ``file_rows`` over the jobs on Ray and write the shard dataset to ``shards``."""
    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.max_errored_blocks = -1      # a task failed past its retries: its files become errors
    items = [{"file": i, "path": str(j.found.path), "root": str(j.found.root),
              "rel": j.found.rel, "fp": j.fingerprint} for i, j in enumerate(jobs)]
    # a few files a task: a slow file holds up few others, a dead worker costs few retries
    blocks = max(1, -(-len(items) // FILES_PER_TASK))
    ds = ray.data.from_items(items, override_num_blocks=blocks)
    # Ray Data would retry a task whose worker died forever (max_retries=-1): a file that
    # kills its worker every time would hold the run; after TASK_RETRIES its files are errors
    # (set per task: ``max_retries`` as a keyword is deprecated in Ray Data)
    retries = {"max_retries": TASK_RETRIES}
    ds.flat_map(file_rows, ray_remote_args_fn=lambda: retries).write_parquet(
        str(shards), partition_cols=["table"])


def read_shards(shards: Path, n_files: int) -> Iterator[tuple[int, Stored | None, str, str]]:
    """(file number, Stored or None, reason, traceback) of every file, in file order, read
    from the shard folder with DuckDB; a file without rows failed on the cluster."""
    from pipeline import dbguard

    con = dbguard.scratch()
    try:
        cursors = {t: _table_rows(con, shards, t) for t in TABLES}
        heads = {t: next(cursors[t], None) for t in TABLES}

        def take(table: str, n: int) -> list:
            out, seen = [], set()
            while heads[table] is not None and heads[table][0] == n:
                _, seq, data = heads[table]
                if seq not in seen:     # a retried task's rows twice: its shard was kept
                    seen.add(seq)
                    out.append(data)
                heads[table] = next(cursors[table], None)
            return out

        for n in range(n_files):
            docs, pages, claims, errors = (take(t, n) for t in TABLES)
            if errors:
                e = json.loads(errors[0])
                yield n, None, e["reason"], e["trace"]
            elif docs:
                yield n, _stored(json.loads(docs[0]), pages, claims), "", ""
            else:
                yield n, None, ("no result from the Ray cluster (its task failed after Ray's "
                                "retries: a worker or node died)"), ""
    finally:
        con.close()


def _table_rows(con, shards: Path, table: str) -> Iterator[tuple[int, int, str]]:
    """(file, seq, data) rows of one table in (file, seq) order, fetched in batches."""
    folder = shards / f"table={table}"
    if not any(folder.glob("*.parquet")):
        return
    cur = con.cursor()
    cur.execute("SELECT file, seq, data FROM read_parquet(?) ORDER BY file, seq",
                [str(folder / "*.parquet")])
    while rows := cur.fetchmany(10_000):
        yield from rows


def _stored(head: dict[str, Any], pages: list[str], claims: list[str]) -> Stored:
    """A worker's ``Stored`` again, from its shard rows."""
    duplicate = head.pop("duplicate")
    doc = Document(**head)
    doc.pages = [Page(*json.loads(p)) for p in pages]
    rows, keys = [], []
    for c in claims:
        row, key = json.loads(c)
        rows.append(tuple(row))
        keys.append(tuple(key) if key else None)
    return Stored(doc, "", rows, keys if all(keys) and keys else None, duplicate)


def ingest_ray(paths: Iterable[Path], store: Store, *, address: str | None = None,
               force: bool = False, follow_links: bool = False, shards: Path | None = None,
               progress: Callable[[int, str], None] | None = None,
               on_total: Callable[[int], None] | None = None) -> Summary:
    """Ingest every document under ``paths`` with the parsing on Ray; the
    ``ingest_paths`` contract otherwise (never stops on a bad file, one Summary).

    ``shards``: the folder the workers write to (default: a temporary folder beside the
    database, removed afterwards; a given folder is left in place, its shards replaced).
    """
    from pipeline.ingest.walk import MANIFEST, walk

    started = time.perf_counter()
    paths = list(paths)
    summary = Summary()
    if on_total:
        on_total(sum(1 for f in walk(paths, follow_links) if f.kind != MANIFEST))
    if shards is not None and shards.exists():
        if not shards.is_dir() or any(not p.name.startswith("table=") for p in shards.iterdir()):
            raise RayUnavailable(f"--ray-shards {shards}: holds files that are not shards of an "
                                 "earlier run; give a new or empty folder")
    run = _Ingest(store, summary, force, progress or (lambda n, p: None))
    jobs = list(run.jobs(walk(paths, follow_links)))
    connected = False
    own = shards is None
    folder = Path(tempfile.mkdtemp(prefix="claims-shards-", dir=_beside(store))) if own else shards
    try:
        if jobs:
            connected = connect(address)
            if not own and folder.exists():
                shutil.rmtree(folder)      # an earlier run's shards (checked above)
            try:
                _map(jobs, folder)
            except Exception as exc:
                raise RayUnavailable(f"the Ray job failed, nothing was stored: "
                                     f"{type(exc).__name__}: {' '.join(str(exc).split())[:500]}"
                                     ) from exc
        for n, stored, reason, trace in read_shards(folder, len(jobs)):
            job = jobs[n]
            if stored is None:
                run.fail(Outcome(job.found.rel, "error", reason, trace=trace), job.doc_id)
            else:
                stored.fingerprint = job.fingerprint
                stored.source = job.source
                run.add(stored)
        run.flush()
        run.close()
    finally:
        run.abandon()
        if own:
            shutil.rmtree(folder, ignore_errors=True)
        if connected:
            import ray

            ray.shutdown()
    summary.seconds = time.perf_counter() - started
    return summary


def _beside(store: Store) -> str | None:
    """The database's folder (shards then stay on its disk), or the system's temp folder."""
    folder = Path(store.path).parent
    return str(folder) if str(store.path) != ":memory:" and folder.is_dir() else None
