"""What a table's ratio columns compare, and settings written in words around a figure.

Every table and sentence here is written for the test. The same facts are rendered as a
Markdown pipe table, an HTML table (through the HTML ingest), a whitespace-aligned text
table, a reStructuredText grid table, a box-drawn table and prose; each layout must give
the same claims with the same measured quantity, direction, baseline and settings
(metamorphic), and focused tests cover each rule (docs/tables.md, "Ratio columns" and
"Settings in words"; docs/extraction.md, "Settings around a figure").
"""
from __future__ import annotations

import random

import pytest

from pipeline.extract import extract_claims
from pipeline.ingest import ingest_bytes
from pipeline.model import Document

TITLE = "Engine comparison"
INTRO = "We compared two serving engines on one workload."


def _doc(text: str, title: str = TITLE) -> Document:
    return Document(id="t", path="t.md", format="markdown", text=text, title=title)


# ---------------------------------------------------------------------- renderers
def _pipe(heads, rows) -> str:
    return "\n".join(["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
                     + ["| " + " | ".join(r) + " |" for r in rows])


def _widths(heads, rows, pad=0):
    return [max(len(x) for x in col) + pad for col in zip(heads, *rows)]


def _whitespace(heads, rows) -> str:
    w = _widths(heads, rows)
    return "\n".join("   ".join(c.ljust(n) for c, n in zip(r, w)).rstrip() for r in [heads] + rows)


def _grid(heads, rows) -> str:
    w = _widths(heads, rows, 2)
    border = lambda fill: "+" + "+".join(fill * n for n in w) + "+"  # noqa: E731
    line = lambda cs: "|" + "|".join(" " + c.ljust(n - 1) for c, n in zip(cs, w)) + "|"  # noqa: E731
    return "\n".join([border("-"), line(heads), border("=")] + [line(r) for r in rows] + [border("-")])


def _box(heads, rows) -> str:
    w = _widths(heads, rows, 2)
    rule = lambda a, b, c, f: a + b.join(f * n for n in w) + c  # noqa: E731
    line = lambda wall, cs: wall + wall.join(x.rjust(n - 1) + " " for x, n in zip(cs, w)) + wall  # noqa: E731
    return "\n".join([rule("┏", "┳", "┓", "━"), line("┃", heads), rule("┡", "╇", "┩", "━")]
                     + [line("│", r) for r in rows] + [rule("└", "┴", "┘", "─")])


def _html(heads, rows, lead: str) -> bytes:
    head = "".join(f"<th>{h}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{x}</td>" for x in r) + "</tr>" for r in rows)
    return (f"<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>"
            f"<p>{lead} Each figure is the mean of three runs of one benchmark script.</p>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            "<p>Other machines will give other numbers than the ones in this table.</p>"
            "</article></body></html>").encode()


def layouts(heads, rows, lead: str = INTRO) -> dict[str, Document]:
    """One table in every layout the readers know."""
    return {
        "pipe": _doc(f"# {TITLE}\n\n{lead}\n\n{_pipe(heads, rows)}\n"),
        "html": ingest_bytes(_html(heads, rows, lead), "bench.html"),
        "whitespace": ingest_bytes(f"{TITLE}\n\n{lead}\n\n{_whitespace(heads, rows)}\n".encode(), "bench.txt"),
        "rst grid": ingest_bytes(f"{TITLE}\n{'=' * len(TITLE)}\n\n{lead}\n\n{_grid(heads, rows)}\n".encode(),
                                 "bench.rst"),
        "box": _doc(f"# {TITLE}\n\n{lead}\n\n{_box(heads, rows)}\n"),
    }


FIELDS = ("value", "family", "model", "engine", "hardware", "measures", "direction", "baseline",
          "batch_size", "concurrency", "isl", "osl")


def _key(c) -> tuple:
    return tuple(round(getattr(c, f), 6) if f == "value" else getattr(c, f) for f in FIELDS)


def _claims(doc: Document, family: str | None = None) -> list[tuple]:
    out = []
    for c in extract_claims(doc):
        assert doc.text[c.start:c.end] == c.surface
        if family is None or c.family == family:
            out.append(_key(c))
    return sorted(out, key=repr)


def _ratios(doc: Document) -> list[tuple]:
    return _claims(doc, "ratio")


# ---------------------------------------------------------------------- ratio columns
def engine_rows(model: str, base: tuple[str, str], new: tuple[str, str]) -> list[list[str]]:
    """Two runs of one model: (engine, throughput) each; the speedup column divides them."""
    speed = float(new[1].replace(",", "")) / float(base[1].replace(",", ""))
    return [[model, base[0], base[1], "1.00"], [model, new[0], new[1], f"{speed:.2f}"]]


