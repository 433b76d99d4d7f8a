"""What a figure measures beyond its family, read from the words around it.

docs/claims-model.md §3: two claims measure the same quantity when family, scope, statistic, phase and
subject agree. For throughput, latency and money the family and scope say enough; for the
generic families they do not. "93.3%" and "42.5%" in one sentence about DeepSeek-V2 are a
KV-cache reduction and a training-cost saving; "236B" and "21B" are total and activated
parameters; "2048" and "128" are an input and an output length; "80 GB" and "192 GB" in one
table row belong to different accelerators. So each claim gets a *measure*:

* ``comparable`` - whether the text establishes what the figure measures well enough to
  relate it (supports/restates/conflicts/mismatch) to a figure of another document at all;
* ``what`` - a tuple that two comparable figures must share (position by position; a part
  left open, ``None``, matches anything for support but only ``None`` for conflict);
* ``soft`` - parts that must agree where both figures state them, for support and for
  conflict alike.

The rules per family:

* ``ratio``/``percent``: comparable only when the extractor read what it measures
  (throughput, latency, training cost, memory, ...) *and* its baseline ("than A100", "over
  TP16", "compared with DeepSeek 67B"; extract/comparison.py); ``what`` = (measured
  quantity, baseline key, direction). Derived checks do not depend on this.
* ``parameters``: one stated size of at least a million - not a range ("Qwen1.5 (0.5B -
  110B)"), a threshold ("models larger than 67B"), one of a row of sizes (a table across
  models), a citation year ("2024b"), a number inside a model name ("DeepSeek 67B",
  "MoE-16B"), or a bare size other than the one the model's name carries ("Llama 3 8B and
  70B"); ``what`` = (kind,) with kind total / activated / a named component (main model,
  MTP module, backbone, ...) or open. A document that gives one model several sizes of one
  kind ("Llama3 (8B, 70B)") names variants: its figures may support but never conflict.
* ``tokens``: only context lengths and aggregate totals (training corpus, processed), with
  the same token kind; workload settings (input/output lengths, chunk and batch sizes, the
  claim's own ISL/OSL) are conditions, not claims to relate.
* ``memory``/``bandwidth``/``compute``: only when the sentence states the figure of the
  claim's accelerator ("The H200 has 141 GB", the only accelerator named, or "410 TFLOPS
  ... on H800"); a figure that is part of a product's name ("A100-80GB", "H100 (80 GB)"
  in a list) is a variant label, not a claim; relative amounts ("64GB more", "34GB free")
  and one side of "8 TB/s vs 4.8 TB/s" are not comparable either. ``what`` = (kind, device
  or aggregate, where, ...) with kind device/host/KV cache/weights memory, memory/
  interconnect/achieved bandwidth, achieved/peak compute; a device figure holds for any
  count of the device, an aggregate one for its count. An achieved figure (a kernel's
  result) also needs whose result it is (technique, engine or model); FLOP/s are dense
  unless the text says sparse, and a kernel's number format must agree only where both
  state it (``soft``).

Everything here is per claim, from the claim's own sentence, so it is computed once in
``prepare`` (the variant rule looks at the claim's document on the same subject, which
relinking always loads together).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipeline.model import Claim

from .keys import HARDWARE_FAMILIES as HW_FAMILIES, accelerator_key, baseline_key, model_key, norm

GENERIC_FAMILIES = frozenset({"token_throughput", "request_throughput", "latency", "money",
                              "power"})
MIN_PARAMETERS = 1e6


@dataclass(frozen=True, slots=True)
class Measure:
    comparable: bool = True
    what: tuple = ()
    soft: tuple = ()             # parts that must agree where both state them, even to conflict


OPEN = Measure()
NOT_COMPARABLE = Measure(False, ())


# --- the figure's own clause ----------------------------------------------------------

_HARD_BREAK = re.compile(r"[;|\n•●▪■]|\s[-–—]\s|:\s")
_SOFT_BREAK = re.compile(r",\s|\(|\)|\s(?:and|while|whereas|but)\s")
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class Context:
    """The sentence split around the figure: ``before``/``after`` up to a hard break
    (line, bullet, semicolon, table cell), ``left``/``right`` only to the nearest clause
    break or other number, which is what the figure's own words are."""

    sentence: str
    start: int
    end: int
    before: str
    after: str
    left: str
    right: str


