"""What a ratio or percent compares: direction, measured quantity and baseline.

"DeepSpeed-FastGen provides up to 2.3x higher effective throughput than vLLM" is a figure
on DeepSpeed-FastGen whose direction is ``up``, which measures ``throughput`` and whose
baseline is vLLM. A reader who is told "2x slower than vLLM" must not hear it confirmed
by that figure, and a check of "60% of training costs" must not be met by "59.8%
agreement". So every ratio and percent keeps these three facts, read here from the words
around it (the vocabulary is ``vocab/comparisons.toml``), and the checker and the linker
compare them (``pipeline.link.keys.comparison_key``).

The reading is local on purpose: the figure's own clause, up to the previous and next
figure, and a sentence-opening "Compared with X," phrase. What is not written there stays
None ("not stated"), which the checker treats as open, never as agreement.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pipeline.vocab.firstchars import lookahead
from pipeline.vocab.loader import load_raw

AFTER_REACH = 90      # characters after the figure that can hold its direction and baseline
BEFORE_REACH = 60     # characters before it ("reduces latency by 50%", "a speedup of 2x")
BY_REACH = 160        # characters before "by N%" that can hold the verb it completes
_BY_RE = re.compile(r"\bby\s+(?:(?:up\s+to|about|around|roughly|nearly|almost|over|more\s+than|"
                    r"approximately|~|an?\s+(?:average|additional|extra)\s+of)\s*)?$", re.I)
_GENERIC_SPEED = re.compile(r"(?i)faster|slower|quicker|speed|speed-?ups?")
# a condition phrase after a figure: "reduces TTFT by 50% at all QPS levels"
_CONDITION_PHRASE = re.compile(r"\b(?:at|under|across|when|while|using|on)\s", re.I)
_COORD = re.compile(r"\b(?:and|or|but|while|whereas|with)\b", re.I)
_CLAUSE_END = re.compile(r"[;:!?]|\.(?:\s|$)|,\s+(?:and|but|while|whereas|which)\b|\n\s*\n")
_PHRASE_STOP = re.compile(
    r"[,;:()\[\]|!?]|\.(?:\s|$)|\s(?:on|at|with|for|in|when|while|under|across|using|by|and|"
    r"or|but|which|where|that|to|from|as|if|because|is|are|was|were|within|thanks|due|after|"
    r"before|has|have|had|will|would|can|could|does|do|did)(?:\s|[.,;]|$)", re.I)
# "8x the goodput of vLLM", "3 times that of TGI": what follows "of" is the baseline
_THE_OF = re.compile(r"\s*(?:times\s+)?(?:the|that)\s+(?:[\w/-]+\s+){0,3}?of\s+", re.I)
# "1.5x vLLM's performance", "3.4 times TGI's goodput": the possessor is the baseline
_POSSESSOR = re.compile(r"\s*(?:times\s+)?((?=[\w.+-]*[A-Z0-9])[A-Za-z][\w.+-]*(?:[ -][A-Z0-9][\w.+-]*){0,2})(?:'s|’s)\s")
_MULTIPLE_END = re.compile(r"(?:[x×]|\btimes|\btwice|\bthrice|\bdouble|\btriple|\bquadruple)\s*$", re.I)
_FILLER = re.compile(r"^(?:the|a|an|its|their|our|that\s+of|those\s+of|other|existing|"
                     r"standard|baseline|default|previous|prior|original|popular)\s+", re.I)


@dataclass(frozen=True)
class Comparison:
    direction: str | None           # up | down | None
    measures: str | None            # throughput, latency, cost, training cost, ... | None
    baseline: str | None            # the compared-against phrase as written, cleaned
    baseline_span: tuple[int, int] | None
    not_performance: bool = False   # a share of accuracy, agreement, ...: no claim


@dataclass(frozen=True)
class _Words:
    direction: list[tuple[str, re.Pattern[str]]]
    measures: list[tuple[str, re.Pattern[str]]]
    not_performance: re.Pattern[str]
    after: re.Pattern[str]
    before: re.Pattern[str]
    obj: re.Pattern[str]
    obj_down: re.Pattern[str]


def _alt(patterns: list[str]) -> str:
    """One case-blind pattern for a list of words, led by a look-ahead for their first letters."""
    body = "(?:" + "|".join(f"(?:{p})" for p in patterns) + ")"
    return r"\b" + lookahead(body, re.I) + body + r"(?![\w-])"


@lru_cache(maxsize=1)
def words() -> _Words:
    raw = load_raw("comparisons")
    return _Words(
        direction=[(k, re.compile(_alt(v), re.I)) for k, v in raw["direction"].items()],
        measures=[(k, re.compile(_alt(v), re.I)) for k, v in raw["measures"].items()],
        not_performance=re.compile(_alt(raw["not_performance"]["words"]), re.I),
        after=re.compile(r"\s*(?:" + "|".join(raw["baseline"]["after"]) + r")\b\s*", re.I),
        before=re.compile(r"(?:^|[,;(.]\s*|\b(?:and|but|[Ii]n\s*practice)\s*)(?:"
                          + "|".join(raw["baseline"]["before"]) + r")\s*([^,;.]{1,80}?)\s*,", re.I),
        # "outperforms vLLM by up to 4x"; "outperforms vLLM, achieving up to 3.1x higher"
        obj=re.compile(r"\b(" + "|".join(raw["baseline"]["object"]) + r")\s+([^,;.]{1,60}?)"
                       r"(?:\s+by|\s*,?\s+(?:achiev\w*|deliver\w*|reach\w*|offer\w*|provid\w*|"
                       r"yield\w*|post\w*|with))\s+"
                       r"(?:(?:up\s+to|about|around|roughly|nearly|almost|over|more\s+than|as\s+much\s+as"
                       r"|at\s+least)\s+)?[~≈]?\s*$", re.I),
        obj_down=re.compile(_alt(raw["baseline"]["object_down"]), re.I),
    )


def _first(items: list[tuple[str, re.Pattern[str]]], text: str, last: bool = False):
    """(name, match) of the earliest (or latest) hit of any list in ``text``; on a tie of
    position, the list named first wins. The latest is the one ending last, and of those
    the longest ("training costs" over "costs")."""
    return _pick(items, text, last, lambda m: True)


def _later(m: re.Match[str], best: re.Match[str]) -> bool:
    return (m.end(), -m.start()) > (best.end(), -best.start())


def _pick(items, text: str, last: bool, keep):
    best = None
    for name, rx in items:
        for m in rx.finditer(text):
            if not keep(m):
                continue
            if best is None or (_later(m, best[1]) if last else m.start() < best[1].start()):
                best = (name, m)
            if not last:
                break
    return best


def _specific(items: list[tuple[str, re.Pattern[str]]], text: str, last: bool = False):
    """``_first`` over the hits that name a quantity, not only a speed."""
    return _pick(items, text, last, lambda m: not _GENERIC_SPEED.fullmatch(m.group(0)))


def _clause(text: str, start: int, end: int) -> int:
    """Where the clause starting at ``start`` ends (at most ``end``)."""
    m = _CLAUSE_END.search(text, start, end)
    return m.start() if m else end


def _phrase(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The noun phrase at ``start``: up to a comma, a preposition or the clause end."""
    m = _PHRASE_STOP.search(text, start, end)
    stop = m.start() if m else end
    s, e = start, stop
    while s < e and text[s] in " \t*_\"'“”‘’`":
        s += 1
    while e > s and text[e - 1] in " \t*_\"'“”‘’`.":
        e -= 1
    if e <= s:
        return None
    return s, e


