"""Metamorphic tests for tables: the same facts rendered into every layout give the same
claims (value, family, scope, model, hardware, engine, conditions).

The facts: two serving runs of one model on one system, each with an engine, a
concurrency, a per-user and a per-GPU throughput, a TTFT and a speedup over the first run
(whose own "1.00x" is a baseline cell, no claim). Each layout is generated here: prose,
a pipe table under each header-unit spelling, a transposed pipe table, an HTML table
with units in its cells (through the real HTML ingest), a ruled and an unruled PDF table
(through the real PDF ingest; the PDF is written by ``pdfgen``) and a whitespace-aligned
text table.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from pdfgen import table_pdf
from pipeline.extract import extract_claims
from pipeline.extract.tables import find_tables
from pipeline.ingest import ingest_bytes
from pipeline.model import Document

TITLE = "Serving benchmark"
INTRO = "We ran two serving engines on one system with the same workload."

# (per-user header, per-GPU header, TTFT header, speedup header, per-cell unit suffixes)
SPELLINGS = {
    "parentheses": ("Throughput (tok/s/user)", "Throughput (tok/s/GPU)", "TTFT (ms)", "Speedup", ("", "", "", "x")),
    "brackets": ("Throughput [tok/s/user]", "Throughput [tok/s/GPU]", "TTFT [ms]", "Speedup [x]", ("", "", "", "")),
    "comma": ("Throughput, tok/s/user", "Throughput, tok/s/GPU", "TTFT, ms", "Speedup vs vLLM", ("", "", "", "")),
    "words": ("Tokens/sec per user", "Tokens/sec per GPU", "Time to first token (ms)", "TPS/User Speedup", ("", "", "", "")),
    "in cells": ("Per-user throughput", "Per-GPU throughput", "TTFT", "Speedup", (" tok/s", " tok/s", " ms", "x")),
}


@dataclass
class Facts:
    model: str
    hardware: str
    # per run: engine, concurrency, per-user tok/s, per-GPU tok/s, TTFT ms, speedup (all as written)
    runs: list[tuple[str, str, str, str, str, str]]

    def expected(self) -> list:
        out = []
        for i, (engine, conc, user, gpu, ttft, speed) in enumerate(self.runs):
            cond = (self.model, self.hardware, engine, float(conc))
            out += [(float(user), "token_throughput", "per_user", *cond),
                    (float(gpu.replace(",", "")), "token_throughput", "per_gpu", *cond),
                    (round(float(ttft) / 1000, 6), "latency", None, *cond)]
            if i:   # the first run is the baseline: its "1.00" is no claim
                out.append((float(speed), "ratio", None, *cond))
        return sorted(out, key=repr)


FIXED = Facts("Llama 3.1 70B", "8 x H100", [
    ("vLLM", "64", "45.2", "3,018", "120", "1.00"),
    ("SGLang", "64", "51.0", "3,390", "98", "1.12"),
])


def random_facts(seed: int) -> Facts:
    """Other facts of the same shape: models, systems, engines and figures drawn at random."""
    rnd = random.Random(seed)
    model = rnd.choice(["Llama 3.1 70B", "Llama 3.1 8B", "DeepSeek-R1", "Qwen2.5 72B", "Mixtral 8x7B"])
    hardware = rnd.choice(["8 x H100", "4 x B200", "2 x A100", "8 x MI300X", "1 x H200"])
    engines = rnd.sample(["vLLM", "SGLang", "TensorRT-LLM", "TGI", "LMDeploy"], 2)
    conc = str(rnd.choice([8, 16, 32, 64, 128, 256]))
    runs = []
    for i, engine in enumerate(engines):
        gpu = rnd.randint(1000, 60000)
        runs.append((engine, conc, f"{rnd.uniform(5, 400):.1f}", f"{gpu:,}", str(rnd.randint(20, 900)),
                     "1.00" if i == 0 else f"{rnd.uniform(1.05, 3.5):.2f}"))
    return Facts(model, hardware, runs)


def _key(c):
    return (round(c.value, 6), c.family, c.scope if c.family == "token_throughput" else None, c.model,
            c.hardware, c.engine, c.concurrency)


def _claims(doc: Document) -> list:
    claims = extract_claims(doc)
    for c in claims:
        assert doc.text[c.start:c.end] == c.surface
    return sorted((_key(c) for c in claims), key=repr)


def _cells(f: Facts, run, units):
    engine, conc, user, gpu, ttft, speed = run
    return [f.model, f.hardware, engine, conc, user + units[0], gpu + units[1], ttft + units[2], speed + units[3]]


def _heads(spelling):
    u, g, t, s, _ = SPELLINGS[spelling]
    return ["Model", "Hardware", "Engine", "Concurrency", u, g, t, s]


# ---------------------------------------------------------------------- renderers
def prose(f: Facts) -> str:
    out = [f"# {TITLE}\n\n{INTRO}\n"]
    for i, (engine, conc, user, gpu, ttft, speed) in enumerate(f.runs):
        tail = f", a {speed}x speedup" if i else ""
        out.append(f"With {engine} on {f.hardware}, {f.model} at a concurrency of {conc} reached {user} tokens/s "
                   f"per user and {gpu} tokens/s per GPU with a TTFT of {ttft} ms{tail}.\n")
    return "\n".join(out)


def pipe(f: Facts, spelling: str = "parentheses") -> str:
    heads = _heads(spelling)
    units = SPELLINGS[spelling][4]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    lines += ["| " + " | ".join(_cells(f, r, units)) + " |" for r in f.runs]
    return f"# {TITLE}\n\n{INTRO}\n\n" + "\n".join(lines) + "\n"


def pipe_two_header_rows(f: Facts) -> str:
    heads = ["Model", "Hardware", "Engine", "Concurrency", "Throughput", "Throughput", "TTFT", "Speedup"]
    second = ["", "", "", "", "tok/s/user", "tok/s/GPU", "ms", "x"]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads), "| " + " | ".join(second) + " |"]
    lines += ["| " + " | ".join(_cells(f, r, ("", "", "", ""))) + " |" for r in f.runs]
    return f"# {TITLE}\n\n{INTRO}\n\n" + "\n".join(lines) + "\n"


def transposed(f: Facts) -> str:
    heads = _heads("parentheses")
    cols = [_cells(f, r, ("", "", "", "x")) for r in f.runs]
    lines = ["| Metric | Run A | Run B |", "|---|---|---|"]
    for i, h in enumerate(heads):
        lines.append(f"| {h} | " + " | ".join(c[i] for c in cols) + " |")
    return f"# {TITLE}\n\n{INTRO}\n\n" + "\n".join(lines) + "\n"


def html(f: Facts) -> bytes:
    heads = _heads("in cells")
    units = SPELLINGS["in cells"][4]
    body = "".join("<tr>" + "".join(f"<td>{x}</td>" for x in _cells(f, r, units)) + "</tr>" for r in f.runs)
    return (f"<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1><p>{INTRO} "
            "Every figure below is the mean of three runs of the same benchmark script.</p>"
            f"<table><thead><tr>{''.join(f'<th>{h}</th>' for h in heads)}</tr></thead><tbody>{body}</tbody></table>"
            "<p>The numbers above come from our own lab; other setups will differ from them.</p>"
            "</article></body></html>").encode()


def pdf(f: Facts, ruled: bool) -> bytes:
    heads = _heads("parentheses")
    rows = [_cells(f, r, ("", "", "", "x")) for r in f.runs]
    return table_pdf(TITLE, INTRO, heads, rows, ruled=ruled)


def whitespace(f: Facts) -> str:
    heads = _heads("parentheses")
    rows = [_cells(f, r, ("", "", "", "x")) for r in f.runs]
    widths = [max(len(x) for x in col) for col in zip(heads, *rows)]
    fmt = lambda cells: "   ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return f"{TITLE}\n\n{INTRO}\n\n" + "\n".join(fmt(r) for r in [heads] + rows) + "\n"


def box(f: Facts, fenced: bool = False) -> str:
    """The table as a terminal tool draws it with box characters (rich's heavy head)."""
    heads = _heads("parentheses")
    rows = [_cells(f, r, ("", "", "", "x")) for r in f.runs]
    widths = [max(len(x) for x in col) + 2 for col in zip(heads, *rows)]
    line = lambda l, m, r, fill: l + m.join(fill * w for w in widths) + r  # noqa: E731
    cells = lambda wall, cs: wall + wall.join(c.rjust(w - 1) + " " for c, w in zip(cs, widths)) + wall  # noqa: E731
    out = [line("┏", "┳", "┓", "━"), cells("┃", heads), line("┡", "╇", "┩", "━")]
    out += [cells("│", r) for r in rows] + [line("└", "┴", "┘", "─")]
    table = "\n".join(out)
    if fenced:
        table = "```\n" + table + "\n```"
    return f"# {TITLE}\n\n{INTRO}\n\n{table}\n"


def grid(f: Facts, ruled_rows: bool) -> str:
    """The table as reStructuredText (and pandoc) draw a grid table: "+===+" under the
    header, and a border between body rows when ``ruled_rows``."""
    heads = _heads("parentheses")
    rows = [_cells(f, r, ("", "", "", "x")) for r in f.runs]
    widths = [max(len(x) for x in col) + 2 for col in zip(heads, *rows)]
    border = lambda fill: "+" + "+".join(fill * w for w in widths) + "+"  # noqa: E731
    cells = lambda cs: "|" + "|".join(" " + c.ljust(w - 1) for c, w in zip(cs, widths)) + "|"  # noqa: E731
    out = [border("-"), cells(heads), border("=")]
    for r in rows:
        out.append(cells(r))
        if ruled_rows:
            out.append(border("-"))
    if not ruled_rows:
        out.append(border("-"))
    return f"{TITLE}\n{'=' * len(TITLE)}\n\n{INTRO}\n\n" + "\n".join(out) + "\n"


def _doc(text: str) -> Document:
    return Document(id="t", path="t.md", format="markdown", text=text, title=TITLE)


LAYOUTS = {
    "prose": lambda f: _doc(prose(f)),
    "pipe two header rows": lambda f: _doc(pipe_two_header_rows(f)),
    "transposed": lambda f: _doc(transposed(f)),
    "html units in cells": lambda f: ingest_bytes(html(f), "bench.html"),
    "pdf ruled": lambda f: ingest_bytes(pdf(f, True), "bench.pdf"),
    "pdf unruled": lambda f: ingest_bytes(pdf(f, False), "bench.pdf"),
    "whitespace text": lambda f: ingest_bytes(whitespace(f).encode(), "bench.txt"),
    "box drawn": lambda f: _doc(box(f)),
    "box drawn in a code fence": lambda f: _doc(box(f, fenced=True)),
    "rst grid table": lambda f: ingest_bytes(grid(f, False).encode(), "bench.rst"),
    "rst grid table, ruled rows": lambda f: ingest_bytes(grid(f, True).encode(), "bench.rst"),
    **{f"pipe {s}": (lambda f, s=s: _doc(pipe(f, s))) for s in SPELLINGS},
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_layout_gives_the_same_claims(layout):
    assert _claims(LAYOUTS[layout](FIXED)) == FIXED.expected()


@pytest.mark.parametrize("seed", range(6))
def test_every_layout_gives_the_same_claims_for_random_facts(seed):
    f = random_facts(seed)
    want = f.expected()
    got = {layout: _claims(render(f)) for layout, render in LAYOUTS.items()}
    assert {layout: claims for layout, claims in got.items() if claims != want} == {}


def test_pdf_tables_are_read_at_ingest_with_pages():
    for ruled in (True, False):
        doc = ingest_bytes(pdf(FIXED, ruled), "bench.pdf")
        assert doc.tables and doc.tables[0].source == ("pdf-ruled" if ruled else "pdf")
        for row in doc.tables[0].rows:
            for cell in row.cells:
                assert doc.text[cell.start:cell.end] == cell.text and cell.page == 1


def test_html_table_cells_map_onto_the_stored_text():
    doc = ingest_bytes(html(FIXED), "bench.html")
    (table,) = doc.tables
    assert table.source == "html" and table.header[4] == "Per-user throughput"
    cells = [c for r in table.rows for c in r.cells]
    assert [c.text for c in cells][:5] == [FIXED.model, FIXED.hardware, "vLLM", "64", "45.2 tok/s"]
    assert all(doc.text[c.start:c.end] == c.text for c in cells)


# ---------------------------------------------------------------------- focused readers
def test_pipe_reader_second_header_row_and_caption_row():
    text = ("| Table 1: serving results |  |  |\n|---|---|---|\n| Engine | Throughput |  |\n|---|---|---|\n"
            "|  | per user | per GPU |\n| vLLM | 45.2 tok/s | 3,018 tok/s |\n")
    (t,) = find_tables(text)
    assert t.caption == "Table 1: serving results"
    assert t.header == ["Engine", "Throughput per user", "Throughput per GPU"]
    assert [c.text for c in t.rows[0].cells] == ["vLLM", "45.2 tok/s", "3,018 tok/s"]


def test_whitespace_reader_needs_aligned_columns_and_a_header():
    prose_lines = "Some prose.  Two spaces after a period.\nMore prose here.  Again.\nA last line of it.\n"
    assert find_tables(prose_lines) == []
    table = "Engine    Throughput (tok/s)\nvLLM                  3,018\nSGLang                3,390\n"
    (t,) = find_tables(table)
    assert t.header == ["Engine", "Throughput (tok/s)"]
    assert [[c.text for c in r.cells] for r in t.rows] == [["vLLM", "3,018"], ["SGLang", "3,390"]]


def test_settings_are_conditions_not_claims():
    text = ("| Model | Batch Size | TP | ISL/OSL | Throughput (out tok/s/GPU) |\n|---|---|---|---|---|\n"
            "| Llama 3.1 70B | 64 | 4 | 1024/128 | 1,234 |\n")
    (c,) = extract_claims(_doc(text))
    assert (c.value, c.scope, c.batch_size, c.parallelism, c.isl, c.osl, c.token_kind) == \
        (1234, "per_gpu", 64, "TP4", 1024, 128, "output")


def test_speedup_column_is_a_ratio_even_beside_tps_user():
    text = ("| Version | TPS/User | TPS/User Speedup |\n|---|---|---|\n| base | 111 | 1.00 |\n"
            "| MTP 1 | 198 | 1.78 |\n| MTP 2 | N/A | OOM |\n| MTP 3 | -- | -- |\n")
    got = [(c.value, c.family, c.scope) for c in extract_claims(_doc(text))]
    assert got == [(111, "token_throughput", "per_user"), (198, "token_throughput", "per_user"),
                   (1.78, "ratio", None)]


def test_quality_columns_are_not_claims():
    text = "| Benchmark | Accuracy (%) | Latency (ms) |\n|---|---|---|\n| MMLU | 84.0% | 12 |\n"
    got = [(c.value, c.family) for c in extract_claims(_doc(text))]
    assert got == [(0.012, "latency")]


def test_per_gpu_cell_carries_the_per_user_operating_point_of_its_row():
    from pipeline.link.operating_point import assign_op_points

    claims = [c for c in extract_claims(_doc(pipe(FIXED))) if c.family == "token_throughput"]
    per_gpu = [c for c in claims if c.scope == "per_gpu"]
    per_user = {c.sentence_start: c.value for c in claims if c.scope == "per_user"}
    assert [per_user[c.sentence_start] for c in per_gpu] == [45.2, 51.0]

    class P:
        op_point = None
    prepared = [P() for _ in claims]
    assign_op_points(claims, prepared)
    assert [p.op_point for c, p in zip(claims, prepared) if c.scope == "per_gpu"] == [45.2, 51.0]


def test_setting_columns_fill_their_fields():
    text = ("| GPUs | Accelerator | Precision | QPS | EP | Input/Output | Output throughput (tok/s) |\n"
            "|---|---|---|---|---|---|---|\n| 8 | H200 | FP8 | 16 | 8 | 1k/1k | 9,000 |\n")
    (c,) = extract_claims(_doc(text))
    assert (c.value, c.hardware, c.hw_count, c.dtype, c.offered_load, c.parallelism, c.isl, c.osl) == \
        (9000, "8 x H200", 8, "FP8", 16, "EP8", 1000, 1000)


def test_html_source_table_in_markdown():
    text = ("Results on one GPU.\n\n<table>\n<tr><th>Engine</th><th>Throughput (tok/s)</th></tr>\n"
            "<tr><td>vLLM</td><td><b>3,018</b></td></tr>\n<tr><td>SGLang</td><td>3,390</td></tr>\n</table>\n")
    (t,) = find_tables(text)
    assert t.source == "html-source" and t.header == ["Engine", "Throughput (tok/s)"]
    got = [(c.surface, c.value, c.engine, c.in_table) for c in extract_claims(_doc(text))]
    assert got == [("3,018", 3018, "vLLM", True), ("3,390", 3390, "SGLang", True)]


def test_transposed_benchmark_table_holds_quality_scores_and_sizes():
    text = ("| Benchmark (Metric) | Model A | Model B |\n|---|---|---|\n| # Total Params | 236B | 72B |\n"
            "| MMLU (EM) | 78.4 | 85.0 |\n| Pass rate | 41.0% | 48.2% |\n| Context length | 128K | 32K |\n")
    got = [(c.surface, c.family) for c in extract_claims(_doc(text))]
    assert got == [("236B", "parameters"), ("72B", "parameters"), ("128K", "tokens"), ("32K", "tokens")]


def test_two_prose_columns_of_a_pdf_page_are_no_table():
    from pdfgen import pdf_bytes

    left = ["The serving system reached high", "throughput on 8 GPUs in 2024 with", "a batch of 64 and a window of 12",
            "requests, which we report here", "for 3 of the 5 runs we made."]
    right = ["Latency stayed low across 4 runs", "of 10 minutes each, with 2 spare", "nodes and 16 clients sending",
             "requests at a steady 7 per second", "until the 9th minute ended."]
    texts = [(60, 100 + 12 * i, s) for i, s in enumerate(left)] + [(320, 100 + 12 * i, s) for i, s in enumerate(right)]
    doc = ingest_bytes(pdf_bytes(texts), "prose.pdf")
    assert doc.tables == []


def test_pdf_page_falls_back_to_its_text_when_the_layout_fails(monkeypatch):
    from pipeline.ingest import tables_pdf

    def broken(*args, **kwargs):
        raise ValueError("no layout")

    monkeypatch.setattr(tables_pdf, "page_tables", broken)
    doc = ingest_bytes(pdf(FIXED, False), "bench.pdf")      # single-spaced text: nothing aligned
    assert doc.tables == [] and _claims(doc)       # the text's figures are still read
    spaced = tables_pdf.text_fallback(whitespace(FIXED), 1)
    assert len(spaced) == 1 and spaced[0].source == "pdf-text" and spaced[0].rows[0].cells[0].page == 1


# ---------------------------------------------------------------------- fuzz: spans stay exact
_PARTS = ["|", " | ", "---", "|---|---|", "\n", "\n\n", "  ", "   ", "\t", "64", "3,018", "1.5x", "12 ms",
          "Throughput (tok/s)", "Model", "TTFT", "<table>", "</table>", "<tr>", "<td>", "</td>", "<th>",
          "colspan=\"2\"", "Llama 3.1 70B", "vLLM", "8 x H100", "N/A", "--", "**", "#", "# Title", "x"]


def test_readers_keep_every_cell_span_exact_on_any_text():
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(_PARTS), max_size=60))
    def check(parts):
        text = "".join(parts)
        for t in find_tables(text):
            assert 0 <= t.start <= t.end <= len(text)
            for r in t.header_rows + t.rows:
                for c in r.cells:
                    assert text[c.start:c.end] == c.text
        for c in extract_claims(_doc(text)):
            assert text[c.start:c.end] == c.surface

    check()


