"""How fast `claims serve` answers each page on the 1,060-document warehouse.

    python benchmarks/bench_serve.py [--db W.duckdb] [--repeat 20] [--work /tmp/claims-bench/serve]

Without --db it builds the warehouse the way bench_all.py builds its corpus: the 53
Markdown files of ``shared/corpus/real`` copied 20 times by ``gen_corpus.generate`` (each
copy with its own numbers and names, so its own document) and ingested with the real
`claims ingest`. It then starts the real `claims serve` on a free loopback port and asks
each page ``--repeat`` times (after one warm-up request; pages about one claim or one
document take a different one each time, so nothing is answered from a warm cache of the
same rows), and prints p50, p95 and the largest time per page, the CPU time the server
spent per request (a figure that depends less than wall time on other work on the
machine), the response size, and the server's resident memory (now and at its peak)
against the warehouse's size on disk.
The verdicts on figures outside primary documents are kept per warehouse state
(pipeline/judged.py). By default the server gets an empty verdict folder, so every trace
works its verdict out (cold); ``--after-report`` runs `claims report` into that folder
first, as a user who wrote the report and then browses it would have (warm).
Only loopback is contacted; every loop is bounded by --repeat.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote_plus

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TARGET_MS = 300
HEADLINES = [
    "Llama 3 70B reaches 2,000 tokens/s per user on H100 with vLLM",
    "SGLang serves 50,000 tokens per second per GPU on H200",
    "TTFT under 200 ms for Llama on 8x A100",
    "DeepSeek-V3 has 671B parameters",
    "vLLM is 2.7x faster than TGI",
]


def claims_cmd() -> list[str]:
    script = Path(sys.executable).with_name("claims")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pipeline.cli"]


def build(work: Path, docs: int) -> Path:
    """The warehouse of ``docs`` generated documents (kept in ``work`` for the next run)."""
    sys.path.insert(0, str(HERE))
    from gen_corpus import generate

    db = work / f"w{docs}.duckdb"
    if db.is_file():
        return db
    corpus = work / f"corpus{docs}"
    if not (corpus / ".complete").is_file():
        n, size = generate(REPO.parent / "shared" / "corpus" / "real", corpus, docs)
        (corpus / ".complete").write_text(f"{n} {size}\n")
    t = time.perf_counter()
    subprocess.run([*claims_cmd(), "ingest", str(corpus), "--db", str(db), "-q"], check=True)
    print(f"built {db} in {time.perf_counter() - t:.0f} s", flush=True)
    return db


def serve(db: Path, env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([*claims_cmd(), "serve", "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, env=env)
    timer = threading.Timer(120, proc.kill)
    timer.start()
    line = proc.stdout.readline()
    timer.cancel()
    m = re.search(r"at (http://\S+?)/ ", line)
    if not m:
        raise SystemExit(f"claims serve did not start: {line}{proc.stderr.read()}")
    return proc, m.group(1)


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) of a process, in MB (Linux /proc)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sample(db: Path, n: int) -> dict[str, list[str]]:
    """Ids to ask about: distinct claims (primary and not), documents, headlines."""
    from pipeline.store import Store

    rnd = random.Random(1)
    with Store.open(db, read_only=True) as store:
        def ids(sql: str) -> list[str]:
            rows = [r[0] for r in store.con.execute(sql).fetchall()]
            return rnd.sample(rows, min(n + 1, len(rows)))

        out = {
            "primary": ids("SELECT id FROM claims_full WHERE doc_role = 'primary'"),
            "secondary": ids("SELECT id FROM claims_full WHERE doc_role <> 'primary'"),
            "linked": ids("SELECT id FROM claims WHERE id IN (SELECT src FROM links "
                          "WHERE relation <> 'derives')"),
            "docs": ids("SELECT id FROM documents"),
        }
        out["claims_pages"] = [str(-(-store.con.execute("SELECT count(*) FROM claims")
                                      .fetchone()[0] // 50))]
        out["conflict_pages"] = [str(-(-store.con.execute("SELECT count(*) FROM conflicts")
                                        .fetchone()[0] // 50))]
    return out


def pages(s: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """(page, addresses to cycle through)."""
    return [
        ("home", ["/"]),
        ("claims, no filter", ["/claims"]),
        ("claims, facet", ["/claims?family=token_throughput"]),
        ("claims, 2 facets + search + sort", ["/claims?family=latency&role=primary&q=h100&sort=value&desc=1"]),
        ("claims, last page", [f"/claims?page={s['claims_pages'][0]}"]),
        ("claims, 500 rows", ["/claims?size=500&sort=model"]),
        ("export CSV, facet (money)", ["/claims.csv?family=money"]),
        ("documents", ["/documents"]),
        ("documents, search", ["/documents?q=blog&role=primary"]),
        ("document", [f"/documents/{d}" for d in s["docs"]]),
        ("trace, primary claim", [f"/claims/{c}" for c in s["primary"]]),
        ("trace, linked claim", [f"/claims/{c}" for c in s["linked"]]),
        ("trace, secondary claim (+ verdict)", [f"/claims/{c}" for c in s["secondary"]]),
        ("conflicts", ["/views/conflicts"]),
        ("conflicts, last page", [f"/views/conflicts?page={s['conflict_pages'][0]}"]),
        ("unsourced", ["/views/unsourced"]),
        ("mismatches", ["/views/mismatches"]),
        ("derived checks", ["/views/derived"]),
        ("check", ["/check?q=" + quote_plus(h) for h in HEADLINES]),
        ("sql", ["/sql?q=" + quote_plus("SELECT family, count(*) FROM claims GROUP BY 1")]),
    ]


def measure(client, addresses: list[str], repeat: int) -> tuple[list[float], int]:
    times, size = [], 0
    for i in range(repeat):
        t = time.perf_counter()
        r = client.get(addresses[i % len(addresses)])
        times.append((time.perf_counter() - t) * 1000)
        if r.status_code != 200:
            raise SystemExit(f"{addresses[i % len(addresses)]}: HTTP {r.status_code}")
        size = max(size, len(r.content))
    return times, size


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", type=Path, help="an existing warehouse (default: build one)")
    ap.add_argument("--docs", type=int, default=1060, help="documents to generate (default 1060)")
    ap.add_argument("--repeat", type=int, default=20, help="requests per page (default 20)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/claims-bench/serve"),
                    help="folder for the generated corpus and warehouse")
    ap.add_argument("--after-report", action="store_true",
                    help="run `claims report` first, so the verdicts it works out are kept "
                         "for the server (default: the server starts with none kept)")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    db = args.db or build(args.work, args.docs)
    import tempfile

    cache = tempfile.mkdtemp(prefix="verdicts-", dir=args.work)
    env = {**os.environ, "CLAIMS_CACHE_DIR": cache}
    if args.after_report:
        t = time.perf_counter()
        subprocess.run([*claims_cmd(), "report", "--db", str(db), "-o",
                        str(Path(cache) / "report")], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        print(f"claims report first: {time.perf_counter() - t:.0f} s", file=sys.stderr)
    import httpx

    from pipeline.store import Store

    with Store.open(db, read_only=True) as store:
        n_docs, n_claims, n_links = store.con.execute(
            "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM claims), "
            "(SELECT count(*) FROM links)").fetchone()
    ids = sample(db, args.repeat)
    proc, base = serve(db, env)
    try:
        start_rss = rss_mb(proc.pid)[0]
        rows = []
        with httpx.Client(base_url=base, timeout=120) as client:
            for name, addresses in pages(ids):
                client.get(addresses[-1])                   # warm-up, not counted
                cpu0 = cpu_s(proc.pid)
                times, size = measure(client, addresses, args.repeat)
                cpu = (cpu_s(proc.pid) - cpu0) * 1000 / args.repeat
                rows.append((name, statistics.median(times), p95(times), max(times), cpu, size))
                print(f"  {name}: p95 {rows[-1][2]:.0f} ms", file=sys.stderr, flush=True)
        now, peak = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
        import shutil
        shutil.rmtree(cache, ignore_errors=True)
    print(f"\nwarehouse: {n_docs:,} documents, {n_claims:,} claims, {n_links:,} links, "
          f"{db.stat().st_size / 1e6:.0f} MB on disk; {args.repeat} requests per page, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; verdicts kept: "
          f"{'those of `claims report`' if args.after_report else 'none at the start'}\n")
    print("| page | p50 ms | p95 ms | max ms | ≤ 300 ms at p95 | server CPU ms/request | response KB |")
    print("|---|---:|---:|---:|:---:|---:|---:|")
    for name, p50, p, mx, cpu, size in rows:
        print(f"| {name} | {p50:.0f} | {p:.0f} | {mx:.0f} | {'yes' if p <= TARGET_MS else 'no'} "
              f"| {cpu:.0f} | {size / 1024:.0f} |")
    print(f"\nserver memory: {start_rss:.0f} MB resident after start, {now:.0f} MB after the "
          f"run, {peak:.0f} MB at its peak (warehouse file: {db.stat().st_size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()
