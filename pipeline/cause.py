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
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

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
# words that open a leading phrase or clause ("Under load, ...", "Compared with vLLM, ...",
# "Overall, ..."): it sets conditions and ends at its comma; it names no one (the checker's
# subject reader) and credits nothing (a cause, below)
LEAD_PHRASE_WORDS = frozenset("""under after before with without across over during while
    when whenever since compared thanks according against despite given unlike like beyond
    within through via into upon between among amid at on in for by from to of if although
    though because once as overall today now here there still even also only just again
    meanwhile however moreover besides finally recently previously initially using""".split())
_LEAD_PHRASE_RE = re.compile(
    r"^\s*(?:" + "|".join(sorted(LEAD_PHRASE_WORDS, key=len, reverse=True)) + r")\b[^,]*,", re.I)
LEAD_REACH = 2000       # characters before a figure that its section can span
_HEADING_RE = re.compile(r"(?m)^\s{0,3}#{1,6}\s")
_PARA_BREAK_RE = re.compile(r"\n[ \t]*\n")
# a Markdown or plain-text list item: "- ", "* ", "+ ", "• ", "1. ", "2) "; in PDF text a
# bullet often stands alone on its line, its item on the next
_ITEM_RE = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,3}[.)])(?:[ \t]+\S|[ \t]*$)")
# the label that opens the last list item of a lead-in: "- **Code completion**: DistServe ..."
_ITEM_LABEL_RE = re.compile(r"[ \t]*(?:[-*+\u2022]|\d{1,3}[.)])[ \t]+[*_]*[^:\n\d]{2,60}?[*_]*:[*_]*\s")


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
    stands that close (slides, PDF pages, plain notes), its paragraph and the one before.
    A figure in a list item leads in with its own item only, not its siblings: in
    "- Batch scheduler: 1.1x" / "- Load balancer: up to 1.9x", the 1.9x is the load
    balancer's, however close the scheduler's line stands."""
    lo = max(0, sentence_end - LEAD_REACH)
    heads = list(_HEADING_RE.finditer(text, lo, sentence_end))
    if heads:
        return own_item(text[heads[-1].start():sentence_end])
    breaks = [m.end() for m in _PARA_BREAK_RE.finditer(text, lo, sentence_end)]
    if len(breaks) >= 2:
        lo = breaks[-2]
    return own_item(text[lo:sentence_end])


def own_item(lead: str) -> str:
    """``lead`` less the list items before the one it ends in (and their wrapped lines);
    ``lead`` itself where it does not end in a list item."""
    lines = lead.split("\n")
    at = _last_item(lines)
    if at is None:
        return lead
    kept, in_item = [], False
    for line in lines[:at]:
        if _ITEM_RE.match(line):
            in_item = True
        elif not line.strip():
            in_item = False
        if not in_item:
            kept.append(line)
    return "\n".join(kept + lines[at:])


def _last_item(lines: list[str]) -> int | None:
    """The line of the marker of the list item ``lines`` end in, or None."""
    at = len(lines) - 1
    while at >= 0 and lines[at].strip() and not _ITEM_RE.match(lines[at]):
        at -= 1         # back over the item's wrapped lines to its marker
    return at if at >= 0 and lines[at].strip() else None


def own_topic(lead: str) -> bool:
    """Does a figure's lead-in name what it is about: a heading, or a label opening the
    figure's list item ("- **Code completion**: DistServe sustains 3.2x ...")?"""
    if _HEADING_RE.search(lead):
        return True
    lines = lead.split("\n")
    at = _last_item(lines)
    return at is not None and bool(_ITEM_LABEL_RE.match(lines[at]))


def lists_topics(title: str | None) -> bool:
    """Does a title list several topics ("X v0.4: Batch Scheduler, Load Balancer, Faster
    Outputs")? Such a title is no cause of a figure whose lead-in names its own topic."""
    if not title:
        return False
    rest = title.split(":", 1)[-1]
    return bool(re.search(r"[,;]", rest))       # "A and B" is as often one topic as two


