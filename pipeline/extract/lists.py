"""Figures written as one list: "30% and 40%", "(90 and 80 TFLOPS respectively)".

Two rules a reader applies to a list of figures in one sentence:

* the members of a tight list ("improved by 30% and 40% compared to fp16") share what the
  list says once: direction, measured quantity and baseline;
* with "respectively", the i-th figure belongs to the i-th name of a list of as many names
  written before it ("int8/int4 kv ... 30% and 40% respectively": 30% is int8's,
  40% int4's), and not to the name nearest to it.
"""
from __future__ import annotations

import re
from typing import Callable

from pipeline.model import Claim

# what may stand between two members of a list: "30% and 40%", "1.2x, 1.5x, and 2x", "8/16"
FIGURE_GAP_RE = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+|/)\s*", re.I)
NAME_GAP_RE = re.compile(r"\s*(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+|/|\s+vs\.?\s+)\s*", re.I)
RESPECTIVELY_RE = re.compile(r"\brespectively\b|\bresp\.", re.I)
SHARED = ("direction", "measures", "baseline")
# the fields a "respectively" list can assign, and the kind of name that fills each
LIST_KINDS = (("model", "model"), ("accelerator", "hardware"), ("engine", "engine"),
              ("dtype", "dtype"))
RESPECTIVELY_REACH = 40      # characters from the last figure to "respectively"

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


def share_list_comparison(text: str, claims: list[Claim]) -> None:
    """Members of a list of ratios or percents share the comparison it states once."""
    for run in _runs(text, claims):
        if not all(c.family in ("ratio", "percent") for c in run) or len({c.family for c in run}) > 1:
            continue
        for field in SHARED:
            stated = {getattr(c, field) for c in run if getattr(c, field) is not None}
            if len(stated) == 1:
                value = stated.pop()
                for c in run:
                    if getattr(c, field) is None:
                        setattr(c, field, value)


def _name_list(names: list[tuple[int, int, str]], text: str, n: int) -> list[str] | None:
    """The last list of exactly ``n`` distinct names written one after another."""
    best = None
    i = 0
    while i < len(names):
        j = i
        while j + 1 < len(names) and names[j][1] <= names[j + 1][0] \
                and NAME_GAP_RE.fullmatch(text, names[j][1], names[j + 1][0]):
            j += 1
        members = [nm for _, _, nm in names[i:j + 1]]
        if j - i + 1 == n and len(set(members)) == n:
            best = members
        i = j + 1
    return best


def map_respectively(text: str, claims: list[Claim], names_in: NamesIn) -> None:
    """Give each figure of a "respectively" list the name in its place of the list before it."""
    for run in _runs(text, claims):
        last = run[-1]
        window = text[last.end:min(last.sentence_end, last.end + RESPECTIVELY_REACH)]
        if not RESPECTIVELY_RE.search(window):
            continue
        for kind, field in LIST_KINDS:
            names = sorted(names_in(kind, run[0].sentence_start, run[0].start))
            members = _name_list(names, text, len(run))
            if members is None:
                continue
            for c, name in zip(run, members):
                if field == "hardware":
                    c.hardware, c.accelerator, c.hw_count = name, name, None
                else:
                    setattr(c, field, name)
                if field in ("model", "hardware"):
                    c.inherited = False
