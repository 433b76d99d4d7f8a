"""Benchmark the link stage on synthetic claims: 10k, 100k and 1M.

Each size runs in its own child process, so peak RSS (resource.getrusage, ru_maxrss) is
that size's alone; the figure includes the synthetic claims themselves. Wall time and
CPU time are both printed: on a shared machine the CPU time is the steadier figure.
Targets: 1M claims in <= 60 s and <= 4 GB, and 10x the claims in <= 15x the time.

    python benchmarks/bench_link.py            # all sizes
    python benchmarks/bench_link.py --n 100000 # one size, in this process
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time

from pipeline.link import DocMeta, link
from pipeline.model import Claim

CLAIMS_PER_DOC = 40
HARDWARE = ["8 x H100", "8 x H200", "8 x B200", "4 x B300", "72 x GB300", "72 x GB200",
            "1 x H100", "8 x MI300X", "16 x GB300", "2 x H100"]
ENGINES = ["vLLM", "SGLang", "TensorRT-LLM", "Dynamo SGLang", "Dynamo vLLM", None]
SCOPES = ["per_user", "per_gpu", "per_node", "aggregate", "unspecified"]
# (family, unit, share, typical value)
FAMILIES = [("token_throughput", "tokens/s", 0.45, 5000.0), ("latency", "s", 0.10, 0.5),
            ("percent", "%", 0.10, 40.0), ("ratio", "x", 0.05, 2.5),
            ("parameters", "count", 0.10, 7e10), ("money", "USD", 0.05, 3.0),
            ("tokens", "count", 0.15, 128000.0)]


# Sentences around the figures, so that reading what a figure measures (link/measure.py)
# costs what it costs on real text. {m} model, {v} the figure, {b} a baseline.
SENTENCES = {
    "token_throughput": ["{m} serves {v} tokens/s on the cluster.",
                         "On this setup {m} reached {v} tokens per second in decode."],
    "latency": ["{m} answers in {v} s at the median.", "TTFT for {m} was {v} s."],
    "percent": ["{m} cuts the KV cache by {v}% compared with {b}.",
                "{m} reaches {v}% higher throughput than {b} on long prompts.",
                "About {v}% of requests hit the cache."],
    "ratio": ["{m} is {v}x faster than {b} in decode throughput.",
              "{m} gets a {v}x speedup.", "{m} has {v}x lower TTFT than {b}."],
    "parameters": ["{m} has {v} total parameters.", "{m} activates {v} parameters per token.",
                   "Supported: {m} ({v})."],
    "money": ["Running {m} costs ${v} per GPU-hour."],
    "tokens": ["{m} supports a context length of {v} tokens.",
               "We used an input length of {v} and an output length of 128 for {m}.",
               "{m} was pretrained on {v} tokens."],
}
BASELINES = ["vLLM", "SGLang", "H100", "A100", "the previous release", "TP16"]


def synthetic_claims(n: int, seed: int = 7) -> tuple[list[Claim], dict[str, DocMeta]]:
    """``n`` claims in documents of 40, about 100 per model, a fifth of them secondary.

    Each (model, family, scope) has a few "true" values that documents restate, rounded
    or not, so supports, conflicts and derived checks all occur at realistic rates. Each
    claim carries a sentence from ``SENTENCES`` holding its figure.
    """
    rnd = random.Random(seed)
    n_models = max(10, n // 100)
    weights = [f[2] for f in FAMILIES]
    truth: dict[tuple, list[float]] = {}
    claims: list[Claim] = []
    docs: dict[str, DocMeta] = {}
    n_docs = (n + CLAIMS_PER_DOC - 1) // CLAIMS_PER_DOC
    i = 0
    for d in range(n_docs):
        did = f"d{d}"
        secondary = rnd.random() < 0.2
        docs[did] = DocMeta(id=did, path=f"{did}.md", role="secondary" if secondary else "primary",
                            role_source="manifest", published=f"2026-{1 + d % 12:02d}-{1 + d % 28:02d}",
                            publisher=f"pub{d % 500}", title=f"doc {d}")
        models = [f"Model-{rnd.randrange(n_models)}" for _ in range(3)]
        pos = 0
        for k in range(min(CLAIMS_PER_DOC, n - i)):
            fam, unit, _, base = rnd.choices(FAMILIES, weights)[0]
            model = rnd.choice(models)
            scope = rnd.choice(SCOPES) if fam == "token_throughput" else None
            key = (model, fam, scope)
            vals = truth.get(key)
            if vals is None:
                vals = truth[key] = [round(base * rnd.uniform(0.2, 5), 1) for _ in range(3)]
            v = rnd.choice(vals)
            prec = 0.05
            if rnd.random() < 0.3:                       # restated rounded: "1.2K"
                mag = 10 ** max(0, len(str(int(v))) - 2)
                v, prec = round(v / mag) * mag, mag / 2
            cmp = "=" if rnd.random() < 0.85 else rnd.choice([">", ">=", "<=", "~"])
            pos += rnd.randint(20, 200)
            sent = pos - pos % 400
            surface = str(v)
            sentence = rnd.choice(SENTENCES[fam]).format(m=model, v=surface,
                                                         b=rnd.choice(BASELINES))
            claims.append(Claim(
                id=f"c{i}", doc_id=did, start=pos, end=pos + len(surface), surface=surface,
                value=v, sentence=sentence,
                family=fam, unit=unit, comparator=cmp, precision=prec, scope=scope,
                statistic=rnd.choice([None, None, "p90", "median"]),
                per_basis="per GPU-hour" if fam == "money" else None,
                sentence_start=sent, sentence_end=sent + 400, model=model,
                hardware=rnd.choice(HARDWARE) if rnd.random() < 0.6 else None,
                engine=rnd.choice(ENGINES),
                asserted_by=f"pub{rnd.randrange(500)}" if secondary and rnd.random() < 0.5 else None,
                stance="asserted" if rnd.random() < 0.95 else "negated"))
            i += 1
    return claims, docs


def run_one(n: int) -> dict:
    claims, docs = synthetic_claims(n)
    t0, c0 = time.perf_counter(), time.process_time()
    result = link(claims, docs)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    counts: dict[str, int] = {}
    for ln in result.links:
        counts[ln.relation] = counts.get(ln.relation, 0) + 1
    return {"n": n, "seconds": round(dt, 2), "cpu_seconds": round(cpu, 2),
            "peak_rss_mb": round(rss_mb),
            "links": counts, "clusters": len(set(result.clusters.values()))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, help="one size, in this process")
    ap.add_argument("--sizes", default="10000,100000,1000000")
    args = ap.parse_args()
    if args.n:
        print(json.dumps(run_one(args.n)))
        return
    rows = []
    for n in [int(s) for s in args.sizes.split(",")]:
        out = subprocess.run([sys.executable, __file__, "--n", str(n)], check=True,
                             capture_output=True, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        r = rows[-1]
        print(f"{r['n']:>9,} claims  {r['seconds']:>7.2f} s ({r['cpu_seconds']:.2f} s CPU)  "
              f"peak RSS {r['peak_rss_mb']:>6,} MB  "
              f"links {sum(r['links'].values()):,} {r['links']}", flush=True)
    for a, b in zip(rows, rows[1:]):
        print(f"{a['n']:,} -> {b['n']:,}: {b['n'] / a['n']:.0f}x claims, "
              f"{b['seconds'] / max(a['seconds'], 1e-9):.1f}x time")


if __name__ == "__main__":
    main()
