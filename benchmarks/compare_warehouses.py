"""Are two warehouses the same record? The check a refactor must pass (issue 17).

    python benchmarks/compare_warehouses.py BEFORE AFTER [--headlines FILE ...] [--limit N]

BEFORE and AFTER are DuckDB warehouses built by `claims ingest` (say from the code before
and after a change, over the same files), or snapshots of one written with ``--save``.
Compared, each keyed by what names it across ingests (content hashes, not row order):

* documents (by id): path, format, title, publisher, url, date, author, role and its
  source, the text (its length and a digest), metadata;
* claims (by id): every column of the claims table (value, unit, family, scope, span,
  model, hardware, engine, conditions, stance, findings, ...);
* links (by both ends and relation): consistency, detail, computed figure, other end;
* clusters (as sets of claim ids);
* verdicts: `claims check` of each headline of the ``--headlines`` files (JSON lines with
  a "headline" field; by default tests/data/headlines*.jsonl): the verdict, its
  explanation and the evidence (claim id and relation).

A claims column that one warehouse has and the other has not (one a later schema version
added, such as the stored facts of version 6) is named on a line of its own and not
compared: the rows are compared on the columns both hold.

Left out on purpose: ingest times and fingerprints (they name the pipeline's version, which
a refactor may bump). Verdicts of a warehouse are computed by the code this script runs
with; to compare the checker before and after a change, write a snapshot with the old code
(``--save before.json`` with one warehouse) and compare the new warehouse with it.

Prints one line per part ("claims: 5,321 vs 5,321, identical") and, for a part that
differs, up to ``--limit`` examples of each kind of difference. Exit status 0 when
everything is identical, 1 when something differs, 2 on a usage error.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HEADLINES = sorted((ROOT / "tests" / "data").glob("headlines*.jsonl"))

# documents: what ingest and role inference decide (not when, nor the pipeline's version)
DOC_FIELDS = ("path", "format", "title", "publisher", "url", "published", "author", "role",
              "role_source", "n_chars", "n_bytes", "meta")
SKIP_CLAIM_FIELDS = frozenset({"id"})


@dataclass
class Snapshot:
    """What a warehouse says, as plain values keyed across ingests (JSON-serialisable)."""

    documents: dict[str, dict] = field(default_factory=dict)
    claims: dict[str, dict] = field(default_factory=dict)
    links: dict[str, dict] = field(default_factory=dict)
    clusters: list[list[str]] = field(default_factory=list)
    verdicts: dict[str, dict] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"documents": self.documents, "claims": self.claims, "links": self.links,
                "clusters": self.clusters, "verdicts": self.verdicts}

    @classmethod
    def from_json(cls, d: dict) -> "Snapshot":
        return cls(d["documents"], d["claims"], d["links"], d["clusters"], d["verdicts"])


def _plain(v):
    """A cell as a JSON value that compares as the cell does (dates as text, NaN as null,
    lists as lists)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return None if math.isnan(v) else v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return str(v)


def _rows(con, sql: str) -> tuple[list[str], list[tuple]]:
    cur = con.execute(sql)
    return [d[0] for d in cur.description], cur.fetchall()


def _headlines(files: list[Path]) -> list[str]:
    """The distinct headlines of the files, in order."""
    seen: dict[str, None] = {}
    for f in files:
        for line in f.read_text("utf-8").splitlines():
            if line.strip():
                seen.setdefault(json.loads(line)["headline"], None)
    return list(seen)


def snapshot(db: Path, headlines: list[str]) -> Snapshot:
    """Read ``db`` (read-only) into a ``Snapshot``; check each of ``headlines`` on it."""
    from pipeline.check import check
    from pipeline.store import Store

    snap = Snapshot()
    with Store.open(str(db), read_only=True) as store:
        con = store.con
        names, rows = _rows(con, "SELECT id, text, " + ", ".join(DOC_FIELDS) + " FROM documents")
        for r in rows:
            d = dict(zip(names, map(_plain, r)))
            text = d.pop("text")
            d["text_sha1"] = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
            snap.documents[d.pop("id")] = d
        names, rows = _rows(con, "SELECT * FROM claims")
        for r in rows:
            d = dict(zip(names, map(_plain, r)))
            snap.claims[d["id"]] = {k: v for k, v in d.items() if k not in SKIP_CLAIM_FIELDS}
        names, rows = _rows(con, "SELECT * FROM links")
        seen: Counter = Counter()
        for r in rows:
            d = dict(zip(names, map(_plain, r)))
            key = f"{d['src']} {d['relation']} {d['dst']}"
            seen[key] += 1
            if seen[key] > 1:                 # a repeated link counts as its own row
                key += f" #{seen[key]}"
            snap.links[key] = {k: v for k, v in d.items() if k not in ("src", "dst", "relation")}
        _, rows = _rows(con, "SELECT cluster_id, list(claim_id ORDER BY claim_id) "
                             "FROM clusters GROUP BY cluster_id")
        snap.clusters = sorted(sorted(ids) for _, ids in rows)
        for h in headlines:
            v = check(h, store=store)
            snap.verdicts[h] = {
                "verdict": v.verdict, "explanation": v.explanation,
                "evidence": sorted(f"{e.id} {e.relation}" for e in v.evidence)}
    return snap


def load(path: Path, headlines: list[str]) -> Snapshot:
    """A warehouse, or a snapshot written by ``--save`` (a .json file)."""
    if path.suffix == ".json":
        return Snapshot.from_json(json.loads(path.read_text("utf-8")))
    return snapshot(path, headlines)


