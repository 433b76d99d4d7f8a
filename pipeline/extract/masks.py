"""Spans of text where a number is never a claim.

Numbers inside names (Llama 4, GB300 NVL72, EAGLE-3), dates, versions, section and figure
numbers, code, URLs and image paths look like figures to a naive scanner; this module finds
those regions once per document so the claim builder can skip any number inside them.
"""
from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass


from pipeline.extract.numbers import ascii_lower
from pipeline.vocab.trie import alternation
from pipeline.vocab.loader import COUNT_WORDS, Vocab

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
# Regions found once over the whole text: each pattern opens with literal characters, so
# the scan is cheap even on long documents.
_GLOBAL_PATTERNS = [
    r"!\[[^\]\n]*\]\([^)\n]*\)", r"```.*?```", r"~~~.*?~~~", r"`[^`\n]{1,400}`", r"<!--.*?-->",
    r"<[a-zA-Z/](?:[^<>\n]|\n(?![ \t]*\n)){0,800}>", r"https?://[^\s)\]>\"']+", r"www\.[^\s)\]>\"']+", r"\]\([^)\n]*\)",
    r"\[\^?\d+\]", r"#\d+\b", r"\$\$.*?\$\$", r"\\\[.*?\\\]", r"\{\{[<%].*?[>%]\}\}", r"\{%.*?%\}",
    # a displayed environment whole, over its lines ("\begin{align*} 6x-4y&=a, ... \end{align*}"
    # in a paper's worked problem); else a command's line
    r"\\begin\{(?:align|equation|eqnarray|gather|multline|array|cases|[pb]?matrix)\*?\}.{0,4000}?"
    r"\\end\{(?:align|equation|eqnarray|gather|multline|array|cases|[pb]?matrix)\*?\}",
    r"\\(?:frac|boxed|mathbf|text|begin|end|left|right|cdot|times|sqrt)\b[^\n]{0,200}",
]
# Words that number the parts of a document or a procedure ("Section 3", "Step 1"): the
# number after one is a label, and a model family spelled alike ("Step") names no model there
_NUMBERING_WORDS = (r"Section|Sec\.|§|Figure|Fig\.|Table|Tab\.|Eq\.|Equation|Appendix|Chapter|Step|Part|Day|"
                    r"Week|Item|Issue|PR|No\.")
