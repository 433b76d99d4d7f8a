"""Patterns and word lists the claim builder uses, compiled once per process."""
from __future__ import annotations

import bisect
import re

from pipeline.vocab.firstchars import word_led
from pipeline.vocab.loader import UnitEntry

AND_TO_RE = re.compile(r"\s+(?:and|to)\s+$")
OPEN_PAREN_RE = re.compile(r"\(\s*$")
DOUBLE_NOUN_RE = re.compile(r"[- ](?:buffer|check|click|precision|the\s+number\s+of|counting|quantization)", re.I)
CAP_WORD_RE = re.compile(r"\s*([A-Z][\w-]*)")
BRACKETED_RE = re.compile(r"\(([^)]*)\)|\[([^\]]*)\]")
HEADER_WORD_START_RE = re.compile(r"(?:^|\s|/)(?=[A-Za-z%$])")
TIME_HEADER_RE = re.compile(r"(?i)\b(?:ttft|tpot|itl|latency|time)\b")
TIME_UNIT_RE = re.compile(r"(?i)\b(ms|s|sec|seconds|us|µs)\b")
AT_OPERATING_POINT_RE = re.compile(r"\s+at\s+(?:a\s+)?(?:P\d+\s+of\s+)?", re.I)
QUOTED_AND_RE = re.compile(r"^[\s\"'”’,]*(?:\"[^\"]{0,30}\"|“[^”]{0,30}”)?[\s,\"'”’]*(?:and|or)\s+$")
QUOTED_AND_STRICT_RE = re.compile(r"^[\s\"'”’,]*(?:\"[^\"]{0,30}\"|“[^”]{0,30}”)[\s,\"'”’]*(?:and|or)\s+$")
AGAINST_RE = re.compile(r"^\s+(?:against|versus|vs\.?)\s+(?:a|an|the)?\s*(?:\w+\s+){0,2}(?:of\s+)?$")
FIRST_HEADING_RE = re.compile(r"(?m)^\s*#\s+(.+)$")
AGGREGATE_WORD_RE = re.compile(r"(?i)total|overall|aggregate|system-wide|cluster-wide|combined")
PEAK_WORD_RE = re.compile(r"(?i)peak|max")
OF_AFTER_RE = re.compile(r"\s+(?:of|=)")
OUT_WORD_RE = re.compile(r"(?i)\bout(?:put)?\b")
IN_WORD_RE = re.compile(r"(?i)\b(?:in(?:put)?|prompt)\b")
# Words after a duration that make it a point in time, not a measured latency.
TIME_REF_RE = re.compile(r"\s*(?:earlier|later|ago|before|after|prior|from\s+now|old|long)\b", re.I)
# A word after a bare number that shows it counts things ("16 GB300s", "five documents").
FOLLOWING_OK = {
    "at", "on", "as", "and", "or", "with", "against", "for", "in", "to", "from", "credited",
    "figure", "figures", "is", "was", "versus", "vs", "under", "over", "when", "while", "which",
    "that", "by", "mark", "number", "reported", "claimed", "listed", "stated", "attributed",
    "remains", "stands", "came", "comes", "holds", "but", "so", "than", "of", "per", "level",
}
PERF_VERB_RE = re.compile(word_led(
    r"\b(?:reach(?:es|ed)?|hit(?:s)?|stops?\s+at|stopped\s+at|top(?:s|ped)|peaks?\s+at|peaked\s+at|"
    r"came\s+(?:in\s+)?at|comes\s+(?:in\s+)?at|ran\s+at|runs\s+at|achiev(?:es|ed)|deliver(?:s|ed)|"
    r"sits?\s+at|lands?\s+at|clocks?\s+(?:in\s+)?at|manag(?:es|ed))\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|only\s+|just\s+)?$",
    re.I), re.I,
)
# (an arrow, "1,200 -> 1,800 tokens/s", and "(up) from", "to 1,800 tokens/s, up from
# 1,200", join the two figures of a change: change.py)
COORD_RE = re.compile(r"^[\s\"'”’,;:)*_]*(?:and|or|against|versus|vs\.?|compared\s+(?:to|with)|to|while|with|-+>|→|⟶|⇒|=>|(?:(?:up|down)\s+)?from)?[\s\"'“‘,(*_]*$", re.I)
SKIP_HEADER_RE = re.compile(
    r"(?i)\b(?:batch|concurrency|concurrent|tp|ep|pp|dp|#|num|number|count|gpus?|nodes?|rank|id|version|year|date|"
    r"step|epoch|layers?|heads?|world|replicas?|instances?|users?|clients?|qps\s+target|rate)\b"
)
TOKENS_HEADER_RE = re.compile(r"(?i)\b(?:length|len|isl|osl|prompt|input|output|context|tokens?|seq)\b")
HEADER_FAMILY = [
    (re.compile(r"(?i)speed-?up|\bratio\b|improvement\s*\(x\)"), UnitEntry("x", "ratio")),
    (re.compile(r"(?i)utili[sz]ation|hit\s+rate|share|accuracy|percent"), UnitEntry("%", "percent")),
    (re.compile(r"(?i)throughput|tok(?:en)?s?/s|tps\b"), UnitEntry("tokens/s", "token_throughput")),
]
STAT_CAPTION = {"max": "peak", "maximum": "peak", "peak": "peak", "mean": "mean", "average": "mean", "median": "median"}
# a statistic word in a caption, unless it names a setting ("Max num tokens was set to",
# "max-batch size")
STAT_CAPTION_RE = re.compile(r"(?i)\b(?:" + "|".join(STAT_CAPTION) + r")\b"
                             r"(?![-_ ]*(?:num\b|number|batch|seq|sequence|input|output|tokens?\b|len|concurren|context|new))")
