"""Reading benchmark result files: the whole MLPerf summary and a 10,000-row mapped CSV.

    python benchmarks/bench_structured.py [--shared ../shared] [--rows 10000] [--cli]

Times, in this one process, (1) ``ingest_file`` + ``extract_claims`` of the real MLPerf
Inference v5.1 summary in shared/corpus/structured (when present), and (2) the same for a
generated CSV of ``--rows`` rows (invented figures: model, GPU, count, engine, ISL, OSL,
concurrency, per-GPU output throughput, P99 TTFT) read through a mapping file. Prints
rows, claims and the seconds to ingest and to extract (and the CPU seconds of the extract);
the best of ``--repeat`` passes.

With ``--cli`` it also runs what a user runs, once each, in a subprocess: ``claims ingest
CSV --mapping MAP.toml`` into a new warehouse (read, extract, store, link: the wall clock
of the whole command), and, on a warehouse of the MLPerf summary, the ``derived_figures``
view (per-GPU and per-node figures derived from the results) and one per-GPU ``claims
check`` that it settles.
"""
from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file
from pipeline.ingest import structured_mapping as sm

# the mapping the tests read a sweep CSV with; the generated CSV has its columns
MAPPING = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "structured" / "mapping" / "sweep.toml"


def timed(path: Path, root: Path, repeat: int) -> tuple[str, int, int]:
    """(seconds to ingest / to extract, rows, claims), the best pass of each. The CPU
    seconds are printed beside the wall-clock ones: on a machine shared by several people
    the wall clock measures the others' load as much as this code."""
    read, ext, cpu, n_claims, n_rows = float("inf"), float("inf"), float("inf"), 0, 0
    for _ in range(repeat):
        t = time.perf_counter()
        doc = ingest_file(path, root)
        t1, c1 = time.perf_counter(), time.process_time()
        claims = extract_claims(doc)
        read, ext = min(read, t1 - t), min(ext, time.perf_counter() - t1)
        cpu = min(cpu, time.process_time() - c1)
        n_claims, n_rows = len(claims), doc.meta.get("n_rows", 0)
    return f"ingest {read:.2f} s, extract {ext:.2f} s (CPU {cpu:.2f} s)", n_rows, n_claims


def generated(folder: Path, rows: int) -> Path:
    rng = random.Random(14)
    lines = ["model_name,gpu_type,gpus,backend,dtype,in_len,out_len,users,out_tps_gpu,ttft_p99_ms"]
    for _ in range(rows):
        lines.append(",".join([rng.choice(["Llama 3.1 8B", "Llama 3.1 70B", "Mixtral 8x7B"]),
                               rng.choice(["H100", "H200", "MI300X", "B200"]),
                               str(rng.choice([1, 2, 4, 8])), rng.choice(["vLLM", "SGLang", "TensorRT-LLM"]),
                               rng.choice(["FP8", "BF16"]),
                               str(rng.choice([128, 1024, 8192])), str(rng.choice([128, 1024])),
                               str(rng.choice([1, 8, 64, 256])), f"{rng.uniform(50, 5000):.1f}",
                               f"{rng.uniform(20, 4000):.1f}"]))
    path = folder / "sweep.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def cli(*args: str, cwd: Path) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of one `claims` command (python -m pipeline.cli) in a
    subprocess; the CPU seconds are its own and its workers' (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def derived(mlperf: Path, folder: Path) -> str:
    """The derived_figures view and one per-GPU check on a warehouse of the MLPerf summary."""
    from pipeline.check import check
    from pipeline.derived import load_derived
    from pipeline.store import Store

    db = folder / "mlperf.duckdb"
    cli("ingest", str(mlperf), "--db", str(db), "-q", cwd=folder)
    with Store.open(str(db), read_only=True) as store:
        t = time.perf_counter()
        figs = load_derived(store)
        view = time.perf_counter() - t
        d = next(x for x in figs if x.scope == "per_gpu" and not x.mixed and x.divisor > 1)
        _, rows = store.query("SELECT model, hardware, workload FROM claims WHERE id = ?",
                              [d.claim_id])
        model, hardware, workload = rows[0]
        t = time.perf_counter()
        v = check(f"{model} delivered {d.value:,.1f} tokens/s per GPU on {hardware} in "
                  f"{workload}", store=store)
        one = time.perf_counter() - t
    return (f"derived_figures view: {len(figs)} figures in {view:.2f} s; a per-GPU check "
            f"({v.verdict}) in {one:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared")
    ap.add_argument("--rows", type=int, default=10_000, help="rows of the generated CSV")
    ap.add_argument("--repeat", type=int, default=3, help="passes; the best is reported")
    ap.add_argument("--cli", action="store_true",
                    help="also time `claims ingest CSV --mapping` end to end and the derived figures")
    args = ap.parse_args()
    mlperf = args.shared / "corpus" / "structured" / "mlperf-inference-v5.1" / "summary_results_llm.json"
    if mlperf.is_file():
        s, rows, claims = timed(mlperf, mlperf.parent, args.repeat)
        print(f"MLPerf v5.1 summary (llm rows): {rows} rows, {claims} claims; {s}")
    else:
        print(f"MLPerf summary not found at {mlperf}: skipped")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = generated(folder, args.rows)
        with sm.using(sm.load(MAPPING)):
            s, rows, claims = timed(path, folder, args.repeat)
        print(f"mapped CSV ({path.stat().st_size / 1e6:.1f} MB): {rows:,} rows, {claims:,} "
              f"claims; {s}")
        if args.cli:
            wall, cpu = cli("ingest", str(path), "--mapping", str(MAPPING), "--db",
                            str(folder / "w.duckdb"), "-q", cwd=folder)
            print(f"claims ingest CSV --mapping (read, extract, store, link): {wall:.1f} s "
                  f"(CPU {cpu:.1f} s, the command and its workers)")
            if mlperf.is_file():
                print(derived(mlperf, folder))


if __name__ == "__main__":
    main()
