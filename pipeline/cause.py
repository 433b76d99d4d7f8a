"""What a change is credited to: "vLLM's multi-step scheduling raised throughput by 28%".

A ratio or percent that reports a change is a claim about its cause as much as about its
size: the 28% that multi-step scheduling brought is no evidence that asynchronous output
processing brought 28%. A headline's cause is the phrase before its change verb, less the
names the vocabularies know (engine, model, hardware: conditions of their own) and filler
words. A figure supports such a headline only where (two thirds of) the content words of
the cause are written in what leads up to the figure: its sentence, its section from the heading on, or
its document's title (``Checker.compare`` opens the condition otherwise).
"""
from __future__ import annotations

import re
from functools import lru_cache

# the verbs that report a change credited to what stands before them
CHANGE_VERB_RE = re.compile(
    r"\b(?:improv|rais|lift|boost|increas|cut|reduc|lower|speed|sped|accelerat|deliver|"
    r"give|gave|yield|bring|brought|add|save|saving|slash|shrink|shrank|halv|doubl|tripl|"
    r"drive|drove|push|unlock|enabl|trim|shav|squeez|make|made)\w*", re.I)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+[A-Za-z][A-Za-z0-9]*")
FILLER = frozenset("""one two three four five six seven eight nine ten twelve sixteen
    a an the its their his her our this that these those new its own
    latest recent novel improved optimized optimised custom simple single just only also
    alone together combined with and or of for in on to by from
    optimization optimizations optimisation optimisations update updates upgrade upgrades
    release version change changes improvement improvements tweak tweaks work team
    engineers stack software approach technique techniques method methods""".split())
TECH = "qtechq"          # marks a technique's token (never an English word)
_LEAD_PHRASE_RE = re.compile(
    r"^\s*(?:on|in|at|with|under|across|for|after|over|compared\s+(?:with|to)|against|using|"
    r"from|during|when|while|since|thanks\s+to)\b[^,]*,", re.I)
LEAD_REACH = 2000       # characters before a figure that its section can span
_HEADING_RE = re.compile(r"(?m)^\s{0,3}#{1,6}\s")
_PARA_BREAK_RE = re.compile(r"\n[ \t]*\n")


def cause_of(text: str, fig_start: int, name_spans: list[tuple[int, int]]) -> str | None:
    """The cause a headline credits with its figure, or None: the words before the first
    change verb that precedes the figure, less known names, possessives and filler."""
    m = CHANGE_VERB_RE.search(text, 0, fig_start)
    if m is None or m.start() == 0:
        return None
    lead = list(text[:m.start()])
    for s, e in name_spans:
        if s < m.start():
            for i in range(s, min(e, m.start())):
                lead[i] = " "
    phrase = re.sub(r"(?:'s|’s)\b", " ", "".join(lead))
    # "On eight H200s, XQA lifts ...": a leading phrase sets conditions, it is no cause
    phrase = _LEAD_PHRASE_RE.sub("", phrase)
    words = content_words(phrase)
    return " ".join(words) if words else None


def canonical_techniques(text: str) -> str:
    """Each technique the vocabulary knows written as one token of its canonical name, so
    "prefill-decode disaggregation" and "P/D disaggregation" are the same word."""
    from pipeline.vocab.loader import load

    out, at = [], 0
    for s, e, name in load().techniques.finditer(text):
        out.append(text[at:s])
        out.append(" " + TECH + re.sub(r"\W", "", name.lower()) + " ")
        at = e
    out.append(text[at:])
    return "".join(out)


def content_words(phrase: str) -> list[str]:
    """The cause's words as written (case kept: an acronym is a name), less filler."""
    phrase = canonical_techniques(phrase).replace("-", " ")
    return [w for w in _WORD_RE.findall(phrase) if w.lower() not in FILLER and len(w) > 2]


def _stem(word: str) -> str:
    return word if len(word) <= 5 else word[:max(5, len(word) - 3)]


def is_name(word: str) -> bool:
    """"FSM", "FP8", "MLA": a word with two capitals or a digit names something."""
    return sum(ch.isupper() for ch in word) >= 2 or any(ch.isdigit() for ch in word)


def states_cause(cause: str, *places: str | None) -> bool:
    """Are the cause's words written in one of ``places`` (any form of a word:
    "scheduling" is met by "schedule")? Every name-like word must be, and two thirds of
    all, rounded up: a headline words a cause in its own way ("torch.compile
    integration"), but one shared word of three ("output" of "asynchronous output
    processing") names another cause."""
    return cause_in(cause, cause_hay(*places))


def cause_hay(*places: str | None) -> str:
    """``places`` as ``cause_in`` searches them: techniques as tokens, lower case, hyphens
    as spaces. It depends on the places alone, so a checker works it out once per primary
    figure rather than once per claim it compares with that figure."""
    return " ".join(canonical_techniques(p).lower().replace("-", " ") for p in places if p)


def cause_in(cause: str, hay: str) -> bool:
    """``states_cause`` on places already made into ``cause_hay``."""
    words, stems, names = _cause_words(cause)
    hit = {w: _starts_word(hay, s) for w, s in zip(words, stems)}
    if not all(hit[w] for w in names):
        return False
    return 3 * sum(hit.values()) >= 2 * len(words)


@lru_cache(maxsize=1024)
def _cause_words(cause: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The words of a cause that must be written, the stem each is found by, and the
    name-like ones among them (each must be found)."""
    words = cause.split()
    named = [w for w in words if w.startswith(TECH)]
    if named:
        words = named       # a technique the vocabulary knows is the cause; the rest is its wording
    return (tuple(words), tuple(_stem(w.lower()) for w in words),
            tuple(w for w in words if is_name(w)))


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"        # what ``re`` takes for ``\w`` in a str


def _starts_word(hay: str, stem: str) -> bool:
    """``re.search(r"\b" + re.escape(stem), hay)``, found with ``str.find`` (a pattern led
    by ``\b`` is tried at every position of the text; ``find`` skips to the stem)."""
    if not stem or not _is_word_char(stem[0]):
        return bool(re.search(r"\b" + re.escape(stem), hay))
    i = hay.find(stem)
    while i >= 0:
        if i == 0 or not _is_word_char(hay[i - 1]):
            return True
        i = hay.find(stem, i + 1)
    return False


def lead_in(text: str, sentence_end: int) -> str:
    """What leads up to a figure: its section from the last heading before it, at most
    ``LEAD_REACH`` characters back, through the end of its sentence; where no heading
    stands that close (slides, PDF pages, plain notes), its paragraph and the one before."""
    lo = max(0, sentence_end - LEAD_REACH)
    heads = list(_HEADING_RE.finditer(text, lo, sentence_end))
    if heads:
        return text[heads[-1].start():sentence_end]
    breaks = [m.end() for m in _PARA_BREAK_RE.finditer(text, lo, sentence_end)]
    if len(breaks) >= 2:
        lo = breaks[-2]
    return text[lo:sentence_end]


def states_phase(phase: str, text: str) -> bool:
    """Is ``phase`` ("decode") the phase of inference ``text`` (a figure's lead-in) last
    names? A ratio that says not which phase it is of ("The speedup reaches 25.5%") is of
    the phase its paragraph or section last named ("TBO's impact in the decode phase ..."),
    as a figure takes the model its section last named."""
    from pipeline.vocab.loader import load
    from pipeline.vocab.scan import fold

    last = None
    for _, _, name in load().phases.finditer(text, 0, len(text), fold(text)):
        if name in ("prefill", "decode"):
            last = name
    return last == phase
