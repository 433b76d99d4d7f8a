"""Plain words for figures: numbers, denominators, conditions and sources.

Shared by check, trace and the reports so that a figure reads the same everywhere.
"""
from __future__ import annotations

import math
import re

from pipeline.link.keys import hw_key  # noqa: F401  (its home is link/keys; report reads it here)
from pipeline.model import Claim

SCOPE_WORDS = {
    "per_user": "per user", "per_gpu": "per GPU", "per_node": "per node",
    "per_system": "per system", "aggregate": "in aggregate", "unspecified": "with no denominator",
}
SCOPE_NOUNS = {
    "per_user": "per-user", "per_gpu": "per-GPU", "per_node": "per-node",
    "per_system": "per-system", "aggregate": "aggregate",
}
COMPARATOR_WORDS = {">": "more than", ">=": "at least", "<": "less than", "<=": "at most",
                    "~": "about", "=": ""}
FAMILY_NOUNS = {
    "token_throughput": "throughput", "request_throughput": "request rate",
    "latency": "latency", "ratio": "ratio", "percent": "percentage", "money": "price",
    "parameters": "model size", "tokens": "token count", "memory": "memory",
    "bandwidth": "bandwidth", "compute": "compute", "power": "power",
}

# Money figures carry a label the extractor does not keep: is it revenue, profit, cost or a
# price? Two figures with different labels are different quantities even at equal value.
_LABELS = (
    ("revenue", re.compile(r"\b(?:revenue|earn(?:s|ed|ing)?|income|sales|takes?\s+in)\b", re.I)),
    ("profit", re.compile(r"\b(?:profits?|margins?|net)\b", re.I)),
    ("cost", re.compile(r"\b(?:costs?|costing|spend(?:s|ing)?|expenses?|tco)\b", re.I)),
    ("price", re.compile(r"\b(?:prices?|priced|pricing|charges?|charged|list\s+rate)\b", re.I)),
)
# A cost of training a model is another quantity than a cost of serving it.
_TRAINING = re.compile(r"\b(?:train(?:s|ed|ing)?|pre-?train\w*|fine-?tun\w*|RL\s+run)\b", re.I)
_SERVING = re.compile(r"\b(?:serv(?:e|es|ed|ing)|inference|per\s+(?:million\s+)?tokens?|API)\b", re.I)
_NEGATED_LABEL = re.compile(r"\b(?:neither|nor|not|no)\b[^.;]{0,40}$", re.I)


def money_label(sentence: str | None, at: int | None = None) -> str | None:
    """revenue | profit | cost | training cost | price: the label word nearest the figure.

    ``at`` is the figure's offset inside ``sentence``. Words under a negation ("calls it
    neither revenue, profit nor cost") label nothing.
    """
    if not sentence:
        return None
    best: tuple[int, str] | None = None
    for label, rx in _LABELS:
        for m in rx.finditer(sentence):
            if _NEGATED_LABEL.search(sentence[:m.start()]):
                continue
            dist = abs(m.start() - at) if at is not None else m.start()
            if best is None or dist < best[0]:
                best = (dist, label)
    if best is None:
        return None
    if best[1] == "cost" and _TRAINING.search(sentence) and not _SERVING.search(sentence):
        return "training cost"
    return best[1]


