"""Conditions of a figure: subject (model, hardware, engine) and setting (dtype, technique,
parallelism, concurrency, input/output lengths, workload, price basis, statistic, phase).

Benchmark trackers record these keys for every result; a claim without them cannot be
compared with another. Each is read from the figure's sentence, preferring the mention
nearest the figure, because one sentence often names two systems side by side.
"""
from __future__ import annotations

from dataclasses import dataclass

import re


from pipeline.extract.masks import Span
from pipeline.extract.numbers import _SMALL
from pipeline.vocab.caseless import Caseless
from pipeline.vocab.loader import Vocab

# Patterns used inside functions, compiled once.
_SPACES_RE = re.compile(r"\s+")
_BATCH_WORD_RE = re.compile(r"(?i)batch|bs|max")

_COUNT = r"(?P<count>\d{1,5}|" + "|".join(w for w in _SMALL if " " not in w and w not in ("zero", "half")) + r"|a\s+single|single|one)"
_COUNT_BEFORE_RE = re.compile(
    # "8x H100", "eight NVIDIA H100", "32-GPU MI355X" (a count of GPUs before their name)
    _COUNT + r"\s*(?:x|×|\*|-)?\s*(?:(?:GPUs?|accelerators?|chips?|cards?)\s+)?(?:(?:NVIDIA|AMD|Nvidia|Intel|Google)\s+)?(?:(?:Instinct|Radeon|GeForce|Tesla|Arc|Data\s+Center\s+GPU)\s+)?$", re.I
)
_COUNT_AFTER_RE = re.compile(r"^s?\s*(?:\(\s*\d+\s*GB\s*\)\s*)?(?:GPUs?\s*)?(?:x|×|\*)\s*(?P<count>\d{1,5})\b", re.I)
_COUNTS_CHIPS_RE = re.compile(r"[x×*]|GPU|accelerator|chip|card", re.I)
_MACHINES_AFTER_RE = re.compile(r"[\s-]*(?:nodes?|servers?|hosts?|machines?)\b", re.I)
_PARALLEL_HINT_RE = Caseless(re.compile(r"TP|EP|DP|PP|CP|-way", re.I))
_PARALLEL_RE = Caseless(re.compile(
    # "TP8", "EP=32", "2x TP4", and joined degrees ("EP2TP4", "TP4EP2": two settings)
    r"(?<![A-Za-z])(?:\d+\s?x\s?)?(?:TP|EP|DP|PP|CP)\s?=?\s?\d+(?:\b|(?=(?:TP|EP|DP|PP|CP)\d))"
    r"|\b\d+-way\s+(?:(?:tensor|expert|pipeline|data)\s+parallel\w*|(?:TP|EP|DP|PP|CP)\b)", re.I))
_WAY_RE = re.compile(r"(\d+)-way\s+(\w+)", re.I)
_KIND_OF_WAY = {"tensor": "TP", "expert": "EP", "pipeline": "PP", "data": "DP"}
_CONCURRENCY_RE = Caseless(re.compile(
    r"\b(?:concurrency|concurrent\s+(?:users|requests)|batch\s+size|BS|max\s+batch)\s*(?:of|=|:)?\s*(?P<n>\d{1,3}(?:,\d{3})+|\d+)\b"
    r"|\b(?P<n2>\d{1,3}(?:,\d{3})+|\d+)\s+concurrent\s+(?:users|requests|sessions|streams)\b"
    # "batch 64", "bs64", "BS=64", "conc 32", "c=32": a row label's or header's shorthand
    r"|\b(?:batch|bs|conc)\s*[=:]?\s*(?P<n3>\d{1,3}(?:,\d{3})+|\d+)(?![\d.])(?!\s*(?:ms|s|%|GB|tokens?)\b)"
    # "at a batch size of 64", "with a concurrency of 32"
    r"|\b(?:batch\s+size|concurrency)\s+(?:set\s+to|is|was|of)\s+(?P<n4>\d{1,3}(?:,\d{3})+|\d+)\b",
    re.I,
))
# "64 users" alone in a table cell or header: the run's concurrency
_USERS_CELL_RE = re.compile(r"(?i)^\W*(\d[\d,]*)\s+(?:concurrent\s+)?(?:users|clients|streams)\W*$"
                            r"|(?:@\s*|\bat\s+)(\d[\d,]*)\s+(?:concurrent\s+)?(?:users|clients|streams)\b")
