#!/usr/bin/env python3
"""Check every label: quote is an exact substring of its document, fields are valid."""
import json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
FAM = {"token_throughput","request_throughput","latency","ratio","percent","money","parameters",
       "tokens","memory","bandwidth","compute","power"}
SCOPES = {"per_user","per_gpu","per_node","per_system","aggregate","unspecified"}
STATS = {"p50","p90","p95","p99","mean","median","peak"}
COMPS = {"=",">",">=","<","<=","~"}
bad = 0
cache = {}
for n, line in enumerate(open(os.path.join(HERE, "..", "labels.jsonl"), encoding="utf-8"), 1):
    r = json.loads(line)
    doc = r["doc"]
    if doc not in cache:
        cache[doc] = open(os.path.join(HERE, "..", "docs", doc), encoding="utf-8").read()
    errs = []
    if r["quote"] not in cache[doc]: errs.append("quote not in doc")
    if r["family"] not in FAM: errs.append("family")
    if "scope" in r and r["scope"] not in SCOPES: errs.append("scope")
    if "statistic" in r and r["statistic"] not in STATS: errs.append("statistic")
    if "comparator" in r and r["comparator"] not in COMPS: errs.append("comparator")
    if not isinstance(r["value"], (int, float)) or isinstance(r["value"], bool): errs.append("value")
    if errs:
        bad += 1
        print(f"line {n}: {errs}: {r}")
print(f"{n} lines checked, {bad} bad")
sys.exit(1 if bad else 0)
