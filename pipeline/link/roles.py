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
from functools import lru_cache

from pipeline.model import Claim
from pipeline.vocab.caseless import fold as _fold

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
    return _own_names(meta, text)


def _own_names(meta: DocMeta | None, text: str, byline: bool = True,
               low: str | None = None) -> set[str]:
    """``own_names``; ``byline`` False when no line of ``text[:3000]`` can end in "team",
    ``low``: ``_fold(text)``, to try ``_WE_ARE`` only where it can match."""
    names: set[str] = set()
    if meta is not None:
        for field in (meta.author, meta.publisher):
            if not field:
                continue
            names |= {m.lower() for m in _EMAIL_ORG.findall(field)}
            if "@" not in field and (re.search(r"\bteam\b", field, re.I)
                                     or "," not in field):
                names |= _words(re.sub(r"@[\w.\-]+", "", field))
    if byline:
        for m in _BYLINE.finditer(text[:3000]):
            names |= _words(m.group(1))
    head = text[:5000]
    if low is None:
        we_are: Iterable[re.Match] = _WE_ARE.finditer(head)
    else:                                  # it starts at a "we're" or a "we are"
        we_are = _matches_at(_WE_ARE, head, _positions(low, "we're", 5000)
                             + _positions(low, "we are", 5000))
    for m in we_are:                       # "We're a tiny team @deepseek-ai"
        names |= {w for w in _words(m.group(1).replace("-", " ")) if len(w) > 2}
    return names


def _dominant(names: Iterable[str]) -> str | None:
    """The name that at least three and at least half of the mentions are of."""
    count = Counter(names)
    if not count:
        return None
    name, n = count.most_common(1)[0]
    return name if n >= 3 and n * 2 >= sum(count.values()) else None


def _engines():
    try:
        from pipeline.vocab.loader import load
        return load().engines
    except Exception:   # pragma: no cover - the vocabulary ships with the package
        return None


def _systems(text: str, low: str | None = None) -> list[str]:
    """Engines (serving systems) named in a text, one entry per mention. With ``low``
    (``_fold(text)``) the vocabulary's pattern is only tried where a spelling can begin."""
    pats = _engines()
    if pats is None:    # pragma: no cover
        return []
    starts = _engine_starts(pats.pattern, low) if low is not None else None
    if starts is None:
        found: Iterable[re.Match] = pats.pattern.finditer(text)
    else:
        found = _matches_at(pats.pattern, text, starts)
    names = (pats.names[m.lastindex - 1] if m.lastindex else "" for m in found)
    return [engine_key(name) or name for name in names]


def _link_text(m: re.Match) -> str:
    return m.group(1)          # what r"\1" gives, without expanding a template each time


def _clean(text: str) -> str:
    """Links and images reduced to their text, addresses removed (they carry no cues)."""
    if "](" in text:
        text = _MD_LINK.sub(_link_text, _MD_IMAGE.sub(" ", text))
    if "://" in text:
        text = _URL.sub(" ", text)
    return text