def test_blank_setting_and_identifier_cells_repeat_the_row_above():
    text = ("| Model | GPUs | Input Length | Output Length | Throughput (out tok/s/GPU) |\n|---|---|---|---|---|\n"
            "| Llama 3.1 70B | 1 | 128 | 128 | 3,803 |\n|  | 8 |  |  | 3,700 |\n|  | 1 |  | 2048 | 2,941 |\n"
            "|  |  |  |  |  |\n| Mixtral 8x7B | 2 | 128 | 128 | 5,100 |\n")
    got = [(c.value, c.model, c.hw_count, c.isl, c.osl) for c in extract_claims(_doc(text)) if c.in_table]
    assert got == [(3803, "Llama 3.1 70B", 1, 128, 128), (3700, "Llama 3.1 70B", 8, 128, 128),
                   (2941, "Llama 3.1 70B", 1, 128, 2048), (5100, "Mixtral 8x7B", 2, 128, 128)]


def test_html_cells_with_markup_and_row_headers_map_onto_the_converted_text():
    page = ("<html><head><title>Results</title></head><body><main><h2>Throughput on H100</h2>"
            "<p>This page lists the throughput of two engines for the Llama 3.1 8B model on one H100 in our lab "
            "setting, measured with the same script for both.</p><table>"
            "<tr><td><b>Engine</b></td><td><b>Output throughput</b> (tok/s)</td><td>TTFT&nbsp;(ms)</td></tr>"
            "<tr><th scope='row'><a href='https://example.org'>vLLM</a></th><td><strong>2,510</strong></td>"
            "<td>35.1</td></tr><tr><th scope='row'>SGLang</th><td>2,730</td><td>31.9</td></tr></table>"
            "<p>We will update this table after the next release of both engines, with more models.</p>"
            "</main></body></html>").encode()
    doc = ingest_bytes(page, "results.html")
    (t,) = doc.tables
    assert t.header == ["Engine", "Output throughput (tok/s)", "TTFT (ms)"]
    got = [(c.surface, c.value, c.family, c.engine, c.model) for c in extract_claims(doc)]
    assert got == [("2,510", 2510, "token_throughput", "vLLM", "Llama 3.1 8B"),
                   ("35.1", 0.0351, "latency", "vLLM", "Llama 3.1 8B"),
                   ("2,730", 2730, "token_throughput", "SGLang", "Llama 3.1 8B"),
                   ("31.9", 0.0319, "latency", "SGLang", "Llama 3.1 8B")]


