from lib import L, cell, text
D = "trtllm-fp8-quantization.md"
C = dict(model="Llama-3.3-70B", hardware="4 x H100", engine="TensorRT-LLM")
ROWS = [
 ("| Token Throughput (tokens/sec)    |", "token_throughput", lambda v: v, {}),
 ("| Request Throughput (req/sec)     |", "request_throughput", lambda v: v, {}),
 ("| Average Time To First Token (ms) |", "latency", lambda v: round(v / 1000, 10), {"statistic": "mean"}),
 ("| Average Inter-Token Latency (ms) |", "latency", lambda v: round(v / 1000, 10), {"statistic": "mean"}),
]
out = [L(D, "split across 4 H100-sxm-80GB", 8e10, "memory", neutral=True, hardware="H100")]
# each table: list of value-columns (as written) per row, plus which trailing column is '% Improvement'
lines = text(D).split("\n")
def table_rows(first_row_index):
    return lines[first_row_index:first_row_index + 4]
starts = [i for i, l in enumerate(lines) if l.startswith("| Token Throughput (tokens/sec)")]
assert len(starts) == 7, len(starts)
for t, i in enumerate(starts):
    for r, line in enumerate(lines[i:i + 4]):
        key, fam, conv, extra = ROWS[r]
        assert line.startswith(key), line
        cells = [c.strip() for c in line.strip("|").split("|")][1:]
        pct_col = t >= 5  # the two conclusion tables end with a '% Improvement' column
        prefix_end = 0
        for k, c in enumerate(cells):
            # quote: the row up to the end of this cell's figure
            pos = line.find(c, prefix_end if prefix_end else len(key))
            prefix_end = pos + len(c)
            q = line[:prefix_end]
            if text(D).count(q) > 1:
                q = line[:prefix_end] + line[prefix_end:].split("|")[0] + "|"
            if pct_col and k == len(cells) - 1:
                out.append(L(D, q, float(c), "percent", **C))
            else:
                out.append(L(D, q, conv(float(c)), fam, **extra, **C))
# the one-column baseline table's rows are prefixes of the next table's rows: quote them with their line end
seen = set()
for o in out:
    if text(D).count(o["quote"]) > 1:
        if o["quote"] not in seen:
            seen.add(o["quote"])
            o["quote"] = o["quote"] + "\n"
        # the second occurrence (first cell of the KV-cache table) gets the cell's padding and the next cell
        else:
            lines_with = [l for l in lines if l.startswith(o["quote"]) and len(l) > len(o["quote"])]
            o["quote"] = lines_with[0][: len(o["quote"]) + 1]
    assert o["quote"] in text(D)
