"""What is not a claim, though it is a number next to a unit-like word (docs/claims-model.md §1).

A figure needs a measured quantity of a system. The rules here are general, each a reason
a reader would give for skipping a number (docs/extraction.md lists them):

* mathematics: a number inside TeX math (``$64 \\times 576$``) is an expression, not a
  price or a size;
* offered load: "at 16 QPS" sets the load a system was measured under, a setting of the
  figures beside it (``Claim.offered_load``), not a throughput the system reached; so do
  the values after a label ("across QPS 16, 32, and 1000");
* length settings: "with an input length of 128k tokens" is the ISL of the figures beside
  it (``Claim.isl``/``osl``), not a size (a "median input of 142K tokens" stays a claim);
* worked examples: a time or a price in a sentence that names no system and no computing
  word ("it takes 40 minutes to mow the lawn") describes no measured system.

* time windows: "over the past 24 hours" or "every 10 minutes" says when something was
  counted, not how long a system took;

* arithmetic: the result of a computation written out ("22/8 = 2.75x") and a product
  ("5.6 x 2") are working, not figures;

* model variants: in a list of models, sizes in parentheses right after a model's name
  ("Llama3.2 (1B, 3B), Intern-S1 (241B)") name its variants (one model with its size,
  "DeepSeek V3 (685B)", states a size);

* chart residue: a number in a run of four or more bare numbers (a chart axis as PDF text
  renders it) outside any table;

* port specifications: "four 200 Gbps NICs", "8x400 Gbps", "the 200 GB/s aggregate line
  rate" give the rated speed of a network part, a setting of the figures measured over it,
  not a speed a system reached;

* configuration values: "--max-num-seqs 256", "num_prompts=200", "max prompt=2048" set a
  run up (flags and assignments), they do not report what it did.

Part numbers ("Xeon Gold 6454S") are kept out by the units themselves: a lone "s" or "h" is
a unit only in lower case (vocab/units.toml).
"""
from __future__ import annotations

import re

from pipeline.ingest.tables import KV_KEY_START

# inline TeX math: $...$ holding a command, a sub/superscript or braces
# (the "$" leads, so ``re`` skips to each one in C; the look-behind after it checks the
# character before it)
_MATH_RE = re.compile(r"\$(?<![\\$]\$)(?=[^$\n]{1,200}?\$)([^$\n]{1,200}?)\$")
_TEX_RE = re.compile(r"\\[A-Za-z]+|[\^_{}]")

# "at 16 QPS", "under a request rate of 8 req/s", "with an arrival rate of 2 requests/s"
OFFERED_LEAD_RE = re.compile(
    r"(?i)(?:\b(?:at|under|with|for)\s+(?:an?\s+|the\s+)?(?:(?:(?:request|arrival|query|input)\s+)?"
    r"rates?\s+(?:ranging\s+)?(?:of\s+|from\s+)?|(?:offered\s+)?load\s+of\s+|QPS\s+(?:of\s+)?"
    r"|RPS\s+(?:of\s+)?)?"
    r"|\b(?:request|arrival|query)\s+rates?\s*(?:of|=|:|from)?\s*|\boffered\s+load\s*(?:of|=|:)?\s*)"
    r"[~≈]?\s*$")

# A token count that is a workload's length setting: "with an input length of 128k tokens",
# "each query input has 20K tokens", "prompt length 2048" (but "median input is 142K tokens"
# reports a workload's statistic, and stays a claim)
LENGTH_LEAD_RE = re.compile(
    r"(?i)\b(?P<kind>input|prompt|query|context|output|generation|decode|response|answer|sequence)s?"
    r"(?:\s+(?:sequence|token)s?)?(?:\s+(?:length|len|size)s?)?\s*(?:of|has|have|is|are|=|:|to|with)?\s*"
    r"(?:about\s+|around\s+|up\s+to\s+|~\s*)?$")
# a statistic or a total of a workload is a figure about it ("median input of 142K tokens",
# "Total input tokens"), not its setting
TOTALLED_RE = re.compile(r"(?i)\b(?:total|sum|processed|served|generated|daily|per\s+day|overall|cumulative)\b")
_STAT_WORD_RE = re.compile(r"(?i)\b(?:median|mean|average|avg|p\d\d|percentile|typical|max(?:imum)?)\b")
# the words that make a length the output's (``length_setting``, ``counted_length_setting``)
_OUTPUT_KINDS = frozenset({"output", "generation", "generated", "decode", "response", "answer",
                           "completion", "reasoning", "thinking"})

# Words that say a sentence is about computing systems (beyond the vocabularies' names).
_SYSTEM_WORDS_RE = re.compile(
    r"(?i)\b(?:GPUs?|CPUs?|TPUs?|accelerators?|nodes?|servers?|clusters?|racks?|chips?|"
    r"models?|LLMs?|inference|serving|serve[sd]?|requests?|queries|tokens?|prompts?|"
    r"batch(?:es|ing)?|kernels?|latency|latencies|throughput|TTFT|TPOT|decod\w*|prefill\w*|"
    r"train\w*|fine-?tun\w*|benchmark\w*|engine|runtime|deploy\w*|cache|memory|compute|"
    r"API|endpoint|cloud|instance|hardware|system|pipeline|workload|job|run|runs|step|"
    r"iterations?|epochs?|quantiz\w*|context|generation|response|user)\b")


