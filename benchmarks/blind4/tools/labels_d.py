from lib import L
D = "deepspeed-fp6-blog.md"
M = "LLaMA-70b"
out = [
 L(D, "the TC-FPx kernel demonstrates a 2.1-fold", 2.1, "ratio", statistic="mean", hardware="A100"),
 L(D, "a normalized inference throughput that is 1.69 to 2.65 times", 1.69, "ratio", high=2.65, model=M, hardware="A100"),
 L(D, "using FP6 quantization on two A100 GPUs-80G", 8e10, "memory", neutral=True),
 L(D, "and observed a *1.5x", 1.5, "ratio", model=M, hardware="2 x A100"),
 L(D, "reduction in inference latency and a *3.5x", 3.5, "ratio", model=M, hardware="2 x A100"),
 L(D, "LLaMA-70b fits on a single A100-80G", 8e10, "memory", neutral=True),
 L(D, "for LLaMA-2-70B model on 2xA100-80g", 8e10, "memory", neutral=True),
]