def fmt_number(v: float | None, unit: str | None = None) -> str:
    """1094347 -> '1,094,347'; 2.8e12 count -> '2.8T'; 38.96 USD -> '$38.96'."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "?"
    if unit == "count" and abs(v) >= 1e9:
        for div, suffix in ((1e12, "T"), (1e9, "B")):
            if abs(v) >= div:
                return f"{v / div:.4g}{suffix}"
    if abs(v) >= 1000 and v == int(v):
        text = f"{int(v):,}"
    elif v == int(v):
        text = str(int(v))
    else:
        text = f"{v:,.4g}" if abs(v) < 1000 else f"{v:,.1f}"
    if unit == "USD":
        return "$" + text
    return text


def fmt_value(v: float | None, unit: str | None) -> str:
    """A number with its unit, for figures no surface text describes."""
    num = fmt_number(v, unit)
    if unit in (None, "", "count", "USD"):
        return num
    if unit in ("%", "x"):
        return num + unit
    return f"{num} {unit}"


def value_words(c: Claim) -> str:
    """The number as the claim wrote it, with its canonical unit: '954K tokens/s', '$38'."""
    if c.low is not None and c.high is not None and c.low != c.high:
        num = f"{fmt_number(c.low, c.unit)} to {fmt_number(c.high, c.unit)}"
    else:
        num = c.value_text if c.value_text and re.search(r"\d", c.value_text) else \
            fmt_number(c.value, c.unit)
    if c.unit == "USD":
        return num if num.startswith("$") else "$" + num
    if c.family == "parameters":
        return f"{num} parameters"
    if c.family == "tokens":
        return f"{num} tokens"
    if c.unit in ("%", "x"):
        return num + c.unit
    if c.value_text and c.unit_text and c.unit_text.strip() and num == c.value_text:
        # the number as written goes with the unit as written: "20 ms", not "20 s"
        return f"{num} {' '.join(c.unit_text.split())}"
    return f"{num} {c.unit}" if c.unit and c.unit != "count" else num


def params_text(v: float | None) -> str:
    return fmt_number(v, "count") if v else "?"


def scope_words(scope: str | None) -> str:
    return SCOPE_WORDS.get(scope or "unspecified", scope or "")


def _mentions_scope(text: str, scope: str | None) -> bool:
    t = text.lower()
    if scope == "per_user":
        return "user" in t
    if scope == "per_gpu":
        return "gpu" in t
    return False


def figure_text(c: Claim, with_scope: bool = True) -> str:
    """The figure as written, plus its denominator when the words do not say it."""
    text = c.surface
    if c.family == "money" and c.per_basis and c.per_basis.lower() not in text.lower():
        text += f" per {c.per_basis}"
    elif with_scope and c.scope and c.scope != "unspecified" and not _mentions_scope(text, c.scope) \
            and c.family in ("token_throughput", "request_throughput", "money"):
        if not (c.family == "money" and c.per_basis):
            text += " " + scope_words(c.scope)
    return text


def conditions(c: Claim, size: float | None = None, skip: tuple[str, ...] = ()) -> list[str]:
    """Conditions worth naming beside a figure: model (size), statistic, hardware, engine..."""
    out: list[str] = []
    if c.family == "parameters":
        size = None
    if c.model and "model" not in skip:
        out.append(c.model + (f", {params_text(size)} parameters" if size else ""))
    elif size and "model" not in skip:
        out.append(f"{params_text(size)} parameters")
    if c.statistic and "statistic" not in skip:
        out.append(c.statistic.upper() if re.fullmatch(r"p\d+", c.statistic) else c.statistic)
    if c.hardware and "hardware" not in skip:
        out.append("on " + re.sub(r"\s*\(.*\)$", "", c.hardware))
    if c.engine and "engine" not in skip:
        out.append(c.engine)
    if c.concurrency is not None and "concurrency" not in skip:
        out.append(f"concurrency {fmt_number(c.concurrency)}")
    if c.phase and "phase" not in skip:
        out.append(c.phase)
    return out


def comparison_text(c: Claim) -> str:
    """' higher throughput than vLLM' for a ratio or percent that compares (else '')."""
    if c.family not in ("ratio", "percent"):
        return ""
    parts = []
    if c.direction:
        parts.append({"up": "higher", "down": "lower"}.get(c.direction, c.direction))
    if c.measures:
        parts.append(c.measures)
    if c.baseline:
        parts.append(("than " if c.direction else "vs ") + c.baseline)
    return (" " + " ".join(parts)) if parts else ""


def describe(c: Claim, size: float | None = None) -> str:
    """'826 tokens/s per user (DeepSeek-V4.1-Flash, 552B parameters, P90, on 4 x B300)'."""
    conds = conditions(c, size)
    text = figure_text(c) + comparison_text(c)
    return f"{text} ({', '.join(conds)})" if conds else text


def cite(doc, page: int | None = None) -> str:
    """'vLLM, vllm-deepseek-v4-1-flash.md' (with the page for PDFs)."""
    where = doc.path + (f", p. {page}" if page else "")
    who = doc.publisher or doc.title
    return f"{who}, {where}" if who else where


def trimmed_quote(quote: tuple[str, str, str], width: int) -> tuple[str, str, str]:
    """(before, figure, after) of a quoted sentence, white space folded and each side cut
    to half of ``width`` around the figure."""
    before, fig, after = quote
    before, after = " ".join(before.split()), " ".join(after.split())
    if len(before) > width // 2:
        before = "…" + before[-width // 2:]
    if len(after) > width // 2:
        after = after[:width // 2] + "…"
    return before, fig, after


_URL_BAD = re.compile(r"[\x00-\x20\x7f-\x9f\"'<>\\`{}|^]")


def safe_url(url: str | None) -> str | None:
    """``url`` when it may become a link in a report: an http(s) address with a host and
    nothing a browser or a Markdown reader would take for markup (quotes, angle brackets,
    spaces and control characters percent-encoded); None for anything else (``javascript:``,
    ``data:``, ``file:``, relative or scheme-less text), which is shown as text only."""
    from urllib.parse import urlsplit

    if not url:
        return None
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return _URL_BAD.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode("utf-8")),
                        parts.geturl())
