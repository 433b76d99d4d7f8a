"""Writes ../labels.jsonl from the hand-written label lists and checks every quote."""
import json, os
from lib import text
import labels_a, labels_b, labels_c, labels_d, labels_e, labels_f, labels_g
out = (labels_a.out + labels_b.out + labels_c.out + labels_d.out + labels_e.out + labels_f.out
       + labels_g.out)
FAM = {"token_throughput", "request_throughput", "latency", "ratio", "percent", "money", "parameters",
       "tokens", "memory", "bandwidth", "compute", "power"}
STATS = {"p50", "p75", "p90", "p95", "p97", "p99", "p99.9", "mean", "median", "peak"}
for o in out:
    assert o["quote"] in text(o["doc"]), o
    assert isinstance(o["value"], (int, float)) and not isinstance(o["value"], bool), o
    assert o.get("statistic") in (None,) + tuple(STATS), o
    assert o.get("comparator") in (None, "=", ">", ">=", "<", "<=", "~"), o
    assert "high" not in o or o["high"] > o["value"], o
    assert o["family"] in FAM, o
    assert o.get("scope") in (None, "per_user", "per_gpu", "per_node", "per_system", "aggregate", "unspecified"), o
    assert set(o) <= {"doc", "quote", "value", "high", "family", "scope", "statistic", "comparator", "model",
                      "hardware", "neutral", "hard"}, o
    for k in ("value", "high"):
        if isinstance(o.get(k), float):
            o[k] = float(f"{o[k]:.12g}")      # drop float noise from unit conversion (16.49e9 -> 16490000000)
    v = o["value"]
    o["value"] = int(v) if isinstance(v, float) and v.is_integer() and abs(v) >= 1e6 else v
    if isinstance(o.get("high"), float) and o["high"].is_integer() and abs(o["high"]) >= 1e6:
        o["high"] = int(o["high"])
with open(os.path.join(os.path.dirname(__file__), "..", "labels.jsonl"), "w", encoding="utf-8") as f:
    for o in out:
        f.write(json.dumps(o, ensure_ascii=False) + "\n")
docs = set(os.listdir(os.path.join(os.path.dirname(__file__), "..", "docs")))
assert {o["doc"] for o in out} == docs, ({o["doc"] for o in out} ^ docs)
print(len(out), "labels", sum(1 for o in out if not o.get("neutral")), "required")
