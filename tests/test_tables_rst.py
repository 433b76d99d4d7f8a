"""reStructuredText tables (grid and simple) through the one table model, and the column
semantics every layout shares: a header's unit stated in the prose above the table, two
figures in one cell ("with / without" a technique), setting and GPU-count columns.

Every table and sentence here is written for the test. The same facts are rendered as a
Markdown pipe table, an RST grid table and an RST simple table (through the real ingest of
a ``.rst`` file), and all three must give the same claims (metamorphic); focused tests
cover each reader and rule (docs/tables.md).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from pipeline.extract import extract_claims
from pipeline.extract.tables import find_tables
from pipeline.ingest import ingest_bytes
from pipeline.model import Document

TITLE = "Decoding benchmark"
# the units are written only here, never in the headers
INTRO = ("This page lists the decoding speed (tokens/s) and the peak memory (GB) of each checkpoint, "
         "with and without FlashAttention-2.")
SETUP = "The machine used:\n\n- GPU: NVIDIA H100 80GB\n- Driver: 550"
HEADS = ["Checkpoint", "Num. GPUs", "Prompt length", "Speed (w/wo FA2)", "Memory"]


@dataclass
class Facts:
    # per row: model, GPU count, prompt length, speed with, speed without, memory ("-": none)
    rows: list[tuple[str, int, int, str, str, str]]

    def cells(self) -> list[list[str]]:
        return [[m, str(n), str(isl), f"{w} / {wo}", mem] for m, n, isl, w, wo, mem in self.rows]

    def expected(self) -> list[tuple]:
        out = []
        for m, n, isl, w, wo, mem in self.rows:
            hw = f"{n} x H100"
            out += [(float(w), "token_throughput", "tokens/s", m, hw, "FlashAttention", float(isl)),
                    (float(wo), "token_throughput", "tokens/s", m, hw, "without FlashAttention", float(isl))]
            if mem != "-":
                out.append((round(float(mem) * 1e9), "memory", "bytes", m, hw, None, float(isl)))
        return sorted(out, key=repr)


FIXED = Facts([
    ("Llama-3.1-8B-Instruct", 1, 512, "41.27", "44.90", "17.35"),
    ("Llama-3.1-8B-Instruct", 1, 8192, "33.08", "25.61", "24.12"),
    ("Llama-3.1-70B-Instruct", 2, 512, "9.83", "10.41", "141.66"),
    ("Llama-3.1-70B-Instruct", 4, 8192, "4.72", "3.95", "-"),
])

MODELS = ["Llama-3.1-8B-Instruct", "Mistral-7B-Instruct-v0.3", "Qwen2.5-14B-Instruct", "Llama-3.1-70B-Instruct"]


def random_facts(seed: int) -> Facts:
    rnd = random.Random(seed)
    rows = []
    for _ in range(rnd.randint(2, 6)):
        mem = "-" if rnd.random() < 0.2 else f"{rnd.uniform(1, 300):.2f}"
        rows.append((rnd.choice(MODELS), rnd.randint(1, 8), rnd.choice([1, 256, 2048, 16384]),
                     f"{rnd.uniform(2, 90):.2f}", f"{rnd.uniform(2, 90):.2f}", mem))
    return Facts(rows)


# ---------------------------------------------------------------------- renderers
def _widths(rows, pad=0):
    return [max(len(x) for x in col) + pad for col in zip(*rows)]


def pipe(heads, rows) -> str:
    return "\n".join(["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
                     + ["| " + " | ".join(r) + " |" for r in rows])


def grid(heads, rows) -> str:
    w = _widths([heads] + rows, 2)
    border = lambda fill: "+" + "+".join(fill * n for n in w) + "+"  # noqa: E731
    line = lambda cs: "|" + "|".join(" " + c.center(n - 2) + " " for c, n in zip(cs, w)) + "|"  # noqa: E731
    out = [border("-"), line(heads), border("=")]
    for r in rows:
        out += [line(r), border("-")]
    return "\n".join(out)


def simple(heads, rows, gap: str = " ") -> str:
    w = _widths([heads] + rows)
    rule = gap.join("=" * n for n in w)
    line = lambda cs: gap.join(c.ljust(n) for c, n in zip(cs, w)).rstrip()  # noqa: E731
    return "\n".join([rule, line(heads), rule] + [line(r) for r in rows] + [rule])


def rst_page(table: str) -> str:
    return (f"{TITLE}\n{'=' * len(TITLE)}\n\n{INTRO}\n\n{SETUP}\n\n-  Results:\n\n{table}\n\n"
            "Other machines give other figures.\n")


LAYOUTS = {
    "pipe": lambda f: Document(id="t", path="t.md", format="markdown", title=TITLE,
                               text=f"# {TITLE}\n\n{INTRO}\n\n{SETUP}\n\n-  Results:\n\n{pipe(HEADS, f.cells())}\n"),
    "rst grid": lambda f: ingest_bytes(rst_page(grid(HEADS, f.cells())).encode(), "bench.rst"),
    "rst simple": lambda f: ingest_bytes(rst_page(simple(HEADS, f.cells())).encode(), "bench.rst"),
    "rst simple, wide gaps": lambda f: ingest_bytes(rst_page(simple(HEADS, f.cells(), "   ")).encode(), "bench.rst"),
}


def _claims(doc: Document) -> list[tuple]:
    out = []
    for c in extract_claims(doc):
        assert doc.text[c.start:c.end] == c.surface
        if c.in_table:
            out.append((round(c.value) if c.family == "memory" else c.value, c.family, c.unit, c.model,
                        c.hardware, c.technique, c.isl))
    return sorted(out, key=repr)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_layout_gives_the_same_claims(layout):
    assert _claims(LAYOUTS[layout](FIXED)) == FIXED.expected()


@pytest.mark.parametrize("seed", range(5))
def test_every_layout_gives_the_same_claims_for_random_facts(seed):
    f = random_facts(seed)
    got = {name: _claims(render(f)) for name, render in LAYOUTS.items()}
    assert {name: claims for name, claims in got.items() if claims != f.expected()} == {}


FIELDS = ("value", "family", "unit", "scope", "statistic", "model", "hardware", "hw_count", "accelerator", "engine",
          "dtype", "technique", "parallelism", "isl", "osl", "batch_size", "concurrency", "offered_load", "workload")


@pytest.mark.parametrize("seed", [None, 7, 8])
def test_every_field_agrees_across_layouts(seed):
    """Not only the expected fields: scope and every condition agree in every layout."""
    f = FIXED if seed is None else random_facts(seed)
    got = {name: sorted((tuple(getattr(c, k) for k in FIELDS) for c in extract_claims(render(f)) if c.in_table), key=repr)
           for name, render in LAYOUTS.items()}
    assert len(got["pipe"]) == len(f.expected())
    assert {name: claims for name, claims in got.items() if claims != got["pipe"]} == {}


# ---------------------------------------------------------------------- readers
GRID = """Intro line.