# Capitalised words that may follow "2x" in a title or heading without making it a count.
RATIO_NOUNS = {
    "faster", "higher", "lower", "more", "less", "better", "speedup", "speed", "throughput",
    "performance", "improvement", "increase", "reduction", "gain", "boost", "cheaper", "the",
}
# ... nor a capital that starts the noun phrase of what changed: "5x KV cache memory reduction"
RATIO_NOUN_LATER_RE = re.compile(r"(?i)(?:\s+(?!(?:for|with|to|at|on|in|of|and|or|the|an?|by|from|as|is|are|was|were|"
                                 r"gives?|gave|delivers?|GPUs?|nodes?|chips?|cards?|servers?|instances?|"
                                 r"accelerators?|devices?|machines?|links?|systems?)\b)[\w-]+){1,3}?\s+(?:reductions?|improvements?|speed-?ups?|increases?|"
                                 r"gains?|boosts?|savings?|faster|higher|lower|better|cheaper|smaller|larger)\b")
# "sample 32 times and", "6x-4y": a multiplier word that counts repetitions or sits in math.
# ... unless the multiplier completes "by": "increased by 4 times and 2 times" is a factor
BY_FACTOR_BEFORE_RE = re.compile(r"\bby\s+(?:about\s+|around\s+|nearly\s+|over\s+|up\s+to\s+)?$", re.I)
NOT_RATIO_AFTER_RE = re.compile(r"(?<=times)(?:\s*[.,;:)]|\s+(?:and|to|in|per|each|a|every|with|on|over|for)\b)|(?<=[xX×])(?:\s*[-+=&^/]|\s+\*|\*(?=\d))\s*\w|(?<=[xX×])[ \t]+\d")
# a cell that is one figure: "1,234", "~2.5k", "3-4x", "12%", "132.19 ± 0.55" (a mean and
# its spread), "6.74 B"
CELL_NUMBER_RE = re.compile(r"[~≈<>+±]?\s*\$?[0-9][0-9,.]*\s*[kKMBT]?\s*(?:[-–~]\s*[0-9][0-9,.]*\s*[kKMBT]?)?\s*[%x×]?\s*(?:(?:±|\+/?-)\s*[0-9][0-9,.]*\s*[%]?)?\s*"
                            # "52.3k / node": the header's unit, the cell's denominator
                            r"(?:(?:/|per)\s*(?:node|GPU|user|rank|device|server|instance|replica)s?\s*)?(?:\(.*\))?[*†‡]*")
