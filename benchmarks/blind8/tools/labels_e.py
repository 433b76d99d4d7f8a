"""genai-perf-huggingface-tgi.md (GenAI-Perf console output in a fenced block: a box-drawing table
(U+2503/U+2502 column rules, not a Markdown pipe table), statistic in the column header (avg, min, max,
p99, p90, p75), unit in the row label, thousands separators ('1,556.89'), N/A cells): hand-written
label decisions, row by row.

Model: gpt2 (the -m flag and MODEL_ID of both commands). No GPU named ('--gpus all'): no hardware."""
from lib import L, col, num
D = "genai-perf-huggingface-tgi.md"
M = dict(model="gpt2")
SEP = "│"
STAT = {2: "mean", 3: None, 4: None, 5: "p99", 6: "p90", 7: "p75"}  # avg -> mean; min/max: none (Silent)

def row(key, family, k, required, cells=range(2, 8)):
    res = []
    for n in cells:
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

out = []
# request latency (ms -> s): six required cells
out += row("Request Latency (ms)", "latency", 1e-3, True)
# output / input sequence lengths: workload token statistics -> neutral, as in the earlier sets
out += row("Output Sequence Length (tokens)", "tokens", 1, False)
out += row("Input Sequence Length (tokens)", "tokens", 1, False)
# throughputs: only the avg cell has a figure (the others are N/A, not labelled)
out += row("Output Token Throughput (tokens/sec)", "token_throughput", 1, True, cells=[2])
out += row("Request Throughput (per sec)", "request_throughput", 1, True, cells=[2])
assert len(out) == 20
# Not labelled: 'Request Count (count) 10.00' (a count of requests), N/A cells, the copyright year 2025,
# docker/genai-perf flags (-p 8080:80, --batch-size-image 1, --image-width-mean 1, --image-height-mean 1,
# --synthetic-input-tokens-mean 10, localhost:8080), the JSONL example.
