"""Write ../labels.jsonl from the label scripts and print counts.

Checks done in lib.L for every label: the quote occurs exactly once in its document; the figure's
own span (the last number of the quote, or the given `fig`) is text[s:e]; where `mult` is given,
written number x mult == value (or == high for a range); family / scope / statistic / comparator /
direction are in the vocabularies; high > value; only known keys.
"""
import collections
import json
import os

import lib
import labels_tables  # noqa: F401
import labels_prose  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(HERE, '..', 'labels.jsonl')

# no two labels may point at the same figure span
spans = collections.Counter((d['doc'], d['_span']) for d in lib.LABELS)
dup = [k for k, n in spans.items() if n > 1]
assert not dup, dup

with open(out, 'w', encoding='utf-8') as f:
    for d in lib.LABELS:
        d = {k: v for k, v in d.items() if not k.startswith('_')}
        f.write(json.dumps(d, ensure_ascii=False) + '\n')

rows = collections.OrderedDict()
fams = sorted({d['family'] for d in lib.LABELS})
for d in sorted(lib.LABELS, key=lambda d: d['doc']):
    r = rows.setdefault(d['doc'], collections.Counter())
    r['lines'] += 1
    r['neutral' if d.get('neutral') else 'required'] += 1
    r[d['family']] += 1
    if not d.get('neutral'):
        r[d['family'] + '_req'] += 1
tot = collections.Counter()
for r in rows.values():
    tot.update(r)
rows['total'] = tot
print('| doc | lines | required | neutral | ' + ' | '.join(fams) + ' |')
print('|---' * (4 + len(fams)) + '|')
for doc, r in rows.items():
    cells = ['%d (%d)' % (r[f], r[f + '_req']) if r[f] else '' for f in fams]
    print('| %s | %d | %d | %d | %s |' % (doc, r['lines'], r['required'], r['neutral'], ' | '.join(cells)))

req = [d for d in lib.LABELS if not d.get('neutral')]
print()
print('required lines with each optional key:')
for k in lib.ORDER[4:-1]:
    c = collections.Counter(str(d[k]) for d in req if k in d)
    if c:
        print('  %-12s %4d  %s' % (k, sum(c.values()), dict(c.most_common(6)) if k in (
            'scope', 'statistic', 'comparator', 'direction', 'dtype', 'engine') else ''))