_ISL_OSL_RE = Caseless(re.compile(
    r"\b(?:ISL\s*/\s*OSL|input\s*/\s*output(?:\s+lengths?)?)\s*(?:=|:|of)?\s*\(?(?P<i>\d+(?:\.\d+)?[kK]?)\s*/\s*(?P<o>\d+(?:\.\d+)?[kK]?)"
    r"|\bIL\s?(?P<i2>\d+[kK]?)\s*[-/,]\s*OL\s?(?P<o2>\d+[kK]?)"
    r"|\b(?P<i3>\d+(?:\.\d+)?[kK])\s*/\s*(?P<o3>\d+(?:\.\d+)?[kK])\b"
    # "(4,096 tokens in, 16 out)"
    r"|\b(?P<i4>\d[\d,]*[kK]?)\s+tokens?\s+in\s*(?:,|and|/)\s*(?P<o4>\d[\d,]*[kK]?)\s+(?:tokens?\s+)?out\b",
    re.I,
))
# one length alone: "2,048-token prompts", "prompts of 2K tokens", "an input length of 1024",
# "ISL 1024"; "128-token outputs", "output length 2048", "OSL=128"
_NUMTXT = r"\d[\d,]*(?:\.\d+)?[kK]?"
# what makes "N input tokens" a rate or a total rather than each request's size
_NOT_RATE = (r"(?![^.;,\n]{0,40}?(?:\bper\s+(?:second|sec|s)\b|/\s*s(?:ec)?\b|\ba\s+second|\btok/s|\bTPS\b|"
             r"\bthroughput))")
_ONE_LENGTH_RE = Caseless(re.compile(
    rf"\b(?P<i>{_NUMTXT})[\s-]tokens?\s+(?:input\s+)?(?:prompts?|inputs?|input\s+sequences?|contexts?)\b"
    # "an 8K prompt", "32K prompts": a length in thousands needs no "tokens"
    rf"|\b(?P<i4>\d+(?:\.\d+)?[kK])[\s-]prompts?\b"
    rf"|\b(?:ISL|input\s+(?:sequence\s+)?(?:lengths?|len)|prompt\s+lengths?|prompts\s+of)\s*(?:=|:|of)?\s*(?P<i2>{_NUMTXT})"
    rf"|\b(?P<o>{_NUMTXT})[\s-]tokens?\s+(?:outputs?|completions?|responses?|generations?|answers?)\b"
    rf"|\b(?:OSL|output\s+(?:sequence\s+)?(?:lengths?|len)|(?:outputs|completions|responses)\s+of)\s*(?:=|:|of)?\s*(?P<o2>{_NUMTXT})"
    # "8.6K input tokens", "2K output tokens", "1,000 input and 1,000 output tokens": a
    # workload's size per request, unless a rate ("52.3k input tokens per second")
    rf"|\b(?P<i3>{_NUMTXT})\s+(?:input|prompt)(?:\s+and\s+(?P<o4>{_NUMTXT})\s+output)?\s+tokens?\b{_NOT_RATE}"
    rf"|\b(?P<o3>{_NUMTXT})\s+(?:output|generated|completion)\s+tokens?\b{_NOT_RATE}",
    re.I,
))
_LENGTH_CUES = ("token", "len", "isl", "osl", "prompts of", "outputs of", "prompt")
_PRICE_AT_RE = re.compile(r"\bat\s+(?:[\w'’]+\s+){0,3}?(?P<b>[\w-]+(?:\s+[\w-]+)?\s+prices?)\b", re.I)
_PARAM_SIZE_RE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([BT])\b")


def _num(s: str) -> float | None:
    s = s.replace(",", "").strip()
    mult = 1.0
    if s[-1:] in "kK":
        mult, s = 1000.0, s[:-1]
    try:
        return float(s) * mult
    except ValueError:
        return None


@dataclass(slots=True)
class Hardware:
    text: str          # "4 x B300", "72 x GB300 (GB300 NVL72)"
    accelerator: str
    count: int | None
    start: int
    end: int