# "over the past 24 hours", "in the last 7 days", "every 10 minutes", "per day": a duration
# that bounds when something was counted, not a time a system took
_WINDOW_LEAD_RE = re.compile(
    r"(?i)(?:\b(?:over|in|during|for|within|across)\s+(?:the\s+)?(?:past|last|previous|first|next|following)"
    r"|\b(?:past|last|every|each|per)|\bonce\s+every)\s*$")


# "a new token every 0.21 seconds": one token per period is the time between tokens
_ONE_TOKEN_EVERY_RE = re.compile(r"(?i)\b(?:a|one|each)\s+(?:new\s+|next\s+|output\s+|single\s+)?token\s+(?:once\s+)?every\s*$")


def is_time_window(lead: str) -> bool:
    """Do the words right before a duration make it the window something was counted or
    repeated over? Not when one token comes per period: that period is a time taken."""
    return bool(_WINDOW_LEAD_RE.search(lead)) and not _ONE_TOKEN_EVERY_RE.search(lead)


def math_spans(text: str) -> list[tuple[int, int]]:
    """Spans of inline TeX math in ``text`` (only those that hold TeX, so "$5 and $7" in
    prose stays prose)."""
    if "$" not in text:
        return []
    return [(m.start(), m.end()) for m in _MATH_RE.finditer(text) if _TEX_RE.search(m.group(1))]


# "across QPS 16, 32, and 1000": a rate written as a label before its values names the
# loads a run was given
_RATE_LABEL_RE = re.compile(r"\b(?:QPS|RPS)[ \t]+(?:[\d.,]+[ \t]*(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|and[ \t]+|or[ \t]+))*$")


# "comparison for Llama 3.1 70B on 8 x MI300X (BF16, 32 QPS)": a request rate listed in
# brackets with a run's other conditions is the load it was offered
_COND_ITEM_FIGURE_RE = re.compile(r"(?i)\d[\d.,]*\s*(?:(?:x|×)(?!\s*[a-z]+\d)|%|ms\b|s\b|sec|tok|tokens?/|GB/s)")


def in_condition_list(text: str, start: int, end: int) -> bool:
    """Is the figure at ``text[start:end]`` one item of a bracketed list of conditions
    ("(BF16, 32 QPS)"), whose other items are no figures?"""
    open_ = text.rfind("(", max(0, start - 60), start)
    if open_ < 0 or ")" in text[open_:start]:
        return False
    close = text.find(")", end, end + 60)
    if close < 0 or "(" in text[end:close]:
        return False
    inner = text[open_ + 1:start] + text[end:close]
    if "," not in inner and ";" not in inner:
        return False
    return not _COND_ITEM_FIGURE_RE.search(inner)


def is_offered_load(lead: str) -> bool:
    """Do the words right before a request rate make it the load offered to the system?"""
    return bool(OFFERED_LEAD_RE.search(lead))


# "Llama3.2 (1B, 3B)", "Intern-S1 (241B)": sizes in parentheses right after a model's
# name name its variants, as "Llama 3 70B" does
VARIANT_PAREN_RE = re.compile(r"[ \t]?\([ \t]*(?:[\d.]+[ \t]?[BMT][ \t]*[,/][ \t]*)*$")
LAST_WORD_RE = re.compile(r"([A-Za-z][\w.-]*)[ \t]*$")
MODELISH_TOKEN_RE = re.compile(r"(?<![\w.-])[A-Z][\w.]*-?[\w.]*\d[\w.]*$")


_SIZE_IN_PAREN_RE = re.compile(r"\([ \t]*[\d.]+[ \t]?[BMT]\b")
_SIZE_LIST_IN_PAREN_RE = re.compile(r"\([ \t]*[\d.]+[ \t]?[BMT][ \t]*[,/\-–~]")


def names_variants(sentence: str) -> bool:
    """A list of models with their sizes in parentheses ("Llama3.2 (1B, 3B), Intern-S1
    (241B)"), or a model's range of sizes ("Llama (7B - 65B)"), as supported-model lists
    write them; one model with its size ("DeepSeek V3 (685B)") states a size."""
    return bool(_SIZE_LIST_IN_PAREN_RE.search(sentence)) or len(_SIZE_IN_PAREN_RE.findall(sentence)) >= 2


# "the case with 8B", "in the 70B setting": a bare size that labels a configuration of a
# run names which run, it states nobody's size
_CONFIG_NOUN = r"(?:case|setting|config(?:uration)?|scenario|setup|experiment|run|arm)s?"
_CONFIG_BEFORE_RE = re.compile(r"(?i)\b" + _CONFIG_NOUN + r"[ \t]+(?:with|of|for|using|at)[ \t]+(?:the[ \t]+|a[ \t]+)?$")
_CONFIG_AFTER_RE = re.compile(r"(?i)[ \t]*(?:model[ \t]+)?" + _CONFIG_NOUN + r"\b")