+------------+-----------------------+
|            | Throughput            |
|            +-----------+-----------+
| Engine     | per user  | per GPU   |
|            | (tok/s)   | (tok/s)   |
+============+===========+===========+
| vLLM 0.6   | 45.2      | 3,018     |
+------------+-----------+-----------+
| SGLang,    | 51.0      | 3,390     |
| nightly    |           |           |
+------------+-----------+-----------+
"""


def test_grid_reader_joins_wrapped_header_lines_spanning_cells_and_wrapped_rows():
    (t,) = find_tables(GRID)
    assert t.source == "grid"
    assert t.header == ["Engine", "Throughput per user (tok/s)", "Throughput per GPU (tok/s)"]
    assert [[c.text for c in r.cells] for r in t.rows] == [["vLLM 0.6", "45.2", "3,018"],
                                                            ["SGLang,", "51.0", "3,390", "nightly"]]
    for r in t.rows + t.header_rows:
        assert all(GRID[c.start:c.end] == c.text for c in r.cells)
    assert [c.col for c in t.rows[1].cells] == [0, 1, 2, 0]


def test_grid_rows_without_borders_between_them_are_rows():
    text = ("+--------+-----------+\n| Name   | TTFT (ms) |\n+========+===========+\n| vLLM   | 120       |\n"
            "| SGLang | 98        |\n+--------+-----------+\n")
    (t,) = find_tables(text)
    assert [[c.text for c in r.cells] for r in t.rows] == [["vLLM", "120"], ["SGLang", "98"]]


def test_a_rule_with_walls_at_its_ends_closes_the_header():
    """tabulate's "psql" layout: "|-----+-----|" under the header, no rules between rows."""
    text = ("+----------+-------------+\n| Engine   |   TTFT (ms) |\n|----------+-------------|\n"
            "| vLLM     |         120 |\n| SGLang   |          98 |\n+----------+-------------+\n")
    (t,) = find_tables(text)
    assert t.header == ["Engine", "TTFT (ms)"]
    got = sorted((c.value, c.engine) for c in extract_claims(Document(id="p", path="p.txt", format="text", text=text)))
    assert got == [(0.098, "SGLang"), (0.12, "vLLM")]