# the spread written after a figure ("± 0.55"): part of the figure before it, never a figure
SPREAD_BEFORE_RE = re.compile(r"(?:±|\+/?-)\s*$")
# a magnitude letter written apart from a cell's number ("6.74 B" in a parameters column)
SPACED_MAGNITUDE_RE = re.compile(r"\s+([kKMBT])\b")
LIST_SEP_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
# Families a bare number may borrow by repeating a value: figures people cite back.
REFERABLE = ("token_throughput", "request_throughput", "latency", "money", "parameters", "tokens", "bandwidth")
CONDITION_BEFORE_RE = re.compile(
    r"(?i)(?<!per\s)(?<!per-)\b(?:batch(?:\s+sizes?)?|concurrency|concurrent|length|lengths|layers?|ranks?|TP|EP|DP|PP|GPUs?|nodes?|"
    r"steps?|epochs?|iterations?|version|users?|requests?|clients?|threads?|workers?)\b[^.;:]{0,25}$"
)
# "by a factor of 2.54": a multiple written before its number
FACTOR_OF_BEFORE_RE = re.compile(r"\bfactor\s+of\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|over\s+|more\s+than\s+|up\s+to\s+|~\s*)?$", re.I)
# "an RPS > 10", "QPS of 16": a rate acronym written before its number.
UNIT_BEFORE_RE = re.compile(word_led(r"\b(RPS|QPS|TPS|req/s)\s*(?:\\?[<>]=?|≥|≤|of|=|:|at|around|about|~)?\s*$"))
# A CamelCase or mixed-case product or company name ("InferenceX", "SambaNova", "vLLM").
CAMEL_RE = re.compile(r"\b(?:[A-Z][a-z]+[A-Z][A-Za-z]*|[a-z]+[A-Z]{2,}[A-Za-z]*)\b")
AT_POINT_RE = re.compile(r"\s+at\s+(?:an?\s+)?(?:P\d+\s+of\s+|interactivity\s+of\s+)?", re.I)
BASELINE_RE = re.compile(r"(?i)\b(?:than|over|compared\s+(?:to|with)|vs\.?|versus|relative\s+to|against|baseline)\s+(?:the\s+|an?\s+|its\s+)?(?:\w+\s+){0,1}$")
# "X outperformed both vLLM and SGLang, achieving 4176 tokens/s": the names a figure's
# subject is set against (after "outperformed", "than", "vs", in a short list) are its
# rivals, not its engine (read back from each name)
RIVAL_BEFORE_RE = re.compile(
    r"(?i)\b(?:outperform(?:s|ed|ing)?|beat(?:s|ing)?|surpass(?:es|ed|ing)?|outpac(?:es|ed|ing)|than|vs\.?|versus|compared\s+(?:to|with)|relative\s+to"
    # what a model was built from is not the model: "based on our previous MiniMax-Text-01"
    # (not "a study based on Qwen2.5-32B models": what a study ran on is its subject)
    r"|(?:developed|built|trained|created)\s+(?:based\s+)?(?:up)?on(?:\s+(?:our|its|their|the))?(?:\s+(?:previous|earlier|prior|original|base))?"
    r"|based\s+on\s+(?:our|its|their|the)\s+(?:previous|earlier|prior|original|base)"
    r"|derived\s+from|distill(?:ed)?\s+from|initiali[sz]ed\s+from|fine-?tuned\s+from)"
    r"\s+(?!by\b)(?:both\s+|all\s+|the\s+|its\s+)?"
    r"(?:(?:[\w.+-]+(?:\s+[\w.+-]+)?,\s*){0,2}[\w.+-]+(?:\s+[\w.+-]+)?,?\s+(?:and|or)\s+)?$")
