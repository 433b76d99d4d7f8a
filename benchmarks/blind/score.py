#!/usr/bin/env python3
"""Score extracted claims against the blind table-heavy label set.

    python benchmarks/blind/score.py benchmarks/blind/labels.jsonl PRED.jsonl [-v]

labels.jsonl: one labelled mention per line: doc (file name relative to
benchmarks/blind/docs/), quote, value, family, optional high, scope, statistic,
comparator, model, hardware, neutral.
PRED.jsonl: what `claims export claims --format jsonl` writes: one claim per line with
doc_path, value, low, high, family, scope, statistic, comparator, model, hardware, surface.

Matching (the same rules as shared/gold/score.py):
  * a prediction belongs to a labelled document when its doc_path, split into path
    components, ends with the label's doc (so any ingest root works);
  * within a document matching is one to one and greedy: required labels pick first, in
    file order, then neutral ones; each takes the first unused prediction whose value,
    low or high is within 0.5% of the label's value, whose family is the same and,
    when the label gives a scope, whose scope (missing = "unspecified") is the same
    (per_system and aggregate count as the same);
  * recall = required labels found / required labels;
    precision = predictions used by required labels /
                (predictions - predictions used by neutral labels);
  * statistic, comparator, model and hardware are reported as accuracies over found
    labels that give the field (model and hardware: one contains the other after
    lower-casing and dropping spaces, '_' and '-', and a leading "1x"); so are, from
    blind11 on, engine and baseline (contained, as model), dtype (the same after that
    folding), batch_size, isl, osl and concurrency (the same number) and direction
    ("higher"/"lower" for the stored "up"/"down").
Standard library only.
"""
import argparse
import os
import json
import re
import sys
from collections import Counter, defaultdict

FIELDS = ("statistic", "comparator", "model", "hardware")
# conditions labelled from blind11 on (absent from earlier sets): an engine or baseline is
# right when one name contains the other (as model and hardware); a setting when its
# number is the label's; a direction when "higher"/"lower" is the stored "up"/"down"
CONDITIONS = ("engine", "dtype", "batch_size", "isl", "osl", "concurrency", "baseline", "direction")
_NUMERIC = {"batch_size", "isl", "osl", "concurrency"}
_DIRECTIONS = {"higher": "up", "lower": "down", "up": "up", "down": "down"}
SAME_SCOPE = {"per_system": {"per_system", "aggregate"}, "aggregate": {"per_system", "aggregate"}}


