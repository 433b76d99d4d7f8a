"""Decodes raw/<name>.jsonstr (the JSON-escaped 'text' field as returned by read_file) into docs/<name>.

Arguments: name=total_chars[=crlf]. With =crlf every "\\n" is written as "\\r\\n": the index stores
that document with CRLF line endings (its total_chars counts the CRs) while read_file's text shows
bare newlines; the character count then matches total_chars."""
import json, sys, os
here = os.path.join(os.path.dirname(__file__), "..")
for arg in sys.argv[1:]:
    parts = arg.split("=")
    name, total = parts[0], parts[1]
    crlf = len(parts) > 2 and parts[2] == "crlf"
    s = open(os.path.join(here, "tools", "raw", name + ".jsonstr"), encoding="utf-8").read()
    if s.endswith("\n"):
        s = s[:-1]
    t = json.loads('"' + s + '"')
    if crlf:
        t = t.replace("\r\n", "\n").replace("\n", "\r\n")
    open(os.path.join(here, "docs", name), "w", encoding="utf-8", newline="").write(t)
    print(name, len(t), "expected", total, "OK" if len(t) == int(total) else "MISMATCH")
