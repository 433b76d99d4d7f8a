#!/usr/bin/env python3
"""Write labels.jsonl for the blind2 set.

The labelling decisions (which cells and sentences are figures, family, value, unit
conversion, neutral or not, model/hardware/statistic/comparator) are written out by hand
below, document by document. The helpers only cut quotes out of the documents: a table
cell's quote runs from the start of its row to the end of the figure in that cell.
"""
import json, os, re

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "docs")
OUT = os.path.join(HERE, "..", "labels.jsonl")
rows_out = []

def text(doc):
    with open(os.path.join(DOCS, doc), encoding="utf-8") as f:
        return f.read()

def table_rows(doc, start_marker, end_marker=None):
    """Pipe-table data rows (not header/separator) between two markers."""
    t = text(doc)
    i = t.index(start_marker)
    j = t.index(end_marker, i) if end_marker else len(t)
    out = []
    lines = t[i:j].split("\n")
    for ln in lines:
        if ln.startswith("|") and not re.match(r"^\|[\s\-:|]+\|?$", ln):
            out.append(ln)
    return out

def cell_quote(row, k, token=None):
    """Quote from row start to the end of the figure in cell k (1-based)."""
    pipes = [m.start() for m in re.finditer(r"\|", row)]
    a, b = pipes[k - 1] + 1, pipes[k]
    cell = row[a:b]
    m = re.search(re.escape(token) if token else r"\d[\d,]*(?:\.\d+)?", cell)
    assert m, (row, k, cell)
    return row[: a + m.end()], m.group(0)

def cell_text(row, k):
    pipes = [m.start() for m in re.finditer(r"\|", row)]
    return row[pipes[k - 1] + 1: pipes[k]].strip()

def add(doc, quote, value, family, **kw):
    d = {"doc": doc, "quote": quote, "value": value, "family": family}
    d.update({k: v for k, v in kw.items() if v is not None})
    rows_out.append(d)

def num(s):
    return float(s.replace(",", ""))

def clean(v):
    v = round(v, 12)
    return int(v) if float(v).is_integer() and abs(v) >= 1 else v

# ---------------------------------------------------------------- lmdeploy
D = "lmdeploy-deepseekv3-benchmark.md"
# Three tables; columns: max bsz (setting), prompt no (request count), input-len and
# output-len (tokens, neutral), input / output token throughput (tok/s, required).
# Model from the title (DeepSeekV3); no GPU type is named (only 2 / 4 nodes), so no hardware.
for ln in table_rows(D, "### v0.7.1", "## User guide"):
    if not cell_text(ln, 1).isdigit():
        continue
    for k in (3, 4):
        q, tok = cell_quote(ln, k)
        add(D, q, clean(num(tok)), "tokens", model="DeepSeekV3", neutral=True)
    for k in (5, 6):
        q, tok = cell_quote(ln, k)
        add(D, q, clean(num(tok)), "token_throughput", model="DeepSeekV3")
# prose: the output-length settings restated (16k / 32k, decimal K per the guidelines)
add(D, "For output lengths of 16k", 16000, "tokens", neutral=True)
add(D, "For output lengths of 16k and 32k", 32000, "tokens", neutral=True)

# ---------------------------------------------------------------- llama.cpp batched-bench
D = "llamacpp-batched-bench.md"
# Columns: PP, TG (tokens per batch, settings -> neutral tokens), B (number of batches,
# setting, not labelled), N_KV (required KV cache size in tokens -> neutral tokens),
# T_PP s / T_TG s / T s (latency, seconds), S_PP / S_TG / S t/s (token throughput).
# No model or hardware is named for the sample results (the LLaMA 7B lines are usage examples).
for ln in table_rows(D, "|    PP |"):
    if not cell_text(ln, 1).isdigit():
        continue
    for k in (1, 2, 4):
        q, tok = cell_quote(ln, k)
        add(D, q, clean(num(tok)), "tokens", neutral=True)
    for k in (5, 7, 9):
        q, tok = cell_quote(ln, k)
        add(D, q, clean(num(tok)), "latency")
    for k in (6, 8, 10):
        q, tok = cell_quote(ln, k)
        add(D, q, clean(num(tok)), "token_throughput")

# ---------------------------------------------------------------- vLLM benchmarks README
D = "vllm-benchmarks-readme.md"
T = text(D)
HERMES = "Hermes-3-Llama-3.1-8B"
def line_q(label, value_str):
    i = T.index(label)
    j = T.index(value_str, i) + len(value_str)
    return T[i:j]