def names_configuration(own: str, after: str) -> bool:
    """Does a bare parameter count label a configuration ("similar to the case with 8B",
    "in the 8B setting") rather than state a model's size ("a 70B model")?"""
    return bool(_CONFIG_BEFORE_RE.search(own) or _CONFIG_AFTER_RE.match(after))


# "22/8 = 2.75x", "min(5.6 x 2, 10) = 10": the result of arithmetic written out
_ARITHMETIC_LEAD_RE = re.compile(r"[\d)][ \t]*[/*×x+−-][ \t]*[\d(][\d.,]*\)?[ \t]*(?:=|≈|~=)[ \t]*$")


def is_arithmetic_result(lead: str) -> bool:
    """Is the figure the result of arithmetic the text writes out just before it?"""
    return bool(_ARITHMETIC_LEAD_RE.search(lead))


def is_rate_label(lead: str) -> bool:
    """Is a request rate one of the values after a "QPS"/"RPS" label (a sweep of loads)?"""
    return bool(_RATE_LABEL_RE.search(lead))


_UNIT_KIND_RE = re.compile(r"(?i)-?\s?(?P<kind>input|prompt|prefill|output|generated|completion|reasoning|thinking)\s")


# "2,000-token input lengths", "4K-token prompts": the kind written after the count
_KIND_AFTER_RE = re.compile(r"(?i)[ \t]*(?P<kind>input|prompt|prefill|output|generation|decode)s?\b"
                            r"(?:[ \t]+(?:lengths?|sequences?|sizes?))?"
                            # "(4,096 tokens in, 16 out)": in and out as the kinds
                            r"|[ \t]+(?P<io>in)(?=[ \t]*(?:,|/|and\b)[ \t]*\d[\d,]*[kK]?[ \t]+(?:tokens?[ \t]+)?out\b)")


def counted_length_setting(unit_text: str, lead: str, others: bool, after: str = "") -> str | None:
    """``isl`` or ``osl`` when a count written "2,000 input tokens" (or "2,000-token input
    lengths") sets the length of the workload its sentence's other figures were measured at
    ("With 2,000 input tokens, TTFT was 0.3 s"); None when it stands alone ("The trace
    averages 8,596 input tokens") or a statistic or total is what the sentence reports."""
    m = _UNIT_KIND_RE.match(unit_text) or _KIND_AFTER_RE.match(after)
    if m is None or not others or _STAT_WORD_RE.search(lead) or TOTALLED_RE.search(lead):
        return None
    return "osl" if (m.group("kind") or "").lower() in _OUTPUT_KINDS else "isl"


# "supports outputs of 80K tokens", "can generate outputs of up to 100K tokens": what a
# model can do is a claim about it, not the length a run was set to
_CAPABILITY_RE = re.compile(r"(?i)\b(?:supports?|supporting|handles?|accepts?|allows?|can\s+(?:generate|produce|write|output|handle|process)|generates?|produces?|writes?)\b")


def length_setting(lead: str, others: bool = True) -> str | None:
    """``isl`` or ``osl`` when the words before a token count make it a length setting of the
    workload; None when they report a statistic of it, say what a model can do (with no
    other figure in the sentence) or are no length words at all."""
    m = LENGTH_LEAD_RE.search(lead)
    if m is None or _STAT_WORD_RE.search(lead) or TOTALLED_RE.search(lead):
        return None
    if not others and _CAPABILITY_RE.search(lead):
        return None
    if m.group("kind").lower() == "context":
        return None        # a context length is a claim about the model
    return "osl" if m.group("kind").lower() in _OUTPUT_KINDS else "isl"


# the earlier members of a list before a figure: "of 1,024, 2,048 and " (with "tokens" or
# "K" after each)
_LIST_HEAD_RE = re.compile(r"(?:\d[\d,.]*\s?[kKM]?(?:\s*tokens?)?\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+))+$")


def listed_length_setting(before: str) -> str | None:
    """A token count that continues a list of lengths ("input lengths of 1,024 and 4,096
    tokens": 4,096 is a length too): the list's setting, read before its first member."""
    m = _LIST_HEAD_RE.search(before)
    return length_setting(before[:m.start()]) if m else None


def listed_config_value(before: str) -> bool:
    """Does the figure continue a list of values a run was set to ("packed to 8K or 16K
    tokens": 16K too), read before the list's first member? (The first member may be read
    after it, when it borrows its unit from this one.)"""
    m = _LIST_HEAD_RE.search(before)
    return bool(m) and is_config_value(before[:m.start()])


# four or more bare numbers in a row, apart only by spaces: the tick labels of a chart axis
# as PDF text renders them ("0 100 200 300 400 BandWidth (Gbps)")
# (a digit leads, so ``re`` skips to each one in C; the look-behind after it checks the
# character before it)
_TICKS_RE = re.compile(r"\d(?<![\w.,]\d)(?:[\d.,]*\d)?[ \t\n]+(?:\d(?:[\d.,]*\d)?[ \t\n]+){2,}\d(?:[\d.,]*\d)?(?![\w.,])")


