#!/usr/bin/env python3
"""Write and validate headlines.jsonl for suite 8 (h8-001 .. h8-080).

16 figures x 5 headlines. Written blind (see HEADLINES.md). Run:
    python3 make_headlines.py
It writes headlines.jsonl next to this file and asserts the invariants.
"""
import json
import os
import re
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "headlines.jsonl")

VERDICTS = {"supported", "contradicted", "unproven", "ambiguous"}
KINDS = {
    "faithful", "inflated", "up_to_inflated", "wrong_denominator", "wrong_model",
    "wrong_hardware", "wrong_engine", "wrong_baseline", "reversed_direction",
    "wrong_setting", "wrong_quantity", "unsourced", "ambiguous",
}

R = ""  # real/ documents are named by their path under corpus/real/, as in earlier suites
S = "structured/"

# Each figure: source, figure dict, base why, and five headlines
# (kind, headline, expected, accept, why-suffix).
FIGURES = [
    # 1 ---------------------------------------------------------------- MLPerf
    dict(
        source=S + "mlperf-inference-v5.1/summary_results_llm.json",
        figure=dict(
            value=124879.0, unit="tokens/s", family="token_throughput", scope="per_system",
            model="Llama 2 70B (llama2-70b-99; same value for llama2-70b-99.9)",
            hardware="Cisco 'HPF HGX System (32xH100-SXM-80GB, TensorRT)': 4 nodes x 8 NVIDIA H100-SXM-80GB (32 GPUs)",
            engine="TensorRT 10.8, CUDA 12.8 (TensorRT-LLM stack)",
            settings="MLPerf Inference v5.1, CLOSED division, datacenter, Offline, result ID 5.1-0016, fp8 weights; "
                     "same system Server 122,274; Cisco 2-node 16x H100 (5.1-0015) Offline 62,351.6 / Server 61,101.3; "
                     "Cisco H200 rows only 1 node (5.1-0014, 34,548.2) and 2 nodes (5.1-0013, 68,894.8); "
                     "no other H100 row above 1 node except 5.1-0015"),
        why="MLPerf v5.1 row 5.1-0016 (Cisco, closed, Offline): Llama 2 70B at 124,879 tokens/s for the whole "
            "4-node, 32x H100-SXM-80GB system (about 3.9K per GPU, a derivation that is not an official result); "
            "Server scenario 122,274; the 2-node sibling 5.1-0015 did 62,351.6.",
        heads=[
            ("faithful",
             "Cisco's four-node, 32-GPU H100 system served Llama 2 70B at nearly 125,000 tokens per second in MLPerf Inference v5.1's closed-division Offline test",
             "supported", ["supported"],
             "Restates the row: submitter, node and GPU count, model, division, scenario; 'nearly 125,000' meets 124,879 at its rounding."),
            ("wrong_denominator",
             "Cisco's H100s each pushed 124,879 tokens per second through Llama 2 70B in MLPerf v5.1",
             "contradicted", ["contradicted", "unproven", "ambiguous"],
             "124,879 is the figure of the whole 32-GPU system (MLPerf rows are per system), not per GPU; per GPU it would be ~3.9K."),
            ("wrong_setting",
             "In MLPerf v5.1's Server scenario, Cisco's 32-GPU H100 cluster sustained 124,879 tokens per second on Llama 2 70B",
             "contradicted", ["contradicted"],
             "Scenario changed: the same system's Server result is 122,274 tokens/s; 124,879 is Offline (no latency limit)."),
            ("wrong_setting",
             "Cisco's two-node H100 system ran Llama 2 70B at about 125K tokens per second in MLPerf v5.1 Offline",
             "contradicted", ["contradicted"],
             "Node count changed: Cisco's 2-node 16x H100 row (5.1-0015) is 62,351.6 tokens/s Offline."),
            ("wrong_hardware",
             "Cisco's four-node H200 cluster topped 120,000 tokens per second on Llama 2 70B in MLPerf v5.1",
             "unproven", ["unproven"],
             "Hardware changed: Cisco submitted H200 systems of 1 and 2 nodes only (34,548.2 and 68,894.8 Offline); no 4-node H200 row exists, so the floor is unmet by any record of that subject."),
        ]),
    # 2 ---------------------------------------------------------------- MLPerf
    dict(
        source=S + "mlperf-inference-v5.1/summary_results_llm.json",
        figure=dict(
            value=46841.8, unit="tokens/s", family="token_throughput", scope="per_system",
            model="Llama 3.1 8B (llama3.1-8b)",
            hardware="HPE ProLiant Compute DL380a Gen12, 8x NVIDIA RTX PRO 6000 Blackwell Server Edition (PCIe 96GB), 1 node",
            engine="TensorRT 10.11.0.33, CUDA 12.9",
            settings="MLPerf Inference v5.1, closed, datacenter, Offline, result ID 5.1-0051, fp4 weights; same system: "
                     "llama3.1-8b Server 46,060.0, Interactive 36,052.3 (row labelled Queries/s), llama2-70b Offline 26,205.8, "
                     "mixtral-8x7b Offline 32,738.8 (fp8); HPE 8x H200 (5.1-0049) llama3.1-8b Offline 66,036.8"),
        why="MLPerf v5.1 row 5.1-0051 (HPE, closed, Offline): Llama 3.1 8B at 46,841.8 tokens/s for the whole "
            "8x RTX PRO 6000 Blackwell Server Edition server (about 5.9K per GPU, not an official figure).",
        heads=[
            ("faithful",
             "HPE's ProLiant server with eight RTX PRO 6000 Blackwell GPUs pushed Llama 3.1 8B to 46.8K tokens per second in MLPerf v5.1 Offline",
             "supported", ["supported"],
             "Restates the row for the whole 8-GPU server; 46.8K meets 46,841.8 at its rounding."),
            ("wrong_model",
             "HPE's eight-GPU RTX PRO 6000 Blackwell server ran Llama 2 70B at about 46,800 tokens per second in MLPerf v5.1 Offline",
             "contradicted", ["contradicted"],
             "Model changed: the same system's Llama 2 70B Offline row is 26,205.8 tokens/s."),
            ("wrong_setting",
             "In MLPerf v5.1's Interactive scenario, HPE's RTX PRO 6000 Blackwell server delivered 46,842 tokens per second on Llama 3.1 8B",
             "contradicted", ["contradicted", "unproven"],
             "Scenario changed: the Interactive row is 36,052.3 (labelled Queries/s in the summary, a tokens/s figure per the structured README); unproven accepted for a checker that keeps the Queries/s label."),
            ("wrong_hardware",
             "HPE's eight-GPU H200 server reached 46,842 tokens per second on Llama 3.1 8B in MLPerf v5.1 Offline",
             "contradicted", ["contradicted"],
             "Hardware changed: HPE's 8x H200 row (5.1-0049) for llama3.1-8b Offline is 66,036.8 tokens/s."),
            ("wrong_denominator",
             "Each RTX PRO 6000 Blackwell GPU processed nearly 47,000 tokens per second of Llama 3.1 8B in HPE's MLPerf v5.1 submission",
             "contradicted", ["contradicted", "unproven", "ambiguous"],
             "46,841.8 is the whole 8-GPU server's figure, not per GPU (~5.9K per GPU by derivation)."),
        ]),
    # 3 ---------------------------------------------------------------- llmperf
    dict(
        source=S + "llmperf-leaderboard/raw_data/summary/together_70b.json",
        figure=dict(
            value=0.6353, unit="s", family="latency", scope="per_user",
            model="Llama 2 70B chat (together_ai/togethercomputer/llama-2-70b-chat)",
            hardware="", engine="Together AI API",
            settings="LLMPerf leaderboard, Dec 19 2023: 550 input / 150 output tokens, 5 concurrent requests, 150 requests; "
                     "TTFT median (ttft_s_quantiles_p50 0.6353; README median 0.63); p95 0.7701 (README 0.77), p99 0.8709 (0.87), "
                     "min 0.46; inter-token latency p50 0.0153 s; Together 13B TTFT median 0.5499 (README 0.54); "
                     "Fireworks 70B TTFT median 0.5166 (README 0.51); Anyscale 70B 0.2128"),
        why="llmperf Together AI Llama 2 70B: median time to first token 0.6353 s (README table 0.63), at 5 concurrent "
            "requests with 550/150 tokens; p99 0.87 s; inter-token latency ~0.015 s.",
        heads=[
            ("faithful",
             "Together AI's Llama 2 70B chat endpoint returned its first token in a median 0.63 seconds on the LLMPerf leaderboard",
             "supported", ["supported"],
             "Restates provider, model, statistic (median) and value."),
            ("wrong_setting",
             "Together AI's Llama 2 70B endpoint held time to first token to 0.63 seconds even at the 99th percentile",
             "contradicted", ["contradicted"],
             "Statistic changed: p99 TTFT is 0.8709 s (README 0.87); 0.63 is the median."),
            ("wrong_engine",
             "Fireworks served Llama 2 70B with a median time to first token of 0.63 seconds in LLMPerf's provider test",
             "contradicted", ["contradicted"],
             "Provider changed: Fireworks 70B median TTFT is 0.5166 s (README 0.51)."),
            ("wrong_quantity",
             "Together AI's Llama 2 70B streamed a new token every 0.63 seconds in LLMPerf's benchmark",
             "contradicted", ["contradicted", "unproven"],
             "Quantity changed: 0.63 s is time to first token; the inter-token latency is ~0.015 s (p50 0.0153)."),
            ("wrong_setting",
             "At 50 concurrent requests, Together AI's Llama 2 70B still answered with a median first-token time of 0.63 seconds",
             "unproven", ["unproven"],
             "Setting changed: LLMPerf ran 5 concurrent requests only; nothing in the record measures 50, and a figure at another concurrency is no conflict."),
        ]),
    # 4 ---------------------------------------------------------------- Markdown table
    dict(
        source=R + "tensorrt-llm/XQA-kernel.md",
        figure=dict(
            value=25300.0, unit="tokens/s", family="token_throughput", scope="per_gpu",
            model="Llama-70B", hardware="8x H200", engine="TensorRT-LLM (XQA kernel; v0.8 era)",
            settings="table 'H200 2.4x with XQA': GPUs 8, input 128, output 2048, 'Throughput w/ XQA (tok/s/GPU)' 25,300 vs "
                     "w/o XQA 13,232, speedup 1.9x; 1-GPU row 1,227 -> 2,941 (2.4x); heading 'Llama-70B on H200 up to 2.4x'; "
                     "the H100 chart (FP8, 8xH100, ISL/OSL 512/2048) gives no number"),
        why="XQA-kernel.md table, 8-GPU row: Llama-70B on H200 with XQA at 25,300 tok/s/GPU (header), against 13,232 "
            "without XQA, a 1.9x speedup; the 1-GPU row is 2,941 (2.4x).",
        heads=[
            ("faithful",
             "With TensorRT-LLM's XQA kernel, eight H200s ran Llama-70B at 25,300 tokens per second per GPU (128 tokens in, 2,048 out)",
             "supported", ["supported"],
             "Restates the 8-GPU row with the header's per-GPU denominator."),
            ("inflated",
             "XQA gives an eight-H200 Llama-70B deployment a 2.4x throughput boost",
             "contradicted", ["contradicted", "unproven"],
             "Ratio inflated: the 8-GPU row's speedup is 1.9x; 2.4x is the 1-GPU row (and the heading's 'up to')."),
            ("wrong_setting",
             "A single H200 running TensorRT-LLM with XQA served Llama-70B at 25,300 tokens per second",
             "contradicted", ["contradicted"],
             "GPU count changed: the 1-GPU row with XQA is 2,941 tok/s/GPU."),
            ("wrong_denominator",
             "Eight H200s with XQA delivered 25,300 tokens per second in total on Llama-70B",
             "contradicted", ["contradicted", "unproven", "ambiguous"],
             "Denominator changed: the table header says tok/s/GPU (the footnote defines throughput per GPU), so 25,300 is per GPU as written, not a total."),
            ("ambiguous",
             "Someone has pushed Llama-70B inference past 30,000 tokens per second",
             "ambiguous", ["ambiguous"],
             "No subject and no denominator: CLAIMS.md §4 judges the open denominator first (the 'Someone reached 10 million tokens per second' case). Per-system MLPerf Llama 2 70B rows exceed 30,000 while the per-GPU XQA figure does not, so no figure settles it."),
        ]),
    # 5 ---------------------------------------------------------------- Markdown table
    dict(
        source=R + "ktransformers/DeepseekR1_V3_tutorial.md",
        figure=dict(
            value=102.0, unit="tokens/s", family="token_throughput", scope="unspecified",
            model="DeepSeek-V3 q4km (int4), 6 experts",
            hardware="2x Intel Xeon Gold 6454S (32 cores per socket) + 1x RTX 4090 24GB",
            engine="KTransformers V0.2.1",
            settings="V0.2.1 bench table, prompt 4K (3846 tokens), output 300 tokens, prefill phase: 102 tok/s '(1.16x speedup)' "
                     "over V0.2.0's 88; V0.2.1 6 experts decode at 4K 14.9 (1.15x, V0.2.0 13.0); V0.2.1 8 experts 4K prefill 81.9, "
                     "decode 13.2; V0.2.1 6 experts 8K prefill 101"),
        why="KTransformers V0.2.1 table: with 6 experts, a 4K (3,846-token) prompt prefills at 102 tokens/s on DeepSeek-V3 "
            "q4km, a 1.16x speedup over V0.2.0 (88); decode at the same prompt is 14.9 tokens/s; 8 experts give 81.9.",
        heads=[
            ("faithful",
             "KTransformers V0.2.1 prefilled a 4K-token prompt at 102 tokens per second on DeepSeek-V3 with six experts, one RTX 4090 and two Xeon CPUs",
             "supported", ["supported"],
             "Restates the table cell with its row (version, experts, phase) and column (4K prompt)."),
            ("wrong_setting",
             "With all eight experts active, KTransformers V0.2.1 prefilled 4K-token DeepSeek-V3 prompts at 102 tokens per second",
             "contradicted", ["contradicted"],
             "Setting changed: the 8-experts V0.2.1 row at 4K is 81.9 tokens/s prefill."),
            ("wrong_quantity",
             "KTransformers V0.2.1 decoded DeepSeek-V3 at 102 tokens per second after a 4K-token prompt",
             "contradicted", ["contradicted"],
             "Phase changed: decode at 4K is 14.9 tokens/s; 102 is prefill."),
            ("inflated",
             "KTransformers V0.2.1 made 4K-token prefill 1.5 times faster than V0.2.0",
             "contradicted", ["contradicted"],
             "Ratio inflated: the cell states 1.16x (102 vs 88)."),
            ("reversed_direction",
             "KTransformers V0.2.1 prefilled 4K-token prompts 16% slower than V0.2.0",
             "contradicted", ["contradicted"],
             "Direction reversed: V0.2.1 is 1.16x faster (102 vs 88)."),
        ]),
    # 6 ---------------------------------------------------------------- PDF text table
    dict(
        source=R + "deepseek-v2/deepseek-v2-tech-report.pdf",
        figure=dict(
            value=39e9, unit="parameters", family="parameters", scope="unspecified",
            model="Mixtral 8x22B", hardware="", engine="",
            settings="DeepSeek-V2 tech report Table 2 (p15) '# Activated Params - 67B 72B 39B 70B 21B' and '# Total Params - 67B 72B "
                     "141B 70B 236B' in column order DeepSeek 67B, Qwen1.5 72B, Mixtral 8x22B, LLaMA 3 70B, DeepSeek-V2; Table 3 (p19) "
                     "repeats them in another column order (LLaMA3 70B Inst. before Mixtral 8x22B Inst.): 67B 72B 70B 39B 21B 21B"),
        why="DeepSeek-V2 tech report, Table 2 (PDF text, columns flattened): Mixtral 8x22B has 39B activated and 141B total "
            "parameters; DeepSeek-V2 21B / 236B; LLaMA 3 70B 70B dense. Table 3 lists the same numbers in a different column order.",
        heads=[
            ("faithful",
             "Mixtral 8x22B runs on 39 billion activated parameters, according to DeepSeek-V2's model comparison table",
             "supported", ["supported"],
             "Restates the Mixtral 8x22B cell of the '# Activated Params' row; the reader must align the flattened columns."),
            ("wrong_model",
             "Mixtral 8x22B activates just 21B parameters per token, DeepSeek-V2's paper shows",
             "contradicted", ["contradicted"],
             "Column shifted: 21B is DeepSeek-V2's activated count; Mixtral 8x22B's is 39B."),
            ("wrong_quantity",
             "Mixtral 8x22B is a 39-billion-parameter model in total",
             "contradicted", ["contradicted"],
             "Activated vs total: Mixtral 8x22B's total is 141B; 39B is activated."),
            ("wrong_model",
             "LLaMA 3 70B activates only 39B of its parameters, DeepSeek-V2's comparison shows",
             "contradicted", ["contradicted"],
             "Column shifted (Table 3 puts LLaMA3 70B next to Mixtral): LLaMA 3 70B is dense with 70B activated."),
            ("wrong_model",
             "Mixtral 8x7B activates 39 billion parameters",
             "unproven", ["unproven"],
             "Model changed: Mixtral 8x7B appears only as a chart label in Figure 1 and as an MLPerf benchmark name; no document gives its parameter counts."),
        ]),
    # 7 ---------------------------------------------------------------- PDF text table
    dict(
        source=R + "mooncake/Mooncake-FAST25.pdf",
        figure=dict(
            value=8596.0, unit="tokens", family="tokens", scope="per_user",
            model="Kimi tool&agent trace (1 hour, 23,608 requests)", hardware="", engine="Mooncake (workload statistics)",
            settings="Mooncake FAST'25 Table 2 'Workload Statistics' (p9), columns Conversation / Tool&Agent / Synthetic: Avg Input Len "
                     "12035 8596 15325; Avg Output Len 343 182 149; Cache Ratio 40% 59% 66%; Num Requests 12031 23608 3993; "
                     "prose: conversation requests reach up to 128k tokens and average around 12k; no maximum given for tool&agent"),
        why="Mooncake paper Table 2 (PDF text table): the tool&agent trace averages 8,596 input tokens per request (output 182, "
            "cache ratio 59%); the conversation trace averages 12,035 input tokens.",
        heads=[
            ("faithful",
             "Kimi's tool-and-agent requests average about 8.6K input tokens, the Mooncake paper's workload table shows",
             "supported", ["supported"],
             "Restates the Tool&Agent 'Avg Input Len' cell (a tokens claim: a workload statistic)."),
            ("wrong_setting",
             "Kimi's conversation trace averages 8,596 input tokens per request, per the Mooncake paper",
             "contradicted", ["contradicted"],
             "Workload changed: the conversation trace averages 12,035 input tokens."),
            ("wrong_quantity",
             "Kimi's tool-and-agent requests average 8,596 output tokens",
             "contradicted", ["contradicted"],
             "Input vs output: the tool&agent average output is 182 tokens."),
            ("inflated",
             "Kimi's tool-and-agent prompts average more than 12,000 input tokens",
             "contradicted", ["contradicted"],
             "Value inflated: the average is 8,596 (12,035 is the conversation trace)."),
            ("wrong_setting",
             "Tool-and-agent prompts in Kimi's traces run up to 128K tokens",
             "unproven", ["unproven"],
             "Statistic and workload changed: the 128k maximum is stated for the conversation workload; no maximum is given for tool&agent."),
        ]),
    # 8 ---------------------------------------------------------------- PDF prose
    dict(
        source=R + "mooncake/Mooncake-FAST25.pdf",
        figure=dict(
            value=115.0, unit="%", family="percent", scope="aggregate",
            model="Kimi (production)", hardware="NVIDIA A800 clusters", engine="Mooncake",
            settings="abstract, §1 and §5: 'enables Kimi to handle 115% and 107% more requests on the A800 and H800 clusters, "
                     "respectively, compared to our previous systems based on vLLM' (historical statistics); the reproduction "
                     "experiments use a dummy LLaMA3-70B on 8x A800 nodes and report other gains (59%-498% effective request capacity, "
                     "+40%/+42% etc.)"),
        why="Mooncake paper: in production, Mooncake lets Kimi handle 115% more requests on A800 clusters (107% on H800) than "
            "the previous vLLM-based systems, by historical statistics.",
        heads=[
            ("faithful",
             "Mooncake more than doubled Kimi's capacity on Nvidia A800 clusters, handling 115% more requests than its earlier vLLM-based system",
             "supported", ["supported"],
             "Restates the percent with hardware and baseline; 115% more = 2.15x, so 'more than doubled' agrees."),
            ("wrong_hardware",
             "Mooncake lets Kimi handle 115% more requests on its H800 clusters",
             "contradicted", ["contradicted"],
             "Hardware changed: the H800 figure is 107%."),
            ("inflated",
             "Mooncake lets Kimi serve 150% more requests on A800 clusters than before",
             "contradicted", ["contradicted"],
             "Value inflated: 115%."),
            ("reversed_direction",
             "Kimi's old vLLM-based stack handled 115% more requests than Mooncake on A800 clusters",
             "contradicted", ["contradicted"],
             "Direction/baseline reversed: Mooncake handles 115% more than the vLLM-based system."),
            ("wrong_setting",
             "In reproduction tests with a dummy LLaMA3-70B on A800 nodes, Mooncake handled 115% more requests than vLLM",
             "unproven", ["unproven", "contradicted"],
             "Setting changed: 115% is a production statistic of Kimi; the reproduction experiments report other gains by workload, none of them 115%."),
        ]),
    # 9 ---------------------------------------------------------------- PDF slides
    dict(
        source=R + "deepspeed/sc22-ds-inference.pdf",
        figure=dict(
            value=7.3, unit="x", family="ratio", scope="unspecified",
            model="2-trillion-parameter MoE model", hardware="multi-GPU (count not stated in the text)",
            engine="DeepSpeed-MoE (DeepSpeed Inference)",
            settings="SC22 slides p24 'Sparse MoE model optimizations: 7.3x Lower-latency & Higher-throughput at Unprecedented Scale', "
                     "charts per model size vs PyTorch-MoE: 107B and 349B (5.5x, 5.9x), 1 Trillion 7.2x, 2 Trillion 7.3x; p7 "
                     "'Latency Improvement' chart MoE (349B) 5.9x, MoE (1T) 7.2x, MoE (2T) 7.3x; '25ms for serving a 1T model'"),
        why="DeepSpeed SC22 slides: DeepSpeed-MoE gives 7.3x lower latency (and higher throughput) than PyTorch-MoE on the "
            "2-trillion-parameter MoE; the 1T model shows 7.2x.",
        heads=[
            ("faithful",
             "DeepSpeed-MoE cut latency 7.3-fold versus PyTorch-MoE on a 2-trillion-parameter mixture-of-experts model",
             "supported", ["supported"],
             "Restates ratio, baseline, direction and model size."),
            ("wrong_model",
             "On a 1-trillion-parameter MoE model, DeepSpeed-MoE ran 7.3x faster than PyTorch-MoE",
             "contradicted", ["contradicted", "unproven"],
             "Model size changed: the 1T chart reads 7.2x (the chart text is flattened, so unproven is accepted)."),
            ("wrong_baseline",
             "DeepSpeed-MoE served a 2-trillion-parameter MoE 7.3x faster than vLLM",
             "unproven", ["unproven"],
             "Baseline changed: the comparison is against PyTorch-MoE; no document compares DeepSpeed-MoE with vLLM."),
            ("reversed_direction",
             "PyTorch-MoE delivered 7.3x lower latency than DeepSpeed-MoE on a 2-trillion-parameter model",
             "contradicted", ["contradicted"],
             "Direction reversed: DeepSpeed-MoE is the faster one."),
            ("inflated",
             "DeepSpeed-MoE serves a 2-trillion-parameter model ten times faster than PyTorch-MoE",
             "contradicted", ["contradicted"],
             "Ratio inflated: 7.3x."),
        ]),
    # 10 --------------------------------------------------------------- PDF slides
    dict(
        source=R + "sglang-learning-materials/sglang_deepseek_model_optimizations.pdf",
        figure=dict(
            value=2.8, unit="x", family="ratio", scope="per_user",
            model="DeepSeek (MLA & MoE; the deck's DeepSeek-V2 section)", hardware="not stated",
            engine="SGLang (CUDA Graph & torch.compile)",
            settings="slide 11: '2.8x decoding speed acceleration for batch_size=1 (input_len=output_len=512, batch_size=1)'; "
                     "other slides: weight absorption 2.4x throughput (DeepSeek-V2), Triton decoding kernel 1.35x (V2) / 1.5x (V2-Lite), "
                     "FP8 W8A8 + FP8 KV cache 1.7x throughput, end-to-end up to 3~7x output throughput vs previous version"),
        why="SGLang DeepSeek optimization slides, p11: CUDA Graph and torch.compile give 2.8x decoding speed at batch size 1 "
            "(input = output = 512); FP8 quantization is credited with 1.7x, weight absorption with 2.4x.",
        heads=[
            ("faithful",
             "CUDA Graph and torch.compile gave SGLang a 2.8x decoding speed-up on DeepSeek at batch size 1",
             "supported", ["supported"],
             "Restates ratio, technique, phase and batch size."),
            ("wrong_setting",
             "CUDA Graph and torch.compile gave SGLang a 2.8x decoding speed-up on DeepSeek at batch size 64",
             "unproven", ["unproven"],
             "Batch size changed: the 2.8x is stated for batch size 1 only; nothing gives a batch-64 figure."),
            ("wrong_setting",
             "FP8 quantization gave SGLang a 2.8x throughput jump on DeepSeek models",
             "contradicted", ["contradicted", "unproven"],
             "Technique changed: FP8 (W8A8 + FP8 KV cache) is credited with 1.7x throughput in the same deck."),
            ("inflated",
             "torch.compile and CUDA Graph nearly quadrupled SGLang's DeepSeek decoding speed at batch size 1",
             "contradicted", ["contradicted"],
             "Ratio inflated: 2.8x, not ~4x."),
            ("wrong_quantity",
             "CUDA Graph and torch.compile cut SGLang's DeepSeek time to first token 2.8x at batch size 1",
             "unproven", ["unproven", "contradicted"],
             "Quantity changed: the 2.8x measures decoding speed, not TTFT; no TTFT ratio is given."),
        ]),
    # 11 --------------------------------------------------------------- prose
    dict(
        source=R + "lmsys-blog/2024-02-05-compressed-fsm.md",
        figure=dict(
            value=2.0, unit="x", family="ratio", scope="unspecified",
            model="Llama-7B class local models (JSON decoding)", hardware="", engine="SGLang (compressed FSM / jump-forward)",
            settings="'In comparison to state-of-the-art systems (guidance + llama.cpp, outlines + vLLM), our method can reduce the "
                     "latency by up to 2x and boost throughput by up to 2.5x' (repeated in the results section); constrained (JSON/regex) decoding"),
        why="LMSYS compressed-FSM post: against guidance + llama.cpp and outlines + vLLM, SGLang's compressed FSM reduces "
            "JSON decoding latency by up to 2x (throughput up to 2.5x).",
        heads=[
            ("faithful",
             "SGLang's compressed finite state machine cuts JSON decoding latency by up to 2x against guidance + llama.cpp and Outlines + vLLM",
             "supported", ["supported"],
             "Restates the 'up to 2x' latency reduction with its baselines."),
            ("up_to_inflated",
             "SGLang's compressed FSM cuts JSON decoding latency by as much as 5x",
             "contradicted", ["contradicted", "unproven"],
             "'As much as 5x' is above the compressed FSM's stated best case (2x latency; the slides' '3x faster grammar-based constrained decoding' for v0.1); the 5x and 10x JSON-decoding figures in the SGLang slides and v0.4 post belong to the xgrammar integration, another technique."),
            ("reversed_direction",
             "SGLang's compressed FSM doubles JSON decoding latency compared with guidance and Outlines",
             "contradicted", ["contradicted"],
             "Direction reversed: latency is reduced up to 2x."),
            ("wrong_setting",
             "SGLang's compressed FSM makes ordinary, unconstrained text generation up to 2x faster",
             "unproven", ["unproven"],
             "Setting changed: the gain is for constrained (JSON/regex) decoding; no figure covers unconstrained decoding."),
            ("wrong_baseline",
             "SGLang's compressed FSM cuts JSON decoding latency by up to 2x versus TensorRT-LLM",
             "unproven", ["unproven"],
             "Baseline changed: the baselines are guidance + llama.cpp and outlines + vLLM."),
        ]),
    # 12 --------------------------------------------------------------- prose
    dict(
        source=R + "hao-ai-lab-blog/distserve/index.md",
        figure=dict(
            value=3.41, unit="x", family="ratio", scope="aggregate",
            model="chatbot workload (ShareGPT-style; OPT models in the paper)", hardware="A100", engine="DistServe",
            settings="Figure 9 bullets vs vLLM: Chatbot 2.0x - 3.41x higher goodput; Code Completion 3.2x goodput and 1.5x more "
                     "stringent SLO; Summarization 4.48x goodput and 10.2x more stringent SLO; goodput = max request rate under P90 "
                     "TTFT/TPOT SLOs"),
        why="DistServe blog: on the chatbot workload DistServe sustains 2.0x-3.41x higher goodput than vLLM; code completion 3.2x, "
            "summarization 4.48x.",
        heads=[
            ("faithful",
             "DistServe sustains two to 3.4 times vLLM's goodput on chatbot workloads",
             "supported", ["supported"],
             "Restates the range; 3.4 meets 3.41 at its rounding."),
            ("wrong_setting",
             "DistServe sustains up to 3.41x higher goodput than vLLM on code completion",
             "contradicted", ["contradicted"],
             "Workload changed: code completion is 3.2x."),
            ("up_to_inflated",
             "DistServe delivers up to 4.48x vLLM's goodput for chatbots",
             "contradicted", ["contradicted"],
             "'Up to 4.48x' exceeds the chatbot best case (3.41x); 4.48x is summarization."),
            ("wrong_quantity",
             "DistServe cuts chatbot latency 3.41x compared with vLLM",
             "unproven", ["unproven"],
             "Quantity changed: 3.41x measures goodput (rate under SLO), not latency; a ratio of another quantity is no evidence."),
            ("wrong_baseline",
             "DistServe sustains up to 3.41x the goodput of DeepSpeed-FastGen on chatbot traffic",
             "unproven", ["unproven"],
             "Baseline changed: the comparison is with vLLM; the post discusses dynamic SplitFuse only qualitatively."),
        ]),
    # 13 --------------------------------------------------------------- prose
    dict(
        source=R + "vllm-blog/2024-09-05-perf-update.md",
        figure=dict(
            value=8.7, unit="%", family="percent", scope="per_user",
            model="Llama 70B (Llama 3 70B)", hardware="4x H100", engine="vLLM v0.6.0 (asynchronous output processing)",
            settings="'This improves the time-per-output-token of running Llama 70B models on 4xH100 by 8.7%' (asynchronous output "
                     "processing); multi-step scheduling: throughput +28% (same setup); object cache: end-to-end throughput +24%"),
        why="vLLM v0.6.0 post: asynchronous output processing improves Llama 70B time per output token on 4x H100 by 8.7%; "
            "multi-step scheduling is credited with +28% throughput and the object cache with +24%.",
        heads=[
            ("faithful",
             "vLLM v0.6.0's asynchronous output processing trimmed Llama 70B time per output token by 8.7% on four H100s",
             "supported", ["supported"],
             "Restates technique, quantity (TPOT), model, hardware and percent."),
            ("wrong_setting",
             "Multi-step scheduling improved vLLM's Llama 70B time per output token by 8.7% on 4xH100",
             "unproven", ["unproven", "contradicted"],
             "Technique changed: 8.7% belongs to asynchronous output processing; multi-step scheduling is credited with +28% throughput, and no TPOT figure is given for it."),
            ("inflated",
             "vLLM's asynchronous output processing improved Llama 70B time per output token by nearly 20% on four H100s",
             "contradicted", ["contradicted"],
             "Value inflated: 8.7%."),
            ("wrong_model",
             "Asynchronous output processing improved Llama 3 8B time per output token by 8.7% on a single H100 in vLLM v0.6.0",
             "unproven", ["unproven"],
             "Model and hardware changed: the 8.7% is for Llama 70B on 4x H100; no 8B figure for this technique."),
            ("reversed_direction",
             "vLLM's asynchronous output processing made Llama 70B's time per output token 8.7% worse on 4xH100",
             "contradicted", ["contradicted"],
             "Direction reversed: TPOT improved by 8.7%."),
        ]),
    # 14 --------------------------------------------------------------- prose
    dict(
        source=R + "lmcache-blog/2025-05-16-dynamo.md",
        figure=dict(
            value=5.0, unit="x", family="ratio", scope="per_user",
            model="", hardware="", engine="LMCache (disaggregated prefill, NIXL-compatible)",
            settings="'More Performance Wins' section: State-of-the-Art Prefill-Decoding Disaggregation: 'Up to 5x lower inter-token "
                     "latency'; High-Speed RAG Support (CacheBlend): 'Up to 4.5x higher throughput on RAG workloads'; the TTFT/ITL "
                     "charts of the ShareGPT/chat/document runs are images without numbers in the text"),
        why="LMCache Dynamo/KServe post: LMCache's disaggregated prefill achieves up to 5x lower inter-token latency; its RAG "
            "support is credited with up to 4.5x higher throughput.",
        heads=[
            ("faithful",
             "LMCache's disaggregated prefill cuts inter-token latency by as much as five times",
             "supported", ["supported"],
             "Restates the 'up to 5x lower' ITL with its technique."),
            ("wrong_quantity",
             "LMCache's disaggregated prefill cuts time to first token by up to 5x",
             "unproven", ["unproven"],
             "Quantity changed: the 5x is inter-token latency; the post's TTFT results are charts without numbers in the text."),
            ("wrong_setting",
             "LMCache's RAG acceleration cuts inter-token latency by up to 5x",
             "unproven", ["unproven"],
             "Technique changed: the 5x ITL cut belongs to disaggregated prefill; RAG support (CacheBlend) is credited with up to 4.5x throughput and no ITL figure."),
            ("reversed_direction",
             "Disaggregated prefill with LMCache raises inter-token latency up to fivefold",
             "contradicted", ["contradicted"],
             "Direction reversed: ITL is lowered."),
            ("up_to_inflated",
             "LMCache's disaggregated prefill cuts inter-token latency by up to 10x",
             "contradicted", ["contradicted", "unproven"],
             "'Up to 10x' is above the stated best case of 5x; the 3-10x 'response delay' and '10x faster' of other LMCache posts measure other things."),
        ]),
    # 15 --------------------------------------------------------------- prose
    dict(
        source=R + "lmsys-blog/2025-06-16-gb200-part-1.md",
        figure=dict(
            value=3.4, unit="x", family="ratio", scope="per_gpu",
            model="DeepSeek-V3/R1 (671B)", hardware="GB200 NVL72 (12 decode nodes) vs H100",
            engine="SGLang (PD disaggregation + large-scale EP)",
            settings="'a 2.5-3.4x performance speedup across various sequence lengths on the GB200 NVL72 compared to the H100' (decode "
                     "end-to-end experiments; 2.7x = 7,583 tok/s/GPU at 2,000-token input); baseline reused from the 96-H100 post; "
                     "secondary: hao-ai-lab distserve-retro reports a September 2025 part 2 with 'up to 3.8x prefill and 4.8x decode' "
                     "vs H100 (part 2 is not in the corpus); vLLM's GB200 post compares against H200 (3-5x), not SGLang"),
        why="LMSYS GB200 part I: SGLang's DeepSeek decode is 2.5-3.4x faster per GPU on GB200 NVL72 than on H100 across "
            "sequence lengths (2.7x at 2K input).",
        heads=[
            ("faithful",
             "SGLang decoded DeepSeek 2.5 to 3.4 times faster on GB200 NVL72 than on H100 across sequence lengths",
             "supported", ["supported"],
             "Restates the range, phase, engine, hardware and baseline."),
            ("unsourced",
             "SGLang's DeepSeek deployment on GB200 NVL72 delivered up to 4.8x the decode throughput of H100",
             "contradicted", ["contradicted", "unproven"],
             "Only a secondary (distserve-retro) reports 4.8x, citing a part 2 that is not in the corpus; the primary best on this quantity and subject is 3.4x, so §4's 'up to' rule gives contradicted; unproven accepted because the secondary dates the 4.8x to a later run."),
            ("wrong_setting",
             "SGLang's DeepSeek prefill ran 2.5 to 3.4 times faster on GB200 NVL72 than on H100",
             "unproven", ["unproven"],
             "Phase changed: the 2.5-3.4x is decode; the only prefill ratio (3.8x) is in a secondary source, with no primary."),
            ("reversed_direction",
             "H100 decoded DeepSeek up to 3.4x faster than GB200 NVL72 in SGLang's tests",
             "contradicted", ["contradicted"],
             "Direction reversed."),
            ("wrong_baseline",
             "SGLang's DeepSeek decode on GB200 NVL72 ran 2.5 to 3.4 times faster than on H200",
             "unproven", ["unproven"],
             "Baseline changed: SGLang's post compares with H100; the H200 comparison (3-5x) is vLLM's, another engine."),
        ]),
    # 16 --------------------------------------------------------------- prose
    dict(
        source=R + "dstack-blog/benchmark-amd-containers-and-partitions.md",
        figure=dict(
            value=726e9 / 8, unit="bytes/s", family="bandwidth", scope="unspecified",
            model="", hardware="AMD MI300X nodes (8x MI300X per node, Hot Aisle), inter-node RDMA write (ib_write_bw)",
            engine="RDMA (perftest ib_write_bw), bare metal and containers",
            settings="Limitations: 'These benchmarks were run on a default, out-of-the-box network configuration. Our results for RCCL "
                     "(~339 GB/s) and RDMA (~726 Gbps) are slightly below the peak figures reported by Dell'; RCCL peak bus bandwidth "
                     "around 350 GB/s for 16GB messages. Value stored as bytes/s (726 Gbps = 90.75 GB/s)"),
        why="dstack AMD benchmark: RDMA write bandwidth between MI300X nodes of ~726 Gbps on a default, untuned network, "
            "slightly below Dell's reported peak; RCCL ~339 GB/s.",
        heads=[
            ("faithful",
             "dstack measured roughly 726 Gbps of RDMA write bandwidth between AMD MI300X nodes on an untuned network",
             "supported", ["supported"],
             "Restates value, unit, test and the default configuration."),
            ("wrong_quantity",
             "dstack clocked 726 GB/s of RDMA bandwidth between AMD MI300X nodes",
             "contradicted", ["contradicted", "unproven"],
             "Unit slip: 726 Gbps is ~91 GB/s; 726 GB/s is 8x more."),
            ("reversed_direction",
             "dstack's 726 Gbps RDMA result on MI300X beat the peak figures Dell reported",
             "contradicted", ["contradicted"],
             "Direction reversed: the post says slightly below Dell's peak."),
            ("wrong_setting",
             "After expert tuning of MTU and topology, dstack's MI300X cluster reached 726 Gbps of RDMA bandwidth",
             "unproven", ["unproven"],
             "Setting changed: 726 Gbps was measured on a default configuration; tuning is named as future headroom, not measured."),
            ("inflated",
             "dstack's AMD MI300X nodes topped 800 Gbps of RDMA bandwidth",
             "contradicted", ["contradicted"],
             "Floor above the figure: ~726 Gbps is the only RDMA result."),
        ]),
]


