"""Decodes raw/<name>.jsonstr (the JSON-escaped 'text' field as returned by read_file) into docs/<name>."""
import json, sys, os
here = os.path.join(os.path.dirname(__file__), "..")
for name, total in [a.split("=") for a in sys.argv[1:]]:
    s = open(os.path.join(here, "tools", "raw", name + ".jsonstr"), encoding="utf-8").read()
    if s.endswith("\n"):
        s = s[:-1]
    t = json.loads('"' + s + '"')
    open(os.path.join(here, "docs", name), "w", encoding="utf-8", newline="").write(t)
    print(name, len(t), "expected", total, "OK" if len(t) == int(total) else "MISMATCH")
