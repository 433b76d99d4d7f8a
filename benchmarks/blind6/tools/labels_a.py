"""modelopt-benchmark.md: hand-written label decisions."""
from lib import L, col
D = "modelopt-benchmark.md"
out = []
# Table 1.1 (Config: H100; two header rows: precision group FP8 / INT4 AWQ above, metric names below).
# Batch Size is a setting (not labelled). Mem Saving and Speedup cells are ratios vs the FP16 baseline;
# Tokens/sec has no denominator in its header ("Speedup is normalized to the GPU count" concerns the
# Speedup column), so scope is left open. Continuation rows (empty Model cell) belong to the model above.
ROWS = [("337.67", "Llama3-8B", ["1.66x", "337.67", "1.39x", "2.37x", "392.99", "1.61x"]),
        ("2368.69", "Llama3-8B", ["1.56x", "2368.69", "1.66x", "1.86x", "2037.54", "1.43x"]),
        ("2404.86", "Llama3-8B", ["1.54x", "2404.86", "1.43x", "1.76x", "2308.57", "1.37x"]),
        ("64.35", "Llama3-70B", ["1.98x", "64.35", "2.11x", "3.49x", "77.36", "2.54x"]),
        ("391.73", "Llama3-70B", ["1.95x", "391.73", "3.03x", "2.94x", "479.11", "3.71x"]),
        ("383.42", "Llama3-70B", ["1.91x", "383.42", "2.41x", "2.46x", "348.65", "2.19x"])]
COLS = [3, 4, 5, 7, 8, 9]   # cells: 1 model, 2 batch, 3 mem saving, 4 tok/s, 5 speedup, 6 blank, 7-9 INT4 AWQ
for key, model, figs in ROWS:
    for n, f in zip(COLS, figs):
        q = col(D, key, n)
        assert q.endswith(f), (q, f)
        if f.endswith("x"):
            out.append(L(D, q, float(f[:-1]), "ratio", model=model, hardware="H100"))
        else:
            out.append(L(D, q, float(f), "token_throughput", model=model, hardware="H100"))
# Table 1.2 (MMLU loss %): accuracy, not labelled.
# Section 2: Stable Diffusion XL latency (ms -> s) and speedup columns, GPU from the row.
SD = "Stable Diffusion XL 1.0"
for gpu, figs in [("RTX 6000 Ada", ["2,479.19", "2,441.16", "1.43x", "1.45x"]),
                  ("RTX 4090", ["2,058.11", "2,161.38", "1.20x", "1.14x"]),
                  ("L40S", ["2,338.88", "2,167.82", "1.25x", "1.35x"])]:
    key = "|" + gpu.center(16) + "|"
    for n, f in zip([2, 3, 4, 5], figs):
        q = col(D, key, n)
        assert q.endswith(f), (q, f)
        if f.endswith("x"):
            out.append(L(D, q, float(f[:-1]), "ratio", model=SD, hardware=gpu))
        else:
            out.append(L(D, q, round(float(f.replace(",", "")) / 1000, 8), "latency", model=SD, hardware=gpu))
# Section 3 (QAT validation loss) and 4.2 (validation loss): quality, not labelled.
# Section 4.1: sparsity speedup per batch size (batch size is a setting).
out.append(L(D, "Config: NVIDIA H100 80GB GPU", 8e10, "memory", neutral=True))
for key, f, nth in [("|     32     |", "1.62x", 3), ("|     64     |", "1.52x", 3),
                    ("|     128    |", "1.35x", 1), ("|     896    |", "1.30x", 1)]:
    q = col(D, key, 2, nth)
    assert q.endswith(f), (q, f)
    out.append(L(D, q, float(f[:-1]), "ratio", model="Llama 2 70B", hardware="H100"))
# Not labelled: versions (v0.11.0, v0.9, v9.3, v4.0), image resolution 1024x1024, 30 steps,
# num-warmup-runs=1, batch sizes, TP/PP degrees, "4-bit", model names with sizes (Llama 2 7B / 70B).
