"""dynamo-kimi-k2-5-feature-stack.md (source file is .mdx): hand-written label decisions."""
from lib import L, col
D = "dynamo-kimi-k2-5-feature-stack.md"
C = dict(model="Kimi-K2.5-NVFP4", hardware="GB200")
out = [
 # measurement window of the trace replay, written in words
 L(D, "one-hour Mooncake-format replay", 3600, "latency", neutral=True),
 # goodput SLO thresholds: targets of the benchmark, not measurements
 L(D, "TTFT 5s", 5, "latency", neutral=True),
 L(D, "TTFT 5s / ITL 10ms", 0.01, "latency", neutral=True),
 L(D, "one-hour duration", 3600, "latency", neutral=True),
]
# Results table: per-user and per-GPU denominators in the headers ("tok/s/user avg", "tok/s/GPU"),
# every cell approximate ("~130", "~5,400"). Hardware (GB200) from the "Held constant" box above.
for arm, user, gpu in [("| Disagg + Eagle + KV routing + offload |", "~130", "~5,400"),
                       ("| Agg + Eagle + KV routing |", "~85", "~4,400"),
                       ("| Agg + Eagle + round-robin |", "~95", "~4,000"),
                       ("| Agg + round-robin |", "~105", "~1,700")]:
    q = col(D, arm, 2)
    assert q.endswith(user), (q, user)
    out.append(L(D, q, float(user[1:]), "token_throughput", scope="per_user", statistic="mean",
                 comparator="~", **C))
    q = col(D, arm, 3)
    assert q.endswith(gpu), (q, gpu)
    out.append(L(D, q, float(gpu[1:].replace(",", "")), "token_throughput", scope="per_gpu",
                 comparator="~", **C))
# Not labelled: Eagle3, Kimi-K2.5, NVFP4 (names), concurrency <24-or-32>, --benchmark-duration 3600 and
# goodput values inside the aiperf command (code), URLs.
