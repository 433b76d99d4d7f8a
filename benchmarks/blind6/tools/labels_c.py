"""chatglm-cpp-readme.md: hand-written label decisions."""
from lib import L, col
D = "chatglm-cpp-readme.md"
out = [
 L(D, "measured on a V100-SXM2-32GB GPU", 3.2e10, "memory", neutral=True),   # GPU memory capacity
]
# Two TRANSPOSED tables (metric names in the first column, quantization types as column headers).
# ms/token -> seconds per token (latency); file size / mem usage -> memory (GB decimal).
# Hardware from the row label; model from the caption line above each table.
HW = {"CPU": "Platinum 8260", "CUDA": "V100 SXM2", "MPS": "M2 Ultra"}
def table(nth, model, rows):
    for key, fam, figs in rows:
        hw = None
        for k, v in HW.items():
            if "(" + k + " @" in key:
                hw = v
        for n, f in enumerate(figs, start=2):
            if f == "N/A":
                continue
            q = col(D, key, n, nth)
            assert q.endswith(f), (q, f)
            kw = {"model": model}
            if hw:
                kw["hardware"] = hw
            if fam == "latency":
                out.append(L(D, q, round(float(f) / 1000, 8), "latency", **kw))
            else:
                out.append(L(D, q, round(float(f[:-2]) * 1e9), "memory", **kw))
table(1, "ChatGLM-6B", [
    ("| ms/token (CPU @ Platinum 8260) |", "latency", ["74", "77", "86", "89", "114", "189", "357"]),
    ("| ms/token (CUDA @ V100 SXM2)    |", "latency", ["10.0", "9.8", "10.7", "10.6", "14.6", "19.8", "34.2"]),
    ("| file size                      |", "memory", ["3.3GB", "3.7GB", "4.0GB", "4.4GB", "6.2GB", "12GB", "23GB"]),
    ("| mem usage                      |", "memory", ["4.0GB", "4.4GB", "4.7GB", "5.1GB", "6.9GB", "13GB", "24GB"]),
])
table(2, "ChatGLM2-6B", [
    ("| ms/token (CPU @ Platinum 8260) |", "latency", ["64", "71", "79", "83", "106", "189", "372"]),
    ("| ms/token (CUDA @ V100 SXM2)    |", "latency", ["9.7", "9.4", "10.3", "10.2", "14.0", "19.1", "33.0"]),
    ("| file size                      |", "memory", ["3.3GB", "3.7GB", "4.0GB", "4.4GB", "6.2GB", "12GB", "24GB"]),
    ("| mem usage                      |", "memory", ["3.4GB", "3.8GB", "4.1GB", "4.5GB", "6.2GB", "12GB", "23GB"]),
])
# MPS row exists only in the ChatGLM2-6B table
table(1, "ChatGLM2-6B", [
    ("| ms/token (MPS @ M2 Ultra)      |", "latency", ["11.0", "11.7", "N/A", "N/A", "N/A", "32.1", "N/A"]),
])
# Not labelled: thread counts (16 threads, 1 thread), CPU clock 2.40GHz, quantization bit widths
# (4-bit, 5-bit, 8-bit), model names (ChatGLM-6B, ChatGLM2-6B, codegeex2-6b), versions, code.
