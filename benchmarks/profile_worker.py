"""Where an ingest worker's CPU time goes, stage by stage, on a folder of Markdown files.

    python benchmarks/profile_worker.py FOLDER [N]     # e.g. /tmp/claims-bench/corpus10000 520

Runs what a `claims ingest` worker runs for each of the first N files (sorted): read and
parse (``ingest_file``), ``extract_claims``, role inference (``run.text_role``), quantity
keys, the rows the writer receives (``Stored.of``) and pickling the result, and prints the CPU seconds,
share and MB/s of each (MB of Markdown on disk).
"""
from __future__ import annotations

import pickle
import sys
import time
from pathlib import Path

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file
from pipeline.link_flow import claim_keys
from pipeline.run import text_role
from pipeline.store import Stored
from pipeline.vocab.loader import load


def main() -> None:
    root = Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    load()
    import pipeline.link.roles  # noqa: F401  (a worker is forked with it imported: run._prepare)
    files = sorted(root.rglob("*.md"))[:n]
    stages = ["read + parse", "extract", "role", "keys", "rows", "pickle"]
    spent = dict.fromkeys(stages, 0.0)
    mb = 0.0
    for path in files:
        t = [time.process_time()]
        doc = ingest_file(path, root)
        t.append(time.process_time())
        claims = extract_claims(doc)
        t.append(time.process_time())
        text_role(doc, claims)
        t.append(time.process_time())
        keys = claim_keys(claims)
        t.append(time.process_time())
        stored = Stored.of(doc, claims, "fp", keys)
        t.append(time.process_time())
        pickle.dumps((stored, None, ""))
        t.append(time.process_time())
        for stage, a, b in zip(stages, t, t[1:]):
            spent[stage] += b - a
        mb += path.stat().st_size / 1e6
    total = sum(spent.values())
    print(f"{len(files)} files, {mb:.1f} MB of Markdown, {total:.1f} CPU s: "
          f"{mb / total:.2f} MB per CPU-second in one worker")
    print("| stage | CPU s | share | MB/s |\n|---|---:|---:|---:|")
    for stage, s in spent.items():
        print(f"| {stage} | {s:.2f} | {s / total:.0%} | {mb / s if s else 0:.1f} |")


if __name__ == "__main__":
    main()
