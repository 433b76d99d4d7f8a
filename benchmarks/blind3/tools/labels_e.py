from lib import L, cell, text
D = "sglang-vs-vllm060-benchmark.md"
out = [
 L(D, "the Median TTFT of vLLM is **3 times**", 3, "ratio", statistic="median", engine="vLLM"),
 L(D, "the Median ITL is **10 times**", 10, "ratio", statistic="median", engine="vLLM"),
]
lines = text(D).split("\n")
heads = [i for i, l in enumerate(lines) if l.startswith("### Llama 3.1")]
assert len(heads) == 4
for n, i in enumerate(heads):
    h = lines[i]
    model = "Llama 3.1 8B Instruct" if "8B" in h else "Llama 3.1 70B Instruct"
    hw = "1 x A100" if "A100" in h else "4 x H100"
    # GPU memory capacity in the heading ('A100 80G'): neutral, as in the earlier sets
    out.append(L(D, h, 8e10, "memory", neutral=True, hardware=hw.split(" x ")[1]))
    j = i + 4  # first data row
    while j < len(lines) and lines[j].startswith("|"):
        row = lines[j]
        cells = [c.strip() for c in row.strip("|").split("|")]
        engine = cells[2]
        figs = cells[3:]
        pos = len("|".join(row.split("|")[:4]))  # after the Engine cell
        for k, c in enumerate(figs):
            fig = c.strip("*")
            p = row.find(fig, pos)
            pos = p + len(fig)
            q = row[:pos]
            if text(D).count(q) > 1:
                q = row
            v = float(fig)
            if n < 2:  # online tables: Median E2E / TTFT / TPOT / ITL, no unit written (bench_serving ms)
                out.append(L(D, q, round(v / 1000, 10), "latency", statistic="median", neutral=True,
                             model=model, hardware=hw, engine=engine))
            else:      # offline tables: Request throughput, Output token throughput
                fam = "request_throughput" if k == 0 else "token_throughput"
                out.append(L(D, q, v, fam, model=model, hardware=hw, engine=engine))
        j += 1