def read_jsonl(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not JSON ({e})")
    return rows


def parts(path):
    return [p for p in str(path or "").replace("\\", "/").split("/") if p not in ("", ".")]


def doc_of(pred_path, label_docs):
    """The label doc that pred_path ends with (longest such doc), or None."""
    pp = parts(pred_path)
    best = None
    for doc, dp in label_docs.items():
        if dp and len(pp) >= len(dp) and pp[-len(dp):] == dp:
            if best is None or len(dp) > len(label_docs[best]):
                best = doc
    return best


def near(a, b):
    if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
        return False
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return False
    return abs(a - b) <= 0.005 * max(abs(a), abs(b), 1e-12)


def fits(label, pred):
    if pred.get("family") != label["family"]:
        return False
    if not any(near(label["value"], pred.get(k)) for k in ("value", "low", "high")):
        return False
    if "scope" in label:
        got = pred.get("scope") or "unspecified"
        return got in SAME_SCOPE.get(label["scope"], {label["scope"]})
    return True


def squash(v):
    if v is None:
        return ""
    s = re.sub(r"[\s_\-]", "", str(v).lower())
    return re.sub(r"^1x", "", s)


def field_right(field, want, got):
    if field in _NUMERIC:
        return near(want, got)
    if field == "direction":
        return _DIRECTIONS.get(str(want).lower()) == _DIRECTIONS.get(str(got or "").lower(), "")
    w, g = squash(want), squash(got)
    if not g:
        return False
    if field in ("model", "hardware", "engine", "baseline"):
        return w in g or g in w
    return w == g


def match_doc(labels, preds):
    """Greedy one-to-one matching in one document.
    Returns (pairs, used_by_neutral, unused_preds); pairs = [(required label, pred or None)]."""
    taken = [False] * len(preds)
    pairs, by_neutral = [], 0
    ordered = [l for l in labels if not l.get("neutral")] + [l for l in labels if l.get("neutral")]
    for lab in ordered:
        hit = None
        for i, p in enumerate(preds):
            if not taken[i] and fits(lab, p):
                hit = i
                break
        if hit is not None:
            taken[hit] = True
            if lab.get("neutral"):
                by_neutral += 1
        if not lab.get("neutral"):
            pairs.append((lab, preds[hit] if hit is not None else None))
    unused = [p for i, p in enumerate(preds) if not taken[i]]
    return pairs, by_neutral, unused


def score(labels, preds, verbose=False, out=print):
    docs = sorted({l["doc"] for l in labels})
    label_docs = {d: parts(d) for d in docs}
    by_doc = defaultdict(list)
    ignored = 0
    for p in preds:
        d = doc_of(p.get("doc_path") or p.get("doc") or "", label_docs)
        if d is None:
            ignored += 1
        else:
            by_doc[d].append(p)

    found = required = counted = 0
    fields = {f: [0, 0] for f in FIELDS + CONDITIONS}
    fam_found, fam_req = Counter(), Counter()
    for d in docs:
        labs = [l for l in labels if l["doc"] == d]
        pairs, by_neutral, unused = match_doc(labs, by_doc[d])
        f_doc = sum(1 for _, p in pairs if p is not None)
        n_counted = len(by_doc[d]) - by_neutral
        found += f_doc
        required += len(pairs)
        counted += n_counted
        for lab, p in pairs:
            fam_req[lab["family"]] += 1
            if p is None:
                if verbose:
                    out(f"  MISS  {d}: {lab.get('quote', lab['value'])!r} {lab['family']} {lab.get('scope', '')}")
                continue
            fam_found[lab["family"]] += 1
            for f in FIELDS + CONDITIONS:
                if f in lab:
                    fields[f][1] += 1
                    if field_right(f, lab[f], p.get(f)):
                        fields[f][0] += 1
                    elif verbose:
                        out(f"  FIELD {d}: {f} want {lab[f]!r} got {p.get(f)!r} ({lab.get('quote', '')[-40:]!r})")
        if verbose:
            for p in unused:
                out(f"  EXTRA {d}: {p.get('surface')!r} value={p.get('value')} {p.get('family')} {p.get('scope')}")
        out(f"{f_doc:>4}/{len(pairs):<4} found  {f_doc:>4}/{n_counted:<4} right  {d}")

    recall = found / required if required else 0.0
    precision = found / counted if counted else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    out("recall by family: " + ", ".join(
        f"{fam} {fam_found[fam]}/{fam_req[fam]}" for fam in sorted(fam_req)))
    for f in FIELDS + CONDITIONS:
        ok, n = fields[f]
        if n:
            out(f"{f}: {ok}/{n} = {ok / n:.2f}")
    if ignored:
        out(f"({ignored} predictions outside the labelled documents were ignored)")
    out(f"recall {recall:.3f}  precision {precision:.3f}  F1 {f1:.3f}")
    return {"recall": recall, "precision": precision, "f1": f1,
            "fields": {f: (ok / n if n else None) for f, (ok, n) in fields.items()}}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("labels", help="benchmarks/blind/labels.jsonl")
    ap.add_argument("pred", help="predictions JSONL from `claims export claims --format jsonl`")
    ap.add_argument("-v", "--verbose", action="store_true", help="list misses, extras and wrong fields")
    ap.add_argument("--docs", nargs="+", metavar="DIR",
                    help="score only labelled documents found in these folders (a document "
                         "whose text may not be shipped lives outside the repository; see "
                         "SOURCES.tsv); default: every labelled document")
    args = ap.parse_args(argv)
    labels = read_jsonl(args.labels)
    if args.docs:
        present = {l["doc"] for l in labels
                   if any(os.path.isfile(os.path.join(d, l["doc"])) for d in args.docs)}
        skipped = sorted({l["doc"] for l in labels} - present)
        if skipped:
            print(f"(not scored, absent from {' '.join(args.docs)}: {', '.join(skipped)})")
        labels = [l for l in labels if l["doc"] in present]
    score(labels, read_jsonl(args.pred), verbose=args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
