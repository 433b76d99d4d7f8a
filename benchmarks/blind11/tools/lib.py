"""Helpers for the blind11 labels: L(...) builds one label and checks it against its document."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, '..', 'docs')
_TEXT = {}

FAMILIES = {'token_throughput', 'request_throughput', 'latency', 'ratio', 'percent', 'money',
            'parameters', 'tokens', 'memory', 'bandwidth', 'compute', 'power'}
SCOPES = {'per_user', 'per_gpu', 'per_node', 'per_system', 'aggregate', 'unspecified'}
STATS = {'p50', 'p90', 'p99', 'mean', 'median', 'peak'}
COMPS = {'=', '>', '>=', '<', '<=', '~'}
DIRS = {'higher', 'lower'}
ORDER = ['doc', 'quote', 'value', 'family', 'high', 'scope', 'statistic', 'comparator', 'model',
         'hardware', 'engine', 'batch_size', 'isl', 'osl', 'concurrency', 'dtype', 'baseline',
         'direction', 'neutral']
NUM = re.compile(r'\d[\d,]*(?:\.\d+)?')
LABELS = []


def text(doc):
    if doc not in _TEXT:
        with open(os.path.join(DOCS, doc), encoding='utf-8') as f:
            _TEXT[doc] = f.read()
    return _TEXT[doc]


def L(doc, quote, value, family, fig=None, mult=None, **kw):
    """One label. `fig` is the figure's surface inside the quote (default: the last number in the
    quote); `mult` the factor from the written number to the canonical value (checked)."""
    t = text(doc)
    n = t.count(quote)
    assert n == 1, (doc, quote, n)
    start = t.find(quote)
    if fig is None:
        nums = list(NUM.finditer(quote))
        assert nums, quote
        m = nums[-1]
        fs, fe = m.start(), m.end()
    else:
        fs = quote.rfind(fig)
        assert fs >= 0, (quote, fig)
        fe = fs + len(fig)
    surface = quote[fs:fe]
    assert t[start + fs:start + fe] == surface
    written = float(NUM.search(surface).group(0).replace(',', ''))
    target = kw.get('high', value)
    if mult is not None:
        assert abs(written * mult - target) <= 1e-9 * max(1, abs(target)), (quote, written, mult, target)
    assert family in FAMILIES, family
    if 'scope' in kw:
        assert kw['scope'] in SCOPES
    if 'statistic' in kw:
        assert kw['statistic'] in STATS
    if 'comparator' in kw:
        assert kw['comparator'] in COMPS
    if 'direction' in kw:
        assert kw['direction'] in DIRS
    if 'high' in kw:
        assert kw['high'] > value
    for k in kw:
        assert k in ORDER, k
    d = {'doc': doc, 'quote': quote, 'value': value, 'family': family}
    d.update(kw)
    d = {k: d[k] for k in ORDER if k in d and d[k] is not None}
    if d.get('neutral') is False:
        del d['neutral']
    d['_span'] = (start + fs, start + fe)
    LABELS.append(d)
    return d


def pipe_cells(line):
    """Cells of a Markdown pipe row: list of (stripped_text, end_offset_in_line_of_stripped_text)."""
    out = []
    pos = 0
    parts = line.split('|')
    for i, p in enumerate(parts):
        if 0 < i < len(parts) - 1:
            s = p.strip()
            lead = len(p) - len(p.lstrip())
            out.append((s, pos + lead + len(s)))
        pos += len(p) + 1
    return out


def rowq(doc, row_off, upto):
    """Quote for a table cell: from the start of its row (at absolute offset row_off) to `upto`
    characters into the row; if that is not unique in the document, start one line earlier, and so
    on, until it is."""
    t = text(doc)
    s = row_off
    q = t[s:row_off + upto]
    while t.count(q) != 1:
        s = t.rfind('\n', 0, s - 1) + 1
        q = t[s:row_off + upto]
    return q


def lines_with_offsets(doc):
    t = text(doc)
    off = 0
    for line in t.split('\n'):
        yield off, line
        off += len(line) + 1