HEADS = ["Model", "Engine", "Throughput (tok/s)", "Speedup"]


@pytest.mark.parametrize("layout", ["pipe", "html", "whitespace", "rst grid", "box"])
def test_a_speedup_column_keeps_what_it_measures_its_direction_and_its_baseline_row(layout):
    rows = engine_rows("Llama 3.1 8B", ("vLLM", "2,400"), ("SGLang", "3,120"))
    got = _ratios(layouts(HEADS, rows)[layout])
    assert [(v, eng, meas, d, base) for v, _, _, eng, _, meas, d, base, *_ in got] == \
        [(1.3, "SGLang", "throughput", "up", "vLLM")]


@pytest.mark.parametrize("seed", range(4))
def test_every_layout_and_prose_give_the_same_comparison(seed):
    rnd = random.Random(seed)
    model = rnd.choice(["Llama 3.1 8B", "Qwen2.5 72B", "Mixtral 8x7B", "DeepSeek-R1"])
    base, new = rnd.sample(["vLLM", "SGLang", "TensorRT-LLM", "LMDeploy", "TGI"], 2)
    a = rnd.randint(800, 5000)
    b = int(a * rnd.uniform(1.1, 3.0))
    rows = engine_rows(model, (base, f"{a:,}"), (new, f"{b:,}"))
    speed = rows[1][3]
    prose = _doc(f"# {TITLE}\n\n{INTRO}\n\nOn {model}, {base} reached {a:,} tok/s and {new} reached {b:,} "
                 f"tok/s.\n\nOn {model}, {new} is {speed}x faster than {base} in throughput.\n")
    want = _ratios(prose)
    assert len(want) == 1 and want[0][5:8] == ("throughput", "up", base)
    got = {name: _ratios(doc) for name, doc in layouts(HEADS, rows).items()}
    assert {name: r for name, r in got.items() if r != want} == {}


def test_a_baseline_in_the_header_is_the_baseline_never_the_engine():
    text = ("# Results\n\n| Model | SGLang throughput (tok/s) | Speedup vs vLLM |\n|---|---|---|\n"
            "| Qwen2.5 72B | 1,830 | 1.45x |\n")
    (r,) = [c for c in extract_claims(_doc(text)) if c.family == "ratio"]
    assert (r.baseline, r.engine, r.measures, r.direction) == ("vLLM", None, "throughput", "up")


def test_the_quotient_of_two_columns_names_the_baseline_column():
    text = ("# Results\n\n| Model | Throughput without caching (tok/s) | Throughput with caching (tok/s) | Gain |\n"
            "|---|---|---|---|\n| Llama 3.1 8B | 1,500 | 2,700 | 1.8x |\n| Llama 3.1 8B | 1,000 | 3,500 | 3.5x |\n")
    got = [(c.value, c.measures, c.direction, c.baseline) for c in extract_claims(_doc(text)) if c.family == "ratio"]
    assert got == [(1.8, "throughput", "up", "without caching"), (3.5, "throughput", "up", "without caching")]


def test_a_ratio_that_no_quotient_explains_gets_no_invented_baseline():
    text = ("# Results\n\n| Model | Throughput A (tok/s) | Throughput B (tok/s) | Speedup |\n"
            "|---|---|---|---|\n| Llama 3.1 8B | 1,500 | 2,700 | 4.2x |\n")
    (r,) = [c for c in extract_claims(_doc(text)) if c.family == "ratio"]
    assert (r.baseline, r.measures, r.direction) == (None, "throughput", "up")


SECTIONS = ("| Model | Batch | Throughput (tok/s) | TTFT (ms) |\n|---|---|---|---|\n"
            "| **H200** |\n| Llama 3.1 8B | 32 | 9,000 | 50 |\n"
            "| **A10G** |\n| Llama 3.1 8B | 32 | 3,000 | 200 |\n"
            "| **Speedup** |\n| Llama 3.1 8B | 32 | 3.0x | 4.0x |\n")


def test_a_speedup_section_divides_the_sections_above_it():
    got = [(c.value, c.measures, c.direction, c.baseline, c.hardware, c.batch_size)
           for c in extract_claims(_doc("# Two GPUs\n\n" + SECTIONS)) if c.family == "ratio"]
    # a speedup of a time is the time getting shorter: the A10G's TTFT is the longer one
    assert got == [(3.0, "throughput", "up", "A10G", "H200", 32), (4.0, "latency", "down", "A10G", "H200", 32)]


