"""A claim in plain words -> a verdict with evidence (docs/claims-model.md §4).

The sentence is read by the same extractor that reads documents, so "topped 1,000 tokens a
second per user" becomes a figure with comparator, unit, family, scope and whatever
subject and conditions the words name. A parameter-size figure beside it ("on models above
700B parameters") becomes a condition on the model's size, met by a primary claim's
``model_params`` or by a parameters claim on the same model.

Each primary figure of the same family is then compared with the claim, condition by
condition (model, hardware, engine, concurrency and the other settings the claim states,
statistic, phase and token kind, model size, money label, parameter kind, and for a
comparison its baseline, direction and measured quantity) and by value, with the link
stage's rounding- and comparator-aware consistency:

* ``supported``: a primary figure states every condition the claim states and its value
  meets the claim. A claim with no subject is met by any such figure; "up to N" is met
  only by a figure that reaches N.
* ``contradicted``: primary figures on exactly that quantity rule the claim out: the same
  comparison going the other way; for "up to N" the best figure below N; a higher figure
  against a ceiling; a bound below a floor ("up to 376" against "tops 500"), or operating
  points below it when the claim fixes the hardware and they pin one value; for a point
  claim, matching figures that agree among themselves and not with it.
* ``unproven``: nothing meets it. The answer names the best figure the record has, and the
  best one under the claim's conditions.
* ``ambiguous``: the claim states no denominator. When a primary figure on the same subject
  has the same value, it settles the denominator and the verdict follows that figure.
"""
from __future__ import annotations

from collections import defaultdict
import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from pipeline.cause import (LEAD_PHRASE_WORDS, acronyms, cause_hay, cause_in, cause_of, content_words, is_name, lists_topics, own_topic,
                            backend_of, last_phase, link_of, version_of, ROW_CONDITIONS, row_conditions,
                            setup_of, standing, table_cell, task_of, tasks_in, with_acronyms)
from pipeline.extract.change import Change, find_changes, same_value, written_after, written_number
from pipeline.extract.patterns import BASELINE_RE, PEAK_LEAD_RE, REACH_RE, RIVAL_BEFORE_RE
from pipeline.link.consistency import Figure, bounds, consistent, consistent_bounds
from pipeline.link.facts import ClaimFacts, full_figure, witness_figure
from pipeline.link.measure import param_kind
from pipeline.link.keys import (COMPARED_FAMILIES, HARDWARE_FAMILIES, comparison_differs, engine_key, hardware_relation,
                                model_key, norm, same_setting, scope_key)
from pipeline.model import Claim, Document
from pipeline.record import UNCHECKED_STANCES, Record
from pipeline.words import (COMPARATOR_WORDS, FAMILY_NOUNS, SCOPE_NOUNS, cite, comparison_text,
                                   conditions, describe,
                                   figure_text, fmt_number, money_label,
                                   value_words,
                                   params_text, scope_words)

VERDICTS = ("supported", "contradicted", "unproven", "ambiguous")
SCOPED_FAMILIES = frozenset({"token_throughput", "request_throughput"})
COUNT_FAMILIES = frozenset({"token_throughput", "request_throughput", "tokens", "parameters"})
UPPER = frozenset({"<", "<="})
LOWER = frozenset({">", ">="})
PEAK_STATS = frozenset({"peak", "max", "maximum"})
ACHIEVED_FAMILIES = frozenset({"compute", "bandwidth"})   # a device's peak, or a result
MISMATCH_MIN_VALUE = 10.0
MAX_EVIDENCE = 10
_SUBJECT = frozenset({"model", "hardware", "engine"})   # a figure on another subject is not near
RELATION_ORDER = ("supports", "contradicts", "partial", "label_mismatch", "mismatch", "context")

_SIZE_AFTER = re.compile(r"^\s*\+?\s*(?:-?\s*param(?:eter)?s?\b|(?:[\w-]+\s+)?(?:models?|LLMs?)\b)",
                         re.I)
_SIZE_CMP = (
    (">", re.compile(r"\b(?:above|over|more\s+than|larger\s+than|bigger\s+than|greater\s+than|"
                     r"exceeding|beyond|upwards\s+of|north\s+of)\s*$", re.I)),
    (">=", re.compile(r"\b(?:at\s+least|no\s+(?:less|fewer|smaller)\s+than|minimum\s+of)\s*$", re.I)),
    ("<", re.compile(r"\b(?:below|under|less\s+than|fewer\s+than|smaller\s+than)\s*$", re.I)),
    ("<=", re.compile(r"\b(?:at\s+most|up\s+to|no\s+more\s+than|no\s+larger\s+than)\s*$", re.I)),
)


# --- results ------------------------------------------------------------------------------

@dataclass
class Evidence:
    """One primary figure and how it bears on the claim; traceable to path, span and page."""

    id: str
    doc_path: str
    page: int | None
    surface: str
    value: float
    unit: str
    scope: str | None
    relation: str       # supports | contradicts | partial | label_mismatch | mismatch | context
    start: int = 0
    end: int = 0
    source: str = ""
    detail: str = ""
    citation: str = ""  # a result file's row, cited (pipeline.citation; set by the caller)
    # a figure derived from the cited row, not published (pipeline.derived): value and scope
    # are the derived ones; "derived: 52,061.6 / 4 accelerators = ... (... not an official
    # MLPerf result)". Empty for a figure as its document states it.
    derived: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "doc_path": self.doc_path, "page": self.page,
                "surface": self.surface, "value": self.value, "unit": self.unit,
                "scope": self.scope, "relation": self.relation, "start": self.start,
                "end": self.end, "source": self.source, "detail": self.detail,
                "citation": self.citation or None, "derived": self.derived or None}


@dataclass
class Query:
    """The claim as read: its main figure, a model-size condition, a money label."""

    text: str
    figure: Claim | None
    size: Figure | None = None
    size_text: str = ""
    label: str | None = None
    negated: bool = False
    others: list[Claim] = field(default_factory=list)
    settled_scope: str | None = None   # denominator taken from a primary figure
    peak: bool = False                  # "up to N": claims a best case of N (docs/claims-model.md §4)
    subject_text: str | None = None     # a leading name the vocabularies do not know
    change: Change | None = None        # "slipped from 2.2k to 1.5k": the figure is the after
    cause: str | None = None            # what a change is credited to (pipeline/cause.py)
    stated: list[str] = field(default_factory=list)  # sizes of the workload ("moving a 40 GB KV cache")
    task: str | None = None             # the application it was measured on ("on code completion")
    link: str | None = None             # what a bandwidth moves data over ("RDMA": network)
    standing: str | None = None         # "... beat the peak Dell reported": above a reference
    setup: str | None = None            # "after expert tuning": how the system was configured
    backend: str | None = None          # "LMDeploy's TurboMind engine": a backend of the engine
    version: str | None = None          # "SGLang's v0.3 release": the engine's release
    also_engines: list[str] = field(default_factory=list)  # "With vLLM, Mooncake moves ...":
                                        # engines named beside the figure's own
    family: str | None = None           # "a DeepSeek deployment": a model family, no model
    rows: dict[str, object] = field(default_factory=dict)  # "two-node", "closed division":
                                        # conditions a result table gives a column (ROW_CONDITIONS)

    def reads_text(self) -> bool:
        """Does a condition of this claim have to be looked for in its evidence's text (a
        workload size, application, link, reference, configuration, engine backend, node
        count or division, model family, engine release, a second engine)? Such claims are judged in Python, where that
        text is read (check_sql._query_ok)."""
        return bool(self.stated or self.task or self.link or self.standing or self.setup
                    or self.rows or self.family or self.backend or self.version or self.also_engines)

    def reading(self) -> str:
        """The claim as the checker understood it, in plain words."""
        if self.figure is None:
            return "no figure"
        f = self.figure
        cmp = "up to" if self.peak else COMPARATOR_WORDS.get(f.comparator or "=", "")
        head = f"{cmp} {value_words(f)}{comparison_text(f)}".strip()
        if f.family == "money" and f.per_basis:
            head += f" per {f.per_basis}"
        elif f.scope and f.scope != "unspecified":
            head += " " + scope_words(f.scope)
        elif f.family in SCOPED_FAMILIES:
            head += " (no denominator stated)"
        parts = [head]
        if self.label:
            parts.append(f"as {self.label}")
        conds = conditions(f)
        for name, v in (("input", f.isl), ("output", f.osl)):
            if v is not None:
                conds.append(f"{name} {fmt_number(v)} tokens")
        if benchmark_scenario(f.workload):
            conds.append(f"{f.workload} scenario")
        if self.size is not None:
            conds.append("on " + size_condition(self.size))
        conds += [f"with {t}" for t in self.stated]
        if self.task:
            conds.append(f"on {self.task}")
        if self.link:
            conds.append(f"over {self.link}")
        if self.setup:
            conds.append(f"on a {self.setup}")
        conds += [rc.words(self.rows[rc.name]) for rc in ROW_CONDITIONS if rc.name in self.rows]
        if conds:
            parts.append("(" + ", ".join(conds) + ")")
        return " ".join(parts)


@dataclass
class Verdict:
    verdict: str
    explanation: str
    evidence: list[Evidence] = field(default_factory=list)
    query: Query | None = None

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "explanation": self.explanation,
                "evidence": [e.to_dict() for e in self.evidence],
                "reading": self.query.reading() if self.query else ""}


# --- reading the claim --------------------------------------------------------------------

def _size_comparator(text: str, c: Claim) -> str:
    if c.comparator and c.comparator != "=":
        return c.comparator
    after = text[c.end:c.end + 2]
    if after.startswith("+"):
        return ">="
    before = text[max(0, c.start - 30):c.start]
    for cmp, rx in _SIZE_CMP:
        if rx.search(before):
            return cmp
    return "="


def _is_size(text: str, c: Claim) -> bool:
    """A model-size figure: '552B parameters', '700B+ models', '400-billion-parameter'."""
    if c.family == "parameters":
        return True
    if c.family == "tokens" and c.value >= 1e9 and "token" not in (c.unit_text or "").lower():
        return bool(_SIZE_AFTER.match(text[c.end:]))
    return False