def in_axis_ticks(text: str, start: int, end: int) -> bool:
    """Is the number at ``text[start:end]`` one of a run of bare numbers (a chart's axis),
    written along a line or down the ends of lines?"""
    lo, hi = max(0, start - 60), min(len(text), end + 60)
    if any(m.start() <= start and end <= m.end() for m in _TICKS_RE.finditer(text, lo, hi)):
        return True
    if any(ch in "kKM" for ch in text[end - 1:end + 1]):     # the suffix read with the number or not
        for m in _SUFFIXED_TICKS_RE.finditer(text, max(0, start - 80), min(len(text), end + 80)):
            if m.start() <= start and end <= m.end() + 1 and _is_scale(m.group(0)):
                return True
    return in_tick_column(text, start, end)


# an axis whose labels carry a magnitude ("8k 16k 32k 64k 128k Prompt Length"): four or more
# numbers with the same suffix, apart only by spaces, stepping one way evenly or by one
# factor (a log axis). A row of a table the PDF flattened ("67B 72B 70B 39B") does not.
_SUFFIXED_TICKS_RE = re.compile(r"(?<![\w.,])\d+(?:\.\d+)?[kKM](?:[ \t]+\d+(?:\.\d+)?[kKM]){3,}(?![\w.,])")
_SUFFIX_NUM_RE = re.compile(r"(\d+(?:\.\d+)?)([kKM])")


def _is_scale(run: str) -> bool:
    """Do the numbers of ``run`` share one suffix and step one way, evenly or by one factor?"""
    parts = _SUFFIX_NUM_RE.findall(run)
    if len({suf.lower() for _, suf in parts}) != 1:
        return False
    vals = [float(v) for v, _ in parts]
    steps = [b - a for a, b in zip(vals, vals[1:])]
    if not steps or any(d == 0 for d in steps) or any((d > 0) != (steps[0] > 0) for d in steps):
        return False
    ratios = [b / a for a, b in zip(vals, vals[1:]) if a]
    even = max(abs(d) for d in steps) <= 2 * min(abs(d) for d in steps)
    geometric = len(ratios) == len(steps) and max(ratios) <= 1.01 * min(ratios)
    return even or geometric


# A chart's axis as PDF text renders it down the page: each tick label ends a line (alone,
# or after the text the chart sits beside: "features 100\n...\n80\n... 60"). Tick labels
# are round (two significant digits at most: 100, 80, 22000, 0.5) and evenly spaced, so
# four or more of them, each within a few lines of the next and stepping one way by steps
# within a factor of two of each other (88, 85, 82, 80 are rounded), are an axis; a column of
# measured values is neither round nor evenly spaced.
_LINE_END_NUMBER_RE = re.compile(r"(?<![^\s])(\d[\d,]*(?:\.\d+)?)[ \t]*(?=\n|\Z)")
_TICK_LINES_APART = 3
_MIN_TICKS = 4


def _round_tick(written: str) -> float | None:
    """The value of a tick label with at most two significant digits, else None."""
    digits = written.replace(",", "").replace(".", "").strip("0")
    if len(digits) > 2:
        return None
    try:
        return float(written.replace(",", ""))
    except ValueError:
        return None


def in_tick_column(text: str, start: int, end: int) -> bool:
    """Is the number at ``text[start:end]`` one of four or more round, evenly spaced
    numbers that end nearby lines (an axis PDF text wrote down the page)?"""
    if not _LINE_END_NUMBER_RE.match(text, start) or _round_tick(text[start:end]) is None:
        return False
    lo = text.rfind("\n", 0, max(0, start - 600)) + 1
    hi = text.find("\n", min(len(text), end + 600))
    hi = len(text) if hi < 0 else hi
    ticks: list[tuple[int, int, float]] = []    # (line number, start, value)
    line, pos = 0, lo
    for m in _LINE_END_NUMBER_RE.finditer(text, lo, hi):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        v = _round_tick(m.group(1))
        if v is not None:
            ticks.append((line, m.start(), v))
    # runs of ticks each within a few lines of the previous, stepping one way evenly
    run: list[tuple[int, int, float]] = []
    for t in ticks:
        if run and (t[0] - run[-1][0] > _TICK_LINES_APART or not _steps_evenly(run, t[2])):
            if _run_holds(run, start):
                return True
            run = run[-1:] if run and t[0] - run[-1][0] <= _TICK_LINES_APART and t[2] != run[-1][2] else []
        run.append(t)
    return _run_holds(run, start)


def _steps_evenly(run: list[tuple[int, int, float]], value: float) -> bool:
    if len(run) < 1 or value == run[-1][2]:
        return False
    if len(run) == 1:
        return True
    steps = [b[2] - a[2] for a, b in zip(run, run[1:])] + [value - run[-1][2]]
    if any((d > 0) != (steps[0] > 0) for d in steps):
        return False
    mags = [abs(d) for d in steps]
    return max(mags) <= 2 * min(mags)


def _run_holds(run: list[tuple[int, int, float]], start: int) -> bool:
    return len(run) >= _MIN_TICKS and any(s == start for _, s, _ in run)