def _locate(c: Claim) -> tuple[str, int, int] | None:
    s = c.sentence
    if not s:
        return None
    if c.sentence_start is not None:
        a, b = c.start - c.sentence_start, c.end - c.sentence_start
        if 0 <= a <= b <= len(s) and s[a:b] == c.surface:
            return s, a, b
    i = s.find(c.surface)
    if i < 0:
        return None
    return s, i, i + len(c.surface)


def context(c: Claim) -> Context | None:
    loc = _locate(c)
    if loc is None:
        return None
    s, a, b = loc
    return _context(s, a, b)


@lru_cache(maxsize=65536)
def _context(s: str, a: int, b: int) -> Context:
    head, tail = s[:a], s[b:]
    hb = [m.end() for m in _HARD_BREAK.finditer(head)]
    before = head[hb[-1]:] if hb else head
    m = _HARD_BREAK.search(tail)
    after = tail[:m.start()] if m else tail
    cuts = [x.end() for x in _SOFT_BREAK.finditer(before)] + \
        [x.end() for x in _NUMBER.finditer(before)]
    left = before[max(cuts):] if cuts else before
    ends = [x.start() for x in _SOFT_BREAK.finditer(after)] + \
        [x.start() for x in _NUMBER.finditer(after)]
    right = after[:min(ends)] if ends else after
    return Context(s, a, b, before, after, left, right)


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_TOKEN = re.compile(r"[a-z0-9]+(?:[-_/.][a-z0-9]+)*|\$")


class _Names:
    """Names given by words and phrases, looked up word by word (a claim's words are read
    for many names: one pass over its words instead of one regex search per name).

    Each name has entries separated by "|": a word, a phrase of words, or a word ending in
    "*" that any word starting with it matches ("decod*" matches "decoding").
    """

    def __init__(self, table: tuple[tuple[str, str], ...]):
        self.names = [n for n, _ in table]
        self.rank = {n: i for i, n in enumerate(self.names)}
        self.exact: dict[tuple[str, ...], str] = {}
        self.prefix: dict[str, list[tuple[str, str]]] = {}
        self.starts: set[str] = set()
        for name, entries in table:
            for e in entries.split("|"):
                words = tuple(e.split())
                if len(words) == 1 and words[0].endswith("*"):
                    w = words[0][:-1]
                    self.prefix.setdefault(w[:2], []).append((w, name))
                else:
                    self.exact.setdefault(words, name)
                    if len(words) > 1:
                        self.starts.add(words[0])

    def found(self, text: str) -> set[str]:
        toks = _TOKEN.findall(text.lower())
        out: set[str] = set()
        exact, prefix, starts = self.exact, self.prefix, self.starts
        for i, t in enumerate(toks):
            n = exact.get((t,))
            if n:
                out.add(n)
            if t in starts:
                for k in (2, 3):
                    n = exact.get(tuple(toks[i:i + k]))
                    if n:
                        out.add(n)
            for p, name in prefix.get(t[:2], ()):
                if t.startswith(p):
                    out.add(name)
        return out

    def first(self, text: str) -> str | None:
        """The earliest-listed name found in the text (the list is in priority order)."""
        hits = self.found(text)
        return min(hits, key=self.rank.__getitem__) if hits else None


# --- ratios and percents ---------------------------------------------------------------

def _ratio_measure(c: Claim, ctx: Context | None) -> Measure:
    """A comparison relates to another only when both say what they measure and against
    what; the extractor read both, with its direction (extract/comparison.py: one reading
    for the linker and the checker)."""
    base = baseline_key(c.baseline)
    if not c.measures or not base:
        return NOT_COMPARABLE
    return Measure(True, (c.measures, base, c.direction or "-"))


# --- parameters --------------------------------------------------------------------------