# "TGI's 3.55 requests/second": a name that owns the figure right after it
OWNS_FIGURE_RE = re.compile(r"['’]s[ \t]+(?:[\w.-]+[ \t]+){0,2}$")
NEXT_WORD_RE = re.compile(r"[ \t*_\"'”’]*([A-Za-z]+)")
RATIO_HINT_RE = re.compile(r"twice|doubl|tripl|quadrupl|halv|fold\b")
MODELISH_RE = re.compile(r"(?i)\b(?:model|models|parameters?|params|LLM|MoE|weights|dense|sized?)\b")
TOKEN_KIND_RE = re.compile(r"(?i)\b(?:cache\s+hits?|cached|outputs?|generated|decode|inputs?|prompts?|prefill|total)\b")
KIND_OF = {"cached": "cached_input", "output": "output", "generated": "output", "decode": "output",
            "input": "input", "prompt": "input", "prefill": "input", "total": "total"}
# "56.3% of its output tokens": a share of one kind of tokens (KIND_OF's one-word kinds)
_SHARE_KIND = r"(input|output|prompt|generated|prefill|decode|cached)[ \t]+tokens\b"
SHARE_OF_TOKENS_RE = re.compile(r"(?i)[ \t]+of[ \t]+(?:(?:the|all|its|their|[\w.-]+['’]s)[ \t]+)?(?:[\w.-]+[ \t]+)?"
                                + _SHARE_KIND)
# "Of all the input tokens it served, 56.3% hit the cache": the share's tokens named first
SHARE_OF_TOKENS_LEAD_RE = re.compile(r"(?i)\bof[ \t]+(?:all[ \t]+)?(?:the[ \t]+|its[ \t]+|their[ \t]+)?"
                                     + _SHARE_KIND + r"[^;%\n]{0,60}$")
KIND_OF.update({"cache hit": "cached_input", "cache hits": "cached_input", "outputs": "output",
                "inputs": "input", "prompts": "input"})


class AtLineStart:
    """What ``(?m)^body`` finds, for a ``body`` that never crosses a line: found by
    searching for the newline before each line, which ``re`` skips to in C, where a
    leading ``^`` is tried at every position of the text."""

    def __init__(self, body: str):
        self.first = re.compile(body)
        self.rest = re.compile("\n" + body)

    def spans(self, text: str):
        m = self.first.match(text)
        if m:
            yield m.span()
        for m in self.rest.finditer(text):
            yield m.start() + 1, m.end()


# a run's workload settings: what a section's one run carries to its figures (its
# parallelism is the row's or the sentence's: sections compare layouts), and with the
# offered load, what a sideways table row may hold instead of figures
WORKLOAD_SETTINGS = frozenset({"batch_size", "concurrency", "isl", "osl"})
# inline HTML emphasis that may stand between a comparator and its number ("up to <u>3.45x</u>")
INLINE_TAGS = r"(?:<(?:u|b|i|em|strong|mark|span)>)*"
HEADINGS = AtLineStart(r"#{1,6}[ \t]")
FENCES = AtLineStart(r"[ \t]*```")


def markdown_headings(text: str) -> list[tuple[int, int]]:
    """(start, level) of each Markdown heading outside fenced code ("# comment" lines of a
    shell block are no headings): the sections the extractor's subject and settings
    lookups walk."""
    fences = [s for s, _ in FENCES.spans(text)]
    return [(s, e - s - 1) for s, e in HEADINGS.spans(text) if bisect.bisect_left(fences, s) % 2 == 0]

SECTION_REACH = 1500  # how far back a section's subject carries, in characters
# "up to N", "as much as N": a best case of N (docs/claims-model.md §4), not a ceiling that any lower
# figure meets; "at most", "no more than", "under" stay ceilings.
PEAK_LEAD_RE = re.compile(r"(?i)\b(?:up\s+to|as\s+(?:much|many|high|fast|large|low|little)\s+as)"
                          r"\s+(?:an?\s+|about\s+|around\s+|roughly\s+|~\s*)?[*_]*" + INLINE_TAGS + r"\s*$")
