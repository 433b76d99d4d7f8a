"""`claims export prov` and `claims check --format claimreview` on a large warehouse.

    python benchmarks/bench_formats.py [--db W.duckdb | --claims 1000000] [--work /tmp/claims-bench]

Without --db it stores ``--claims`` bench_link claims the way bench_all.py's warehouse
part does (``build_warehouse``: documents of 40, then `claims link`). Prints, for the real
CLI: wall time, CPU and peak RSS of `claims export prov -o FILE` and the file's size, and
`claims check` with --format json and claimreview (best of 2) on bench_all.py's headlines.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_all import CHECKS, build_warehouse, claims_cmd, load, machine, run_measured  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, help="an existing warehouse (read only)")
    ap.add_argument("--claims", type=int, default=1_000_000, help="claims to store without --db")
    ap.add_argument("--work", type=Path, default=Path("/tmp/claims-bench"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    db = args.db
    if db is None:
        db = args.work / f"formats-{args.claims}.duckdb"
        print(f"building {args.claims:,} claims in {db} ({load()})", flush=True)
        print(json.dumps(build_warehouse(db, args.claims)), flush=True)
    print(machine())
    out = args.work / "claims.prov.json"
    print(f"export prov ({load()})", flush=True)
    r = run_measured([*claims_cmd(), "export", "prov", "--db", str(db), "-o", str(out)],
                     args.work / "prov.out")
    size = out.stat().st_size
    print("| what | wall s | CPU s | peak RSS MB | output |")
    print("|---|---:|---:|---:|---:|")
    print(f"| export prov | {r['wall']:.1f} | {r['cpu']:.1f} | {r['maxrss_mb']:.0f} | {size / 2**20:.0f} MB |")
    out.unlink()
    for headline, what in CHECKS:
        for fmt in ("json", "claimreview"):
            best = None
            for _ in range(2):
                cmd = [*claims_cmd(), "check", headline, "--db", str(db), "--format", fmt]
                m = _run_any(cmd, args.work / "check.out")
                best = m if best is None or m["wall"] < best["wall"] else best
            print(f"| check -f {fmt}: {what} | {best['wall']:.2f} | {best['cpu']:.2f} | "
                  f"{best['maxrss_mb']:.0f} | {len(best['stdout'])} chars |")


def _run_any(cmd: list[str], out: Path) -> dict:
    """``run_measured`` for a command whose exit code carries a result (check's verdict)."""
    import os
    import subprocess
    import time

    started = time.perf_counter()
    with open(out, "w") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3, 4, 5):
        raise RuntimeError(f"{cmd} exited {code}")
    return {"wall": time.perf_counter() - started, "cpu": ru.ru_utime + ru.ru_stime,
            "maxrss_mb": ru.ru_maxrss / 1024, "stdout": out.read_text()}


if __name__ == "__main__":
    main()
