"""Quantity keys and subject normalisation.

Two claims can only be compared when they measure the same quantity of the same subject
(docs/claims-model.md §3). The extractor already gives canonical names; this module only removes what
spelling can still vary (case, spacing, punctuation, an owner's possessive) and expands
named systems into "N x ACC" so that "DGX B200" and "8 x B200" are one configuration.
Everything is cached: a corpus holds few distinct names but millions of claims.
"""
from __future__ import annotations

import re
from functools import lru_cache

from pipeline.model import Claim

# Owner words that precede a model name without being part of it ("Meta's Llama 4").
_OWNER_PREFIXES = ("meta", "nvidia", "moonshot ai", "moonshotai")

# Named systems -> (count, accelerator). Only names whose size is fixed by the product.
_SYSTEMS: dict[str, tuple[int, str]] = {
    "dgx b200": (8, "B200"), "hgx b200": (8, "B200"),
    "dgx b300": (8, "B300"), "hgx b300": (8, "B300"),
    "dgx h100": (8, "H100"), "hgx h100": (8, "H100"),
    "dgx h200": (8, "H200"), "hgx h200": (8, "H200"),
    "dgx a100": (8, "A100"), "hgx a100": (8, "A100"),
    "gb200 nvl72": (72, "GB200"), "gb300 nvl72": (72, "GB300"),
    "dgx gb200": (72, "GB200"), "dgx gb300": (72, "GB300"),
    "vera rubin nvl72": (72, "Rubin"), "rubin nvl72": (72, "Rubin"),
    "vera rubin nvl144": (144, "Rubin"),
}

_ENGINE_ALIASES = {
    "trt llm": "tensorrt-llm", "trtllm": "tensorrt-llm", "tensorrt llm": "tensorrt-llm",
    "tensorrt-llm": "tensorrt-llm", "sgl": "sglang", "text generation inference": "tgi",
    "dynamo trt llm": "dynamo tensorrt-llm", "dynamo tensorrt llm": "dynamo tensorrt-llm",
}

_HW_RE = re.compile(r"^\s*(\d+)\s*[x×*]\s*(.+?)\s*$", re.I)
_SEP_RE = re.compile(r"[\s_\-/,:;()\[\]\"']+")


@lru_cache(maxsize=65536)
def norm(text: str | None) -> str | None:
    """Case, spacing and punctuation folded away; dots kept (they separate versions)."""
    if text is None:
        return None
    t = text.strip().lower().replace("’", "'")
    t = re.sub(r"\b[\w.]+'s\s+", "", t)          # possessive owner: "meta's llama" -> "llama"
    t = _SEP_RE.sub(" ", t).strip(" .")
    return t or None


@lru_cache(maxsize=65536)
def model_key(model: str | None) -> str | None:
    """Canonical key of a model name: 'Meta Llama-4 Maverick' -> 'llama 4 maverick'."""
    t = norm(model)
    if t is None:
        return None
    for p in _OWNER_PREFIXES:
        if t.startswith(p + " ") and len(t) > len(p) + 1:
            t = t[len(p) + 1:]
            break
    return t


@lru_cache(maxsize=65536)
def accelerator_key(acc: str | None) -> str | None:
    """'NVIDIA B300 GPUs' -> 'B300'; case and spacing removed."""
    t = norm(acc)
    if t is None:
        return None
    t = re.sub(r"^nvidia\s+|^amd\s+|\s*(gpus?|chips?|accelerators?)$", "", t)
    return t.replace(" ", "").upper() or None


_LABEL_RE = re.compile(r"\s*\(([^()]*)\)\s*$")


def _vocab_system(text: str) -> tuple[int, str] | None:
    """(count, accelerator) of a named system in the shared hardware vocabulary, if the
    whole text is one ("GB300 NVL72", "MI300X node"); None when the vocabulary is absent."""
    try:
        from pipeline.vocab.loader import load
        systems = load().systems
    except Exception:   # pragma: no cover - the vocabulary ships with the package
        return None
    t = text.strip()
    for pat, acc, n in systems:
        if pat.fullmatch(t):
            return (n, acc)
    return None


def system_key(text: str | None) -> tuple[int, str] | None:
    """A named system's (count, accelerator): the vocabulary first, then a small table."""
    if not text:
        return None
    hit = _vocab_system(text)
    if hit:
        return (hit[0], accelerator_key(hit[1]) or hit[1].upper())
    h = norm(text) or ""
    for name, (n, acc) in _SYSTEMS.items():
        if h == name or h.startswith(name + " "):
            return (n, acc.upper())
    return None


