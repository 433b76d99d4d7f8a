"""`claims report` on a large warehouse: wall time, CPU, peak RSS and the largest page.

    python benchmarks/bench_report.py [--docs 1060] [--work /tmp/claims-bench-report]
                                      [--shared ../shared] [--workers N] [--keep]

Builds the warehouse the way benchmarks/bench_all.py builds its ingest corpus
(gen_corpus.py: every Markdown file of shared/corpus/real again and again with its numbers
and names varied; 1,060 documents is the real corpus 20 times), ingests it once with
`claims ingest --workers 2` (kept in WORK and reused, after `claims migrate`), then
runs `claims report` on it as a user would (the CLI in a subprocess) and prints:

* wall time and CPU seconds (this process's children: the CLI and its check workers);
* peak RSS of the largest process;
* the number of pages written, the largest page and its size, and the total size;
* the main phases again in this process, wall and CPU seconds each (loading the record;
  gathering, with the check of every figure outside primary documents; drawing the
  graph of every cluster).

The verdicts on figures outside primary documents are kept per warehouse state
(pipeline/judged.py): the first run starts with an empty verdict folder (cold: every
figure is checked), a second run on the same warehouse reads them (warm), and both are
printed. The phases run cold.

On a machine other work shares, wall time is what is left over for the report; the CPU
seconds say what the report itself costs.

Figures depend on the machine's other load: the load average is printed with them.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_all import claims_cmd, load, machine  # noqa: E402
from gen_corpus import generate  # noqa: E402


def build(work: Path, shared: Path, docs: int) -> Path:
    """The warehouse of ``docs`` generated documents (reused when already built)."""
    db = work / f"w{docs}.duckdb"
    if db.is_file():      # built by an earlier version: upgraded in place, rows kept
        subprocess.run([*claims_cmd(), "migrate", "--db", str(db)], check=True,
                       capture_output=True)
        return db
    corpus = work / f"corpus{docs}"
    if not corpus.is_dir():
        n, size = generate(shared / "corpus" / "real", corpus, docs)
        print(f"generated {n} documents, {size / 1e6:.1f} MB", flush=True)
    subprocess.run([*claims_cmd(), "ingest", str(corpus), "--db", str(db), "--workers", "2",
                    "-q"], check=True)
    return db


def run_cli(db: Path, out: Path, workers: int | None, env: dict | None = None) -> dict:
    cmd = [*claims_cmd(), "report", "--db", str(db), "-o", str(out)]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"claims report failed:\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "maxrss_mb": after.ru_maxrss / 1024, "stdout": p.stdout}


def pages(out: Path) -> tuple[int, Path, int, int]:
    files = [out / "report.html", out / "report.md", *(out / "pages").iterdir()]
    sizes = [(f, f.stat().st_size) for f in files if f.is_file()]
    big = max(sizes, key=lambda t: t[1])
    return len(sizes), big[0], big[1], sum(s for _, s in sizes)


def _cpu() -> float:
    """CPU seconds of this process and its reaped children (the check workers)."""
    own = time.process_time()
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + ch.ru_utime + ch.ru_stime


def phases(db: Path, workers: int) -> list[tuple[str, float, float]]:
    """The same report in this process, phase by phase: (phase, wall s, CPU s)."""
    from pipeline.report import html
    from pipeline.report.gather import gather
    from pipeline.record import open_record
    from pipeline.report.story_svg import story_svg

    out = []

    def timed(name, fn):
        w, c = time.perf_counter(), _cpu()
        res = fn()
        out.append((name, time.perf_counter() - w, _cpu() - c))
        return res

    rec = timed("load the record", lambda: open_record(str(db)))
    data = timed(f"gather, checks in {workers} processes", lambda: gather(rec, workers=workers))
    n = sum(data.verdict_counts.values())
    out[-1] = (out[-1][0] + f" ({n} figures checked)", *out[-1][1:])

    def draw():
        for g in data.groups:
            for cv in g.clusters:
                html.cluster_article(cv, None, story_svg(rec, cv.id,
                                                         [f.claim.id for f in cv.figs]).svg)
    timed(f"draw {len(data.clusters)} cluster graphs", draw)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=1060)
    ap.add_argument("--work", type=Path, default=Path("/tmp/claims-bench-report"))
    ap.add_argument("--shared", type=Path, default=HERE.parents[1] / "shared")
    ap.add_argument("--workers", type=int, default=None,
                    help="passed to `claims report --workers` (default: its own)")
    ap.add_argument("--no-phases", action="store_true", help="only the CLI run")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    print(machine())
    db = build(args.work, args.shared, args.docs)
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    n_docs, n_claims, n_links = (con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                                 for t in ("documents", "claims", "links"))
    con.close()
    print(f"warehouse: {n_docs:,} documents, {n_claims:,} claims, {n_links:,} links ({db})")
    out = args.work / "report"
    import shutil
    import tempfile

    cache = tempfile.mkdtemp(prefix="verdicts-", dir=args.work)
    env = {**os.environ, "CLAIMS_CACHE_DIR": cache}
    for state in ("cold: no verdicts kept", "warm: the same warehouse again"):
        print(f"claims report, {state} ({load()})", flush=True)
        r = run_cli(db, out, args.workers, env)
        n, big, size, total = pages(out)
        print(f"  wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s, peak RSS {r['maxrss_mb']:,.0f} MB")
        print(f"  {n:,} files, {total / 1e6:.1f} MB in all; largest {big.name} "
              f"{size / 1e6:.2f} MB; report.html "
              f"{(out / 'report.html').stat().st_size / 1e6:.2f} MB")
        print(f"  target <= 10 s and no page over 5 MB: time "
              f"{'met' if r['wall'] <= 10 else 'NOT met'}, pages "
              f"{'met' if size <= 5e6 else 'NOT met'}")
    shutil.rmtree(cache, ignore_errors=True)
    if not args.no_phases:
        os.environ["CLAIMS_CACHE_DIR"] = "off"      # the phases: every figure checked
        workers = args.workers or len(os.sched_getaffinity(0))
        print(f"phases in one process, {workers} check workers ({load()})", flush=True)
        for name, wall, cpu in phases(db, workers):
            print(f"  {name}: wall {wall:.2f} s, CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()