@dataclass
class Part:
    """How one part (documents, claims, ...) of two snapshots differs."""

    name: str
    n_a: int
    n_b: int
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    changed: dict[str, list[tuple[str, object, object]]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)   # key -> what it names

    @property
    def identical(self) -> bool:
        return not (self.only_a or self.only_b or self.changed)

    def lines(self, limit: int) -> list[str]:
        head = f"{self.name}: {self.n_a:,} vs {self.n_b:,}"
        if self.identical:
            return [head + ", identical"]
        by_field = Counter(f for diffs in self.changed.values() for f, _, _ in diffs)
        parts = [f"{len(self.only_a):,} only in A", f"{len(self.only_b):,} only in B",
                 f"{len(self.changed):,} changed"
                 + (" (" + ", ".join(f"{f} {n}" for f, n in by_field.most_common()) + ")"
                    if by_field else "")]
        out = [head + ": " + ", ".join(parts)]
        for label, keys in (("only in A", self.only_a), ("only in B", self.only_b)):
            out += [f"  {label}: {_short(k + self.labels.get(k, ''))}" for k in keys[:limit]]
        for key in list(self.changed)[:limit]:
            for f, a, b in self.changed[key]:
                out.append(f"  {_short(key)} {f}: {_short(json.dumps(a))} -> "
                           f"{_short(json.dumps(b))}")
        return out


def _short(s: str, width: int = 100) -> str:
    s = s.replace("\n", " ")
    return s if len(s) <= width else s[:width - 1] + "…"


def compare_part(name: str, a: dict[str, dict], b: dict[str, dict], label=None) -> Part:
    """``a`` and ``b`` compared key by key and field by field; ``label(row)``: how a row
    found on one side only is described after its key."""
    part = Part(name, len(a), len(b), sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys()))
    if label is not None:
        part.labels = {k: " " + label(a.get(k) or b[k]) for k in part.only_a + part.only_b}
    for key in sorted(a.keys() & b.keys()):
        ra, rb = a[key], b[key]
        diffs = [(f, ra.get(f), rb.get(f)) for f in sorted(ra.keys() | rb.keys())
                 if ra.get(f) != rb.get(f) or (f in ra) != (f in rb)]
        if diffs:
            part.changed[key] = diffs
    return part


def _columns(rows: dict[str, dict]) -> set[str]:
    return set().union(*rows.values()) if rows else set()


def _shared_columns(a: dict[str, dict], b: dict[str, dict]) -> tuple[dict, dict]:
    """The rows of ``a`` and ``b`` on the columns both warehouses have."""
    extra = _columns(a) ^ _columns(b) if a and b else set()
    if not extra:
        return a, b
    return ({k: {f: v for f, v in r.items() if f not in extra} for k, r in a.items()},
            {k: {f: v for f, v in r.items() if f not in extra} for k, r in b.items()})


def column_lines(a: Snapshot, b: Snapshot) -> list[str]:
    """A line per side naming the claims columns only it has (not compared)."""
    ca, cb = _columns(a.claims), _columns(b.claims)
    if not (a.claims and b.claims):
        return []
    return [f"claims: columns only in {side} (not compared): {', '.join(sorted(cols))}"
            for side, cols in (("A", ca - cb), ("B", cb - ca)) if cols]


def compare(a: Snapshot, b: Snapshot) -> list[Part]:
    def clusters(s: Snapshot) -> dict[str, dict]:
        return {" ".join(ids): {} for ids in s.clusters}

    paths = {**{k: d["path"] for k, d in b.documents.items()},
             **{k: d["path"] for k, d in a.documents.items()}}

    def claim(c: dict) -> str:
        return f"{paths.get(c['doc_id'], c['doc_id'])}:{c['start']} {c['surface']!r}"

    return [compare_part("documents", a.documents, b.documents, lambda d: d["path"]),
            compare_part("claims", *_shared_columns(a.claims, b.claims), claim),
            compare_part("links", a.links, b.links),
            compare_part("clusters", clusters(a), clusters(b)),
            compare_part("verdicts", a.verdicts, b.verdicts)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path, help="the first warehouse (or a --save snapshot, .json)")
    ap.add_argument("b", type=Path, nargs="?",
                    help="the second warehouse or snapshot (not with --save)")
    ap.add_argument("--headlines", type=Path, action="append",
                    help="JSON-lines file of headlines to check on both (repeatable; "
                         "default: tests/data/headlines*.jsonl)")
    ap.add_argument("--no-check", action="store_true", help="do not compare verdicts")
    ap.add_argument("--limit", type=int, default=10,
                    help="examples printed per kind of difference (default 10)")
    ap.add_argument("--save", type=Path, metavar="FILE.json",
                    help="write the snapshot of A to FILE.json (to compare later) instead "
                         "of comparing")
    args = ap.parse_args(argv)
    if (args.b is None) == (args.save is None):
        ap.error("give two warehouses to compare, or one with --save")
    for p in (args.a, args.b):
        if p is not None and not p.is_file():
            ap.error(f"no such file: {p}")
    files = [] if args.no_check else (args.headlines or DEFAULT_HEADLINES)
    headlines = _headlines(files)
    a = load(args.a, headlines)
    if args.save is not None:
        args.save.write_text(json.dumps(a.to_json(), sort_keys=True), "utf-8")
        print(f"saved {args.a} to {args.save}: {len(a.documents):,} documents, "
              f"{len(a.claims):,} claims, {len(a.links):,} links, {len(a.verdicts):,} verdicts")
        return 0
    b = load(args.b, headlines)
    if args.no_check:
        a.verdicts = b.verdicts = {}
    parts = compare(a, b)
    for line in column_lines(a, b):
        print(line)
    for part in parts:
        print("\n".join(part.lines(args.limit)))
    same = all(p.identical for p in parts)
    print("identical" if same else "DIFFERENT")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
