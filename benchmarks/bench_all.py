"""Every benchmark of issue 6 in one go, printed as one table (Markdown).

    pip install -e '.[bench]'          # quantulum3 with its classifier (scikit-learn 1.8)
    python benchmarks/bench_all.py [--shared ../shared] [--work /tmp/claims-bench]
                                   [--docs 10000] [--sizes 10000,100000,1000000]
                                   [--only extract,quantulum,ingest,link,warehouse]

1. extraction: MB/s of text per core on shared/corpus/real (bench_extract.py: stored text
   through ``extract_claims`` in one process, best of 3) and its F1 on shared/gold/dev.jsonl;
2. quantulum3 on the same text (one pass) and its F1 with the mapping in ``_q_family``;
3. end-to-end ingest (`claims ingest`, fresh database, files in -> claims committed) of a
   corpus of ``--docs`` Markdown files made by gen_corpus.py, with --workers 1 and 2, then
   the link that ingest runs;
4. the link stage at each of ``--sizes`` synthetic claims (bench_link.py, own process);
5. at 1M synthetic claims stored in DuckDB: `claims link` (full), each warehouse view
   (every row fetched as Arrow) and `claims check` (the CLI, wall time).

Results also go to WORK/results.json. Figures depend on the machine's other load: the
script prints the load average before each part.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CHECKS = [   # (sentence, what it exercises) for the 1M-claim database of bench_link claims
    ("Model-12 reached 5,000 tokens/s per GPU on 8 x H100", "throughput, model + hardware"),
    ("Model-3 answers with a P90 latency under 0.5 s", "latency, model"),
    ("Some system topped 20,000 tokens a second per user", "throughput, no subject"),
]


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import duckdb

    return (f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GB RAM, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, DuckDB {duckdb.__version__}")


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def claims_cmd() -> list[str]:
    script = Path(sys.executable).with_name("claims")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pipeline.cli"]


def run_measured(cmd: list[str], out: Path) -> dict:
    """Run ``cmd`` with stdout/stderr to files; wall time, CPU and peak RSS of the tree."""
    started = time.perf_counter()
    with open(out, "w") as fh, open(out.with_suffix(".err"), "w") as fe:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=fe)
        _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{cmd} failed: {out.with_suffix('.err').read_text()[-2000:]}")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "maxrss_mb": ru.ru_maxrss / 1024,
            "stdout": out.read_text()}


# --- 1 and 2: extraction and quantulum3 ---------------------------------------------------

def bench_extraction(shared: Path, repeat: int = 3) -> dict:
    from bench_extract import gold_f1, load_docs
    from pipeline.extract import extract_claims
    from pipeline.vocab.loader import load as load_vocab

    load_vocab()
    docs = load_docs(shared / "corpus" / "real")
    n_bytes = sum(len(d.text.encode("utf-8")) for d in docs)
    best, best_cpu, n_claims = float("inf"), float("inf"), 0
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        n_claims = sum(len(extract_claims(d)) for d in docs)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    f1 = gold_f1(shared)
    return {"documents": len(docs), "mb": n_bytes / 1e6, "claims": n_claims, "seconds": best,
            "mb_s": n_bytes / 1e6 / best, "cpu_s": best_cpu, "mb_cpu_s": n_bytes / 1e6 / best_cpu,
            **{k: f1[k] for k in ("f1", "recall", "precision")}}


_TIME = {"nanosecond": 1e-9, "microsecond": 1e-6, "millisecond": 1e-3, "second": 1.0,
         "minute": 60.0, "hour": 3600.0, "day": 86400.0}
_SIZE = {"bit": 1 / 8, "byte": 1.0, "kilobyte": 1e3, "megabyte": 1e6, "gigabyte": 1e9,
         "terabyte": 1e12, "kilobit": 1e3 / 8, "megabit": 1e6 / 8, "gigabit": 1e9 / 8,
         "terabit": 1e12 / 8, "kibibyte": 2**10, "mebibyte": 2**20, "gibibyte": 2**30,
         "tebibyte": 2**40}


def _q_family(q) -> tuple[str, float] | None:
    """A quantulum3 quantity as (our family, value in our canonical unit), or None.

    Only what quantulum3 itself recognised counts: times -> latency (s), percentages ->
    percent, data sizes -> memory (bytes), data rates -> bandwidth (bytes/s), currency ->
    money, a dimensionless number written with an "x" -> ratio. It has no unit for tokens,
    requests or parameters, so bare numbers are not predictions (they would only lower
    its precision)."""
    unit, entity = q.unit.name, q.unit.entity.name
    if entity == "time" and unit in _TIME:
        return "latency", q.value * _TIME[unit]
    if unit == "percentage":
        return "percent", q.value
    if entity == "data storage":
        return ("memory", q.value * _SIZE[unit]) if unit in _SIZE else None
    if entity == "data transfer rate":
        base = unit.split(" per ")[0]
        return ("bandwidth", q.value * _SIZE[base]) if base in _SIZE else None
    if entity == "currency":
        return "money", q.value
    if unit == "dimensionless" and q.surface.strip().lower().endswith(("x", "×")):
        return "ratio", q.value
    return None


def bench_quantulum(shared: Path, max_mb: float | None = None) -> dict:
    import warnings

    warnings.filterwarnings("ignore")
    try:
        from quantulum3 import parser
    except ImportError:
        return {"error": "quantulum3 is not installed (pip install -e '.[bench]')"}
    from bench_extract import load_docs
    from pipeline.ingest import ingest_file

    try:
        from quantulum3 import classifier
        with_classifier = classifier.USE_CLF
    except Exception:
        with_classifier = False
    parser.parse("warm up: 1 ms")          # loads its unit tables and classifier
    docs = load_docs(shared / "corpus" / "real")
    texts, total = [], 0
    for d in docs:
        if max_mb is not None and total >= max_mb * 1e6:
            break
        texts.append(d.text)
        total += len(d.text.encode("utf-8"))
    t0, c0 = time.perf_counter(), time.process_time()
    for text in texts:
        parser.parse(text)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    # F1 on the gold set, scored like ours
    gold = [json.loads(x) for x in (shared / "gold" / "dev.jsonl").read_text("utf-8").splitlines()
            if x.strip()]
    pred = []
    for d in sorted({g["doc"] for g in gold}):
        doc = ingest_file(shared / d, shared)
        for q in parser.parse(doc.text):
            fam = _q_family(q)
            if fam:
                pred.append({"doc_path": d, "family": fam[0], "value": fam[1],
                             "surface": q.surface})
    scorer = _scorer(shared)
    f1 = scorer.score(gold, pred, out=lambda s: io.StringIO().write(s))
    return {"documents": len(texts), "mb": total / 1e6, "seconds": seconds,
            "mb_s": total / 1e6 / seconds, "cpu_s": cpu, "mb_cpu_s": total / 1e6 / cpu,
            "classifier": bool(with_classifier),
            **{k: f1[k] for k in ("f1", "recall", "precision")}}


def _scorer(shared: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("score", shared / "gold" / "score.py")
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    return scorer


# --- 3: end-to-end ingest -----------------------------------------------------------------

# `claims ingest` as the CLI runs it, reporting on stderr the CPU seconds of this process
# (the single writer) and of its worker processes when linking starts and at exit.
INGEST_WRAPPER = r"""
import atexit, json, resource, sys
import pipeline.run as run

