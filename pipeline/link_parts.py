"""A full link in bounded memory: the record linked partition by partition from DuckDB.

``claims link`` (``link_flow._link_full``) holds every claim in Python: 1M claims take ~3 GB.
Here DuckDB does the grouping and Python holds one partition at a time, so the peak is set
by the largest partition (``max_claims`` claims, or one subject larger than that), not by
the warehouse. What each partition computes, and why no link crosses two of them, is in
``pipeline/link/partition.py``. The passes:

1. misattribution: groups of credited sources with every document they resolve to;
2. documents, in id order: roles (from the text, as ``_link_full`` infers them), quantity
   keys, derived checks, and the findings of claims without a subject;
3. subjects, from the keys pass 2 wrote: pair links, clusters, findings.

Each partition's result is committed on its own: in one transaction DuckDB held every
rewritten claim row until the commit, a peak that grew with the record. A ``full`` row in
``link_pending``, written with the first commit and cleared with the last, makes a link
that stopped half way be redone whole by the next link.

Same links, clusters, findings, keys and roles as ``_link_full`` (tests/test_link_partition.py).

With ``ray`` the partitions of each pass are Ray tasks running the same functions
(``partition.misattributions``, ``documents_partition``, ``subjects_partition``): this
process reads each partition from DuckDB, hands it over, and writes the results back in
the order it handed them over, with a few partitions out at a time. A task whose worker
dies is run again by Ray (``ray_ingest.TASK_RETRIES`` times; an exception is not
retried: the functions are deterministic, it would be raised again); one that still
fails, or raises, fails the link, which leaves the ``full`` row: the next link redoes it
(tests/test_link_ray.py).
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pipeline.store import LinkScope, Store, _rollback

# claims Python holds per partition (a larger subject is whole): ~1 GB of records at most,
# and few enough partitions that DuckDB's scans for them stay a small part of the time
DEFAULT_MAX_CLAIMS = 250_000


def _batches(weights: Iterable[tuple[str, int]], limit: int) -> Iterator[list[str]]:
    """Names in order, cut into runs whose weights add up to at most ``limit`` (a single
    heavier name is a run of its own)."""
    run: list[str] = []
    total = 0
    for name, w in weights:
        if run and total + w > limit:
            yield run
            run, total = [], 0
        run.append(name)
        total += w
    if run:
        yield run


class _Here:
    """Runs each partition in this process, as it is handed over."""

    def share(self, obj: Any) -> Any:
        return obj

    def submit(self, fn: Callable, args: tuple, write: Callable[[Any], None]) -> None:
        write(fn(*args))

    def drain(self) -> None:
        pass

    def close(self) -> None:
        pass


def _call(fn: Callable, *args: Any) -> Any:
    """The Ray task: one partition function on its arguments."""
    return fn(*args)


class _OnRay:
    """Runs each partition as a Ray task; this process (the only one that opens the
    database) writes the results, in the order the partitions were handed over. At most
    one more partition than the cluster has CPUs is out at a time, so this process and
    Ray's object store hold a few partitions, never the record."""

    def __init__(self, address: str | None):
        from pipeline.ray_cluster import TASK_RETRIES, connect

        self.connected = connect(address)    # RayUnavailable (a message) without Ray
        import ray
        self.ray = ray
        self.task = ray.remote(max_retries=TASK_RETRIES)(_call)
        self.in_flight = max(2, int(ray.cluster_resources().get("CPU", 1)) + 1)
        self.out: deque = deque()

    def share(self, obj: Any) -> Any:
        """An object every task reads (the source index, the misattributed ids): stored
        once in the object store, not sent with each task."""
        return self.ray.put(obj)

    def submit(self, fn: Callable, args: tuple, write: Callable[[Any], None]) -> None:
        self.out.append((self.task.remote(fn, *args), write))
        while len(self.out) > self.in_flight:
            self._take()

    def _take(self) -> None:
        ref, write = self.out.popleft()
        write(self.ray.get(ref))

    def drain(self) -> None:
        while self.out:
            self._take()

    def close(self) -> None:
        self.out.clear()
        if self.connected:
            self.ray.shutdown()


def _committed(con, work: Callable[[], None]) -> None:
    """``work`` in a transaction of its own."""
    con.begin()
    try:
        work()
        con.commit()
    except BaseException:
        _rollback(con)
        raise


def link_partitioned(store: Store, max_claims: int | None = None, ray: str | None = None):
    """Relink the whole record partition by partition -> ``link_state.LinkReport`` ("full");
    ``max_claims`` (default ``DEFAULT_MAX_CLAIMS``) is the size of a partition. ``ray``:
    link the partitions as Ray tasks on the Ray at that address (``ray_ingest.connect``:
    ``local`` starts one with this machine's cores; a process already connected uses its
    own); None links them here."""
    runner = _OnRay(ray) if ray is not None else _Here()
    try:
        return _link(store, max_claims or DEFAULT_MAX_CLAIMS, runner)
    finally:
        runner.close()