# bench_serving result block (whitespace-aligned, metric + unit left, value right)
add(D, line_q("Benchmark duration (s):", "5.78"), 5.78, "latency", model=HERMES, neutral=True)
add(D, line_q("Total input tokens:", "1369"), 1369, "tokens", model=HERMES, neutral=True)
add(D, line_q("Total generated tokens:", "2212"), 2212, "tokens", model=HERMES, neutral=True)
add(D, line_q("Request throughput (req/s):", "1.73"), 1.73, "request_throughput", model=HERMES)
add(D, line_q("Output token throughput (tok/s):", "382.89"), 382.89, "token_throughput", model=HERMES)
add(D, line_q("Total Token throughput (tok/s):", "619.85"), 619.85, "token_throughput", model=HERMES)
for lab, v, st in [("Mean TTFT (ms):", "71.54", "mean"), ("Median TTFT (ms):", "73.88", "median"),
                   ("P99 TTFT (ms):", "79.49", "p99"), ("Mean TPOT (ms):", "7.91", "mean"),
                   ("Median TPOT (ms):", "7.96", "median"), ("P99 TPOT (ms):", "8.03", "p99"),
                   ("Mean ITL (ms):", "7.74", "mean"), ("Median ITL (ms):", "7.70", "median"),
                   ("P99 ITL (ms):", "8.39", "p99")]:
    add(D, line_q(lab, v), clean(num(v) / 1000), "latency", statistic=st, model=HERMES)
# benchmark_throughput outputs: one line per run, three figures, then token totals
for req, tot, outp, ptok, otok, model in [
        ("7.15", "4656.00", "1072.15", "5014", "1500", HERMES),
        ("2.55", "4036.92", "326.90", "14527", "1280", "Qwen2-VL-7B-Instruct"),
        ("104.77", "23836.22", "10477.10", "261136", "204800", "Meta-Llama-3-8B-Instruct")]:
    head = f"Throughput: {req} requests/s"
    add(D, head, num(req), "request_throughput", model=model)
    add(D, head + f", {tot} total tokens/s", num(tot), "token_throughput", model=model)
    add(D, head + f", {tot} total tokens/s, {outp} output tokens/s", num(outp), "token_throughput", model=model)
    add(D, f"Total num prompt tokens:  {ptok}", int(ptok), "tokens", model=model, neutral=True)
    add(D, f"Total num output tokens:  {otok}", int(otok), "tokens", model=model, neutral=True)

# ---------------------------------------------------------------- SGLang attention backend H200
D = "sglang-attention-backend-h200.md"
T = text(D)
# Sections "## Experiment - <bench> | <model>". Throughput tables: Configuration string holds
# the settings (random_input_len / random_output_len -> neutral tokens); input/output token
# throughput (tok/s) required. gsm8k tables: Accuracy not labelled; "Output throughput" cells
# carry their unit ("573.756 token/s"), required. The "#### attn=...,random_input_len=..."
# command headings repeat the settings outside code -> neutral tokens. Code not labelled.
# Hardware (H200) is only in the file name, never in the text -> no hardware field.
sections = re.split(r"(?m)^(?=## Experiment - )", T)
for sec in sections:
    if not sec.startswith("## Experiment"):
        continue
    model = sec.split("\n", 1)[0].split("|")[1].strip()
    for ln in sec.split("\n"):
        if ln.startswith("| attn="):
            conf = cell_text(ln, 1)
            for key in ("random_input_len=", "random_output_len="):
                if key in conf:
                    i = ln.index(key) + len(key)
                    m = re.match(r"\d+", ln[i:])
                    add(D, ln[: i + m.end()], int(m.group(0)), "tokens", model=model, neutral=True)
            ncol = ln.count("|") - 1
            if "gsm8k" in sec.split("\n", 1)[0]:
                q, tok = cell_quote(ln, 3)
                add(D, q, num(tok), "token_throughput", model=model)
            else:
                first = 3 if "FAILED" in sec else 2
                for k in (first, first + 1):
                    c = cell_text(ln, k)
                    if c:
                        q, tok = cell_quote(ln, k)
                        add(D, q, num(tok), "token_throughput", model=model)
        elif ln.startswith("#### attn=") and "random_input_len" in ln:
            for key in ("random_input_len=", "random_output_len="):
                i = ln.index(key) + len(key)
                m = re.match(r"\d+", ln[i:])
                add(D, ln[: i + m.end()], int(m.group(0)), "tokens", model=model, neutral=True)

