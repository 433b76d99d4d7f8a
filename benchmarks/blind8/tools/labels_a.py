"""kvcached-overhead-sglang.md (Markdown whose results sit in HTML <table>s: each table has one <tr> of
two <td> cells, 'with kvcached' | 'without kvcached', and each cell holds a fenced SGLang
`bench_serving` result block): hand-written label decisions.

The decisions are made per metric line of the result block (SPEC below, written by hand) and apply to
all six blocks (request rate 32 / 16 / 8, each with and without kvcached). The helper only walks the
lines of the document in order, cuts the quote (the whole line) and reads the printed number."""
from lib import L, text
D = "kvcached-overhead-sglang.md"
# Hardware from the sentence above all tables: "collected on GCP-a100-80G GPU" (one GPU).
HW = dict(hardware="A100")

# prefix of the printed line -> (family, factor to canonical unit, required?, statistic)
SPEC = [
    # offered load of the run (a setting, like "at 16 QPS"): neutral
    ("Traffic request rate:", ("request_throughput", 1, False, None)),
    # measurement window of the run: neutral, as in the earlier sets
    ("Benchmark duration (s):", ("latency", 1, False, None)),
    # workload token totals: neutral (tokens), as in the earlier sets
    ("Total input tokens:", ("tokens", 1, False, None)),
    ("Total generated tokens:", ("tokens", 1, False, None)),
    ("Total generated tokens (retokenized):", ("tokens", 1, False, None)),
    # measured rates of the whole server run. Scope left open (one server on one GPU; the block
    # says neither 'total' as a denominator nor per GPU - 'Total token throughput' means input+output
    # tokens, not a scope)
    ("Request throughput (req/s):", ("request_throughput", 1, True, None)),
    ("Input token throughput (tok/s):", ("token_throughput", 1, True, None)),
    ("Output token throughput (tok/s):", ("token_throughput", 1, True, None)),
    ("Total token throughput (tok/s):", ("token_throughput", 1, True, None)),
    # latencies in ms -> seconds
    ("Mean E2E Latency (ms):", ("latency", 1e-3, True, "mean")),
    ("Median E2E Latency (ms):", ("latency", 1e-3, True, "median")),
    ("Mean TTFT (ms):", ("latency", 1e-3, True, "mean")),
    ("Median TTFT (ms):", ("latency", 1e-3, True, "median")),
    ("P99 TTFT (ms):", ("latency", 1e-3, True, "p99")),
    ("Mean ITL (ms):", ("latency", 1e-3, True, "mean")),
    ("Median ITL (ms):", ("latency", 1e-3, True, "median")),
    ("P95 ITL (ms):", ("latency", 1e-3, True, "p95")),
    ("P99 ITL (ms):", ("latency", 1e-3, True, "p99")),
    # Silent: 'Max' is not one of the named statistics; the line carries no statistic
    ("Max ITL (ms):", ("latency", 1e-3, True, None)),
]
# Not labelled: 'Max request concurrency: not set'; 'Successful requests: 1920' (a count of requests
# in the run; no family fits); 'Concurrency: 1418.05' (the run's average number of requests in flight,
# a count, no family); 'Request rate = 32' headings (repeat the traffic rate of the block below them;
# they are headings, not sentences - Silent: left unlabelled rather than neutral); 'GCP-a100-80G' (GPU
# name with its memory size inside the name); the banner lines of '=' and '-'.

out = []
for line in text(D).split("\n"):
    # longest matching prefix wins ('Total generated tokens (retokenized):' vs 'Total generated tokens:')
    hits = [(p, s) for p, s in SPEC if line.startswith(p)]
    if not hits:
        continue
    p, (fam, k, req, stat) = max(hits, key=lambda h: len(h[0]))
    fig = line[len(p):].strip()
    v = float(fig) * k
    v = round(v, 9)
    kw = {}
    if stat:
        kw["statistic"] = stat
    if req:
        kw.update(HW)
    else:
        kw["neutral"] = True
    out.append(L(D, line.rstrip(), v, fam, **kw))

assert len(out) == 6 * 19, len(out)
