"""Linking a large warehouse partition by partition: time and peak RSS (issue 16, part 2).

    python benchmarks/bench_scale.py --claims 1000000            # build, then link in parts
    python benchmarks/bench_scale.py --claims 1000000 --one-pass # the one-pass full link instead
    python benchmarks/bench_scale.py --claims 10000000 --db /tmp/scale10m.duckdb
    python benchmarks/bench_scale.py --claims 1000000 --ray   # partitions as tasks on a local Ray

The warehouse is built by DuckDB SQL (``gen_claims_sql.py``: 10M claims in minutes; many
small subjects and a few large ones, the largest ~1% of the record), or with
``--generator python`` by streaming ``bench_link.synthetic_claims`` chunks of 100,000
claims (documents of 40, about 100 claims per model, every subject small) into
``Store.write_many``, each chunk with its own document, claim, model and publisher names.
The build is skipped when ``--db`` already holds that many claims (whichever generator
made it). The link then runs in a child process of its own (``link_store(full=True,
partitioned=True)``, or the one-pass ``link_store(full=True)`` with ``--one-pass``).
Printed: its wall and CPU time (the child's threads, DuckDB's included), its own peak RSS
(``ru_maxrss``: DuckDB's buffers included) and the peak of the summed RSS of its whole
process tree (sampled from /proc every 0.2 s: with ``--ray``, Ray's workers too).
``--trace`` prints, at each partition's commit, the time, CPU and RSS so far.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

CHUNK = 100_000
SAMPLE_SECONDS = 0.2


def synthetic_chunks(n: int, chunk: int = CHUNK):
    """(claims, metas) of ``n`` synthetic claims, ``chunk`` at a time, names made unique
    per chunk (``bench_link.synthetic_claims`` with seed = chunk number)."""
    from dataclasses import replace

    from bench_link import synthetic_claims

    for k, start in enumerate(range(0, n, chunk)):
        claims, metas = synthetic_claims(min(chunk, n - start), seed=k)
        tag = f"k{k}"
        metas = {f"{tag}{d}": replace(m, id=f"{tag}{d}", path=f"{tag}/{m.path}",
                                      publisher=f"{tag}{m.publisher}")
                 for d, m in metas.items()}
        for c in claims:
            c.id, c.doc_id = f"{tag}{c.id}", f"{tag}{c.doc_id}"
            c.model = f"{tag}{c.model}"
            if c.asserted_by:
                c.asserted_by = f"{tag}{c.asserted_by}"
        yield claims, metas


def store_synthetic(store, n: int, chunk: int = CHUNK) -> None:
    """Write ``n`` synthetic claims into ``store`` (not linked), one chunk at a time."""
    from pipeline.model import Document
    from pipeline.link_flow import claim_keys
    from pipeline.store import Stored

    for claims, metas in synthetic_chunks(n, chunk):
        by_doc: dict[str, list] = {}
        for c in claims:
            by_doc.setdefault(c.doc_id, []).append(c)
        batch = []
        for did, meta in metas.items():
            own = by_doc.get(did, [])
            text = "\n".join(c.sentence or c.surface for c in own) or (meta.title or "")
            doc = Document(id=did, path=meta.path, format="markdown", text=text,
                           title=meta.title, publisher=meta.publisher, published=meta.published,
                           role=meta.role, role_source=meta.role_source)
            batch.append(Stored.of(doc, own, did, claim_keys(own)))
        store.write_many(batch)


def _rss_mb(pid: int) -> float:
    """Resident set of one process in MB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


class TreePeak(threading.Thread):
    """Samples the summed RSS of a process and its descendants; ``peak`` in MB."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self.stop.wait(SAMPLE_SECONDS):
            self.peak = max(self.peak, sum(_rss_mb(p) for p in _tree(self.pid)))


def _traced(t0: float, c0: float) -> None:
    """Print time, CPU, RSS (now and peak) and what DuckDB holds (``duckdb_memory()``:
    its buffers, cached blocks included) at every partition's commit (stderr)."""
    import pipeline.link_parts as lp

    committed, n = lp._committed, [0]

    def traced(con, work):
        committed(con, work)
        n[0] += 1
        duck = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchall()[0][0]
        print(f"commit {n[0]:>3}: {time.perf_counter() - t0:7.1f} s, "
              f"{time.process_time() - c0:7.1f} s CPU, RSS {_rss_mb(os.getpid()):6.0f} MB, "
              f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:6.0f} MB, "
              f"DuckDB {(duck or 0) / 2**20:6.0f} MB", file=sys.stderr, flush=True)

    lp._committed = traced


