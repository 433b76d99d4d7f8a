"""Hand-labelled prose documents: bitnet-cpp-readme.md, powerinfer-readme.md, ctranslate2-readme-2019.md,
medusa-readme.md, lmdeploy-profile-throughput.md. One L(...) per mention; values typed by hand.
"""
from lib import L

# ---------------------------------------------------------------------------------------------------------
# bitnet-cpp-readme.md
# Coordinated ranges in prose ('**1.37x** to **5.07x**', 'between **71.9%** to **82.2%**', '(5-7 tokens per
# second)'); one line per range (value = low end, high = high end), as the guidelines say.
# HTML <table>s with a 'Parameters' column (2.4B for a model named '...-2B-4T': hard), ranges '1B-10B'.
# Not labelled: 1-bit / 1.58-bit / 4-bit (precisions), versions (1.0, python>=3.9, cmake>=3.22, clang>=18,
# Visual Studio 2022), dates in 'What's New', arXiv ids, width="800", names (BitNet-b1.58-2B-4T,
# Llama3-8B-1.58-100B-tokens, Falcon3-1B-Instruct-1.58bit), the default values of the benchmark script
# (128 tokens, 512 prompt tokens, 2 threads: configuration), codegen tiling values and everything in code.
# Neutral: '3B model' in the demo sentence (size written like a name), '2B Parameter Model' (link title of a
# news item; the table gives 2.4B), and the worked example '200 tokens from a 256 token prompt'.
# ---------------------------------------------------------------------------------------------------------
B = "bitnet-cpp-readme.md"
ENG_B = "bitnet.cpp"


def bitnet():
    return [
        L(B, "bitnet.cpp achieves speedups of **1.37x** to **5.07x**", 1.37, "ratio", high=5.07,
          hardware="ARM CPUs", engine=ENG_B),
        L(B, "it reduces energy consumption by **55.4%** to **70.0%**", 55.4, "percent", high=70.0,
          hardware="ARM CPUs", engine=ENG_B),
        L(B, "On x86 CPUs, speedups range from **2.37x** to **6.17x**", 2.37, "ratio", high=6.17,
          hardware="x86 CPUs", engine=ENG_B),
        L(B, "with energy reductions between **71.9%** to **82.2%**", 71.9, "percent", high=82.2,
          hardware="x86 CPUs", engine=ENG_B),
        L(B, "bitnet.cpp can run a 100B", 1e11, "parameters"),
        L(B, "achieving speeds comparable to human reading (5-7 tokens per second)", 5, "token_throughput", high=7,
          model="100B BitNet b1.58", hardware="single CPU", engine=ENG_B),
        L(B, "achieving **1.15x to 2.1x** additional speedup", 1.15, "ratio", high=2.1, engine=ENG_B),
        L(B, "running a BitNet b1.58 3B", 3e9, "parameters", neutral=True),
        L(B, "BitNet Official 2B", 2e9, "parameters", neutral=True),
        L(B, 'BitNet-b1.58-2B-4T</a></td>\n        <td rowspan="2">2.4B', 2.4e9, "parameters"),
        L(B, 'bitnet_b1_58-large</a></td>\n        <td rowspan="2">0.7B', 7e8, "parameters"),
        L(B, 'bitnet_b1_58-3B</a></td>\n        <td rowspan="2">3.3B', 3.3e9, "parameters"),
        L(B, 'Llama3-8B-1.58-100B-tokens</a></td>\n        <td rowspan="2">8.0B', 8e9, "parameters"),
        L(B, 'Falcon3 Family</a></td>\n        <td rowspan="2">1B-10B', 1e9, "parameters", high=1e10),
        L(B, 'Falcon-E Family</a></td>\n        <td rowspan="2">1B-3B', 1e9, "parameters", high=3e9),
        L(B, "generating 200", 200, "tokens", neutral=True),
        L(B, "generating 200 tokens from a 256", 256, "tokens", neutral=True),
    ]


# ---------------------------------------------------------------------------------------------------------
# powerinfer-readme.md
# 'up to 11x and 8x speedup for FP16 and INT4 model' (coordinated: two lines, both '<='), an average and a peak,
# a LaTeX-escaped percent '18\%' against an A100 (baseline), 'up to 11.69x' over llama.cpp.
# Not labelled: names (Falcon (ReLU)-40B, OPT-175B, LLaMA(ReLU)-2-7B, Mistral-7B, Llama-2), FP16/INT4,
# image names (github-eval-4090, 2080ti-q4), code placeholders.
# Neutral: '24G' in 'a single 24G 4090 GPU' (memory inside the GPU description).
# ---------------------------------------------------------------------------------------------------------
P = "powerinfer-readme.md"


def powerinfer():
    return [
        L(P, "running with a single 24G", 2.4e10, "memory", neutral=True),
        L(P, "an average token generation rate of 13.20 tokens/s", 13.20, "token_throughput", statistic="mean",
          hardware="1 x RTX 4090", engine="PowerInfer"),
        L(P, "with a peak of 29.08 tokens/s", 29.08, "token_throughput", statistic="peak",
          hardware="1 x RTX 4090", engine="PowerInfer"),
        L(P, "only 18", 18, "percent", hardware="1 x RTX 4090", engine="PowerInfer"),
        L(P, "outperforms llama.cpp by up to 11.69x", 11.69, "ratio", comparator="<=", engine="PowerInfer"),
        L(P, "PowerInfer achieves up to 11x", 11, "ratio", comparator="<=", engine="PowerInfer"),
        L(P, "PowerInfer achieves up to 11x and 8x", 8, "ratio", comparator="<=", engine="PowerInfer"),
    ]


