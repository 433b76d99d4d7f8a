"""lightllm-performance.rst (reStructuredText grid table): hand-written label decisions."""
from lib import L
D = "lightllm-performance.rst"
C = dict(model="LLaMA-7B", hardware="A800")
out = [
 # GPU memory capacity of the test GPU ('80G' read as 80 GB, decimal): hardware spec, neutral
 L(D, "using an A800 with 80G", 80e9, "memory", neutral=True),
 # Grid table, engine in the column header. 'Total time' of the 2000-prompt run: unit not written (*Silent*:
 # seconds assumed, as printed by benchmark_serving.py); it is the compared result, so required.
 L(D, "| Total time: 361.79", 361.79, "latency", **C),
 L(D, "| Total time: 361.79| Total time: 188.85", 188.85, "latency", **C),
 # 'Throughput: 5.53' with its unit 'requests/s' on the continuation line of the same grid cell
 L(D, "| Throughput: 5.53", 5.53, "request_throughput", **C),
 L(D, "| Throughput: 5.53  | Throughput: 10.59", 10.59, "request_throughput", **C),
]
# Not labelled: vLLM==0.1.2 (version), LLaMA-7B / llama-7b (name), code lines (--tp 1,
# --max_total_token_num 121060, --num-prompts 2000, --request-rate 200), URL.