SIMPLE = """Some prose before the table.

========  =========  =========  ======
Engine    Latency               Notes
          --------------------
          TTFT (ms)  TPOT (ms)
========  =========  =========  ======
vLLM      120        15         warm
          130        16         cold
SGLang    98         -

TGI       140        19
========  =========  =========  ======

After.
"""


def test_simple_reader_columns_come_from_the_rules():
    tables = [t for t in find_tables(SIMPLE) if t.source == "rst-simple"]
    assert len(tables) == 1
    t = tables[0]
    assert t.header == ["Engine", "Latency TTFT (ms)", "Latency TPOT (ms)", "Notes"]
    rows = [[(c.col, c.text) for c in r.cells] for r in t.rows]
    # a line whose first column is blank goes on with the row above
    assert rows == [[(0, "vLLM"), (1, "120"), (2, "15"), (3, "warm"), (1, "130"), (2, "16"), (3, "cold")],
                    [(0, "SGLang"), (1, "98"), (2, "-")], [(0, "TGI"), (1, "140"), (2, "19")]]
    for r in t.rows + t.header_rows:
        assert all(SIMPLE[c.start:c.end] == c.text for c in r.cells)


def test_simple_reader_keeps_single_spaces_inside_a_column():
    text = "=========== ======== ==============\nModel       Num. GPU Throughput (tok/s)\n" \
           "=========== ======== ==============\nLlama-3-8B  1        1,234.5\nLlama-3-70B 4        456.7\n" \
           "=========== ======== ==============\n"
    (t,) = find_tables(text)
    assert t.header == ["Model", "Num. GPU", "Throughput (tok/s)"]
    got = [(c.value, c.model, c.hw_count) for c in extract_claims(Document(id="s", path="s.rst", format="text", text=text))]
    assert got == [(1234.5, "Llama-3-8B", 1), (456.7, "Llama-3-70B", 4)]


def test_a_rule_of_one_column_and_prose_with_equals_signs_are_no_tables():
    assert find_tables("Title\n=====\n\nText.\n") == []
    assert find_tables("a == b  and  c == d\n\n==  ==\nx   y\n") == []


# ---------------------------------------------------------------------- column semantics
def _doc(text: str) -> Document:
    return Document(id="d", path="d.md", format="markdown", text=text, title="Notes")


def test_a_unit_in_the_prose_above_is_the_unit_of_the_header_it_names():
    table = "| Model | Speed | Memory | Layers |\n|---|---|---|---|\n| Llama-3-8B | 41.5 | 17.2 | 32 |\n"
    bare = [(c.family, c.value) for c in extract_claims(_doc(f"# Runs\n\n{table}"))]
    # "Memory" names no unit: no figure; "Layers" is a count
    assert ("memory", 17.2e9) not in bare
    said = "We report the decode speed (tokens/s) and the peak memory (GB) of one run.\n\n"
    got = {c.family: (c.value, c.unit) for c in extract_claims(_doc(f"# Runs\n\n{said}{table}"))}
    assert got["memory"] == (17.2e9, "bytes") and got["token_throughput"] == (41.5, "tokens/s")
    assert "tokens" not in got


