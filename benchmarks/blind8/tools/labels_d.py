"""torchao-float8-benchmark-results.txt (benchmark log: one run per line, comma-separated 'key=value' and
'key: value' fields - a 14-digit timestamp, tok/s, mem/s in GB/s, peak_mem and model_size in GB, then the
configuration and a repro command line; space-padded values such as 'model_size= 7.51 GB' and
'tok/s= 84.13'): hand-written label decisions per field, applied to each of the 13 run lines.

Model: the 'mod:' field (Meta-Llama-3.1-8B). No GPU is named ('device: cuda'), so no hardware."""
import re
from lib import L, text, upto
D = "torchao-float8-benchmark-results.txt"
M = dict(model="Meta-Llama-3.1-8B")

# field -> (family, factor, required?, statistic)
FIELDS = [
    # decode rate of generate.py (batch not stated on the line -> scope left open)
    ("tok/s=", ("token_throughput", 1, True, None)),
    # achieved memory bandwidth of the run -> bandwidth (GB decimal)
    ("mem/s=", ("bandwidth", 1e9, True, None)),
    # peak memory of the run -> memory, statistic peak
    ("peak_mem=", ("memory", 1e9, True, "peak")),
    # Silent: size of the (quantized) checkpoint - a property of the artifact, repeated on every line -> neutral
    ("model_size=", ("memory", 1e9, False, None)),
]
out = []
for line in text(D).split("\n"):
    if not line.strip():
        continue
    for field, (fam, k, req, stat) in FIELDS:
        m = re.search(re.escape(field) + r"\s*([0-9.]+)", line)
        q = upto(line, m.group(0))
        v = round(float(m.group(1)) * k, 6)
        kw = dict(M)
        if stat:
            kw["statistic"] = stat
        if not req:
            kw = {"neutral": True}
        out.append(L(D, q, v, fam, **kw))
assert len(out) == 13 * 4, len(out)  # 13 runs (8 + 5, two groups separated by a blank line)
# Not labelled: the timestamps (20241002151626 ... : dates), 'Meta-Llama-3.1-8B' (name), quant names
# (float8wo, float8dq-row, autoquant-float8), booleans, dtypes, and everything in the repro command
# (--num_samples 5, --max_new_tokens 200, --top_k 200, --temperature 0.8, the checkpoint path): code.
