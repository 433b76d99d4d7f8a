"""Figures written as one list: "30% and 40%", "(90 and 80 TFLOPS respectively)".

Rules a reader applies to a list of figures in one sentence (docs/extraction.md, "Lists"):

* the members of a tight list ("improved by 30% and 40% compared to fp16") share what the
  list says once: direction, measured quantity, baseline and phase;
* a member's own words in brackets right after it are its own and nobody else's
  ("1.49x (prefill) and 2.54x (decode) over vLLM": 2.54x is decode's, and shares the
  speedup's direction, quantity and baseline with 1.49x);
* with "respectively", the i-th figure belongs to the i-th name of a list of as many names
  written before the figures or between them and "respectively" ("int8/int4 kv ... 30% and
  40% respectively": 30% is int8's; "2.1x, 1.8x and 1.4x on A100, H100 and L40S
  respectively": 1.8x is H100's; "for prefill and decode respectively"), and not to the
  name nearest to it;
* a list of as many names that the figures complete in one clause ("reduces TTFT and TPOT
  by 35% and 20%", "H100 and H200 reach 900 and 1,200 tokens/s") pairs them in order too.

The kinds of name a list can hand out: models, accelerators, engines, precisions, phases
(TTFT, TPOT, prefill, decode) and, for ratios and percents, measured quantities
("throughput and latency improve by 20% and 30%").
"""
from __future__ import annotations

import re
from typing import Callable

from pipeline.extract import comparison
from pipeline.extract.numbers import NUMBER_RE, parse_match
from pipeline.model import Claim

# a member's own qualifier right after it: in brackets ("1.49x (prefill)"), or a word or
# two, after a preposition or not ("3.8x prefill and 4.8x decode", "44% on Qwen3-235B and
# 42% on MiniMax-M2.5", "3.03x in decoding and 9.44x in prefill"); never a word that
# starts another clause or a comparison ("than", "and")
_WORD = r"(?!(?:and|or|than|vs|versus|over|compared|relative|while|whereas|but|which|that)\b)[A-Za-z0-9][\w.+/-]*"
_OWN = (r"(?P<own>\s*\([^()]{1,40}\)|\s+(?:(?:in|on|at|for|with|during|under|using)\s+)?"
        + _WORD + r"(?:\s+" + _WORD + r")?)?")
# what may stand between two members of a list: "30% and 40%", "1.2x, 1.5x, and 2x", "8/16"
FIGURE_GAP_RE = re.compile(_OWN + r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+|/)\s*", re.I)
OWN_RE = re.compile(_OWN, re.I)
OWN_AFTER_RE = re.compile(r"\s*\(([^()]{1,40})\)")
NAME_GAP_RE = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+|/|\s+vs\.?\s+)\s*", re.I)
RESPECTIVELY_RE = re.compile(r"\brespectively\b|\bresp\.", re.I)
# between a list of names and the figures that complete it: a verb or two and "by"
# ("TTFT and TPOT drop by 35% and 20%"), nothing that starts another clause or figure
COMPLETES_RE = re.compile(r"\s+(?:[a-z]+\s+){0,2}?(?:by\s+)?(?:(?:up\s+to|about|around|roughly|nearly|over)\s+)?[~≈]?\s*")
SHARED = ("direction", "measures", "baseline", "phase")
# the fields a list of names can assign, and the kind of name that fills each
LIST_KINDS = (("model", "model"), ("accelerator", "hardware"), ("engine", "engine"),
              ("dtype", "dtype"), ("phase", "phase"), ("measures", "measures"))
OWN_KINDS = (("model", "model"), ("accelerator", "hardware"), ("engine", "engine"),
             ("dtype", "dtype"), ("phase", "phase"))
RESPECTIVELY_REACH = 90      # characters from the last figure to "respectively"
COMPARED = ("ratio", "percent")

NamesIn = Callable[[str, int, int], list[tuple[int, int, str]]]