def test_a_quantity_named_in_the_ratio_header_wins_over_the_other_columns():
    text = ("# Results\n\n| Variant | TTFT (ms) | Throughput (tok/s) | TTFT speedup |\n|---|---|---|---|\n"
            "| base | 300 | 1,000 | 1.00 |\n| tuned | 100 | 1,100 | 3.00 |\n")
    (r,) = [c for c in extract_claims(_doc(text)) if c.family == "ratio"]
    assert (r.measures, r.direction, r.baseline) == ("latency", "down", "base")


def test_a_change_column_in_percent_keeps_its_sign_and_reads_its_quantity_from_the_row():
    text = ("# Results\n\n| Metric | Before | After | Change |\n|---|---|---|---|\n"
            "| Output throughput (tok/s) | 1,000 | 1,120 | +12% |\n| TTFT (ms) | 200 | 180 | -10% |\n")
    got = [(c.value, c.direction, c.measures) for c in extract_claims(_doc(text)) if c.family == "percent"]
    assert got == [(12, "up", "throughput"), (10, "down", "latency")]


# ---------------------------------------------------------------------- settings in words
def test_settings_in_row_labels_headers_and_captions_are_conditions_of_their_rows():
    text = ("# Runs\n\nAll runs use 8.6K input tokens and 2K output tokens on one H100.\n\n"
            "| Config | Throughput @ 32 users (tok/s) | TTFT (ms) |\n|---|---|---|\n"
            "| Llama 3.1 8B, BS=64 | 3,018 | 120 |\n| Llama 3.1 8B, batch 128 | 3,390 | 98 |\n")
    got = [(c.value, c.batch_size, c.concurrency, c.isl, c.osl) for c in extract_claims(_doc(text))]
    assert got == [(3018, 64, 32, 8600, 2000), (0.12, 64, None, 8600, 2000),
                   (3390, 128, 32, 8600, 2000), (0.098, 128, None, 8600, 2000)]


def test_a_sweep_before_a_table_fixes_no_setting():
    text = ("# Runs\n\nWe ran batch sizes of 1, 8 and 64 with ISL 1k and ISL 8k.\n\n"
            "| Model | Throughput (tok/s) |\n|---|---|\n| Llama 3.1 8B | 3,018 |\n")
    (c,) = extract_claims(_doc(text))
    assert (c.batch_size, c.isl) == (None, None)


@pytest.mark.parametrize("label", ["ISL 1k / OSL 2k, bs=16", "1k/2k, batch 16", "ISL=1k, OSL=2k, batch size 16"])
def test_a_row_label_states_lengths_and_batch_in_any_spelling(label):
    text = f"# Runs\n\n| Run | Throughput (tok/s) |\n|---|---|\n| {label} | 3,018 |\n"
    (c,) = extract_claims(_doc(text))
    assert (c.isl, c.osl, c.batch_size) == (1000, 2000, 16)


def test_settings_in_a_column_in_a_label_or_in_prose_give_the_same_conditions():
    as_column = ("# Runs\n\n| Model | Batch size | ISL | OSL | Throughput (tok/s) |\n|---|---|---|---|---|\n"
                 "| Llama 3.1 8B | 64 | 1024 | 256 | 3,018 |\n")
    in_label = ("# Runs\n\n| Model | Throughput (tok/s) |\n|---|---|\n"
                "| Llama 3.1 8B (batch size 64, ISL 1024, OSL 256) | 3,018 |\n")
    in_caption = ("# Runs\n\nLlama 3.1 8B at batch size 64 with 1024 input tokens and 256 output tokens.\n\n"
                  "| Model | Throughput (tok/s) |\n|---|---|\n| Llama 3.1 8B | 3,018 |\n")
    in_prose = "# Runs\n\nLlama 3.1 8B reached 3,018 tok/s. It ran at batch size 64 with ISL 1024 and OSL 256.\n"
    in_bullets = "# Runs\n\n- Llama 3.1 8B reached 3,018 tok/s\n- Batch size: 64\n- ISL/OSL: 1024/256\n"
    got = {name: [(c.value, c.model, c.batch_size, c.isl, c.osl) for c in extract_claims(_doc(t))]
           for name, t in [("column", as_column), ("label", in_label), ("caption", in_caption),
                           ("prose", in_prose), ("bullets", in_bullets)]}
    want = [(3018, "Llama 3.1 8B", 64, 1024, 256)]
    assert {k: v for k, v in got.items() if v != want} == {}


