"""trtllm-skip-softmax-blog.md (NVIDIA/TensorRT-LLM tech blog 16, Skip Softmax Attention): kernel tables
whose unit is the column header (TFLOP/s, TB/s, 'Duration µs' -- microseconds), the sequence length
('16k' / '64k', a context size that is a condition) and precision per row, end-to-end tables with the
GPU in the header parentheses ('TTFT/ms (H200)') and the workload in the bold heading above ('avg
ISL=10k, OSL=6') and concurrency in the sentence below; a configuration table (target sparsity ->
threshold scale factor) and an accuracy table that are not performance; an HTML <table> holding only
images (style widths in px and %); code with flags. Hand-written label decisions."""
from lib import L, col, text
D = "trtllm-skip-softmax-blog.md"
MODEL = "Qwen3-30B-A3B-Instruct-2507"
out = []
# Method overview: LaTeX, arXiv ids (2502.14051, 2512.12087), 'DeepSeek-V3.2-Exp': not labelled.
# HTML style attributes ('width: 50%', '300px'): not labelled.
# Example usage: threshold_scale_factor 1000.0 / 500.0 in code: not labelled.
# Calibrated threshold table (target sparsity -> threshold scale factor): configuration values, not
# performance -> not labelled.
# Accuracy evaluation: dataset statistics and the truncation length -> neutral tokens
out += [
    L(D, "average sequence length of 10k", 10000, "tokens", statistic="mean", neutral=True),
    L(D, "truncate the prompt length to 256k", 256000, "tokens", neutral=True),
    L(D, "The average sequence length of LongBench V2 is 130k", 130000, "tokens", statistic="mean", neutral=True),
]
# Accuracy table (LongBench overall accuracy): quality scores -> not labelled. '(~200)', '(~5000
# samples)': sample counts -> not labelled.
# Kernel micro-benchmark configuration: q_heads=64, kv_heads=4, head_dim=128 (model-shape settings, not
# labelled); seqlen=16k/64k (sequence lengths: settings -> neutral tokens); batch sizes 1 and 64 (not
# labelled).
out += [
    L(D, "head_dim=128, seqlen=16k", 16000, "tokens", neutral=True),
    L(D, "head_dim=128, seqlen=16k/64k", 64000, "tokens", neutral=True),
]
# Prefill baseline: TFLOP/s -> compute (FLOP/s); Duration µs -> latency (s). Decode baseline: TB/s ->
# bandwidth (bytes/s, decimal). Seqlen cells -> neutral tokens. Hardware from the GPU column. No model
# (attention-kernel micro-benchmark with the configs above); scope open (single kernel on one GPU).
PRE = [("H200", "16k", "BF16", 594.05, 7403), ("H200", "16k", "FP8 ", 852.81, 5157),
       ("H200", "64k", "BF16", 610.30, 115301), ("H200", "64k", "FP8 ", 873.60, 80550),
       ("B200", "16k", "BF16", 1029.13, 4273), ("B200", "16k", "FP8 ", 1523.57, 2886),
       ("B200", "64k", "BF16", 1038.26, 67775), ("B200", "64k", "FP8 ", 1621.41, 43399)]
DEC = [("H200", "16k", "BF16", 4.31, 498), ("H200", "16k", "FP8 ", 4.03, 266),
       ("H200", "64k", "BF16", 4.37, 1962), ("H200", "64k", "FP8 ", 4.10, 1045),
       ("B200", "16k", "BF16", 7.08, 303), ("B200", "16k", "FP8 ", 5.46, 196),
       ("B200", "64k", "BF16", 7.10, 1209), ("B200", "64k", "FP8 ", 5.68, 755)]
for nth, rows, fam, scale in ((1, PRE, "compute", 1e12), (2, DEC, "bandwidth", 1e12)):
    for gpu, seq, prec, v, dur in rows:
        key = f"| {gpu} | {seq} | {prec} |"
        out += [
            L(D, col(D, key, 2, nth_line=nth), int(seq[:-1]) * 1000, "tokens", neutral=True),
            L(D, col(D, key, 4, nth_line=nth), v * scale, fam, hardware=gpu),
            L(D, col(D, key, 5, nth_line=nth), dur * 1e-6, "latency", hardware=gpu),
        ]
# End-to-end: single H200 or B200, model Qwen3-30B-A3B-Instruct-2507; TTFT / TPOT in ms (header);
# workload in the bold heading (avg ISL / OSL -> neutral tokens); concurrency 64 / 1 in the sentence
# under each table (a setting, not labelled). The 'Target Sparsity' column is a setting (not labelled).
# No statistic is named (the tables do not say mean or median).
out += [
    L(D, "**LongBench V1, avg ISL=10k", 10000, "tokens", statistic="mean", neutral=True),
    L(D, "**LongBench V1, avg ISL=10k, OSL=6", 6, "tokens", neutral=True),
]
V1 = [(0.0, 9419.61, 1731.80, 4854.55, 928.45), (0.1, 9519.40, 1746.73, 4758.06, 909.08),
      (0.2, 9417.36, 1729.74, 4794.23, 916.64), (0.3, 9304.48, 1711.27, 4770.26, 913.51),
      (0.4, 9139.85, 1684.78, 4672.09, 896.25), (0.5, 8847.43, 1633.08, 4548.07, 873.80),
      (0.6, 8437.45, 1560.64, 4459.08, 858.60), (0.7, 8134.72, 1508.60, 4385.12, 846.64),
      (0.8, 8107.73, 1507.82, 4348.80, 831.88), (0.9, 8130.39, 1516.16, 4150.44, 798.93)]
V2 = [(0.0, 16486.70, 9.34, 6990.59, 6.30), (0.1, 16487.54, 8.61, 7024.50, 6.30),
      (0.2, 16169.69, 8.61, 6687.21, 6.34), (0.3, 15750.17, 8.46, 6616.12, 6.33),
      (0.4, 15288.68, 8.61, 6432.32, 6.27), (0.5, 14554.04, 8.45, 6193.92, 6.29),
      (0.6, 14323.08, 8.44, 5966.53, 6.32), (0.7, 13871.32, 8.42, 5769.19, 6.31),
      (0.8, 12922.99, 8.58, 5605.66, 6.23), (0.9, 12507.95, 8.58, 5276.67, 6.29)]
HW = ["H200", "H200", "B200", "B200"]
for nth, rows in ((1, V1), (2, V2)):
    if nth == 2:
        out += [
            L(D, "**LongBench V2, avg ISL=130k", 130000, "tokens", statistic="mean", neutral=True),
            L(D, "**LongBench V2, avg ISL=130k, OSL=200", 200, "tokens", neutral=True),
        ]
    for sp, *ms in rows:
        key = f"| {sp:.1f}            |"
        for i, v in enumerate(ms):
            q = col(D, key, 2 + i, nth_line=nth)
            assert q.endswith(f"{v:.2f}"), (q, v)
            out.append(L(D, q, v / 1000, "latency", model=MODEL, hardware=HW[i]))
# Reproduction: YAML and command lines (free_gpu_memory_fraction 0.8, --max_num_tokens 100000 / 262144,
# --max_input_length 256000, '# Truncate the prompt length to 256k' in a code comment, --concurrency):
# code, not labelled.
# Conclusion: a ceiling of the kernel-level gain -> ratio, '<='
out.append(L(D, "the performance gain is capped to 1.8", 1.8, "ratio", comparator="<="))
