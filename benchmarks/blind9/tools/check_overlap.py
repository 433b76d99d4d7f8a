"""Checks that no document of this set is in shared/corpus/real/MANIFEST.tsv or in any
benchmarks/blind*/SOURCES.tsv (by repo+path and by path alone). Reads only columns 2-3 of those files.
Usage: python3 check_overlap.py /path/to/main/benchmarks /path/to/shared/corpus/real/MANIFEST.tsv"""
import csv, glob, os, sys
bench, manifest = sys.argv[1], sys.argv[2]
ours = list(csv.reader(open(os.path.join(os.path.dirname(__file__), "..", "SOURCES.tsv")), delimiter="\t"))[1:]
seen = []
for f in [manifest] + sorted(glob.glob(os.path.join(bench, "blind*", "SOURCES.tsv"))):
    for row in list(csv.reader(open(f), delimiter="\t"))[1:]:
        seen.append((f, row[1], row[2]))
bad = 0
generic = set()
for r in ours:
    for f, repo, path in seen:
        if repo.split("/")[-1].lower() == r[1].split("/")[-1].lower() and path == r[2]:
            print("OVERLAP (repo name + path):", r[0], "<->", f, repo, path); bad += 1
        elif path == r[2] and os.path.basename(path) != "README.md":
            print("same path in another repo:", r[0], "<->", f, repo, path); bad += 1
        elif path == r[2]:
            generic.add(r[0])
print("README.md of other repositories only (not overlaps):", sorted(generic))
print(len(ours), "documents checked against", len(seen), "rows;", bad, "overlaps")
