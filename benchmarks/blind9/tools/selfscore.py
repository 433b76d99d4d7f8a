"""Converts ../labels.jsonl into predictions (doc_path, value, high, family, scope and the optional
fields) and scores them against ../labels.jsonl with benchmarks/blind/score.py (path as argument)."""
import json, os, subprocess, sys, tempfile
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
scorer = sys.argv[1] if len(sys.argv) > 1 else "benchmarks/blind/score.py"
fd, pred = tempfile.mkstemp(suffix=".jsonl")
with os.fdopen(fd, "w") as out:
    for line in open(os.path.join(here, "labels.jsonl"), encoding="utf-8"):
        d = json.loads(line)
        p = {"doc_path": "docs/" + d["doc"], "value": d["value"], "family": d["family"]}
        for k in ("high", "scope", "statistic", "comparator", "model", "hardware"):
            if k in d:
                p[k] = d[k]
        out.write(json.dumps(p) + "\n")
subprocess.run([sys.executable, scorer, os.path.join(here, "labels.jsonl"), pred,
                "--docs", os.path.join(here, "docs")] + sys.argv[2:], check=True)
os.remove(pred)
