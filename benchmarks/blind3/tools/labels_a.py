from lib import L, cell
D = "trtllm-cuda-graph-batch-sizes.md"
E = dict(engine="TensorRT-LLM")
R1, V32 = "DeepSeek-R1", "DeepSeek-V3.2"
out = [
 L(D, "can cause up to 50% padding waste", 50, "percent", comparator="<="),
 L(D, "reduces the maximum per-step padding from 1024", 1024, "tokens", neutral=True),
 L(D, "reduces the maximum per-step padding from 1024 to 63 tokens", 63, "tokens", neutral=True),
 L(D, "the +8 configuration reduces it to 7 tokens", 7, "tokens", neutral=True),
 L(D, "Benchmarks sweep a range of concurrency levels at fixed ISL=500", 500, "tokens", neutral=True),
 L(D, "Benchmarks sweep a range of concurrency levels at fixed ISL=500, OSL=2000", 2000, "tokens", neutral=True),
 L(D, "the +64 config improves TPS by **up to 1.3x**", 1.3, "ratio", comparator="<=", hardware="4 x GB200", **E),
 L(D, "DeepSeek-R1 shows the largest gains, reaching **up to 1.5x**", 1.5, "ratio", comparator="<=", model=R1, **E),
 L(D, "before stabilizing at 1.1x", 1.1, "ratio", model=R1, **E),
 L(D, "DeepSeek-V3.2 and Qwen3-235B achieve 1.08x–1.15x", 1.08, "ratio", high=1.15, **E),
 L(D, "as a one-trillion-parameter model", 1e12, "parameters", model="Kimi-K2"),
 L(D, "each CUDA graph adds approximately 10 MB", 1e7, "memory", comparator="~", model=R1),
 L(D, "therefore account for approximately **260 MB**", 2.6e8, "memory", comparator="~", model=R1),
 # startup table (capture / init times: durations, neutral like build times)
 L(D, cell(D, "| x2 (default) | 23 |", "10.77"), 10.77, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| x2 (default) | 23 |", "10.38"), 10.38, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| x2 (default) | 23 |", "183.62"), 183.62, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| +64 | 49 |", "25.90"), 25.90, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| +64 | 49 |", "25.39"), 25.39, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| +64 | 49 |", "215.13"), 215.13, "latency", neutral=True, model=R1, hardware="GB200"),
 L(D, cell(D, "| **Ratio** |", "2.1"), 2.1, "ratio", neutral=True),
 L(D, cell(D, "| **Ratio** |", "2.4", 1), 2.4, "ratio", model=R1, hardware="GB200"),
 L(D, cell(D, "| **Ratio** |", "2.4", 2), 2.4, "ratio", model=R1, hardware="GB200"),
 L(D, cell(D, "| **Ratio** |", "1.17"), 1.17, "ratio", model=R1, hardware="GB200"),
 L(D, "scales linearly with the number of graphs and increases by 2.4×", 2.4, "ratio", model=R1),
 L(D, "the end-to-end LLM server startup increases by only 1.17×", 1.17, "ratio", model=R1),
 L(D, "reduces the maximum padding per step above batch size 128 to at most 7 tokens", 7, "tokens", neutral=True, comparator="<="),
 L(D, "consume a total of **2.6 GB**", 2.6e9, "memory", model=R1),
 L(D, "than the 260 MB incurred by +64", 2.6e8, "memory", model=R1),
 L(D, "Experiments are conducted in disaggregated mode under the same ISL=500", 500, "tokens", neutral=True),
 L(D, "Experiments are conducted in disaggregated mode under the same ISL=500, OSL=2000", 2000, "tokens", neutral=True),
 L(D, "with DeepSeek-R1 gaining up to 1.15x", 1.15, "ratio", comparator="<=", model=R1, **E),
 L(D, "Qwen3 gaining up to 1.06x", 1.06, "ratio", comparator="<=", model="Qwen3", **E),
 L(D, "+8 underperforms +64 by up to 5%", 5, "percent", comparator="<=", model=V32, **E),
]
# KV cache table: columns V3.2 +8 | V3.2 +64 | R1 +8 | R1 +64
for key, figs, fam, conv in [
    ("| KV cache max\\_tokens |", ["543,219", "655,758", "603,860", "660,491"], "tokens", lambda s: float(s.replace(",", ""))),
    ("| KV cache GPU memory |", ["23.46 GB", "28.32 GB", "21.22 GB", "23.21 GB"], "memory", lambda s: float(s.split()[0]) * 1e9),
]:
    for fig, m in zip(figs, [V32, V32, R1, R1]):
        out.append(L(D, cell(D, key, fig), conv(fig), fam, model=m))
out += [
 L(D, cell(D, "| KV cache token reduction |", "17.2%"), -17.2, "percent", model=V32),
 L(D, cell(D, "| KV cache token reduction |", "8.6%"), -8.6, "percent", model=R1),
 L(D, cell(D, "| KV cache memory reduction |", "4.86 GB"), 4.86e9, "memory", model=V32),
 L(D, cell(D, "| KV cache memory reduction |", "1.99 GB"), 1.99e9, "memory", model=R1),
 L(D, "DeepSeek-V3.2's 210 additional graphs (over +64) consume 4.86 GB", 4.86e9, "memory", model=V32),
 L(D, "compared to 1.99 GB", 1.99e9, "memory", model=R1),
 L(D, "V3.2's CUDA graphs thus consume 2.4×", 2.4, "ratio", model=V32),
 L(D, "reduces the KV cache token capacity by 17.2%", 17.2, "percent", model=V32),
 L(D, "versus 8.6% for R1", 8.6, "percent", model=R1),
 L(D, "Under our experimental settings (ISL=500", 500, "tokens", neutral=True),
 L(D, "Under our experimental settings (ISL=500, OSL=2000", 2000, "tokens", neutral=True),
 L(D, "the +64 config achieves up to 1.3× output throughput in aggregated mode", 1.3, "ratio", comparator="<=", **E),
 L(D, "and up to 1.5× in disaggregated mode", 1.5, "ratio", comparator="<=", **E),
 L(D, "adding approximately 260 MB of GPU memory", 2.6e8, "memory", comparator="~"),
 L(D, "increasing server startup time by 1.17×", 1.17, "ratio", model=R1),
]
