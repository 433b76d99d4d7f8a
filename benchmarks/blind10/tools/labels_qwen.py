"""qwen1.5-hf-infer-speed.rst: reStructuredText grid tables (0.5B, 1.8B) and simple tables (4B ... 72B).

Decisions (by hand, from reading the document):
- Units are stated once, in the prose above the tables: 'inference speed (tokens/s)' and
  'memory footprint (GB)'. The headers say only 'Speed (w/wo FA2)' and 'Memory'.
- 'Speed (w/wo FA2)' cells hold two figures 'a / b': with and without Flash Attention 2; both are
  token_throughput, each a line of its own.
- 'Memory' cells are GB (decimal) -> bytes; '-' cells are not labelled.
- Conditions: model from the row; hardware '<Num. GPU> x A100' (environment list: NVIDIA A100 80GB;
  count from the row); engine 'HF Transformers' (page title); batch size 1 (not a field).
- Scope: left open (batch size 1 and single stream, but no denominator is written).
- Not labelled: the 'Num. GPU' and 'Input Length' columns (settings), versions (CUDA 12.3, Pytorch 2.1.2+cu118,
  Flash Attention 2.5.6), 'Flash Attention 2', 'batch size of 1'.
- Neutral: '80GB' inside the GPU name; the generation length 2048 tokens and the four input lengths in the
  prose; '32768 tokens' in the closing note; the model-size headings '0.5B:' ... '72B:' (and the
  activated-parameter size in 'MoE-A2.7B:').
"""
from lib import L, text, row_cells, figures_in, ruler_spans, simple_cell, num

DOC = "qwen1.5-hf-infer-speed.rst"
ENGINE = "HF Transformers"


def labels():
    t = text(DOC)
    out = []
    # ---- prose ----
    out.append(L(DOC, "-  NVIDIA A100 80GB", 8e10, "memory", neutral=True))
    out.append(L(DOC, "generating\n2048 tokens", 2048, "tokens", neutral=True))
    out.append(L(DOC, "with the input lengths of 1", 1, "tokens", neutral=True))
    out.append(L(DOC, "with the input lengths of 1, 6144", 6144, "tokens", neutral=True))
    out.append(L(DOC, "with the input lengths of 1, 6144, 14336", 14336, "tokens", neutral=True))
    out.append(L(DOC, "with the input lengths of 1, 6144, 14336, and 30720", 30720, "tokens", neutral=True))
    for head, v in [("-  0.5B", 5e8), ("-  1.8B", 1.8e9), ("-  4B", 4e9), ("-  MoE-A2.7B", 2.7e9),
                    ("-  7B", 7e9), ("-  14B", 1.4e10), ("-  72B", 7.2e10)]:
        out.append(L(DOC, head, v, "parameters", neutral=True))
    out.append(L(DOC, "in the context of 32768", 32768, "tokens", neutral=True))

    lines = t.split("\n")
    # ---- grid tables: rows start with '| Qwen1.5' ----
    n_grid = 0
    for ln in lines:
        if not ln.startswith("| Qwen1.5"):
            continue
        cells = row_cells(ln, "|")
        model = ln[cells[0][0]:cells[0][1]].strip()
        ngpu = int(ln[cells[1][0]:cells[1][1]].strip())
        hw = f"{ngpu} x A100"
        speed = figures_in(ln, cells[3])
        mem = figures_in(ln, cells[4])
        assert len(speed) == 2 and len(mem) <= 1, ln
        for (a, b, s) in speed:
            out.append(L(DOC, ln[:b], num(s), "token_throughput", model=model, hardware=hw, engine=ENGINE))
        for (a, b, s) in mem:
            out.append(L(DOC, ln[:b], round(num(s) * 1e9), "memory", model=model, hardware=hw, engine=ENGINE))
        n_grid += 1
    assert n_grid == 24, n_grid

    # ---- simple tables: ruler lines '=====...' ; rows start with 'Qwen1.5' ----
    n_simple = 0
    spans = None
    for ln in lines:
        if ln.startswith("====="):
            spans = ruler_spans(ln)
            continue
        if not ln.startswith("Qwen1.5"):
            continue
        model = ln[slice(*simple_cell(ln, spans, 0))].strip()
        ngpu = int(ln[slice(*simple_cell(ln, spans, 1))].strip())
        hw = f"{ngpu} x A100"
        speed = figures_in(ln, simple_cell(ln, spans, 3))
        mem = figures_in(ln, simple_cell(ln, spans, 4))
        assert len(speed) == 2 and len(mem) <= 1, ln
        if not mem:
            assert ln.rstrip().endswith("-"), ln
        for (a, b, s) in speed:
            out.append(L(DOC, ln[:b], num(s), "token_throughput", model=model, hardware=hw, engine=ENGINE))
        for (a, b, s) in mem:
            out.append(L(DOC, ln[:b], round(num(s) * 1e9), "memory", model=model, hardware=hw, engine=ENGINE))
        n_simple += 1
    assert n_simple == 56, n_simple
    return out