def evidence(text: str | None, claims: Iterable[Claim] = (),
             meta: DocMeta | None = None) -> tuple[float, float]:
    """(primary, secondary) evidence scores of a document."""
    text = _clean(text or "")
    low = _fold(text)
    if low is None:
        return _evidence_scan(text, claims, meta)
    claims = list(claims)
    title = (meta.title if meta is not None else None) or text[:300]
    opening = title + " " + text[:300]
    spaced = _spaced(low)
    own = _own_names(meta, text, _ends_a_line(text, spaced[_TEAM_WORD], 3000), low)
    title_words = _words(title)

    first, we_any = _first_person(text, low, spaced)
    prim = float(first)
    # any other first person ("we believed", "our lab introduced"): narrative, little weight
    loose = we_any - prim
    prim += min(1.0, max(0.0, loose) * 0.1)
    tabled = sum(1 for c in claims if c.in_table)
    if tabled >= 3:                       # a benchmark table of its own runs
        prim += min(3.0, tabled / 3)
    named = set(_systems(opening, _fold(opening)))
    if own and own & title_words:
        prim += 2.0                       # the publisher writing about its own system
    else:
        # the system the document is about: what its figures name, else what its text
        # names (looked for only when it can matter: when it could be one of ``targets``)
        engine = _dominant(k for c in claims if (k := engine_key(c.engine)))
        targets = own | named if len(named) == 1 else own
        if engine is None and targets & _engine_keys():
            engine = _dominant(_systems(text, low))
        if own and engine and engine in own:
            prim += 2.0                   # the publisher writing about its own system
        elif engine and engine in named and len(named) == 1:
            prim += 1.0                   # a document about one system, its figures on it

    sec = _secondary(_attributions(text, spaced),
                     _matches_near(_THIRD_PARTY, text, spaced[_VERB], 100, _third_party_start),
                     _teams(text, spaced[_TEAM_WORD]), claims, own, title_words, named)
    return prim, sec


def _secondary(attributions: int, third_party: Iterable[re.Match], teams: Iterable[re.Match],
               claims: list[Claim], own: set[str], title_words: set[str], named: set[str]) -> float:
    """The secondary score from the attribution count and the ``_THIRD_PARTY`` and
    ``_TEAM`` matches (however they were found)."""
    sec = float(attributions)
    for m in third_party:
        who = _words(m.group(1))
        if who and not who <= (own | title_words):
            sec += 1.0                    # someone else's result, not the author's
    sec += sum(1 for c in claims if c.stance == "reported" or c.asserted_by)
    for m in teams:
        team = (m.group(1) or m.group(2) or "").lower()
        if team and team not in own:
            sec += 1.0                    # reporting on another team's work
    if len(named) >= 3:
        sec += 1.0                        # a round-up of several systems
    return sec


def _evidence_scan(text: str, claims: Iterable[Claim] = (),
                   meta: DocMeta | None = None) -> tuple[float, float]:
    """``evidence`` of a cleaned text, every pattern run over all of it: for a text that
    ``_fold`` cannot lower-case in place, and the reference the fast way is tested against."""
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

    sec = _secondary(_count(_ATTRIBUTION, text), _THIRD_PARTY.finditer(text),
                     _TEAM.finditer(text), claims, own, title_words, named)
    return prim, sec


# Counting the patterns cheaply ----------------------------------------------------------
#
# Trying a dozen patterns at every position of a document costs more than extracting its
# claims. ``evidence`` counts what ``pattern.findall(text)`` counts, but tries each pattern
# only where a match can start. Every pattern holds a fixed piece of text, a needle
# ("ccording to ", " said", "we"), at a known place in its match, and ``str.find`` or one
# scan for many needles (``_SPACED``) finds needles far faster than a pattern is tried at
# every position:
#
# * a pattern whose match starts a known distance before a needle is tried there
#   (``_matches_at``); ``pattern.match(text, p)`` sees the whole text, so word boundaries and
#   look-behinds decide as in a scan;
# * a pattern that begins with a name of any length (``_NAME``, no spaces) is searched from
#   the start of the word before the needle up to the needle (``_matches_near``), the search
#   ending further after the needle than any match started there can read.
#
# The matches of a pattern never overlap, and a scan takes the leftmost one after the end of
# the previous one: trying the candidate starts in order, each from the end of the last
# match, finds the same matches. Needles are looked for in ``_fold(text)``, where a
# case-insensitive pattern's letters are lower case, whatever their case in the text.

# Characters of a ``_fold`` text that stand only for word characters, "/" and "-" (which
# _WE_ANY and an engine's name must not follow).
_WORDISH = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_/-")


def _positions(hay: str, needle: str, end: int | None = None) -> list[int]:
    """Every index where ``needle`` occurs in ``hay[:end]`` (overlapping ones too)."""
    out = []
    i = hay.find(needle, 0, end)
    while i >= 0:
        out.append(i)
        i = hay.find(needle, i + 1, end)
    return out