def _runs(text: str, claims: list[Claim]) -> list[list[Claim]]:
    """Maximal runs of two or more figures of one sentence written as a list."""
    runs: list[list[Claim]] = []
    run: list[Claim] = []
    for c in claims:
        if run and c.sentence_start == run[-1].sentence_start and run[-1].end <= c.start \
                and FIGURE_GAP_RE.fullmatch(text, run[-1].end, c.start):
            run.append(c)
            continue
        if len(run) > 1:
            runs.append(run)
        run = [c]
    if len(run) > 1:
        runs.append(run)
    return runs


def _own_spans(text: str, run: list[Claim]) -> list[tuple[int, int] | None]:
    """Each member's own words: between it and the next member ("3.8x prefill and"), for
    the last one a bracket or, where the others wrote theirs, the words in the same place."""
    spans: list[tuple[int, int] | None] = []
    for i, c in enumerate(run):
        if i + 1 < len(run):
            m = FIGURE_GAP_RE.fullmatch(text, c.end, run[i + 1].start)
            spans.append(m.span("own") if m is not None and m.group("own") else None)
        elif any(spans):
            m = OWN_RE.match(text, c.end)
            spans.append(m.span("own") if m is not None and m.group("own") else None)
        else:
            m = OWN_AFTER_RE.match(text, c.end)
            spans.append(m.span(1) if m is not None else None)
    return spans


_PREPOSITION_RE = re.compile(r"\s*(?:\(|(?:in|on|at|for|with|during|under|using)\s)", re.I)


def _qualifies_only(text: str, span: tuple[int, int] | None, names_in: NamesIn) -> bool:
    """Are a member's own words only a qualifier of it: none, a bracket, a prepositional
    phrase ("on H100", "at 8K", "in prefill") or names ("3.8x prefill and")? Then it
    takes what the list says of what it compares; own words that say it themselves
    ("2.7x higher throughput and", "double performance and") keep their reading."""
    if span is None or _PREPOSITION_RE.match(text, span[0]):
        return True
    covered = [(a, b) for kind, _ in OWN_KINDS for a, b, _ in names_in(kind, span[0], span[1])]
    rest = text[span[0]:span[1]]
    for a, b in covered:
        rest = rest[:a - span[0]] + " " * (b - a) + rest[b - span[0]:]
    return not rest.strip()


def share_list_comparison(text: str, claims: list[Claim], names_in: NamesIn) -> None:
    """Members of a list of ratios or percents share the comparison it states once; a
    member whose own words say what it compares ("2.7x higher throughput and 5x faster
    TPOT") keeps its reading and takes only the baseline."""
    for run in _runs(text, claims):
        if not all(c.family in COMPARED for c in run) or len({c.family for c in run}) > 1:
            continue
        spans = _own_spans(text, run)
        takes = [_qualifies_only(text, sp, names_in) for sp in spans]
        for field in SHARED:
            takers = [c for c, t in zip(run, takes) if field == "baseline" or t]
            stated = {getattr(c, field) for c in run if getattr(c, field) is not None}
            if len(stated) == 1:
                value = stated.pop()
                source = next(c for c in run if getattr(c, field) == value)
                for c in takers:
                    if getattr(c, field) is None:
                        setattr(c, field, value)
                        if field == "baseline" and c.engine is not None and c.engine in value:
                            # "beats TGI by 2.1x (A100), 1.8x (H100)": the name nearest
                            # a later member is the baseline, never its engine
                            c.engine = source.engine if source.engine not in (None, c.engine) else None


SUBJECT = ("model", "engine", "dtype", "hardware")
# what a unit written once for the list says of every member: "57k, 55k and 50k input
# tokens per second" are all input tokens
UNIT_WORDS = ("token_kind",)


