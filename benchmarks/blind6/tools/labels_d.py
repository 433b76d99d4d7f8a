"""genai-perf-tutorial.md: hand-written label decisions.

Four GenAI-Perf result tables drawn with box characters inside fenced code blocks (the tool's printed
output, i.e. measurements, so they are labelled). Rows are metrics with the unit in the row label,
columns are statistics: avg -> mean, p99/p90/p75 -> that statistic, min/max -> no statistic field.
"(ms)" rows are latency in seconds. "Output token throughput (per sec)" is a token throughput and
"Request throughput (per sec)" a request throughput, avg only (N/A elsewhere); neither states a
denominator, so scope is left open. Sequence-length rows are token counts of the workload:
input length is the configured synthetic input (200), output length is the measured output; both
`neutral`.
"""
from lib import L, col
D = "genai-perf-tutorial.md"
STATS = ["mean", None, None, "p99", "p90", "p75"]   # avg, min, max, p99, p90, p75
out = []

def row(key, nth, fam, figs, **kw):
    for n, (f, st) in enumerate(zip(figs, STATS), start=2):
        if f == "N/A":
            continue
        q = col(D, key, n, nth, sep="│")
        assert q.endswith(f), (q, f)
        v = float(f.replace(",", ""))
        extra = dict(kw)
        if st:
            extra["statistic"] = st
        if fam == "latency":
            out.append(L(D, q, round(v / 1000, 8), "latency", **extra))
        else:
            out.append(L(D, q, v, fam, **extra))

TTFT, ITL, REQ = "Time to first token (ms) │", "Inter token latency (ms) │", "Request latency (ms) │"
OSL, ISL = "Output sequence length │", "Input sequence length │"
OTP, RTP = "Output token throughput (per sec) │", "Request throughput (per sec) │"
NA5 = ["N/A"] * 5

# Table 1: GPT-2 on Triton + TensorRT-LLM
C = dict(model="gpt2")
row(TTFT, 1, "latency", ["13.68", "11.07", "21.50", "18.81", "14.29", "13.97"], **C)
row(ITL, 1, "latency", ["1.86", "1.28", "2.11", "2.11", "2.01", "1.95"], **C)
row(REQ, 1, "latency", ["203.70", "180.33", "228.30", "225.45", "216.48", "211.72"], **C)
row(OSL, 1, "tokens", ["103.46", "95.00", "134.00", "122.96", "108.00", "104.75"], neutral=True, **C)
row(ISL, 1, "tokens", ["200.00"] * 6, neutral=True, **C)
row(OTP, 1, "token_throughput", ["504.02"] + NA5, **C)
row(RTP, 1, "request_throughput", ["4.87"] + NA5, **C)
# Table 2: GPT-2 on Triton + vLLM
row(TTFT, 2, "latency", ["22.04", "14.00", "26.02", "25.73", "24.41", "24.06"], **C)
row(ITL, 2, "latency", ["4.58", "3.45", "5.34", "5.33", "5.11", "4.86"], **C)
row(REQ, 2, "latency", ["542.48", "468.10", "622.39", "615.67", "584.73", "555.90"], **C)
row(OSL, 2, "tokens", ["115.15", "103.00", "143.00", "138.00", "120.00", "118.50"], neutral=True, **C)
row(ISL, 2, "tokens", ["200.00"] * 6, neutral=True, **C)
row(OTP, 2, "token_throughput", ["212.04"] + NA5, **C)
row(RTP, 2, "request_throughput", ["1.84"] + NA5, **C)
# Table 3: Zephyr-7B-Beta on the vLLM OpenAI chat server
Z = dict(model="zephyr-7b-beta")
row(TTFT, 3, "latency", ["37.99", "32.65", "45.89", "45.85", "44.69", "37.49"], **Z)
row(ITL, 3, "latency", ["19.19", "18.78", "20.11", "20.00", "19.39", "19.23"], **Z)
row(REQ, 3, "latency", ["1,915.41", "1,574.73", "2,027.20", "2,016.50", "1,961.22", "1,931.45"], **Z)
row(OSL, 3, "tokens", ["98.83", "81.00", "101.00", "100.83", "100.00", "100.00"], neutral=True, **Z)
row(ISL, 3, "tokens", ["200.00"] * 6, neutral=True, **Z)
row(OTP, 3, "token_throughput", ["51.55"] + NA5, **Z)
row(RTP, 3, "request_throughput", ["0.52"] + NA5, **Z)
# Table 4: GPT-2 on the vLLM OpenAI completions server (not streaming: no TTFT / ITL rows)
row(REQ, 4, "latency", ["437.85", "328.10", "497.05", "495.28", "485.68", "460.91"], **C)
row(OSL, 4, "tokens", ["112.66", "83.00", "123.00", "122.69", "119.90", "116.25"], neutral=True, **C)
row(ISL, 4, "tokens", ["200.00"] * 6, neutral=True, **C)
row(OTP, 4, "token_throughput", ["257.21"] + NA5, **C)
row(RTP, 4, "request_throughput", ["2.28"] + NA5, **C)
# Not labelled: command-line values (--synthetic-input-tokens-mean 200, --output-tokens-mean 100,
# --max-model-len 1024, stddev 0), model names (Zephyr-7B-Beta, GPT-2), the license header, URLs.