# the rated speed of a network part: the words after the unit name the part ("200 Gbps
# NICs", "400GbE links", "200 GB/s aggregate line rate"), or a count multiplies it as a
# configuration does ("8x400 Gbps", "4 × 200Gbps")
_PORT_AFTER_RE = re.compile(
    r"(?i)[ \t]*(?:\)[ \t]*)?(?:(?:RDMA|RoCE|InfiniBand|IB|Ethernet|network|NDR|HDR|ConnectX-?\d*)[ \t]+)*"
    r"(?:NICs?|links?|ports?|adapters?|HCAs?|cards?|interfaces?|uplinks?|connections?|switch(?:es)?"
    r"|(?:aggregate[ \t]+)?line[ \t]+rates?|InfiniBand|RoCE|Ethernet|network(?![ \t]+(?:bandwidth|throughput)))\b")
_PORT_COUNT_LEAD_RE = re.compile(r"(?<![\w.])\d{1,3}[ \t]*[x×][ \t]*$")


def is_port_speed(lead: str, after: str) -> bool:
    """Is a bandwidth the rated speed of a network part (its NIC, link or port), not a
    speed measured over it?"""
    return bool(_PORT_AFTER_RE.match(after) or _PORT_COUNT_LEAD_RE.search(lead))


# "(the buffer) is set to 120 GB", "we set the offloading buffer to 120 GB", "setting the TBT
# threshold to 100 ms", "configured to 64": a value someone chose for a run, not one it reached
_SET_TO_RE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|be|been|being)\s+(?:set|configured)\s+(?:to|at|as)"
    # "prompts ... packed to 8K tokens", "truncated to 2,048 tokens": a length a run was cut to
    r"|\b(?:packed|truncated|padded|clipped|trimmed)\s+to"
    # (the verb, not the noun: "another document in the set reports ... up to 376")
    r"|(?<!the )(?<!this )(?<!that )(?<!each )(?<!data )(?<!test )(?<!a )"
    r"\b(?:set|sets|setting|configur(?:e|es|ed|ing))\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|our\s+)?"
    r"(?:[^.;:!?\n]|[.:](?=\S)){0,60}?(?<!\bup)\s(?:to|at|as))[ \t]*[~≈]?[ \t]*$")
# "--max-num-seqs 256", "--cache_lens=32768", "num_prompts=200", "num prompt=200": a flag's
# or a setting's value. A name with a measured quantity's word ("throughput=5.3") is a
# printed result, and arithmetic ("22/8 = 2.75x") is read by is_arithmetic_result.
_CONFIG_LEAD_RE = re.compile(
    r"(?:(?<![\w-])--?[A-Za-z][\w-]*(?:[ \t]*=[ \t]*|[ \t]+)"
    r"|(?<![\w.])(?P<name>[A-Za-z][\w.-]*(?:[ \t][A-Za-z][\w.-]*)?)[ \t]*[=:][ \t]*)[\"']?$")
_CONFIG_NAME_RE = re.compile(
    r"(?i)_|\b(?:default|num|max|min|len|length|size|seed|port|workers?|threads?|tp|pp|ep|dp|prompts?|batch|"
    r"concurrency|rate|steps?|iters?|epochs?|top[_-]?[kp]|temperature|n)\b")
_MEASURED_NAME_RE = re.compile(
    r"(?i)throughput|latency|ttft|tpot|itl|tps|speed|time|bandwidth|duration|elapsed|tok(?:en)?s?[/_]s|qps|rps|"
    r"utili[sz]ation|memory|mem\b|usage|cost|price")


# "RAM: 224 GiB (`--memory="224g"`)": the flag written right after a value is what set it
_FLAG_AFTER_RE = re.compile(r"[ \t]*\([ \t]*[`'\"]*--?[A-Za-z][\w-]*[ \t]*[= ]")


def restated_by_flag(after: str) -> bool:
    """Is the figure followed by the command-line flag that set it ("(`--memory=224g`)")?"""
    return bool(_FLAG_AFTER_RE.match(after))


def is_config_value(lead: str) -> bool:
    """Is the number the value of a command-line flag, a named setting ("default: 16K") or
    a value a run was set to ("is set to 120 GB")?"""
    if _SET_TO_RE.search(lead):
        return True
    m = _CONFIG_LEAD_RE.search(lead)
    if m is None:
        return False
    name = m.group("name")
    if name is None:
        return True          # a flag
    return bool(_CONFIG_NAME_RE.search(name)) and not _MEASURED_NAME_RE.search(name)


def names_a_system(sentence: str) -> bool:
    return bool(_SYSTEM_WORDS_RE.search(sentence))


# A fenced block that is a program's printed output, not code: most of its lines are
# "Label: value" lines and none looks like code ("$ ", "--flag", "import", "=", "(").
_FENCE_RE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
_OUTPUT_LINE_RE = re.compile(r"^[ \t]*" + KV_KEY_START + r"[\w .()/%-]{0,60}:[ \t]+[~<>]?\d")
_CODE_LINE_RE = re.compile(r"^[ \t]*(?:\$|#!|--|import\b|from\b|def\b|python|pip\b)|[=(){};]\s*$|\s--\w")
NUMBER_UNIT_RE = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)[ \t]")