def test_a_unit_line_below_the_table_gives_its_cells_their_unit():
    text = ("Time to first token by engine.\n\n| Engine | TTFT | Concurrency |\n|---|---|---|\n"
            "| vLLM | 120 | 64 |\n| SGLang | 98 | 64 |\n\nUnit: ms\n")
    got = [(c.surface, c.value, c.family, c.phase, c.engine) for c in extract_claims(_doc(text))]
    assert got == [("120", 0.12, "latency", "ttft", "vLLM"), ("98", 0.098, "latency", "ttft", "SGLang")]
    spaced = text.replace("| Engine | TTFT | Concurrency |\n|---|---|---|\n| vLLM | 120 | 64 |\n| SGLang | 98 | 64 |",
                          "Engine    TTFT    Concurrency\nvLLM       120             64\nSGLang      98             64")
    assert [(c.value, c.engine) for c in extract_claims(_doc(spaced))] == [(0.12, "vLLM"), (0.098, "SGLang")]


def test_key_value_result_block_reads_as_a_table_with_its_paragraph_subject():
    text = ("# Serving run\n\nWe served Llama 3.1 8B with vLLM on one H100 for this run.\n\n"
            "==== Result ====\nSuccessful requests:          500\nRequest throughput (req/s):   8.16\n"
            "Output token throughput (tok/s):   1044.03\nMean TTFT (ms):               41.77\n"
            "P99 TTFT (ms):                88.50\n")
    got = [(c.value, c.family, c.statistic, c.phase, c.model, c.hardware, c.engine, c.in_table)
           for c in extract_claims(_doc(text))]
    subject = ("Llama 3.1 8B", "1 x H100", "vLLM", True)
    assert got == [(8.16, "request_throughput", None, None, *subject),
                   (1044.03, "token_throughput", None, None, *subject),
                   (0.04177, "latency", "mean", "ttft", *subject),
                   (0.0885, "latency", "p99", "ttft", *subject)]


