"""trtllm-tuning-batch-size.md: hand-written label decisions."""
from lib import L, cell
D = "trtllm-tuning-batch-size.md"
C = dict(model="Llama-3.3-70B", hardware="4 x H100")
out = []
ROWS = [
    ("| Token Throughput (tokens/sec)    |", "token_throughput", 1, {}),
    ("| Request Throughput (req/sec)     |", "request_throughput", 1, {}),
    ("| Average Time To First Token (ms) |", "latency", 1e-3, {"statistic": "mean"}),
    ("| Average Inter-Token Latency (ms) |", "latency", 1e-3, {"statistic": "mean"}),
]
def table(nth, cols):
    """cols: per row, the figure cells in order; a cell given as ('pct', fig) is a % Improvement cell."""
    for (key, fam, mult, kw), figs in zip(ROWS, cols):
        for f in figs:
            if isinstance(f, tuple):
                out.append(L(D, cell(D, key, f[1], 1, nth), float(f[1]), "percent", **C))
            else:
                out.append(L(D, cell(D, key, f, 1, nth), round(float(f) * mult, 10), fam, **kw, **C))
# Table 1: max batch size sweep (64 / 512 / 2048)
table(1, [["1944.3031", "2466.7933", "2044.2628"], ["0.9494", "1.2045", "0.9982"],
          ["145.7607", "147.7876", "146.6628"], ["14.6475", "14.6554", "14.4493"]])
out.append(L(D, "boosting throughput by almost 20%", 20, "percent", comparator="~"))
# Table 2: max num tokens sweep (2048 / 8192 / 16384)
table(2, [["2474.2581", "2466.7933", "2461.0165"], ["1.2081", "1.2045", "1.2017"],
          ["147.5742", "147.7876", "147.9623"], ["14.6852", "14.6554", "14.6769"]])
# Table 3: build-time flags ON vs tuned, % Improvement
table(3, [["2044.2628", "2474.2581", ("pct", "21.03")], ["0.9982", "1.2081", ("pct", "21.03")],
          ["146.6628", "147.5742", ("pct", "-0.62")], ["14.4493", "14.6852", ("pct", "-1.63")]])
# Table 4: initial baseline vs tuned, % Improvement
table(4, [["1564.3040", "2474.2581", ("pct", "58.17")], ["0.7638", "1.2081", ("pct", "58.17")],
          ["147.6976", "147.5742", ("pct", "0.08")], ["31.3276", "14.6852", ("pct", "53.12")]])
# Not labelled: toy scheduler example (max batch size = 4, max num tokens = 12, 5-token prompts),
# defaults and sweep values of max batch size / max num tokens (configuration), code.