def read_claim(text: str) -> Query:
    """Read a plain-words claim with the document extractor."""
    from pipeline.extract import extract_claims

    text = " ".join(text.split())
    doc = Document(id="query", path="<claim>", format="text", text=text)
    figures = sorted(extract_claims(doc), key=lambda c: c.start)
    sizes = [c for c in figures if _is_size(text, c)]
    main = [c for c in figures if c not in sizes]
    if not main and sizes:
        main, sizes = sizes[:1], sizes[1:]
    if not main:
        return Query(text=text, figure=None)
    fig = main[0]
    if fig.family in WORKLOAD_SIZE_FAMILIES:
        # "Moving a 30 GB KV cache, X reached 150 GB/s": a size opening the headline is
        # the workload of the figure of another kind after it
        fig = next((c for c in main[1:] if c.family not in WORKLOAD_SIZE_FAMILIES), fig)
        main = [fig] + [c for c in main if c is not fig]
    changes = find_changes(text)
    change = changes[0] if changes else None
    if change is not None:
        # the claim is about the after figure; the before is what it moved from
        # (compared as written: "from 1,112 ms to 310 ms" is stored in seconds)
        after = [c for c in main if same_value(_written_value(c), change.after)]
        if after:
            before = next((c for c in main if c is not after[0]
                           and same_value(_written_value(c), change.before)), None)
            fig = after[0]
            if before is not None:
                # one quantity moving: what the sentence says of it before the first figure
                # ("mean time to first token from 1,112 ms to 310 ms") is the after's too
                for name in ("statistic", "scope", "phase", "token_kind"):
                    if getattr(fig, name) in (None, "unspecified") and getattr(before, name):
                        setattr(fig, name, getattr(before, name))
        elif fig.low is not None and fig.high is not None and _written_value(fig):
            scale = fig.low / _written_value(fig)
            if {round(fig.low / scale, 9), round(fig.high / scale, 9)} == {change.before, change.after}:
                fig.value, fig.low, fig.high = change.after * scale, None, None
        main = [fig] + [c for c in main if c is not fig]
    # In a document "reaches 575" reports where a measurement landed; a headline to check,
    # "X reached 200 tokens/s", claims a threshold was passed.
    if fig.comparator == "=" and REACH_RE.search(text, max(0, fig.start - 40), fig.start) \
            and _threshold_like(fig):
        fig.comparator = ">="
    q = Query(text=text, figure=fig, others=main[1:], negated=fig.stance == "negated", change=change,
              peak=fig.comparator in UPPER and bool(PEAK_LEAD_RE.search(text, max(0, fig.start - 40),
                                                                          fig.start)))
    if sizes:
        s = sizes[0]
        q.size = Figure(s.value, s.low, s.high, _size_comparator(text, s), s.precision)
        q.size_text = s.surface
    if fig.family == "money":
        q.label = money_label(text, fig.start)
    # another figure of another kind sizes the workload the figure was measured on
    # ("190 GB/s moving a 40 GB KV cache", "2 s to prefill 128K tokens")
    # (an input or output length the figure already carries is compared as such, not again
    # as a number its evidence must write)
    q.stated = [c.surface for c in main[1:] if c.family in WORKLOAD_SIZE_FAMILIES
                and c.family != fig.family and c.value not in (fig.isl, fig.osl)]
    q.subject_text = _unknown_subject(text, fig.start)
    q.cause = _cause(text, fig.start, fig.family)
    q.task = task_of(text, fig.start)
    q.link = link_of(text, fig.start) if fig.family == "bandwidth" else None
    q.standing = standing(text, fig.end) if fig.family not in COMPARED_FAMILIES else None
    # (a ratio's "out-of-the-box" or "tuned" is what it compares, not how it was run)
    q.setup = setup_of(text, fig.start) if fig.family not in COMPARED_FAMILIES else None
    q.backend = backend_of(text, fig.start)
    q.version = version_of(text, fig.start)
    q.also_engines = _also_engines(text, fig)
    q.rows = row_conditions(text, fig.start)
    q.family = None if fig.model else family_named(text)
    if q.cause and q.subject_text and not is_name(q.subject_text) \
            and set(content_words(q.subject_text)) <= set(q.cause.split()):
        # "Multi-step scheduling raises ...": a capital that only opens the sentence opens
        # the cause, judged as a whole; "Compressed-FSM", "DistServe" stay names
        q.subject_text = None
    return q


def _also_engines(text: str, fig: Claim) -> list[str]:
    """Engines a headline names besides its figure's own and its baseline ("With vLLM,
    Mooncake transfers ...": the figure is vLLM's run with Mooncake, both of which the
    evidence must name); a rival or origin named after "than", "outperformed" is none."""
    from pipeline.vocab.loader import load

    out: list[str] = []
    for s, _, name in load().engines.finditer(text):
        if name in (fig.engine, fig.baseline) or name in out:
            continue
        if RIVAL_BEFORE_RE.search(text, max(0, s - 80), s) or BASELINE_RE.search(text, max(0, s - 24), s):
            continue
        out.append(name)
    return out


def _written_value(c: Claim) -> float:
    """A figure's number as its text writes it ("1,112" of "1,112 ms", stored as 1.112 s),
    as a change's before and after are read (``change.written_number``)."""
    n = written_number(c.surface)
    return n if n is not None else c.value


WORKLOAD_SIZE_FAMILIES = ("memory", "tokens")

_NUMBER_TOKEN_RE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def states_number(surface: str, *texts: str | None) -> bool:
    """Does any of ``texts`` write the number of ``surface`` ("40 GB" in "40GB of data")?
    A workload size a claim states must be the one its evidence was measured on: written in
    the figure's own sentence or row (a section holds other runs' sizes: "-27% at 32 tokens"
    two lines above "25.5% at 256 tokens"), or its document's title."""
    m = _NUMBER_TOKEN_RE.search(surface)
    if m is None:
        return True
    want = m.group(0).replace(",", "")
    for t in texts:
        for n in _NUMBER_TOKEN_RE.finditer(t or ""):
            if n.group(0).replace(",", "") == want or _same_text_number(n.group(0), want):
                return True
    return False


def _same_text_number(a: str, b: str) -> bool:
    try:
        return float(a.replace(",", "")) == float(b)
    except ValueError:
        return False


def _cause(text: str, fig_start: int, family: str) -> str | None:
    """The cause a ratio or percent claim credits with its change (the figure at
    ``fig_start`` of ``text``), less the names the vocabularies know."""
    from pipeline.extract.masks import find_names
    from pipeline.vocab.loader import load

    if family not in ("ratio", "percent"):
        return None
    # a technique named in the cause stays a word of it ("torch.compile integration")
    spans = [(n.start, n.end) for n in find_names(text, load())
             if n.kind in ("model", "engine", "accelerator", "system")]
    return cause_of(text, fig_start, spans)


def _threshold_like(c: Claim) -> bool:
    """"Reached 1,000 tokens a second" passes a threshold; "reaches 31.65 ms" or "reaches
    6,580 tokens/s" reports where a measurement landed: only a round number (at most two
    significant digits) of a quantity where more is better is a threshold."""
    if c.family in ("latency", "money", "memory", "parameters"):
        return False
    digits = re.sub(r"[^0-9]", "", f"{c.value:.6g}".split("e")[0]).strip("0")
    return len(digits) <= 2


_LEAD_NAME_RE = re.compile(r"(?:The\s+|A\s+|An\s+)?([A-Z][\w.+-]*[\w+](?:'s|’s)?|\d[A-Z][\w.+-]*(?:'s|’s)?)")
_GERUND_RE = re.compile(r"[A-Z][a-z]{2,}ing")
_NEXT_CAPITAL_POSSESSIVE_RE = re.compile(r"[ \t]+([A-Z][\w.+-]*(?:'s|’s))(?=\s)")
_NOT_NAMES = frozenset("""a an the this that these those our their its it we they some someone
    one no new every each all any most many gpu gpus llm llms cpu per at on in for with by from
    using running serving""".split())
# words that open a leading phrase or clause are ``cause.LEAD_PHRASE_WORDS``: never a
# system's name


@lru_cache(maxsize=1)
def _owners() -> frozenset[str]:
    from pipeline.vocab.loader import load_raw
    return frozenset(n.lower() for n in load_raw("owners")["names"])


_SAYS_RE = re.compile(r"\s+(?:says?|said|reports?|reported|claims?|claimed|announc\w*|told|"
                      r"finds?|found|estimates?|predicts?)\b", re.I)


@lru_cache(maxsize=1)
def _products() -> dict[str, str]:
    from pipeline.vocab.loader import load_raw
    raw = load_raw("owners").get("products", {})
    return {k.lower(): "(?i)(?:" + "|".join(v) + ")" for k, v in raw.items()}


def product_pattern(owner: str) -> str | None:
    """The regular expression (Python's and DuckDB's alike) over a figure's accelerator,
    hardware and engine names that marks it as one of ``owner``'s products."""
    return _products().get(owner.lower())


def owns_product(owner: str, p: Claim) -> bool:
    pat = product_pattern(owner)
    return bool(pat) and any(v and re.search(pat, v) for v in (p.accelerator, p.hardware, p.engine))