def share_list_subject(text: str, claims: list[Claim]) -> None:
    """Names written after the last member of a list are the whole list's when the list
    writes its unit once ("900 and 1,200 tokens/s with Llama 3 8B") or is a list of
    ratios or percents ("1.2x and 1.5x faster than vLLM on H100") or is followed by
    "respectively" ("80 ms and 250 ms respectively on H100"): the earlier members,
    which name none of their own, take them. A figure with its own unit before "and" keeps
    what it has ("654,000 tokens/s per GPU and 1.09 million credited to SGLang": SGLang is
    the second figure's)."""
    for run in _runs(text, claims):
        last = run[-1]
        hi = min(last.sentence_end or len(text), last.end + RESPECTIVELY_REACH)
        if not (all(c.family in COMPARED for c in run) or all(c.implied for c in run[:-1])
                or RESPECTIVELY_RE.search(text, last.end, hi)):
            continue
        if len({c.family for c in run}) > 1:
            continue
        fields = SUBJECT + UNIT_WORDS if all(c.implied for c in run[:-1]) else SUBJECT
        for field in fields:
            mine = getattr(last, field)
            if mine is None or any(getattr(c, field) not in (None, mine) for c in run[:-1]):
                continue
            for c in run[:-1]:
                if getattr(c, field) is None:
                    if field == "hardware":
                        c.hardware, c.accelerator, c.hw_count = last.hardware, last.accelerator, last.hw_count
                    else:
                        setattr(c, field, mine)


def _name_list(names: list[tuple[int, int, str]], text: str, n: int,
               last: bool = True) -> list[tuple[int, int, str]] | None:
    """The last (or first) list of exactly ``n`` distinct names written one after another."""
    best = None
    i = 0
    while i < len(names):
        j = i
        while j + 1 < len(names) and names[j][1] <= names[j + 1][0] \
                and NAME_GAP_RE.fullmatch(text, names[j][1], names[j + 1][0]):
            j += 1
        members = names[i:j + 1]
        if j - i + 1 == n and len({nm for _, _, nm in members}) == n:
            best = members
            if not last:
                return best
        i = j + 1
    return best


def measure_names(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """(start, end, quantity) of each measured quantity named in ``text[start:end]``
    ("throughput", "latency"), one per place, the longest wording winning."""
    hits = []
    for name, rx in comparison.words().measures:
        hits += [(m.start() + start, m.end() + start, name) for m in rx.finditer(text[start:end])]
    hits.sort(key=lambda h: (h[0], -h[1]))
    out: list[tuple[int, int, str]] = []
    for h in hits:
        if out and h[0] < out[-1][1]:
            continue
        out.append(h)
    return out


def _set(c: Claim, field: str, name: str) -> None:
    if field == "hardware":
        c.hardware, c.accelerator, c.hw_count = name, name, None
    else:
        setattr(c, field, name)
    if field in ("model", "hardware"):
        c.inherited = False


def _names(kind: str, text: str, start: int, end: int, names_in: NamesIn) -> list[tuple[int, int, str]]:
    if kind == "measures":
        return measure_names(text, start, end)
    return sorted(names_in(kind, start, end))


def _fits(kind: str, run: list[Claim]) -> bool:
    """A measured quantity is handed to ratios and percents only (a rate is its own)."""
    return kind != "measures" or all(c.family in COMPARED for c in run)


def own_qualifiers(text: str, claims: list[Claim], names_in: NamesIn) -> None:
    """A name written right after a member of a list, before the next member, is that
    member's own: "1.49x (prefill) and 2.54x (decode)", "2.1x (H100) and 1.6x (A100)",
    "3.8x prefill and 4.8x decode throughput"; after the last member, a bracket, or the
    words in the same place as the earlier members' ("3.1x in decoding and 9.2x in
    prefill"); else what follows it is the whole list's ("... than vLLM on H100")."""
    for run in _runs(text, claims):
        for c, span in zip(run, _own_spans(text, run)):
            if span is None:
                continue
            for kind, field in OWN_KINDS:
                names = names_in(kind, span[0], span[1])
                if len({n for _, _, n in names}) == 1:
                    _set(c, field, names[0][2])


# a list of a setting's values: "for prompt lengths of 1K, 2K, and 4K", "at batch sizes
# 1, 8 and 32"; the setting's words name the field
_VALUE = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[kKmM]\b)?"
SETTING_LIST_RE = re.compile(
    r"\b(?P<what>(?:input|prompt|output|generation|sequence|context)\s+lengths?|batch\s+sizes?|"
    r"concurrenc(?:y|ies)|(?:ISL|OSL)s?)\s*(?:of|=|:)?\s*(?P<list>" + _VALUE
    + r"(?:\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|/)\s*" + _VALUE + r")+)", re.I)