_PARAM_KINDS = _Names((
    ("activated", "activ*|per token|for each token|each token"),
    ("total", "total*"),
    ("mtp", "mtp|multi-token prediction"),
    ("main model", "main model"),
    ("embedding", "embedding*|non-embedding"),
    ("backbone", "backbone*"),
    ("experts", "expert|experts"),
    ("shared", "shared"),
    ("module", "module"),
    ("draft", "draft*"),
    ("vision", "vision*|encoder*"),
))
# The word right before a figure when the figure is part of a model's name.
_NAME_BEFORE = re.compile(
    r"(?:^|[^\w.])([A-Za-z][\w.]*)(?:\s+\d[\d.]*)?[ \t-]$|\d[x×]$")
_NOT_NAMES = frozenset({
    "the", "a", "an", "with", "has", "have", "had", "of", "at", "only", "its", "is", "are",
    "was", "about", "around", "over", "under", "up", "to", "all", "and", "or", "from", "by",
    "as", "than", "on", "in", "for", "its", "just", "nearly", "almost", "roughly", "some",
    "total", "activated", "active", "approximately", "approx", "comprises", "contains",
    "includes", "uses", "size", "sized", "param", "params", "parameters", "paramsx",
})


def _param_kind(c: Claim, ctx: Context | None) -> str | None:
    texts = [c.unit_text or ""]
    if ctx is not None:
        texts += [ctx.right, ctx.left]
    for t in texts:
        kind = _PARAM_KINDS.first(t)
        if kind:
            return kind
    return None


def param_kind(c: Claim) -> str | None:
    """Which parameters a count counts (total, activated, a component), from its words;
    the linker and the checker both read this."""
    return _param_kind(c, context(c))


def name_part(ctx: Context | None) -> bool:
    """Is the figure the size in a model's name ("DeepSeek 67B", "MoE-16B", "8x22B")?"""
    if ctx is None:
        return False
    m = _NAME_BEFORE.search(ctx.before)
    if not m:
        return False
    word = m.group(1)
    if word is None:
        return True
    if word.lower() in _NOT_NAMES:
        return False
    return any(ch.isupper() for ch in word) or any(ch.isdigit() for ch in word)


_NAME_SIZE = re.compile(r"(?<![\w.])(a?)(\d+(?:\.\d+)?)\s?([mbt])\b", re.I)
_SCALE = {"m": 1e6, "b": 1e9, "t": 1e12}
_ROW_SIZES = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?[BMT]\b")


def _in_row_of_sizes(ctx: Context) -> bool:
    """Is the figure one of three or more sizes in a row with no words between them (a
    table row across models, a list of variants)?"""
    a = ctx.sentence.rfind("\n", 0, ctx.start) + 1
    b = ctx.sentence.find("\n", ctx.end)
    line = ctx.sentence[a:b if b >= 0 else len(ctx.sentence)]
    hits = list(_ROW_SIZES.finditer(line))
    run: list[re.Match] = []
    for m in hits:
        if run and re.search(r"[A-Za-z]", line[run[-1].end():m.start()]):
            if len(run) >= 3 and any(x.start() <= ctx.start - a < x.end() for x in run):
                return True
            run = []
        run.append(m)
    return len(run) >= 3 and any(x.start() <= ctx.start - a < x.end() for x in run)


_PARAM_WORD = re.compile(r"param", re.I)
_CITATION_YEAR = re.compile(r"^(?:19|20)\d\d[a-z]$")


def name_sizes(model: str | None) -> tuple[tuple[float, str | None], ...]:
    """Sizes written in a model's name: 'Qwen3-235B-A22B' -> ((235e9, None), (22e9,
    'activated')); '8x22B' counts as 22B (the name of an expert, not a size claim)."""
    if not model:
        return ()
    return tuple((float(m.group(2)) * _SCALE[m.group(3).lower()],
                  "activated" if m.group(1) else None)
                 for m in _NAME_SIZE.finditer(model))