def states_phase(phase: str, text: str) -> bool:
    """Is ``phase`` ("decode") the phase of inference ``text`` (a figure's lead-in) last
    names? A ratio that says not which phase it is of ("The speedup reaches 25.5%") is of
    the phase its paragraph or section last named ("TBO's impact in the decode phase ..."),
    as a figure takes the model its section last named."""
    return last_phase(text) == phase


def last_phase(text: str) -> str | None:
    """The phase of inference ("prefill" or "decode") ``text`` names last, or None: what
    ``states_phase`` tests, worked out once per figure by the checker
    (``Checker.lead_phase``)."""
    from pipeline.vocab.loader import load
    from pipeline.vocab.scan import fold

    last = None
    for _, _, name in load().phases.finditer(text, 0, len(text), fold(text)):
        if name in ("prefill", "decode"):
            last = name
    return last


def tasks_in(text: str) -> list[tuple[int, str]]:
    """The applications ``text`` names ("code completion", "summarization"), with where."""
    from pipeline.vocab.loader import load

    return _named_in(load().tasks, text)


def task_of(lead: str, at: int) -> str | None:
    """The application a figure at ``at`` of its lead-in was measured on: the one named
    last before it ("- **Code completion**: DistServe sustains 3.2x"), else the first named
    after it in its sentence ("3.2x higher goodput on code completion"); None where the
    lead-in names none."""
    return nearest_named(tasks_in(lead), at)


def setup_of(lead: str, at: int) -> str | None:
    """How the system behind a figure at ``at`` of its lead-in was configured, where the
    text says: "default configuration" ("run on a default, out-of-the-box network") or
    "tuned configuration" ("after expert tuning"); the one named last before the figure,
    else the first after it in its sentence. A default run's figure is no evidence of
    what tuning reached."""
    from pipeline.vocab.loader import load

    return nearest_named(_named_in(load().setups, lead), at)


# a node's own accelerators may sit between the count and "nodes": "two eight-H800 nodes",
# "two 8-GPU nodes", "across two 8xH100 nodes" are two nodes ("each 8-GPU node" none)
_PER_NODE = r"(?:\d{1,2}|one|two|four|eight|sixteen)(?:[\s-]?[x×][\s-]?|[\s-])"
_NODE_PART = r"(?-i:[A-Z]{1,3}\d{2,4}[A-Za-z]?\w*|[DH]GX)"
_NODE_COUNT_RE = re.compile(
    r"\b(?:(?P<n>\d{1,4})|(?P<w>one|two|three|four|five|six|seven|eight|nine|ten|twelve|"
    r"sixteen|single|dual))(?:[\s-]+(?:" + _PER_NODE + r"(?:" + _NODE_PART + r"|GPUs?)|" + _NODE_PART + r")){0,2}"
    r"[\s-]+nodes?\b(?![\s-]+per\b)", re.I)
_NODE_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "single": 1,
               "dual": 2}


def nodes_of(text: str, at: int) -> int | None:
    """How many nodes (servers) a figure at ``at`` of ``text`` was measured on, where the
    text counts them ("a two-node H100 system", "across 4 nodes", "on two H200 nodes",
    "on a single node"; not "each 8-GPU node"):
    the count named last before the figure, else the first after it. 124,879 tokens/s of
    a four-node system is no evidence of what two nodes did."""
    named = []
    for m in _NODE_COUNT_RE.finditer(text):
        if m.group("n"):
            n = int(m.group("n"))
        else:
            n = _NODE_WORDS[m.group("w").lower()]
        named.append((m.start(), n))
    return nearest_named(named, at)


_DIVISION_RE = re.compile(r"\b(closed|open)[\s-]+division\b", re.I)


def division_of(text: str, at: int) -> str | None:
    """The MLPerf division ("closed", "open") a figure at ``at`` of ``text`` is said to
    be in: an open-division result (other weights, other rules) is no closed one."""
    named = [(m.start(), m.group(1).lower()) for m in _DIVISION_RE.finditer(text)]
    return nearest_named(named, at)


