"""Score `claims check` on the blind headline suite (tests/data/headlines.jsonl).

The headlines were written by a helper who had not seen the checker (tests/data/HEADLINES.md):
for each of 40+ real figures in ../shared/corpus/real/, a faithful restatement and false
variants (inflated, "up to" inflated, wrong denominator, reversed direction, wrong measured
quantity, wrong model, unpublished, no denominator), each with the verdict
docs/claims-model.md §4 gives and the verdicts a careful analyst would also accept.

    python benchmarks/headlines.py [--suite FILE] [--db WAREHOUSE] [--shared ../shared] [-v]

Without --db it ingests ../shared/corpus/real, ../shared/seeds and ../shared/corpus/structured
into a temporary warehouse.
Prints, per kind: headlines, right (the verdict is one the labeller accepts), the expected
verdict exactly, and false headlines answered `supported` (the worst error).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tests" / "data" / "headlines.jsonl"


def load(path: Path = SUITE) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def build_warehouse(shared: Path, db: Path) -> None:
    """The record the headlines are checked against: the real corpus, the seeds and the
    benchmark result files (the fourth suite cites them). Run outside the checkout, so the
    installed package answers (the source tree alone lacks the packaged warehouse SQL)."""
    subprocess.run([sys.executable, "-m", "pipeline.cli", "ingest",
                    str(Path(shared / "corpus" / "real").resolve()),
                    str(Path(shared / "seeds").resolve()),
                    str(Path(shared / "corpus" / "structured").resolve()),
                    "--db", str(Path(db).resolve()), "-q"],
                   check=True, stdout=subprocess.DEVNULL, cwd=Path(db).resolve().parent)


def evaluate(items: list[dict], db: Path, sql: bool = False) -> list[dict]:
    """Each headline with the verdict `claims check` gives. The warehouse is opened
    read-only once for all of them: ``check(text, store=...)`` runs what ``check(text, db)``
    runs after opening it (a tenth of the time was opening and closing it per headline).
    ``sql``: the candidate figures chosen in SQL whatever the warehouse's size."""
    from pipeline.check import check
    from pipeline.check_sql import LOAD_BELOW
    from pipeline.store import Store

    out = []
    with Store.open(db, read_only=True) as store:
        for it in items:
            v = check(it["headline"], store=store, load_below=0 if sql else LOAD_BELOW)
            out.append({**it, "got": v.verdict, "reading": v.query.reading() if v.query else "",
                        "explanation": v.explanation})
    return out


def right(r: dict) -> bool:
    return r["got"] in r.get("accept", [r["expected"]])


def false_supported(r: dict) -> bool:
    return bool(r.get("false_headline")) and r["got"] == "supported"


def table(results: list[dict]) -> str:
    by: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by[r["kind"]].append(r)
    rows = ["| kind | headlines | right | exactly as expected | false `supported` |",
            "|---|---:|---:|---:|---:|"]
    for kind in sorted(by, key=lambda k: -len(by[k])):
        rs = by[kind]
        rows.append(f"| {kind} | {len(rs)} | {sum(map(right, rs))} ({sum(map(right, rs)) / len(rs):.0%}) | "
                    f"{sum(r['got'] == r['expected'] for r in rs)} | {sum(map(false_supported, rs))} |")
    n = len(results)
    rows.append(f"| **all** | {n} | {sum(map(right, results))} ({sum(map(right, results)) / n:.0%}) | "
                f"{sum(r['got'] == r['expected'] for r in results)} | "
                f"{sum(map(false_supported, results))} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--suite", type=Path, default=SUITE,
                    help="headline file (default tests/data/headlines.jsonl; the second blind "
                         "suite is tests/data/headlines2.jsonl)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every wrong answer")
    ap.add_argument("--sql", action="store_true",
                    help="choose the candidate figures in SQL (check_sql) for every headline it "
                         "can take, however small the warehouse: the corpus warehouse is below "
                         "check_sql.LOAD_BELOW, where `claims check` compares in Python")
    args = ap.parse_args()
    items = load(args.suite)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "headlines.duckdb"
            build_warehouse(args.shared, db)
        results = evaluate(items, db, args.sql)
    print(table(results))
    print("verdicts:", dict(Counter(r["got"] for r in results)))
    if args.verbose:
        for r in results:
            if not right(r):
                print(f"\n{r['id']} {r['kind']}: expected {r['expected']} (accept {r.get('accept')}), "
                      f"got {r['got']}\n  {r['headline']}\n  read as: {r['reading']}\n  {r['explanation'][:400]}"
                      f"\n  why: {r.get('why', '')}")


if __name__ == "__main__":
    main()
