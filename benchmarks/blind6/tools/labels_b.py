"""datatrove-dataforge-readme.md: hand-written label decisions."""
from lib import L, col
D = "datatrove-dataforge-readme.md"
out = [
 # the target rate that defines the GPUs/1B/h column: a workload target, not a measurement
 L(D, "generate 1 billion tokens per hour", 1e9 / 3600, "token_throughput", neutral=True),
]
# Model Lineup table: TP/PP are settings; "Input TPS/GPU" and "Output TPS/GPU" fix the per-GPU scope in
# the header. GPUs/1B/h (GPUs needed for 1B tokens per hour) is a count of GPUs derived from the
# throughput, which no claim family covers: not labelled. No hardware is named anywhere.
ROWS = [("google/gemma-3-1b-it", "2565", "16616"), ("Qwen/Qwen3-1.7B", "2523", "15397"),
        ("google/gemma-3-4b-it", "760", "5427"), ("Qwen/Qwen3-4B-Thinking-2507", "942", "7038"),
        ("openai/gpt-oss-20b", "1330", "6962"),
        ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "1253", "5490"),
        ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8", "3447", "9274"),
        ("Qwen/Qwen3-30B-A3B-Thinking-2507", "483", "3612"),
        ("Qwen/Qwen3-Next-80B-A3B-Thinking", "136", "1017"), ("openai/gpt-oss-120b", "518", "2704"),
        ("Qwen/Qwen3-235B-A22B-Thinking-2507", "32", "239"), ("moonshotai/Kimi-K2-Instruct", "5", "26")]
for model, inp, outp in ROWS:
    key = "| [" + model + "]"
    for n, f in [(6, inp), (7, outp)]:
        q = col(D, key, n)
        assert q.endswith(f), (q, f)
        out.append(L(D, q, float(f), "token_throughput", scope="per_gpu", model=model))
# Size-class definitions: parameter thresholds that describe no measured system
out += [
 L(D, "Compact:   <4B parameters", 4e9, "parameters", comparator="<", neutral=True),
 L(D, "Small:     4B-10B parameters", 4e9, "parameters", high=1e10, neutral=True),
 L(D, "Medium:    10B-100B parameters", 1e10, "parameters", high=1e11, neutral=True),
 L(D, "Large:     100B-500B parameters", 1e11, "parameters", high=5e11, neutral=True),
 L(D, "Enormous:  500B+ parameters", 5e11, "parameters", comparator=">=", neutral=True),
 # shard rotation threshold of the writer: a configuration value
 L(D, "rotates files once they reach ~256MB", 2.56e8, "memory", comparator="~", neutral=True),
]
# Not labelled: command-line flags and YAML values (--tp 2, --tasks 20, time 1:00:00, ...), "2-way tensor
# parallelism on 2 GPUs", "fit a model on 2 nodes", "roughly 1000 examples per shard" (count), model names
# with sizes (gemma-3-1b-it, Qwen3-235B-A22B), versions (python 3.11), the GPUs/1B/h cells.
