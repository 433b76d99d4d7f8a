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

Each cue is one entry of ``pipeline/vocab/role_cues.toml`` (its pattern, where its matches
can be, how it counts); one matcher (``_Cues.matches``) finds a cue's matches and one
scoring function (``_score``) sums them, with the whole-text scan as the reference the fast
way is tested against.

Attribution needs a name: "according to matched prefix length", "the model says" or "we've
made grand claims" are not sources. The result carries its source so ``claims ingest`` can
print inferred roles for a user to correct in sources.csv.
"""
from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from pipeline.model import Claim
from pipeline.vocab.scan import (WordScan, alternation, fold as _fold, matches_at, matches_near,
                                 needles, positions)

from .keys import engine_key, norm
from .records import DocMeta

VALID = ("primary", "secondary")

_BYLINE = re.compile(r"^\s*(?:[Bb]y )?(?:[Tt]he )?([\w.\-]+(?: [\w.\-]+)?) [Tt]eam\s*$", re.M)
_WE_ARE = re.compile(r"\bwe(?:'re| are) (?:a |the )?(?:[\w\-]+ ){0,3}team (?:@|at |from |of )@?"
                     r"([\w.\-]+)", re.I)
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_EMAIL_ORG = re.compile(r"@([\w\-]+)\.")
_GENERIC_ORG = frozenset({
    "the", "and", "team", "teams", "guest", "post", "by", "inc", "llc", "ltd", "lab", "labs",
    "blog", "ai", "llm", "llms", "org", "com", "research", "group", "project", "community",
    "of", "a", "an", "for", "with", "on", "in", "at", "&"})



# Characters of a ``_fold`` text that stand only for word characters, "/" and "-" (which a
# "narrative" cue's needle and an engine's name must not follow).
_WORDISH = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_/-")


@dataclass(frozen=True)
class Cue:
    """One entry of role_cues.toml: a pattern, how it counts and where its matches can be
    (the file's header says what each field means)."""

    name: str
    score: str                              # primary | secondary | narrative
    pattern: re.Pattern
    needles: tuple[str, ...]
    offsets: tuple[int, ...] = ()
    word_offsets: tuple[int, ...] = ()
    near: tuple[int, int, int] | None = None   # (offset, reach, back)
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    word_before: tuple[str, ...] = ()
    not_after_word: bool = False
    counts: str = "each"                    # each | named_other | other_team
    weight: float = 1.0


_SCORES = ("primary", "secondary", "narrative")
_COUNTS = ("each", "named_other", "other_team")


def _cue(entry: dict, parts: dict[str, str]) -> Cue:
    """A ``Cue`` from its TOML table; a mistake in the file is an error naming the cue."""
    name = entry.get("name", "?")
    source = entry["pattern"]
    for key, value in parts.items():
        source = source.replace("{" + key + "}", value)
    near = entry.get("near")
    cue = Cue(name=name, score=entry["score"],
              pattern=re.compile(source, re.I if entry.get("ignorecase") else 0),
              needles=tuple(entry["needles"]), offsets=tuple(entry.get("offsets", ())),
              word_offsets=tuple(entry.get("word_offsets", ())),
              near=(near["offset"], near["reach"], near["back"]) if near else None,
              before=tuple(entry.get("before", ())), after=tuple(entry.get("after", ())),
              word_before=tuple(entry.get("word_before", ())),
              not_after_word=bool(entry.get("not_after_word")),
              counts=entry.get("counts", "each"), weight=float(entry.get("weight", 1.0)))
    ways = bool(cue.offsets) + bool(cue.word_offsets) + (cue.near is not None)
    if cue.score not in _SCORES or cue.counts not in _COUNTS or ways != 1 or not cue.needles:
        raise ValueError(f"role_cues.toml: cue {name!r} needs a score ({_SCORES}), needles "
                         f"and one of offsets, word_offsets or near; counts in {_COUNTS}")
    return cue


@dataclass(frozen=True)
class _Cues:
    """The cue table, the one scan that finds every needle after a space, and the matcher."""

    cues: tuple[Cue, ...]
    words: WordScan

    def of(self, score: str) -> list[Cue]:
        return [c for c in self.cues if c.score == score]

    def matches(self, cue: Cue, text: str, low: str | None, spaced: dict[str, list[int]],
                needle: str | None = None) -> list[re.Match]:
        """``list(cue.pattern.finditer(text))``, the pattern tried only where the cue's
        needles (or the one ``needle``) say a match can be; every position when ``low``
        (``_fold(text)``) is None."""
        if low is None:
            return list(cue.pattern.finditer(text))
        qs: list[int] = []
        for n in (cue.needles if needle is None else (needle,)):
            qs += spaced[n] if n.startswith(" ") else positions(low, n)
        if cue.before:
            qs = [q for q in qs if low.endswith(cue.before, 0, q)]
        if cue.after:
            qs = [q for q in qs if any(low.startswith(a, q + len(n)) for a in cue.after
                                       for n in cue.needles if low.startswith(n, q))]
        if cue.not_after_word:
            qs = [q for q in qs if not q or low[q - 1] not in _WORDISH]
        if cue.near is not None:
            offset, reach, back = cue.near

            def start(t: str, a: int) -> int:
                return t.rfind(" ", 0, max(0, a - back)) + 1
            return matches_near(cue.pattern, text, sorted(q - offset for q in qs), reach, start)
        if cue.word_offsets:
            starts = []
            for q in qs:
                x = text.rfind(" ", 0, q) + 1
                if not cue.word_before or low.endswith(cue.word_before, 0, x):
                    starts += (x - k for k in cue.word_offsets)
            return matches_at(cue.pattern, text, starts)
        return matches_at(cue.pattern, text, [q - k for q in qs for k in cue.offsets])


@lru_cache(maxsize=1)
def cue_table() -> _Cues:
    """role_cues.toml, compiled once per process (the ingest compiles it before forking
    its workers)."""
    raw = tomllib.loads(resources.files("pipeline.vocab").joinpath("role_cues.toml")
                        .read_text("utf-8"))
    cues = tuple(_cue(e, raw.get("parts", {})) for e in raw["cue"])
    return _Cues(cues, WordScan(n for c in cues for n in c.needles if n.startswith(" ")))


def _counted(cue: Cue, found: Iterable[re.Match], own: set[str], title_words: set[str]) -> float:
    """What a cue's matches weigh (its ``counts`` rule)."""
    if cue.counts == "each":
        return cue.weight * len(list(found))
    n = 0
    for m in found:
        who = next((g for g in m.groups() if g), "")
        if cue.counts == "named_other":
            words = _words(who)
            n += bool(words) and not words <= (own | title_words)   # not the author's result
        else:
            n += bool(who) and who.lower() not in own     # reporting on another team's work
    return cue.weight * n


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
        we_are = matches_at(_WE_ARE, head, positions(low, "we're", 5000)
                            + positions(low, "we are", 5000))
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
        found = matches_at(pats.pattern, text, starts)
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
    return _score(text, _fold(text), claims, meta)


def _evidence_scan(text: str, claims: Iterable[Claim] = (),
                   meta: DocMeta | None = None) -> tuple[float, float]:
    """``evidence`` of a cleaned text with every pattern run over all of it: the reference
    the fast way is tested against (and what a text ``_fold`` cannot lower-case gets)."""
    return _score(text, None, claims, meta)


def _score(text: str, low: str | None, claims: Iterable[Claim],
           meta: DocMeta | None) -> tuple[float, float]:
    """The one scoring function: the cues' matches (found where their needles are in
    ``low``, or by scanning all of ``text`` when ``low`` is None) and the claims."""
    table = cue_table()
    claims = list(claims)
    title = (meta.title if meta is not None else None) or text[:300]
    opening = title + " " + text[:300]
    spaced = table.words.find(low) if low is not None else {}
    team = spaced.get(" team")
    byline = team is None or _ends_a_line(text, team, 3000)
    own = _own_names(meta, text, byline, low)
    title_words = _words(title)

    first = sum(_counted(c, table.matches(c, text, low, spaced), own, title_words)
                for c in table.of("primary"))
    prim = float(first)
    for cue in table.of("narrative"):
        # any other first person ("we believed", "our lab introduced"): narrative, little
        # weight, none past 10 more than the primary cues (so no need to count further)
        if low is None:
            loose = len(table.matches(cue, text, low, spaced))
        else:
            loose = 0
            for n in cue.needles:
                if loose < first + 10:
                    loose += len(table.matches(cue, text, low, spaced, n))
        prim += min(1.0, max(0.0, loose - first) * 0.1)
    tabled = sum(1 for c in claims if c.in_table)
    if tabled >= 3:                       # a benchmark table of its own runs
        prim += min(3.0, tabled / 3)
    named = set(_systems(opening, _fold(opening) if low is not None else None))
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

    sec = sum(_counted(c, table.matches(c, text, low, spaced), own, title_words)
              for c in table.of("secondary"))
    sec += sum(1 for c in claims if c.stance == "reported" or c.asserted_by)
    if len(named) >= 3:
        sec += 1.0                        # a round-up of several systems
    return prim, float(sec)


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



@lru_cache(maxsize=8)
def _engine_finder(pattern: re.Pattern) -> tuple[tuple[str, ...], re.Pattern | None] | None:
    """(needles, a scan for them) for the engine vocabulary's pattern (see ``_engine_starts``);
    the scan is None unless every match follows no word character and no "-" (as
    ``_named`` makes the pattern), then it finds the character before a needle."""
    found = needles(pattern)
    if found is None:
        return None
    scan = None
    if pattern.pattern.startswith(r"(?<![\w-])"):
        scan = re.compile(r"[^a-z0-9_\-](?=" + alternation(dict.fromkeys(found, "")) + ")")
    return found, scan


def _engine_starts(pattern: re.Pattern, low: str) -> list[int] | None:
    """Where in the text folded to ``low`` a match of the engine vocabulary's ``pattern``
    can start (a superset); None when that cannot be worked out."""
    finder = _engine_finder(pattern)
    if finder is None:
        return None
    found, scan = finder
    if scan is None:
        return [q for n in found for q in positions(low, n)]
    starts = [m.start() + 1 for m in scan.finditer(low)]
    if low.startswith(found):
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