def _count_value(word: str) -> int | None:
    w = word.lower().strip()
    if w in ("a single", "single", "one"):
        return 1
    if w.isdigit():
        return int(w)
    v = _SMALL.get(w)
    return int(v) if isinstance(v, (int, float)) and v >= 1 else None


def hardware_mentions(text: str, names: list[Span], start: int, end: int) -> list[Hardware]:
    """Hardware named in ``text[start:end]``: systems first, then counted accelerators."""
    out: list[Hardware] = []
    taken: list[tuple[int, int]] = []
    for n in names:
        if n.kind == "system" and start <= n.start and n.end <= end:
            acc, count = n.name.split(":")
            label = _SPACES_RE.sub(" ", text[n.start:n.end])
            out.append(Hardware(f"{count} x {acc} ({label})", acc, int(count), n.start, n.end))
            taken.append((n.start, n.end))
    acc_ends = {n.end for n in names if n.kind == "accelerator"}
    for n in names:
        if n.kind != "accelerator" or not (start <= n.start and n.end <= end):
            continue
        if any(s <= n.start < e for s, e in taken):
            continue
        gap = n.start
        while gap > start and text[gap - 1] in " \t":
            gap -= 1
        if gap < n.start and gap in acc_ends:
            continue    # "RTX PRO 6000 Blackwell": the family word describes the part before it
        count = None
        hs, he = n.start, n.end
        before = _COUNT_BEFORE_RE.search(text[max(start, n.start - 20):n.start])
        if before and _MACHINES_AFTER_RE.match(text, n.end, end) \
                and not _COUNTS_CHIPS_RE.search(before.group(0)):
            # "two H200 nodes" counts machines; "an eight-GPU H200 server", "8x H200 node"
            # count the accelerators
            before = None
        if before:
            count = _count_value(before.group("count"))
            hs = n.start - (len(text[max(start, n.start - 20):n.start]) - before.start())
        else:
            after = _COUNT_AFTER_RE.match(text[n.end:min(end, n.end + 30)])
            if after:
                count = int(after.group("count"))
                he = n.end + after.end()
        label = f"{count} x {n.name}" if count else n.name
        out.append(Hardware(label, n.name, count, hs, he))
    out.sort(key=lambda h: h.start)
    return out


def nearest(items: list, pos: int, end: int, own: tuple[int, int] | None = None):
    """The item closest to the figure [pos, end); on a tie, the one before it.

    ``own`` is the stretch between the previous figure and the next one in the sentence,
    when there is a previous one: in "499,715 for A and 471,578 for B" what follows a
    figure, before the next, is its own, and what precedes it belongs to the one before."""
    if own is not None:
        after = [it for it in items if it[0] >= end and it[1] <= own[1]]
        if after:
            return min(after, key=lambda it: it[0])
    best = None
    best_d = None
    for it in items:
        s, e = it[0], it[1]
        d = pos - e if e <= pos else (s - end if s >= end else 0)
        d = d if e <= pos else d + 0.5  # prefer mentions before the figure on a tie
        if best_d is None or d < best_d:
            best, best_d = it, d
    return best






# The sentence readers below take ``lower``, a lower-cased copy of the text, or None (see
# pipeline/vocab/caseless.py); matched words are read from ``text`` by their spans.
def parallelism(text: str, start: int, end: int, lower: str | None = None) -> str | None:
    if not _PARALLEL_HINT_RE.search(text, lower, start, end):
        return None
    found = [_parallel_name(text[m.start():m.end()])
             for m in _PARALLEL_RE.finditer(text, lower, start, end)]
    return ", ".join(dict.fromkeys(found)) or None


def _parallel_name(s: str) -> str:
    """One spelling per degree: "32-way EP", "EP=32", "32-way expert parallelism" -> EP32."""
    m = _WAY_RE.match(s)
    if m:
        kind = m.group(2)
        return _KIND_OF_WAY.get(kind.lower(), kind.upper()) + m.group(1)
    return _SPACES_RE.sub("", s).replace("=", "")


