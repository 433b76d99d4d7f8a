"""kvcached-offload-vs-kvcached-results.md (experiment report: prose whose conditions sit in other
sections - GPU and model in the Setup table, workload in section 4, results in section 5 - two small
pipe tables, many GiB figures, versions, config flags, a date): hand-written label decisions."""
from lib import L, GiB, MiB
D = "kvcached-offload-vs-kvcached-results.md"
A100 = dict(hardware="A100")                      # Setup: "1x NVIDIA A100-SXM4-40GB"
RES = dict(hardware="A100", model="Qwen3-4B")     # Setup: 2 instances of Qwen/Qwen3-4B on that GPU
S94 = "| `static` | fixed `--gpu-memory-utilization 0.45` each | "
R_ST = "| `static` | 2177 ms | 164 ms | 8573 ms"
R_OF = "| `offload` | 1447 ms | **102 ms** | 5838 ms"
R_KV = "| `kvcached` | **186 ms** | 166 ms | **460 ms**"
out = [
 # --- 2. Setup (a key/value pipe table) ---
 # GPU name carrying its memory size (A100-SXM4-40GB): a capacity inside a product name -> neutral
 L(D, "| GPU | 1x NVIDIA A100-SXM4-40GB", 40e9, "memory", neutral=True),
 # host RAM capacity: hardware spec -> neutral; '32 cores' not labelled (count)
 L(D, "| Host | 115 GiB", 115 * GiB, "memory", neutral=True),
 # PCIe bandwidth, measured ("measured via offload transfer counters") -> required
 L(D, "| Host | 115 GiB RAM, 32 cores, PCIe ~17 GB/s", 17e9, "bandwidth", comparator="~", **A100),
 # size of the bf16 weights of each model instance: a size figure -> required
 L(D, "(bf16, 7.56 GiB", 7.56 * GiB, "memory", model="Qwen3-4B"),
 # versions (0.19.0, 2.10.0+cu128, v0.1.5, 0.22.1, >= 0.21, since 0.22), the hash 3cc92be and the flag
 # VLLM_USE_V2_MODEL_RUNNER=0: not labelled
 # measured memory held by one instance under vLLM 0.22 -> required
 L(D, "observed a single instance holding 37 GiB", 37 * GiB, "memory"),
 # --- 3. Compared systems ---
 # `--max-model-len 8192 --max-num-seqs 64 --block-size 16` and `--gpu-memory-utilization 0.45`: flags,
 # not labelled. KV capacity per instance (tokens and GiB): capacities that follow from the configuration
 # -> neutral
 L(D, S94 + "68,000", 68000, "tokens", neutral=True),
 L(D, S94 + "68,000 / 72,096", 72096, "tokens", neutral=True),
 L(D, S94 + "68,000 / 72,096 tokens (~9.4", 9.4 * GiB, "memory", comparator="~", neutral=True),
 # configured CPU pool size -> neutral; cpu_bytes_to_use 17179869184 inside the JSON flag: not labelled
 L(D, "offloaded to a 16 GiB", 16 * GiB, "memory", neutral=True),
 # KVCACHED_GPU_UTILIZATION=0.95, 'default util 0.9', KVCACHED_MAX_CACHED_TOKENS=0, 'section 6': not labelled
 L(D, "virtual 200,480", 200480, "tokens", neutral=True),
 L(D, "virtual 200,480 / 156,960", 156960, "tokens", neutral=True),
 # --- 4. Workload design: settings -> neutral ---
 # '44 -> final 40 multi-turn conversations', 'turn-1', 'all 40 conversations': counts, not labelled
 L(D, "**Seed phase** (2 req/s)", 2, "request_throughput", neutral=True),
 L(D, "  2048-token prompt, 512", 2048, "tokens", neutral=True),
 L(D, "  2048-token prompt, 512 output tokens.", 512, "tokens", neutral=True),
 L(D, "**Burst phase** (8 req/s)", 8, "request_throughput", neutral=True),
 L(D, "  2048-token prefix", 2048, "tokens", neutral=True),
 L(D, "  2048-token prefix + 192", 192, "tokens", neutral=True),
 L(D, "  2048-token prefix + 192 new tokens (2240", 2240, "tokens", neutral=True),
 L(D, "  2048-token prefix + 192 new tokens (2240 total), 512", 512, "tokens", neutral=True),
 L(D, "  (128-token prompt", 128, "tokens", neutral=True),
 # probe interval: a workload setting in seconds -> neutral
 L(D, "  (128-token prompt every 5 s", 5, "latency", neutral=True),
 # the timeline `A_seed@0s, A_burst@50s, B_seed@85s, B_burst@135s` is code: not labelled
 # worked arithmetic: the operands (40 x 2176, 40 x (2240 + 512)) are not labelled; its results describe
 # the workload's working set (a workload's own statistic) -> neutral
 L(D, "(40 x 2176 ≈ 87K", 87000, "tokens", comparator="~", neutral=True),
 L(D, "(40 x 2176 ≈ 87K tokens ≈ 12.5", 12.5 * GiB, "memory", comparator="~", neutral=True),
 L(D, "   (~9.4 GiB", 9.4 * GiB, "memory", comparator="~", neutral=True),
 L(D, "   (~9.4 GiB / ~70K", 70000, "tokens", comparator="~", neutral=True),
 L(D, "(2240 prompt + 512 output) ≈ 110K", 110000, "tokens", comparator="~", neutral=True),
 L(D, "   ≈ 15.5 GiB", 15.5 * GiB, "memory", comparator="~", neutral=True),
 # Silent: demand / capacity ratio of the workload design, not a result of a system -> neutral
 L(D, "   ≈ 15.5 GiB: ~1.6x", 1.6, "ratio", comparator="~", neutral=True),
 # observed memory of one process at its peak -> required
 L(D, "(observed elastic peak: ~25 GiB", 25 * GiB, "memory", comparator="~", statistic="peak"),
 L(D, "3. **Long outputs (512", 512, "tokens", neutral=True),
 # Silent: how long a request holds KV (an estimate from the 512-token outputs) -> neutral
 L(D, "make requests hold KV for ~10 s", 10, "latency", comparator="~", neutral=True),
 L(D, "tail. With 128-token", 128, "tokens", neutral=True),
 # an observed tail latency of an earlier trial on the static baseline -> required
 L(D, "the same burst showed only ~1.4 s p99", 1.4, "latency", comparator="~", statistic="p99", **A100),
 # --- 5. Results: burst-phase TTFT (both instances pooled, n=80 not labelled); unit in each cell ---
 L(D, "| `static` | 2177", 2.177, "latency", statistic="mean", **RES),
 L(D, "| `static` | 2177 ms | 164", 0.164, "latency", statistic="p50", **RES),
 L(D, R_ST, 8.573, "latency", statistic="p99", **RES),
 L(D, "| `offload` | 1447", 1.447, "latency", statistic="mean", **RES),
 L(D, "| `offload` | 1447 ms | **102", 0.102, "latency", statistic="p50", **RES),
 L(D, R_OF, 5.838, "latency", statistic="p99", **RES),
 L(D, "| `kvcached` | **186", 0.186, "latency", statistic="mean", **RES),
 L(D, "| `kvcached` | **186 ms** | 166", 0.166, "latency", statistic="p50", **RES),
 L(D, R_KV, 0.460, "latency", statistic="p99", **RES),
 # preemption counts (10, 12, 0): counts, not labelled
 # speedups of kvcached over offload (baseline in the same sentence)
 L(D, "**kvcached vs. offload: 7.8x mean", 7.8, "ratio", statistic="mean", **RES),
 L(D, "**kvcached vs. offload: 7.8x mean, 12.7x p99", 12.7, "ratio", statistic="p99", **RES),
 # per-instance figures, 'A/B' pairs separated by '/'
 L(D, "(A/B burst mean 186", 0.186, "latency", statistic="mean", **RES),
 L(D, "(A/B burst mean 186/186", 0.186, "latency", statistic="mean", **RES),
 L(D, "(A/B burst mean 186/186 ms, p99 448", 0.448, "latency", statistic="p99", **RES),
 L(D, "(A/B burst mean 186/186 ms, p99 448/423", 0.423, "latency", statistic="p99", **RES),
 # off-peak table: statistic from the row label ('seed mean', 'trickle mean')
 L(D, "| seed mean | 122", 0.122, "latency", statistic="mean", **RES),
 L(D, "| seed mean | 122 ms | 140", 0.140, "latency", statistic="mean", **RES),
 L(D, "| seed mean | 122 ms | 140 ms | 123", 0.123, "latency", statistic="mean", **RES),
 L(D, "| trickle mean (idle instance during peer burst) | ~30", 0.030, "latency", statistic="mean", comparator="~", **RES),
 L(D, "| trickle mean (idle instance during peer burst) | ~30 ms | ~33", 0.033, "latency", statistic="mean", comparator="~", **RES),
 L(D, "| trickle mean (idle instance during peer burst) | ~30 ms | ~33 ms | ~29", 0.029, "latency", statistic="mean", comparator="~", **RES),
 # transferred volumes per instance (measured counters) -> memory (bytes), required
 L(D, "**19.1 GiB", 19.1 * GiB, "memory"),
 L(D, "**19.1 GiB GPU->CPU stored, 13.1 GiB", 13.1 * GiB, "memory"),
 L(D, "`vllm:kv_offload_total_bytes_total`), ~17 GB/s", 17e9, "bandwidth", comparator="~", **A100),
 L(D, "(140 vs 122", 0.140, "latency", statistic="mean", **RES),
 L(D, "(140 vs 122 ms mean)", 0.122, "latency", statistic="mean", **RES),
 # restatements of the workload sizes -> neutral
 L(D, "the burst needs ~15.5 GiB", 15.5 * GiB, "memory", comparator="~", neutral=True),
 L(D, "~9.4 GiB, so ~half", 9.4 * GiB, "memory", comparator="~", neutral=True),
 L(D, "queues behind ~10-second", 10, "latency", comparator="~", neutral=True),
 # observed per-process memory trace: a range with its peak, a baseline, a release time -> required
 L(D, "the burster peaking at ~24-25 GiB", 24 * GiB, "memory", high=25 * GiB, comparator="~", statistic="peak"),
 L(D, "returning to its ~10.5 GiB", 10.5 * GiB, "memory", comparator="~"),
 # Silent: 'within ~8 s' - no comparator (both 'within' and '~' apply)
 L(D, "returning to its ~10.5 GiB baseline within ~8 s", 8, "latency"),
 # --- 6. Pitfalls ---
 # configured pool sizes and host RAM -> neutral; 'x2' not labelled
 L(D, "pinned shared memory at startup. 40 GiB", 40 * GiB, "memory", neutral=True),
 L(D, "40 GiB per instance x2 on a 115 GiB", 115 * GiB, "memory", neutral=True),
 L(D, "instance B initialized its pool. 16 GiB", 16 * GiB, "memory", neutral=True),
 L(D, "benchmark working set (~12.5 GiB", 12.5 * GiB, "memory", comparator="~", neutral=True),
 # a default setting (tokens) and its size -> neutral
 L(D, "With the default (16000", 16000, "tokens", neutral=True),
 L(D, "With the default (16000 tokens ≈ 2.2 GiB", 2.2 * GiB, "memory", comparator="~", neutral=True),
 # measured retained memory and its excess over baseline -> required
 L(D, "**18.6 GiB", 18.6 * GiB, "memory"),
 L(D, "**18.6 GiB** (~8.9 GiB", 8.9 * GiB, "memory", comparator="~"),
 # VMM page size (a platform constant) -> neutral; '64 blocks per page' not labelled
 L(D, "scattered across 2 MiB", 2 * MiB, "memory", neutral=True),
 # '0.95 shared-pool cap' (config) not labelled; the measured sum -> required; '6 preemptions' not labelled
 L(D, "shared-pool cap (sum 38.3 GiB", 38.3 * GiB, "memory"),
 L(D, "(B: mean 1710", 1.710, "latency", statistic="mean", **RES),
 L(D, "   p99 9045", 9.045, "latency", statistic="p99", **RES),
 L(D, "while A enjoyed mean 154", 0.154, "latency", statistic="mean", **RES),
 L(D, "while A enjoyed mean 154 ms / p99 309", 0.309, "latency", statistic="p99", **RES),
 # --- 7. Reproduction: code (--num-convs 40 --gap 30) not labelled; trace sampling period -> neutral
 L(D, "every 2 s during a run", 2, "latency", neutral=True),
 # --- 8. Limitations ---
 # 'A100-40G': capacity inside the GPU name -> neutral (as the Setup row)
 L(D, "Single GPU type (A100-40G", 40e9, "memory", neutral=True),
 # the two speedups again (one line per mention); statistic left off (the back-reference does not repeat it)
 L(D, "(the effect sizes — 7.8x", 7.8, "ratio", **RES),
 L(D, "(the effect sizes — 7.8x/12.7x", 12.7, "ratio", **RES),
]
# Not labelled anywhere: the date 2026-06-10; 'two LLM instances', 'one GPU', '2 instances', 'Qwen3-4B x2'
# (counts); the model name Qwen3-4B; section numbers; versions; code and flags; 'n=80'; 'TTFT = time to
# first SSE chunk' (definition).
