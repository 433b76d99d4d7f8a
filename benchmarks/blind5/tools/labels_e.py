"""llamacpp-token-gen-perf-tips.md: hand-written label decisions."""
from lib import L, cell
D = "llamacpp-token-gen-perf-tips.md"
C = dict(model="Wizard-Vicuna-30B", hardware="A6000")
out = [
 # example diagnostic output of a run: fair to extract or to skip
 L(D, "total VRAM used: 17223 MB", 1.7223e10, "memory", neutral=True),
 L(D, "GPU: A6000 (48GB VRAM)", 4.8e10, "memory", neutral=True),
 L(D, "RAM: 32GB", 3.2e10, "memory", neutral=True),
 L(D, "(30B parameters", 3e10, "parameters"),
 L(D, "| -ngl 2000000 | N/A (less than 0.1)", 0.1, "token_throughput", comparator="<", **C),
 L(D, "| -t 7 | 1.7", 1.7, "token_throughput", **C),
 L(D, "| -t 1 -ngl 2000000 | 5.5", 5.5, "token_throughput", **C),
 L(D, "| -t 7 -ngl 2000000 | 8.7", 8.7, "token_throughput", **C),
 L(D, "| -t 4 -ngl 2000000 | 9.1", 9.1, "token_throughput", **C),
]
# Not labelled: -ngl / -t / -n flag values (settings), "60 layers" (count), "7 physical cores".