def _unknown_subject(text: str, fig_start: int) -> str | None:
    """The headline's leading name when no vocabulary knows it as a model, engine or
    accelerator ("DistServe delivers ...", "Lepton's time to first token ...", "Google
    Cloud cut prices ..."): a figure can only support the headline where that name appears
    (its sentence, its document's title, publisher or path), or a figure on another system
    or provider would confirm a claim about this one. Not a subject: a name that only says
    who reports it ("Hugging Face says ..."), and an owner whose product the headline names
    ("NVIDIA's TensorRT-LLM")."""
    from pipeline.extract.masks import find_names
    from pipeline.vocab.loader import load

    m = _LEAD_NAME_RE.match(text)
    if m is None or m.start(1) >= fig_start:
        return None
    name = m.group(1)
    possessive = name.endswith(("'s", "’s"))
    follow = _NEXT_CAPITAL_POSSESSIVE_RE.match(text, m.end(1))
    if not possessive and follow:
        # "Red Hat's vLLM ...": a name of two capitalised words before the possessive
        name, possessive = name + " " + follow.group(1), True
    bare = name[:-2] if possessive else name
    if bare.lower() in LEAD_PHRASE_WORDS:
        # "Under tensor parallelism, DeepSeek-V3 ...": a leading phrase, not a name; the
        # subject, if any, comes after its comma
        comma = text.find(",", m.end(1), fig_start)
        if comma < 0:
            return None
        rest_text = text[comma + 1:].lstrip()
        return _unknown_subject(rest_text, fig_start - (len(text) - len(rest_text)))
    if bare.lower() in _NOT_NAMES or (not possessive and _GERUND_RE.fullmatch(bare)):
        # "Switching to the TRTLLM backend lifted ...", "Disabling X's overlap stretches
        # ...": an action opening the headline (its cause), no one's name
        return None
    names = find_names(text, load())
    if any(n.start < m.end(1) and n.end > m.start(1) for n in names):
        return None     # a model, engine or accelerator: a condition of its own
    owners = _owners()
    words = text[m.start(1):].split()
    two = " ".join(words[:2]).lower()
    two = two[:-2] if two.endswith(("'s", "’s")) else two
    if not possessive and two in owners:
        bare = " ".join(words[:2])      # "Google Cloud", "Hugging Face"
        bare = bare[:-2] if bare.endswith(("'s", "’s")) else bare
    rest = m.start(1) + len(bare)
    if _SAYS_RE.match(text, rest):
        return None
    if bare.lower() in owners or two in owners:
        # "NVIDIA's TensorRT-LLM" names its subject; "DeepSeek's V3/R1 service" names only
        # whose product it is, so the figure must be that owner's
        after = rest + (2 if possessive else 0)
        if any((possessive and after <= n.start < fig_start)
               or (not possessive and n.start - rest <= 1 and n.start >= rest) for n in names):
            return None
    return bare


def _ends_with_engine(subject: str, p: Claim) -> bool:
    """Is the figure's engine or provider the subject's last words ("Amazon Bedrock" and a
    leaderboard row of provider "bedrock")? The owner before a product adds no condition."""
    if not p.engine:
        return False
    tail = fold_name(p.engine)
    return fold_name(subject) == tail or fold_name(subject).endswith(" " + tail)


def name_pattern(name: str) -> str:
    """The regular expression (Python's and DuckDB's alike) that finds ``name`` as a whole
    name in text folded by ``fold_name``: "Model-12" is in "Model 12 reached", not in
    "Model-1249"; "Red Hat" is in "RedHat"."""
    key = re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", fold_name(name))
    # a name of several words is also written joined: "Red Hat" in "RedHat", "Hugging Face"
    # in "HuggingFace"
    key = key.replace(" ", "[ ]?")
    return f"(^|[^a-z0-9]){key}([^a-z0-9]|$)"


@lru_cache(maxsize=65536)
def fold_name(text: str) -> str:
    """Lower case, runs of space, hyphen and underscore as one space (cached: the checker
    folds each primary document's title and path once per claim it checks)."""
    return re.sub(r"[\s_-]+", " ", text.lower())


@lru_cache(maxsize=4096)
def _name_rx(name: str) -> re.Pattern:
    return re.compile(name_pattern(name))


@lru_cache(maxsize=65536)       # a technique against each primary document's title and path
def _names_in(name: str, *places: str | None) -> bool:
    rx = _name_rx(name)
    return any(p and rx.search(fold_name(p)) for p in places)


def query_from_claim(c: Claim, sentence: str | None = None) -> Query:
    """A stored claim as a query (the report checks every secondary figure this way)."""
    sentence = sentence if sentence is not None else (c.sentence or "")
    at = c.start - c.sentence_start if c.sentence_start is not None else None
    label = money_label(sentence, at) if c.family == "money" else None
    # "up to 3.8x" in a document is a best case, read as in a headline
    peak = (c.comparator in UPPER and at is not None and 0 <= at <= len(sentence)
            and bool(PEAK_LEAD_RE.search(sentence, max(0, at - 40), at)))
    # the cause a secondary credits with its change, read as in a headline
    cause = _cause(sentence, at, c.family) if at is not None and 0 <= at <= len(sentence) else None
    task = link = stands = setup = None
    rows: dict[str, object] = {}
    if at is not None and 0 <= at <= len(sentence):
        task = task_of(sentence, at)
        link = link_of(sentence, at) if c.family == "bandwidth" else None
        stands = standing(sentence, at + len(c.surface)) if c.family not in COMPARED_FAMILIES else None
        setup = setup_of(sentence, at) if c.family not in COMPARED_FAMILIES else None
        rows = row_conditions(sentence, at)
    return Query(text=sentence or c.surface, figure=c, label=label, negated=c.stance == "negated",
                 peak=peak, cause=cause, task=task, link=link, standing=stands, setup=setup,
                 rows=rows)


def judge_stored(checker: "Checker", c: Claim) -> Verdict:
    """The verdict on a stored secondary figure, for the report and ``trace``: the checker's,
    held to the link stage's judgement (docs/claims-model.md §3-4), so a figure is never
    both ``unsourced`` and ``supported``. The checker may find a primary figure that meets
    the number under looser conditions (a figure with no subject is "existential" as a
    headline, not as a figure in someone's article); without a supports/restates link to a
    primary figure, that is context, and the verdict is ``unproven``. Callers go through
    ``pipeline.derived_check.judge_with_derived``, which adds the figures derived from
    MLPerf results for a per-GPU or per-node figure."""
    record = checker.record
    v = checker.check(query_from_claim(c, "".join(record.quote(c))))
    if v.verdict == "supported" and "unsourced" in record.findings_of(c.id):
        for e in v.evidence:
            if e.relation == "supports":
                e.relation, e.detail = "partial", "meets the number, but is not linked to it " \
                    "as the same quantity"
        v.verdict = "unproven"
        v.explanation = ("Unsourced: no primary figure is linked to it as the same quantity. "
                         "The nearest: " + v.explanation)
    return v


# --- comparing one primary figure with the claim ------------------------------------------

_ASK = object()     # a _Cmp's model size not read yet


@dataclass(slots=True)
class _Cmp:
    claim: Claim
    # the figure's model size (``size``); ``_ASK``: read from ``record`` when first asked
    # (only the evidence shown names it: most of a check's ~4,000 comparisons never do)
    _size: float | None | object
    open: list[str]        # conditions the claim states and the figure leaves open
    differs: list[str]     # conditions stated differently
    scope: str             # same | open | differs | free
    meets: bool            # the figure's own value meets the claim
    refutes: bool          # the figure rules the claim out
    label: str | None = None
    reversed: bool = False  # a comparison on the same things that goes the other way
    record: Record | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> float | None:
        if self._size is _ASK:
            ps = self.record.params_of(self.claim)
            self._size = ps[0] if ps is not None else None
        return self._size

    @property
    def exact(self) -> bool:
        return (not self.open and not self.differs and self.scope in ("same", "free")
                and not self.reversed)


def _is_bound(c: Claim) -> bool:
    return (c.comparator in UPPER) or (norm(c.statistic) in PEAK_STATS)


@lru_cache(maxsize=1)
def _siblings() -> frozenset[str]:
    from pipeline.vocab.loader import load_raw
    return frozenset(w.lower() for w in load_raw("models").get("sibling_words", []))


def _model_match(q: str, p: str) -> bool:
    """The figure's model is the claim's, or a form of it ("llama 3 8b instruct" for
    "llama 3 8b"), never a sibling ("deepseek v2 lite" for "deepseek v2")."""
    if p == q:
        return True
    if not p.startswith(q + " "):
        return False
    return p[len(q) + 1:].split(" ", 1)[0] not in _siblings()


def _cond(opened: list[str], differs: list[str], name: str, qv, pv, match=None,
          soft: bool = False) -> None:
    """One condition the claim states (``qv``, not None) against the figure's ``pv``: open
    where the figure leaves it unsaid, else different unless ``match`` (default: equal)
    holds; ``soft``: a disagreement is open too (a guessed subject)."""
    if pv is None:
        opened.append(name)
    elif not (qv == pv if match is None else match(qv, pv)):
        (opened if soft else differs).append(name)


# family stems that are also common words or name software ("Step 1", "Megatron-LM"): a
# headline's bare mention of these is no model family
_AMBIGUOUS_FAMILIES = frozenset({"step", "ling", "yi", "phi", "arctic", "snowflake arctic",
                                 "granite", "dolly", "megatron", "falcon", "opt", "t5", "mpt",
                                 "pythia", "command r", "jamba", "turing nlg"})
# spellings of one family
_FAMILY_SAME = {"meta llama": "llama", "dsv3": "deepseek", "dsr1": "deepseek",
                "code llama": "codellama", "bloomz": "bloom"}


def _family_of_stem(stem: str) -> str:
    key = re.sub(r"[\s_\-]+", " ", stem.lower())
    return _FAMILY_SAME.get(key, key)


@lru_cache(maxsize=1)
def _family_stems() -> tuple[tuple[str, str], ...]:
    """(model-key prefix, family) of every family stem of ``vocab/models.toml``, longest
    first ("gpt oss" before "gpt")."""
    from pipeline.vocab.loader import load

    stems = {re.sub(r"[\s_\-]+", " ", f.lower()): _family_of_stem(f)
             for f in load().model_families}
    return tuple(sorted(stems.items(), key=lambda kv: -len(kv[0])))


def model_family(model: str | None) -> str | None:
    """The family of a model key ("qwen2.5 7b instruct" -> "qwen"), or None."""
    if not model:
        return None
    for stem, fam in _family_stems():
        if model.startswith(stem):
            return fam
    return None


