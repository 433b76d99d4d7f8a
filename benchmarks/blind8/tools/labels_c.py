"""mlperf-v4.1-b200-llama2-70b-server-summary.txt (MLPerf LoadGen `mlperf_log_summary.txt`, plain text,
'name : value' lines aligned with spaces, latencies in nanoseconds, a test-parameter section with seeds
and constraints): hand-written label decisions, one per line prefix (SPEC), applied in file order.

The document itself names neither the GPU nor the system (they are only in the repository path), so no
hardware is given. The model comes from the SUT name 'llama2-70b-Server-SUT'."""
from lib import L, text
D = "mlperf-v4.1-b200-llama2-70b-server-summary.txt"
M = dict(model="llama2-70b")
NS = 1e-9

def pct(p):
    return {"50.00": "p50", "90.00": "p90", "95.00": "p95", "97.00": "p97", "99.00": "p99", "99.90": "p99.9"}[p]

out = []
for line in text(D).split("\n"):
    if ":" not in line:
        continue
    key, val = line.split(":", 1)
    key, val = key.strip(), val.strip()
    kw = {}
    if key == "Completed samples per second":
        # Silent: a sample of this benchmark is one request -> request_throughput, required
        fam, v = "request_throughput", float(val); kw.update(M)
    elif key == "Completed tokens per second":
        # both mentions (summary and Additional Stats) are lines of their own; scope left open
        fam, v = "token_throughput", float(val); kw.update(M)
    elif key == "Scheduled samples per second":
        # the offered load LoadGen scheduled (a setting of the run) -> neutral
        fam, v = "request_throughput", float(val); kw["neutral"] = True
    elif key.endswith("(ns)") and key not in ("ttft_latency (ns)", "tpot_latency (ns)"):
        # query latency, first-token latency (TTFT) and time to output token (TPOT), in ns -> seconds
        fam, v = "latency", round(float(val) * NS, 12); kw.update(M)
        first = key.split()[0]
        if first == "Mean":
            kw["statistic"] = "mean"
        elif first[0].isdigit():
            kw["statistic"] = pct(first)
        # Silent: 'Min' and 'Max' get no statistic
    elif key in ("ttft_latency (ns)", "tpot_latency (ns)"):
        # the TTFT / TPOT constraints of the scenario (targets, not measurements) -> neutral
        fam, v = "latency", round(float(val) * NS, 12); kw["neutral"] = True
    elif key == "target_qps":
        fam, v = "request_throughput", float(val); kw["neutral"] = True
    elif key == "min_duration (ms)":
        # minimum run length (a measurement window) -> neutral
        fam, v = "latency", float(val) / 1000; kw["neutral"] = True
    else:
        # Not labelled: SUT name, scenario, mode, 'Result is', the Yes lines, samples_per_query,
        # max_async_queries, max_duration 0, min/max_query_count (counts), the three rng seeds (20-digit
        # integers), accuracy_log_*, print_timestamps, performance_issue_*, performance_sample_count 24576
        # (a count of samples).
        continue
    out.append(L(D, line, v, fam, **kw))

assert len(out) == 35, len(out)  # 30 required (2 rates + 9 query + 9 TTFT + 9 TPOT latencies + the repeated tokens/s), 5 neutral