def _link(store: Store, max_claims: int, runner: _Here | _OnRay):
    from pipeline.link import _sources
    from pipeline.link.partition import (FIGURE_COLUMNS, document_part, documents_partition,
                                         misattributions, subjects_partition)
    from pipeline.link.roles import resolve_role
    from pipeline.link_state import LinkReport, _by_doc, _doc_metas, _infer_roles, claim_keys

    started = time.perf_counter()
    metas, _, stored = _doc_metas(store)
    sources = _sources(metas)
    shared_sources = runner.share(sources)
    counts = dict(store.query("SELECT doc_id, count(*) FROM claims GROUP BY doc_id")[1])
    n_claims = sum(counts.values())
    roles: dict[str, tuple[str, str]] = {}
    changed: dict[str, str] = {}
    con = store.con

    def write(part) -> None:
        _committed(con, lambda: store.append_links(part.links, part.clusters, part.findings))

    # 1. misattribution: each claim crediting a source, with every credited document
    credited = []
    for by, n in store.query("SELECT asserted_by, count(*) FROM claims WHERE asserted_by"
                             " IS NOT NULL GROUP BY 1 ORDER BY 1")[1]:
        docs = sources.resolve(by, strict=True)
        if docs:
            credited.append((by, n + sum(counts.get(d, 0) for d in docs)))
    mis: set[str] = set()
    for bys in _batches(credited, max_claims):
        docs = {d for by in bys for d in sources.resolve(by, strict=True)}
        claims = list(store.iter_claims(docs=docs, asserted_by=bys, columns=FIGURE_COLUMNS))
        runner.submit(misattributions, (claims, shared_sources, set(bys)), mis.update)
        del claims
    runner.drain()
    shared_mis = runner.share(mis)

    # from here each partition is committed on its own (DuckDB would otherwise hold every
    # rewritten claim row of the record until one last commit); the 'full' row makes a
    # link that stops half way (killed, a failed partition) be redone whole by the next
    # `claims link` or `claims ingest`; the last step below clears it
    def start() -> None:
        con.execute("INSERT INTO link_pending (change) VALUES ('full')")
        con.execute("DELETE FROM links")
        con.execute("DELETE FROM clusters")
        con.execute("DELETE FROM claim_keys")

    _committed(con, start)
    # 2. whole documents: roles, keys, derived checks, findings of claims without subject
    for chunk in _batches(((d, counts.get(d, 0)) for d in sorted(metas)), max_claims):
        claims = list(store.iter_claims(docs=chunk))
        by_doc = _by_doc(claims)
        inferred = _infer_roles(store, metas, chunk, by_doc)
        for d in chunk:
            roles[d] = inferred.get(d) or resolve_role(metas[d], by_doc.get(d, ()))
        changed.update({d: r[0] for d, r in inferred.items() if stored[d] != r})
        keys = [(cid, c.doc_id, k, s) for c, (cid, k, s) in zip(claims, claim_keys(claims))]
        _committed(con, lambda k=keys: store.append_keys(k))
        part, subjects = document_part(claims, [k[3] for k in keys])
        del claims, by_doc, keys
        runner.submit(documents_partition,
                      (part, subjects, {d: metas[d] for d in chunk},
                       {d: roles[d] for d in chunk}, shared_sources, shared_mis), write)
        del part, subjects
    runner.drain()

    # 3. subjects: pair links, clusters, findings
    subjects = store.query("SELECT subject, count(*) FROM claim_keys WHERE subject IS NOT"
                           " NULL GROUP BY 1 ORDER BY 1")[1]
    for on in _batches(subjects, max_claims):
        derived = store.derived_links(on)
        operands = {x for ln in derived for x in (ln.dst, ln.other) if x}
        claims = list(store.iter_claims(
            docs=(), subjects=on, ids=operands,
            siblings=(store.documents_on(on), "token_throughput", "per_user")))
        docs = {c.doc_id for c in claims}
        runner.submit(subjects_partition,
                      (claims, {d: metas[d] for d in docs}, {d: roles[d] for d in docs},
                       shared_sources, set(on), derived, shared_mis), write)
        del claims
    runner.drain()
    # roles, and the end of what was pending ('full' included): as a full link leaves them
    store.save_links([], [], None, changed, scope=LinkScope())
    return LinkReport("full", claims=n_claims,
                      inferred=sorted((metas[d].path, r) for d, r in changed.items()),
                      seconds=time.perf_counter() - started)