def output_blocks(text: str) -> list[tuple[int, int]]:
    """Spans of fenced blocks that print results ("Throughput: 7.15 requests/s"): at least
    half their lines are "Label: value" lines and none looks like code."""
    out = []
    for m in _FENCE_RE.finditer(text):
        lines = [ln for ln in m.group(1).split("\n") if ln.strip()]
        if not lines or any(_CODE_LINE_RE.search(ln) for ln in lines):
            continue
        if sum(1 for ln in lines if _OUTPUT_LINE_RE.match(ln)) * 2 >= len(lines):
            out.append((m.start(1), m.end(1)))
    return out


# ---------------------------------------------------------------- thresholds (SLOs)
# A latency or a rate a sentence sets as a requirement: "an SLO of 200 ms", "TBT thresholds
# are set to 100ms", "with a P90 TTFT deadline of 0.4 s", "must stay below 50 ms",
# "constrained to be under 500ms", "a chatbot may require a response under 0.2 seconds".
# It is the bar the figures beside it were measured against, not a figure of a system.
_BAR_NOUN = (r"(?:SLOs?|SLAs?|SLO\s+targets?|thresholds?|deadlines?|targets?|budgets?|"
             r"constraints?|requirements?|goals?|limits?|caps?|cut-?offs?)")
_THRESHOLD_LEAD_RE = re.compile(
    r"(?i)(?:"
    # the bar's noun, then what it is of and a copula or a preposition: "an SLO of",
    # "the SLO of P90 TTFT as", "TBT thresholds are set to", "a 99th-percentile target:"
    r"\b" + _BAR_NOUN + r"\b(?:[ \t]+(?:of|for|on)\b[^.;:!?\n]{0,40}?)?"
    r"(?:[ \t]+(?:is|are|was|were|of|at|as|to|be|=|set|fixed|defined|kept)\b|[ \t]*[=:])"
    r"(?:[ \t]+(?:set|fixed|defined|kept|to|as|at|be|of|under|below|within|is|are))*"
    # a requirement's verb: "must stay below", "should be under", "needs to be within",
    # "is constrained to be under", "requires ... (e.g., under"
    r"|\b(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+required\s+to|are\s+required\s+to|"
    r"(?:is|are)\s+constrained\s+to|constrained\s+to)"
    r"(?:[ \t]+(?:be|stay|remain|keep|kept|not\s+exceed|fall|complete|respond))?"
    r"(?:[ \t]+(?:below|under|within|at\s+most|less\s+than|no\s+more\s+than|in))?"
    r"|\brequir(?:e|es|ed|ing)\b[^.;!?\n\d]{0,60}?(?:\((?:e\.g\.,?|i\.e\.,?)?[ \t]*)?"
    r"(?:below|under|within|at\s+most|less\s+than)"
    # a value configured, not reached: "(the timeout) is set to", "setting the TBT to"
    r")[ \t]*[~≈<>≤]?[ \t]*"
    # the bar's earlier values in a list ("TTFT and TBT thresholds are set to 10 s and ")
    r"(?:\d[\d,.]*[ \t]*[A-Za-zµ/]{0,12}[ \t]*(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|and[ \t]+|or[ \t]+))*$")
# the noun written after the figure: "a 200 ms SLO", "under the 50 ms TPOT target",
# "100 ms TBT threshold"
_THRESHOLD_AFTER_RE = re.compile(
    r"(?i)[ \t]*(?:\)[ \t]*)?(?:(?:P\d{2}(?:\.\d)?|p\d{2}|mean|median|tail)[ \t]+)?"
    r"(?:(?:TTFT|TPOT|TBT|ITL|E2E|end-to-end|first[ \t-]token|latency|response[ \t]+time|per-token|"
    r"inter-token|decode|prefill|time)[ \t]+)*" + _BAR_NOUN + r"\b")


# "TTFT < 200 ms" written as a condition: a metric, then a less-than sign, in a sentence
# that sets a requirement or defines a measure by one ("requires TTFT < 200 ms", "Goodput
# (P90 TTFT < 200ms) = ...", "when at least 90% of requests have TPOT < 50ms")
_SYMBOLIC_BAR_RE = re.compile(
    r"(?i)\b(?:P\d{2}(?:\.\d)?[ \t]+|p\d{2}[ \t]+)?(?:TTFT|TPOT|TBT|ITL|E2E|latency|time[ \t]+to[ \t]+first[ \t]+token)"
    r"[ \t]*(?:<=?|≤|&lt;)[ \t]*$")
_BAR_SENTENCE_RE = re.compile(
    r"(?i)\b(?:goodput|SLOs?|SLAs?|requir\w*|attain\w*|deadlines?|constraints?|must|"
    r"at\s+least\s+\d+(?:\.\d+)?\s*%\s+of\s+(?:the\s+|all\s+)?requests)\b")


def is_threshold(own: str, after: str, sentence: str = "") -> bool:
    """Is a latency (or a rate) the bar a sentence sets (an SLO, a threshold, a deadline,
    a requirement), not a figure a system reached? ``own`` is the figure's own clause
    before it; ``after`` the text right after its unit; ``sentence`` the whole sentence
    (a "TTFT < 200 ms" is a bar where the sentence sets a requirement or defines by it)."""
    return bool(_THRESHOLD_LEAD_RE.search(own) or _THRESHOLD_AFTER_RE.match(after)
                or (_SYMBOLIC_BAR_RE.search(own) and _BAR_SENTENCE_RE.search(sentence)))