def _parameters_measure(c: Claim, ctx: Context | None) -> Measure:
    if c.value is None or abs(c.value) < MIN_PARAMETERS or name_part(ctx):
        return NOT_COMPARABLE
    if c.low is not None and c.high is not None and c.low != c.high:
        return NOT_COMPARABLE        # "Qwen1.5 (0.5B - 110B)": a range of variants
    if c.comparator not in ("=", "~"):
        return NOT_COMPARABLE        # "models larger than 67B": a class, not a size
    if ctx is not None and _in_row_of_sizes(ctx):
        return NOT_COMPARABLE        # "#TotalParams 67B 72B 70B 236B": one per column
    if _CITATION_YEAR.match((c.value_text or c.surface or "").strip()):
        return NOT_COMPARABLE        # "2024b" is a citation, not 2,024 billion
    sizes = name_sizes(c.model)
    if sizes and not any(abs(c.value - v) <= 0.05 * v for v, _ in sizes) \
            and not _PARAM_WORD.search(f"{c.surface} {c.unit_text or ''} "
                                       f"{ctx.right[:24] if ctx else ''}"):
        return NOT_COMPARABLE        # "Llama 8B and 70B": a bare 70B is another variant
    return Measure(True, (_param_kind(c, ctx),))


# --- token counts ------------------------------------------------------------------------

_TOKEN_CONTEXT = _words(r"context|max(?:imum)?\s+(?:sequence|model)\s+length")
_TOKEN_TOTAL = _words(r"\btrain|pre-?train|corpus|\btotal\b|processed|\bserved\b|"
                      r"\bcumulative|\baltogether")
_TOKEN_SETTING = _words(
    r"\binput|\boutput|\bprompt|\bisl\b|\bosl\b|\bchunk|\bbatch|\bgeneration\s+length|"
    r"\bgenerat|\bpacked|\bblock|\bpage|\bwindow\s+size|\bprefill|\bdecode|\bper\s+request|"
    r"\bper\s+step|\bstride|\bbudget")


def _tokens_measure(c: Claim, ctx: Context | None) -> Measure:
    if ctx is None:
        return NOT_COMPARABLE
    if c.value is not None and any(v is not None and abs(v - c.value) < 0.5
                                   for v in (c.isl, c.osl)):
        return NOT_COMPARABLE
    own = ctx.left + " " + (c.unit_text or "") + " " + ctx.right
    if _TOKEN_SETTING.search(own):
        return NOT_COMPARABLE
    if _TOKEN_CONTEXT.search(own):
        kind = "context"
    elif _TOKEN_TOTAL.search(own):
        kind = "total"
    else:
        return NOT_COMPARABLE
    return Measure(True, (kind, norm(c.token_kind) or "-"))


# --- memory, bandwidth, compute -------------------------------------------------------------

_RELATIVE = _words(r"\b(?:more|less|higher|lower|extra|additional|free|sav(?:e|es|ed|ing)|"
                   r"reduc\w*|increas\w*|decreas\w*|per\s+token|per\s+request|per\s+sequence|"
                   r"used|usage|consum\w*|footprint|occup\w*|remaining|left|spare|overhead|"
                   r"gains?|improv\w*|up\s+from|down\s+from)\b")
_MEMORY_KINDS = _Names((
    ("host", "rdimm|ddr*|dram|cpu|host|system memory|ram|ssd*|disk*|storage|nvme"),
    ("kv cache", "kv cache|kv-cache|kvcache"),
    ("weights", "weights|parameters|model size|checkpoint*"),
    ("cache", "cache|sram|l2|shared memory"),
))
_BANDWIDTH_KINDS = _Names((
    ("nvlink", "nvlink*|nvl|nvswitch"),
    ("pcie", "pcie*"),
    ("infiniband", "infiniband|ib|ndr|hdr|xdr"),
    ("ethernet", "ethernet|roce|nic|nics"),
    ("c2c", "c2c"),
    ("xgmi", "xgmi|infinity fabric"),
    ("network", "network*|interconnect*|scale-out|scaleout|scale-up|scaleup|rdma"),
    ("achieved", "achiev*|kernel*|memory-bound|memory-intensive|reach*|attain*|measured|"
                 "sustain*|effective"),
    ("memory", "memory*|hbm*"),
))
_COMPUTE_KINDS = _Names((
    ("achieved", "achiev*|kernel*|compute-bound|computation-bound|reach*|attain*|measured|"
                 "sustain*|effective|utiliz*|utilis*|mfu"),
))
_SPARSITY = _words(r"\b(?:sparse|sparsity|dense)\b")
_FORMATS = _words(r"\b(?:fp4|nvfp4|mxfp4|fp6|fp8|bf16|fp16|tf32|fp32|fp64|int4|int8)\b")