# ---------------------------------------------------------------------------------------------------------
# ctranslate2-readme-2019.md (README of 2019-2020: neural machine translation, not an LLM, but an inference
# engine's tokens/s tables)
# Version numbers in the row labels next to the figures ('CTranslate2 1.2.1 | 3917.32', 'OpenNMT-py 0.9.2'),
# a BLEU column (quality: not labelled), a model-size table with MB in the cells, 'up to 4x faster' inside a
# Markdown link, 'up to 2x less memory' (ratio, direction down), size bounds 'below 100MB', 'as low as 100MB'.
# Conditions: model 'English-German Transformer' (the benchmark section), hardware from each 'Configuration:'
# list (Tesla V100; Core i7-6700K), engine from the row (CTranslate2 / OpenNMT-tf / OpenNMT-py).
# Not labelled: dependency versions, CUDA 10.0, Driver 410.48, 4.00GHz, beam size 4, batch size 32,
# '4 "intra threads", 1 "inter threads"', code, the quantization type table (no figures), release-1.8.1.
# Neutral: 'less than 1GB' (size of the Docker image, not of a model or a run).
# *Silent*: 'as low as 100MB' -> comparator '>=' (the smallest size reached).
# ---------------------------------------------------------------------------------------------------------
C = "ctranslate2-readme-2019.md"
M_C = "English-German Transformer"


def ctranslate2():
    out = [
        L(C, "it is [up to 4x", 4, "ratio", comparator="<=", engine="CTranslate2"),
        L(C, "Models can be quantized below 100MB", 1e8, "memory", comparator="<", engine="CTranslate2"),
        L(C, "requires less than 1GB", 1e9, "memory", comparator="<", neutral=True),
    ]
    for row, v, eng in [("| CTranslate2 (int8) | 110MB", 1.1e8, "CTranslate2"),
                        ("| CTranslate2 (int16) | 197MB", 1.97e8, "CTranslate2"),
                        ("| OpenNMT-tf | 367MB", 3.67e8, "OpenNMT-tf"),
                        ("| CTranslate2 (float) | 374MB", 3.74e8, "CTranslate2"),
                        ("| OpenNMT-py | 542MB", 5.42e8, "OpenNMT-py")]:
        out.append(L(C, row, v, "memory", model=M_C, engine=eng))
    out.append(L(C, "can go as low as 100MB", 1e8, "memory", comparator=">=", model=M_C, engine="CTranslate2"))
    for row, v, eng in [("| CTranslate2 1.2.1 | 3917.32", 3917.32, "CTranslate2"),
                        ("| CTranslate2 1.2.1 (int8) | 2519.24", 2519.24, "CTranslate2"),
                        ("| OpenNMT-tf 1.25.0 | 1338.26", 1338.26, "OpenNMT-tf"),
                        ("| OpenNMT-py 0.9.2 | 980.44", 980.44, "OpenNMT-py")]:
        out.append(L(C, row, v, "token_throughput", model=M_C, hardware="Tesla V100", engine=eng))
    for row, v, eng in [("| CTranslate2 1.2.1 (int8 + vmap) | 591.78", 591.78, "CTranslate2"),
                        ("| CTranslate2 1.2.1 (int16 + vmap) | 514.36", 514.36, "CTranslate2"),
                        ("| CTranslate2 1.2.1 (int8) | 448.21", 448.21, "CTranslate2"),
                        ("| CTranslate2 1.2.1 (int16) | 395.46", 395.46, "CTranslate2"),
                        ("| CTranslate2 1.2.1 (float) | 381.31", 381.31, "CTranslate2"),
                        ("| OpenNMT-py 0.9.2 | 241.92", 241.92, "OpenNMT-py"),
                        ("| OpenNMT-tf 1.25.0 | 119.34", 119.34, "OpenNMT-tf")]:
        out.append(L(C, row, v, "token_throughput", model=M_C, hardware="Core i7-6700K", engine=eng))
    out.append(L(C, "CTranslate2 usually requires up to 2x", 2, "ratio", comparator="<=", engine="CTranslate2"))
    return out


# ---------------------------------------------------------------------------------------------------------
# medusa-readme.md
# Two speedups against the original model ('2.2-3.6x', 'approximately a 2x'); the rest is look-alikes:
# HTML widths (80%, 60%, 45%), batch size 1, 'on 4 GPUs', TGI flags (--input-length 4000,
# --max-total-tokens 4096), training hyper-parameters, arXiv id, year, model names with sizes.
# Neutral: the 'Size' column of the Medusa-1 weights table (7B, 13B, 33B: model sizes as row labels).
# ---------------------------------------------------------------------------------------------------------
M = "medusa-readme.md"


def medusa():
    return [
        L(M, "The new results show a 2.2-3.6x", 2.2, "ratio", high=3.6, engine="Medusa"),
        L(M, "Medusa delivers approximately a 2x", 2, "ratio", comparator="~", model="Vicuna", engine="Medusa"),
        L(M, "| 7B", 7e9, "parameters", neutral=True),
        L(M, "| 13B", 1.3e10, "parameters", neutral=True),
        L(M, "| 33B", 3.3e10, "parameters", neutral=True),
    ]


# ---------------------------------------------------------------------------------------------------------
# lmdeploy-profile-throughput.md: no performance figure at all (a test-method page). Everything numeric is a
# configuration default or a formula: '* 60', concurrency 256, 5000 prompts, 'power of 2', tp 1, seed 0,
# '--cache-max-entry-count 0.7' and 'Default to 0.5' (a memory ratio setting), 'internlm-7b' (a name).
# No line is labelled; every extraction from it is a false positive.
# ---------------------------------------------------------------------------------------------------------


def labels():
    return bitnet() + powerinfer() + ctranslate2() + medusa()