# A bound in a clause that sets a condition for the main clause: "When the total bandwidth
# exceeds 100Gbps, the average TTFT remains below 2s", "if the load rises above 8 req/s,
# ...". It is the point a sweep crossed, the condition of the figure after the comma, not a
# figure a system reached. (PDF text glues words: "Whenthetotal".)
_CONDITION_BOUND_RE = re.compile(
    r"(?i)(?:^|[.;:!?]\s*|\s|\*)(?:when|whenever|if|once|as\s+long\s+as|until|unless)(?:\b|(?=the))"
    r"[^,;:.!?\n]{0,120}?\b(?:exceed(?:s|ed|ing)?|surpass(?:es|ed)?|(?:is|are|was|were|stays?|goes|go)\s+"
    r"(?:above|below|over|under|beyond|less\s+than|greater\s+than|more\s+than|higher\s+than|lower\s+than)|"
    r"(?:falls?|fell|drops?|dropped|dips?)\s+(?:below|under|to)|(?:rises?|rose|climbs?|grows?)\s+(?:above|over|beyond|past|to)|"
    r"reach(?:es|ed)?)\s*[~≈]?\s*$")
_MAIN_CLAUSE_AFTER_RE = re.compile(r"[ \t]*,")


def is_condition_bound(before: str, after: str) -> bool:
    """Is the figure the bound a condition clause sets ("When X exceeds 100Gbps, ...")?
    ``before``: up to 150 characters before the number; ``after``: the text after its unit."""
    return bool(_MAIN_CLAUSE_AFTER_RE.match(after)) and bool(_CONDITION_BOUND_RE.search(before))


# ---------------------------------------------------------------- worked examples
# A sentence that sets up a supposition and works it out: "Suppose we set ...", "Imagine a
# 70B model ...", "Let's say each request ...", "For example, if ...", "e.g., if ...",
# "Ex. a 200B model on one GPU takes 444 ms" (slides), "Example: ...". Its numbers are
# inputs and results of the example, not figures measured on a system. "Assuming a GPU
# costs $2 per hour, the daily cost is $87,072" is not one: a publisher's estimate of its
# own system states its premise, and both figures are claims (hypothetical in stance).
_EXAMPLE_OPEN_RE = re.compile(
    r"(?i)^[ \t>*•\-–·\d.)]*(?:\*\*)?(?:"
    r"suppose|supposing|imagine|let'?s\s+say|let\s+us\s+say|say\s+(?:we|you|a|an|the)\b|"
    r"consider\s+(?:a|an|the\s+case|as\s+an\s+example)\b|as\s+an\s+example,?\s+(?:if|suppose|assume|consider|let)\b|"
    r"(?:for\s+(?:example|instance)|e\.g\.|i\.e\.),?\s+(?:if|suppose|imagine|say|let'?s)\b|"
    r"if\s+(?:we|you|one)\s+(?:assume|suppose|take|consider)\b|"
    r"ex(?:\.|:)|example\s*[:.]|worked\s+example\b)")
# the marker may stand just before the sentence splitter's start ("• Ex. 200B model ..."
# splits after "Ex.")
_EXAMPLE_TAIL_RE = re.compile(r"(?i)(?:^|[\n•>*\-–·])[ \t]*(?:\*\*)?(?:ex|e\.g|example)[.:]?[ \t]*$")


def is_worked_example(sentence_head: str, before_sentence: str) -> bool:
    """Does the sentence set up and work out an example ("Suppose ...", "For example, if
    ...", "Ex. ...")? ``sentence_head`` is the sentence's start, ``before_sentence`` the
    text of its line before it."""
    return bool(_EXAMPLE_OPEN_RE.match(sentence_head) or _EXAMPLE_TAIL_RE.search(before_sentence))


# ---------------------------------------------------------------- arithmetic written out
# "2*100=200", "40 x 2176 = 87,040", "22/8 = 2.75": the operands and the result of a
# computation written out are working, not figures (a unit may follow each operand:
# "8 GB * 4 = 32 GB")
_OPERAND = r"\d[\d,]*(?:\.\d+)?[ \t]*(?:[A-Za-z%$/]{1,8}[ \t]*)?"
# the same, with a multiple and one unit word: "100k tokens", "128k vocabulary"
_FACTOR = r"\d[\d,]*(?:\.\d+)?[kKMB]?[ \t]*(?:[A-Za-z%$/]{1,12}[ \t]*)?"
_EQUATION_RE = re.compile(
    r"(?<![\w.])" + _OPERAND + r"(?:[*×x÷/+−][ \t]*\(?[ \t]*" + _OPERAND + r"\)?[ \t]*)+"
    r"(?:=|≈|~=)[ \t]*\$?" + r"\d[\d,]*(?:\.\d+)?"
    # the result first: "25.6GB (=100k tokens * 128k vocabulary * 2)"
    r"|(?:=|≈)[ \t]*" + _FACTOR + r"(?:[*×÷][ \t]*" + _FACTOR + r")+")