# ---------------------------------------------------------------------- settings around a figure
def _one(text: str):
    claims = extract_claims(_doc(text, title="Runs"))
    assert len(claims) == 1, claims
    return claims[0]


def test_a_setting_in_the_next_sentence_or_list_item_is_the_figures():
    c = _one("# Runs\n\nSGLang served 5,000 tokens/s on one H100. The run used a batch size of 64 "
             "and 8 concurrent requests.\n")
    assert (c.batch_size, c.concurrency) == (64, 8)
    c = _one("# Runs\n\n- SGLang served 5,000 tokens/s on one H100\n- Batch size: 64\n")
    assert c.batch_size == 64
    c = _one("# Runs\n\nSGLang served 5,000 tokens/s on one H100, with batch size 64.\n")
    assert c.batch_size == 64


def test_workload_sizes_written_as_input_and_output_tokens_are_lengths():
    c = _one("# Runs\n\nEach request has 8.6K input tokens and 2K output tokens. SGLang served "
             "5,000 tokens/s on one H100.\n")
    assert (c.isl, c.osl) == (8600, 2000)
    c = _one("# Runs\n\nWith 1,000 input and 500 output tokens, SGLang served 5,000 tokens/s on one H100.\n")
    assert (c.isl, c.osl) == (1000, 500)


def test_a_rate_of_input_tokens_is_no_length():
    claims = extract_claims(_doc("# Runs\n\nSGLang reached 52.3k input tokens per second per node.\n"))
    assert [(c.value, c.isl) for c in claims] == [(52300, None)]


def test_settings_do_not_cross_paragraphs_lists_or_sweeps():
    c = _one("# Runs\n\nSGLang served 5,000 tokens/s on one H100.\n\nWe use batch size 64.\n")
    assert c.batch_size is None
    c = _one("# Runs\n\nWe vary the batch size from 1 to 64. SGLang served 5,000 tokens/s on one H100.\n")
    assert c.batch_size is None
    c = _one("# Runs\n\n- SGLang served 5,000 tokens/s on one H100\n\n"
             "Some prose between the lists.\n\n- Batch size: 64\n")
    assert c.batch_size is None


def test_a_figure_keeps_its_own_setting_over_a_neighbours():
    claims = extract_claims(_doc("# Runs\n\n- vLLM served 4,000 tokens/s at batch size 32\n"
                                 "- SGLang served 5,000 tokens/s\n- Batch size: 64\n", title="Runs"))
    assert [(c.value, c.batch_size) for c in claims] == [(4000, 32), (5000, 64)]


def test_a_neighbour_with_numbers_of_its_own_states_a_result_not_a_setting():
    c = _one("# Runs\n\nSGLang served 5,000 tokens/s on one H100. We also tried 12 nodes at batch size 128.\n")
    assert c.batch_size is None


def test_sizes_and_counts_take_no_workload_setting():
    claims = extract_claims(_doc("# Runs\n\nThe weights need 80 GB on each H100. It runs at batch size 64.\n", title="Runs"))
    assert [(c.family, c.batch_size) for c in claims] == [("memory", None)]


def test_a_file_name_or_flag_is_no_parallel_layout():
    c = _one("# Runs\n\nSGLang served 5,000 tokens/s on one H100.\nInstall the cp311-cp311 wheel first.\n")
    assert c.parallelism is None


def test_a_dated_news_item_is_no_setting_of_the_next_item():
    c = _one("# News\n\n- [2025/03] Our engine now runs on two GPUs (tp=2)\n"
             "- [2025/02] Our engine serves 4-bit models 1.8x faster than FP16\n")
    assert (c.value, c.parallelism) == (1.8, None)


def test_a_heading_that_names_one_baseline_gives_it_to_the_speedup_column():
    text = ("# Results\n\n## Speedup over vLLM on one H100\n\n| Model | Speedup |\n|---|---|\n"
            "| Llama 3.1 8B | 1.4x |\n| Qwen2.5 7B | 1.6x |\n")
    got = [(c.value, c.baseline, c.direction) for c in extract_claims(_doc(text))]
    assert got == [(1.4, "vLLM", "up"), (1.6, "vLLM", "up")]


def test_a_setup_line_on_a_slide_gives_its_settings_to_the_results_under_it():
    c = _one("Benchmark results\n\nSetup: batch size 256. Input len 4096. Output len 16.\n"
             "The batched scheduler finished the run in 6.6 s on one H100.\n")
    assert (c.batch_size, c.isl, c.osl) == (256, 4096, 16)


