"""Cold checks, in one process: the report's checks and the check and trace work of
`claims serve`, with no verdicts kept (docs/performance.md, "Cold checks").

    python benchmarks/bench_cold_checks.py WAREHOUSE [--traces 30] [--out FILE] [--profile FILE]

* every figure outside primary documents judged as `claims report` judges it
  (``judge_stored`` over an ``IndexedChecker``, one process, the record and checker out of
  the collector's walks and its threshold as the report's check workers have them:
  ``gcpause.freeze``, ``verdicts.fewer_collections``): CPU seconds, and how much of them
  the cyclic garbage collector took;
* `claims serve`'s path: ``LoadedChecks`` preloaded, then the first check of each of
  bench_serve.py's headlines and the trace of ``--traces`` secondary figures (a fixed
  random sample): CPU ms each;
* ``--out FILE``: every verdict and trace as text (``format_verdict``, ``format_trace``),
  to diff the answers of two versions of the code; ``--profile FILE``: cProfile of the
  report's checks.

CPU time moves less than wall time with the machine's other load; still, compare only
runs made back to back.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import os
import random
import sys
import time
from pathlib import Path

os.environ["CLAIMS_CACHE_DIR"] = "off"      # cold: nothing kept, nothing written
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import HEADLINES  # noqa: E402


class _Collections:
    """CPU seconds the cyclic garbage collector takes (a ``gc.callbacks`` entry)."""

    def __init__(self) -> None:
        self.cpu, self.n, self._t = 0.0, 0, 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._t = time.process_time()
        else:
            self.cpu += time.process_time() - self._t
            self.n += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", help="the warehouse (e.g. bench_report.py's w1060.duckdb)")
    ap.add_argument("--traces", type=int, default=30, help="secondary traces (default 30)")
    ap.add_argument("--out", type=Path, help="write every answer as text to this file")
    ap.add_argument("--profile", type=Path, help="write a cProfile of the report's checks")
    args = ap.parse_args()

    from pipeline.check import check, format_verdict
    from pipeline.checker import judge_stored
    from pipeline.gcpause import freeze
    from pipeline.record import Record
    from pipeline.report.verdicts import IndexedChecker
    try:
        from pipeline.report.verdicts import fewer_collections
    except ImportError:     # an older version of the code: its workers kept the defaults
        fewer_collections = contextlib.nullcontext
    from pipeline.serve.around import trace_of
    from pipeline.serve.checking import KeptAnswers, LoadedChecks
    from pipeline.store import Store
    from pipeline.trace import format_trace

    texts: list[str] = []
    store = Store.open(args.db, read_only=True)
    rec = Record.load(store)
    secondary = [c for d in sorted(rec.docs.values(), key=lambda d: d.order_key())
                 if d.role != "primary"
                 for c in sorted((c for c in rec.claims.values() if c.doc_id == d.id),
                                 key=lambda c: c.start) if rec.active(c)]
    checker = IndexedChecker(rec)
    freeze()            # as report.verdicts.Judging does before its workers fork
    prof = cProfile.Profile() if args.profile else None
    collected = _Collections()
    gc.callbacks.append(collected)
    t = time.process_time()
    if prof:
        prof.enable()
    with fewer_collections():       # as in the report's check workers
        verdicts = [judge_stored(checker, c) for c in secondary]
    if prof:
        prof.disable()
        prof.dump_stats(str(args.profile))
    gc.callbacks.remove(collected)
    print(f"report's checks: {len(secondary)} figures, {time.process_time() - t:.2f} CPU-s "
          f"(the collector: {collected.cpu:.2f} s in {collected.n} collections)")
    texts += [c.id + "\n" + format_verdict(v) for c, v in zip(secondary, verdicts)]
    del rec, checker, verdicts

    loaded, kept = LoadedChecks(), KeptAnswers()
    t = time.process_time()
    loaded.preload(store)
    print(f"serve: preload {time.process_time() - t:.2f} CPU-s ({loaded.kept:,} claims held)")
    for label, items, run in (
            ("first check", HEADLINES,
             lambda h: format_verdict(check(h, store=store, loaded=loaded, kept=kept))),
            ("secondary trace",
             random.Random(1).sample(sorted(c.id for c in secondary), min(args.traces,
                                                                           len(secondary))),
             lambda k: format_trace(trace_of(store, k, loaded=loaded, kept=kept)))):
        cpu = []
        for item in items:
            t = time.process_time()
            texts.append(run(item))
            cpu.append((time.process_time() - t) * 1000)
        cpu.sort()
        print(f"serve: {label}, {len(cpu)}: CPU ms mean {sum(cpu) / len(cpu):.0f}, "
              f"median {cpu[len(cpu) // 2]:.0f}, max {cpu[-1]:.0f}")
    store.close()
    if args.out:
        args.out.write_text("\n".join(texts), encoding="utf-8")


if __name__ == "__main__":
    main()