def _matches_at(pattern: re.Pattern, text: str, starts: Iterable[int]) -> list[re.Match]:
    """``list(pattern.finditer(text))``, given every position a match can start at (and
    maybe others, negative ones too). None of the patterns matches the empty string."""
    found = []
    end = 0
    for p in sorted(set(starts)):
        if p >= end:
            m = pattern.match(text, p)
            if m is not None:
                found.append(m)
                end = m.end()
    return found


def _matches_near(pattern: re.Pattern, text: str, anchors: list[int], reach: int,
                  back) -> list[re.Match]:
    """``list(pattern.finditer(text))`` for a pattern each match of which contains one of the
    sorted ``anchors`` and starts in ``[back(text, q), q]`` for that anchor ``q``, with a
    capital letter (its ``_NAME``'s) before ``q``. ``back`` must not decrease with ``q``, and
    no match started at or before ``q`` may read ``text`` at or past ``q + reach``: in that
    window a search decides as in the whole text."""
    found = []
    end = done = 0
    n = len(text)
    for q in anchors:
        lo = max(back(text, q), done, end)
        done = q + 1
        if lo > q:
            continue
        word = text[lo:q]
        if word.lower() == word:          # no capital letter: no name, no match starts here
            continue
        hi = min(n, q + reach)
        while lo <= q:
            m = pattern.search(text, lo, hi)
            if m is None or m.start() > q:
                break
            found.append(m)
            lo = end = m.end()
    return found


def _word_start(text: str, q: int) -> int:
    """Where a name (no spaces) ending at ``q`` can start, at the earliest."""
    return text.rfind(" ", 0, q) + 1


def _third_party_start(text: str, q: int) -> int:
    """Where a ``_THIRD_PARTY`` match with its verb after ``q`` can start, at the earliest:
    its name ends at most 71 characters (", clause of up to 60," and "recently") before."""
    return text.rfind(" ", 0, max(0, q - 71)) + 1


# Needles after a space, found in one scan of the folded text: the verbs _ATTRIBUTION's
# "Acme said" and "the company says" and _THIRD_PARTY end with, the "team" of _TEAM and
# _BYLINE, the last words of "reported by", "as per", "word around town", "in a (blog) post",
# the words after "Acme's" (_ATTRIBUTION) and "this" (_FIRST_PERSON). Each alternative takes
# the space and one word, so no needle is skipped; no capturing groups (twice as slow).
_SPACED = re.compile(
    r" (?:s(?:aid|ay|tate|lides)|t(?:old|ested|eam|alk)|claim|a(?:nnounce(?:d|ment)|round"
    r"(?= town))|wr|p(?:ublished|er|ost|a(?:ge|per))|re(?:port|lease)|by(?= )|blog|document|"
    r"keynote|dashboard|work)")
_VERB, _TEAM_WORD, _BY, _PER, _AROUND, _POST, _NOUN, _THIS = range(8)
_SPACED_KINDS = {
    **dict.fromkeys((" said", " say", " state", " told", " tested", " claim", " announced",
                     " wr", " published"), (_VERB,)),
    " report": (_VERB, _NOUN), " team": (_TEAM_WORD,), " by": (_BY,), " per": (_PER,),
    " around": (_AROUND,), " post": (_POST, _NOUN), " page": (_NOUN, _THIS),
    **dict.fromkeys((" slides", " talk", " announcement", " paper", " release", " blog",
                     " document", " keynote"), (_NOUN,)),
    " dashboard": (_THIS,), " work": (_THIS,)}


def _spaced(low: str) -> list[list[int]]:
    """The positions (of the space) of each kind of ``_SPACED`` needle, in order."""
    out: list[list[int]] = [[] for _ in range(8)]
    kinds = _SPACED_KINDS
    for m in _SPACED.finditer(low):
        for kind in kinds[m[0]]:
            out[kind].append(m.start())
    return out


