"""marlin-readme.md: hand-written label decisions (prose document; its only table is quality)."""
from lib import L, col
D = "marlin-readme.md"
out = [
 L(D, "can deliver close to ideal (4x)", 4, "ratio", comparator="~"),
 # batch sizes expressed in tokens: workload settings
 L(D, "speedups up to batchsizes of 16-32 tokens", 16, "tokens", high=32, neutral=True),
 L(D, "the 1-2 tokens of prior work", 1, "tokens", high=2, neutral=True),
 # hardware arithmetic intensity of "most modern GPUs": a general property, fair to extract or skip
 L(D, "FLOP to byte ratios of around 100-200", 100, "ratio", high=200, comparator="~", neutral=True),
 # theoretical reasoning ("should (theoretically) be possible", "should, in principle")
 L(D, "maintain near ideal 4x speedup over FP16 weights", 4, "ratio", comparator="~", neutral=True),
 L(D, "extend to batchsizes 4-8x larger", 4, "ratio", high=8, neutral=True),
 # measured kernel comparison on an A10 (groupsize 128)
 L(D, "relatively close to the optimal 3.87x", 3.87, "ratio", comparator="~", hardware="A10"),
 L(D, "note the 0.125 bits storage overhead", 0.015625, "memory", neutral=True),
 L(D, "enabling the maximum possible 3.87x speedup", 3.87, "ratio", hardware="A10"),
 L(D, "will be 10-15% lower", 10, "percent", high=15, hardware="A10"),
]
# Perplexity / MMLU table: quality, not labelled; its size column gives parameter counts of the
# evaluated Llama2 checkpoints (neutral, as model-size columns elsewhere).
for size, v in [("7B", 7e9), ("13B", 1.3e10), ("70B", 7e10)]:
    q = col(D, "| " + size + " ", 1)
    out.append(L(D, q, v, "parameters", model="Llama2", neutral=True))
# Not labelled: "less than 25-50 (tensor core) multiply-accumulates per 4-bit quantized weight"
# (arithmetic bound), batchsize 1 / 16 / "around 16-32" (settings), groupsize 128, "not 100% identical",
# versions (CUDA >= 11.8, compute capability >= 8.0, torch>=2.0.0, lm-eval-harness==0.4.0), "4-bit",
# "FP16xINT4", --wbits 4, citation year.
