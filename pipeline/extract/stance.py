"""Comparators, stance and attribution: how a document holds a figure, and whose it is.

"more than 1,000" is not "1,000"; "No document names a result past 1,000" asserts nothing
about 1,000; "the vLLM post reports 826" makes the post, not the writer, the source. These
cues sit in a few words around the figure, so each reader looks only at its own clause.
"""
from __future__ import annotations

import re

from pipeline.extract.numbers import ascii_lower
from pipeline.extract.patterns import INLINE_TAGS

# Patterns used inside functions, compiled once.
_SPACES_RE = re.compile(r"\s+")
_CREDITED_TO_RE = re.compile(r"\s*(?:credited|attributed)\s+to\s+(?P<who>(?:[A-Z][\w.\-]*(?:'s)?\s*){1,4})")
_CLAUSE_BREAK_RE = re.compile(r"[;:]|\bbut\b|\bwhile\b|\bwhereas\b")
_ELABORATED_RE = re.compile(r";|\bbut\b|\bwhile\b|\bwhereas\b")


_COMPARATORS = [
    (r"(?:not|isn't|aren't|wasn't|weren't|doesn't|don't|didn't)\s+as\s+\w+\s+as", "<"),
    (r"(?:(?:larger|bigger|faster|longer|wider|greater|higher|more)\s+than|over|above|exceed(?:s|ed|ing)?|surpass(?:es|ed|ing)?|top(?:s|ped)?|beyond|past|break(?:s|ing)?|broke|cross(?:es|ed|ing)?|north\s+of|in\s+excess\s+of|upwards\s+of|breach(?:es|ed)?)", ">"),
    (r"(?:at\s+least|no\s+less\s+than|a\s+minimum\s+of|min(?:imum)?\.?|reach(?:es|ed|ing)?|hit(?:s|ting)?)", ">="),
    (r"(?:up\s+to|as\s+(?:much|many|high|fast|large)\s+as|at\s+most|no\s+more\s+than|a\s+maximum\s+of|max(?:imum)?\.?|capped\s+at)", "<="),
    (r"(?:(?:less|fewer|lower|smaller|slower|shorter|cheaper)\s+than|under|below|sub-?|short\s+of)", "<"),
    (r"(?:about|around|roughly|nearly|almost|approximately|approx\.?|circa|ca\.|close\s+to|some|~|≈|an\s+estimated|on\s+the\s+order\s+of)", "~"),
]
# Run on lower-cased text: a case-blind scan of this many branches costs three times as much.
_COMP_WORD_RE = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?P<c{i}>{p})" for i, (p, _) in enumerate(_COMPARATORS)) + r")"
)
# what may stand between the comparator and the number: "about the", "up to **", "over $"
# or an inline HTML tag: "up to <u>3.45x</u>", "up to <b>2x</b>"
_COMP_FILLER_RE = re.compile(r"(?:\s+(?:the|a|an|of|just|only|roughly|nearly|about|around|some))*\s*[*_]*"
                             + INLINE_TAGS + r"\s*\\?\$?\s*", re.I)
_PLUS_AFTER_RE = re.compile(r"^\s?\+|^\s+or\s+(?:more|higher|above|greater)\b")
_LESS_AFTER_RE = re.compile(r"^\s+or\s+(?:less|lower|fewer|below)\b")

_BRACKETED_RE = re.compile(r"\([^()]*\)")
# ("without X" names a condition a figure was measured under, not a denial of it)
_NEG_RE = re.compile(
    r"\b(?:no|not|never|neither|nor|none|cannot|can't|isn't|wasn't|aren't|doesn't|didn't|don't|lacks?|fails?\s+to|nothing)\b",
    re.I,
)
# the cues of an estimate: they carry across a colon, the other hypothetical cues do not
# ("If you batch, it rises: we measured 900")
_ESTIMATE = (r"estimat(?:e|es|ed|ing)|project(?:s|ed|ing)?|predict(?:s|ed|ing)?|expected\s+to|"
             r"would|should|hypothetical(?:ly)?")