def _attributions(text: str, spaced: list[list[int]]) -> int:
    """``_count(_ATTRIBUTION, text)``."""
    a = _ATTRIBUTION
    verbs = spaced[_VERB]
    according = [q - 1 for q in _positions(text, "ccording to ")]
    n = len(_matches_at(a[0], text, according)) + len(_matches_at(a[1], text, according))
    n += len(_matches_near(a[2], text, verbs, 32, _word_start))           # Acme said
    n += len(_matches_at(a[3], text, [q - k for q in spaced[_BY] if text[q - 2:q] == "ed"
                                      for k in (6, 7, 8, 9)]))            # reported by
    n += len(_matches_at(a[4], text, [q - 1 for q in _positions(text, "redited to")]))
    n += len(_matches_at(a[5], text, [q - 2 for q in spaced[_PER]
                                      if text[q - 2:q] in ("as", "As")]))  # as per
    n += len(_matches_at(a[6], text, [q - 1 for q in _positions(text, "eportedly")
                                      + _positions(text, "llegedly")]))
    n += len(_matches_near(a[7], text, [q - 2 for q in spaced[_NOUN]      # Acme's post
                                        if text[q - 2:q] in ("'s", "’s")], 32, _word_start))
    n += len(_matches_at(a[8], text, [q - 4 for q in spaced[_AROUND]]))  # word around town
    n += len(_matches_at(a[9], text, [q - k for q in verbs if text[q - 1:q] in "ymrp"
                                      for k in (8, 10, 11)]))  # the company/firm/vendor/startup
    n += len(_matches_at(a[10], text, [q - k for q in spaced[_POST]
                                       for k in (4, 9)]))                 # in a (blog) post
    return n


def _first_person(text: str, low: str, spaced: list[list[int]]) -> tuple[int, int]:
    """(``_count(_FIRST_PERSON, text)``, ``len(_WE_ANY.findall(text))``), the second one
    only up to the first plus 10 (more weighs no more in ``evidence``)."""
    we, our = _positions(low, "we"), _positions(low, "our")
    fp = _FIRST_PERSON
    n = len(_matches_at(fp[0], text, [q for q in we if low[q + 2:q + 3] in (" ", "'")]))
    n += len(_matches_at(fp[1], text, [q for q in our if low[q + 3:q + 4] == " "]))
    n += len(_matches_at(fp[2], text, [q - 4 for q in spaced[_THIS]
                                       if low[q - 4:q] == "this"]))
    n += len(_matches_at(fp[3], text, _positions(low, "methodology")))
    # "we", "our" and "us" matches never overlap: counted apart, "us" only when needed;
    # not tried inside a word ("between", "focus")
    loose = len(_matches_at(_WE_ANY, text, [q for q in we + our
                                            if not q or low[q - 1] not in _WORDISH]))
    if loose < n + 10:
        loose += len(_matches_at(_WE_ANY, text, [q for q in _positions(low, "us")
                                                 if not q or low[q - 1] not in _WORDISH]))
    return n, loose


def _teams(text: str, team: list[int]) -> list[re.Match]:
    """``list(_TEAM.finditer(text))``: "from the X team", "by the X team", "the X team has",
    X a word (no spaces) before the space at each of ``team``."""
    starts = []
    for q in team:
        x = text.rfind(" ", 0, q) + 1
        if text[x - 4:x] in ("the ", "The "):      # all three have it
            starts += (x - 9, x - 7, x - 4)
    return _matches_at(_TEAM, text, starts)


def _ends_a_line(text: str, team: list[int], limit: int) -> bool:
    """Whether a "team" at one of ``team`` (its space) ends a line of ``text[:limit]``,
    blanks aside, as ``_BYLINE`` needs."""
    for q in team:
        if q + 5 > limit:
            break
        end = text.find("\n", q + 5, limit)
        rest = text[q + 5:end if end >= 0 else limit]
        if not rest or rest.isspace():
            return True
    return False