REACH_RE = re.compile(r"(?i)\b(?:reach(?:es|ed|ing)?|hit(?:s|ting)?)\s+(?:the\s+|a\s+)?[*_]*\s*$")
SIZE_NOUN_RE = re.compile(r"(?i)\b(?:tokens?|context|models?|parameters?|params|LLMs?|MoE|weights)\b")
SIZE_NOUN_AFTER_RE = re.compile(r"(?i)\+?\s*(?:[\w-]+\s+)?(tokens?|context|models?|parameters?|params|LLMs?|MoE|weights)\b")
RATE_AFTER_RE = re.compile(r"(?i)\s*(?:/|per\s|a\s+second|every\s+second)")
NUMBER_WORD_RE = re.compile(r"(?i)\bthe\s+(?:number|digit|figure\s+of)\s*$")
SHARED_FIELDS = (("statistic",), ("hardware", "accelerator", "hw_count"), ("model", "model_params"),
                  ("concurrency",), ("workload",))
SIG_RE = re.compile(r"[1-9](?:[0-9,]*[1-9])?")
# Between two coordinated figures: "(32-way EP) or ~", ", and up to".
COORD_GAP_RE = re.compile(r"\s*(?:\([^()]{0,40}\))?\s*,?\s*(?:or|and)\s+(?:up\s+to\s+|about\s+|~|nearly\s+)?")
# a time unit as a column header's last word: "T_PP s", "Latency ms"
TRAILING_TIME_UNIT_RE = re.compile(r"\S[ \t]+(ms|s|sec|secs|µs|us|min)[ \t]*$")

# A section measured one request at a time: its rates with no denominator are one user's
# ("all benchmarks are run at batch size=1", "tokens/s/user", "single-batch inference")
ONE_AT_A_TIME_RE = re.compile(
    r"(?i)\b(?:(?:all|every|each)\s+(?:the\s+)?(?:benchmarks?|results?|numbers?|measurements?|runs?)"
    r"[^.\n]{0,40}?\bbatch[\s_-]*size\s*(?:=|of|:)?\s*\*{0,2}(?:1|one)\b(?![.,]?\d)"
    r"|\btokens?/s(?:ec)?/user\b"
    r"|\bbatch[\s_-]*size\s*(?:=|of|:)?\s*\*{0,2}(?:1|one)\b(?![.,]?\d)[^.\n]{0,60}?\bper[\s-]user\b)")

# A size that bounds a class of models ("Models smaller than 16B", "on models above 700B
# parameters"): no one model's size, so no model is inherited for it
CLASS_OF_MODELS_RE = re.compile(
    r"(?i)\bmodels?\s+(?:(?:smaller|larger|bigger|greater|fewer|less|more)\s+than|above|below|"
    r"under|over|beyond|exceeding|up\s+to|of\s+at\s+(?:least|most)|with\s+(?:more|fewer|less)\s+than)"
    r"\s*(?:about\s+|~)?$")


# what follows a name that owns the text a figure is read in: "DeepSeek-V2's paper",
# "the Llama 3 technical report" (extract/subjects.py: such a name is no figure's subject)
SOURCE_AFTER_RE = re.compile(
    r"(?:'s|’s)?\s+(?:tech(?:nical)?\s+)?(?:paper|report|blog(?:\s+post)?|post|team|authors|"
    r"documentation|docs|model\s+card)\b", re.I)


# a clause set against the one before it: what it names is its own figure's
# ("..., while vLLM gets barely 10k", "...; vLLM", "..., whereas TGI", "..., but vLLM")
CONTRAST_AFTER_RE = re.compile(r"(?:,\s*|\s+)(?:while|whereas|but|unlike)\s|;", re.I)
