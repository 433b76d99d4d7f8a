"""deepspeed-inference-kernels-post.md: hand-written label decisions (document has CRLF line endings)."""
from lib import L
D = "deepspeed-inference-kernels-post.md"
out = [
 L(D, "we improve the performance by 1.5x", 1.5, "ratio"),
 L(D, "1.5x, 2.9x", 2.9, "ratio"),
 L(D, "2.9x. 3x", 3, "ratio"),
 L(D, "3x, and 1.2x for all these kernel-fusions", 1.2, "ratio"),
 L(D, "increases in per-GPU throughput by 2 to 4 times", 2, "ratio", high=4),
 L(D, "throughput improvement of 3x for GPT-2", 3, "ratio", model="GPT-2"),
 L(D, "5x for Turing-NLG", 5, "ratio", model="Turing-NLG"),
 L(D, "and 3x for a model that is similar in characteristics and size to GPT-3", 3, "ratio"),
 L(D, "3–5x inference cost reduction", 3, "ratio", high=5),
 L(D, "DeepSpeed Inference achieves 3x to 5x higher throughput than baseline", 3, "ratio", high=5),
 L(D, "we use 2x less GPUs", 2, "ratio"),
 L(D, "for the 17B model size", 1.7e10, "parameters"),
 L(D, "we use 4x and 2x fewer GPUs", 4, "ratio"),
 L(D, "4x and 2x fewer GPUs", 2, "ratio"),
 L(D, "fewer GPUs for 17B", 1.7e10, "parameters"),
 L(D, "17B and 175B sizes", 1.75e11, "parameters"),
]
# the latency paragraph appears twice in the document: one line per mention
for _ in range(2):
    out += [
     L(D, "we can reduce the latency by 2.3x compared to PyTorch", 2.3, "ratio"),
     L(D, "We obtain 1.3x", 1.3, "ratio"),
     L(D, "1.3x and 1.9x speedups", 1.9, "ratio"),
     L(D, "while using 4x", 4, "ratio"),
     L(D, "4x and 2x lower resources than baseline", 2, "ratio"),
    ]
out += [
 L(D, "Inference latency for the 17B model", 1.7e10, "parameters"),
]
# Not labelled: "by half" (no figure), model-parallelism size 4 (setting), front-matter date.