_CALL_RE = re.compile(r"\b(?:min|max|sum|avg|mean|round|ceil|floor)\s*\(\s*$", re.I)


def in_equation(text: str, start: int, end: int) -> bool:
    """Is the number at ``text[start:end]`` an operand or the result of arithmetic written
    out with an equals sign ("2*100=200"), or an argument of a function written out
    ("min(5.6 x 2, 10)")?"""
    lo, hi = max(0, start - 50), min(len(text), end + 50)
    paren = text.rfind("(", lo, start)
    if paren >= 0 and ")" not in text[paren:start] and _CALL_RE.search(text, max(0, paren - 8), paren + 1):
        return True
    if "=" not in text[lo:hi] and "≈" not in text[lo:hi]:
        return False
    return any(m.start() <= start and end <= m.end() for m in _EQUATION_RE.finditer(text, lo, hi))


# ---------------------------------------------------------------- operating points
# "1.41x at 8K", "36 versus 24 at 16K", "rises sharply at 6400 tokens": a token count after
# "at" is the point (context length, sequence length) the sentence's other figures were
# read at, a setting of theirs
_AT_POINT_RE = re.compile(
    r"(?i)\b(?:at|for)\s+(?:(?:a|an|the)\s+)?(?:(?:context|sequence|input|prompt|kv(?:-cache)?)\s+)?"
    r"(?:(?:length|len|size|window)s?\s+(?:of\s+)?)?[~≈]?\s*$")
_AT_ONLY_RE = re.compile(r"(?i)\bat\s+(?:(?:a|an|the)\s+)?[~≈]?\s*$")


def is_operating_point(own: str) -> bool:
    """Is a token count the point ("at 16K", "at a context length of 8K") the figures
    beside it were measured at? "for" counts only with a length word ("for a context
    length of 8K"), since "trained for 2T tokens" states a size."""
    m = _AT_POINT_RE.search(own)
    return bool(m) and (bool(_AT_ONLY_RE.search(own)) or bool(re.search(r"(?i)length|len|size|window", m.group(0))))


# what joins the next item of a list to the one before it: "and P90 TPOT as", ", ", " or "
_LIST_JOIN_RE = re.compile(r"(?i)^[ \t]*(?:,[ \t]*)?(?:(?:and|or)\b)?[^.;:!?\n]{0,30}?"
                           r"(?:\b(?:as|of|at|to|is|be)|[=:])?[ \t]*[~≈<>≤]?[ \t]*$")
_VERB_IN_JOIN_RE = re.compile(r"(?i)\b(?:achiev\w*|reach\w*|get\w*|got|measur\w*|observ\w*|see|saw|deliver\w*|"
                              r"improv\w*|reduc\w*|cut\w*|dropp?\w*|ris\w*|rose|while|whereas|but|yield\w*|gives?)\b")


def continues_list(own: str) -> bool:
    """Is ``own`` (the words between two figures) only what joins a list's next item ("and
    P90 TPOT as"), so the figure is what the one before it was (a threshold too)?"""
    return bool(_LIST_JOIN_RE.match(own)) and not _VERB_IN_JOIN_RE.search(own)


# The smallest parameter count that sizes a model: "defined by two parameters", "tune these
# 12 parameters" count a method's or a function's parameters, not a network's weights.
MIN_MODEL_PARAMS = 1e6


# A load is chosen, so it is written round ("1", "0.5", "16"); a rate written to three
# decimal places or more ("14.556") was measured, whatever its column is called.
_MEASURED_DECIMALS_RE = re.compile(r"(?<![\w.])\d[\d,]*\.\d{3,}(?![\d.])")


def written_as_measured(cells: list[str]) -> bool:
    """Are a column's rates written as measurements are (one to three decimal places or
    more), not as the loads of a sweep?"""
    return any(_MEASURED_DECIMALS_RE.search(t) for t in cells)


# a reStructuredText directive's layout option or an HTML-ish size attribute written as a
# line of its own: "   :width: 100%", ":scale: 50 %" (markup, not a measurement)
_LAYOUT_OPTION_RE = re.compile(r"^\s*:(?:width|height|scale|align|figwidth|figclass|class|"
                               r"name|alt|target|widths|header-rows|stub-columns):\s*$", re.I)


def is_layout_option(line_before: str) -> bool:
    """Is the figure the value of a markup layout option (``line_before`` is its line up to
    the figure)?"""
    return bool(_LAYOUT_OPTION_RE.match(line_before))


# inside an open "(e.g., ..." or "(such as ..." bracket: examples of values a setting may
# take ("probes the model every so often (e.g., every 32, 64, or 128 tokens)")
_EXAMPLES_OPEN_RE = re.compile(r"\((?:e\.g\.|for\s+example|such\s+as|say)[,:]?\s[^()]*$", re.I)


def in_examples(before: str) -> bool:
    """Is a token count inside an open "(e.g., ..." bracket that ``before`` ends in? Those
    are values a setting could take, not a figure measured."""
    return bool(_EXAMPLES_OPEN_RE.search(before))