@dataclass(frozen=True)
class RowCondition:
    """A condition of a figure a sentence states in words and a result table in a column
    of its own: read from a headline's words, and from the evidence's sentence, else the
    cell of its table row under ``header``."""

    name: str
    read: Callable[[str, int], object]        # (text, figure's offset) -> value or None
    header: re.Pattern[str]                   # the column that gives it in a table
    cell: Callable[[str], object]             # a cell's text -> value or None
    words: Callable[[object], str]            # the value as the reading prints it
    open_unstated: Callable[[object], bool] = lambda v: True  # unstated evidence leaves it open


def _int_cell(cell: str) -> int | None:
    return int(cell) if cell.strip().isdigit() else None


def _division_cell(cell: str) -> str | None:
    cell = cell.strip().lower()
    return cell if cell in ("closed", "open") else None


ROW_CONDITIONS = (
    # one node is what a figure on one machine's GPUs is, counted or not: a figure that
    # counts no nodes leaves only a multi-node claim open
    RowCondition("node count", nodes_of,
                 re.compile(r"^(?:#|no\.?|number of)?\s*nodes?(?:\s+count)?$", re.I), _int_cell,
                 lambda v: f"on {v} node{'s' if v != 1 else ''}", lambda v: v != 1),
    RowCondition("division", division_of, re.compile(r"^division$", re.I), _division_cell,
                 lambda v: f"{v} division"),
)


def row_conditions(text: str, at: int) -> dict[str, object]:
    """The ``ROW_CONDITIONS`` a headline (or a figure's sentence) states, by name."""
    out = {}
    for rc in ROW_CONDITIONS:
        v = rc.read(text, at)
        if v is not None:
            out[rc.name] = v
    return out


_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [c.strip() for c in line.split("|")]


