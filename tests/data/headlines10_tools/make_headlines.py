#!/usr/bin/env python3
"""Write and validate headlines.jsonl (suite 10, h10-001..h10-080).

python3 make_headlines.py          rewrite headlines.jsonl, then validate it
python3 make_headlines.py --check  validate the existing file only
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "headlines.jsonl")
CORPUS = "/work/shared/corpus"

KINDS = {"faithful", "inflated", "up_to_inflated", "up_to_as_typical", "reversed_direction", "wrong_quantity",
         "wrong_setting", "wrong_model", "wrong_hardware", "wrong_engine", "wrong_baseline", "wrong_denominator",
         "ambiguous", "wrong_source", "unpublished"}
VERDICTS = {"supported", "contradicted", "unproven", "ambiguous"}
ROW_KEYS = ["id", "kind", "headline", "expected", "accept", "false_headline", "source", "figure", "why"]
FIG_KEYS = ["value", "unit", "family", "scope", "model", "hardware", "engine", "settings"]

C, U, A, S = "contradicted", "unproven", "ambiguous", "supported"

# ---------------------------------------------------------------------------------------------------------------
# 16 figures; each: dict(source, figure, base_why, rows=[(kind, headline, expected, accept, why), ...5])
# ---------------------------------------------------------------------------------------------------------------
FIGS = []

def fig(source, value, unit, family, scope, model, hardware, engine, settings, base_why, rows):
    FIGS.append(dict(source=source,
                     figure=dict(value=value, unit=unit, family=family, scope=scope, model=model,
                                 hardware=hardware, engine=engine, settings=settings),
                     base_why=base_why, rows=rows))

# 1 ---- MLPerf v5.1 summary row 5.1-0013 (Cisco, 2 nodes x 8 H200, Llama 2 70B, closed Server)
fig("structured/mlperf-inference-v5.1/summary_results_llm.json", 66439.0, "tokens/s", "token_throughput", "per_system",
    "Llama 2 70B (llama2-70b-99; the 99.9 row repeats the value)",
    "Cisco UCS C885A M8 (16x H200-SXM-141GB, TensorRT): 2 nodes x 8 NVIDIA H200-SXM-141GB",
    "TensorRT 10.8, CUDA 12.8 (TensorRT-LLM stack)",
    "MLPerf Inference v5.1, closed division, datacenter, Server scenario, result ID 5.1-0013, fp8 weights; same system "
    "Offline 68,894.8; Cisco 1-node 8x H200 (5.1-0014) Server 33,163.3 / Offline 34,548.2 / Interactive 19,621.9; Cisco "
    "2-node 16x H100 (5.1-0015) Server 61,101.3; Krai 2-node 16x H200 on vLLM (5.1-0378, open) Server 56,544.8",
    "MLPerf v5.1 row 5.1-0013 (Cisco, closed, Server): Llama 2 70B at 66,439.0 tokens/s for the whole 2-node, "
    "16x H200 system (fp8, TensorRT 10.8).",
    [("faithful", "Cisco's two-node, 16-GPU H200 cluster served Llama 2 70B at roughly 66,400 tokens per second in the "
      "closed-division Server scenario of MLPerf Inference v5.1", S, [S],
      "Restates the row: submitter, node and GPU count, model, division, scenario; 'roughly 66,400' meets 66,439.0 at "
      "its rounding."),
     ("wrong_setting", "Cisco's 16-GPU H200 system turned in 66,439 tokens per second on Llama 2 70B in MLPerf v5.1's "
      "Offline test", C, [C],
      "Scenario changed: 66,439.0 is the Server result; the same system's Offline row is 68,894.8."),
     ("wrong_setting", "A single Cisco UCS C885A server with eight H200 GPUs handled 66,439 tokens per second of Llama 2 70B "
      "traffic in MLPerf v5.1's Server scenario", C, [C, U],
      "Node count changed: 66,439.0 needs 2 nodes x 8 H200; the 1-node 8x H200 C885A row (5.1-0014) gives 33,163.3 in "
      "Server. Unproven accepted for a reader who treats the 1-node row as another system."),
     ("wrong_denominator", "Each node in Cisco's H200 cluster served 66,439 tokens per second on Llama 2 70B in MLPerf "
      "Inference v5.1's Server scenario", C, [C, U, A],
      "Denominator changed: MLPerf rows are per system (2 nodes); per node it would be ~33.2K (a derivation, not an "
      "official result). Suites 5-9 treatment: contradicted, unproven and ambiguous accepted."),
     ("wrong_hardware", "Cisco's two-node, 16-GPU H100 system reached 66,439 tokens per second on Llama 2 70B in MLPerf "
      "v5.1's Server scenario", C, [C],
      "Hardware changed: Cisco's 2-node 16x H100 row (5.1-0015) gives 61,101.3 in Server; 66,439.0 is the H200 system."),
     ])

# 2 ---- AMD MI300X Llama 2 70B Server run log: p99 TPOT
fig("structured/mlperf-inference-v5.1/closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server/performance/run_1/mlperf_log_summary.txt",
    0.193380124, "s", "latency", "per_user", "Llama 2 70B (llama2-70b-99)",
    "8x AMD Instinct MI300X 192GB, 2x EPYC 9575F (summary row 5.1-0001: Supermicro AS-8125GS-TNMR2, 1 node)",
    "vLLM 0.9.0.2 dev (ROCm), per summary row 5.1-0001",
    "MLPerf Inference v5.1 closed, Server scenario, run_1; 99.00 percentile time to output token 193,380,124 ns; "
    "limit tpot_latency 200,000,000 ns; p50 TPOT 151,044,504 ns; mean TPOT 144,594,078 ns; p99 TTFT 1,914,647,645 ns "
    "(limit 2 s); completed tokens/s 24,593.77; Result VALID",
    "AMD's MLPerf v5.1 Llama 2 70B Server run log (8x MI300X): 99th-percentile time per output token 193,380,124 ns "
    "(~193 ms), under the 200 ms TPOT limit in the same log.",
    [("faithful", "AMD's eight-GPU MI300X system kept 99th-percentile time per output token to about 193 milliseconds "
      "in its MLPerf v5.1 Llama 2 70B Server run, inside the 200 ms limit", S, [S],
      "Restates the p99 TPOT (193.38 ms, 'about 193') with the model, scenario, GPU count and the limit from the log."),
     ("wrong_quantity", "AMD's eight-GPU MI300X system held 99th-percentile time to first token to about 193 milliseconds "
      "on Llama 2 70B in MLPerf v5.1's Server scenario", C, [C],
      "TPOT moved to TTFT: the same log's p99 first-token latency is 1,914,647,645 ns (~1.91 s)."),
     ("wrong_setting", "AMD's eight-GPU MI300X system posted a median time per output token of about 193 milliseconds "
      "on Llama 2 70B in MLPerf v5.1's Server run", C, [C],
      "Statistic changed: the claim puts the median TPOT at ~193 ms; the log's p50 TPOT is 151,044,504 ns (~151 ms); "
      "193 ms is the p99."),
     ("wrong_hardware", "AMD's eight-GPU Instinct MI325X system kept 99th-percentile time per output token to about "
      "193 milliseconds on Llama 2 70B in MLPerf v5.1's Server test", U, [U],
      "Hardware changed: the record holds a run log only for the 8x MI300X system; the MI325X rows in the summary JSON "
      "carry throughput only, no latency percentile."),
     ("wrong_setting", "In MLPerf v5.1's Offline scenario, AMD's MI300X server logged a 193-millisecond 99th-percentile "
      "time per output token on Llama 2 70B", U, [U, C],
      "Scenario changed: the 193 ms p99 TPOT comes from the Server run; Offline has no latency limit and the record "
      "holds no Offline log (the Offline row is throughput only, 27,803.9 tokens/s)."),
     ])

# 3 ---- llmperf Replicate Llama 2 13B TTFT median
fig("structured/llmperf-leaderboard/raw_data/summary/replicate_13b.json", 5.6481, "s", "latency", "per_user",
    "Llama 2 13B chat (meta/llama-2-13b-chat)", "", "Replicate API",
    "LLMPerf leaderboard, Dec 2023: 550 input / 150 output tokens, 5 concurrent requests, 150 requests (150 completed); "
    "TTFT p50 5.6481 s (README 5.65), mean 6.27, p99 16.7089 (README 16.71); end-to-end p50 7.7987 s; Replicate 70B "
    "TTFT median 1.19, 7B 3.68",
    "llmperf leaderboard, Replicate Llama 2 13B: median time to first token 5.6481 s in the JSON, 5.65 in the README "
    "table (550/150 tokens, 5 concurrent requests).",
    [("faithful", "Replicate needed a median 5.65 seconds to deliver the first token of Llama 2 13B chat in the LLMPerf "
      "leaderboard's December 2023 run (550-token prompts, five concurrent requests)", S, [S],
      "Restates the README/JSON median TTFT with provider, model and run settings."),
     ("wrong_model", "Replicate's median time to first token on Llama 2 70B chat was 5.65 seconds in the LLMPerf "
      "leaderboard", C, [C],
      "Model changed: Replicate 70B median TTFT is 1.19 s (JSON 1.188); 5.65 s is the 13B model."),
     ("wrong_setting", "On the LLMPerf leaderboard, Replicate's 99th-percentile time to first token for Llama 2 13B was "
      "5.65 seconds", C, [C],
      "Statistic changed: p99 TTFT for Replicate 13B is 16.71 s (JSON 16.7089); 5.65 s is the median."),
     ("wrong_quantity", "Replicate completed Llama 2 13B chat requests in a median 5.65 seconds end to end on the LLMPerf "
      "leaderboard", C, [C, U],
      "TTFT moved to end-to-end latency: the JSON's end-to-end p50 is 7.80 s; the README tables have no end-to-end "
      "column, so unproven is accepted for a reader limited to the README."),
     ("inflated", "Replicate got the first token of Llama 2 13B out in under five seconds at the median in the LLMPerf "
      "benchmark", C, [C],
      "Value moved past the figure: the median is 5.65 s, above five seconds."),
     ])

# 4 ---- Mooncake vLLM v1 PD table: mean TTFT at 32,768-token prompts
fig("mooncake/vllm-v1-pd-performance.md", 0.74962, "s", "latency", "per_user", "Qwen3-8B",
    "2 nodes x 8 NVIDIA H800 (81GB), 8x ConnectX-7 RoCE; 1 prefiller + 1 decoder, TP8 each",
    "vLLM 0.11.2.dev358 + MooncakeConnector (cross-node RDMA)",
    "Detailed Performance Data table, prompt length 32,768 tokens, output 128, max concurrency 1, 50 prompts: mean TTFT "
    "749.62 ms, KV size 4.50 GB, actual transfer 31.65 ms (4.2% of TTFT); 8,192 tokens: 212.05 ms; 16,384: 387.52 ms",
    "Mooncake's vLLM v1 PD page, table row 32,768 tokens: mean TTFT 749.62 ms (Qwen3-8B, 1P1D on two 8x H800 nodes, "
    "concurrency 1).",
    [("faithful", "With Mooncake's connector splitting prefill and decode across two eight-H800 nodes, vLLM answered "
      "32,768-token Qwen3-8B prompts with a mean time to first token of about 750 ms", S, [S],
      "Restates the table cell (749.62 ms, 'about 750') with model, prompt length, engine, connector and hardware."),
     ("wrong_setting", "Mooncake-backed vLLM returned the first token for 8,192-token Qwen3-8B prompts in about 750 ms on "
      "average across two H800 nodes", C, [C],
      "Prompt length changed: the 8,192-token row gives 212.05 ms; ~750 ms is the 32,768-token row."),
     ("wrong_quantity", "Moving the KV cache of a 32,768-token Qwen3-8B prompt between H800 nodes took Mooncake about "
      "750 ms in vLLM", C, [C],
      "TTFT moved to transfer time: the row's actual KV transfer time is 31.65 ms (4.2% of TTFT)."),
     ("inflated", "vLLM with Mooncake kept mean time to first token under half a second for 32K-token Qwen3-8B prompts "
      "on H800s", C, [C],
      "Value moved: the 32,768-token mean TTFT is 749.62 ms, above 500 ms."),
     ("wrong_engine", "SGLang with Mooncake transfer served 32,768-token Qwen3-8B prompts with a mean time to first token "
      "of about 750 ms on two H800 nodes", U, [U, C],
      "Engine changed: the 749.62 ms row is vLLM v1 with MooncakeConnector; the record's SGLang/Mooncake page has a "
      "32,768-token row only for Qwen3-235B on H20 nodes (another model and hardware), nothing for Qwen3-8B."),
     ])

# 5 ---- LMDeploy TurboMind A100 static inference table
fig("lmdeploy/a100_fp16.md", 1852.06, "tokens/s", "token_throughput", "aggregate", "Llama 2 7B (llama2-7b)",
    "1x A100-80G (TP1)", "LMDeploy TurboMind v0.2.0 (FP16, CUDA 11.8)",
    "Static Inference Benchmark, FP16 llama2-7b: batch 64, tp 1, prompt_tokens 128, output_tokens 2048 -> "
    "throughput 1852.06 out tok/s; same batch 2048/128 -> 493.46; batch 32 128/2048 -> 1462.12; batch 1 128/2048 -> 98.92",
    "LMDeploy's TurboMind A100 benchmark, static inference table: Llama 2 7B, batch 64, TP1, 128 prompt / 2,048 output "
    "tokens -> 1,852.06 output tokens/s (whole batch on one A100-80G).",
    [("faithful", "LMDeploy's TurboMind engine (v0.2.0) generated about 1,852 output tokens per second on Llama 2 7B "
      "with one A100-80G at batch 64, using 128-token prompts and 2,048-token outputs", S, [S],
      "Restates the cell with model, GPU, batch size and prompt/output lengths."),
     ("wrong_setting", "LMDeploy TurboMind produced about 1,852 output tokens per second on Llama 2 7B on one A100 at "
      "batch 64 with 2,048-token prompts and 128-token outputs", C, [C],
      "Input and output lengths swapped: the 2048/128 row at batch 64 gives 493.46 tokens/s."),
     ("wrong_setting", "At a batch size of 32, LMDeploy TurboMind generated about 1,852 output tokens per second on "
      "Llama 2 7B on one A100, with 128-token prompts and 2,048-token outputs", C, [C],
      "Batch size changed: batch 32 at 128/2048 gives 1,462.12 tokens/s."),
     ("wrong_denominator", "Each of the 64 requests LMDeploy batched on one A100 streamed Llama 2 7B output at about "
      "1,852 tokens per second", C, [C, U, A],
      "Denominator changed: 1,852.06 is the whole batch's output rate on the GPU; a single request (batch 1, 128/2048) "
      "gets 98.92 tokens/s."),
     ("wrong_hardware", "LMDeploy TurboMind generated about 1,852 output tokens per second on Llama 2 7B on a single "
      "H100 at batch 64 with 128-token prompts and 2,048-token outputs", U, [U],
      "Hardware changed: the table is A100-80G only; no LMDeploy H100 figure for this case is in the record."),
     ])

# 6 ---- KTransformers V0.3-preview prefill table
fig("ktransformers/DeepseekR1_V3_tutorial.md", 255.26, "tokens/s", "token_throughput", "unspecified",
    "DeepSeek-V3 (BF16, online quant to int8 on CPU / int4 on GPU), 8 experts",
    "2x Intel Xeon Gold 6454S (32 cores per socket) + 1-4x RTX 4090D 24GB", "KTransformers V0.3-preview (AMX kernel)",
    "V0.3-Preview benchmark table: prompt length 2K, KTrans (8 experts) prefill 255.26 tokens/s; 1K 185.96, 4K 252.58, "
    "8K 195.62; 6 experts at 2K 286.55; decode 'same as V0.2 (6 experts)' (13.69 tokens/s at 500-token prompt); "
    "llama.cpp 8 experts, dual socket: prefill 10.31, decode 4.51",
    "KTransformers' tutorial, V0.3-Preview table: 8-expert prefill at 2K prompt length 255.26 tokens/s on the dual-socket "
    "Xeon Gold 6454S + RTX 4090D machine (also listed in the intro as the AMX-kernel step).",
    [("faithful", "KTransformers' V0.3 preview prefilled 2K-token prompts for DeepSeek-V3 at about 255 tokens per second "
      "with all eight experts active, on a dual-socket Xeon Gold 6454S box with an RTX 4090D", S, [S],
      "Restates the 2K / 8-expert cell with version, model and hardware."),
     ("wrong_setting", "KTransformers' V0.3 preview prefilled 8K-token DeepSeek-V3 prompts at about 255 tokens per "
      "second with eight experts on a dual-Xeon and RTX 4090D machine", C, [C],
      "Prompt length changed: the 8K column gives 195.62 tokens/s."),
     ("wrong_quantity", "KTransformers' V0.3 preview decodes DeepSeek-V3 at about 255 tokens per second on a dual-socket "
      "Xeon with one RTX 4090D", C, [C, U],
      "Prefill moved to decode: decoding is stated as unchanged from V0.2, 13.69 tokens/s at best (6 experts)."),
     ("wrong_setting", "Running only six experts, KTransformers' V0.3 preview prefilled 2K-token DeepSeek-V3 prompts at "
      "about 255 tokens per second", C, [C],
      "Expert count changed: 6 experts at 2K gives 286.55 tokens/s; 255.26 is the 8-expert row."),
     ("wrong_engine", "llama.cpp prefilled DeepSeek-V3 at about 255 tokens per second on a dual-socket Xeon Gold 6454S "
      "machine with an RTX 4090D", C, [C, U],
      "Engine changed: the record's llama.cpp prefill on the same dual-socket machine is 10.31 tokens/s (500-token "
      "prompt); unproven accepted because no llama.cpp 2K-prompt figure exists."),
     ])

# 7 ---- TensorRT-LLM H100 vs A100 table: A100 GPT-J 6B max throughput
fig("tensorrt-llm/H100vsA100.md", 3679.0, "tokens/s", "token_throughput", "per_gpu", "GPT-J 6B",
    "1x A100 SXM 80GB (FP16), TP1", "TensorRT-LLM v0.5.0, TensorRT 9.1",
    "Max Throughput & Min Latency table, A100 rows: batch 64, input 128, output 128 -> 3,679 out tok/s, 1st token "
    "latency 481 ms; batch 1 -> 111 tok/s, 12.5 ms; H100 FP8 batch 64 -> 10,907; speedup row 3.0x",
    "TensorRT-LLM's H100-vs-A100 post, table row A100 / GPT-J 6B / batch 64 / 128 in / 128 out: 3,679 output tokens/s "
    "on one A100 (FP16, TP1).",
    [("faithful", "On a single A100 running FP16, TensorRT-LLM v0.5 produced about 3,679 output tokens per second on "
      "GPT-J 6B at batch 64 with 128-token inputs and outputs", S, [S],
      "Restates the A100 cell with precision, engine version, batch and sequence lengths."),
     ("wrong_hardware", "A single H100 running TensorRT-LLM v0.5 produced about 3,679 output tokens per second on GPT-J 6B "
      "at batch 64 with 128-token inputs and outputs", C, [C],
      "Hardware changed: the H100 row at the same settings gives 10,907 tokens/s."),
     ("wrong_setting", "Serving one request at a time (batch 1), an A100 with TensorRT-LLM v0.5 produced about 3,679 "
      "output tokens per second on GPT-J 6B", C, [C],
      "Batch size changed: the A100 batch-1 row gives 111 tokens/s."),
     ("wrong_setting", "Running GPT-J 6B in FP8 on a single A100, TensorRT-LLM v0.5 reached about 3,679 output tokens per "
      "second at batch 64", U, [U, C],
      "Precision changed: the A100 rows are FP16 (FP8 is the H100 configuration); no A100 FP8 figure is in the record."),
     ("wrong_denominator", "Every request in a batch of 64 saw GPT-J 6B stream at about 3,679 tokens per second on an "
      "A100 with TensorRT-LLM", C, [C, U, A],
      "Denominator changed: 3,679 is the GPU's output rate for the whole batch of 64, not each request's speed."),
     ])

# 8 ---- TensorRT-LLM Falcon-180B/H200 post: Llama-70B table, 8 GPUs, 128/2048
fig("tensorrt-llm/Falcon180B-H200.md", 3163.0, "tokens/s", "token_throughput", "per_gpu", "Llama 2 70B (Llama-70B)",
    "8x H200 (max TP/PP/DP config)", "TensorRT-LLM v0.7a (FP8)",
    "Table 'H200 6.7x A100' (out tok/s/GPU): Llama-70B, 8 GPUs, input 128, output 2048 -> 3,163; 1 GPU same lengths "
    "-> 2,941; 8 GPUs output 4096 -> 2,263; 128/128 -> 3,803 (1 and 8 GPUs); caption batch sizes 960, 960, 192, 560, 96, 640",
    "TensorRT-LLM's Falcon-180B/H200 post, Llama-70B table: 8 GPUs, 128 in / 2,048 out -> 3,163 output tokens/s per "
    "GPU (H200, FP8, v0.7a).",
    [("faithful", "Across eight H200s, TensorRT-LLM v0.7a (FP8) held Llama 2 70B at about 3,163 output tokens per second "
      "per GPU for 128-token inputs and 2,048-token outputs", S, [S],
      "Restates the per-GPU cell with GPU count, precision, engine version and sequence lengths."),
     ("wrong_hardware", "A single H200 running TensorRT-LLM v0.7a put out about 3,163 tokens per second on Llama 2 70B "
      "with 128-token inputs and 2,048-token outputs", C, [C],
      "GPU count changed: the 1-GPU row at 128/2048 gives 2,941 tokens/s per GPU."),
     ("wrong_setting", "Eight H200s with TensorRT-LLM v0.7a held Llama 2 70B at about 3,163 output tokens per second per "
      "GPU for 4,096-token outputs", C, [C],
      "Output length changed: the 8-GPU row at 4,096 output tokens gives 2,263 tokens/s per GPU."),
     ("wrong_denominator", "An eight-GPU H200 server running TensorRT-LLM v0.7a generated about 3,163 tokens per second in "
      "total on Llama 2 70B with 2,048-token outputs", C, [C, U, A],
      "Denominator changed: 3,163 is per GPU; eight GPUs give ~25.3K in total (the XQA post's 8-GPU row lists 25,300 "
      "for the same case)."),
     ("ambiguous", "A Llama 70B deployment has hit 3,163 tokens per second", A, [A, U],
      "Subjectless, open denominator: no engine, hardware, GPU count or per-GPU/per-user/total scope; §4's 'Someone "
      "reached N tokens per second' pattern. A checker that follows the same-value per-GPU cell would answer "
      "supported, which this suite counts as wrong."),
     ])

# 9 ---- LMDeploy KV-cache quantization table
fig("lmdeploy/kv_quant.md", 10.96, "requests/s", "request_throughput", "aggregate", "Llama 2 13B chat (llama2-chat-13b)",
    "1 GPU (tp1; GPU model not stated in the table)", "LMDeploy (benchmark/profile_throughput.py)",
    "Performance table: llama2-chat-13b, kv int8, tp1 / ratio 0.9 / bs 256 / prompts 10000 -> RPS 10.96 (1.28 vs kv "
    "fp16); fp16 8.55 (bs 128); int4 11.91 (1.39); llama2-chat-7b int8 19.01",
    "LMDeploy's KV quantization page, performance table: Llama 2 13B chat with an int8 KV cache, tp1, batch 256 -> "
    "10.96 requests/s (1.28x the fp16 cache's 8.55).",
    [("faithful", "With its KV cache quantized to int8, LMDeploy served Llama 2 13B chat at 10.96 requests per second on "
      "a single GPU", S, [S],
      "Restates the int8 row: model, KV type, tp1 and the RPS value."),
     ("wrong_setting", "An int4 KV cache let LMDeploy serve Llama 2 13B chat at 10.96 requests per second on one GPU",
      C, [C],
      "KV precision changed: the int4 row gives 11.91 requests/s; 10.96 is int8."),
     ("wrong_model", "With an int8 KV cache, LMDeploy served Llama 2 7B chat at 10.96 requests per second on a single "
      "GPU", C, [C],
      "Model changed: Llama 2 7B chat with int8 KV gives 19.01 requests/s."),
     ("reversed_direction", "Switching Llama 2 13B chat to an int8 KV cache slowed LMDeploy to 10.96 requests per second, "
      "down from its fp16 rate", C, [C],
      "Direction reversed: int8 raises the rate from 8.55 (fp16) to 10.96, 1.28x."),
     ("wrong_hardware", "Spread across two GPUs with tensor parallelism, LMDeploy served Llama 2 13B chat at 10.96 "
      "requests per second using an int8 KV cache", U, [U, C],
      "GPU count changed: every row of the table is tp1; the record has no tp2 figure for this model."),
     ])

# 10 ---- DeepSeek-V2 paper: DeepSeek 67B training GPU hours per trillion tokens
fig("deepseek-v2/deepseek-v2-tech-report.pdf", 300600.0, "H800 GPU hours per trillion tokens", "compute", "aggregate",
    "DeepSeek 67B (dense)", "H800 cluster (8 GPUs per node)", "",
    "Section 3.2.3 training and inference efficiency: 'for training on each trillion tokens, DeepSeek 67B requires "
    "300.6K GPU hours, while DeepSeek-V2 needs only 172.8K', i.e. 42.5% saved",
    "DeepSeek-V2 technical report (PDF), prose: on the H800 cluster, DeepSeek 67B requires 300.6K GPU hours per "
    "trillion training tokens (DeepSeek-V2: 172.8K).",
    [("faithful", "Training DeepSeek's dense 67B model cost about 300.6K H800 GPU hours for every trillion tokens, "
      "according to the DeepSeek-V2 technical report", S, [S],
      "Restates the figure with model, hardware and the per-trillion-token basis."),
     ("wrong_model", "DeepSeek-V2 needed 300.6K H800 GPU hours per trillion training tokens, its technical report says",
      C, [C],
      "Model changed: DeepSeek-V2 needs 172.8K GPU hours per trillion tokens; 300.6K is DeepSeek 67B."),
     ("wrong_denominator", "DeepSeek 67B took 300.6K H800 GPU hours for each billion tokens of training", C, [C, U],
      "Basis changed: the figure is per trillion tokens, not per billion."),
     ("wrong_hardware", "DeepSeek 67B required 300.6K A100 GPU hours per trillion training tokens", U, [U, C],
      "Hardware changed: the report measures on its H800 cluster; no A100 figure is in the record."),
     ("inflated", "Training DeepSeek 67B took more than 350K H800 GPU hours per trillion tokens", C, [C],
      "Floor above the figure: the report gives 300.6K."),
     ])

# 11 ---- SC22 DeepSpeed-Inference slides: up to 1.5x multi-GPU
fig("deepspeed/sc22-ds-inference.pdf", 1.5, "x", "ratio", "unspecified",
    "GPT-NeoX 20B to GPT-3-like 175B (charts: GPT-NeoX-20B, GPT-50B, GPT-175B)", "multi-GPU (count not in the text)",
    "DeepSpeed-Inference",
    "Slide 21 title 'Up to 1.5x better multi-GPU performance' (models larger than a GPU memory); baseline not named in "
    "the slide text; slide 20: 'Up to 2x better single-GPU performance' (GPT2-345M to GPT-13B)",
    "SC22 DeepSpeed-Inference slides (PDF), p21: DS-Inference gives up to 1.5x better multi-GPU performance for "
    "GPT-NeoX 20B to a GPT-3-like 175B model.",
    [("faithful", "DeepSpeed-Inference claims up to 1.5x better multi-GPU performance on models from GPT-NeoX 20B up to "
      "a 175B GPT-3-style model, per its SC22 slides", S, [S],
      "Restates the slide's 'up to' ratio with the model range; no baseline added."),
     ("up_to_inflated", "DeepSpeed-Inference delivers up to 2x better multi-GPU performance for models too big for one "
      "GPU, its SC22 talk says", C, [C, U],
      "Best case moved: the multi-GPU slide stops at 1.5x; 2x is the single-GPU slide (GPT2-345M to GPT-13B)."),
     ("reversed_direction", "DeepSpeed-Inference runs up to 1.5x slower on multi-GPU setups for 20B-175B models", C, [C],
      "Direction reversed: the slide claims better (faster) performance."),
     ("wrong_baseline", "DeepSpeed-Inference is up to 1.5x faster than NVIDIA FasterTransformer on multi-GPU inference of "
      "20B-175B models", U, [U],
      "Baseline added: the slide text names no baseline; FasterTransformer appears nowhere in the record."),
     ("wrong_model", "DeepSpeed-Inference served Megatron-Turing NLG 530B up to 1.5x faster across GPUs", U, [U, C],
      "Model changed: the 1.5x covers GPT-NeoX 20B to 175B; the MT-NLG 530B slide gives no ratio."),
     ])

# 12 ---- SGLang AMD dev day slides: v0.1 3x faster constrained decoding
fig("sglang-learning-materials/amd_dev_day_v2.pdf", 3.0, "x", "ratio", "unspecified", "", "", "SGLang v0.1 (Jan. 2024)",
    "Slide 5 release list: v0.1 (Jan. 2024) '5x higher throughput with automatic KV cache reuse', '3x faster "
    "grammar-based constrained decoding'; v0.2 (July 2024) 3x higher throughput with low-overhead CPU runtime; v0.3 "
    "(Sept. 2024) 7x faster triton attention (MLA), 1.5x lower latency with torch.compile; no baseline named",
    "SGLang AMD dev day slides (PDF), p5: SGLang v0.1 (Jan. 2024) brought 3x faster grammar-based constrained decoding "
    "(the lmsys 1st meetup deck repeats the line).",
    [("faithful", "SGLang's first release, v0.1 in January 2024, made grammar-constrained decoding three times faster, "
      "according to the project's AMD developer-day slides", S, [S],
      "Restates the v0.1 line: version, date, technique and ratio; no baseline added."),
     ("wrong_quantity", "SGLang v0.1 tripled throughput through automatic KV cache reuse", C, [C, U],
      "Technique/quantity changed: the v0.1 KV-cache-reuse line says 5x higher throughput; 3x is constrained decoding."),
     ("wrong_setting", "SGLang's v0.3 release made grammar-based constrained decoding three times faster", U, [U, C],
      "Version changed: v0.3's lines are 7x faster triton attention and 1.5x lower latency with torch.compile; the 3x "
      "constrained-decoding line belongs to v0.1."),
     ("reversed_direction", "Grammar-constrained decoding ran three times slower in SGLang v0.1", C, [C],
      "Direction reversed: the slide says faster."),
     ("wrong_baseline", "SGLang v0.1 decoded grammar-constrained output three times faster than vLLM", U, [U],
      "Baseline added: the slide names no baseline for the 3x; no SGLang-vs-vLLM constrained-decoding ratio of 3x is in "
      "the record."),
     ])

# 13 ---- dstack state of cloud GPUs 2025: Nebius up to 35% off
fig("dstack-blog/state-of-cloud-gpu-2025.md", 35.0, "%", "percent", "unspecified", "",
    "H100 GPU clusters (section 'H100 pricing example')", "Nebius (provider)",
    "Note under the H100 cluster price chart: larger capacity and longer commitments bring bigger discounts, 'Nebius "
    "offers up to 35% off for longer terms'; general table: long-term reserved 30-70% below on-demand, short-term "
    "20-60% off, spot 60-90% off; AWS cut H100 instance prices by 44%",
    "dstack's state of cloud GPUs 2025 post: Nebius offers up to 35% off (cluster pricing) for longer terms.",
    [("faithful", "Nebius gives up to 35% off GPU clusters to customers who sign longer commitments, dstack's 2025 "
      "cloud GPU report says", S, [S],
      "Restates the 'up to' discount with provider and condition (longer terms)."),
     ("up_to_inflated", "Nebius knocks up to 70% off its GPU clusters for long-term commitments, dstack's report says",
      C, [C, U],
      "Best case moved: Nebius's stated ceiling is 35%; 30-70% is the report's generic range for reserved plans, not "
      "Nebius's."),
     ("up_to_as_typical", "Nebius takes 35% off every GPU cluster booking, dstack's 2025 report says", C, [C, U],
      "'Up to' read as uniform: 35% is the best case for longer terms, not every booking."),
     ("wrong_engine", "Runpod offers up to 35% off GPU clusters for longer commitments, dstack's cloud GPU report "
      "finds", U, [U],
      "Provider changed (the provider is the figure engine field): Runpod is named only as offering on-demand clusters; no discount figure is given for it."),
     ("reversed_direction", "Nebius charges up to 35% more for long-term GPU cluster contracts, dstack's 2025 report says",
      C, [C],
      "Direction reversed: the 35% is a discount for longer terms."),
     ])

# 14 ---- DeepSeek day-6 overview: R1 price, cache-hit input tokens
fig("deepseek-open-infra-index/day_6_one_more_thing_deepseekV3R1_inference_system_overview.md", 0.14,
    "USD per million input tokens (cache hit)", "money", "unspecified", "DeepSeek-R1", "", "DeepSeek API",
    "Footnote '(*) R1 Pricing': $0.14/M input tokens (cache hit), $0.55/M input tokens (cache miss), $2.19/M output "
    "tokens; used for the hypothetical $562,027 daily revenue",
    "DeepSeek's inference-system overview (open-infra-index day 6), R1 pricing footnote: $0.14 per million input "
    "tokens on a cache hit.",
    [("faithful", "DeepSeek-R1's API bills $0.14 per million input tokens when they hit the cache, DeepSeek's "
      "inference-system overview says", S, [S],
      "Restates the price with model, token kind and the cache-hit condition."),
     ("wrong_quantity", "DeepSeek-R1 charges $0.14 per million output tokens, DeepSeek's inference overview says", C, [C],
      "Token kind changed: output tokens are $2.19 per million."),
     ("wrong_setting", "DeepSeek-R1 input tokens that miss the cache cost $0.14 per million", C, [C],
      "Cache condition changed: cache-miss input is $0.55 per million."),
     ("wrong_denominator", "DeepSeek-R1 charges $0.14 per thousand cached input tokens", C, [C, U],
      "Basis changed: $0.14 is per million tokens, not per thousand."),
     ("wrong_model", "DeepSeek-V2's API charges $0.14 per million cached input tokens", U, [U],
      "Model changed: the footnote prices DeepSeek-R1 only; no DeepSeek-V2 price is in the record."),
     ])

# 15 ---- vLLM on AMD MI300X post: 1.5x throughput vs TGI on Llama 3.1 405B
fig("vllm-blog/2024-10-23-vllm-serving-amd.md", 1.5, "x", "ratio", "aggregate", "Llama 3.1 405B",
    "8x AMD MI300X", "vLLM (baseline: TGI)",
    "TL;DR and intro: 1.5x higher throughput and 1.7x faster TTFT than TGI for Llama 3.1 405B; 1.8x higher throughput "
    "and 5.1x faster TTFT for Llama 3.1 70B; figure captions: 8x MI300X, BF16, 32 QPS; at 16 QPS 3.8x faster TTFT "
    "(optimized), default config 4.05 vs TGI 2.58 req/s",
    "vLLM blog on serving on AMD MI300X: vLLM achieves 1.5x higher throughput than TGI for Llama 3.1 405B (8x MI300X).",
    [("faithful", "Serving Llama 3.1 405B on eight AMD MI300X GPUs, vLLM delivers 1.5x the throughput of Hugging Face's "
      "TGI, the vLLM team reports", S, [S],
      "Restates the ratio with model, hardware, engine, baseline and direction."),
     ("wrong_model", "vLLM pushes 1.5x more throughput than TGI on Llama 3.1 70B running on AMD MI300X GPUs", C, [C],
      "Model changed: the 70B throughput ratio is 1.8x."),
     ("wrong_quantity", "vLLM reaches the first token 1.5x faster than TGI when serving Llama 3.1 405B on MI300X", C,
      [C, U],
      "Throughput moved to TTFT: the 405B TTFT ratio is 1.7x (3.8x at 16 QPS in the optimized configuration)."),
     ("reversed_direction", "Hugging Face's TGI out-serves vLLM by 1.5x in throughput on Llama 3.1 405B on AMD MI300X",
      C, [C],
      "Direction reversed: vLLM is the faster engine, TGI the baseline."),
     ("wrong_baseline", "vLLM delivers 1.5x the throughput of SGLang on Llama 3.1 405B on eight MI300X GPUs", U, [U],
      "Baseline changed: the post compares with TGI; the record has no vLLM-vs-SGLang ratio for this case."),
     ])

# 16 ---- TensorRT-LLM DeepSeek R1 throughput blog: EP 142% speedup
fig("tensorrt-llm/blog3_Optimizing_DeepSeek_R1_Throughput_on_NVIDIA_Blackwell_GPUs.md", 142.0, "%", "percent",
    "unspecified", "DeepSeek R1", "NVIDIA B200 (8-GPU DGX B200 in the post)", "TensorRT-LLM",
    "'Expert-Parallelism can provide 142% speedup for 1K/2K max throughput case, when keeping other factors the same'; "
    "attention DP: 400% speedup in max throughput cases; CUDA Graph 22% E2E; FP8 KV cache 6%",
    "TensorRT-LLM's DeepSeek R1 throughput blog (B200): expert parallelism gives a 142% speedup in the 1K/2K "
    "max-throughput case.",
    [("faithful", "Expert parallelism gave TensorRT-LLM a 142% speedup in DeepSeek R1's max-throughput case (1K input, "
      "2K output) on NVIDIA's B200 GPUs, NVIDIA says", S, [S],
      "Restates the percent with technique, model, case, ISL/OSL, engine and hardware."),
     ("wrong_setting", "Attention data parallelism sped up DeepSeek R1's max-throughput case by 142% in TensorRT-LLM on "
      "B200 GPUs", C, [C],
      "Technique changed: attention DP is credited with a 400% speedup; 142% is expert parallelism."),
     ("wrong_setting", "Expert parallelism sped up DeepSeek R1 by 142% in TensorRT-LLM's min-latency scenario on B200 "
      "GPUs", U, [U, C],
      "Scenario changed: the 142% is the max-throughput case; no EP figure is given for min-latency (blog1 has none)."),
     ("wrong_hardware", "Expert parallelism gave TensorRT-LLM a 142% speedup on DeepSeek R1 running on H100 GPUs", U,
      [U, C],
      "Hardware changed: the measurement is on Blackwell B200; no H100 EP figure is in the record."),
     ("inflated", "Expert parallelism lifted TensorRT-LLM's DeepSeek R1 max throughput on B200 by 175%", C, [C],
      "Value inflated: the post gives 142% for the 1K/2K max-throughput case."),
     ])

# ---------------------------------------------------------------------------------------------------------------

def build():
    rows = []
    n = 0
    for f in FIGS:
        for kind, headline, expected, accept, why in f["rows"]:
            n += 1
            rows.append({"id": "h10-%03d" % n, "kind": kind, "headline": headline, "expected": expected,
                         "accept": list(accept), "false_headline": kind != "faithful", "source": f["source"],
                         "figure": dict(f["figure"]), "why": f["base_why"] + " " + why})
    return rows


def source_path(src):
    if src.startswith("structured/"):
        return os.path.join(CORPUS, src)
    return os.path.join(CORPUS, "real", src)


def validate(rows):
    errs = []
    if len(rows) != 80:
        errs.append("expected 80 rows, got %d" % len(rows))
    heads = set()
    pairs = set()
    for i, r in enumerate(rows):
        rid = "h10-%03d" % (i + 1)
        if r.get("id") != rid:
            errs.append("%s: id %r out of order" % (rid, r.get("id")))
        if list(r.keys()) != ROW_KEYS:
            errs.append("%s: row keys %s" % (rid, list(r.keys())))
        if list(r["figure"].keys()) != FIG_KEYS:
            errs.append("%s: figure keys %s" % (rid, list(r["figure"].keys())))
        if r["kind"] not in KINDS:
            errs.append("%s: kind %s" % (rid, r["kind"]))
        if r["expected"] not in VERDICTS or any(a not in VERDICTS for a in r["accept"]):
            errs.append("%s: verdict outside set" % rid)
        if r["expected"] not in r["accept"]:
            errs.append("%s: expected not in accept" % rid)
        if len(set(r["accept"])) != len(r["accept"]):
            errs.append("%s: duplicate accept" % rid)
        if r["false_headline"] != (r["kind"] != "faithful"):
            errs.append("%s: false_headline inconsistent with kind" % rid)
        if r["false_headline"] and (r["expected"] == "supported" or "supported" in r["accept"]):
            errs.append("%s: supported allowed for a false headline" % rid)
        if not r["false_headline"] and (r["expected"] != "supported" or r["accept"] != ["supported"]):
            errs.append("%s: faithful must be supported only" % rid)
        if r["kind"] == "ambiguous" and r["expected"] != "ambiguous":
            errs.append("%s: ambiguous kind must expect ambiguous" % rid)
        if r["headline"] in heads:
            errs.append("%s: duplicate headline" % rid)
        heads.add(r["headline"])
        if not os.path.exists(source_path(r["source"])):
            errs.append("%s: source missing %s" % (rid, r["source"]))
        if not isinstance(r["figure"]["value"], (int, float)):
            errs.append("%s: figure value not numeric" % rid)
    for b in range(0, len(rows), 5):
        blk = rows[b:b + 5]
        faithful = [r for r in blk if r["kind"] == "faithful"]
        if len(faithful) != 1:
            errs.append("block %d: %d faithful rows" % (b // 5 + 1, len(faithful)))
        keys = {(r["source"], json.dumps(r["figure"], sort_keys=True)) for r in blk}
        if len(keys) != 1:
            errs.append("block %d: more than one figure" % (b // 5 + 1))
        pairs.add((blk[0]["source"], blk[0]["figure"]["value"]))
    if len(pairs) != 16:
        errs.append("expected 16 distinct (source, value) pairs, got %d" % len(pairs))
    return errs


def main():
    if "--check" not in sys.argv[1:]:
        rows = build()
        with open(OUT, "w", encoding="utf-8") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT, encoding="utf-8") as fh:
        rows = [json.loads(l) for l in fh if l.strip()]
    errs = validate(rows)
    if errs:
        print("\n".join(errs))
        sys.exit(1)
    from collections import Counter
    print("ok: %d rows" % len(rows))
    print("kinds:", dict(Counter(r["kind"] for r in rows).most_common()))
    print("expected:", dict(Counter(r["expected"] for r in rows).most_common()))
    print("false_headline:", dict(Counter(r["false_headline"] for r in rows)))


if __name__ == "__main__":
    main()