def _prefixes(seq: list, prefix: str, out: set[str], c) -> None:
    """Add to ``out`` lower-case beginnings (up to 12 characters) of what the parsed regular
    expression ``seq`` matches, such that every match begins with one of them."""
    for i, (op, av) in enumerate(seq):
        if len(prefix) >= 12 or len(out) > 200:
            break
        if op is c.LITERAL and chr(av).isascii():
            prefix += chr(av).lower()
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue                                       # zero width
        elif op is c.SUBPATTERN:
            return _prefixes(list(av[-1]) + seq[i + 1:], prefix, out, c)
        elif op is c.BRANCH:
            for alt in av[1]:
                _prefixes(list(alt) + seq[i + 1:], prefix, out, c)
            return
        elif op is c.IN and all(o is c.LITERAL and chr(a).isascii() for o, a in av):
            for _, a in av:
                _prefixes(seq[i + 1:], prefix + chr(a).lower(), out, c)
            return
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            least, most, sub = av
            if least == 0:
                _prefixes(seq[i + 1:], prefix, out, c)
            if most != 0:
                _prefixes(list(sub), prefix, out, c)       # one repetition, then stop
            return
        else:
            break
    out.add(prefix)


@lru_cache(maxsize=8)
def _engine_needles(pattern: re.Pattern) -> tuple[str, ...] | None:
    """Needles (in ``_fold`` text) one of which begins every match of the engine
    vocabulary's pattern; None when a spelling does not begin with two fixed characters."""
    try:
        from re import _constants as c
        from re import _parser
        found: set[str] = set()
        _prefixes(list(_parser.parse(pattern.pattern, pattern.flags)), "", found, c)
    except Exception:   # pragma: no cover - another Python's parser: scan the text
        return None
    needles: list[str] = []
    for s in sorted(found, key=len):
        if len(s) < 2:
            return None
        if not any(s.startswith(n) for n in needles):
            needles.append(s)
    return tuple(needles)


def _alternation(words: Iterable[str]) -> str:
    """A regular expression for any of ``words``, factored letter by letter."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if "" in node:
            return f"(?:{'|'.join(alts)})?" if alts else ""
        return alts[0] if len(alts) == 1 else f"(?:{'|'.join(alts)})"
    return emit(tree)


@lru_cache(maxsize=8)
def _engine_finder(pattern: re.Pattern) -> tuple[tuple[str, ...], re.Pattern | None] | None:
    """(needles, a scan for them) for the engine vocabulary's pattern (see ``_engine_starts``);
    the scan is None unless every match follows no word character and no "-" (as
    ``_named`` makes the pattern), then it finds the character before a needle."""
    needles = _engine_needles(pattern)
    if needles is None:
        return None
    scan = None
    if pattern.pattern.startswith(r"(?<![\w-])"):
        scan = re.compile(r"[^a-z0-9_\-](?=" + _alternation(needles) + ")")
    return needles, scan


def _engine_starts(pattern: re.Pattern, low: str) -> list[int] | None:
    """Where in the text folded to ``low`` a match of the engine vocabulary's ``pattern``
    can start (a superset); None when that cannot be worked out."""
    finder = _engine_finder(pattern)
    if finder is None:
        return None
    needles, scan = finder
    if scan is None:
        return [q for n in needles for q in _positions(low, n)]
    starts = [m.start() + 1 for m in scan.finditer(low)]
    if low.startswith(needles):
        starts.append(0)
    return starts


@lru_cache(maxsize=8)
def _engine_keys_of(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(engine_key(name) or name for name in names)


def _engine_keys() -> frozenset[str]:
    """The keys ``_systems`` can give for the vocabulary's engines."""
    pats = _engines()
    return _engine_keys_of(tuple(pats.names)) if pats is not None else frozenset()


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
