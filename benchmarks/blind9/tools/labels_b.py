"""dynamo-planner-load-test.md (ai-dynamo/dynamo tests/planner/README.md): SLA targets next to the
estimates that meet them. The planner's TTFT / ITL targets appear as command flags, as an echoed input
line and as 'target TTFT=0.100s' inside the result lines; the estimates beside them are the figures.
Per-GPU throughput written as 'tokens/s/gpu' and 'token/s/gpu', request rates that 'saturate one GPU',
an operating point in percent, settings (ISL/OSL, max context length, offered load of the test phases).
Hand-written label decisions."""
from lib import L
D = "dynamo-planner-load-test.md"
M = "Llama-3.1-8B-Instruct-FP8"
C = dict(model=M, hardware="H200")
out = [
    # 'every 60 seconds (default adjustment interval)': a configuration value of the planner, not a
    # measurement -> not labelled. Copyright year, SPDX id: not labelled.
    # --- Option A: one sentence with settings and four results ---
    # max context length of the deployment: a configured context window -> neutral
    L(D, "with max context length 16384", 16384, "tokens", neutral=True),
    # ISL/OSL 3000/150: workload settings -> neutral
    L(D, "At ISL/OSL 3000", 3000, "tokens", neutral=True),
    L(D, "At ISL/OSL 3000/150", 150, "tokens", neutral=True),
    # results: per-GPU throughput ('tokens/s/gpu') with the latency at which it is reached
    L(D, "it achieves 40k tokens/s/gpu", 40000, "token_throughput", scope="per_gpu", **C),
    L(D, "prefill with 80ms", 0.080, "latency", **C),
    L(D, "and 10k tokens/s/gpu", 10000, "token_throughput", scope="per_gpu", **C),
    L(D, "decode with 10ms", 0.010, "latency", **C),
    # --- Interpolator example ---
    # command flags (--isl 3000 --osl 150 --ttft 0.1 --itl 0.01): code, not labelled.
    # Echoed inputs in the output block: ISL/OSL settings -> neutral; 'TTFT=0.1s, ITL=0.01s' are the SLA
    # targets given to the tool (targets, not measurements) -> not labelled.
    L(D, "> ISL=3000", 3000, "tokens", neutral=True),
    L(D, "> ISL=3000, OSL=150", 150, "tokens", neutral=True),
    # estimates from the profiled data: figures of the system (required); the 'target TTFT=0.100s' and
    # 'target ITL=0.0100s' beside them are SLA thresholds -> not labelled
    L(D, "Estimated TTFT=0.027s", 0.027, "latency", **C),
    # the queueing budget left under the SLA (target minus estimate): derived, in doubt -> neutral
    L(D, "Requests can queue 0.073s", 0.073, "latency", comparator="<=", neutral=True),
    L(D, "Estimated throughput: 110893.48", 110893.48, "token_throughput", scope="per_gpu", **C),
    # requests/s that saturate one GPU: a per-GPU request capacity
    L(D, "Request rate at 36.96", 36.96, "request_throughput", scope="per_gpu", **C),
    # worked arithmetic of the settings (isl + osl/2 = 3075) -> neutral (a workload figure)
    L(D, "isl + osl/2 = 3075", 3075, "tokens", neutral=True),
    L(D, "Estimated ITL=0.0098s", 0.0098, "latency", **C),
    # the operating point of the estimate (share of KV cache in use): a condition -> neutral
    L(D, "at 33.33%", 33.33, "percent", neutral=True),
    L(D, "Estimated throughput: 10226.60", 10226.60, "token_throughput", scope="per_gpu", **C),
    L(D, "Request rate at 68.18", 68.18, "request_throughput", scope="per_gpu", **C),
    # --- Test scenario: offered loads and workload of the scaling test -> neutral ---
    # '2 prefill workers, 1 decode worker', '1P1D' / '2P1D': counts, not labelled
    L(D, "- **Phase 1**: 10", 10, "request_throughput", neutral=True),
    L(D, "- **Phase 2**: 20", 20, "request_throughput", neutral=True),
    L(D, "- **ISL/OSL**: 3000", 3000, "tokens", neutral=True),
    L(D, "- **ISL/OSL**: 3000/150", 150, "tokens", neutral=True),
]