def concurrency(text: str, start: int, end: int, lower: str | None = None) -> tuple[float | None, float | None]:
    conc = batch = None
    for m in _CONCURRENCY_RE.finditer(text, lower, start, end):
        n = _num(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4"))
        if n is None:
            continue
        if _BATCH_WORD_RE.match(m.group(0)) or (m.group("n4") and m.group(0).lower().startswith("batch")):
            batch = batch if batch is not None else n
        else:
            conc = conc if conc is not None else n
    return conc, batch


def isl_osl(text: str, start: int, end: int, lower: str | None = None) -> tuple[float | None, float | None]:
    m = _ISL_OSL_RE.search(text, lower, start, end)
    if not m:
        part = (lower or text.lower())[start:end]
        if not any(cue in part for cue in _LENGTH_CUES):
            return None, None
        i = o = None
        for m in _ONE_LENGTH_RE.finditer(text, lower, start, end):
            mi, mo = _lengths_of(m)
            i = i if i is not None else _num(mi or "")
            o = o if o is not None else _num(mo or "")
        return i, o
    i, o = _lengths_of(m)
    return _num(i), _num(o)


def _lengths_of(m: re.Match[str]) -> tuple[str | None, str | None]:
    """The input and output lengths, as written, a match of ``_ISL_OSL_RE`` or
    ``_ONE_LENGTH_RE`` holds (both name their alternatives' groups i, i2 … and o, o2 …)."""
    groups = m.groupdict()
    return (next((groups[g] for g in ("i", "i2", "i3", "i4") if groups.get(g)), None),
            next((groups[g] for g in ("o", "o2", "o3", "o4") if groups.get(g)), None))


def price_basis(vocab: Vocab, text: str, start: int, end: int,
                own: tuple[int, int] | None = None, first: bool = True) -> str | None:
    """What a price is at ("at off-peak prices", "on-demand", "(cache hit)") in
    ``text[start:end]``. ``own``: the figure's (start, end), when ``start``/``end`` are its
    own words: the words after it are read first, so that in "$0.14/M (cache hit), $0.55/M
    (cache miss)" each price has its own; ``first``: no figure before it in its sentence."""
    m = _PRICE_AT_RE.search(text, start, end)
    if m:
        return _SPACES_RE.sub(" ", m.group(0)[3:]).strip()
    if own is not None:
        fig_start, fig_end = own
        # the words before it only where no other figure's words stand there
        return vocab.price_basis.first(text[fig_end:end]) or (
            vocab.price_basis.first(text[start:fig_start]) if first else None)
    return vocab.price_basis.first(text[start:end])


def model_size(model: str) -> float | None:
    """The parameter count a model's own name states ("Llama 2 70B" -> 7e10)."""
    m = _PARAM_SIZE_RE.search(model)
    if not m:
        return None
    return float(m.group(1)) * (1e9 if m.group(2) == "B" else 1e12)


def model_at_size(model: str, size: str) -> str:
    """The model of ``model``'s family and version at the size ``size`` ("8B"): its own
    size replaced ("Llama-70B" -> "Llama-8B", "Meta-Llama-3-8B-Instruct" ->
    "Meta-Llama-3-70B-Instruct"), or appended to a name that states none ("Llama3" ->
    "Llama3 8B")."""
    m = _PARAM_SIZE_RE.search(model)
    if m is None:
        return f"{model} {size}"
    return model[:m.start()] + size + model[m.end():]


SETTING_FIELDS = ("parallelism", "concurrency", "batch_size", "isl", "osl")
# settings that say the same kind of thing: a row that states one of a group has its own
SETTING_GROUPS = {"concurrency": ("concurrency", "batch_size"), "batch_size": ("concurrency", "batch_size"),
                  "isl": ("isl", "osl"), "osl": ("isl", "osl"), "parallelism": ("parallelism",)}
# "batch size 1 to 64", "1, 8 and 64": more values of the same setting (not "64 and 8
# concurrent requests", another setting's value)
_SWEEP_AFTER_RE = re.compile(r"\s*(?:to|through|[-–—]|and|or|,)\s*\d[\d,.]*[kK]?(?![\d.])"
                             r"(?!\s*(?:concurrent|users|requests|input|output|prompt|tokens?|GPUs?|x\b|ms\b|s\b))", re.I)


def settings_in(text: str, start: int = 0, end: int | None = None, lower: str | None = None) -> dict:
    """The workload settings ``text[start:end]`` states, as Claim fields: a row label's
    "BS=64" or "ISL 1k / OSL 1k", a header's "@ 32 users", a sentence's "with batch size 64"."""
    end = len(text) if end is None else end
    conc, batch = concurrency(text, start, end, lower)
    isl, osl = isl_osl(text, start, end, lower)
    if conc is None:
        m = _USERS_CELL_RE.search(text[start:end])
        conc = _num(m.group(1) or m.group(2)) if m else None
    got = {"parallelism": parallelism(text, start, end, lower), "concurrency": conc, "batch_size": batch,
           "isl": isl, "osl": osl}
    return {k: v for k, v in got.items() if v is not None}


def agreed_settings(text: str) -> dict:
    """The settings a caption or the paragraph before a table states once: a field named
    with two different values ("batch sizes 1 and 64", "ISL 1k and 8k") is a sweep whose
    rows say which, so it gives none."""
    if not text:
        return {}
    out = settings_in(text)
    seen: dict[str, set] = {}
    for m in _CONCURRENCY_RE.finditer(text, None, 0, len(text)):
        n = _num(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4") or "")
        if n is not None:
            key = "batch_size" if _BATCH_WORD_RE.match(m.group(0)) else "concurrency"
            seen.setdefault(key, set()).add(n)
            if _SWEEP_AFTER_RE.match(text, m.end()):
                seen[key].add(-1.0)    # "batch size 1 to 64": a sweep
    pairs = []
    for m in _ISL_OSL_RE.finditer(text, None, 0, len(text)):
        pairs.append((m.start(), m.end()))
        i, o = _lengths_of(m)
        seen.setdefault("isl", set()).add(_num(i))
        seen.setdefault("osl", set()).add(_num(o))
    for m in _ONE_LENGTH_RE.finditer(text, None, 0, len(text)):
        if any(a < m.end() and m.start() < b for a, b in pairs):
            continue    # "ISL/OSL: 1024/256" is one pair, not an OSL of 1024
        i, o = _lengths_of(m)
        if i:
            seen.setdefault("isl", set()).add(_num(i))
        if o:
            seen.setdefault("osl", set()).add(_num(o))
    pars = []
    for m in _PARALLEL_RE.finditer(text, None, 0, len(text)):
        if text[max(0, m.start() - 1):m.start()] in ("-", "_", ".", "/", "`") or \
                text[m.end():m.end() + 1] in ("-", "_", ".", "/", "`"):
            pars.append(None)   # "cp311-cp311", "--tp 8": a file name or a flag, no layout
        else:
            pars.append(_parallel_name(text[m.start():m.end()]))
    if None in pars or len(set(pars)) > 1:
        seen["parallelism"] = set(pars) | {None, ""}
    # "batch sizes of 1, 8 and 64": a list after a plural setting word is a sweep
    if re.search(r"(?i)\b(?:batch\s+sizes|concurrenc(?:ies|y\s+levels)|(?:input|output|sequence)\s+lengths)\b", text):
        for k in ("batch_size", "concurrency", "isl", "osl"):
            seen.setdefault(k, set()).update({None, -1.0})
    return {k: v for k, v in out.items() if len(seen.get(k, ())) <= 1}


def setting_spans(text: str):
    """Matches of every setting phrase in ``text`` (loads, lengths, parallelism): the numbers
    a unit of settings may hold."""
    for rx in (_CONCURRENCY_RE, _ISL_OSL_RE, _ONE_LENGTH_RE, _PARALLEL_RE):
        yield from rx.finditer(text, None, 0, len(text))
    yield from _USERS_CELL_RE.finditer(text)


_GPU_COUNT_RE = re.compile(r"(?i)(?<![\w.])(\d{1,3})\s*(?:x\s*|-\s*)?(?:GPUs?|accelerators?|chips|cards)\b")


def gpu_count(text: str) -> int | None:
    """The number of accelerators a row label or header names without naming which: "8
    GPUs", "4-GPU", "2x GPU" (one count only; "1 or 8 GPUs" gives none)."""
    found = {int(m.group(1)) for m in _GPU_COUNT_RE.finditer(text)}
    return found.pop() if len(found) == 1 else None