@lru_cache(maxsize=1)
def _family_re() -> re.Pattern[str]:
    from pipeline.vocab.loader import load

    stems = sorted({f for f in load().model_families
                    if _family_of_stem(f) not in _AMBIGUOUS_FAMILIES}, key=len, reverse=True)
    # a bare stem: not inside a longer name or a program's ("llama.cpp", "Qwen2.5"), nor
    # the company's possessive ("MiniMax's technical report", "DeepSeek's 3FS")
    return re.compile(r"(?<![\w.-])(?:" + "|".join(re.escape(s) for s in stems)
                      + r")(?![\w.]|-\w|['’]s\b)", re.I)


def family_named(text: str) -> str | None:
    """The model family a claim names with no model of it ("SGLang's large-scale DeepSeek
    deployment", "Qwen models"): a figure on a model of another family (Qwen2.5-7B for
    DeepSeek) does not show it; a figure on no model leaves it as it is (the name may be
    the company's). A possessive names the company ("DeepSeek's 3FS"), not a model."""
    from pipeline.extract.masks import find_names
    from pipeline.vocab.loader import load

    taken = None
    for m in _family_re().finditer(text):
        if taken is None:       # the names are looked up only where a stem stands
            taken = [(n.start, n.end) for n in find_names(text, load()) if n.kind != "model"]
        if not any(s <= m.start() < e for s, e in taken):
            return _family_of_stem(m.group(0))
    return None


@dataclass(slots=True)
class _Facts:
    """What ``compare`` reads of one figure: its stored facts (``link.facts``: computed once
    per claim when it is stored, by the same function for a figure that never was) and the
    settings it states, worked out once per figure rather than once per pair (a claim is
    compared with thousands of figures)."""

    model: str | None
    hw: tuple[int | None, str] | None
    engine: str | None
    technique: str | None
    statistic: str | None
    parallelism: str | None
    dtype: str | None
    phase: str | None
    token_kind: str | None
    scope: str | None
    full: tuple            # consistency.bounds of full_figure / witness_figure
    witness: tuple
    scenario: str | None   # benchmark_scenario of its workload
    settings: tuple        # its workload settings, in _SETTINGS' order
    stated: tuple          # (name, index in settings, value) of the settings it states
    unit: str              # keys.unit_key

    @classmethod
    def of(cls, c: Claim, cf: ClaimFacts) -> "_Facts":
        settings = tuple(getattr(c, attr) for _, attr in _SETTINGS)
        stated = tuple((name, i, v) for i, ((name, _), v) in enumerate(zip(_SETTINGS, settings))
                       if v is not None)
        hw = (cf.key_hw_count, cf.key_hw) if cf.key_hw is not None else None
        return cls(cf.key_model, hw, cf.key_engine, norm(c.technique), cf.key_statistic,
                   norm(c.parallelism), norm(c.dtype), cf.key_phase, cf.key_token_kind,
                   cf.key_scope, cf.full(c), cf.witness(c), benchmark_scenario(c.workload),
                   settings, stated, cf.key_unit)


# workload settings that change the number, compared where the claim states them
_SETTINGS = (("input length", "isl"), ("output length", "osl"), ("batch size", "batch_size"),
             ("offered load", "offered_load"))


