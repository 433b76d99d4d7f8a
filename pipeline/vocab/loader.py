"""Load the vocabulary data files and compile them into matchers, once per process.

Vocabularies are data, not code: the TOML files beside this module ship with the package,
and a user extends them by pointing ``CLAIMS_VOCAB`` at a folder of TOML files with the same
names; their entries are merged over the shipped ones (lists of units are appended, tables
of names are updated). Everything is compiled once and cached, so worker processes pay the
cost a single time.
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pipeline.vocab.scan import Caseless, first_chars, lookahead


FILES = ("units", "hardware", "models", "engines", "conditions", "scopes")


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, list) and isinstance(base.get(key), list):
            base[key] = base[key] + value
        elif isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = _merge(dict(base[key]), value)
        else:
            base[key] = value
    return base


def load_raw(name: str, extra_dir: str | None = None) -> dict[str, Any]:
    """One vocabulary file as a dict: the shipped one, with the user's folder merged over it."""
    data = tomllib.loads(resources.files("pipeline.vocab").joinpath(f"{name}.toml").read_text("utf-8"))
    extra_dir = extra_dir if extra_dir is not None else os.environ.get("CLAIMS_VOCAB")
    if extra_dir:
        path = Path(extra_dir) / f"{name}.toml"
        if path.is_file():
            data = _merge(data, tomllib.loads(path.read_text("utf-8")))
    return data


@dataclass(frozen=True)
class UnitEntry:
    unit: str
    family: str
    factor: float = 1.0
    scope: str | None = None
    token_kind: str | None = None
    phase: str | None = None
    per_basis: str | None = None


@dataclass
class NamedPatterns:
    """Canonical name -> one compiled alternation; ``find`` returns (start, end, name) hits."""

    pattern: re.Pattern[str]
    names: list[str]
    spellings: dict[str, list[str]] = field(default_factory=dict)

    caseless: Caseless | None = None

    def __post_init__(self) -> None:
        self.caseless = Caseless(self.pattern)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None, lower: str | None = None):
        """(start, end, name) of each hit; ``lower``, a lower-cased copy of ``text`` (see
        ``caseless``), makes a case-blind scan cheaper and changes nothing else."""
        for m in self.caseless.finditer(text, lower, pos, endpos):
            yield m.start(), m.end(), self.names[m.lastindex - 1] if m.lastindex else ""

    def first(self, text: str, lower: str | None = None) -> str | None:
        m = self.caseless.search(text, lower)
        return self.names[m.lastindex - 1] if m else None


# counts spelled out before an accelerator joined by a hyphen ("eight-B200")
# (read by this pattern and by the name scan in extract/masks.py)
COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "twelve", "sixteen")


def _named(table: dict[str, list[str]], word: bool = True, flags: int = re.I,
           counted: bool = False) -> NamedPatterns:
    names: list[str] = []
    groups: list[str] = []
    # Longest spellings first so "Dynamo SGLang" beats "SGLang".
    items = sorted(
        ((name, pat) for name, pats in table.items() for pat in pats), key=lambda x: -len(x[1])
    )
    for name, pat in items:
        names.append(name)
        groups.append(f"({pat})")
    body = "|".join(groups) or "(?!)"
    lead = lookahead(body, flags)
    if word:
        # a name starts a word; "-" before it only after a count ("8-B200", "eight-H100")
        words = ("\\d",) + COUNT_WORDS + tuple(w.capitalize() for w in COUNT_WORDS)
        after_count = "".join(f"|(?<={w}-)" for w in words) if counted else ""
        body = rf"(?:(?<![\w-]){after_count}){lead}(?:{body})(?![\w])"
    else:
        body = rf"{lead}(?:{body})"
    return NamedPatterns(re.compile(body, flags), names, {k: list(v) for k, v in table.items()})