def test_a_gpu_count_in_the_row_label_counts_the_tables_accelerator():
    text = ("# Llama 3.1 70B on H100\n\n| Setup | Throughput (tok/s) |\n|---|---|\n"
            "| 1 GPU | 1,200 |\n| 8 GPUs, TP8 | 8,100 |\n")
    got = [(c.value, c.hardware, c.parallelism) for c in extract_claims(_doc(text, title="Llama 3.1 70B on H100"))]
    assert got == [(1200, "1 x H100", None), (8100, "8 x H100", "TP8")]


def test_settings_in_row_labels_are_read_alike_in_every_layout():
    heads = ["Run", "Throughput (tok/s)", "TTFT (ms)"]
    rows = [["Llama 3.1 8B BS=64 1k/2k", "3,018", "120"],
            ["Llama 3.1 8B BS=128 1k/2k", "3,390", "98"]]
    got = {name: [(c.value, c.model, c.batch_size, c.isl, c.osl) for c in extract_claims(doc)]
           for name, doc in layouts(heads, rows).items()}
    want = [(3018, "Llama 3.1 8B", 64, 1000, 2000), (0.12, "Llama 3.1 8B", 64, 1000, 2000),
            (3390, "Llama 3.1 8B", 128, 1000, 2000), (0.098, "Llama 3.1 8B", 128, 1000, 2000)]
    assert {name: g for name, g in got.items() if g != want} == {}


def test_a_prose_mention_of_a_table_cell_takes_the_cells_row_settings():
    text = ("# Results\n\nOur engine reaches 11,482 tokens/s on Llama 3.1 8B on one GPU.\n\n"
            "| Model | Batch size | ISL | OSL | Throughput (tok/s) |\n|---|---|---|---|---|\n"
            "| Llama 3.1 8B | 512 | 128 | 128 | 11,482 |\n| Llama 3.1 8B | 64 | 128 | 2048 | 4,930 |\n")
    got = [(c.value, c.in_table, c.batch_size, c.isl, c.osl) for c in extract_claims(_doc(text))]
    assert got == [(11482, False, 512, 128, 128), (11482, True, 512, 128, 128), (4930, True, 64, 128, 2048)]


def test_a_round_prose_figure_takes_no_cells_settings():
    text = ("# Results\n\nOur engine reaches 5,000 tokens/s on Llama 3.1 8B.\n\n"
            "| Model | Batch size | Throughput (tok/s) |\n|---|---|---|\n| Llama 3.1 8B | 512 | 5,000 |\n")
    got = [(c.value, c.in_table, c.batch_size) for c in extract_claims(_doc(text))]
    assert got == [(5000, False, None), (5000, True, 512)]


ENGINES_ON_THEIR_SIDE = ("| Metric | vLLM | SGLang | SGLang vs vLLM |\n|---|---|---|---|\n"
                         "| Throughput (tok/s) | 2,400 | 3,120 | 1.30x |\n| TTFT (ms) | 120 | 60 | 2.00x |\n")
ENGINES_WITH_A_SPEEDUP_ROW = ("| Engine | Throughput (tok/s) | TTFT (ms) |\n|---|---|---|\n"
                              "| vLLM | 2,400 | 120 |\n| SGLang | 3,120 | 60 |\n| Speedup | 1.30x | 2.00x |\n")


@pytest.mark.parametrize("table", [ENGINES_ON_THEIR_SIDE, ENGINES_WITH_A_SPEEDUP_ROW])
def test_a_ratio_row_or_column_divides_the_rows_beside_it(table):
    got = [(c.value, c.engine, c.measures, c.direction, c.baseline)
           for c in extract_claims(_doc("# Results on Llama 3.1 8B\n\n" + table)) if c.family == "ratio"]
    assert got == [(1.3, "SGLang", "throughput", "up", "vLLM"), (2.0, "SGLang", "latency", "down", "vLLM")]


@pytest.mark.parametrize("header", ["Seqlen", "Seq len", "seq_len", "Sequence length"])
def test_a_sequence_length_column_holds_settings_not_figures(header):
    """However the header joins "seq" and "len", its cells ("16k") are the length each row
    ran at, never figures in the unit of the table's measured column."""
    text = _pipe(["GPU", header, "TB/s"], [["H200", "16k", "4.31"], ["B200", "64k", "7.10"]])
    got = sorted((c.surface, c.family) for c in extract_claims(_doc(text)))
    assert got == [("4.31", "bandwidth"), ("7.10", "bandwidth")], got
