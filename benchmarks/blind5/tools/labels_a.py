"""deepspeed-triton-blog.md: hand-written label decisions."""
from lib import L, cell
D = "deepspeed-triton-blog.md"
out = [
 L(D, "DeepSpeed can achieve 1.14-1.68x performance gain", 1.14, "ratio", high=1.68),
 L(D, "average latency reduction of 12-41%", 12, "percent", high=41, statistic="mean"),
]
# Table 1 (caption: "The average performance gain when compared to the baseline"): one ratio per cell
models = ["Bert-base", "Bert-large", "Roberta-base", "Roberta-large"]
for hw, figs in [("A100", ["1.65x", "1.68x", "1.53x", "1.61x"]), ("V100", ["1.29x", "1.14x", "1.23x", "1.21x"])]:
    for m, f in zip(models, figs):
        out.append(L(D, cell(D, "| %s |" % hw, f), float(f[:-1]), "ratio", statistic="mean", model=m, hardware=hw))
out += [
 L(D, "reduce the average (over difference sequence lengths) latency by 6-24%", 6, "percent", high=24, statistic="mean"),
 # workload settings (query lengths of the benchmark)
 L(D, "sequence length in query ranged from 8 to 512", 8, "tokens", high=512, neutral=True),
 L(D, "(i.e., 8~512)", 8, "tokens", high=512, neutral=True),
]