def _link(db: str, one_pass: bool, max_claims: int = 0, ray: bool = False,
          trace: bool = False) -> None:
    """In the child: link, then print the figures as JSON."""
    import pipeline.link_parts
    from pipeline.run import link_store
    from pipeline.store import Store

    if max_claims:
        pipeline.link_parts.DEFAULT_MAX_CLAIMS = max_claims
    t0, c0 = time.perf_counter(), time.process_time()
    if trace:
        _traced(t0, c0)
    with Store.open(db) as store:
        report = link_store(store, full=True, partitioned=not one_pass,
                            ray="local" if ray else None)
    print(json.dumps({
        "seconds": round(time.perf_counter() - t0, 1),
        "cpu_seconds": round(time.process_time() - c0, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "claims": report.claims, "links": report.totals.relations,
        "max_claims": pipeline.link_parts.DEFAULT_MAX_CLAIMS,
        "clusters": report.totals.clusters}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--claims", type=int, default=1_000_000, help="claims in the warehouse")
    ap.add_argument("--db", help="warehouse file (default /tmp/claims-scale-N.duckdb)")
    ap.add_argument("--one-pass", action="store_true", help="the one-pass full link instead")
    ap.add_argument("--max-claims", type=int, default=0,
                    help="claims a partition (default: link_parts.DEFAULT_MAX_CLAIMS)")
    ap.add_argument("--ray", action="store_true",
                    help="link the partitions as tasks on a local Ray (claims link --ray)")
    ap.add_argument("--generator", choices=("sql", "python"), default="sql",
                    help="build with DuckDB SQL (gen_claims_sql.py, default) or from "
                         "bench_link's Python claims")
    ap.add_argument("--trace", action="store_true",
                    help="print time, CPU and RSS at each partition's commit")
    ap.add_argument("--link-only", help=argparse.SUPPRESS)   # the child's entry
    args = ap.parse_args()
    if args.link_only:
        _link(args.link_only, args.one_pass, args.max_claims, args.ray, args.trace)
        return
    from pipeline.store import Store

    db = Path(args.db or f"/tmp/claims-scale-{args.claims}.duckdb")
    have = 0
    if db.is_file():
        with Store.open(db) as store:
            have = store.query("SELECT count(*) FROM claims")[1][0][0]
    if have != args.claims:
        db.unlink(missing_ok=True)
        t0 = time.perf_counter()
        with Store.open(db) as store:
            if args.generator == "sql":
                from gen_claims_sql import write_claims
                write_claims(store, args.claims)
            else:
                store_synthetic(store, args.claims)
        print(f"built {db}: {args.claims:,} claims in {time.perf_counter() - t0:.0f} s "
              f"({args.generator})", flush=True)
    from gen_claims_sql import subject_sizes

    with Store.open(db, read_only=True) as store:
        n_models, top = subject_sizes(store, 3)
    print(f"{n_models:,} models; the largest: "
          + ", ".join(f"{m} {c:,} claims" for m, c in top), flush=True)
    print(f"load average before the link: {os.getloadavg()[0]:.2f}", flush=True)
    cmd = [sys.executable, __file__, "--link-only", str(db), "--max-claims", str(args.max_claims)]
    cmd += ["--one-pass"] if args.one_pass else []
    cmd += ["--ray"] if args.ray else []
    cmd += ["--trace"] if args.trace else []
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    sampler = TreePeak(child.pid)
    sampler.start()
    out, _ = child.communicate()
    sampler.stop.set()
    sampler.join()
    if child.returncode:
        sys.exit(f"the link failed (exit {child.returncode})")
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    tree_cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
    r = json.loads(out.strip().splitlines()[-1])
    how = "one pass" if args.one_pass else f"partitioned, {r['max_claims']:,} claims a partition"
    how += ", on Ray" if args.ray else ""
    print(f"{r['claims']:>11,} claims, link ({how}): {r['seconds']:.1f} s "
          f"({r['cpu_seconds']:.1f} s CPU; process tree {tree_cpu:.1f} s CPU), "
          f"peak RSS {r['peak_rss_mb']:,} MB (process tree {sampler.peak:,.0f} MB), "
          f"{sum(r['links'].values()):,} links {r['links']}, {r['clusters']:,} clusters; "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
