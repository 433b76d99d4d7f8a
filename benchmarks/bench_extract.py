"""Extraction speed on the real corpus: MB of text per second on one core.

    python benchmarks/bench_extract.py [--shared ../shared] [--repeat 3]

Documents are ingested first (PDF parsing is not extraction and is not timed); then every
document's stored text goes through ``extract_claims`` in this one process, and the best of
``--repeat`` passes is reported, so the figure is per core by construction. The gold F1 is
printed beside it (the scorer in shared/gold), so a faster extractor that got worse shows.
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import json
import platform
import time
from pathlib import Path

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_file
from pipeline.vocab.loader import load

SUPPORTED = {".md", ".pdf", ".txt", ".html", ".htm"}


def load_docs(root: Path):
    return [ingest_file(p, root) for p in sorted(root.rglob("*")) if p.suffix.lower() in SUPPORTED]


def gold_f1(shared: Path) -> dict:
    gold_file = shared / "gold" / "dev.jsonl"
    gold = [json.loads(x) for x in gold_file.read_text("utf-8").splitlines() if x.strip()]
    pred = []
    for d in sorted({g["doc"] for g in gold}):
        doc = ingest_file(shared / d, shared)
        for c in extract_claims(doc):
            pred.append({**c.to_dict(), "doc_path": d})
    spec = importlib.util.spec_from_file_location("score", shared / "gold" / "score.py")
    scorer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scorer)
    return scorer.score(gold, pred, out=lambda s: io.StringIO().write(s))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parents[1].parent / "shared"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    shared = Path(args.shared)
    load()  # vocabulary compiled once, as in a long-running worker
    docs = load_docs(shared / "corpus" / "real")
    n_bytes = sum(len(d.text.encode("utf-8")) for d in docs)
    best = float("inf")
    n_claims = 0
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        n_claims = sum(len(extract_claims(d)) for d in docs)
        best = min(best, time.perf_counter() - t0)
    f1 = gold_f1(shared)
    print(f"machine: {platform.machine()} {platform.python_implementation()} {platform.python_version()}, 1 core")
    print("| corpus | documents | MB of text | claims | best seconds | MB/s per core | gold F1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| shared/corpus/real | {len(docs)} | {n_bytes / 1e6:.2f} | {n_claims} | {best:.2f} | "
          f"{n_bytes / 1e6 / best:.2f} | {f1['f1']:.3f} |")


if __name__ == "__main__":
    main()
