"""genai-perf-lora.md: three box-drawing tables (Rich console output in code blocks), transposed:
metrics as rows (unit in the row label: 'Request latency (ms)', '(per sec)'), statistics as columns
(avg, min, max, p99, p90, p75), N/A cells, thousands separators ('1,655.06', '20,277.80').

Decisions:
- 'Request latency (ms)' -> latency in seconds; every cell required.
- 'Output token throughput (per sec)' -> token_throughput; 'Request throughput (per sec)' -> request_throughput;
  only the avg cell holds a figure (the others are N/A, not labelled).
- 'Output sequence length' and 'Input sequence length' -> tokens, neutral (the input length is a workload
  setting; the output length is a by-product of the run, fair to extract or to skip).
- Statistic from the column header: avg -> mean, p99 -> p99, p90 -> p90. *Silent*: min, max and p75 are not
  in the statistic vocabulary of the guidelines (p50, p90, p99, mean, median, peak); those cells carry no
  statistic.
- Conditions: table 1 = LoRA adapters on meta-llama/Llama-2-7b-hf served by vLLM; table 2 = LoRA adapters on
  mistralai/Mistral-7B-v0.1 served by TGI; table 3 = LoRA adapters on Mistral-7B-Instruct-v0.1 served by LoRAX
  (concurrency 128, not a field). No hardware is named.
- Scope: open (no denominator written; 'per sec' is the time unit).
- Not labelled: code (--max-model-len 1024, RELEASE 25.01, --concurrency=128, ports, shm size), the license
  header, model names.
"""
from lib import L, text, row_cells, figures_in, num

DOC = "genai-perf-lora.md"
TABLES = [("Llama-2-7b-hf", "vLLM"), ("Mistral-7B-v0.1", "TGI"), ("Mistral-7B-Instruct-v0.1", "LoRAX")]
STATS = ["mean", None, None, "p99", "p90", None]   # avg, min, max, p99, p90, p75


def labels():
    t = text(DOC)
    out = []
    lines = t.split("\n")
    tab = -1
    for ln in lines:
        if "NVIDIA GenAI-Perf | LLM Metrics" in ln:
            tab += 1
            continue
        if not ln.startswith("│"):
            continue
        model, engine = TABLES[tab]
        cells = row_cells(ln, "│")
        label = ln[cells[0][0]:cells[0][1]].strip()
        for ci, span in enumerate(cells[1:]):
            figs = figures_in(ln, span)
            cell = ln[span[0]:span[1]].strip()
            if not figs:
                assert cell == "N/A", (ln, cell)
                continue
            assert len(figs) == 1
            a, b, s = figs[0]
            q = ln[:b]
            st = STATS[ci]
            if label == "Request latency (ms)":
                out.append(L(DOC, q, round(num(s) / 1000, 8), "latency", statistic=st, model=model, engine=engine))
            elif label == "Output token throughput (per sec)":
                assert ci == 0
                out.append(L(DOC, q, num(s), "token_throughput", statistic=st, model=model, engine=engine))
            elif label == "Request throughput (per sec)":
                assert ci == 0
                out.append(L(DOC, q, num(s), "request_throughput", statistic=st, model=model, engine=engine))
            elif label in ("Output sequence length", "Input sequence length"):
                out.append(L(DOC, q, num(s), "tokens", statistic=st, model=model, engine=engine, neutral=True))
            else:
                raise AssertionError(label)
    assert tab == 2
    return out