def _accelerator_mentions(sentence: str) -> list[tuple[int, int, str]]:
    try:
        from pipeline.vocab.loader import load
        pats = load().accelerators
    except Exception:   # pragma: no cover
        return []
    return [(a, b, accelerator_key(name) or name) for a, b, name in pats.finditer(sentence)]


_PAIRED = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with))\s*$", re.I)
_PAIRED_AFTER = re.compile(r"\s*(?:vs\.?|versus)\s", re.I)
_GAP_WORDS = re.compile(r"\b(?:vs|versus|and|or|than|but|while)\b", re.I)


_SKU_GAP = re.compile(r"^[\s(\-–,@]*(?:(?:SXM\d?|PCIe|NVL|HBM\d?e?|OAM|GPUs?|with)[\s(\-–,@]*)*$",
                      re.I)


def _hardware_stated_here(hw: tuple[int | None, str], ctx: Context) -> str | None:
    """How the claim's accelerator is named in its sentence: None when it is not (or
    another accelerator owns the figure), "label" when the figure is part of the product's
    name ("A100-80GB", "H100 SXM 80GB", "A100 (40GB)": a variant, not a statement),
    "stated" when the sentence states it of that accelerator ("The H200 has 141 GB", the
    only accelerator in the sentence, or "410 TFLOPS ... on H800" with no figure between).
    """
    mentions = _accelerator_mentions(ctx.sentence)
    accs = {m[2] for m in mentions}
    if hw[1] not in accs:
        return None
    before = [m for m in mentions if m[1] <= ctx.start]
    if before:
        a, b, acc = before[-1]
        gap = ctx.sentence[b:ctx.start]
        if _SKU_GAP.match(gap):
            return "label" if acc == hw[1] else None
        if len(gap) <= 12 and not _NUMBER.search(gap) and not _GAP_WORDS.search(gap):
            return "stated" if acc == hw[1] else None   # "H200 has 141 GB"
    if len(accs) == 1:
        return "stated"
    after = [m for m in mentions if m[0] >= ctx.end]
    if after:
        a, b, acc = after[0]
        gap = ctx.sentence[ctx.end:a]
        if acc == hw[1] and len(gap) <= 60 and not _NUMBER.search(gap) \
                and not _GAP_WORDS.search(gap) and a - ctx.end <= len(ctx.after):
            return "stated"
    return None


def _kind(names: _Names, text: str) -> str | None:
    return names.first(text)


_AGGREGATE = _words(r"\b(?:rack|racks|node|nodes|system|systems|cluster|server|servers|pod|"
                    r"aggregate|total|combined|altogether|in\s+all)\b")
_PER_DEVICE = _words(r"\b(?:each|per[\s-](?:gpu|device|chip|accelerator|card)|single)\b")
_CORES = _words(r"\b(?:non-tensor|cuda)\s+cores?|\btensor\s*cores?")


def _scope_class(c: Claim, ctx: Context) -> str:
    """device (one accelerator's figure) or aggregate (a node's, rack's, cluster's): the
    scope the extractor read, else the last scope word before the figure in its stretch."""
    if c.scope in ("per_node", "per_system", "aggregate"):
        return "aggregate"
    if c.scope == "per_gpu":
        return "device"
    text = ctx.before + " " + ctx.right
    last = max(((m.start(), "aggregate") for m in _AGGREGATE.finditer(text)),
               default=(-1, "device"))
    dev = max(((m.start(), "device") for m in _PER_DEVICE.finditer(text)), default=(-1, ""))
    return dev[1] if dev[0] > last[0] else last[1]


