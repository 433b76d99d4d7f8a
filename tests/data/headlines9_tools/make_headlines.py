#!/usr/bin/env python3
"""Write and validate headlines.jsonl (suite 9, h9-001 .. h9-080).

16 figures x 5 headlines: one faithful headline (expected `supported`) and four false
headlines, each one change away from the true figure. Run:

    python3 make_headlines.py            # writes headlines.jsonl next to this file, then validates it
    python3 make_headlines.py --check    # validates the existing file only

The validation asserts: 80 rows, ids h9-001..h9-080 in order, unique headlines, field order,
kinds and verdicts from fixed sets, `expected` in `accept`, no `supported` in `accept` for a
false headline, `false_headline` consistent with the kind, one faithful headline per figure,
one figure (source + figure dict) per block of 5, 16 distinct (source, value) pairs, and every
source path present under /work/shared/corpus/.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "headlines.jsonl")
CORPUS = "/work/shared/corpus"

FIELDS = ["id", "kind", "headline", "expected", "accept", "false_headline", "source", "figure", "why"]
FIGURE_FIELDS = ["value", "unit", "family", "scope", "model", "hardware", "engine", "settings"]
KINDS = {
    "faithful", "inflated", "up_to_inflated", "up_to_as_typical", "reversed_direction",
    "wrong_quantity", "wrong_setting", "wrong_model", "wrong_hardware", "wrong_engine",
    "wrong_baseline", "wrong_denominator", "wrong_source", "unsourced", "ambiguous",
}
VERDICTS = {"supported", "contradicted", "unproven", "ambiguous"}

C, U, A, S = "contradicted", "unproven", "ambiguous", "supported"

MLPERF = "structured/mlperf-inference-v5.1/summary_results_llm.json"

# Each figure: source, figure dict, base `why` (what the record says), and five headlines
# (kind, headline, expected, accept, what changed).
FIGURES = [
    # ---------------------------------------------------------------- F1 structured (MLPerf)
    dict(
        source=MLPERF,
        figure=dict(
            value=93045.8, unit="tokens/s", family="token_throughput", scope="per_system",
            model="Llama 2 70B (llama2-70b-99; 5.1-0099 gives the same value for llama2-70b-99.9)",
            hardware="AMD QuantaGrid D74A-7U (platform 8xMI355X_2xEPYC_9575F): 1 node x 8 AMD Instinct MI355X 288GB HBM3e",
            engine="vLLM 0.9.1.dev2 (ROCm 6.5.0), PyTorch 2.8.0a0",
            settings="MLPerf Inference v5.1, OPEN division, datacenter, Offline, result ID 5.1-0098, mxfp4 weights; "
                     "no MI355X row in the closed division and no MI355X Server/Interactive row; AMD_MangoBoost 4-node "
                     "32x MI355X open Offline 350,820 (5.1-0102) and 8-node 648,248 (5.1-0104); AMD's MI325X on the same "
                     "QuantaGrid D74A-7U system name, closed Offline 34,520.4 (5.1-0002)",
        ),
        why="MLPerf v5.1 row 5.1-0098 (AMD, open division, Offline): Llama 2 70B at 93,045.8 tokens/s for the whole "
            "1-node, 8x MI355X system (mxfp4, vLLM 0.9.1 dev on ROCm 6.5).",
        rows=[
            ("faithful",
             "AMD's eight-GPU Instinct MI355X server reached about 93,000 tokens per second on Llama 2 70B in MLPerf "
             "Inference v5.1's open-division Offline test, running MXFP4 weights on vLLM",
             S, [S], "Restates the row: submitter, GPU count, model, division, scenario, precision, engine; "
                     "'about 93,000' meets 93,045.8 at its rounding."),
            ("wrong_denominator",
             "Each AMD MI355X GPU pushed 93,045.8 tokens per second through Llama 2 70B in MLPerf Inference v5.1",
             C, [C, U, A], "93,045.8 is the whole 8-GPU system's figure (MLPerf rows are per system), not per GPU; "
                           "per GPU it would be ~11.6K (a derivation, not an official result)."),
            ("wrong_setting",
             "AMD's single-node MI355X system posted 93,045.8 tokens per second on Llama 2 70B in MLPerf Inference "
             "v5.1's closed division",
             U, [U, C], "Division changed: the 93,045.8 row is in the OPEN division (mxfp4 weights); the file holds no "
                        "closed-division MI355X result, so the closed claim is not in the record."),
            ("wrong_hardware",
             "AMD's eight-GPU Instinct MI325X server hit 93,045.8 tokens per second on Llama 2 70B in MLPerf v5.1's "
             "Offline scenario",
             C, [C], "Accelerator changed: AMD's 8x MI325X QuantaGrid D74A-7U did 34,520.4 tokens/s Offline (5.1-0002, "
                     "closed); no MI325X row is near 93K."),
            ("wrong_setting",
             "A four-node, 32-GPU MI355X cluster managed 93,045.8 tokens per second on Llama 2 70B in MLPerf v5.1's "
             "open Offline test",
             C, [C], "Node count changed: the 4-node 32x MI355X open Offline row (AMD_MangoBoost, 5.1-0102) is "
                     "350,820 tokens/s; 93,045.8 is the 1-node, 8-GPU system."),
        ],
    ),
    # ---------------------------------------------------------------- F2 structured (MLPerf)
    dict(
        source=MLPERF,
        figure=dict(
            value=3009.38, unit="tokens/s", family="token_throughput", scope="per_system",
            model="Llama 2 70B (llama2-70b-99; same value for llama2-70b-99.9)",
            hardware="Intel '1-node-4x-BMG-Pro-B60-Dual': 1 node x 4 '[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo' (a# = 4)",
            engine="vLLM 0.9.0, PyTorch 2.7.0",
            settings="MLPerf Inference v5.1, CLOSED division, datacenter, Offline, result ID 5.1-0056, UINT4 weights; "
                     "same system Server 2,110.05; same system Llama 3.1 8B Offline 6,472.37 / Server 5,348.45; "
                     "1x B60 Dual llama3.1-8b-edge Offline 1,652.47 (5.1-0057); every Intel Arc row is UINT4",
        ),
        why="MLPerf v5.1 row 5.1-0056 (Intel, closed, Offline): Llama 2 70B at 3,009.38 tokens/s for the whole "
            "1-node system of four Arc Pro B60 Dual cards (UINT4, vLLM 0.9.0).",
        rows=[
            ("faithful",
             "Intel's four-card Arc Pro B60 Dual system ran Llama 2 70B at just over 3,000 tokens per second in "
             "MLPerf Inference v5.1's closed Offline test, with 4-bit (UINT4) weights on vLLM",
             S, [S], "Restates the row; 'just over 3,000' is a floor met by 3,009.38 (whole system)."),
            ("wrong_setting",
             "In MLPerf v5.1's Server scenario, Intel's four Arc Pro B60 Dual cards sustained 3,009 tokens per second "
             "on Llama 2 70B",
             C, [C], "Scenario changed: the same system's Server result is 2,110.05 tokens/s; 3,009.38 is Offline."),
            ("wrong_model",
             "Intel's Arc Pro B60 Dual system generated 3,009 tokens per second on Llama 3.1 8B in MLPerf v5.1 "
             "Offline",
             C, [C], "Model changed: the same system's Llama 3.1 8B Offline result is 6,472.37 tokens/s."),
            ("wrong_denominator",
             "Each Intel Arc Pro B60 Dual card generated about 3,000 tokens per second on Llama 2 70B in MLPerf v5.1",
             C, [C, U, A], "3,009.38 is the whole 4-card system's figure, not per card (~752 per card, a derivation)."),
            ("wrong_setting",
             "Running FP8 weights, Intel's Arc Pro B60 system reached 3,009 tokens per second on Llama 2 70B in MLPerf "
             "v5.1",
             U, [U, C], "Precision changed: the row's weights are UINT4; no Intel Arc FP8 result is in the file."),
        ],
    ),
    # ---------------------------------------------------------------- F3 structured (llmperf)
    dict(
        source="structured/llmperf-leaderboard/raw_data/summary/lepton_13b.json",
        figure=dict(
            value=1.0804, unit="s", family="latency", scope="per_user",
            model="Llama 2 13B chat (llama2-13b)",
            hardware="", engine="Lepton API (llama2-13b.lepton.run)",
            settings="LLMPerf leaderboard, Dec 2023: 550 input / 150 output tokens, 5 concurrent requests, 150 requests "
                     "started (130 failed with HTTP 429, 20 completed; error rate 0.867), client in AWS us-west-2; "
                     "TTFT median (p50) 1.0804 s (README 1.08), mean 1.0672 (README 1.07), p99 1.3719 (README 1.37), "
                     "min 0.82, max 1.40; Lepton 7B median 1.13 (JSON 1.131), Lepton 70B median 0.93 (0.9253)",
        ),
        why="llmperf raw_data/summary/lepton_13b.json: median time to first token 1.0804 s (README table: 1.08) for "
            "Lepton's Llama 2 13B endpoint, 550/150 tokens, 5 concurrent requests; p99 1.3719; only 20 of 150 "
            "requests completed (130 HTTP 429 errors).",
        rows=[
            ("faithful",
             "Lepton's Llama 2 13B endpoint took a median 1.08 seconds to return its first token in the LLMPerf "
             "leaderboard test (550 input and 150 output tokens, 5 concurrent requests)",
             S, [S], "Restates provider, model, statistic, value and run settings; 1.08 = 1.0804 at its rounding."),
            ("inflated",
             "Lepton's Llama 2 13B endpoint delivered its first token in under one second at the median in the "
             "LLMPerf leaderboard",
             C, [C], "Number moved beyond its rounding in the favourable direction: the median is 1.08 s, above one "
                     "second (only the minimum, 0.82 s, is below 1 s)."),
            ("wrong_setting",
             "Lepton's Llama 2 13B endpoint kept its 99th-percentile time to first token at 1.08 seconds in LLMPerf",
             C, [C], "Statistic changed: 1.08 s is the median; the p99 is 1.37 s (JSON 1.3719)."),
            ("wrong_model",
             "Lepton served Llama 2 7B with a median time to first token of 1.08 seconds in the LLMPerf leaderboard",
             C, [C], "Model changed: Lepton's 7B median TTFT is 1.13 s (JSON 1.131); 1.08 is the 13B."),
            ("wrong_setting",
             "At 50 concurrent requests, Lepton's Llama 2 13B endpoint held median time to first token to 1.08 "
             "seconds",
             U, [U], "Concurrency changed: every LLMPerf run used 5 concurrent requests; no 50-concurrency run exists."),
        ],
    ),
    # ---------------------------------------------------------------- F4 structured (MLPerf run log)
    dict(
        source="structured/mlperf-inference-v5.1/closed/Dell/results/XE9680L_B200_SXM_180GBx8_TRT/llama3.1-8b/"
               "Interactive/performance/run_1/mlperf_log_summary.txt",
        figure=dict(
            value=0.328857803, unit="s", family="latency", scope="per_user",
            model="Llama 3.1 8B (llama3.1-8b)",
            hardware="Dell PowerEdge XE9680L, 8x NVIDIA B200-SXM-180GB",
            engine="TensorRT (TensorRT-LLM stack; per the summary JSON row 5.1-0024)",
            settings="MLPerf Inference v5.1 closed, Interactive folder (the log header reads 'Scenario : Server'), "
                     "PerformanceOnly, VALID; 99.00 percentile first token latency 328,857,803 ns; p50 TTFT 100,915,228 "
                     "ns, mean 106,876,967 ns, p99.9 409,984,628 ns; p99 TPOT 26,070,647 ns (mean 23,714,872); limits "
                     "ttft_latency 500,000,000 ns, tpot_latency 30,000,000 ns; 102,906.82 completed tokens/s; target_qps 800",
        ),
        why="Dell's mlperf_log_summary.txt (Llama 3.1 8B, Interactive folder, 8x B200): '99.00 percentile first "
            "token latency (ns) : 328857803' = 0.329 s, under the run's 500 ms TTFT limit; median TTFT 100.9 ms; "
            "p99 time per output token 26.07 ms.",
        rows=[
            ("faithful",
             "Dell's eight-B200 PowerEdge XE9680L kept 99th-percentile time to first token at about 329 milliseconds "
             "on Llama 3.1 8B in its MLPerf v5.1 Interactive run",
             S, [S], "Restates system, model, scenario folder, statistic and value (328.86 ms ~ 329 ms)."),
            ("wrong_setting",
             "Dell's B200 server had a median time to first token of 329 milliseconds on Llama 3.1 8B in MLPerf v5.1 "
             "Interactive",
             C, [C], "Statistic changed: the median (p50) first-token latency is 100.9 ms; 329 ms is the p99."),
            ("wrong_quantity",
             "Dell's 8x B200 system posted a 99th-percentile time per output token of 329 milliseconds on Llama 3.1 "
             "8B in MLPerf v5.1 Interactive",
             C, [C], "Quantity changed (TTFT -> TPOT): the p99 time per output token is 26.07 ms; 329 ms is time to "
                     "first token."),
            ("reversed_direction",
             "Dell's B200 run blew past MLPerf's 500-millisecond first-token limit at the 99th percentile on Llama "
             "3.1 8B Interactive",
             C, [C], "Direction reversed: p99 TTFT 328.9 ms is below the run's 500 ms ttft_latency limit, and the "
                     "run is VALID with performance constraints satisfied."),
            ("wrong_model",
             "Dell's eight-B200 server held 99th-percentile time to first token to 329 ms on Llama 2 70B in MLPerf "
             "v5.1",
             U, [U], "Model changed: the only run log for this Dell system is Llama 3.1 8B; the summary JSON gives no "
                     "TTFT, and the other log (AMD MI300X, Llama 2 70B) is another system."),
        ],
    ),
    # ---------------------------------------------------------------- F5 Markdown table
    dict(
        source="tensorrt-llm/perf-overview.md",
        figure=dict(
            value=2842.0, unit="tokens/s", family="token_throughput", scope="per_gpu",
            model="Mixtral 8x7B",
            hardware="A100 (FP16), TP 2",
            engine="TensorRT-LLM v0.9.0",
            settings="Peak Throughput table 'A100 GPUs (FP16)', column 'Throughput (out tok/s/GPU)': batch 512, TP 2, "
                     "input 128, output 128; same model 128/2048 1,724, 2048/128 319, 2048/2048 801; Mistral 7B A100 "
                     "128/128 6,251; Mixtral appears only in the A100 tables (also 23.8 ms first-token latency at "
                     "batch 1, 128 input)",
        ),
        why="perf-overview.md, A100 (FP16) peak-throughput table: Mixtral 8x7B, batch 512, TP 2, 128 in / 128 out -> "
            "2,842 output tokens/s per GPU (TensorRT-LLM v0.9.0).",
        rows=[
            ("faithful",
             "TensorRT-LLM 0.9 pushed Mixtral 8x7B to 2,842 output tokens per second per A100 GPU in FP16, with "
             "two-way tensor parallelism, batch 512 and 128-token inputs and outputs",
             S, [S], "Restates the table cell with its denominator (per GPU), precision and row settings."),
            ("wrong_setting",
             "TensorRT-LLM ran Mixtral 8x7B at 2,842 output tokens per second per A100 with 2,048-token prompts and "
             "128-token outputs",
             C, [C], "Input length changed: the 2048-in / 128-out Mixtral row is 319 tokens/s/GPU; 2,842 is 128/128."),
            ("wrong_hardware",
             "TensorRT-LLM v0.9 hit 2,842 output tokens per second per H100 GPU on Mixtral 8x7B",
             U, [U], "GPU changed: the H100 (FP8) tables hold no Mixtral row, and no other document gives a per-H100 "
                     "Mixtral throughput."),
            ("ambiguous",
             "Mixtral 8x7B inference has been pushed past 2,800 tokens per second",
             A, [A, U], "Subjectless (no engine, hardware or submitter) and the denominator is open (per GPU, per "
                        "system?): per GPU 2,842 (this table) and per system 30K-70K (MLPerf Mixtral rows) would both "
                        "meet it, so no single figure settles it."),
            ("wrong_model",
             "TensorRT-LLM v0.9 ran Mistral 7B at 2,842 output tokens per second per A100 with 128-token inputs and "
             "outputs",
             C, [C], "Model changed (adjacent row): Mistral 7B on A100 at 128/128 is 6,251 tokens/s/GPU."),
        ],
    ),
    # ---------------------------------------------------------------- F6 Markdown table
    dict(
        source="mooncake/sglang-benchmark-results-v1.md",
        figure=dict(
            value=1.11194, unit="s", family="latency", scope="per_user",
            model="Qwen2.5-7B-Instruct-GPTQ-Int4",
            hardware="two A10 servers ('We evaluated the earlier implementation on two A10 servers')",
            engine="SGLang PD disaggregation (1P1D) with Mooncake transfer",
            settings="'Traffic Request Rate: 4.0' table: TP 2, random_input_len 2048, random_output_len 512, 200 prompts; "
                     "1P1D Mean TTFT 1111.94 ms, P99 TTFT 2725.89 ms, mean ITL 17.06 ms; 2 Regular Mean TTFT 310.01 ms, "
                     "P99 720.91; at request rate 1.0 (TP 4, 8192/512, 50 prompts) 1P1D mean TTFT 732.54 ms; the H20 "
                     "section uses Qwen3-235B at concurrency 1",
        ),
        why="Mooncake's SGLang PD-disaggregation page, request-rate-4.0 table (Qwen2.5-7B GPTQ-Int4, TP 2, 2048/512, "
            "two A10 servers): 1P1D mean TTFT 1,111.94 ms versus 310.01 ms for 2 regular instances (disaggregation "
            "is slower on TTFT here, faster on ITL).",
        rows=[
            ("faithful",
             "In Mooncake's SGLang tests on two A10 servers, a 1P1D prefill-decode disaggregated setup averaged about "
             "1.11 seconds to first token at 4 requests per second (Qwen2.5-7B GPTQ-Int4, 2,048-token inputs)",
             S, [S], "Restates configuration, statistic (mean), request rate, model and input length; 1.11 s = "
                     "1,111.94 ms at its rounding."),
            ("reversed_direction",
             "Prefill-decode disaggregation cut SGLang's mean time to first token from 1,112 ms to 310 ms at 4 "
             "requests per second in Mooncake's A10 tests",
             C, [C], "Direction reversed: 1,111.94 ms is the disaggregated 1P1D figure and 310.01 ms the two regular "
                     "instances; disaggregation raised mean TTFT."),
            ("wrong_setting",
             "SGLang's 1P1D disaggregated setup kept 99th-percentile time to first token at 1,112 ms at 4 requests "
             "per second",
             C, [C], "Statistic changed: P99 TTFT of 1P1D at rate 4.0 is 2,725.89 ms; 1,111.94 is the mean."),
            ("wrong_setting",
             "At 1 request per second, SGLang's 1P1D mode averaged about 1.11 seconds to first token in Mooncake's "
             "A10 tests",
             C, [C], "Request rate changed: the rate-1.0 table gives 1P1D mean TTFT 732.54 ms."),
            ("wrong_hardware",
             "On NVIDIA H20 servers, SGLang's 1P1D mode averaged 1.11 seconds to first token for Qwen2.5-7B",
             U, [U], "Hardware changed: the H20 experiments use Qwen3-235B at concurrency 1 (no 1,111.94 ms); no "
                     "Qwen2.5-7B result on H20 is in the record."),
        ],
    ),
    # ---------------------------------------------------------------- F7 PDF text table (slides)
    dict(
        source="sglang-learning-materials/lmsys_1st_meetup_sglang.pdf",
        figure=dict(
            value=6.6, unit="s", family="latency", scope="aggregate",
            model="Llama-3.2-1B",
            hardware="not stated",
            engine="SGLang (normal scheduler + one batched HTTP call)",
            settings="slide 18 'Benchmark results', setup: Llama-3.2-1B, batch size 256, input len 4096, output len 16; "
                     "normal scheduler + many individual HTTP calls 7.0 s; normal scheduler + one batched HTTP call "
                     "6.6 s; overlap scheduler + one batched HTTP call 6.0 s; pure GPU computation time 5.6 s",
        ),
        why="LMSYS first SGLang meetup slides, p18 (a 4-row text table): Llama-3.2-1B, batch 256, 4096 in / 16 out: "
            "7.0 s (many individual HTTP calls) -> 6.6 s (one batched HTTP call, normal scheduler) -> 6.0 s (overlap "
            "scheduler) vs 5.6 s pure GPU time.",
        rows=[
            ("faithful",
             "Sending one batched HTTP call instead of many cut SGLang's Llama-3.2-1B benchmark (batch 256, "
             "4,096-token inputs, 16-token outputs) from 7.0 to 6.6 seconds with the normal scheduler",
             S, [S], "Restates the 6.6 s cell with its baseline row (7.0 s) and the slide's setup."),
            ("wrong_setting",
             "SGLang's new overlap scheduler finished the Llama-3.2-1B batch-256 benchmark in 6.6 seconds",
             C, [C], "Technique changed: the overlap-scheduler row is 6.0 s; 6.6 s is the normal scheduler with one "
                     "batched HTTP call."),
            ("reversed_direction",
             "Batching HTTP calls slowed SGLang's Llama-3.2-1B benchmark from 6.6 to 7.0 seconds",
             C, [C], "Direction reversed: many individual calls took 7.0 s and one batched call 6.6 s."),
            ("wrong_model",
             "SGLang's normal scheduler with one batched HTTP call processed a Llama-3.1-8B batch of 256 requests in "
             "6.6 seconds",
             U, [U], "Model changed: the slide's benchmark is Llama-3.2-1B; no Llama-3.1-8B timing is given."),
            ("wrong_setting",
             "With 16-token prompts and 4,096-token outputs, SGLang's batched-HTTP run of Llama-3.2-1B took 6.6 "
             "seconds",
             U, [U, C], "Input and output lengths swapped: the setup is input 4096, output 16; no run with 16-token "
                        "prompts and 4,096-token outputs is reported."),
        ],
    ),
    # ---------------------------------------------------------------- F8 PDF table (paper)
    dict(
        source="minimax-m1/MiniMax_M1_tech_report.pdf",
        figure=dict(
            value=100000.0, unit="tokens", family="tokens", scope="unspecified",
            model="OpenAI o3",
            hardware="", engine="",
            settings="Table 1 (p3) 'The maximum supported input length and output length (# tokens) of different "
                     "reasoning models': o3 200K / 100K; Gemini 2.5 Pro 1M / 64K; Claude 4 (Opus) 200K / 32K; DS-R1 "
                     "(0528) 128K / 64K; Qwen3-235B 128K / 32K; MiniMax-M1-80k 1M / 80K (Max Input / Max Output); "
                     "reported by MiniMax about other labs' models",
        ),
        why="MiniMax-M1 tech report, Table 1 (flattened PDF text: 'Max Output 100K 64K 32K 64K 32K 80K' under the "
            "header 'o3 Gemini 2.5 Pro Claude 4 DS-R1 Qwen3-235B MiniMax-M1-80k'): o3's maximum output is 100K "
            "tokens (max input 200K).",
        rows=[
            ("faithful",
             "MiniMax's M1 technical report lists OpenAI's o3 with a maximum output length of 100K tokens",
             S, [S], "Restates the cell and who reports it (MiniMax's table)."),
            ("wrong_model",
             "MiniMax's M1 report gives Gemini 2.5 Pro a maximum output length of 100K tokens",
             C, [C], "Column shifted: Gemini 2.5 Pro's max output in the same row is 64K; 100K belongs to o3."),
            ("wrong_quantity",
             "MiniMax's M1 comparison table gives OpenAI's o3 a maximum input length of 100K tokens",
             C, [C], "Row changed (output -> input): o3's max input in Table 1 is 200K; 100K is its max output."),
            ("reversed_direction",
             "MiniMax-M1-80k can generate longer outputs than OpenAI's o3, the M1 report's comparison table shows",
             C, [C], "Direction reversed: MiniMax-M1-80k's max output is 80K, below o3's 100K."),
            ("wrong_source",
             "OpenAI's own documentation puts o3's maximum output at 100K tokens",
             U, [U], "Source changed: the 100K figure is reported only by MiniMax's table about another lab's model; "
                     "no OpenAI document is in the record."),
        ],
    ),
    # ---------------------------------------------------------------- F9 PDF (slides)
    dict(
        source="sglang-learning-materials/amd_meetup_highlights.pdf",
        figure=dict(
            value=152.0, unit="%", family="percent", scope="aggregate",
            model="Grok-1",
            hardware="AMD MI300X (2x TP4 instances) vs a competitor's 1x TP8",
            engine="SGLang",
            settings="slide 4 'Q4/24 Highlights', enablement of GROK1 with SGLang on MI300x (12/17/2024): 'Offline Mode, "
                     "2xTP4 v.s. 1xTP8 : Throughput is around 133~152% of competitor' (range 133-152%); same slide: "
                     "Server mode IL1024-OL1024 E2E latency ~80% of competitor; Offline 1xTP8 vs 1xTP8 E2E latency "
                     "~105~118% of competitor; production: 30% of traffic on 800 MI300X, p50 10% faster. Competitor "
                     "unnamed (amd_dev_day_v2 p25 compares Grok-1 H100 TP=8 vs MI300 2x TP=4, without numbers)",
        ),
        why="AMD x SGLang highlights deck, slide 4: Grok-1 on MI300X with SGLang, Offline mode, 2xTP4 vs the "
            "competitor's 1xTP8: throughput around 133~152% of the competitor's.",
        rows=[
            ("faithful",
             "SGLang on AMD MI300X ran Grok-1 offline at roughly 133% to 152% of a competitor's throughput, using two "
             "TP4 instances against the rival's single TP8, AMD's slides say",
             S, [S], "Restates the range, mode, configuration and baseline (an unnamed competitor)."),
            ("wrong_setting",
             "In a like-for-like single-TP8 offline setup, SGLang on MI300X delivered 133% to 152% of a competitor's "
             "Grok-1 throughput",
             U, [U, C], "Configuration changed: for 1xTP8 vs 1xTP8 the slide gives only E2E latency (~105~118% of "
                        "competitor), no throughput; 133~152% is for 2xTP4 vs 1xTP8."),
            ("reversed_direction",
             "A competitor's platform delivered 133% to 152% of SGLang-on-MI300X's offline Grok-1 throughput",
             C, [C], "Direction reversed: MI300X with SGLang is the one at 133~152% of the competitor."),
            ("up_to_inflated",
             "SGLang on MI300X reached up to 1.8x a competitor's offline Grok-1 throughput",
             C, [C], "Best case inflated: the slide's top of range is ~152% (1.52x); nothing reaches 1.8x."),
            ("wrong_model",
             "SGLang on MI300X ran DeepSeek-V3 offline at 133% to 152% of a competitor's throughput",
             U, [U], "Model changed: the 133~152% is Grok-1; the deck gives no DeepSeek-V3 throughput ratio."),
        ],
    ),
    # ---------------------------------------------------------------- F10 PDF (slides)
    dict(
        source="sglang-learning-materials/sglang_deepseek_model_optimizations.pdf",
        figure=dict(
            value=3000.0, unit="tokens/s", family="token_throughput", scope="aggregate",
            model="DeepSeek-V3",
            hardware="not stated",
            engine="SGLang (DeepSeek-V3 support since v0.4.1)",
            settings="slide 20 'Benchmark': 'Large QPS: Achieved ~3000 tok/s output throughput on ShareGPT dataset.' and "
                     "'Batch size 1: Achieve 37 tok/s output throughput.'",
        ),
        why="SGLang DeepSeek optimizations deck, slide 20: DeepSeek-V3 on SGLang reaches ~3000 tok/s output "
            "throughput at large QPS on ShareGPT; 37 tok/s at batch size 1.",
        rows=[
            ("faithful",
             "SGLang served DeepSeek-V3 at about 3,000 output tokens per second under heavy request load on the "
             "ShareGPT dataset",
             S, [S], "Restates value (approximate), token kind, load condition, dataset and model."),
            ("wrong_setting",
             "At batch size 1, SGLang generated about 3,000 tokens per second on DeepSeek-V3",
             C, [C], "Batch size changed: the batch-size-1 figure on the same slide is 37 tok/s."),
            ("wrong_denominator",
             "SGLang streams DeepSeek-V3 output to each user at about 3,000 tokens per second",
             C, [C, U, A], "Denominator changed: ~3000 tok/s is total output throughput at large QPS; a single "
                           "stream (batch size 1) gets 37 tok/s."),
            ("wrong_quantity",
             "SGLang processed about 3,000 prompt tokens per second on DeepSeek-V3 under heavy ShareGPT load",
             U, [U], "Token kind changed (output -> input): the slide gives output throughput only."),
            ("wrong_engine",
             "vLLM served DeepSeek-V3 at about 3,000 output tokens per second on the ShareGPT dataset",
             U, [U], "Engine changed: the ~3000 tok/s is SGLang's; no vLLM DeepSeek-V3 ShareGPT figure is in the "
                     "record."),
        ],
    ),
    # ---------------------------------------------------------------- F11 PDF (paper prose)
    dict(
        source="mooncake/Mooncake-FAST25.pdf",
        figure=dict(
            value=4.6, unit="x", family="ratio", scope="aggregate",
            model="LLaMA3-70B KVCache, 40 GB (128k tokens)",
            hardware="8x400 Gbps RDMA NICs (inter-node)",
            engine="Mooncake transfer engine (baseline: TCP)",
            settings="§5.4.1 Transfer Engine: concurrency 64, 128 KB minimum transfer granularity; 40 GB transfer: 87 GB/s "
                     "(4x200 Gbps) and 190 GB/s (8x400 Gbps), 'approximately 2.4x and 4.6x faster than those achieved "
                     "using the TCP protocol'; Figure 12 chart text also shows 7.5x (4x200) and 16.2x (8x400), "
                     "presumably against Gloo (flattened chart text)",
        ),
        why="Mooncake FAST'25 paper §5.4.1: moving a 40 GB LLaMA3-70B KVCache (128k tokens), the transfer engine "
            "reaches 190 GB/s on 8x400 Gbps, about 4.6x faster than TCP (2.4x on 4x200 Gbps, at 87 GB/s).",
        rows=[
            ("faithful",
             "Mooncake's transfer engine moved a 40 GB LLaMA3-70B KV cache about 4.6 times faster than TCP on an "
             "8x400 Gbps network",
             S, [S], "Restates ratio, baseline (TCP), payload and network configuration."),
            ("wrong_setting",
             "On 4x200 Gbps NICs, Mooncake's transfer engine ran 4.6 times faster than TCP for a 40 GB cache transfer",
             C, [C], "Network changed: on 4x200 Gbps the paper gives ~2.4x (87 GB/s); 4.6x is 8x400 Gbps."),
            ("wrong_baseline",
             "Mooncake's transfer engine beat torch.distributed's Gloo backend by 4.6x on an 8x400 Gbps network",
             U, [U, C], "Baseline changed: the prose's 4.6x is against TCP; against Gloo only the flattened Figure 12 "
                        "chart text (16.2x) speaks, so the Gloo claim is not settled by a stated figure."),
            ("reversed_direction",
             "Plain TCP transfers beat Mooncake's transfer engine by 4.6x on 8x400 Gbps networks",
             C, [C], "Direction reversed: the transfer engine is ~4.6x faster than TCP."),
            ("wrong_quantity",
             "Mooncake's transfer engine cut average time to first token 4.6-fold on an 8x400 Gbps network",
             U, [U], "Quantity changed: 4.6x is a transfer-speed ratio for a 40 GB cache; the paper gives no 4.6x "
                     "TTFT ratio (§5.4.2 discusses TTFT against bandwidth without such a ratio)."),
        ],
    ),
    # ---------------------------------------------------------------- F12 prose
    dict(
        source="deepspeed/deepspeed-fastgen/2024-01-19/README.md",
        figure=dict(
            value=2.5, unit="x", family="ratio", scope="unspecified",
            model="Mixtral (MoE), Falcon and Phi-2 model families",
            hardware="A100 (benchmarks: Mixtral TP4, Phi-2 TP1, Falcon-40B TP2, Falcon-180B TP8)",
            engine="DeepSpeed-FastGen (DeepSpeed >= 0.13.0, DeepSpeed-MII >= 0.2.0); baseline vLLM",
            settings="'Our inference optimizations for these models provide up to 2.5X improvement in effective "
                     "throughput over other state-of-the-art frameworks like vLLM'; measured cases: Mixtral-8x7B 2.4X "
                     "(prompt 1200, 60 generation steps), Phi-2 1.5X (prompt 1900, 60 steps); Falcon only qualitative; "
                     "the original FastGen post (Llama 2 70B, 4x A100) says up to 2.3x effective throughput and up to 2x "
                     "throughput",
        ),
        why="DeepSpeed-FastGen's January 2024 update: up to 2.5X effective-throughput improvement over vLLM for the "
            "new Mixtral, Falcon and Phi-2 families (measured: Mixtral 2.4X, Phi-2 1.5X).",
        rows=[
            ("faithful",
             "DeepSpeed-FastGen claims up to 2.5x higher effective throughput than vLLM on its newly supported "
             "Mixtral, Falcon and Phi-2 models",
             S, [S], "Restates the 'up to' best case, the metric (effective throughput), baseline and model families."),
            ("reversed_direction",
             "vLLM delivers up to 2.5x the effective throughput of DeepSpeed-FastGen on Mixtral, Falcon and Phi-2",
             C, [C], "Direction reversed: FastGen is the faster system in the post."),
            ("wrong_model",
             "DeepSpeed-FastGen offers up to 2.5x higher effective throughput than vLLM on Llama 2 70B",
             C, [C, U], "Model changed: for Llama 2 70B (4x A100) the original FastGen post's best case is up to 2.3x "
                        "effective throughput, below 2.5x."),
            ("wrong_baseline",
             "DeepSpeed-FastGen beats Hugging Face TGI by up to 2.5x on Mixtral, Falcon and Phi-2",
             U, [U], "Baseline changed: the measured comparisons are against vLLM only; no TGI comparison is given."),
            ("up_to_as_typical",
             "DeepSpeed-FastGen typically delivers 2.5x vLLM's effective throughput across Mixtral, Falcon and Phi-2",
             C, [C, U], "'Up to' turned into a typical value: the measured cases are 2.4X (Mixtral) and 1.5X (Phi-2); "
                        "2.5X is the best case."),
        ],
    ),
    # ---------------------------------------------------------------- F13 prose
    dict(
        source="rocm-blogs/llm-inference-optimize/README.md",
        figure=dict(
            value=3.0, unit="x", family="ratio", scope="unspecified",
            model="Llama-2-7B and Llama-2-70B",
            hardware="AMD CDNA2 GPUs: MI210 and MI250 (4x MI250 = 8 GCDs for multi-GPU TGI)",
            engine="PyTorch 2 compile, Flash Attention v2, paged_attention (vLLM), PyTorch TunableOp, Hugging Face TGI",
            settings="Summary: 'Using these optimizations, you can enjoy up to three times the out-of-the-box "
                     "acceleration, depending on batch size and input sequence length.'; the charts are images; paged "
                     "attention is said to cut decoding latency 'by two to four times'",
        ),
        why="ROCm blog 'LLM inference optimizations on AMD GPUs' (Mar 2024): PyTorch compile, FA2, paged attention, "
            "TunableOp and multi-GPU TGI give Llama 2 on MI210/MI250 up to 3x out-of-the-box acceleration, depending "
            "on batch size and input sequence length.",
        rows=[
            ("faithful",
             "AMD says PyTorch compilation, Flash Attention v2, paged attention and TunableOp give Llama 2 inference "
             "on MI210 and MI250 GPUs up to 3x out-of-the-box acceleration, depending on batch size and sequence length",
             S, [S], "Restates the 'up to' best case with its hardware, model, techniques and conditions."),
            ("up_to_inflated",
             "AMD's software optimizations speed up Llama 2 inference on MI210 and MI250 GPUs by as much as 5x",
             C, [C], "Best case inflated: the post's best case is up to three times."),
            ("wrong_hardware",
             "AMD's software optimizations make Llama 2 inference up to 3x faster on Instinct MI300X GPUs",
             U, [U], "GPU changed: the post covers CDNA2 (MI210, MI250); no MI300X result is in it."),
            ("wrong_baseline",
             "After software tuning, AMD's MI250 runs Llama 2 up to 3x faster than NVIDIA's A100",
             U, [U], "Baseline changed: the 3x is against the unoptimized out-of-the-box setup on the same AMD GPU, "
                     "not against an NVIDIA GPU."),
            ("up_to_as_typical",
             "AMD's optimization stack makes Llama 2 inference on MI210 three times faster at every batch size and "
             "sequence length",
             C, [C, U], "'Up to' turned into a uniform value: the post says up to 3x, depending on batch size and "
                        "input sequence length."),
        ],
    ),
    # ---------------------------------------------------------------- F14 prose
    dict(
        source="lmsys-blog/2025-05-05-large-scale-ep.md",
        figure=dict(
            value=2.54, unit="x", family="ratio", scope="aggregate",
            model="DeepSeek-V3 (large-scale EP setup)",
            hardware="H100 cluster (the post's 96-GPU PD + EP deployment)",
            engine="SGLang with EPLB (Expert Parallelism Load Balancer)",
            settings="'Ablation Study: EPLB' -> 'EPLB delivers a significant speedup of 1.49x (prefill) and 2.54x "
                     "(decode)' in throughput, large-scale settings",
        ),
        why="LMSYS large-scale EP post, EPLB ablation: EPLB gives a throughput speedup of 1.49x in prefill and 2.54x "
            "in decode for SGLang's DeepSeek deployment.",
        rows=[
            ("faithful",
             "EPLB expert load balancing lifted SGLang's DeepSeek decode throughput 2.54-fold in LMSYS's large-scale "
             "expert-parallel tests",
             S, [S], "Restates ratio, phase, technique and engine."),
            ("wrong_setting",
             "EPLB sped up SGLang's DeepSeek prefill throughput by 2.54x in large-scale expert parallelism",
             C, [C], "Phase changed: the prefill speedup is 1.49x; 2.54x is decode."),
            ("reversed_direction",
             "Enabling EPLB cut SGLang's DeepSeek decode throughput by a factor of 2.54",
             C, [C], "Direction reversed: EPLB raised decode throughput 2.54x."),
            ("wrong_quantity",
             "EPLB reduced SGLang's DeepSeek decode latency 2.54-fold",
             U, [U], "Quantity changed: 2.54x is a throughput ratio; no latency ratio for EPLB is given."),
            ("inflated",
             "EPLB more than tripled SGLang's DeepSeek decode throughput",
             C, [C], "Value inflated: the decode speedup is 2.54x, not above 3x."),
        ],
    ),
    # ---------------------------------------------------------------- F15 prose
    dict(
        source="tensorrt-llm/blog1_Pushing_Latency_Boundaries_Optimizing_DeepSeek-R1_Performance_on_NVIDIA_B200_GPUs.md",
        figure=dict(
            value=3.7, unit="x", family="ratio", scope="per_user",
            model="DeepSeek-R1",
            hardware="8x NVIDIA B200",
            engine="TensorRT-LLM",
            settings="min-latency scenario (single concurrency): 'progressing from 67 tokens per second (TPS) to 253 "
                     "before GTC 2025 (3.7x speed-up), and to our current number is 368 TPS (5.5x speed-up)'",
        ),
        why="TensorRT-LLM blog 1: DeepSeek-R1 min-latency (single-concurrency) speed on 8x B200 went from 67 TPS to 253 "
            "before GTC 2025 (3.7x), then to 368 TPS (5.5x).",
        rows=[
            ("faithful",
             "TensorRT-LLM lifted DeepSeek-R1's single-user speed on eight B200 GPUs from 67 to 253 tokens per second "
             "before GTC 2025, a 3.7x gain",
             S, [S], "Restates both endpoints, the ratio, the scenario (min latency, one user) and hardware."),
            ("wrong_setting",
             "TensorRT-LLM's current 368 tokens per second on DeepSeek-R1 is a 3.7x gain over its 67-token start on "
             "8x B200",
             C, [C], "Milestone changed: 368 TPS is the 5.5x speed-up; 3.7x is the pre-GTC 253 TPS."),
            ("wrong_hardware",
             "TensorRT-LLM made DeepSeek-R1 3.7x faster for a single user on eight H200 GPUs, reaching 253 tokens per "
             "second",
             U, [U], "GPU changed: the blog's runs are on 8x B200; no H200 result is given."),
            ("wrong_baseline",
             "Eight B200s run DeepSeek-R1 3.7x faster than eight H100s under TensorRT-LLM",
             U, [U], "Baseline changed: 3.7x is against TensorRT-LLM's own earlier 67 TPS on the same B200s, not "
                     "against H100."),
            ("wrong_denominator",
             "TensorRT-LLM reached 253 tokens per second per GPU on DeepSeek-R1 with eight B200s, 3.7x its starting "
             "point",
             C, [C, U, A], "Denominator changed: 253 TPS is the single-user (min-latency) speed of the whole 8-GPU "
                           "system, not per GPU."),
        ],
    ),
    # ---------------------------------------------------------------- F16 prose
    dict(
        source="lmdeploy/README.md",
        figure=dict(
            value=1.3, unit="x", family="ratio", scope="unspecified",
            model="Llama3-8B",
            hardware="not stated",
            engine="LMDeploy PyTorchEngine (with CUDA graph)",
            settings="news item [2024/09]: 'LMDeploy PyTorchEngine achieves 1.3x faster on Llama3-8B inference by "
                     "introducing CUDA graph'; other README ratios: TurboMind MXFP4 1.5x vLLM on H800 (gpt-oss), up to "
                     "1.8x request throughput vs vLLM, 4-bit 2.4x FP16, 2x faster KV8 kernels",
        ),
        why="LMDeploy README news (2024/09): PyTorchEngine is 1.3x faster on Llama3-8B inference after introducing "
            "CUDA graph (baseline: PyTorchEngine without CUDA graph).",
        rows=[
            ("faithful",
             "LMDeploy's PyTorchEngine runs Llama3-8B inference 1.3x faster after adding CUDA graphs",
             S, [S], "Restates engine, model, technique and ratio."),
            ("wrong_engine",
             "LMDeploy's TurboMind engine got 1.3x faster on Llama3-8B by adopting CUDA graphs",
             U, [U], "Engine changed: the 1.3x is for PyTorchEngine; no TurboMind CUDA-graph figure is given."),
            ("wrong_baseline",
             "LMDeploy's PyTorchEngine runs Llama3-8B 1.3x faster than vLLM",
             U, [U], "Baseline changed: 1.3x is against PyTorchEngine without CUDA graph; the README's vLLM "
                     "comparisons are other figures (up to 1.8x request throughput, 1.5x for gpt-oss MXFP4)."),
            ("inflated",
             "CUDA graphs made LMDeploy's PyTorchEngine 2.3x faster on Llama3-8B",
             C, [C], "Value inflated: the README says 1.3x."),
            ("wrong_model",
             "LMDeploy's PyTorchEngine got 1.3x faster on Llama3-70B inference with CUDA graphs",
             U, [U], "Model changed: the news item is about Llama3-8B; no Llama3-70B figure is given."),
        ],
    ),
]


def build():
    rows = []
    n = 0
    for fig in FIGURES:
        for kind, headline, expected, accept, change in fig["rows"]:
            n += 1
            figure = {k: fig["figure"][k] for k in FIGURE_FIELDS}
            rows.append({
                "id": "h9-%03d" % n,
                "kind": kind,
                "headline": headline,
                "expected": expected,
                "accept": list(accept),
                "false_headline": kind != "faithful",
                "source": fig["source"],
                "figure": figure,
                "why": fig["why"] + " " + change,
            })
    return rows


def source_path(source):
    if source.startswith("structured/"):
        return os.path.join(CORPUS, source)
    return os.path.join(CORPUS, "real", source)


def validate(rows):
    errors = []

    def check(cond, msg):
        if not cond:
            errors.append(msg)

    check(len(rows) == 80, "expected 80 rows, got %d" % len(rows))
    heads = set()
    for i, r in enumerate(rows, 1):
        rid = r.get("id")
        check(list(r.keys()) == FIELDS, "%s: field order %s" % (rid, list(r.keys())))
        check(rid == "h9-%03d" % i, "row %d: id %s out of order" % (i, rid))
        check(r["kind"] in KINDS, "%s: unknown kind %s" % (rid, r["kind"]))
        check(r["expected"] in VERDICTS, "%s: unknown expected %s" % (rid, r["expected"]))
        check(isinstance(r["accept"], list) and r["accept"], "%s: accept must be a non-empty list" % rid)
        check(all(a in VERDICTS for a in r["accept"]), "%s: unknown verdict in accept" % rid)
        check(len(set(r["accept"])) == len(r["accept"]), "%s: duplicate verdict in accept" % rid)
        check(r["expected"] in r["accept"], "%s: expected not in accept" % rid)
        check(r["false_headline"] == (r["kind"] != "faithful"), "%s: false_headline inconsistent" % rid)
        if r["kind"] == "faithful":
            check(r["expected"] == "supported" and r["accept"] == ["supported"], "%s: faithful must be supported" % rid)
        else:
            check("supported" not in r["accept"], "%s: false headline accepts supported" % rid)
            check(r["expected"] != "supported", "%s: false headline expects supported" % rid)
        check(r["headline"] not in heads, "%s: duplicate headline" % rid)
        heads.add(r["headline"])
        check(list(r["figure"].keys()) == FIGURE_FIELDS, "%s: figure field order" % rid)
        check(isinstance(r["figure"]["value"], (int, float)), "%s: figure value not numeric" % rid)
        check(os.path.exists(source_path(r["source"])), "%s: source missing %s" % (rid, r["source"]))
        check(not r["source"].startswith("real/"), "%s: source must not start with real/" % rid)
        check(bool(r["why"].strip()), "%s: empty why" % rid)
    pairs = set()
    for b in range(0, len(rows), 5):
        block = rows[b:b + 5]
        check(len({(x["source"], json.dumps(x["figure"], sort_keys=True)) for x in block}) == 1,
              "block %d: more than one figure" % (b // 5 + 1))
        check(sum(x["kind"] == "faithful" for x in block) == 1, "block %d: needs exactly one faithful" % (b // 5 + 1))
        pairs.add((block[0]["source"], block[0]["figure"]["value"]))
    check(len(pairs) == 16, "expected 16 distinct (source, value) pairs, got %d" % len(pairs))
    return errors


def summary(rows):
    from collections import Counter
    kinds = Counter(r["kind"] for r in rows)
    exp = Counter(r["expected"] for r in rows)
    print("kinds:", dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("expected:", dict(sorted(exp.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("false_headline:", Counter(r["false_headline"] for r in rows))


def main():
    if "--check" not in sys.argv:
        rows = build()
        with open(OUT, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(OUT, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    errors = validate(rows)
    if errors:
        for e in errors:
            print("ERROR:", e)
        sys.exit(1)
    summary(rows)
    print("OK: %d headlines validated (%s)" % (len(rows), OUT))


if __name__ == "__main__":
    main()