def test_a_table_without_outer_pipes_reads_as_one_with_them():
    from pipeline.extract import extract_claims
    from pipeline.model import Document
    body = ("MODEL | llama.cpp TTFT (ms) | SGLang TTFT (ms) | Speedup\n"
            "-- | -- | -- | --\n"
            "Qwen3-8B | 1659.94 | 268.2 | 6.2x\n")
    piped = "\n".join(f"| {line} |" for line in body.splitlines()) + "\n"

    def facts(text):
        return sorted((round(c.value, 6), c.family, c.engine, c.model) for c in
                      extract_claims(Document(id="t", path="t.md", format="markdown", text=text)))
    assert facts(body) == facts(piped)
    assert (1.65994, "latency", "llama.cpp", "Qwen3-8B") in facts(body)


def test_transposed_table_whose_configurations_name_a_quantity():
    from pipeline.extract import extract_claims
    from pipeline.model import Document
    text = ("| Metric | Low Latency GEMM OFF | Low Latency GEMM ON |\n|---|---|---|\n"
            "| Token Throughput (tokens/sec) | 5976.7977 | 6049.1625 |\n"
            "| Average Time To First Token (ms) | 81.8841 | 88.0162 |\n")
    found = extract_claims(Document(id="t", path="t.md", format="markdown", text=text))
    assert sorted((round(c.value, 6), c.family) for c in found) == [
        (0.081884, "latency"), (0.088016, "latency"), (5976.7977, "token_throughput"), (6049.1625, "token_throughput")]


def test_a_change_cells_sign_is_its_direction():
    """'-7.3%' in a Change column fell, '+12%' rose; a range '1-7.3%' has no sign."""
    text = ("| Metric | Baseline | New | Change |\n|---|---|---|---|\n"
            "| Input throughput | 2368.8 tok/s | 2195.8 tok/s | -7.3% |\n"
            "| Output throughput | 100 tok/s | 112 tok/s | +12% |\n"
            "| Spread | 1 | 2 | 1-7.3% |\n")
    got = {(c.surface, c.direction) for c in extract_claims(_doc(text)) if c.family == "percent"}
    assert got == {("7.3%", "down"), ("12%", "up"), ("1-7.3%", None)}