def _hw_measure(c: Claim, ctx: Context | None, hw) -> Measure:
    if ctx is None or hw is None or c.implied or not (c.unit_text or "").strip():
        return NOT_COMPARABLE
    how = _hardware_stated_here(hw, ctx)
    if how != "stated":
        return NOT_COMPARABLE   # not this accelerator's, or part of a product name
    if _PAIRED.search(ctx.before) or _PAIRED_AFTER.match(ctx.after):
        return NOT_COMPARABLE   # "8 TB/s vs 4.8 TB/s": one side is some other hardware
    own = ctx.left + " " + (c.unit_text or "") + " " + ctx.right
    tail = " ".join(ctx.left.split()[-2:])
    if _RELATIVE.search(tail + " " + (c.unit_text or "") + " " + ctx.right):
        return NOT_COMPARABLE   # "64GB more HBM", "34GB free", "saves 10 GB"
    lead = own + " " + ctx.before
    wide = ctx.before + " " + ctx.after
    scope = _scope_class(c, ctx)
    # a device figure holds for any count of the device; an aggregate one for this count
    where = (None, hw[1]) if scope == "device" else hw
    if c.family == "memory":
        kind = _kind(_MEMORY_KINDS, own) or _kind(_MEMORY_KINDS, wide) or "device"
        whose = model_key(c.model) if kind in ("weights", "kv cache") else None
        return Measure(True, (kind, scope, where, whose or "-"))
    if c.family == "bandwidth":
        kind = _kind(_BANDWIDTH_KINDS, lead) or "peak"
    else:
        kind = _kind(_COMPUTE_KINDS, lead) or "peak"
    subject = None
    if kind == "achieved":   # a kernel's or engine's result: it needs to say whose
        subject = technique_key(c.technique) or norm(c.engine) or model_key(c.model)
        if subject is None:
            return NOT_COMPARABLE
    if c.family == "bandwidth":
        return Measure(True, (kind, scope, where, subject or "-"))
    fmt = norm(c.dtype) or (m.group(0).lower() if (m := _FORMATS.search(wide)) else None)
    # FLOP/s are quoted dense unless the text says sparse ("with sparsity")
    sparse = "sparse" if (m := _SPARSITY.search(wide)) and m.group(0).lower() != "dense" \
        else "dense"
    cores = m.group(0).lower() if (m := _CORES.search(wide)) else None
    if cores:
        cores = "tensor" if cores.startswith("tensor") else "cuda"
    if kind == "achieved":
        # the kernel fixes its number format: a result that does not repeat it can still be
        # contradicted, but two that state different formats are different results
        return Measure(True, (kind, scope, where, subject, sparse, cores or "-"),
                       soft=(fmt,))
    return Measure(True, (kind, scope, where, "-", sparse, cores or "-", fmt or "-"))


# Kernel libraries named after the technique they implement: the same subject.
_TECHNIQUE_ALIASES = {"flashmla": "mla", "flash mla": "mla", "flashattention": "attention",
                      "flash attention": "attention", "flashinfer": "flashinfer"}


def technique_key(t: str | None) -> str | None:
    k = norm(t)
    return _TECHNIQUE_ALIASES.get(k, k) if k else None


def measure(c: Claim, hw: tuple[int | None, str] | None = None) -> Measure:
    """The comparability measure of one claim (``hw`` is its hardware key)."""
    fam = c.family
    if fam in GENERIC_FAMILIES:
        return OPEN
    ctx = context(c)
    if fam in ("ratio", "percent"):
        return _ratio_measure(c, ctx)
    if fam == "parameters":
        return _parameters_measure(c, ctx)
    if fam == "tokens":
        return _tokens_measure(c, ctx)
    if fam in HW_FAMILIES:
        return _hw_measure(c, ctx, hw)
    return OPEN


def support_compatible(x: tuple, y: tuple) -> bool:
    """Every part agrees where both state it (``None`` is open)."""
    return len(x) == len(y) and all(a is None or b is None or a == b for a, b in zip(x, y))
