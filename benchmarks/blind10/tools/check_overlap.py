"""Check the documents of SOURCES.tsv against the avoid lists by repository + path.

tools/avoid_manifest.tsv: columns 2-3 (repo, path_in_repo) of shared/corpus/real/MANIFEST.tsv.
tools/avoid_blind.tsv: '<SOURCES.tsv path>', then columns 1-3 (file, repo, path_in_repo) of every
/work/main/benchmarks/blind*/SOURCES.tsv and /work/wt/blind*/SOURCES.tsv (blind10 excluded: it did not exist).
Also reports repositories shared with earlier sets (same repo, other path).
"""
import csv
import os

H = os.path.dirname(os.path.abspath(__file__))


def rows(p):
    with open(p, encoding="utf-8") as f:
        return [r for r in csv.reader(f, delimiter="\t")]


mine = [(r[1], r[2], r[0]) for r in rows(os.path.join(H, "..", "SOURCES.tsv"))[1:]]
avoid = set()
for r in rows(os.path.join(H, "avoid_manifest.tsv"))[1:]:
    avoid.add((r[0], r[1]))
for r in rows(os.path.join(H, "avoid_blind.tsv")):
    if r[2] == "repo":
        continue
    avoid.add((r[2], r[3]))
avoid_repos = {a for a, _ in avoid}
n = 0
for repo, path, f in mine:
    if (repo, path) in avoid:
        print("OVERLAP", f, repo, path)
        n += 1
    elif repo in avoid_repos:
        print("shared repository (other path):", f, repo)
print(f"{n} overlaps")