@dataclass
class Vocab:
    units: list[tuple[re.Pattern[str], UnitEntry]]
    unit_pattern: re.Pattern[str]
    unit_entries: list[UnitEntry]
    accelerators: NamedPatterns
    systems: list[tuple[re.Pattern[str], str, int]]
    hardware_families: dict[str, list[str]]    # "Blackwell" -> its parts
    model_families: list[str]
    model_variants: list[str]
    model_aliases: dict[str, str]           # lower-case spelling -> canonical
    model_params: dict[str, float]
    engines: NamedPatterns
    dtypes: NamedPatterns
    techniques: NamedPatterns
    statistics: NamedPatterns
    phases: NamedPatterns
    workloads: NamedPatterns
    tasks: NamedPatterns
    links: NamedPatterns
    setups: NamedPatterns
    backends: NamedPatterns
    price_basis: NamedPatterns
    scope_suffix: list[tuple[re.Pattern[str], str]]
    scope_context: NamedPatterns
    extra: dict[str, Any] = field(default_factory=dict)
    # first character -> (the alternation of the units that can start with it, their
    # entries); "" -> the units that can start with anything
    unit_index: dict[str, tuple[re.Pattern[str], list[UnitEntry]]] = field(default_factory=dict)

    def match_unit(self, text: str, start: int, limit: int) -> tuple[re.Match[str], UnitEntry] | None:
        """The unit at ``text[start:]`` and its entry: what ``unit_pattern`` matches there,
        trying only the units that can start with the character at ``start``."""
        pattern, entries = self.unit_index.get(text[start:start + 1]) or self.unit_index[""]
        m = pattern.match(text, start, limit)
        return (m, entries[m.lastindex - 1]) if m else None

    def canonical_model(self, name: str) -> str:
        key = re.sub(r"[\s_\-]+", " ", name.strip().lower())
        canon = self.model_aliases.get(key)
        if canon is None:
            # "llama-v2-70b" (llmperf's model ids) is "Llama 2 70B": a "v" before the
            # version number is a spelling, tried only where the plain key is unknown
            canon = self.model_aliases.get(re.sub(r"\bv(?=\d)", "", key))
        return canon or name.strip()


def _unit_index(groups: list[str], entries: list[UnitEntry]) -> dict[str, tuple[re.Pattern[str], list[UnitEntry]]]:
    """Per first character, the alternation of just the units that can start with it, in
    the order of the full alternation (so the same unit wins)."""
    starts = [first_chars(g) for g in groups]
    chars = sorted(set().union(*(s for s in starts if s is not None)))
    index = {}
    for key in [""] + chars:
        keep = [i for i, s in enumerate(starts) if s is None or key in s]
        index[key] = (re.compile("|".join(f"({groups[i]})" for i in keep) or "(?!)"),
                      [entries[i] for i in keep])
    return index


@lru_cache(maxsize=4)
def load(extra_dir: str | None = None) -> Vocab:
    """The compiled vocabulary (cached: call freely)."""
    raw = {n: load_raw(n, extra_dir) for n in FILES}

    units = []
    groups = []
    entries = []
    for i, u in enumerate(sorted(raw["units"]["unit"], key=lambda u: -len(u["pattern"]))):
        flags = 0 if u.get("case") else re.I
        entry = UnitEntry(
            unit=u["unit"], family=u["family"], factor=float(u.get("factor", 1.0)),
            scope=u.get("scope"), token_kind=u.get("token_kind"), phase=u.get("phase"),
            per_basis=u.get("per_basis"),
        )
        units.append((re.compile(u["pattern"], flags), entry))
        entries.append(entry)
        groups.append(f"(?{'i' if flags else '-i'}:{u['pattern']})")
    # One alternation with a group per entry; the regex engine tries them in order, and the
    # order is longest-pattern-first, a cheap stand-in for "longest match wins".
    unit_pattern = re.compile("|".join(f"({g})" for g in groups))
    unit_index = _unit_index(groups, entries)

    hw = raw["hardware"]
    systems = []
    for s in hw.get("system", []):
        systems.append((re.compile(rf"(?<![\w-]){s['pattern']}(?![\w])", re.I), s["accelerator"], int(s["count"])))

    models = raw["models"]
    aliases: dict[str, str] = {}
    for canon, spellings in models.get("aliases", {}).items():
        for sp in [canon, *spellings]:
            aliases[re.sub(r"[\s_\-]+", " ", sp.lower())] = canon

    cond = raw["conditions"]
    scopes = raw["scopes"]
    suffix = []
    for scope, pats in scopes.get("suffix", {}).items():
        for p in pats:
            suffix.append((re.compile(p, re.I), scope))
    return Vocab(
        units=units,
        unit_pattern=unit_pattern,
        unit_index=unit_index,
        unit_entries=entries,
        accelerators=_named({k: [p + "s?" for p in v] for k, v in hw.get("accelerators", {}).items()}, flags=0,
                            counted=True),
        systems=systems,
        hardware_families={k: list(v) for k, v in hw.get("families", {}).items()},
        model_families=list(models.get("families", [])),
        model_variants=list(models.get("variant_words", [])),
        model_aliases=aliases,
        model_params={k: float(v) for k, v in models.get("params", {}).items()},
        engines=_named(raw["engines"].get("engines", {})),
        backends=_named(raw["engines"].get("backends", {})),
        dtypes=_named(cond.get("dtypes", {})),
        techniques=_named(cond.get("techniques", {})),
        statistics=_named(cond.get("statistics", {})),
        phases=_named(cond.get("phases", {})),
        workloads=_named(cond.get("workloads", {})),
        tasks=_named(cond.get("tasks", {})),
        links=_named(cond.get("links", {})),
        setups=_named(cond.get("setups", {})),
        price_basis=_named(cond.get("price_basis", {})),
        scope_suffix=suffix,
        scope_context=_named(scopes.get("context", {})),
    )
