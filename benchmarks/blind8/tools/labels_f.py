"""genai-perf-goodput-tutorial.md (GenAI-Perf run against Triton + vLLM with a --goodput SLO: a
box-drawing console table (statistic in the header, unit in the row label, two rows without a unit),
then three 'name (per sec): value' lines below the table): hand-written label decisions.

Model: gpt2; engine vLLM on Triton. One GPU, not named ('--gpus=1'): no hardware."""
from lib import L, col, num
D = "genai-perf-goodput-tutorial.md"
M = dict(model="gpt2")
SEP = "│"
STAT = {2: "mean", 3: None, 4: None, 5: "p99", 6: "p90", 7: "p75"}  # avg -> mean; min/max: none (Silent)

def row(key, family, k, required):
    res = []
    for n in range(2, 8):
        q = col(D, key, n, sep=SEP)
        v = round(num(q.split(SEP)[-1].strip()) * k, 9)
        kw = {}
        if required:
            kw.update(M)
            if STAT[n]:
                kw["statistic"] = STAT[n]
        else:
            kw["neutral"] = True
        res.append(L(D, q, v, family, **kw))
    return res

out = [
 # install time of the CLI, approximate (a comment in the setup commands): neutral, as build times were
 L(D, "# Install Triton CLI (~5 min", 300, "latency", comparator="~", neutral=True),
]
out += row("Time to first token (ms)", "latency", 1e-3, True)
out += row("Inter token latency (ms)", "latency", 1e-3, True)
out += row("Request latency (ms)", "latency", 1e-3, True)
# Silent: the sequence-length rows carry no unit; they are token counts of the workload -> neutral tokens
out += row("Output sequence length", "tokens", 1, False)
out += row("Input sequence length", "tokens", 1, False)
out += [
 L(D, "Output token throughput (per sec): 1205.26", 1205.26, "token_throughput", **M),
 # goodput: requests per second that met the SLO given by --goodput -> request_throughput
 L(D, "Request goodput (per sec): 7.21", 7.21, "request_throughput", **M),
 L(D, "Request throughput (per sec): 10.82", 10.82, "request_throughput", **M),
]
assert len(out) == 34
# Not labelled: RELEASE "24.06" and triton_cli@0.0.8 (versions), the copyright year 2024, and every figure
# in the commands: --shm-size=2g, --ulimit stack=67108864, --num-prompts 100, --random-seed 123,
# --synthetic-input-tokens-mean 200, --output-tokens-mean 100, stddev 0, --concurrency 4,
# --measurement-interval 800, localhost:8001, and the SLO thresholds in
# '--goodput time_to_first_tokens:10 inter_token_latencies:1.6' (code).
