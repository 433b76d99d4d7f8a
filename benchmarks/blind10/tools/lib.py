"""Small helpers for the hand-written label files (blind10).

A label is a dict in the layout of shared/gold/dev.jsonl:
  doc, quote, value, family, [high], [scope], [statistic], [comparator], [model], [hardware], [engine], [neutral]
`doc` is relative to docs/. The quote ends with the labelled figure (for table cells the quote runs from the
start of the row, or of the row's first cell, to the end of the cell's figure).
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "docs")

_cache = {}


def text(doc):
    if doc not in _cache:
        with open(os.path.join(DOCS, doc), encoding="utf-8", newline="") as f:
            _cache[doc] = f.read()
    return _cache[doc]


KEY_ORDER = ["doc", "quote", "value", "high", "family", "scope", "statistic", "comparator",
             "model", "hardware", "engine", "neutral"]


def L(doc, quote, value, family, **kw):
    assert quote in text(doc), (doc, quote)
    d = {"doc": doc, "quote": quote, "value": value, "family": family}
    for k, v in kw.items():
        if v is None:
            continue
        d[k] = v
    return {k: d[k] for k in KEY_ORDER if k in d}


NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


def num(s):
    return float(s.replace(",", ""))


def row_cells(line, sep):
    """Return list of (start, end) spans (within line) of the cells of a table row split by `sep`."""
    idx = [i for i, c in enumerate(line) if c == sep]
    return [(idx[i] + 1, idx[i + 1]) for i in range(len(idx) - 1)]


def figures_in(line, span):
    """Numbers inside line[span] as (start, end, surface) relative to line."""
    a, b = span
    out = []
    for m in NUM.finditer(line[a:b]):
        out.append((a + m.start(), a + m.end(), m.group(0)))
    return out


def ruler_spans(ruler):
    """Column spans of a reStructuredText simple-table ruler line such as '==== ===== ==='."""
    return [(m.start(), m.end()) for m in re.finditer(r"=+", ruler)]


def simple_cell(line, spans, col):
    """Span of column `col` of a simple-table row; the last column runs to the end of the line."""
    a = spans[col][0]
    b = spans[col + 1][0] if col + 1 < len(spans) else len(line)
    return (a, min(b, len(line)))