_ESTIMATE_RE = re.compile(r"\b(?:" + _ESTIMATE + r")\b", re.I)
_HYPO_RE = re.compile(
    r"\b(?:if|could|might|may|assum(?:e|es|ing|ption)|suppos(?:e|ing)|imagine|" + _ESTIMATE + r")\b",
    re.I,
)
_QUESTION_RE = re.compile(r"\b(?:whether|is\s+it|can\s+it|does\s+it)\b", re.I)
_REPORT_VERBS = (
    r"(?:reports?|reported|reporting|lists?|listed|says|said|states|stated|stating|claims?|claimed|"
    r"claiming|quotes?|quoted|"
    r"cites?|cited|announced|puts?|gives?|publishe[sd]|writes?|wrote|credits?|records?|shows?|showed)"
)
_REPORTER_RE = re.compile(
    r"(?<![\w.\-])(?P<who>(?:(?:[A-Z][\w.\-]*|[a-z][\w\-]*)(?:'s|’s)?\s+){0,3}?"
    r"(?:[A-Z][\w.\-]*[a-zA-Z]|[a-z]+[A-Z][\w.\-]*|post|blog|page|paper|report|document|article|coverage|team|announcement|benchmark|site|leaderboard|tracker|"
    r"datasheet|data\s+sheet|spec(?:s|ification|ifications)?|material|materials|documentation|docs|whitepaper|website))"
    # a bracket between the source and its verb: ", with [llm-d 0.3](https://…),"
    r"(?:\s*,[^,;]{1,160},)?\s+(?:also\s+|now\s+|only\s+|recently\s+|previously\s+|first\s+)?"
    + _REPORT_VERBS + r"\b",
)
_ACCORDING_RE = re.compile(r"\b(?:according\s+to|as\s+reported\s+by|cited\s+by|credited\s+to|attributed\s+to)\s+(?P<who>(?:the\s+)?(?:[A-Z][\w.\-]*(?:'s)?\s*){1,4}(?:post|blog|page|paper|report|document)?)", )
# "SGLang was credited with 1.09 million"
_CREDITED_WITH_RE = re.compile(r"(?P<who>(?:[A-Z][\w.\-]*\s+){1,3}?)(?:was|were|is|are|gets|got)\s+(?:credited|attributed)\s+(?:with\s+)?(?:a\s+|an\s+|the\s+)?$")
_VERB_RE = re.compile(r"\b" + _REPORT_VERBS + r"\b")
_NOT_REPORTERS = {"we", "our", "this", "figure", "table", "fig", "chart", "graph", "results", "it", "which", "that", "i", "he", "she", "they"}


def comparator(before: str, after: str) -> str:
    """The comparator the words around a figure give it (before: text up to the number)."""
    if _PLUS_AFTER_RE.match(after):
        return ">="
    if _LESS_AFTER_RE.match(after):
        return "<="
    # the longest comparator with its filler ("no more than about the")
    tail = ascii_lower(before[-36:])
    # the last comparator word whose remainder up to the number is only filler
    for m in reversed(list(_COMP_WORD_RE.finditer(tail))):
        if _COMP_FILLER_RE.fullmatch(tail, m.end()):
            return _COMPARATORS[int(m.lastgroup[1:])][1]
    return "="


def _clean_who(who: str) -> str | None:
    who = re.sub(r"^(?:(?:and|or|but|while|so)\s+)?(?:the|a|an|its|their|his|her)\s+", "",
                 who.strip(), flags=re.I)
    who = _SPACES_RE.sub(" ", who).strip(" ,.;:")
    if not who or who.split()[0].lower() in _NOT_REPORTERS:
        return None
    return who


_CUE_WORDS = frozenset(
    "no not never neither nor none without cannot can't isn't wasn't aren't doesn't didn't don't "
    "lack lacks fail fails nothing if would could might may assume assumes assuming assumption "
    "suppose supposing hypothetical hypothetically imagine expected projected estimated should "
    "project projects projecting estimate estimates estimating predict predicts predicted predicting "
    "whether report reports reported reporting list lists listed says said states stated stating "
    "claim claims claimed claiming quote quotes quoted cite cites cited announced put puts give gives published "
    "publishes write writes wrote credit credits credited records record shows show showed "
    "according attributed".split()
)
_WORD_SPLIT_RE = re.compile(r"[a-z']+")