def clean_baseline(phrase: str) -> str:
    phrase = " ".join(phrase.replace("**", " ").split())
    while True:
        stripped = _FILLER.sub("", phrase)
        if stripped == phrase:
            return phrase
        phrase = stripped


def read(text: str, start: int, end: int, s_start: int, s_end: int,
         prev_end: int, next_start: int) -> Comparison:
    """The comparison a ratio or percent at ``text[start:end]`` makes, read from its
    sentence ``text[s_start:s_end]``; ``prev_end``/``next_start`` bound its own words
    where other figures share the sentence."""
    w = words()
    a_end = min(s_end, next_start, end + AFTER_REACH)
    a_end = _clause(text, end, a_end)
    after = text[end:a_end]
    b_start = max(s_start, prev_end, start - BEFORE_REACH)
    before = text[b_start:start]
    cut = None
    for m in _CLAUSE_END.finditer(before):
        cut = m.end()
    if cut is not None:
        b_start += cut
        before = before[cut:]
    if prev_end > s_start:
        # "4.48x higher goodput and 10.2x more stringent SLO": what precedes "and" is the
        # previous figure's
        coord = None
        for m in _COORD.finditer(before):
            coord = m.end()
        if coord is not None:
            b_start += coord
            before = before[coord:]

    # baseline: "than X", "over X", "vs X" after the figure; else "Compared with X," first
    baseline = span = None
    bm = _THE_OF.match(after) or w.after.search(after)
    # only a multiple is "of" a possessor: "1.5x vLLM's", "twice TGI's"; in "doubles
    # SGLang's decoding throughput" the possessor's own quantity is what changed
    pm = None if bm or not _MULTIPLE_END.search(text, start, end) else _POSSESSOR.match(after)
    head = after[:bm.end() if bm and bm.re is _THE_OF else bm.start()] if bm else after
    verb_down = None
    if bm:
        span = _phrase(text, end + bm.end(), a_end)
    elif pm:
        span = (end + pm.start(1), end + pm.end(1))
    else:
        om = w.before.search(text[s_start:start])
        if om:
            span = (s_start + om.start(1), s_start + om.end(1))
        else:
            # "outperforms vLLM by up to 4x": the verb's object is the baseline
            vm = w.obj.search(text, max(s_start, start - BEFORE_REACH - 40), start)
            if vm:
                span = (vm.start(2), vm.end(2))
                verb_down = bool(w.obj_down.fullmatch(vm.group(1)))
    if span is not None:
        baseline = clean_baseline(text[span[0]:span[1]]) or None
        if baseline is None or baseline[0].isdigit():
            # "2x faster, at over 10,000 tokens/s": a comparator before a number
            baseline = span = None

    # direction and measured quantity: the figure's own words after it (before the
    # baseline), else the words just before it ("reduces latency by 50%")
    # "reduce the latency by up to 2x and boost throughput by 2.5x": a figure that completes
    # "by" is the change its verb and noun before it name; the words after it are the next
    # clause's
    by_form = bool(_BY_RE.search(before))
    d = _first(w.direction, before, last=True) if by_form else None
    d = d or _first(w.direction, head)
    direction = d[0] if d else None
    if direction is None and verb_down is not None:
        direction = "down" if verb_down else "up"
    if direction is None and (pm is not None or bm is not None and bm.re is _THE_OF):
        direction = "up"     # "8x the goodput of vLLM", "1.5x vLLM's" are multiples of it
    if direction is None:
        d = _first(w.direction, before, last=True)
        direction = d[0] if d else None
    if direction is None and _BY_RE.search(before):
        # "improves the throughput of running Llama 70B models on 4xH100 by 28%": the verb
        # that "by" completes may stand further back than the usual reach, in its clause
        far = text[max(s_start, prev_end, start - BY_REACH):start]
        far = far[max((m.end() for m in _CLAUSE_END.finditer(far)), default=0):]
        d = _first(w.direction, far, last=True)
        direction = d[0] if d else None
    # "faster" says only that something sped up: the quantity named beside it says what
    # did ("5.1x faster TTFT", "the first token arrives 5.1x faster")
    # ("at all QPS levels" after the figure is a condition of it, not what it measures)
    cond_at = _CONDITION_PHRASE.search(head)
    own = head[:cond_at.start()] if cond_at else head
    m = (_specific(w.measures, before, last=True) if by_form else None) \
        or _specific(w.measures, own) or _specific(w.measures, before, last=True) \
        or _first(w.measures, own) or _first(w.measures, before, last=True)
    measures = m[0] if m else None
    if measures == "latency" and d is not None and _GENERIC_SPEED.fullmatch(d[1].group(0)):
        # a time that comes "5.1x faster" is 5.1x shorter: latency goes down
        direction = "up" if d[1].group(0).lower() == "slower" else "down"
    # the clause before the figure, past any figure before it: "scores of 55.6% and 56.0%"
    # are both scores
    whole = text[max(s_start, start - BEFORE_REACH):start]
    whole = whole[max((m.end() for m in _CLAUSE_END.finditer(whole)), default=0):]
    np_hit = w.not_performance.search(head) or w.not_performance.search(whole)
    not_perf = bool(np_hit) and measures is None
    return Comparison(direction, measures, baseline, span, not_perf)