_NUMBERED_LABEL_RE = re.compile(rf"(?:{_NUMBERING_WORDS})[ \t]?#?\d+(?:\.\d+)*[a-z]?")
# Patterns that only matter where a number is: tried in a small window around each one.
_LOCAL_PATTERNS = [
    r"\b[\w./-]+\.(?:png|jpe?g|gif|svg|pdf|py|md|html?|json|yaml|sh)\b",
    # dates
    rf"\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?", rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}(?:,?\s+\d{{4}})?",
    rf"\b{_MONTHS},?\s+'?\d{{2,4}}\b", r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?",
    r"\b\d{1,2}/\d{1,2}/\d{2,4}\b", r"\bQ[1-4]\s?[/']?\s?\d{2,4}\b",
    # a month and year ("12.2024"), not a figure printed to four places ("21.1402")
    r"\b(?:0?[1-9]|1[0-2])\.(?:19|20)\d{2}\b",
    r"(?<![\d,.])\b(?:199\d|20[0-3]\d)s?\b(?![,.]\d)(?!\s*(?:tokens?|tok|ms|GB|MB|x\b|%|TPS|tps|requests?))", r"\bFY\s?\d{2,4}\b|\bH[12](?:\s|\s?')(?:19|20)?\d{2}\b",
    r"\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:[ap]\.?m\.?|UTC|PT|ET)?\b", r"\b(?:19|20)\d{2}[a-z]\b",
    # memory written into a product name: "A100-80GB", "H100 SXM 80GB GPUs", "A100 (40GB)"
    r"\b[A-Z]{1,3}\d{2,4}[A-Z]?(?:[- ](?:SXM\d?|PCIe|NVL|OAM))?(?:-|\s\(|\s)\d+\s?GB\)?(?=\s+(?:GPUs?|cards?|HBM)|\)|\b(?!\s+(?:of|memory|HBM)))",
    # a link's lane width: "PCIe 5.0 x 16", "PCIe Gen5 x16" (16 lanes, no bandwidth)
    r"\bPCIe[ \t]*(?:Gen[ \t]?\d+|\d(?:\.\d)?)?[ \t]*[x×][ \t]?\d{1,2}\b",
    r"\b\d+\s?GB\s+(?:GPUs?|cards?)\b", r"\b\d+(?:\.\d+)?:\d+(?:\.\d+)?\b",
    r"\b\d+[- ](?:way|bit|node|nodes|layer|layers|core|cores|socket|shot|stage|head|heads|expert|experts|card|cards|step|steps)\b",
    # versions and identifiers
    r"\bv\.?\s?\d+(?:\.\d+)*\w*", r"\b\d+\.\d+\.\d+(?:\.\d+)*\b", r"\b(?:version|release|ver\.)\s+\d+(?:\.\d+)*",
    r"\b[A-Za-z]+-\d+(?:\.\d+)*[A-Za-z]*\b(?!\s*(?:x\b|%|tokens?))",
    rf"\b(?:{_NUMBERING_WORDS})\s?#?\d+(?:\.\d+)*[a-z]?\b",
    r"\b\d+(?:st|nd|rd|th)\b", r"\b\d{1,2}(?:\.\d+)?\s?%?\s+percentile\b", r"\b(?:TP|EP|DP|PP|CP|SP)\s?=?\s?\d+\b", r"\b\d+\s?x\s?(?:TP|EP|DP|PP)\d*\b",
    r"\b[pP]\d{2}(?:\.\d+)?\b", r"\bTop-?\d+\b", r"\bIL\d+\b|\bOL\d+\b", r"\b[A-Z]{1,4}\d+[A-Za-z]*\b",
    r"\b(?:NVL|NVLink|PCIe|Gen|DDR|HBM|LPDDR|CUDA|ROCm|Python|sm_?)\s?\d+(?:\.\d+)*[a-z]?\b",
]
_GLOBAL_RE = re.compile("|".join(f"(?:{p})" for p in _GLOBAL_PATTERNS), re.S)
_LOCAL_RE = re.compile("|".join(f"(?:{p})" for p in _LOCAL_PATTERNS))
# The same without its first pattern (a file name), for a window with no file extension
# in it, where that pattern cannot match: it is the costly one (a run of word characters
# tried back from every place).
_LOCAL_NO_FILE_RE = re.compile("|".join(f"(?:{p})" for p in _LOCAL_PATTERNS[1:]))
_FILE_EXT_RE = re.compile(r"\.(?:png|jpe?g|gif|svg|pdf|py|md|html?|json|yaml|sh)\b")
assert _LOCAL_PATTERNS[0].endswith(_FILE_EXT_RE.pattern)


def _model_pattern(vocab: Vocab) -> str:
    stems = set()
    for f in vocab.model_families:
        stems.add(re.escape(f))
        if len(f) >= 5:
            stems.add(re.escape(f.lower()))
            stems.add(re.escape(f.upper()))
    alt = "|".join(sorted(stems, key=len, reverse=True))
    # A name continues through version, size and variant pieces: "Llama 4 Maverick",
    # "DeepSeek-V4.1-Flash", "GPT-J 6B", "Qwen3-8B", "llama_70b", "Mixtral 8x7B"; never
    # across a line break (slide text stacks a chart's axis under a name), and never into
    # a context length after a space ("Qwen3-235B 16K").
    piece = (
        r"(?:[-_.]?(?:\d+(?:\.\d+)*[A-Za-z]*|[A-Za-z]+\d(?:\w|\.(?=\w))*|[A-Z][a-zA-Z]+|[A-Z](?![a-z])|\d+x\d+[bB])"
        # a size in billions stays in the name even before "tokens": "the first Llama 2 70B
        # token", "Llama 3.1 8B tokens"
        # (never a precision after a space: "Qwen 2.5 3B Instruct FP16" is the model at FP16)
        r"|[ \t](?!(?:FP|BF|INT|UINT|NF|MXFP|NVFP)\d)(?:\d+x\d+[bB]\b|\d+(?:\.\d+)?[Bb]\b(?![,.]\d)(?!\s*(?:%|x\b|times|tok/|tokens?\s*(?:/|per\b)))"
        r"|\d+(?:\.\d+)?M?\b(?![,.]\d)(?!\s*(?:%|x\b|times|tokens?|tok|ms|GB|TB|TPS|tps|req))"
        # nor into the first end of a range of figures: "DeepSeek 2.5 to 3.4 times faster"
        r"(?!\s*(?:to|-|–|and)\s*\d+(?:\.\d+)?\s*(?:%|x\b|×|times))"
        r"|(?:VARIANTS)\b|[A-Z]+\d(?:\w|\.(?=\w))*|v\d(?:\w|\.(?=\w))*|[A-Z]\d*\b))"
    ).replace("VARIANTS", "|".join(re.escape(w) for w in vocab.model_variants) or "(?!)")
    # At least one piece after the stem: "DeepSeek" alone (or "DeepSeek's prices") names a
    # company or a family, not a model.
    return rf"(?<![\w-])(?:Meta's\s+)?(?:{alt}){piece}+(?:-Instruct|-Chat|-Base)?"