def has_cues(sentence: str) -> bool:
    """Whether a sentence holds any word that can change a figure's stance or source; most
    do not, and then every figure in them is simply asserted. A set lookup per word: far
    cheaper than running the stance patterns on every sentence."""
    if "?" in sentence:
        return True
    return not _CUE_WORDS.isdisjoint(_WORD_SPLIT_RE.findall(sentence.lower()))


def stance_and_source(sentence_before: str, sentence_after: str, sentence: str) -> tuple[str, str | None]:
    """(stance, asserted_by) for a figure, given its sentence split at the figure."""
    asserted_by = None
    reporters = list(_REPORTER_RE.finditer(sentence_before)) if _VERB_RE.search(sentence_before) else []
    if reporters:
        asserted_by = _clean_who(reporters[-1].group("who"))
    if asserted_by is None:
        m = _ACCORDING_RE.search(sentence_before) or _ACCORDING_RE.match(sentence_after[:60].lstrip(" ,"))
        if m and (m.re is _ACCORDING_RE and ("according" in m.group(0).lower() or "credited" in m.group(0).lower() or "reported" in m.group(0).lower() or "attributed" in m.group(0).lower())):
            asserted_by = _clean_who(m.group("who"))
        else:
            m2 = _CREDITED_TO_RE.match(sentence_after) or _CREDITED_WITH_RE.search(sentence_before)
            if m2:
                asserted_by = _clean_who(m2.group("who"))
    clause = _CLAUSE_BREAK_RE.split(sentence_before)[-1]
    # a negation inside brackets qualifies a condition ("(fp16 input, no sparsity)")
    if _NEG_RE.search(_BRACKETED_RE.sub(" ", clause)):
        return "negated", asserted_by
    if sentence.rstrip().endswith("?") or _QUESTION_RE.search(clause):
        return "questioned", asserted_by
    # a colon elaborates its clause rather than starting one: "We also estimate that AFD
    # should gain on Vera Rubin: with a 1.5x - 2x speedup" is still the estimate
    if _HYPO_RE.search(clause) or _ESTIMATE_RE.search(_ELABORATED_RE.split(sentence_before)[-1]):
        return "hypothetical", asserted_by
    if asserted_by:
        return "reported", asserted_by
    return "asserted", None


# "the numbers below are projections", "all figures in this section are estimates": a
# sentence that declares what follows it (to the end of its section) hypothetical
_DECLARED_RE = re.compile(
    r"\b(?:the\s+|all\s+(?:the\s+)?|these\s+)?(?:numbers|figures|results|values|speedups|"
    r"measurements)\s+(?:below|that\s+follow|in\s+this\s+section|in\s+the\s+(?:table|tables)\s+"
    r"below|here)\s+(?:are|were)\s+(?:all\s+|only\s+)?(?:projections?|projected|estimates?|"
    r"estimated|simulated|simulations?|hypothetical|modell?ed|predictions?|predicted)\b", re.I)
_HEADING_RE = re.compile(r"^(#{1,6})\s", re.M)


def declared_hypothetical(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` a sentence declares hypothetical ("We do not have this hardware,
    so the numbers below are projections"): from the declaration to the next heading of
    its section's level or higher (its subsections stay inside). A table of projected
    speedups under such a sentence is no measurement, though no cell says so."""
    spans: list[tuple[int, int]] = []
    if "below" not in text and "section" not in text and "follow" not in text \
            and "here" not in text:
        return spans
    for m in _DECLARED_RE.finditer(text):
        level = 7
        for h in _HEADING_RE.finditer(text, 0, m.start()):
            level = len(h.group(1))
        end = len(text)
        for h in _HEADING_RE.finditer(text, m.end()):
            if len(h.group(1)) <= level:
                end = h.start()
                break
        spans.append((m.start(), end))
    return spans
