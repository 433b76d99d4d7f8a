"""Document roles: is a document the measurer's own (primary) or coverage (secondary)?

Precedence is the manifest, then the document's own metadata, then inference from the
text. Inference weighs two kinds of evidence:

* the document reporting its own measurements: first-person measurement ("we measured",
  "we also benchmarked", "our results", "our MLPerf submission"), a benchmark table of its
  own runs (several figures in tables), and a publisher speaking about its own system (the
  author or byline team is the system the title or the figures are about: "vLLM Team"
  writing about vLLM, an amd.com author on "AMD & SGLang");
* the document attributing figures to others: a named source ("according to Nvidia", "X
  said", "as reported by X", "X's post", "credited to"), another team it reports on ("the
  SGLang team has ..." when SGLang is not the author), claims the extractor marked as
  reported, and a title that rounds up several systems (a meetup recap).

Attribution needs a name: "according to matched prefix length", "the model says" or "we've
made grand claims" are not sources. The result carries its source so ``claims ingest`` can
print inferred roles for a user to correct in sources.csv.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from pipeline.model import Claim

from .keys import engine_key, norm
from .records import DocMeta

VALID = ("primary", "secondary")

# A word that names someone: it has a capital letter ("Nvidia", "vLLM", "SGLang",
# "InferenceX"), and is not a pronoun or a sentence's first function word.
_NAME = r"(?!(?:It|This|That|These|Those|The|He|She|They|We|I|You|There|Here|A|An)\b)" \
        r"[\w.\-]*[A-Z][\w.\-]*"
_ATTRIBUTION = [re.compile(p) for p in (
    rf"\b[Aa]ccording to (?:the |an? )?{_NAME}",
    r"\b[Aa]ccording to (?:the |an? )?(?:company|firm|vendor|team|report|paper|post|"
    r"announcement|press release|blog)\b",
    rf"\b{_NAME}(?:'s|’s)? (?:said|says|say|told|claims|claimed|stated|states|announced|"
    r"reports|reported|writes|wrote)\b",
    rf"\b(?:reported|claimed|stated|announced|validated|published|measured|shared) by "
    rf"(?:the |an? )?[\[*_\"“]*{_NAME}",
    r"\b[Cc]redited to\b", r"\b[Aa]s per\b", r"\b(?:[Rr]eportedly|[Aa]llegedly)\b",
    rf"\b{_NAME}(?:'s|’s) (?:blog )?(?:post|page|paper|announcement|report|release|"
    r"document|keynote|talk|slides)\b",
    r"\b[Ww]ord around town\b",
    r"\b[Tt]he (?:company|firm|vendor|startup) (?:says|said|claims|claimed|reports|reported|"
    r"stated|announced)\b",
    r"\b[Ii]n a (?:blog )?post\b",
)]
# Another team the document reports on: "the SGLang team has", "from the SGLang team".
_TEAM = re.compile(r"\b(?:[Ff]rom|[Bb]y) the ([\w.\-]+) [Tt]eam\b|\b[Tt]he ([\w.\-]+) [Tt]eam "
                   r"(?:has|have|is|are|was|were|plans|presented|introduced|showed|shared|"
                   r"demonstrated|announced|released|explained|described)\b")
_BYLINE = re.compile(r"^\s*(?:[Bb]y )?(?:[Tt]he )?([\w.\-]+(?: [\w.\-]+)?) [Tt]eam\s*$", re.M)
_WE_ARE = re.compile(r"\bwe(?:'re| are) (?:a |the )?(?:[\w\-]+ ){0,3}team (?:@|at |from |of )@?"
                     r"([\w.\-]+)", re.I)

_MEASURE_VERBS = (
    r"measure[ds]?|ran|run|benchmark(?:ed|s)?|re-?benchmarked|test(?:ed|s)?|observe[ds]?|"
    r"achieve[ds]?|evaluate[ds]?|deploy(?:ed|s)?|serve[ds]?|reach(?:ed|es)?|see|saw|get|got|"
    r"obtain(?:ed)?|record(?:ed)?|profile[ds]?|compare[ds]?|found|find|demonstrate[ds]?|"
    r"validated?|reproduced?|replicated?|match(?:ed)?|sustain(?:ed)?|report|present|"
    r"implemented|built|release[ds]?|ship(?:ped)?|use[ds]?|emulated|simulated|conducted|"
    r"collected|verified|tried|saturate|maximi[sz]ed|halve|offload|disable|set|enabled?")
_OWN_NOUNS = (
    r"results?|measurements?|(?:micro)?benchmarks?|benchmarking|runs?|setup|team|work|"
    r"kernels?|system|implementation|numbers|release|experiments?|tests?|testing|evaluations?|"
    r"submissions?|cluster|hardware|gpus|servers?|deployment|profil(?:e|ing)|analysis|"
    r"findings|data|engine|method(?:ology)?|approach|optimi[sz]ations?|framework|models?|"
    r"previous work|prototype|library|stack")
_FIRST_PERSON = [re.compile(p, re.I) for p in (
    rf"\bwe(?:'ve|'re| have| had| also| then| further| first| now| again| still| can| could|"
    rf" were able to| successfully| recently| additionally| finally| next)* (?:{_MEASURE_VERBS})\b",
    rf"\bour (?:[\w\-]+ ){{0,2}}(?:{_OWN_NOUNS})\b",
    r"\bthis (?:page|dashboard|work was led)\b",
    r"\bmethodology\b",
)]
_WE_ANY = re.compile(r"(?<![\w/\-])(?:we|our|us)\b(?![/\-])", re.I)
# Someone else doing the measuring: "SGLang tested ...", "vLLM, with llm-d 0.3, reports".
_THIRD_PARTY = re.compile(
    rf"\b({_NAME})(?:,(?:[^,.\n]|\.(?=\d)){{1,60}},)? (?:also |recently |later )?(?:published|tested|"
    r"reports|reported|announced|claims|claimed|says|said|stated)\b")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_EMAIL_ORG = re.compile(r"@([\w\-]+)\.")
_GENERIC_ORG = frozenset({
    "the", "and", "team", "teams", "guest", "post", "by", "inc", "llc", "ltd", "lab", "labs",
    "blog", "ai", "llm", "llms", "org", "com", "research", "group", "project", "community",
    "of", "a", "an", "for", "with", "on", "in", "at", "&"})


def _count(patterns: list[re.Pattern], text: str) -> int:
    return sum(len(p.findall(text)) for p in patterns)


def _words(text: str | None) -> set[str]:
    t = norm(text) or ""
    return {w.strip(".") for w in re.split(r"[\s&+,]+", t)} - _GENERIC_ORG - {""}


def own_names(meta: DocMeta | None, text: str) -> set[str]:
    """Who the document speaks for: its author's and publisher's names (teams, companies,
    an e-mail's organisation) and a byline team near the top ("SGLang Team")."""
    names: set[str] = set()
    if meta is not None:
        for field in (meta.author, meta.publisher):
            if not field:
                continue
            names |= {m.lower() for m in _EMAIL_ORG.findall(field)}
            if "@" not in field and (re.search(r"\bteam\b", field, re.I)
                                     or "," not in field):
                names |= _words(re.sub(r"@[\w.\-]+", "", field))
    for m in _BYLINE.finditer(text[:3000]):
        names |= _words(m.group(1))
    for m in _WE_ARE.finditer(text[:5000]):        # "We're a tiny team @deepseek-ai"
        names |= {w for w in _words(m.group(1).replace("-", " ")) if len(w) > 2}
    return names


def _dominant(names: Iterable[str]) -> str | None:
    """The name that at least three and at least half of the mentions are of."""
    count = Counter(names)
    if not count:
        return None
    name, n = count.most_common(1)[0]
    return name if n >= 3 and n * 2 >= sum(count.values()) else None


def _systems(text: str) -> list[str]:
    """Engines (serving systems) named in a text, one entry per mention."""
    try:
        from pipeline.vocab.loader import load
        pats = load().engines
    except Exception:   # pragma: no cover - the vocabulary ships with the package
        return []
    return [engine_key(name) or name for _, _, name in pats.finditer(text)]


def evidence(text: str | None, claims: Iterable[Claim] = (),
             meta: DocMeta | None = None) -> tuple[float, float]:
    """(primary, secondary) evidence scores of a document."""
    text = _URL.sub(" ", _MD_LINK.sub(r"\1", _MD_IMAGE.sub(" ", text or "")))
    claims = list(claims)
    title = (meta.title if meta is not None else None) or text[:300]
    opening = title + " " + text[:300]
    own = own_names(meta, text)
    title_words = _words(title)

    prim = float(_count(_FIRST_PERSON, text))
    # any other first person ("we believed", "our lab introduced"): narrative, little weight
    loose = len(_WE_ANY.findall(text)) - prim
    prim += min(1.0, max(0.0, loose) * 0.1)
    tabled = sum(1 for c in claims if c.in_table)
    if tabled >= 3:                       # a benchmark table of its own runs
        prim += min(3.0, tabled / 3)
    # the system the document is about: what its figures name, else what its text names
    engine = _dominant(k for c in claims if (k := engine_key(c.engine))) \
        or _dominant(_systems(text))
    named = set(_systems(opening))
    if own and (own & title_words or (engine and engine in own)):
        prim += 2.0                       # the publisher writing about its own system
    elif engine and engine in named and len(named) == 1:
        prim += 1.0                       # a document about one system, its figures on it

    sec = float(_count(_ATTRIBUTION, text))
    for m in _THIRD_PARTY.finditer(text):
        who = _words(m.group(1))
        if who and not who <= (own | title_words):
            sec += 1.0                    # someone else's result, not the author's
    sec += sum(1 for c in claims if c.stance == "reported" or c.asserted_by)
    for m in _TEAM.finditer(text):
        team = (m.group(1) or m.group(2) or "").lower()
        if team and team not in own:
            sec += 1.0                    # reporting on another team's work
    if len(named) >= 3:
        sec += 1.0                        # a round-up of several systems
    return prim, sec


def infer_from_text(text: str | None, claims: Iterable[Claim] = (),
                    meta: DocMeta | None = None) -> str:
    """'primary', 'secondary' or 'unknown' from cues in the text, its claims and (when
    given) the document's author, publisher and title."""
    prim, sec = evidence(text, claims, meta)
    if sec >= 2 and sec > 2 * prim:
        return "secondary"
    if prim >= 1:
        return "primary"
    if sec >= 1:
        return "secondary"
    return "unknown"


def resolve_role(doc: DocMeta, claims: Iterable[Claim] = ()) -> tuple[str, str]:
    """(role, role_source): manifest > metadata > inferred."""
    if doc.role in VALID and doc.role_source in ("manifest", "metadata"):
        return (doc.role, doc.role_source)
    if doc.role in VALID and doc.role_source is None:
        return (doc.role, "metadata")
    return (infer_from_text(doc.text, claims, doc), "inferred")