_LEAD_RE = re.compile(r"^(?:\(\?:[^()]*\)\?)?(?:\(\?i:)?(?:\(\?:)?([A-Za-z][A-Za-z0-9]*)")


def _trigger(pattern: str) -> str | None:
    """The literal letters a name pattern must start with ("dynamo" for 'Dynamo\\s+SGLang'),
    lower-cased and cut before any optional character; None when there are none."""
    m = _LEAD_RE.match(pattern)
    if not m:
        return None
    lit = m.group(1)
    nxt = pattern[m.end():m.end() + 1]
    if nxt in ("?", "*", "{") and len(lit) > 1:
        lit = lit[:-1]
    if nxt == "|" or (pattern.startswith("(?:") and "|" in pattern.split(")")[0]):
        return None
    return lit.lower()


# a capitalised prefix joined to an accelerator by a hyphen: a cloud's or vendor's
# (instance) name, "GCP-a100-80G", "AWS-H100", "NVIDIA-A100" (only an accelerator is read
# after it: find_names). A box's name ("DGX-B200") is not one: it stands for eight parts,
# so its part alone would lose the count.
_PREFIX_HYPHEN_RE = re.compile(r"(?<![\w-])(?!(?:DGX|HGX)-)[A-Z]{2,6}-$")
# a count joined to the name after it by a hyphen: "8-B200", "eight-H100"
_COUNT_HYPHEN_RE = re.compile(r"(?:\b\d{1,4}|\b(?:" + "|".join(COUNT_WORDS) + r"))$")


def _names_index(vocab: Vocab) -> tuple[dict[str, list], list]:
    """Name patterns keyed by the letters their first word starts with ("h" for H100,
    "llama" for Llama-2-70B, "speculative"), so a text is scanned once for runs of letters
    and a pattern is tried only where its key stands."""
    entries: list[tuple[str | None, str, re.Pattern[str], str]] = []
    for pat, acc, count in vocab.systems:
        for alt in _split_top(pat.pattern):
            entries.append((_trigger(alt), "system", re.compile(alt, re.I), f"{acc}:{count}"))
    model = re.compile(_model_pattern(vocab))
    for stem in vocab.model_families + ["Meta"]:
        entries.append((stem.lower(), "model", model, ""))
    for kind, named in (("engine", vocab.engines), ("technique", vocab.techniques),
                        ("dtype", vocab.dtypes), ("accelerator", vocab.accelerators)):
        for name, pats in named.spellings.items():
            for p in pats:
                entries.append((_trigger(p), kind, re.compile(p, named.pattern.flags), name))
    index: dict[str, list] = {}
    fallback = []
    for trig, kind, pat, name in entries:
        if not trig:
            fallback.append((kind, pat, name))
            continue
        key = re.match(r"[a-z]*", trig).group(0)
        index.setdefault(key, []).append((trig, kind, pat, name))
    for lst in index.values():
        lst.sort(key=lambda e: -len(e[2].pattern))
    # Stems that may run straight into a suffix ("DeepSeekMoE", "DeepSeekV3", "Qwen"),
    # keyed by their first three letters for the word-level lookup
    stems: dict[str, list[str]] = {}
    for key in index:
        if len(key) >= 4:
            stems.setdefault(key[:3], []).append(key)
    index["\0stems"] = stems  # type: ignore[assignment]
    return index, (fallback, _any_of(fallback)), _trigger_scan(index)


