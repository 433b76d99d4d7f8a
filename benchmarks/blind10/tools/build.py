"""Build ../labels.jsonl from the label files and check every line.

Checks:
- every quote occurs in its document; its span (start = text.find(quote), end = start + len(quote)) satisfies
  text[start:end] == quote, and the quote occurs exactly once (else it is reported);
- the labelled figure is the last number in the quote (only its unit may follow): that number, times a unit multiplier
  (1e-3 for ms, 1 / 1e3 / 1e6 / 1e9 / 1e12 for K, MB, G/GB/B, T), gives `high` if present, else `value`;
- family, scope, statistic, comparator and keys are from the allowed sets; high > value; every document in
  docs/ is listed (documents without labels are reported).
Prints a per-document / per-family summary.
"""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import text, DOCS, KEY_ORDER  # noqa: E402
import labels_qwen  # noqa: E402
import labels_genai  # noqa: E402
import labels_prose  # noqa: E402

FAMILIES = {"token_throughput", "request_throughput", "latency", "ratio", "percent", "money", "parameters",
            "tokens", "memory", "bandwidth", "compute", "power"}
SCOPES = {"per_user", "per_gpu", "per_node", "per_system", "aggregate", "unspecified"}
STATS = {"p50", "p90", "p99", "mean", "median", "peak"}
COMPS = {"=", ">", ">=", "<", "<=", "~"}
MULT = [1e-3, 1, 1e3, 1e6, 1e9, 1e12]
NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")


def norm(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e18:
        return int(v)
    return v


def main():
    labels = labels_qwen.labels() + labels_genai.labels() + labels_prose.labels()
    problems = []
    nonunique = 0
    n_offsets_checked = [0]
    for d in labels:
        d["value"] = norm(d["value"])
        if "high" in d:
            d["high"] = norm(d["high"])
        assert set(d) <= set(KEY_ORDER), d
        assert d["family"] in FAMILIES, d
        assert d.get("scope", "per_user") in SCOPES, d
        assert d.get("statistic", "mean") in STATS, d
        assert d.get("comparator", "=") in COMPS, d
        if "high" in d:
            assert d["high"] > d["value"], d
        t = text(d["doc"])
        q = d["quote"]
        start = t.find(q)
        end = start + len(q)
        if start < 0 or t[start:end] != q:
            problems.append(("quote not found", d))
            continue
        if t.count(q) != 1:
            nonunique += 1
            print("non-unique quote:", d["doc"], repr(q))
        ms = list(NUM.finditer(q))
        if not ms:
            problems.append(("no number in quote", d))
            continue
        m = ms[-1].group(0)
        s_start, s_end = start + ms[-1].start(), start + ms[-1].end()   # span of the figure in the document
        if t[s_start:s_end] != m:
            problems.append(("figure span mismatch", d))
        n_offsets_checked[0] += 1
        last = float(m.replace(",", ""))
        target = d.get("high", d["value"])
        if not any(abs(last * k - target) <= 1e-9 * max(1.0, abs(target)) for k in MULT):
            problems.append(("figure/value mismatch", m, d))
    for p in problems:
        print("PROBLEM", p)
    print(f"offsets checked: {n_offsets_checked[0]} (quote span and figure span, text[start:end] == surface)")
    assert not problems, len(problems)

    docs = sorted(os.listdir(DOCS))
    by_doc = collections.Counter(d["doc"] for d in labels)
    for doc in docs:
        if doc not in by_doc:
            print("document without labels:", doc)
    for doc in by_doc:
        assert doc in docs, doc

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "labels.jsonl")
    with open(out, "w", encoding="utf-8") as f:
        for d in labels:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")

    # summary
    req = sum(1 for d in labels if not d.get("neutral"))
    print(f"{len(labels)} lines: {req} required, {len(labels) - req} neutral; non-unique quotes: {nonunique}")
    fams = sorted({d["family"] for d in labels})
    print("| doc | lines | required | neutral | " + " | ".join(fams) + " |")
    print("|---" * (4 + len(fams)) + "|")
    rows = docs + ["total"]
    for doc in rows:
        sel = [d for d in labels if doc == "total" or d["doc"] == doc]
        r = sum(1 for d in sel if not d.get("neutral"))
        cells = []
        for fam in fams:
            fs = [d for d in sel if d["family"] == fam]
            fr = sum(1 for d in fs if not d.get("neutral"))
            cells.append(f"{len(fs)} ({fr})" if fs else "")
        print(f"| {doc} | {len(sel)} | {r} | {len(sel) - r} | " + " | ".join(cells) + " |")
    reqs = [d for d in labels if not d.get("neutral")]
    for k in ["statistic", "comparator", "scope", "model", "hardware", "engine", "high"]:
        c = collections.Counter(d[k] for d in reqs if k in d) if k in ("statistic", "comparator", "scope") else None
        n = sum(1 for d in reqs if k in d)
        print(f"required lines with {k}: {n}" + (f" {dict(c)}" if c else ""))


if __name__ == "__main__":
    main()
