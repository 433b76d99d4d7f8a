"""Linking a large warehouse partition by partition: time and peak RSS (issue 16, part 2).

    python benchmarks/bench_scale.py --claims 1000000            # build, then link in parts
    python benchmarks/bench_scale.py --claims 1000000 --one-pass # the one-pass full link instead
    python benchmarks/bench_scale.py --claims 10000000 --db /tmp/scale10m.duckdb
    python benchmarks/bench_scale.py --claims 1000000 --ray   # partitions as tasks on a local Ray

The warehouse is built by streaming ``bench_link.synthetic_claims`` chunks of 100,000
claims (documents of 40, about 100 claims per model) into ``Store.write_many``; each chunk
gets its own document, claim, model and publisher names, so 10M claims are 100 chunks with
the same statistics as 1M (10 chunks), and the builder never holds more than one chunk.
The build is skipped when ``--db`` already holds that many claims. The link then runs in a
child process of its own (``link_store(full=True, partitioned=True)``, or the one-pass
``link_store(full=True)`` with ``--one-pass``), so its peak RSS (``ru_maxrss``: DuckDB's
buffers included) is the link's alone (with ``--ray``: the driver's, Ray's workers not
counted). Prints one line of figures.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

CHUNK = 100_000


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


def _link(db: str, one_pass: bool, max_claims: int = 0, ray: bool = False) -> None:
    """In the child: link, then print the figures as JSON."""
    import pipeline.link_parts
    from pipeline.run import link_store
    from pipeline.store import Store

    if max_claims:
        pipeline.link_parts.DEFAULT_MAX_CLAIMS = max_claims
    t0, c0 = time.perf_counter(), time.process_time()
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
    ap.add_argument("--link-only", help=argparse.SUPPRESS)   # the child's entry
    args = ap.parse_args()
    if args.link_only:
        _link(args.link_only, args.one_pass, args.max_claims, args.ray)
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
            store_synthetic(store, args.claims)
        print(f"built {db}: {args.claims:,} claims in {time.perf_counter() - t0:.0f} s", flush=True)
    cmd = [sys.executable, __file__, "--link-only", str(db), "--max-claims", str(args.max_claims)]
    cmd += ["--one-pass"] if args.one_pass else []
    cmd += ["--ray"] if args.ray else []
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    how = "one pass" if args.one_pass else f"partitioned, {r['max_claims']:,} claims a partition"
    how += ", on Ray" if args.ray else ""
    print(f"{r['claims']:>11,} claims, link ({how}): {r['seconds']:.1f} s "
          f"({r['cpu_seconds']:.1f} s CPU), peak RSS {r['peak_rss_mb']:,} MB, "
          f"{sum(r['links'].values()):,} links {r['links']}, {r['clusters']:,} clusters")


if __name__ == "__main__":
    main()