@lru_cache(maxsize=65536)
def hardware_key(hardware: str | None, hw_count: int | None = None,
                 accelerator: str | None = None) -> tuple[int | None, str] | None:
    """(count, accelerator) of a configuration; count None when only the chip is known.

    Accepts the extractor's "N x ACC" form, optionally followed by the system's label in
    parentheses ("72 x GB300 (GB300 NVL72)": the label is dropped, the count stands), and
    named systems ("DGX B200" = 8 x B200, "GB300 NVL72" = 72 x GB300). "2 x GB300 NVL72"
    counts two racks; "72 x GB300 NVL72" is one rack written with its size.
    """
    if hardware:
        label = _LABEL_RE.search(hardware)
        bare = hardware[:label.start()] if label and label.start() > 0 else hardware
        sysk = system_key(bare)
        if sysk:
            return sysk
        m = _HW_RE.match(bare)
        if m:
            n, inner = int(m.group(1)), m.group(2)
            sub = system_key(inner)
            if sub:
                return (n if n == sub[0] else n * sub[0], sub[1])
            return (n, accelerator_key(inner) or inner.upper())
        if label and label.start() == 0:   # "(GB300 NVL72)" alone
            return hardware_key(label.group(1), hw_count, accelerator)
        acc = accelerator_key(bare)
        if acc:
            return (hw_count, acc)
    if accelerator:
        return (hw_count, accelerator_key(accelerator) or accelerator)
    return None


def hw_key(c: Claim) -> tuple[int | None, str] | None:
    """(count, accelerator) of a figure; '72 x GB300 (GB300 NVL72)' is read without its
    parenthesis."""
    hw = re.sub(r"\s*\(.*\)\s*$", "", c.hardware) if c.hardware else c.hardware
    return hardware_key(hw or None, c.hw_count, c.accelerator)


def hardware_text(key: tuple[int | None, str] | None) -> str | None:
    """Readable form of a hardware key: (8, 'B200') -> '8 x B200'."""
    if key is None:
        return None
    return f"{key[0]} x {key[1]}" if key[0] is not None else key[1]


@lru_cache(maxsize=4096)
def engine_key(engine: str | None) -> str | None:
    """'TRT-LLM' -> 'tensorrt-llm'; 'Dynamo SGLang' stays distinct from 'SGLang'."""
    t = norm(engine)
    if t is None:
        return None
    return _ENGINE_ALIASES.get(t, t)


@lru_cache(maxsize=4096)
def basis_key(per_basis: str | None) -> str | None:
    """'per GPU-hour' and 'per GPU hour' -> 'gpuhour'."""
    t = norm(per_basis)
    if t is None:
        return None
    t = re.sub(r"^(per|a|an|each)\s+", "", t)
    return t.replace(" ", "").replace(".", "") or None


# stored denominators that state none ('unspecified' behaves like absent; the SQL
# checker reads this too)
UNSAID_SCOPES = ("", "unspecified")


def scope_key(scope: str | None) -> str | None:
    """None for a scope nothing in the text states."""
    return None if scope is None or scope in UNSAID_SCOPES else scope


HARDWARE_FAMILIES = frozenset({"memory", "bandwidth", "compute"})


def subject_key(c: Claim) -> str | None:
    """The blocking subject: the model, else the hardware configuration, else None.

    Memory, bandwidth and compute describe the accelerator, whatever model ran on it: their
    subject is the accelerator alone (how many of them is part of what they measure, see
    measure.py). A claim with no subject is never linked pairwise; it can still be derived
    or be unsourced.
    """
    if c.family in HARDWARE_FAMILIES:
        hw = hardware_key(c.hardware, c.hw_count, c.accelerator)
        if hw:
            return "h:" + hw[1]
    m = model_key(c.model)
    if m:
        return "m:" + m
    hw = hardware_key(c.hardware, c.hw_count, c.accelerator)
    if hw:
        return "h:" + (hardware_text(hw) or "")
    return None


def unit_key(c: Claim) -> str:
    """Canonical unit, with the price basis for money (per GPU-hour vs per 1M tokens)."""
    u = norm(c.unit) or ""
    if c.family == "money":
        b = basis_key(c.per_basis)
        if b:
            u = f"{u}/{b}"
    return u


def quantity_key(c: Claim) -> str:
    """family|scope|statistic|phase|token kind|subject — what a figure measures.

    Missing parts are written as '*': a claim that leaves them open can still match a
    claim that states them (for support), which is why the blocking subject, not this
    full key, is the unit of relinking.
    """
    parts = (c.family, scope_key(c.scope), norm(c.statistic), norm(c.phase),
             norm(c.token_kind), subject_key(c))
    return "|".join(p if p else "*" for p in parts)


def subject_of_key(qkey: str) -> str | None:
    """The subject part of a quantity key ('*' -> None)."""
    s = qkey.rsplit("|", 1)[-1]
    return None if s == "*" else s


COMPARED_FAMILIES = frozenset({"ratio", "percent"})