SETTING_FIELD = (("input", "isl"), ("prompt", "isl"), ("isl", "isl"), ("sequence", "isl"),
                 ("context", "isl"), ("output", "osl"), ("generation", "osl"), ("osl", "osl"),
                 ("batch", "batch_size"), ("concurrenc", "concurrency"))


def setting_lists(text: str, start: int, end: int) -> list[tuple[str, list[float]]]:
    """(field, values) of each list of a setting's values in ``text[start:end]``."""
    out = []
    for m in SETTING_LIST_RE.finditer(text, start, end):
        what = m.group("what").lower()
        field = next(f for w, f in SETTING_FIELD if what.startswith(w))
        values = [n.value for n in (parse_match(x) for x in NUMBER_RE.finditer(m.group("list"))) if n is not None]
        out.append((field, values))
    return out


def map_settings(text: str, claims: list[Claim]) -> None:
    """"throughputs of 57k, 55k and 50k tokens/s for prompt lengths of 1K, 2K and 4K,
    respectively" ("At batch sizes 8, 32 and 64 respectively, ..."): the i-th figure was
    measured at the i-th value of a list of as many values of a setting in its sentence."""
    for run in _runs(text, claims):
        s_start, s_end = run[0].sentence_start, run[0].sentence_end
        if s_start is None or s_end is None or not RESPECTIVELY_RE.search(text, s_start, s_end):
            continue
        for field, values in setting_lists(text, s_start, s_end):
            if len(values) == len(run) and len(set(values)) == len(values):
                for c, value in zip(run, values):
                    setattr(c, field, value)


def map_respectively(text: str, claims: list[Claim], names_in: NamesIn) -> None:
    """Give each figure of a list the name in its place of a list of as many names: the
    list before the figures or after them up to "respectively", or, without
    "respectively", the list the figures complete in one clause ("reduces TTFT and TPOT
    by 35% and 20%")."""
    for run in _runs(text, claims):
        last = run[-1]
        s_start = run[0].sentence_start if run[0].sentence_start is not None else 0
        hi = min(last.sentence_end or len(text), last.end + RESPECTIVELY_REACH)
        resp = RESPECTIVELY_RE.search(text, last.end, hi)
        # "For prefill and decode respectively, it is 1.6x and 2.4x faster"
        before = RESPECTIVELY_RE.search(text, s_start, run[0].start) if resp is None else None
        for kind, field in LIST_KINDS:
            if not _fits(kind, run):
                continue
            members = None
            if resp is not None:
                # the names between the figures and "respectively" come first: "2.1x, 1.8x
                # and 1.4x on A100, H100 and L40S respectively"
                members = _name_list(_names(kind, text, last.end, resp.start(), names_in), text, len(run), last=False)
                if members is None:
                    members = _name_list(_names(kind, text, s_start, run[0].start, names_in), text, len(run))
            elif before is not None:
                members = _name_list(_names(kind, text, s_start, before.start(), names_in), text, len(run))
            else:
                listed = _name_list(_names(kind, text, s_start, run[0].start, names_in), text, len(run))
                if listed is not None and COMPLETES_RE.fullmatch(text, listed[-1][1], run[0].start):
                    members = listed
            if members is None:
                continue
            for c, (_, _, name) in zip(run, members):
                _set(c, field, name)