def quantity_named(text: str) -> tuple[str | None, str | None]:
    """(a specific measured quantity, any measured quantity) ``text`` names, read as a
    ratio's own words are: "TPS/User Speedup" -> (throughput, throughput); "Speedup" alone
    -> (None, throughput), a speed word saying only that something sped up."""
    w = words()
    spec, any_ = _specific(w.measures, text), _first(w.measures, text)
    return (spec[0] if spec else None), (any_[0] if any_ else None)


def direction_named(text: str) -> tuple[str | None, bool]:
    """(up | down | None, whether the word is a bare speed word: "speedup", "faster",
    "slower", whose direction turns over for a time)."""
    d = _first(words().direction, text)
    if d is None:
        return None, False
    return d[0], bool(_GENERIC_SPEED.fullmatch(d[1].group(0)))


def phrase_after(text: str, start: int) -> str | None:
    """The noun phrase a baseline word introduces ("FP16" in "(FP8 v.s. FP16)", "vLLM" in
    "speedup over vLLM on 8 GPUs"): up to a bracket, comma or preposition, cleaned as a
    baseline; None for a number ("over 10,000")."""
    span = _phrase(text, start, len(text))
    if span is None:
        return None
    phrase = clean_baseline(text[span[0]:span[1]])
    return phrase if phrase and not phrase[0].isdigit() else None


def quantity_words() -> list[re.Pattern[str]]:
    """The patterns of every measured quantity's words."""
    return [rx for _, rx in words().measures]