def _any_of(fallback: list) -> re.Pattern[str] | None:
    """One pattern matching where any of the names without a trigger matches: a stretch
    it finds nothing in is not scanned once per name (None: they mix flags or refer to
    their own groups, which joined would mean other groups)."""
    if not fallback or len({pat.flags for _, pat, _ in fallback}) != 1 or \
            any(pat.groups or _GROUP_REF_RE.search(pat.pattern) for _, pat, _ in fallback):
        return None
    try:
        return re.compile("|".join(f"(?:{pat.pattern})" for _, pat, _ in fallback), fallback[0][1].flags)
    except re.error:    # a global flag inside one of them ("(?i)...")
        return None


_GROUP_REF_RE = re.compile(r"\\\d|\(\?P=|\(\?\(")


def _trigger_scan(index: dict[str, list]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """One compiled scan for the words a name can start at, so the text's other words
    cost nothing in Python: a word that is a key of ``index`` ("h", "llama") or runs on
    from a stem ("deepseekv"), after a character that is not part of a word or glued to
    a count by an x ("8xh100"); and the same keys alone, for a name at the text's start.
    They find a superset of those places; ``find_names`` then looks each one up exactly."""
    stems = {s for lst in index["\0stems"].values() for s in lst}
    body = alternation({k: None if k in stems else "(?![a-z])" for k in index if not k.startswith("\0")})
    # The character before the word leads the pattern: ``re`` skips ahead over a leading
    # character class in C, where a look-behind would be tried at every position.
    return re.compile(r"[\W\d](x)?" + body), re.compile(body)


def _split_top(pattern: str) -> list[str]:
    """Top-level alternatives of a pattern (so each gets its own trigger)."""
    body = pattern
    m = re.match(r"^\(\?<!\[\\w-\]\)(.*)\(\?!\[\\w\]\)$", body)
    if m:
        body = m.group(1)
    if body.startswith("(?:") and body.endswith(")"):
        inner = body[3:-1]
        depth, parts, cur = 0, [], ""
        for ch in inner:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "|" and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        parts.append(cur)
        if all(p for p in parts):
            return parts
    return [body]


@dataclass(slots=True)
class Span:
    start: int
    end: int
    kind: str
    name: str = ""


class Masks:
    """Sorted, merged forbidden intervals with an O(log n) membership test."""

    def __init__(self, spans: list[tuple[int, int]]):
        spans.sort()
        merged: list[list[int]] = []
        for s, e in spans:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        self.starts = [s for s, _ in merged]
        self.ends = [e for _, e in merged]

    def covers(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self.starts, start) - 1
        return i >= 0 and self.ends[i] > start


_names_cache: dict[int, tuple] = {}
# "GPT-4-level", "GPT-4/o1-class quality": a model named as a yardstick
_LEVEL_AFTER_RE = re.compile(r"(?:/[\w.-]+?)*[- ](?:level|class|grade)\b", re.I)
_ALPHA_RUN_RE = re.compile(r"[a-z]+")
# two capitalised words glued on after a name's digits or lower case: a class name in code
_CODE_NAME_RE = re.compile(r"[0-9a-z][A-Z][a-z]+[A-Z][a-z]+")


def find_names(text: str, vocab: Vocab, start: int = 0, end: int | None = None,
               lower: str | None = None) -> list[Span]:
    """Model, hardware, system, engine and technique names in ``text[start:end]``, in order.

    Where two names start at one word, the longest wins ("Dynamo SGLang" over "Dynamo")."""
    end = len(text) if end is None else end
    key = id(vocab)
    if key not in _names_cache:
        _names_cache[key] = _names_index(vocab)
    index, (fallback, any_fallback), (scan, scan_first) = _names_cache[key]
    stems = index["\0stems"]
    out: list[Span] = []
    last_end = -1
    lower = ascii_lower(text) if lower is None else lower
    hits = scan.finditer(lower, start - 1 if start else 0, end)
    if start == 0 and scan_first.match(lower, 0, end):
        hits = itertools.chain((None,), hits)
    for w in hits:
        if w is None:
            ws = 0
            before = ""
        else:
            before = lower[w.start()]
            counted = before == "-" and _COUNT_HYPHEN_RE.search(lower, max(0, w.start() - 8), w.start())
            prefixed = before == "-" and _PREFIX_HYPHEN_RE.search(text, max(0, w.start() - 8), w.start() + 1)
            if (before == "-" and not (counted or prefixed)) or (before.isdigit() and w.group(1) is None):
                continue   # "-h100" is inside a word; a digit leads only "4xH100"
            ws = w.start() + 1
            if ws < last_end:
                continue
            if before.isdigit():
                ws += 1    # "4xH100", "8xMI300X": a count glued to a name with an x
        run = _ALPHA_RUN_RE.match(lower, ws, end).group(0)
        bucket = index.get(run)
        if not bucket and len(run) > 4:
            for stem in stems.get(run[:3], ()):
                if run.startswith(stem):
                    bucket = index[stem]
                    break
        if not bucket:
            continue
        best = None
        for trig, kind, pat, name in bucket:
            if not lower.startswith(trig, ws):
                continue
            m = pat.match(text, ws, end)
            if m is None or m.end() == ws:
                continue
            me = m.end()
            # "deepseek_v3#multi-token-prediction" and "model=llama3" are anchors and
            # identifiers, not mentions
            if me < len(text) and (text[me].isalnum() or text[me] in "_#"):
                continue
            if before and before in "#=":
                continue
            if before == "-" and kind != "accelerator":
                continue   # after "eight-" only an accelerator ("eight-B200")
            if kind == "model" and _LEVEL_AFTER_RE.match(text, me):
                continue   # "GPT-4/o1-level": a yardstick, not the subject
            if kind == "model" and _CODE_NAME_RE.search(text, ws, me):
                continue   # "Deepseekv3RoutingImpl", "LlamaForCausalLM": a class in code
            if kind == "model" and _NUMBERED_LABEL_RE.fullmatch(text, ws, me):
                continue   # "Step 1: start the server": a numbered step, not StepFun's model
            if best is None or me > best[1]:
                label = m.group(0) if kind == "model" else name
                best = (ws, me, kind, label)
        if best:
            out.append(Span(*best))
            last_end = best[1]
    if any_fallback is None or any_fallback.search(text, start, end):
        for kind, pat, name in fallback:
            for m in pat.finditer(text, start, end):
                out.append(Span(m.start(), m.end(), kind, name))
    declared = declared_names(text, start, end, out) if text.find(":", start, end) >= 0 else []
    out += declared
    if fallback or declared:
        out.sort(key=lambda s: (s.start, -s.end))
    return out


# "### Model: h2oai/h2ogpt-4096-llama2-7b-chat", "## Backend: transformers", "- Engine: X":
# a line that declares the model or engine by its key names it, even one the vocabularies
# do not know (its numbers are then inside a name, not figures)
_DECLARED_RE = re.compile(
    r"(?im)^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+)?(?:\*\*)?(?P<key>model|backend|engine|inference[ \t]+engine|framework)"
    r"(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(?:\[(?P<vl>[A-Za-z][\w./+-]*[\w+])\]\([^)\s]*\)|(?P<v>[A-Za-z][\w./+-]*[\w+]))"
    # a bold close, a note in brackets: "**Model:** [Qwen/Qwen3-0.6B](https://…) (fp32)"
    r"[ \t]*(?:\*\*)?[ \t]*(?:\([^()\n]*\))?[ \t]*$")
_DECLARED_KIND = {"model": "model", "backend": "engine", "engine": "engine", "framework": "engine"}


def declared_names(text: str, start: int, end: int, found: list[Span] = ()) -> list[Span]:
    """The models and engines ``text[start:end]`` declares by key ("Model: X"), except
    where ``found`` already holds a name there."""
    out = []
    for m in _DECLARED_RE.finditer(text, start, end):
        g = "vl" if m.group("vl") else "v"
        vs, ve = m.span(g)
        if any(s.start < ve and vs < s.end for s in found):
            continue     # a name the vocabularies know: read as such
        kind = _DECLARED_KIND.get(m.group("key").lower(), "engine")
        out.append(Span(vs, ve, kind, m.group(g)))
    return out


_TOKEN_START_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9§#]")
_NAME_KINDS_MASKED = ("model", "system", "accelerator", "technique", "dtype")


_NEXT_RE = re.compile(
    r"[-/:.'_]\d|(?:st|nd|rd|th|s)\b|\s?%?\s+perc|[xX]\s?(?:TP|EP|DP|PP)|\s+[A-Z][a-z]{2}|\s?[-–]\s?\d{1,2}\b|[a-z]+\d"
    r"|[- ](?:way|bit|node|nodes|layer|layers|core|cores|socket|shot|stage|head|heads|expert|experts|card|cards|step|steps)\b"
)
# a year, a decade, or a cited year with its letter ("Qin et al., 2024b", read as 2024 billion)
_YEARISH_RE = re.compile(r"(?:199\d|20[0-3]\d)[sa-f]?$")


def _may_be_masked(text: str, start: int, end: int) -> bool:
    """A cheap test that rules out most numbers before any pattern runs: a number that
    follows a space and a lower-case word, and is followed by a space or punctuation, is
    inside no name, date or version."""
    prev = text[max(0, start - 24):start]
    if prev[-1:] in ("-", "_", ".", "/", "#", "§", "v", "V", "=", "@", ":", "("):
        return True
    token = prev.rsplit(None, 1)[-1] if prev and not prev.isspace() else ""   # its last word
    if token and (any(ch.isupper() or ch.isdigit() for ch in token)
                  or token.lower() in ("v", "version", "release", "ver.", "sm", "x", "×")):
        return True
    if _NEXT_RE.match(text, end, end + 6):
        return True
    return bool(_YEARISH_RE.match(text, start, end))


class NumberMasks:
    """Is a number inside a name, date, version, code or link? Global regions are found
    once; the rest is decided in a small window around each number, so the cost follows
    the count of numbers, not the length of the text."""

    def __init__(self, text: str, vocab: Vocab):
        self.text = text
        self.vocab = vocab
        self.global_masks = Masks([(m.start(), m.end()) for m in _GLOBAL_RE.finditer(text)])
        # the names of the paragraph around a position, when the caller keeps them
        self.names_at = None

    def open_up(self, spans: list[tuple[int, int]]) -> None:
        """Take ``spans`` out of the global regions: a benchmark tool's printed results
        inside a code fence are figures, though the fence is code."""
        if not spans:
            return
        kept: list[tuple[int, int]] = []
        for s, e in zip(self.global_masks.starts, self.global_masks.ends):
            for os_, oe in sorted(spans):
                if oe <= s or os_ >= e:
                    continue
                if os_ > s:
                    kept.append((s, os_))
                s = max(s, oe)
            if s < e:
                kept.append((s, e))
        self.global_masks = Masks(kept)

    def covers(self, start: int, end: int) -> bool:
        if self.global_masks.covers(start, end):
            return True
        text = self.text
        if not _may_be_masked(text, start, end):
            return False
        lo = max(0, start - 28)  # the longest mask that reaches a number starts this far back
        hi = min(len(text), end + 40)
        # a region covering the number starts where a token starts: try only those places
        local = _LOCAL_RE if _FILE_EXT_RE.search(text, lo, hi) else _LOCAL_NO_FILE_RE
        for t in _TOKEN_START_RE.finditer(text, lo, start + 1):
            m = local.match(text, t.start(), hi)
            if m and m.end() > start:
                return True
        names = self.names_at(start) if self.names_at else find_names(text, self.vocab, max(0, start - 40), min(len(text), end + 12))
        for n in names:  # in text order: stop at the first name past the number
            if n.start > start:
                break
            if n.kind in _NAME_KINDS_MASKED and start < n.end:
                return True
        return False
