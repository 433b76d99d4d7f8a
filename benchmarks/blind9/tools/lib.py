"""Quote helpers for hand-made labels (only cuts quotes; every label decision is written by hand)."""
import json, os
DOCS = os.path.join(os.path.dirname(__file__), "..", "docs")
_cache = {}
def text(doc):
    if doc not in _cache:
        _cache[doc] = open(os.path.join(DOCS, doc), encoding="utf-8").read()
    return _cache[doc]

def cell(doc, key, fig, nth_fig=1, nth_line=1):
    """Quote from the start of the nth line containing `key` up to the end of the nth `fig` in it."""
    lines = [l for l in text(doc).split("\n") if key in l]
    line = lines[nth_line - 1]
    pos = -1
    start = line.find(key)
    for _ in range(nth_fig):
        pos = line.find(fig, pos + 1 if pos >= 0 else start)
        assert pos >= 0, (doc, key, fig)
    q = line[: pos + len(fig)]
    if text(doc).count(q) > 1:
        q = line
    return q

def L(doc, quote, value, family, **kw):
    assert quote in text(doc), (doc, quote)
    d = {"doc": doc, "quote": quote, "value": value, "family": family}
    d.update(kw)
    return d

def col(doc, key, n, nth_line=1, sep="|"):
    """Quote from the start of the nth line containing `key` up to the end of the text of cell n
    (cells counted as in line.split(sep): 1 = first cell after the leading separator)."""
    lines = [l for l in text(doc).split("\n") if key in l]
    line = lines[nth_line - 1]
    parts = line.split(sep)
    start = sum(len(p) + len(sep) for p in parts[:n])
    cellt = parts[n]
    assert cellt.strip(), (doc, key, n, line)
    end = start + len(cellt.rstrip())
    return line[:end]

def lastnum(q):
    import re
    return re.findall(r"[0-9][0-9,]*\.?[0-9]*", q)[-1]

# --- added for blind8 (quote cutting only; label decisions stay in labels_*.py) ---
GiB = 2 ** 30
MiB = 2 ** 20

def lines_starting(doc, prefix):
    """All lines of doc (in order) that start with prefix, and their line numbers."""
    return [(i, l) for i, l in enumerate(text(doc).split("\n")) if l.startswith(prefix)]

def upto(line, fig, nth=1):
    """The line cut after the nth occurrence of fig."""
    pos = -1
    for _ in range(nth):
        pos = line.find(fig, pos + 1)
        assert pos >= 0, (line, fig)
    return line[: pos + len(fig)]

def num(s):
    return float(s.replace(",", ""))