def build():
    rows = []
    n = 0
    for fig in FIGURES:
        assert len(fig["heads"]) == 5, fig["source"]
        for kind, headline, expected, accept, why in fig["heads"]:
            n += 1
            rows.append({
                "id": "h8-%03d" % n,
                "kind": kind,
                "headline": headline,
                "expected": expected,
                "accept": accept,
                "false_headline": kind != "faithful",
                "source": fig["source"],
                "figure": fig["figure"],
                "why": fig["why"] + " " + why,
            })
    return rows


def validate(rows):
    assert len(rows) == 80, len(rows)
    ids = [r["id"] for r in rows]
    assert ids == ["h8-%03d" % i for i in range(1, 81)]
    assert len({r["headline"] for r in rows}) == 80, "duplicate headline"
    fields = ["id", "kind", "headline", "expected", "accept", "false_headline", "source", "figure", "why"]
    ffields = ["value", "unit", "family", "scope", "model", "hardware", "engine", "settings"]
    corpus = "/work/shared/corpus/"
    for r in rows:
        assert list(r) == fields, r["id"]
        assert list(r["figure"]) == ffields, r["id"]
        assert r["kind"] in KINDS, r
        assert r["expected"] in VERDICTS, r
        assert set(r["accept"]) <= VERDICTS, r
        assert r["expected"] in r["accept"], r["id"]
        if r["false_headline"]:
            assert "supported" not in r["accept"], r["id"]
        else:
            assert r["kind"] == "faithful" and r["expected"] == "supported", r["id"]
        assert isinstance(r["figure"]["value"], float), r["id"]
        if os.path.isdir(corpus):
            sub = "" if r["source"].startswith("structured/") else "real/"
            assert os.path.exists(os.path.join(corpus, sub + r["source"])), r["source"]
    # 5 per figure, one faithful per figure
    for i in range(0, 80, 5):
        block = rows[i:i + 5]
        assert sum(r["kind"] == "faithful" for r in block) == 1
        assert len({json.dumps(r["figure"], sort_keys=True) for r in block}) == 1
    # no two figures share a (source, value)
    keys = {(rows[i]["source"], rows[i]["figure"]["value"]) for i in range(0, 80, 5)}
    assert len(keys) == 16


def main():
    rows = build()
    validate(rows)
    with open(OUT, "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    kinds = Counter(r["kind"] for r in rows)
    verdicts = Counter(r["expected"] for r in rows)
    print("wrote", OUT, len(rows))
    print("kinds:", dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("expected:", dict(verdicts))
    print("false_headline:", Counter(r["false_headline"] for r in rows))


if __name__ == "__main__":
    main()