class Checker:
    """Compares claims against the primary figures of one record."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.primaries = sorted((c for c in record.primary_claims()
                                 if (c.stance or "asserted") not in UNCHECKED_STANCES),
                                key=lambda c: (record.doc(c).order_key(), c.start))
        self._labels: dict[str, str | None] = {}
        self._facts: dict[int, tuple[Claim, _Facts]] = {}
        self._hays: dict[int, tuple[Claim, str]] = {}
        self._texts_read: set[str] = set()     # families whose documents' texts were read
        self._tasks: dict[int, tuple[Claim, str | None]] = {}
        self._acros: dict[str, dict[str, str]] = {}
        self._hw_counts: dict[int, tuple[Claim, tuple[frozenset[int], frozenset[int]]]] = {}
        self._said: dict[int, tuple[Claim, tuple[str | None, str | None]]] = {}
        self._setups: dict[int, tuple[Claim, tuple[str | None, dict[str, object], str | None, str | None]]] = {}
        self._phases: dict[int, tuple[Claim, str | None]] = {}
        # every primary figure by document, built on first use from the figures as they
        # stand now (a subclass narrows ``primaries`` for a while:
        # report.verdicts.IndexedChecker._cross_family)
        self._all_primaries = self.primaries
        self._by_doc: dict[str, list[Claim]] | None = None
        self._side: tuple | None = None     # compare's last query and what it reads of it

    def facts(self, c: Claim) -> _Facts:
        """``_Facts`` of this claim object (kept with it, so its id is never reused)."""
        got = self._facts.get(id(c))
        if got is None or got[0] is not c:
            got = self._facts[id(c)] = (c, _Facts.of(c, self.record.facts_of(c)))
        return got[1]

    def prepare(self, p: Claim) -> None:
        """Work out now what ``compare`` reads of primary figure ``p`` whatever the claim,
        rather than in the first check that reads it (`claims serve` does this while it
        starts, with the warehouse open): its facts and, for a comparison, where a cause is
        looked for and the phase its lead-in names (ratios: ~0.1 ms a figure, 0.4 s for
        the 1,060-document warehouse's 4,198)."""
        self.facts(p)
        if p.family in COMPARED_FAMILIES:
            self.cause_hay(p)
            self.lead_phase(p)

    def _read_texts(self, family: str) -> None:
        """The texts of every primary figure of ``family``, read together, once."""
        if family not in self._texts_read:
            self._texts_read.add(family)
            self.record.read_texts({c.doc_id for c in self.primaries if c.family == family})

    def counts_in_doc(self, p: Claim) -> tuple[frozenset[int], frozenset[int]]:
        """For a figure on an uncounted accelerator: the counts its document gives the same
        figure (same family, value and accelerator) where it restates it with a count, and
        the counts its document measures that family on that accelerator at."""
        got = self._hw_counts.get(id(p))
        if got is None or got[0] is not p:
            if self._by_doc is None:
                self._by_doc = defaultdict(list)
                for c in self._all_primaries:
                    self._by_doc[c.doc_id].append(c)
            acc = self.facts(p).hw[1]
            told, measured = set(), set()
            for c in self._by_doc.get(p.doc_id, ()):
                ch = self.facts(c).hw
                if c.family == p.family and ch and ch[0] and ch[1] == acc:
                    measured.add(ch[0])
                    if same_value(c.value, p.value):
                        told.add(ch[0])
            got = self._hw_counts[id(p)] = (p, (frozenset(told), frozenset(measured)))
        return got[1]

    def said_of(self, p: Claim) -> tuple[str | None, str | None]:
        """What primary figure ``p``'s own sentence says of it, read as a headline's is:
        the link a bandwidth moves data over (``cause.link_of``) and how it stands against
        a reference (``cause.standing``); worked out once per figure."""
        got = self._said.get(id(p))
        if got is None or got[0] is not p:
            sentence, start = p.sentence or "", p.sentence_start
            link = link_of(sentence, p.start - start if start is not None else 0) \
                if p.family == "bandwidth" else None
            stands = standing(sentence, p.end - start) \
                if start is not None and p.end >= start else None
            said = (link, stands)
            got = self._said[id(p)] = (p, said)
        return got[1]

    def setup_of(self, p: Claim) -> tuple[str | None, dict[str, object], str | None, str | None]:
        """How the system behind primary figure ``p`` was configured (``cause.setup_of``,
        read in its lead-in), its ``ROW_CONDITIONS`` (node count, MLPerf division: its
        sentence, else the cell of its table row under that column), the engine backend
        and the engine release its sentence names (``cause.backend_of``, ``version_of``;
        else its lead-in, else its title), once per figure."""
        got = self._setups.get(id(p))
        if got is None or got[0] is not p:
            self._read_texts(p.family)
            lead, at = self.record.lead_at(p)
            rows: dict[str, object] = {}
            if p.sentence is not None and p.sentence_start is not None:
                rows = row_conditions(p.sentence, p.start - p.sentence_start)
            if p.in_table and len(rows) < len(ROW_CONDITIONS):
                text = self.record.text_of(self.record.doc(p)) or ""
                for rc in ROW_CONDITIONS:
                    if rc.name not in rows:
                        cell = table_cell(text, p.start, rc.header)
                        v = rc.cell(cell) if cell is not None else None
                        if v is not None:
                            rows[rc.name] = v
            # the backend its sentence names, else its lead-in (a heading), else its title
            title = self.record.doc(p).title or ""
            at_s = p.start - (p.sentence_start or 0)
            backend = backend_of(p.sentence or "", at_s) or backend_of(lead, at) or backend_of(title, 0)
            version = version_of(p.sentence or "", at_s) or version_of(lead, at) or version_of(title, 0)
            got = self._setups[id(p)] = (p, (setup_of(lead, at), rows, backend, version))
        return got[1]

    def lead_phase(self, p: Claim) -> str | None:
        """The phase of inference primary figure ``p``'s lead-in names last
        (``cause.last_phase``: what ``cause.states_phase`` tests), once per figure."""
        got = self._phases.get(id(p))
        if got is None or got[0] is not p:
            self._read_texts(p.family)
            got = self._phases[id(p)] = (p, last_phase(self.record.lead_in(p)))
        return got[1]

    def _acronyms_of(self, d) -> dict[str, str]:
        """The acronyms document ``d`` defines (``cause.acronyms``), once per document."""
        got = self._acros.get(d.id)
        if got is None:
            got = self._acros[d.id] = acronyms(self.record.text_of(d) or "")
        return got

    def cause_hay(self, p: Claim) -> str:
        """Where a cause is looked for around primary figure ``p`` (``cause.states_cause``:
        what leads up to it, its document's title, publisher and path), worked out once
        per figure: a claim is compared with thousands of figures, each by many claims."""
        got = self._hays.get(id(p))
        if got is None or got[0] is not p:
            self._read_texts(p.family)
            d = self.record.doc(p)
            lead = with_acronyms(self.record.lead_in(p), self._acronyms_of(d))
            # a title that lists the post's topics names no cause of a figure whose
            # section or list item names its own
            title = None if lists_topics(d.title) and own_topic(lead) else d.title
            got = self._hays[id(p)] = (p, cause_hay(lead, title, d.publisher, d.path))
        return got[1]

    def task_of(self, p: Claim) -> str | None:
        """The application primary figure ``p`` was measured on (``cause.task_of``): named
        in its lead-in, else the only one its document's title names."""
        got = self._tasks.get(id(p))
        if got is None or got[0] is not p:
            self._read_texts(p.family)
            task = task_of(*self.record.lead_at(p))
            if task is None:
                named = {name for _, name in tasks_in(self.record.doc(p).title or "")}
                task = named.pop() if len(named) == 1 else None
            got = self._tasks[id(p)] = (p, task)
        return got[1]

    # --- one pair --------------------------------------------------------------------
    def label_of(self, c: Claim) -> str | None:
        if c.id not in self._labels:
            q = self.record.quote(c)
            self._labels[c.id] = money_label("".join(q), len(q[0]))
        return self._labels[c.id]

    def _same_number(self, f: Claim, p: Claim) -> bool:
        return _same_number(f, p, self.facts(f).witness, self.facts(p).witness)

    def compare(self, q: Query, p: Claim) -> _Cmp:
        f = q.figure
        assert f is not None
        # the claim's side, worked out once per query (a query meets thousands of figures)
        side = self._side
        if side is None or side[0] is not q or side[1] is not f:
            side = self._side = (q, f, self.facts(f), phase_must_be_stated(f))
        fk, must_phase = side[2], side[3]
        pk_ = self.facts(p)
        opened: list[str] = []
        differs: list[str] = []
        # each condition is read only where the claim states it (``_cond``: open where the
        # figure leaves it unsaid): a claim states a few of ~30, and a report compares ~1M pairs

        # A subject carried from a paragraph, section or title (``inherited``) is a guess:
        # where it disagrees, the condition is open rather than different.
        soft = bool(f.inherited or p.inherited)
        if fk.model is not None:
            _cond(opened, differs, "model", fk.model, pk_.model, _model_match, soft)
        elif q.family and pk_.model is not None:
            pf = model_family(pk_.model)
            if pf is not None and pf != q.family:
                differs.append("model")
        if fk.hw is not None:
            hw = hardware_relation(fk.hw, pk_.hw)
            if hw == "open":
                opened.append("hardware")
            elif hw == "bad":
                (opened if soft else differs).append("hardware")
            elif fk.hw[0] and pk_.hw and pk_.hw[0] is None:
                # "2.4x on eight H200s" against a heading's "2.4x on H200": the count is the
                # one the document gives that figure elsewhere (its table's "1 GPU" row), and
                # open where the document measures that accelerator at several counts
                told, measured = self.counts_in_doc(p)
                if told and fk.hw[0] not in told:
                    differs.append("hardware count")
                elif not told and len(measured) > 1:
                    opened.append("hardware count")
        if fk.engine is not None:
            _cond(opened, differs, "engine", fk.engine, pk_.engine)
        # a figure on a technique ("lookahead decoding") is only met by a figure on it: named
        # in its sentence, or in its document's title (a post about that technique)
        qt, pt = fk.technique, pk_.technique
        if qt and qt != pt:
            if pt is not None:
                opened.append("technique")
            else:
                d = self.record.doc(p)
                if not _names_in(f.technique, d.title, d.path):
                    opened.append("technique")
        if q.subject_text:
            d = self.record.doc(p)
            if not _names_in(q.subject_text, p.sentence, d.title, d.publisher, d.path) \
                    and not owns_product(q.subject_text, p) and not _ends_with_engine(q.subject_text, p):
                opened.append(q.subject_text)
        if q.stated:
            d = self.record.doc(p)
            for surface in q.stated:
                if not states_number(surface, p.sentence, d.title):
                    opened.append(surface)
        if q.cause and p.family in ("ratio", "percent"):
            if not cause_in(q.cause, self.cause_hay(p)):
                opened.append(q.cause)
        if q.task:
            # "3.2x on summarization" is not met by the 3.2x its post reports for code completion
            _cond(opened, differs, "task", q.task, self.task_of(p))
        if q.standing:
            # "our 726 Gbps beat Dell's peak" is not shown by "726 Gbps ... slightly below the
            # peak figures reported by Dell", nor by a figure set against nothing
            _cond(opened, differs, "how it stands against what it is compared with",
                  q.standing, self.said_of(p)[1])
        if q.setup:
            # "after expert tuning, 726 Gbps" is not shown by 726 Gbps of a default,
            # out-of-the-box configuration, nor by a figure whose text says not
            _cond(opened, differs, "configuration", q.setup, self.setup_of(p)[0])
        if q.backend:
            # "LMDeploy's TurboMind got 1.3x faster" is not shown by "LMDeploy PyTorchEngine
            # achieves 1.3x"; a figure whose sentence names no backend leaves it open
            _cond(opened, differs, "backend", q.backend, self.setup_of(p)[2])
        if q.also_engines:
            # "With vLLM, Mooncake transfers ... in 20 ms" is not shown by Mooncake's 20.31 ms
            # in SGLang: each engine named is the evidence's (its engine, sentence or title)
            d = self.record.doc(p)
            for e in q.also_engines:
                if pk_.engine != engine_key(e) and not _names_in(e, p.sentence, d.title, d.path):
                    opened.append(e)
        if q.version:
            # "SGLang's v0.3 made it 3x faster" is not shown by "SGLang v0.1: 3x faster"; a
            # figure whose text names no release is not held against it
            pv = self.setup_of(p)[3]
            if pv is not None and pv != q.version:
                differs.append("engine release")
        if q.rows:
            # "a two-node system ran 125K" is not shown by a four-node system's 125K, nor a
            # closed-division claim by an open-division row
            said = self.setup_of(p)[1]
            for rc in ROW_CONDITIONS:
                qv = q.rows.get(rc.name)
                if qv is not None and (rc.name in said or rc.open_unstated(qv)):
                    _cond(opened, differs, rc.name, qv, said.get(rc.name))
        if q.link and p.family == "bandwidth":
            # "800 Gbps of RDMA bandwidth" is not met by 5.3 TB/s of HBM
            _cond(opened, differs, "what the bandwidth is of", q.link, self.said_of(p)[0])
        if f.concurrency is not None:
            _cond(opened, differs, "concurrency", f.concurrency, p.concurrency, same_setting)
        if fk.statistic is not None:
            _cond(opened, differs, "statistic", fk.statistic, pk_.statistic)
        # workload settings that change the number, where the claim states them
        for name, i, a in fk.stated:
            _cond(opened, differs, name, a, pk_.settings[i], same_setting)
        if fk.parallelism is not None:
            _cond(opened, differs, "parallelism", fk.parallelism, pk_.parallelism)
        if fk.scenario is not None:
            _cond(opened, differs, "scenario", fk.scenario, pk_.scenario)
        if fk.dtype is not None:
            _cond(opened, differs, "precision", fk.dtype, pk_.dtype)
        if fk.phase and pk_.phase and fk.phase != pk_.phase:
            differs.append("phase")
        if fk.token_kind and pk_.token_kind and fk.token_kind != pk_.token_kind:
            differs.append("token kind")
        if not pk_.phase and must_phase and not (
                f.family in COMPARED_FAMILIES and fk.phase in ("prefill", "decode")
                and self.lead_phase(p) == fk.phase):
            # a ratio that names no phase is of the phase its lead-in last names
            opened.append("phase")
        if f.family in HARDWARE_FAMILIES and f.hw_count and f.hw_count > 1 and not p.hw_count:
            # "34GB free across a whole 8x H200 node" is not met by "34GB" on an H200: how
            # many accelerators a memory, bandwidth or compute figure spans is what it measures
            opened.append("hardware count")
        if (fk.token_kind if f.family == "tokens" else f.family == "percent" and f.token_kind) \
                and not pk_.token_kind:
            # "its input is capped at 80K tokens" is not met by a length that does not say
            # whether it is the input's or the output's (nor "56.3% of its output tokens"
            # by a share of tokens that does not say which)
            opened.append("token kind")
        if f.family == "parameters":
            # "activates 236B" is not met by "236B total"; an unqualified count is total
            # an unqualified count is total, in the claim ("a 37-billion-parameter model")
            # as in the figure
            qk, pk = param_kind(f) or "total", param_kind(p)
            if qk != (pk or "total"):
                (differs if pk is not None else opened).append("parameter kind")
        if f.family in ACHIEVED_FAMILIES and (f.technique or f.engine or f.model) \
                and not (p.technique or p.engine or p.model):
            # a kernel's or engine's result is not met by the device's own peak
            opened.append("whose result it is")
        label = self.label_of(p) if f.family == "money" else None
        if q.label is not None:
            _cond(opened, differs, "label", q.label, label)
        if f.family == "money" and f.price_basis is not None:
            # "$0.55 on a cache hit" is not met by the cache-miss price, nor by a price that
            # says not what it is at
            _cond(opened, differs, "price basis", f.price_basis, p.price_basis)
        # a comparison: what it is compared against, what it measures, which way it goes
        reversed_ = False
        if f.family in COMPARED_FAMILIES:
            if f.measures is None and p.measures is None:
                # neither says what the ratio is of ("lifts cache hit rates 1.9x" against a
                # bare "2x"): nothing shows they measure the same thing
                opened.append("measured quantity")
            if f.engine and not f.baseline and p.baseline and _names_in(f.engine, p.baseline):
                # "vLLM production-stack boosts throughput by 10x" is not met by "10x higher
                # throughput than vLLM": the claim's engine is the figure's baseline
                differs.append("baseline (the claim's engine is what the figure is compared with)")
            for name, how in comparison_differs(f, p):
                if how == "open":
                    opened.append(name)
                elif how == "reversed":
                    reversed_ = True
                elif how == "unstated":
                    differs.append(f"{name} (the claim states none)")
                else:
                    differs.append(name)
        size = _ASK
        if q.size is not None:
            ps = self.record.params_of(p)
            size = ps[0] if ps is not None else None
            if size is None:
                opened.append("model size")
            elif not consistent(q.size, Figure(size, precision=_size_precision(ps))):
                differs.append("model size")
        qs, pscope = fk.scope, pk_.scope
        if qs is None:
            scope = "free"
        elif pscope is None:
            scope = "open" if f.family in SCOPED_FAMILIES else "free"
        else:
            scope = "same" if qs == pscope else "differs"
        if q.peak:
            # "up to N" is met by a figure that reaches N at the claim's precision; a lower
            # figure does not meet it and, as the best on the quantity, refutes it. A figure
            # well above N does not show N as the best case either ("up to 3.3x" is not the
            # 5.2x the record holds): it neither meets nor refutes
            refutes = not _reaches(f, p, fk.full[0])
            meets = not refutes and not _overshoots(f, p, fk.full[0])
        else:
            shown = consistent_bounds(fk.full, f.value, pk_.witness, p.value)
            meets = shown and range_shown(f, p)
            if meets and (f.comparator or "=") == "=" and pk_.witness[0] > fk.full[0] * 1.000001:
                # "2.3x" is not shown by a record that says "2x" or "more than 2x": it is
                # rounded more coarsely than the claim
                meets = False
            # a figure with no comparator shows what it states: the same test again
            refutes = not (shown if pk_.full == pk_.witness
                           else consistent_bounds(fk.full, f.value, pk_.full, p.value))
        return _Cmp(p, size, opened, differs, scope, meets, refutes, label, reversed_,
                    self.record)

    # --- the verdict -------------------------------------------------------------------
    def check(self, q: Query) -> Verdict:
        f = q.figure
        if f is None:
            return Verdict("ambiguous", "No figure found in the claim: nothing to check.",
                           [], q)
        if q.negated:
            positive = replace(q, negated=False, figure=replace(f, stance="asserted"))
            v = self._check(positive)
            flip = {"supported": "contradicted", "contradicted": "supported"}
            if v.verdict in flip:
                v.verdict = flip[v.verdict]
                v.explanation = "The claim denies such a figure. " + v.explanation
            elif v.verdict == "unproven":
                v.explanation += (" That agrees with the denial, but no primary document"
                                  " states it.")
            v.query = q
            return v
        return self._held_to_change(q, self._check(q))

    def _held_to_change(self, q: Query, v: Verdict) -> Verdict:
        """A claim that states a change ("slipped from 2.2k to 1.5k") is shown only by a
        primary figure whose sentence states that change; one stating it the other way
        contradicts it; a record that holds the after figure alone leaves it unproven."""
        ch = q.change
        if ch is None or v.verdict not in ("supported", "unproven", "ambiguous"):
            return v
        same: list[Evidence] = []
        other: list[tuple[Evidence, Change]] = []
        for e in v.evidence:
            c = self.record.claims.get(e.id)
            if c is None:
                continue
            sentence = "".join(self.record.quote(c))
            for pc in find_changes(sentence):
                # "from 67 TPS to 253 ..., and to 368 TPS": the same start, and the
                # claim's after figure later in the sentence
                if same_value(pc.before, ch.before) and (
                        same_value(pc.after, ch.after) or written_after(sentence, pc.end, ch.after)):
                    same.append(e)
                elif same_value(pc.before, ch.after) and same_value(pc.after, ch.before):
                    other.append((e, pc))
        told = f"a change from {fmt_number(ch.before)} to {fmt_number(ch.after)}"
        if v.verdict == "supported" and any(e.relation == "supports" for e in same):
            return v
        if other:
            e, pc = other[0]
            e.relation, e.detail = "contradicts", (f"states the change the other way, from "
                                                   f"{fmt_number(pc.before)} to {fmt_number(pc.after)}")
            v.verdict = "contradicted"
            v.explanation = (f"The claim states {told}; {e.source or e.doc_path} states the "
                             f"change the other way, from {fmt_number(pc.before)} to "
                             f"{fmt_number(pc.after)}.")
            return v
        if v.verdict == "supported":
            for e in v.evidence:
                if e.relation == "supports":
                    e.relation, e.detail = "partial", "meets the after figure, but states no change"
            v.verdict = "unproven"
            v.explanation = (f"The claim states {told}; no primary figure states that change "
                             f"(the record holds the after figure alone). " + v.explanation)
        return v

    def _candidates(self, f: Claim) -> list[Claim]:
        uk = self.facts(f).unit
        return [p for p in self.primaries if p.family == f.family and self.facts(p).unit == uk]

    def _check(self, q: Query) -> Verdict:
        f = q.figure
        assert f is not None
        if f.family in SCOPED_FAMILIES and scope_key(f.scope) is None and q.settled_scope != "unspecified":
            return self._unscoped(q)
        cands = self._candidates(f)
        if q.settled_scope == "unspecified":
            cands = [p for p in cands if scope_key(p.scope) is None]
        cmps = [self.compare(q, p) for p in cands]
        ev: list[tuple[str, _Cmp, str]] = []
        exact = [c for c in cmps if c.exact]
        supports = [c for c in exact if c.meets]
        for c in supports:
            ev.append(("supports", c, "meets the claim"))
        contra = self._contradicting(q, exact)
        if not supports and not contra:
            # the same comparison, measured, going the other way: "2x slower than vLLM"
            # against a primary "2x faster than vLLM"
            contra = [c for c in cmps if c.reversed and not c.open and not c.differs
                      and c.scope in ("same", "free")]
        if not supports:
            for c in contra:
                ev.append(("contradicts", c, "rules the claim out"))
        near = self._near(q, cmps)
        ev += near
        if supports:
            verdict, text = "supported", self._supported_text(q, supports)
        elif contra:
            verdict, text = "contradicted", self._contradicted_text(q, contra)
        else:
            verdict = "unproven"
            text, ctx = self._unproven_text(q, cmps, near)
            ev += ctx
        return Verdict(verdict, text, self._evidence(ev), q)

    def _contradicting(self, q: Query, exact: list[_Cmp]) -> list[_Cmp]:
        f = q.figure
        if any(c.meets for c in exact):
            return []
        refuting = [c for c in exact if c.refutes]
        if not refuting:
            return []
        # "Some system reached X" (no model, hardware, engine or baseline) is existential:
        # a bound on one system's figure does not refute it.
        if not names_subject(f):
            return []
        if q.peak:
            # "up to N": the best figure on exactly this quantity is below N beyond rounding
            # (a figure above N, which neither meets nor refutes, is a better best case)
            return refuting if len(refuting) == len(exact) else []
        if f.comparator in UPPER:
            return refuting
        if f.comparator in LOWER:
            # a bound below a floor ("up to 376" against "tops 500") rules it out. Operating
            # points below it do so only when the claim fixes the configuration (hardware)
            # and they pin one value: "Qwen3-32B tops 150 per user" is not refuted by 140 on
            # one setup, "on four B300 GPUs reached 1,239" is by the 826 measured there
            bounds = [c for c in refuting if _is_bound(c.claim)]
            if bounds:
                return bounds
            if f.accelerator is None and f.hardware is None:
                return []
        # The matching figures must pin one value (agree among themselves); figures that
        # vary with conditions the claim leaves open refute nothing.
        figs = [full_figure(c.claim) for c in exact]
        if all(consistent(a, b) for a in figs for b in figs):
            return refuting
        return []

    def _near(self, q: Query, cmps: list[_Cmp]) -> list[tuple[str, _Cmp, str]]:
        """Figures with the claim's number that differ in what they measure."""
        out: list[tuple[str, _Cmp, str]] = []
        for c in cmps:
            got = self._near_one(q, c)
            if got is not None:
                out.append((got[0], c, got[1]))
        return out + self._cross_family(q.figure)

    def _near_one(self, q: Query, c: _Cmp) -> tuple[str, str] | None:
        """(relation, detail) of one figure near the claim, or None."""
        f = q.figure
        if c.exact or not _SUBJECT.isdisjoint(c.differs):
            return None
        if c.scope == "differs" and not c.differs and self._same_number(f, c.claim):
            return ("mismatch", f"has the same number, but "
                    f"{scope_words(c.claim.scope)}, not {scope_words(f.scope)}: "
                    f"a metric mismatch")
        if not c.meets:
            return None
        if "label" in c.differs or ("label" in c.open and not c.differs):
            # the price basis the extractor stored with the figure (one reading of it:
            # extract/conditions.price_basis)
            basis = c.claim.price_basis
            what = f"a {c.label}" if c.label else "not labelled"
            if basis and c.label == "price":
                what += " at " + basis
            return ("label_mismatch", f"is {what}, not {q.label}: a label mismatch")
        if not c.differs and c.open and c.scope in ("same", "free", "open") \
                and "model" not in c.open:
            missing = list(c.open) + (["denominator"] if c.scope == "open" else [])
            verb = "matches the number" if (f.comparator or "=") in ("=", "~") \
                else "meets the figure"
            return ("partial", f"{verb} but states no " + _and(missing))
        return None

    def _near_kind(self, q: Query, c: _Cmp) -> str | None:
        got = self._near_one(q, c)
        return got[0] if got else None

    def _cross_family(self, f: Claim) -> list[tuple[str, _Cmp, str]]:
        """The same number in another count family: a context length read as throughput."""
        out: list[tuple[str, _Cmp, str]] = []
        if f.family in COUNT_FAMILIES and abs(f.value) >= MISMATCH_MIN_VALUE:
            fw = self.facts(f).witness
            for p in self.primaries:
                if p.family == f.family or p.family not in COUNT_FAMILIES:
                    continue
                if not _same_number(f, p, fw, self.facts(p).witness):
                    continue
                if f.model and model_key(f.model) != model_key(p.model):
                    continue
                c = _Cmp(p, None, [], [], "free", True, False)
                out.append(("mismatch", c, f"has the same number, but as "
                            f"{FAMILY_NOUNS.get(p.family, p.family)}, not "
                            f"{FAMILY_NOUNS.get(f.family, f.family)}: a metric mismatch"))
        return out

    def _unscoped(self, q: Query) -> Verdict:
        """No denominator: a same-valued primary figure on the subject settles it."""
        f = q.figure
        assert f is not None
        settling = []
        # "a full eight-GPU H200 server generates 11,819 tokens per second": a rate credited
        # to a counted set of accelerators is the set's, never settled by one GPU's or one
        # user's figure of the same number
        whole = bool(f.hw_count and f.hw_count >= 2 and f.family in ("token_throughput", "request_throughput"))
        compared: dict[int, _Cmp] = {}      # by id(p): the by-denominator pass reads them again
        for p in self._candidates(f):
            if scope_key(p.scope) is None:
                continue
            if whole and p.scope in ("per_gpu", "per_user"):
                continue
            c = compared[id(p)] = self.compare(q, p)
            if settles(q, c, self.facts(f).witness, self.facts(p).witness):
                if f.model is None and f.hardware is None and not _distinctive(f):
                    continue
                settling.append(c)
        scopes = sorted({p.claim.scope for p in settling})
        if len(scopes) == 1:
            scope = scopes[0]
            first = settling[0].claim
            q2 = replace(q, figure=replace(f, scope=scope), settled_scope=scope)
            v = self._check(q2)
            lead = (f"The claim names no denominator; the primary figure with this value, "
                    f"{figure_text(first)} ({cite(self.record.doc(first), first.page)}), "
                    f"is {SCOPE_NOUNS.get(scope, scope)}. ")
            v.explanation = lead + v.explanation
            v.query = q
            return v
        ev: list[tuple[str, _Cmp, str]] = []
        if len(scopes) > 1:
            for c in settling:
                ev.append(("partial", c, f"same number, {scope_words(c.claim.scope)}"))
            text = ("The claim names no denominator, and its value appears "
                    + _and([f"{SCOPE_NOUNS.get(s, s)} in {self._src(c.claim)}" for s in scopes
                            for c in settling if c.claim.scope == s][:4])
                    + ", so no single figure settles it.")
            return Verdict("ambiguous", text, self._evidence(ev), q)
        if (f.model or f.hardware) and f.comparator in ("=", "~") and not whole:
            # "LMDeploy generated 1,852 tokens per second on Llama 2 7B on one A100": the
            # source's own figure names no denominator either. Read against the figures that
            # leave it open as well (and only those: an open denominator never meets a stated
            # one), the claim is the source's, settled or refuted on its other conditions.
            q2 = replace(q, figure=replace(f, scope="unspecified"), settled_scope="unspecified")
            v = self._check(q2)
            if v.verdict in ("supported", "contradicted"):
                v.explanation = ("The claim names no denominator, and neither does the primary "
                                 "figure it restates. " + v.explanation)
                v.query = q
                return v
        if f.hw_count and f.family in ("token_throughput", "request_throughput"):
            # "a 32-GPU MI355X cluster reached 650,000 tokens per second": a rate credited to
            # a counted set of accelerators is the whole set's. Read so, it can only be
            # refuted or left unproven here (a same-valued figure above would have settled
            # it otherwise); one accelerator is no set ("on one A100": per GPU or per user)
            q2 = replace(q, figure=replace(f, scope="per_system"), settled_scope="per_system")
            v = self._check(q2)
            if v.verdict == "contradicted" or (v.verdict == "unproven" and f.hw_count >= 2
                                               and not f.inherited and not self._cross_family(f)):
                v.explanation = (f"The claim names no denominator; a rate credited to "
                                 f"{f.hardware} reads as the whole system's. " + v.explanation)
                v.query = q
                return v
        # nothing with this value: say what the record holds on the subject, by denominator
        ctx = []
        by_scope: dict[str, _Cmp] = {}
        for p in self._candidates(f):
            s = scope_key(p.scope)
            if s is None:
                continue
            c = compared.get(id(p))
            if c is None or c.claim is not p:
                c = self.compare(q, p)
            if {"model", "hardware", "engine", "model size"} & set(c.differs):
                continue
            if s not in by_scope or p.value > by_scope[s].claim.value:
                by_scope[s] = c
        subject = f" on {f.model}" if f.model else ""
        text = (f"The claim names no denominator (per user, per GPU, per system or aggregate), "
                f"so no figure can settle {value_words(f)}{subject}.")
        if by_scope:
            parts = [f"{SCOPE_NOUNS.get(s, s)} {figure_text(c.claim, False)} "
                     f"({self._src(c.claim)})" for s, c in sorted(by_scope.items())]
            text += f" The highest primary figures{subject} are " + _and(parts) + "."
            for c in by_scope.values():
                ctx.append(("context", c, f"highest {SCOPE_NOUNS.get(c.claim.scope, '')} figure"))
        cross = self._cross_family(f)
        for rel, c, detail in cross[:1]:
            text += f" {figure_text(c.claim)} ({self._src(c.claim)}) {detail}."
        ctx += cross
        return Verdict("ambiguous", text, self._evidence(ctx), q)

    # --- words -------------------------------------------------------------------------
    def _src(self, c: Claim) -> str:
        return cite(self.record.doc(c), c.page)

    def _desc(self, c: _Cmp) -> str:
        return describe(c.claim, c.size)

    def _total(self, kind: str, items: list) -> int:
        """How many figures ``items`` stands for: ``supports``, ``contradicts`` or
        ``unknown``. The warehouse checker (check_sql.py) holds only the first few of a
        long list and answers with the count it took in SQL."""
        return len(items)

    def _supported_text(self, q: Query, supports: list[_Cmp]) -> str:
        first = supports[0]
        n = self._total("supports", supports)
        more = f" ({n - 1} more primary figure{'s' if n > 2 else ''} "\
               f"agree)" if n > 1 else ""
        return (f"{self._src(first.claim)} reports {self._desc(first)}, which meets "
                f"{q.reading()}{more}.")

    def _contradicted_text(self, q: Query, contra: list[_Cmp]) -> str:
        first = contra[0]
        f = q.figure
        why = "inconsistent with"
        if q.peak:
            first = max(contra, key=lambda c: c.claim.value)
            why = "the highest figure on it, below"
        elif first.reversed:
            why = "which goes the other way from"
        elif f.comparator in LOWER:
            why = "a bound below"
        elif f.comparator in UPPER:
            why = "above"
        n = self._total("contradicts", contra)
        more = f"; {n - 1} more agree" if n > 1 else ""
        return (f"{self._src(first.claim)} reports {self._desc(first)} on the same quantity, "
                f"{why} {q.reading()}{more}.")

    def _unproven_text(self, q: Query, cmps: list[_Cmp], near) -> tuple[str, list]:
        f = q.figure
        ctx: list[tuple[str, _Cmp, str]] = []
        sentences = [f"No primary figure meets {q.reading()}."]
        said: dict[str, int] = {}     # claim id -> the sentence that names it
        best_word = "highest" if q.peak else _best_word(f)
        # "up to N" names a best case: the record's best is its highest figure
        pick = max if f.comparator not in UPPER or q.peak else min
        # the best figure on the quantity, whatever the size condition says
        pool = [c for c in cmps if c.scope in ("same", "free")
                and not (set(c.differs) - {"model size"}) and not set(c.open) - {"model size"}]
        on = conditions(f)
        relaxed = False
        if not pool and on:
            # nothing under all the claim's conditions: the best figure on its model, else
            # on the bare quantity (and say that the model has none)
            same_model = [c for c in cmps if c.scope in ("same", "free")
                          and "model" not in c.differs and "model" not in c.open]
            if f.model and not same_model:
                what = SCOPE_NOUNS.get(scope_key(f.scope) or "", "")
                sentences.append(f"The primary record holds no {what} "
                                 f"{FAMILY_NOUNS.get(f.family, 'figure')} figure on "
                                 f"{f.model}.".replace("  ", " "))
                on = [x for x in on if x != conditions(f)[0]] if f.model else on
                pool = [c for c in cmps if c.scope in ("same", "free")]
            else:
                pool = same_model if f.model else [c for c in cmps if c.scope in ("same", "free")]
            relaxed = bool(pool)
        exact = [c for c in cmps if c.exact]
        if names_subject(f) and len(exact) > 1 and any(c.refutes for c in exact):
            lo = min(exact, key=lambda c: c.claim.value)
            hi = max(exact, key=lambda c: c.claim.value)
            sentences.append(
                f"The primary figures on exactly this quantity disagree among themselves, "
                f"from {figure_text(lo.claim)} ({self._src(lo.claim)}) to "
                f"{figure_text(hi.claim)} ({self._src(hi.claim)}), so none of them rules "
                f"it out.")
            said[lo.claim.id] = said[hi.claim.id] = len(sentences) - 1
            ctx += [("context", lo, "lowest figure on this quantity"),
                    ("context", hi, "highest figure on this quantity")]
        elif pool:
            if f.comparator in LOWER or f.comparator in UPPER:
                best = pick(pool, key=lambda c: c.claim.value)
            else:
                best_word = "closest"
                best = min(pool, key=lambda c: _distance(f.value, c.claim.value))
            what = SCOPE_NOUNS.get(scope_key(f.scope) or "", "")
            noun = f"{best_word} {what} figure".replace("  ", " ")
            if relaxed:
                lead = (f"No primary figure on this quantity matches the claim's conditions "
                        f"({', '.join(on)}); the" if on else "The")
                scope_of = f" on {f.model}" if f.model and "model" not in best.differs \
                    and "model" not in best.open else (" on any model" if f.model else "")
                sentences.append(f"{lead} {noun}{scope_of} in the primary record is "
                                 f"{self._desc(best)}, from {self._src(best.claim)}.")
            else:
                where = f" for {', '.join(on)}" if on else ""
                sentences.append(f"The {noun}{where} in the primary record is "
                                 f"{self._desc(best)}, from {self._src(best.claim)}.")
            said[best.claim.id] = len(sentences) - 1
            ctx.append(("context", best, f"the {noun}"))
            if q.size is not None and not relaxed:
                inside = [c for c in pool if "model size" not in c.differs
                          and "model size" not in c.open]
                cond = size_condition(q.size)
                if inside:
                    b2 = pick(inside, key=lambda c: c.claim.value)
                    models = sorted({c.claim.model for c in inside if c.claim.model})
                    only = "only " if len(models) == 1 else ""
                    name = b2.claim.model or "a model"
                    sentences.append(
                        f"Among {cond}, the record holds {only}{name} "
                        f"({params_text(b2.size)} parameters), at "
                        f"{figure_text(b2.claim)}{_conds(b2.claim)}, from "
                        f"{self._src(b2.claim)}.")
                    said.setdefault(b2.claim.id, len(sentences) - 1)
                    if b2 is not best:
                        ctx.append(("context", b2, f"the {best_word} figure on {cond}"))
                else:
                    unknown = [c for c in cmps if "model size" in c.open and c.meets]
                    n = self._total("unknown", unknown)
                    tail = (f"; {n} figure(s) that would meet it state no model size"
                            if n else "")
                    sentences.append(f"No figure on {cond} is in the record{tail}.")
        elif not near:
            sentences.append("The record holds no primary figure on this quantity.")
        for rel, c, detail in near[:2]:
            k = said.get(c.claim.id)
            if k is not None:
                sentences[k] = sentences[k][:-1] + f"; it {detail}."
            else:
                sentences.append(f"{figure_text(c.claim)} ({self._src(c.claim)}) {detail}.")
        return " ".join(sentences), ctx

    def _evidence(self, items: list[tuple[str, _Cmp, str]]) -> list[Evidence]:
        seen: set[str] = set()
        out: list[Evidence] = []
        order = {r: i for i, r in enumerate(RELATION_ORDER)}
        for rel, c, detail in sorted(items, key=lambda t: order.get(t[0], 99)):
            p = c.claim
            if p.id in seen:
                continue
            seen.add(p.id)
            d = self.record.doc(p)
            out.append(Evidence(p.id, d.path, p.page, p.surface, p.value, p.unit, p.scope, rel,
                                p.start, p.end, cite(d, p.page), detail))
            if len(out) >= MAX_EVIDENCE:
                break
        return out


def _size_precision(ps) -> float | None:
    if ps is None or ps[1] is None:
        return None
    return ps[1].precision


def _distinctive(f: Claim) -> bool:
    """A number specific enough to identify a figure with no subject (not '100', '200')."""
    digits = re.sub(r"\D", "", f.value_text or fmt_number(f.value))
    return len(digits.rstrip("0")) >= 3 or abs(f.value) >= 10000


def _reaches(f: Claim, p: Claim, fp: float | None = None) -> bool:
    """Does ``p`` show that ``f``'s number was reached, at ``f``'s stated precision? (A
    coarse "2x" does not show that 2.3x was reached.) ``fp``: ``full_figure(f).p`` where the
    caller holds it."""
    top = p.value if p.high is None else max(p.value, p.high)
    return top >= f.value - (full_figure(f).p if fp is None else fp) * (1 + 1e-9)


def _overshoots(f: Claim, p: Claim, fp: float | None = None) -> bool:
    """Is ``p``'s best above ``f``'s best case beyond ``f``'s stated precision? ("up to 3.3x"
    against a record of 5.2x: the claim names another best case than the record's.)"""
    top = p.value if p.high is None else max(p.value, p.high)
    return top > f.value + (full_figure(f).p if fp is None else fp) * (1 + 1e-9)


def is_range(c: Claim) -> bool:
    return c.low is not None and c.high is not None


def range_shown(f: Claim, p: Claim) -> bool:
    """A range claim ("2-5x higher throughput") is shown only by a range whose two ends meet
    its ends: one figure inside it shows one operating point, not the spread. A point claim
    ("1.41x") is shown by a range only at one of its ends ("1.35-1.45x" says where the gains
    lie, not that 1.41x was measured). Bounds ("at least 1.3x") are read as before. The SQL
    checker leaves these rows to this function (``check_sql``)."""
    if is_range(f):
        return is_range(p) and all(
            consistent(Figure(a, precision=f.precision), Figure(b, precision=p.precision))
            for a, b in ((f.low, p.low), (f.high, p.high)))
    if is_range(p) and (f.comparator or "=") in ("=", "~"):
        return any(consistent(Figure(f.value, comparator=f.comparator or "=", precision=f.precision),
                              Figure(b, precision=p.precision)) for b in (p.low, p.high))
    return True


def phase_must_be_stated(f: Claim) -> bool:
    """Whether a figure that names no phase leaves the claim's phase open: a time to first
    token is not shown by a latency that says not which one, nor a prefill speedup by a
    ratio of throughput that says not of which phase ("nearly doubles prefill throughput"
    against "1.9x throughput"). Read by ``Checker.compare`` and the SQL checker alike."""
    if not norm(f.phase):
        return False
    return f.family == "latency" or (f.family in COMPARED_FAMILIES
                                      and f.measures in ("throughput", "latency"))


def benchmark_scenario(workload: str | None) -> str | None:
    """The benchmark scenario a workload names ("MLPerf Server", or the serving mode outside
    MLPerf: an offline batch against online serving), a condition of its result; other
    workloads (a dataset's name) are not compared."""
    return workload if workload and (workload.startswith("MLPerf ") or workload in SERVING_MODES) else None


# vocab/conditions.toml [workloads]: how a run was served, outside MLPerf's scenarios
SERVING_MODES = frozenset({"offline inference", "online serving"})


def states_settings(f: Claim) -> bool:
    """Does the claim state a workload setting beyond concurrency (ISL/OSL, batch size,
    offered load, parallelism, precision, a benchmark scenario)? Those are compared in
    Python only."""
    return any(x is not None for x in (f.isl, f.osl, f.batch_size, f.offered_load,
                                       f.parallelism, f.dtype, benchmark_scenario(f.workload)))


def names_subject(f: Claim) -> bool:
    """Does the claim name what it is about? Without a model, hardware, engine or baseline
    it says only that *some* system reached the figure (docs/claims-model.md §4)."""
    return any(x is not None for x in (f.model, f.hardware, f.accelerator, f.engine, f.baseline))


def settles(q: Query, c: "_Cmp", fw: tuple | None = None, pw: tuple | None = None) -> bool:
    """Does primary figure ``c`` settle the denominator a claim leaves unsaid? Only the same
    number does ("reached 4,574" is not settled by every higher figure that would meet it;
    "20 to 22" not by one figure inside it), on no other subject. Read by ``_unscoped`` and
    the SQL checker's verification alike (``fw``, ``pw``: as for ``_point_matches``)."""
    f, p = q.figure, c.claim
    assert f is not None
    return (scope_key(p.scope) is not None and _point_matches(f, p, fw, pw)
            and range_shown(replace(f, comparator="~" if f.comparator == "~" else "="), p)
            and not (q.subject_text and q.subject_text in c.open)
            and not ({"model", "hardware", "engine", "concurrency", "statistic", "model size"}
                     & set(c.differs)))


def _point_matches(f: Claim, p: Claim, fw: tuple | None = None, pw: tuple | None = None) -> bool:
    """The figure states the claim's number, comparators aside (``fw``, ``pw``: the
    ``bounds`` of ``witness_figure(f)`` and ``witness_figure(p)`` where the caller holds them)."""
    return consistent_bounds(fw or bounds(witness_figure(f)), f.value,
                             pw or bounds(witness_figure(p)), p.value)


def _same_number(f: Claim, p: Claim, fw: tuple | None = None, pw: tuple | None = None) -> bool:
    """The two figures state the same number (comparators aside): metric drift material."""
    if abs(f.value) < MISMATCH_MIN_VALUE or abs(p.value) < MISMATCH_MIN_VALUE:
        return False
    return _point_matches(f, p, fw, pw)


SIZE_WORDS = {">": "above", ">=": "of at least", "<": "below", "<=": "of at most",
              "~": "of about", "=": "of"}


def size_condition(size: Figure) -> str:
    """'models above 700B parameters'."""
    return f"models {SIZE_WORDS.get(size.comparator, 'of')} {params_text(size.value)} parameters"


def _distance(a: float, b: float) -> float:
    if a > 0 and b > 0:
        return abs(math.log(a / b))
    return abs(a - b)


def _best_word(f: Claim) -> str:
    if f.comparator in UPPER:
        return "lowest" if f.family != "latency" else "highest"
    if f.family in SCOPED_FAMILIES:
        return "fastest"
    if f.family == "latency":
        return "lowest"
    return "highest"


def _conds(c: Claim) -> str:
    conds = conditions(c, skip=("model",))
    return (" (" + ", ".join(conds) + ")") if conds else ""


def _and(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- entry points ------------------------------------------------------------------------

def check_text(text: str, record: Record) -> Verdict:
    """Check a plain-words claim against a loaded record."""
    return Checker(record).check(read_claim(text))


def loaded_families(q: Query) -> set[str]:
    """The claim families ``check_loaded`` reads."""
    families = {"parameters"}
    if q.figure is not None:
        families.add(q.figure.family)
        if q.figure.family in COUNT_FAMILIES:
            families |= COUNT_FAMILIES
    return families


def check_loaded(q: Query, store) -> Verdict:
    """Check a read claim against every primary figure of its family, loaded into Python
    (the reference ``check_query`` answers like; what it does for a small warehouse)."""
    record = Record.load(store, families=loaded_families(q), with_links=False,
                         with_text=False)
    return Checker(record).check(q)


def format_verdict(v: Verdict) -> str:
    """The verdict as plain text: verdict and explanation, how the claim was read, evidence."""
    lines = [f"{v.verdict}: {v.explanation}"]
    if v.query is not None:
        lines.append(f"read as: {v.query.reading()}")
    if v.evidence:
        lines.append("evidence:")
        for e in v.evidence:
            page = f", p. {e.page}" if e.page else ""
            lines.append(f"  {e.relation:<14} {e.surface}  {e.doc_path} [{e.start}:{e.end}]{page}"
                         f"  [{e.id}]" + (f"  {e.detail}" if e.detail else ""))
            if e.derived:
                lines.append(f"  {'':<14} {e.derived}")
            if e.citation:
                lines.append(f"  {'':<14} cited as: {e.citation}")
    return "\n".join(lines) + "\n"