def usage(label):
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print("RUSAGE " + json.dumps({"at": label, "writer_cpu": me.ru_utime + me.ru_stime,
                                  "workers_cpu": kids.ru_utime + kids.ru_stime,
                                  "writer_maxrss_mb": me.ru_maxrss / 1024,
                                  "worker_maxrss_mb": kids.ru_maxrss / 1024}), file=sys.stderr)

link_store = run.link_store
def timed_link_store(*args, **kwargs):
    usage("link")
    return link_store(*args, **kwargs)
run.link_store = timed_link_store
atexit.register(usage, "exit")
from pipeline.cli import main
main(sys.argv[1:])
"""

SUMMARY = re.compile(r"^(\d+) files: (\d+) new, .*?(\d+) errors.*; (\d+) claims; ([\d.]+) s$", re.M)
LINKED = re.compile(r"^linked \(.*?\) in ([\d.]+) s: ([\d,]+) links", re.M)


def bench_ingest(shared: Path, work: Path, docs: int, workers: list[int]) -> dict:
    from gen_corpus import generate

    corpus = work / f"corpus{docs}"
    if not (corpus / ".complete").is_file():
        n, size = generate(shared / "corpus" / "real", corpus, docs)
        (corpus / ".complete").write_text(f"{n} {size}\n")
    n, size = map(int, (corpus / ".complete").read_text().split())
    rows = []
    for w in workers:
        db = work / f"ingest_w{w}.duckdb"
        db.unlink(missing_ok=True)
        print(f"  ingest --workers {w} ({load()})", flush=True)
        r = run_measured([sys.executable, "-c", INGEST_WRAPPER, "ingest", str(corpus), "--db",
                          str(db), "--workers", str(w), "-q"], work / f"ingest_w{w}.out")
        m, link = SUMMARY.search(r["stdout"]), LINKED.search(r["stdout"])
        ingest_s = float(m.group(5))
        usage = {u["at"]: u for u in (json.loads(line.split(" ", 1)[1]) for line in
                                      (work / f"ingest_w{w}.err").read_text().splitlines()
                                      if line.startswith("RUSAGE "))}
        at_link = usage.get("link") or usage["exit"]
        rows.append({"workers": w, "files": int(m.group(1)), "new": int(m.group(2)),
                     "errors": int(m.group(3)), "claims": int(m.group(4)), "ingest_s": ingest_s,
                     "link_s": float(link.group(1)) if link else None,
                     "links": int(link.group(2).replace(",", "")) if link else None,
                     "wall": r["wall"], "cpu": r["cpu"], "maxrss_mb": r["maxrss_mb"],
                     "mb_s": size / 1e6 / ingest_s, "mb_s_core": size / 1e6 / ingest_s / w,
                     "writer_cpu": at_link["writer_cpu"], "workers_cpu": at_link["workers_cpu"],
                     "mb_per_cpu_s": size / 1e6 / (at_link["writer_cpu"] + at_link["workers_cpu"]),
                     "writer_maxrss_mb": usage["exit"]["writer_maxrss_mb"],
                     "worker_maxrss_mb": usage["exit"]["worker_maxrss_mb"]})
        db.unlink(missing_ok=True)
    return {"documents": n, "mb": size / 1e6, "runs": rows}


# --- 4: link stage ------------------------------------------------------------------------

def bench_link(sizes: list[int]) -> list[dict]:
    rows = []
    for n in sizes:
        print(f"  link {n:,} ({load()})", flush=True)
        out = subprocess.run([sys.executable, str(HERE / "bench_link.py"), "--n", str(n)],
                             check=True, capture_output=True, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    return rows


# --- 5: the warehouse at 1M claims --------------------------------------------------------

def build_warehouse(db: Path, n: int) -> dict:
    """Store ``n`` bench_link claims (documents of 40) through Store.write_many, then
    `claims link` them all; returns the timings."""
    from bench_link import synthetic_claims
    from pipeline.model import Document
    from pipeline.link_flow import claim_keys
    from pipeline.run import link_store
    from pipeline.store import Store, Stored

    db.unlink(missing_ok=True)
    claims, metas = synthetic_claims(n)
    by_doc: dict[str, list] = {}
    for c in claims:
        by_doc.setdefault(c.doc_id, []).append(c)
    t0 = time.perf_counter()
    with Store.open(db) as store:
        batch = []
        for did, meta in metas.items():
            own = by_doc.get(did, [])
            text = "\n".join(c.sentence or c.surface for c in own) or meta.title
            doc = Document(id=did, path=meta.path, format="markdown", text=text,
                           title=meta.title, publisher=meta.publisher, published=meta.published,
                           role=meta.role, role_source=meta.role_source)
            batch.append(Stored.of(doc, own, did, claim_keys(own)))
            if len(batch) >= 1000:
                store.write_many(batch)
                batch = []
        store.write_many(batch)
        stored = time.perf_counter() - t0
    del claims, by_doc, batch
    r = run_measured([*claims_cmd(), "link", "--db", str(db), "-q"], db.with_suffix(".link.out"))
    return {"claims": n, "store_s": stored, "link_wall": r["wall"], "link_maxrss_mb": r["maxrss_mb"],
            "link_line": r["stdout"].strip().splitlines()[-1]}


def bench_views(db: Path, repeat: int = 3) -> list[dict]:
    import duckdb

    from pipeline.store import view_sqls

    rows = []
    con = duckdb.connect(str(db), read_only=True)
    try:
        for name, _ in view_sqls():
            view = name.removesuffix(".sql")
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                rel = con.sql(f"SELECT * FROM {view}")
                table = (getattr(rel, "to_arrow_table", None) or rel.arrow)()
                times.append(time.perf_counter() - t0)
            rows.append({"view": view, "rows": table.num_rows, "first_s": times[0],
                         "best_s": min(times)})
    finally:
        con.close()
    return rows


def bench_check(db: Path) -> list[dict]:
    rows = []
    for text, what in CHECKS:
        walls = []
        verdict = ""
        for _ in range(2):
            t0 = time.perf_counter()
            proc = subprocess.run([*claims_cmd(), "check", text, "--db", str(db)],
                                  capture_output=True, text=True)
            walls.append(time.perf_counter() - t0)
            verdict = (proc.stdout or proc.stderr).split(":", 1)[0]
        rows.append({"check": text, "what": what, "verdict": verdict, "best_s": min(walls)})
    t0 = time.perf_counter()
    subprocess.run([*claims_cmd(), "--help"], capture_output=True)
    rows.append({"check": "(`claims --help`: interpreter and CLI start-up alone)", "what": "",
                 "verdict": "", "best_s": time.perf_counter() - t0})
    return rows


# --- report -------------------------------------------------------------------------------

def table(res: dict) -> str:
    out = [f"machine: {res['machine']}", ""]
    out += ["| benchmark | measured | target | met |", "|---|---|---|---|"]
    ex, q = res.get("extract"), res.get("quantulum")
    if ex:
        cpu = f" ({ex['mb_cpu_s']:.2f} MB per CPU-second)" if "mb_cpu_s" in ex else ""
        out.append(f"| extraction only, shared/corpus/real ({ex['documents']} docs, {ex['mb']:.2f} MB "
                   f"of text, {ex['claims']:,} claims), one process | **{ex['mb_s']:.2f} MB/s per "
                   f"core**{cpu}, gold F1 {ex['f1']:.3f} | 2 MB/s per core | "
                   f"{'yes' if ex['mb_s'] >= 2 else 'no'} |")
    if q and "error" not in q:
        ratio = f"; claims is **{ex['mb_s'] / q['mb_s']:,.0f}x** faster" if ex else ""
        cpu = f" ({q['mb_cpu_s']:.4f} MB per CPU-second)" if "mb_cpu_s" in q else ""
        out.append(f"| quantulum3 {'with' if q['classifier'] else 'without'} its classifier, same "
                   f"text ({q['mb']:.2f} MB) | {q['mb_s']:.4f} MB/s{cpu}, gold F1 {q['f1']:.3f} "
                   f"(R {q['recall']:.2f}, P {q['precision']:.2f}){ratio} | F1 below ours | "
                   f"{'yes' if ex and ex['f1'] > q['f1'] else 'no'} |")
    elif q:
        out.append(f"| quantulum3 | {q['error']} | | |")
    ing = res.get("ingest")
    if ing:
        runs = {r["workers"]: r for r in ing["runs"]}
        for w, r in runs.items():
            out.append(f"| `claims ingest --workers {w}`, {ing['documents']:,} Markdown files, "
                       f"{ing['mb']:.0f} MB, fresh database | {r['ingest_s']:.1f} s to "
                       f"{r['claims']:,} claims committed = **{r['mb_s']:.2f} MB/s, "
                       f"{r['mb_s_core']:.2f} MB/s per core** ({r['mb_per_cpu_s']:.2f} MB per "
                       f"CPU-second: writer {r['writer_cpu']:.0f} s, workers {r['workers_cpu']:.0f} s "
                       f"CPU); then linking {r['claims']:,} claims {r['link_s']:.1f} s; peak RSS "
                       f"writer {r['writer_maxrss_mb']:,.0f} MB, worker {r['worker_maxrss_mb']:,.0f} MB"
                       f" | 2 MB/s per core | {'yes' if r['mb_s_core'] >= 2 else 'no'} |")
        if 1 in runs and 2 in runs:
            sp = runs[1]["ingest_s"] / runs[2]["ingest_s"]
            out.append(f"| speed-up `--workers 2` over `--workers 1` (ingest) | **{sp:.2f}x** | "
                       f">= 1.7x | {'yes' if sp >= 1.7 else 'no'} |")
    links = res.get("link")
    if links:
        for r in links:
            out.append(f"| link stage, {r['n']:,} synthetic claims | {r['seconds']:.2f} s, peak RSS "
                       f"{r['peak_rss_mb']:,} MB, {sum(r['links'].values()):,} links | "
                       + ("<= 60 s, <= 4 GB | " + ("yes" if r['seconds'] <= 60 and r['peak_rss_mb'] <= 4096
                                                    else "no") + " |" if r['n'] >= 1_000_000 else "| |"))
        for a, b in zip(links, links[1:]):
            f = b["seconds"] / max(a["seconds"], 1e-9)
            out.append(f"| link stage {a['n']:,} -> {b['n']:,} claims | {f:.1f}x the time for "
                       f"{b['n'] / a['n']:.0f}x the claims | <= 15x | {'yes' if f <= 15 else 'no'} |")
    wh = res.get("warehouse")
    if wh:
        b = wh["build"]
        out.append(f"| `claims link` (full, through DuckDB) on {b['claims']:,} stored claims | "
                   f"{b['link_wall']:.1f} s wall, peak RSS {b['link_maxrss_mb']:,.0f} MB | | |")
        for v in wh["views"]:
            out.append(f"| view `{v['view']}` at {b['claims']:,} claims, all {v['rows']:,} rows "
                       f"as Arrow | {v['best_s']:.3f} s (first {v['first_s']:.3f} s) | <= 1 s | "
                       f"{'yes' if v['best_s'] <= 1 else 'no'} |")
        for c in wh["check"]:
            tgt = "<= 1 s" if c["what"] else ""
            met = ("yes" if c["best_s"] <= 1 else "no") if c["what"] else ""
            out.append(f"| `claims check \"{c['check']}\"` at {b['claims']:,} claims ({c['verdict']}) "
                       f"| {c['best_s']:.2f} s wall | {tgt} | {met} |" if c["what"] else
                       f"| {c['check']} | {c['best_s']:.2f} s wall | | |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=HERE.parents[1] / "shared")
    ap.add_argument("--work", type=Path, default=Path("/tmp/claims-bench"))
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--warehouse-claims", type=int, default=1_000_000)
    ap.add_argument("--quantulum-mb", type=float, default=None,
                    help="time quantulum3 on this many MB only (default: all of it)")
    ap.add_argument("--only", default="extract,quantulum,ingest,link,warehouse")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    args.work.mkdir(parents=True, exist_ok=True)
    res_file = args.work / "results.json"
    res = json.loads(res_file.read_text()) if res_file.is_file() else {}
    res["machine"] = machine()

    def save():
        res_file.write_text(json.dumps(res, indent=1, default=str))

    if "extract" in parts:
        print(f"extraction ({load()})", flush=True)
        res["extract"] = bench_extraction(args.shared)
        save()
    if "quantulum" in parts:
        print(f"quantulum3 ({load()})", flush=True)
        res["quantulum"] = bench_quantulum(args.shared, args.quantulum_mb)
        save()
    if "ingest" in parts:
        print("ingest", flush=True)
        res["ingest"] = bench_ingest(args.shared, args.work, args.docs,
                                     [int(w) for w in args.workers.split(",")])
        save()
    if "link" in parts:
        print("link stage", flush=True)
        res["link"] = bench_link([int(s) for s in args.sizes.split(",")])
        save()
    if "warehouse" in parts:
        db = args.work / "warehouse_1m.duckdb"
        print(f"warehouse: building {args.warehouse_claims:,} claims ({load()})", flush=True)
        build = subprocess.run([sys.executable, __file__, "--build-warehouse", str(db),
                                str(args.warehouse_claims)], check=True, capture_output=True,
                               text=True).stdout
        print(f"  views and check ({load()})", flush=True)
        res["warehouse"] = {"build": json.loads(build.strip().splitlines()[-1]),
                            "views": bench_views(db), "check": bench_check(db)}
        save()
    print()
    print(table(res))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--build-warehouse":
        print(json.dumps(build_warehouse(Path(sys.argv[2]), int(sys.argv[3]))))
    else:
        main()
