"""trtllm-adp-balance-blog.md (NVIDIA/TensorRT-LLM tech blog 10, ADP Balance Strategy): comparisons with
a baseline and direction ('31% throughput improvement', '1.31x speedup', '35% efficiency loss', '54% ->
87%'), a pipe table with a percent column, a theoretical 'SOL TPS' column and a '1.00x' baseline cell,
conditions in a setup section (8 x GB200, DeepSeek V3, DP/EP size 8, dataset lengths), LaTeX formulas,
a worked hypothetical scenario, iteration counts and configuration values (timeout_iters=50,
batching_wait_iters=10). Hand-written label decisions."""
from lib import L, col
D = "trtllm-adp-balance-blog.md"
C = dict(model="DeepSeek V3", hardware="8 x GB200")   # 'Hardware and Model Configuration' section
out = []
# --- Motivation, formulas, scheduling strategies ---
# LaTeX ($0 \leq m < N$, i=0, \infty), section numbers ('#### 1. Balance Ratio'), 'Figure 1': not labelled.
# The simplified scenario (M ongoing requests, N new requests, 'Balance ratio: 1.0 (perfect balance)',
# 'N-1', the iter_i text blocks) is a worked hypothetical -> not labelled.
# --- Setting ---
# '16,000 inference requests' / '16,000 total requests': counts -> not labelled.
# average input / output lengths of the dataset: workload statistics -> neutral tokens (mean)
out += [
    L(D, "**Average input length**: 803", 803, "tokens", statistic="mean", neutral=True),
    L(D, "**Average output length**: 3,653", 3653, "tokens", statistic="mean", neutral=True),
]
# '8 x GB200 GPUs' (hardware count, a condition), DP size = 8, EP size = 8 (settings): not labelled.
# --- Performance Summary table ---
# Actual TPS: measured token throughput of the 8-GPU system (no 'total' / 'per GPU' wording -> scope
# open). Avg Balance Ratio: measured, percent, mean. SOL TPS: the theoretical upper bound computed from
# the measurement ('Theoretical maximum throughput under perfect load balance') -> neutral.
# Speedup: ratio against the round-robin baseline; the baseline's '1.00x' is not labelled.
rows = [("| Baseline |", 25664, 54.11, 39552, None),
        ("| ADP Balance (Context Wait) |", 33499, 84.33, 38312, 1.31),
        ("| ADP Balance (Full Strategy) |", 34140, 87.70, 37912, 1.33)]
for key, tps, bal, sol, sp in rows:
    out += [
        L(D, col(D, key, 2), tps, "token_throughput", **C),
        L(D, col(D, key, 3), bal, "percent", statistic="mean", **C),
        L(D, col(D, key, 4), sol, "token_throughput", neutral=True),
    ]
    if sp:
        out.append(L(D, col(D, key, 5), sp, "ratio", **C))
# --- Key observations ---
out += [
    L(D, "delivers a substantial **31", 31, "percent", **C),
    L(D, "achieves **33", 33, "percent", **C),
    # the balance ratio of the full strategy again, and the rounded before/after pair
    L(D, "near-optimal balance (87.70", 87.70, "percent", **C),
    L(D, "Balance ratio improvement: **54", 54, "percent", **C),
    L(D, "Balance ratio improvement: **54% → 87", 87, "percent", **C),
]
# Note paragraph: no figure. 'values approaching 1.0 ... values near 0.0': explanation of the scale,
# not labelled.
# --- Baseline performance ---
# 'first 12,000 iterations', 'After iteration 12,000', '[100-12,000]', 'iterations 100-12,000' in the
# figure captions: iteration counts / ranges -> not labelled.
out += [
    L(D, "**Performance gap**: SOL TPS of 39,552", 39552, "token_throughput", neutral=True),
    L(D, "vs. actual TPS of 25,664", 25664, "token_throughput", **C),
    L(D, "reveals a **35", 35, "percent", **C),
    # balance ratio as a fraction: an observation of the baseline run, unitless -> neutral ratio
    L(D, "frequently drops to **0.4", 0.4, "ratio", comparator="<=", neutral=True),
    L(D, "indicating 60", 60, "percent", comparator=">=", **C),
    # a theoretical potential, like SOL TPS -> neutral
    L(D, "Theoretical improvement potential of **70.23", 70.23, "percent", neutral=True),
]
# --- Context Wait ---  ('timeout_iters=50': configuration, not labelled)
out += [
    L(D, "- **Throughput**: 33,499", 33499, "token_throughput", **C),
    L(D, "- **Throughput**: 33,499 TPS (1.31", 1.31, "ratio", **C),
    L(D, "- **Balance improvement**: 84.33", 84.33, "percent", statistic="mean", **C),
    L(D, "(vs. 54.11", 54.11, "percent", statistic="mean", **C),
    L(D, "theoretical SOL TPS (38,312", 38312, "token_throughput", neutral=True),
]
# --- Full strategy --- ('timeout_iters=50' + 'batching_wait_iters=10' and the YAML block: configuration)
# 'Peak throughput' names the best configuration's throughput, not a peak over time: no statistic.
out += [
    L(D, "- **Peak throughput**: 34,140", 34140, "token_throughput", **C),
    L(D, "- **Peak throughput**: 34,140 TPS (1.33", 1.33, "ratio", **C),
    L(D, "- **Optimal balance**: 87.70", 87.70, "percent", statistic="mean", **C),
    L(D, "Actual TPS (34,140", 34140, "token_throughput", **C),
    L(D, "approaches SOL TPS (37,912", 37912, "token_throughput", neutral=True),
    L(D, "**Maximum throughput improvement**: 33", 33, "percent", **C),
    L(D, "**Near-optimal load balancing**: 87.70", 87.70, "percent", statistic="mean", **C),
]
# Pareto analysis: 'TPS per GPU', 'Figure 7', numbered findings: no figure.
# --- Conclusion ---
out += [
    L(D, "- **33", 33, "percent", **C),
    L(D, "From 25,664", 25664, "token_throughput", **C),
    L(D, "From 25,664 to 34,140", 34140, "token_throughput", **C),
    L(D, "- **87", 87, "percent", **C),
    L(D, "Dramatic improvement from 54", 54, "percent", **C),
]