def test_a_unit_in_the_prose_must_fit_the_quantity_the_header_names():
    table = "| Model | Throughput |\n|---|---|\n| Llama-3-8B | 41.5 |\n"
    said = "The throughput (ms) column is mislabelled in the source.\n\n"
    got = [(c.family, c.unit) for c in extract_claims(_doc(f"# Runs\n\n{said}{table}")) if c.in_table]
    assert got == [("token_throughput", "tokens/s")]


def test_two_figures_a_cell_split_by_what_the_header_names():
    text = ("# Runs\n\n| Engine | TTFT / TPOT (ms) | Throughput (tok/s) |\n|---|---|---|\n"
            "| vLLM | 120 / 15 | 30 / 31 |\n| SGLang | 98 / 14 | 33 / 35 |\n")
    got = sorted((c.value, c.family, c.phase, c.engine) for c in extract_claims(_doc(text)) if c.in_table)
    # "30 / 31" under one quantity's unit: which is which the header does not say
    assert got == [(0.014, "latency", "tpot", "SGLang"), (0.015, "latency", "tpot", "vLLM"),
                   (0.098, "latency", "ttft", "SGLang"), (0.12, "latency", "ttft", "vLLM")]
    for c in extract_claims(_doc(text)):
        assert text[c.start:c.end] == c.surface


def test_with_and_without_a_technique_are_two_conditions():
    text = ("# Runs\n\n| Model | Throughput tok/s (w/ and w/o CUDA graphs) |\n|---|---|\n"
            "| Llama-3-8B | 1,210.5 / 980.2 |\n| Llama-3-70B | 300.1 / 250.7 |\n")
    got = sorted((c.value, c.technique, c.model) for c in extract_claims(_doc(text)) if c.in_table)
    assert got == [(250.7, "without CUDA graphs", "Llama-3-70B"), (300.1, "CUDA graphs", "Llama-3-70B"),
                   (980.2, "without CUDA graphs", "Llama-3-8B"), (1210.5, "CUDA graphs", "Llama-3-8B")]


def test_a_model_size_column_with_units_in_its_cells_holds_figures():
    text = "# Sizes\n\n| | Model size |\n|---|---|\n| Engine A (int8) | 120MB |\n| Engine B | 410MB |\n"
    got = sorted((c.value, c.family) for c in extract_claims(_doc(text)))
    assert got == [(120e6, "memory"), (410e6, "memory")]
    params = "# Sizes\n\n| Name | Model size |\n|---|---|\n| Llama | 7B |\n| Llama | 70B |\n"
    assert all(c.family == "parameters" for c in extract_claims(_doc(params)))


def test_html_source_rowspan_puts_the_next_rows_cells_in_their_columns():
    text = ("<table>\n<tr><th rowspan=\"2\">Model</th><th rowspan=\"2\">Params</th><th colspan=\"2\">TTFT (ms)</th></tr>\n"
            "<tr><th>x86</th><th>ARM</th></tr>\n"
            "<tr><td rowspan=\"2\">Tiny-LM</td><td rowspan=\"2\">1B-3B</td><td>12.5</td><td>20.1</td></tr>\n"
            "<tr><td>13.0</td><td>21.4</td></tr>\n</table>\n")
    (t,) = find_tables(text)
    assert t.header == ["Model", "Params", "TTFT (ms) x86", "TTFT (ms) ARM"]
    assert [[c.col for c in r.cells] for r in t.rows] == [[0, 1, 2, 3], [2, 3]]
    got = sorted((c.family, c.value, c.high) for c in extract_claims(_doc(text)))
    assert ("parameters", 1e9, 3e9) in got and ("latency", 0.0214, None) in got


def test_rst_title_skips_labels_overlines_and_fields():
    page = ".. _bench:\n\n:orphan:\n\n==================\n Decoding results\n==================\n\nBody text.\n"
    assert ingest_bytes(page.encode(), "r.rst").title == "Decoding results"