@lru_cache(maxsize=65536)
def baseline_key(baseline: str | None) -> str | None:
    """'vLLM v0.5' -> 'vllm v0.5'; engine aliases folded ('TRT-LLM' -> 'tensorrt-llm')."""
    t = norm(baseline)
    if t is None:
        return None
    t = _ENGINE_ALIASES.get(t, t)
    # spacing folded away: PDF text runs words together ("DeepSeek67B")
    return t.replace(" ", "") or None


def _baseline_match(a: str, b: str) -> bool:
    """One baseline names the other: 'vllm' and 'vllmv0.5', 'h100' and '8xh100'."""
    return a in b or b in a


def comparison_differs(q: Claim, p: Claim) -> list[tuple[str, str]]:
    """How a comparison ``p`` stands to ``q`` (docs/claims-model.md §3: for ratios and percents the
    baseline, the measured quantity and the direction must agree too).

    Returns (what, how) pairs, how being ``open`` (``q`` states it, ``p`` does not),
    ``unstated`` (``p`` states which way it goes or what it measures, ``q`` does not: "93.3%
    vs DeepSeek 67B" cannot be confirmed by "93.3% lower"), ``differs`` or ``reversed`` (same baseline and quantity, opposite direction: the two
    contradict each other whatever their numbers). A baseline ``q`` leaves unsaid is no
    condition. Both the checker and the linker read this one rule.
    """
    if q.family not in COMPARED_FAMILIES or p.family not in COMPARED_FAMILIES:
        return []
    out: list[tuple[str, str]] = []
    qb, pb = baseline_key(q.baseline), baseline_key(p.baseline)
    if qb is not None:
        if pb is None:
            out.append(("baseline", "open"))
        elif not _baseline_match(qb, pb):
            out.append(("baseline", "differs"))
    if q.measures is not None:
        if p.measures is None:
            out.append(("measured quantity", "open"))
        elif q.measures != p.measures:
            out.append(("measured quantity", "differs"))
    elif p.measures is not None:
        out.append(("measured quantity", "unstated"))
    if q.direction is not None:
        if p.direction is None:
            out.append(("direction", "open"))
        elif q.direction != p.direction and not any(h == "differs" for _, h in out):
            out.append(("direction", "reversed"))
    elif p.direction is not None:
        out.append(("direction", "unstated"))
    return out


# Which tokens a phase counts: decode emits output tokens, prefill reads input tokens.
_PHASE_KIND = {"decode": "output", "prefill": "input"}


def token_kind_key(c: Claim) -> str | None:
    """The tokens a figure counts, stated or implied by its phase ("7,583 tokens/s per GPU"
    in decode counts output tokens, so it is not an input-token rate) or by its scope (a
    user's speed is the rate its answer streams out: output tokens)."""
    return kind_of(c.token_kind, c.phase, c.scope if c.family == "token_throughput" else None)


def kind_of(token_kind: str | None, phase: str | None, scope: str | None = None) -> str | None:
    """``token_kind_key`` over the stored columns (the SQL checker classifies each distinct
    triple with it); ``scope`` only for a token throughput."""
    return norm(token_kind) or _PHASE_KIND.get(norm(phase) or "") or \
        ("output" if scope == "per_user" else None)


def hardware_relation(q: tuple[int | None, str] | None, p: tuple[int | None, str] | None) -> str:
    """How a figure's hardware key stands to a claim's: ``ok`` (the same accelerator, and the
    same count where both state one: a bare "B200" holds for any count of it, as in
    linking), ``open`` (the figure names none) or ``bad``. The checker and its SQL path
    both classify with this one rule."""
    if q is None:
        return "ok"
    if p is None:
        return "open"
    if q[0] is not None and p[0] is not None and q[0] != p[0]:
        return "bad"
    if q[1] == p[1]:
        return "ok"
    # "on AMD GPUs" holds for an MI300X; a figure "on NVIDIA GPUs" does not say it was an H100
    families = _hardware_families()
    if p[1] in families.get(q[1], ()):
        return "ok"
    if q[1] in families.get(p[1], ()):
        return "open"
    return "bad"


@lru_cache(maxsize=1)
def _hardware_families() -> dict[str, frozenset[str]]:
    """Architecture and vendor names -> the accelerators they stand for (vocab/hardware.toml
    ``[families]``), written as ``hw_key`` writes accelerators."""
    try:
        from pipeline.vocab.loader import load
        fams = load().hardware_families
    except Exception:   # pragma: no cover - the vocabulary ships with the package
        return {}
    return {accelerator_key(k): frozenset(accelerator_key(p) for p in v) for k, v in fams.items()}


def same_setting(a: float, b: float) -> bool:
    """Two stated settings (concurrency, batch size, lengths, load) are the same value; the
    linker, the checker and its SQL path all compare settings with this."""
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