# ---------------------------------------------------------------- TensorRT-LLM N-Gram blog
D = "trtllm-ngram-blog.md"
SCOUT = "Llama\u20114\u2011Scout\u201117B\u201116E"
HW = "8 x B200"
# Highlights (summary of the study; hardware and model are given later, not here)
add(D, "N-Gram achieves accepted length of 1.37", 1.37, "tokens", statistic="mean", comparator=">=", neutral=True)
add(D, "Results in 10-60%", 10, "percent", high=60)
add(D, "the second round achieved a higher accepted length of 1.66", 1.66, "tokens", neutral=True)
add(D, "the second round achieved a higher accepted length of 1.66 and a 30\u201390%", 30, "percent", high=90)
add(D, "With the translation dataset, the accepted length can exceed 4.0", 4.0, "tokens", comparator=">", neutral=True)
add(D, "reduce latency by up to 70%", 70, "percent", comparator="<=")
add(D, "This policy adds less than 15%", 15, "percent", comparator="<")
# Background
add(D, "Average accepted length (AL) is ~1.3", 1.3, "tokens", statistic="mean", comparator="~", neutral=True)
add(D, "and can exceed 4.0 on highly repetitive data", 4.0, "tokens", comparator=">", neutral=True)
# Multi-turn table (k, v are settings; AL columns are mean accepted lengths -> neutral tokens)
for ln in table_rows(D, "| k | v | AL Turn1 | AL Turn2 |", "Figure 4 shows"):
    if not cell_text(ln, 1).isdigit():
        continue
    for k in (3, 4):
        q, tok = cell_quote(ln, k)
        add(D, q, num(tok), "tokens", model=SCOUT, hardware=HW, neutral=True)
# Second-turn speed-ups
add(D, "delivers 96.13%", 96.13, "percent", model=SCOUT, hardware=HW)
add(D, "63.99%", 63.99, "percent", model=SCOUT, hardware=HW)
add(D, "the speed up is 33.06%", 33.06, "percent", model=SCOUT, hardware=HW)
# Transposed translation table: header row = column index, k/v rows = settings, AL row -> neutral tokens
T = text(D)
al = [l for l in T.split("\n") if l.startswith("| AL |")][0]
for k in range(2, 16):
    q, tok = cell_quote(al, k)
    add(D, q, num(tok), "tokens", model=SCOUT, hardware=HW, neutral=True)
add(D, "roughly one-third", 100 / 3, "percent", comparator="~", neutral=True)
add(D, "while another one-third", 100 / 3, "percent", comparator="~", neutral=True)
add(D, "yields ~15 %", 15, "percent", comparator="~")

# ---------------------------------------------------------------- EAGLE README
D = "eagle-readme.md"
add(D, "achieveing **2x", 2, "ratio")
add(D, "**3x", 3, "ratio")
add(D, "**3x** faster than vanilla decoding (13B", 13000000000, "parameters", neutral=True)
add(D, "**2x** faster than", 2, "ratio")
add(D, "<b>Lookahead</b></a> (13B", 13000000000, "parameters", neutral=True)
add(D, "**1.6x", 1.6, "ratio")
add(D, "<b>Medusa</b></a> (13B", 13000000000, "parameters", neutral=True)
add(D, "trainable (within 1-2 days", 86400, "latency", high=172800, comparator="<=", neutral=True)
# EAGLE weights table: "# EAGLE Parameters" columns 3 and 6 (the draft head's size)
for ln in table_rows(D, "| Base Model  |", "## Inference"):
    if "yuhuili" not in ln:
        continue
    names = re.findall(r"\[yuhuili/([^\]]+)\]", ln)
    q, tok = cell_quote(ln, 3)
    add(D, q, clean(num(tok[:-1] if tok.endswith("B") else tok) * 1e9), "parameters", model=names[0])
    q, tok = cell_quote(ln, 6)
    add(D, q, clean(num(tok) * 1e9), "parameters", model=names[1])
L13 = "LLaMA2-Chat 13B"
add(D, "EAGLE+gpt-fast is 2.15x", 2.15, "ratio", model=L13)
add(D, "With int4 quantization, EAGLE+gpt-fast is 1.74x", 1.74, "ratio", model=L13)
add(D, "| gpt-fast          | 33.2", 33.2, "token_throughput", model=L13)
add(D, "| gpt-fast          | 33.2 tokens/s      | 47.4", 47.4, "token_throughput", model=L13)
add(D, "| EAGLE+gpt-fast    | 71.5", 71.5, "token_throughput", model=L13)
add(D, "| EAGLE+gpt-fast    | 71.5 tokens/s (2.15", 2.15, "ratio", model=L13)
add(D, "| EAGLE+gpt-fast    | 71.5 tokens/s (2.15x)    | 82.5", 82.5, "token_throughput", model=L13)
add(D, "| EAGLE+gpt-fast    | 71.5 tokens/s (2.15x)    | 82.5 tokens/s (1.74", 1.74, "ratio", model=L13)

with open(OUT, "w", encoding="utf-8") as f:
    for r in rows_out:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(len(rows_out), "labels")
