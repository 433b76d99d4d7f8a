"""Writes ../labels.jsonl from the hand-written label lists and checks every quote."""
import json, os
from lib import text
import labels_a, labels_b, labels_c, labels_d, labels_e, labels_f
out = labels_a.out + labels_b.out + labels_c.out + labels_d.out + labels_e.out + labels_f.out
FAM = {"token_throughput", "request_throughput", "latency", "ratio", "percent", "money", "parameters",
       "tokens", "memory", "bandwidth", "compute", "power"}
for o in out:
    assert o["quote"] in text(o["doc"]), o
    assert o["family"] in FAM, o
    assert o.get("scope") in (None, "per_user", "per_gpu", "per_node", "per_system", "aggregate", "unspecified"), o
    assert set(o) <= {"doc", "quote", "value", "high", "family", "scope", "statistic", "comparator", "model",
                      "hardware", "neutral", "hard"}, o
    v = o["value"]
    o["value"] = int(v) if isinstance(v, float) and v.is_integer() and abs(v) >= 1e6 else v
with open(os.path.join(os.path.dirname(__file__), "..", "labels.jsonl"), "w", encoding="utf-8") as f:
    for o in out:
        f.write(json.dumps(o, ensure_ascii=False) + "\n")
print(len(out), "labels")
