"""Build and export the graph of one cluster of 10,000 restatements (issue 20, docs/graph.md).

A synthetic record held in memory: one primary figure and N secondary figures, each in a
document of its own, dated over a year. Half restate the primary (naming it), the others
agree with an earlier secondary figure; every 97th drifts to another denominator (a
mismatch), so the tree has depth, changes and downstream-only branches. Prints seconds
for building the graph (with the propagation tree), for each writer, and for the story
`claims trace` prints.

    .venv/bin/python benchmarks/bench_graph.py [N]
"""
from __future__ import annotations

import datetime as dt
import random
import sys
import tempfile
import time
from pathlib import Path

from pipeline.graph import build_graph, claim_story, write_graph
from pipeline.model import Claim, Link
from pipeline.record import DocInfo, Record


def synthetic(n: int, seed: int = 20) -> Record:
    rnd = random.Random(seed)
    docs: dict[str, DocInfo] = {}
    claims: dict[str, Claim] = {}
    links: list[Link] = []
    day0 = dt.date(2026, 1, 1)

    def add(i: int, role: str, scope: str, by: str | None) -> str:
        did, cid = f"d{i:06d}", f"c{i:06d}"
        date = (day0 + dt.timedelta(days=i * 365 // max(n, 1))).isoformat()
        docs[did] = DocInfo(id=did, path=f"{did}.md", title=f"Post {i}", publisher=f"Outlet {i % 500}",
                            url=f"https://example.com/{did}", published=date, role=role)
        claims[cid] = Claim(id=cid, doc_id=did, start=0, end=14, surface="1,000 tokens/s",
                            value=1000.0, family="token_throughput", unit="tokens/s", scope=scope,
                            model="Example-70B", hardware="8 x H100", asserted_by=by,
                            sentence="It reached 1,000 tokens/s.")
        return cid

    primary = add(0, "primary", "per_user", None)
    for i in range(1, n + 1):
        if i % 97 == 0:
            me = add(i, "secondary", "per_gpu", None)
            links.append(Link(me, f"c{rnd.randrange(1, i):06d}", "mismatch", True,
                              "same number, different metric: scope per_gpu vs per_user"))
        elif i % 2 == 0 or i == 1:
            me = add(i, "secondary", "per_user", "Example Lab")
            links.append(Link(me, primary, "restates", True, "attributed to Example Lab"))
        else:
            me = add(i, "secondary", "per_user", None)
            links.append(Link(me, f"c{rnd.randrange(1, i):06d}", "supports", True,
                              "values agree at the stated precision"))
    clusters = {k: "kbench" for k in claims}
    return Record(docs=docs, claims=claims, links=links, clusters=clusters)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rec = synthetic(n)
    t0 = time.perf_counter()
    g = build_graph(rec, [k for k, v in rec.clusters.items() if v == "kbench"], label="bench")
    t_build = time.perf_counter() - t0
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("graphml", "gexf", "json"):
            t = time.perf_counter()
            target = Path(tmp) / f"bench.{fmt}"
            write_graph(g, fmt, target)
            times[fmt] = (time.perf_counter() - t, target.stat().st_size)
    t = time.perf_counter()
    lines = claim_story(rec, f"c{n:06d}").lines()
    t_story = time.perf_counter() - t
    print(f"cluster of {n:,} restatements + 1 primary: {g.number_of_nodes():,} nodes, "
          f"{g.number_of_edges():,} edges")
    print(f"  build (graph + propagation tree): {t_build:.2f} s")
    for fmt, (sec, size) in times.items():
        print(f"  write {fmt:8s} {sec:.2f} s  ({size / 1e6:.1f} MB)")
    print(f"  trace story of the last figure: {t_story:.2f} s ({len(lines)} lines)")
    print(f"  total build + graphml: {t_build + times['graphml'][0]:.2f} s")


if __name__ == "__main__":
    main()