def table_cell(text: str, pos: int, header: re.Pattern[str]) -> str | None:
    """The cell of the pipe-table row holding ``pos`` under the first column whose header
    matches ``header`` ("Nodes"), or None where ``pos`` is in no such row or no column
    matches: a condition a result table gives in a column of its own, read for the figure
    of that row."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    row = text[start:end if end >= 0 else len(text)]
    if not row.lstrip().startswith("|"):
        return None
    # up the table's rows to the rule under its header
    line_end = start - 1
    while line_end > 0:
        line_start = text.rfind("\n", 0, line_end) + 1
        line = text[line_start:line_end]
        if not line.lstrip().startswith("|"):
            return None
        if _TABLE_RULE_RE.match(line):
            head_start = text.rfind("\n", 0, line_start - 1) + 1
            names = _cells(text[head_start:line_start - 1])
            cells = _cells(row)
            if len(names) != len(cells):
                return None
            for name, cell in zip(names, cells):
                if header.match(name.strip("*_ ")):
                    return cell
            return None
        line_end = line_start - 1
    return None


def backend_of(text: str, at: int) -> str | None:
    """The backend of an engine a figure at ``at`` of ``text`` is credited to
    ("LMDeploy PyTorchEngine achieves 1.3x", "TurboMind"): the one named last before it,
    else the first after it (``vocab/engines.toml`` ``[backends]``)."""
    from pipeline.vocab.loader import load

    return nearest_named(_named_in(load().backends, text), at)


# "SGLang v0.3", "TensorRT-LLM version 0.5.0", "the v0.1 release": a release of the engine
# (not a benchmark's round: "MLPerf Inference v5.1")
_VERSION_RE = re.compile(r"(?<![\w.-])(?:[vV]|[Vv]ersion\s+)(\d+(?:\.\d+){1,2})(?:[a-z]\d*)?(?![\w.]*\d)")
_BENCHMARK_ROUND_RE = re.compile(r"(?i)(?:MLPerf|Inference|round|CUDA|ROCm|PyTorch|Python)[\s\w]{0,12}$")


def version_of(text: str, at: int) -> str | None:
    """The engine release a figure at ``at`` of ``text`` was measured on ("v0.3" -> "0.3";
    "0.5.0" -> "0.5"), the one named last before it, else the first after it; None where
    the text names none."""
    if "v" not in text and "V" not in text:
        return None
    named = []
    for m in _VERSION_RE.finditer(text):
        if _BENCHMARK_ROUND_RE.search(text, max(0, m.start() - 24), m.start()):
            continue
        v = m.group(1)
        while v.endswith(".0") and v.count(".") > 1:
            v = v[:-2]
        named.append((m.start(), v))
    return nearest_named(named, at)


def link_of(sentence: str, at: int) -> str | None:
    """What a bandwidth figure at ``at`` of its sentence moves data over: memory (HBM),
    a GPU link (NVLink), PCIe or the network (RDMA, NICs); None where it says not. 5.3 TB/s
    of HBM is no evidence of an RDMA figure."""
    from pipeline.vocab.loader import load

    return nearest_named(_named_in(load().links, sentence), at)


def nearest_named(named: list[tuple[int, str]], at: int) -> str | None:
    """The name last before ``at``, else the first after it."""
    before = [name for s, name in named if s < at]
    if before:
        return before[-1]
    after = [name for s, name in named if s >= at]
    return after[0] if after else None


def _named_in(patterns, text: str) -> list[tuple[int, str]]:
    from pipeline.vocab.scan import fold

    return [(s, name) for s, _, name in patterns.finditer(text, 0, len(text), fold(text))]


# "(TBO)": an acronym in brackets, found first; the words before it are read after (a
# pattern led by the words would be tried, and backtrack, at every position of the text)
_ACRONYM_PAREN_RE = re.compile(r"\(\s*([A-Z][A-Za-z]{1,5}?)s?\s*\)")
_DEF_WORD_RE = re.compile(r"[A-Za-z]\w*")


def acronyms(text: str) -> dict[str, str]:
    """The acronyms a document defines ("Two-batch Overlap (TBO)" -> TBO: "Two-batch
    Overlap"): the words before the brackets whose initials spell it. A post names a
    technique in full once and by its acronym after; a cause is looked for in either."""
    found: dict[str, str] = {}
    for m in _ACRONYM_PAREN_RE.finditer(text):
        acro = m.group(1)
        letters = [c for c in acro if c.isupper()]
        if len(letters) < 2 or acro in found:
            continue
        before = text[max(0, m.start() - 120):m.start()].rstrip().rstrip("*").rstrip()
        pieces = re.split(r"[-\s]+", before)
        words: list[str] = []
        for piece in reversed(pieces):
            piece = piece.strip("*_\"'“”‘’[(")        # "**Two-batch Overlap (TBO)**"
            if len(words) == len(letters) or not _DEF_WORD_RE.fullmatch(piece):
                break
            words.append(piece)
        words.reverse()
        if len(words) == len(letters) and all(w[:1].upper() == c for w, c in zip(words, letters)):
            found[acro] = " ".join(words)
    return found


def with_acronyms(lead: str, table: dict[str, str]) -> str:
    """``lead`` followed by what each acronym written in it stands for."""
    spelled = [full for acro, full in table.items() if _starts_word(lead, acro)
               and re.search(rf"\b{re.escape(acro)}\b", lead)]
    return lead + ("\n" + "; ".join(spelled) if spelled else "")


# a figure set against a reference that has no number of its own: "our 726 Gbps beat the
# peak Dell reported" against "are slightly below the peak figures reported by Dell"
_ABOVE_RE = re.compile(r"\b(?:beat|beats|beating|exceed(?:s|ed|ing)?|surpass(?:es|ed|ing)?|"
                       r"outperform(?:s|ed|ing)?|ahead\s+of|better\s+than|higher\s+than)\b", re.I)
_BELOW_RE = re.compile(r"\b(?:below|short\s+of|behind|trail(?:s|ed|ing)?|underperform\w*|"
                       r"worse\s+than|lower\s+than|fell\s+short|falls?\s+short)\b", re.I)
_REACH_AFTER = 80


def standing(text: str, end: int) -> str | None:
    """How a figure ending at ``end`` stands against a reference its clause names after it:
    "above" ("... beat the peak Dell reported"), "below" ("... are slightly below the peak
    figures"), or None where its clause says neither."""
    after = text[end:end + _REACH_AFTER]
    after = re.split(r"[.;!?]\s|\n\s*\n", after, maxsplit=1)[0]
    up, down = _ABOVE_RE.search(after), _BELOW_RE.search(after)
    if up and (not down or up.start() < down.start()):
        return "above"
    if down:
        return "below"
    return None
