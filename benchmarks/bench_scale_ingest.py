"""`claims ingest --workers 2` against `claims ingest --ray` on generated files (issue 16).

    pip install -e '.[ray]'
    python benchmarks/bench_scale_ingest.py --docs 10000      # corpus cached in /tmp

Generates ``--docs`` Markdown files from shared/corpus/real with ``gen_corpus.py`` (once;
kept under --work), then runs the real CLI twice into fresh databases, ``--no-link`` so
only the ingest is timed: ``--workers 2`` and ``--ray`` (a local Ray started by the command
itself with this machine's cores, its start-up included). Prints the wall time of each
command, the summary line's seconds, and Ray's time as a ratio of the workers' time; then
checks that both databases hold the same documents and claims.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
REPO = Path(__file__).resolve().parents[1]


def _cli() -> list[str]:
    script = Path(sys.executable).with_name("claims")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pipeline.cli"]


def _ingest(corpus: Path, db: Path, how: list[str]) -> tuple[float, str]:
    db.unlink(missing_ok=True)
    t0 = time.perf_counter()
    out = subprocess.run([*_cli(), "ingest", str(corpus), "--db", str(db), "--no-link", "-q",
                          *how], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, out.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--docs", type=int, default=10_000, help="generated files")
    ap.add_argument("--work", default="/tmp/claims-bench-ray", help="corpus and databases")
    ap.add_argument("--shared", default=str(REPO.parent / "shared"), help="the shared/ folder")
    args = ap.parse_args()
    from gen_corpus import generate

    work = Path(args.work)
    corpus = work / f"corpus{args.docs}"
    if not (corpus / ".complete").is_file():
        n, size = generate(Path(args.shared) / "corpus" / "real", corpus, args.docs)
        (corpus / ".complete").write_text(f"{n} {size}\n")
    n, size = map(int, (corpus / ".complete").read_text().split())
    rows = {}
    for name, how in (("workers", ["--workers", "2"]), ("ray", ["--ray"])):
        wall, line = _ingest(corpus, work / f"{name}.duckdb", how)
        rows[name] = wall
        print(f"{name:>8}: {wall:7.1f} s wall  | {line}", flush=True)
    print(f"{n:,} files, {size / 1e6:.1f} MB: --ray takes {rows['ray'] / rows['workers']:.2f}x "
          "the time of --workers 2 on this machine")
    import duckdb

    same = []
    for sql in ("SELECT id, fingerprint FROM documents", "SELECT id, value, family FROM claims"):
        got = [set(duckdb.connect(str(work / f"{k}.duckdb"), read_only=True).execute(sql).fetchall())
               for k in rows]
        same.append(got[0] == got[1])
    print("same documents and claims:", all(same))


if __name__ == "__main__":
    main()
