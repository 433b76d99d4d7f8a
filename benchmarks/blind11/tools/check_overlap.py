"""Check SOURCES.tsv against the corpus manifest and earlier blind sets (repo + path)."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))
avoid = set()
for line in open(os.path.join(HERE, 'avoid_manifest.tsv'), encoding='utf-8'):
    p = line.rstrip('\n').split('\t')
    if len(p) >= 2:
        avoid.add((p[0], p[1]))
for line in open(os.path.join(HERE, 'avoid_blind.tsv'), encoding='utf-8'):
    p = line.rstrip('\n').split('\t')
    if len(p) >= 4:
        avoid.add((p[2], p[3]))
n = 0
for line in list(open(os.path.join(HERE, '..', 'SOURCES.tsv'), encoding='utf-8'))[1:]:
    p = line.rstrip('\n').split('\t')
    if (p[1], p[2]) in avoid:
        print('OVERLAP', p[1], p[2]); n += 1
    shared = sorted({a[1] for a in avoid if a[0] == p[1]})
    if shared:
        print('shared repository', p[1], '(other files: %d)' % len(shared))
print('%d overlaps' % n)
