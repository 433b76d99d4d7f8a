"""A per-GPU or per-node headline judged against figures derived from MLPerf results.

An MLPerf result is per system (docs/structured.md), so a headline such as "X delivered N
tokens/s per GPU on Llama 2 70B in MLPerf" meets no primary figure: the checker compares
per-system figures with per-system claims only, and answers `unproven` with a metric
mismatch. This step runs after it, on such an `unproven` verdict only, and compares the
headline with the derived figures of ``pipeline.derived`` (the row's result divided by its
accelerators or nodes), by the checker's own rules (``Checker.compare`` and ``check`` over
a record that holds the derived figures alone):

* **supported** when a derived figure meets the headline, the explanation saying that the
  per-GPU (per-node) figure is *derived* from the per-system result, which row, and that
  it is not an official MLPerf result. The division is exact arithmetic on the row's own
  counts, so the headline's number is true of that system; what MLPerf forbids is calling
  it an MLPerf result, and the verdict says so instead of hiding the figure. A system of
  mixed accelerators never supports a per-GPU headline: its average describes none of its
  accelerators.
* **contradicted** when the headline's per-GPU (per-node) number is the *whole system's*
  figure of a row of more than one accelerator (node) that matches the headline's
  conditions: the number was read with the wrong denominator. The explanation gives the
  row and the derived figure. Also when the derived figures rule it out by the checker's
  rules (``Checker._contradicting``).
* otherwise the verdict stays `unproven`, with the closest derived figure named.

A headline whose verdict is already `supported` or `contradicted` by a primary figure, a
denied claim, or one about another MLPerf version than the row's is left as it is.

The same rule judges a figure stored in a secondary document (a blog's "N tokens/s per GPU
in MLPerf ..."): ``judge_with_derived`` is ``judge_stored`` followed by this step, for a
figure that names its subject (a figure without one is never linked to a primary figure
either). `claims check` reads the derived figures from the warehouse (``with_derived``);
the report and `claims trace` from the loaded record (``Record.derived``), `claims serve`
from the warehouse its checker reads. Every evidence figure that is a derived figure says
so in ``Evidence.derived``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.checker import (SCOPED_FAMILIES, Checker, Evidence, Query, Verdict, judge_stored,
                              names_subject, query_from_claim)
from pipeline.derived import NOT_OFFICIAL, DerivedFigure, derived_claim, load_derived
from pipeline.model import Claim
from pipeline.record import DOC_INFO_COLS, DocInfo, Record
from pipeline.store import CLAIM_COLUMNS
from pipeline.words import cite, fmt_number, scope_words

__all__ = ["with_derived", "with_derived_in", "judge_with_derived"]

DERIVED_SCOPES = ("per_gpu", "per_node")
_VERSION = re.compile(r"\bMLPerf(?:\s+Inference)?(?:\s+|-)v?(\d+(?:\.\d+)?)\b", re.I)
_MLPERF = re.compile(r"\bMLPerf\b", re.I)
_NOUN = {"per_gpu": "per-GPU", "per_node": "per-node"}


@dataclass
class _Pool:
    """The derived figures a headline may meet, with the per-system claims they were
    derived from (by id) and those claims' documents (by id)."""

    figures: list[DerivedFigure]
    sources: dict[str, Claim]
    docs: dict[str, DocInfo]
    store: object = None        # the warehouse the documents' texts are read from, if any


def _asks(q: Query, verdict: Verdict) -> bool:
    """Is this a verdict derived figures may settle: `unproven`, on a per-GPU or per-node
    throughput figure that is neither denied nor a stated change?"""
    f = q.figure
    return not (verdict.verdict != "unproven" or f is None or q.negated or q.change is not None
                or f.family not in SCOPED_FAMILIES or f.scope not in DERIVED_SCOPES)


def with_derived(q: Query, verdict: Verdict, store) -> Verdict:
    """``verdict`` (the checker's answer to ``q``), settled by derived figures where it was
    `unproven` and the headline is a per-GPU or per-node throughput figure; the figures are
    read from the warehouse ``store``."""
    if not _asks(q, verdict):
        return verdict
    f = q.figure
    figures = load_derived(store, scope=f.scope, family=f.family)
    if not figures:
        return verdict
    sources = _sources(store, figures)
    docs = _docs(store, {d.doc_id for d in figures if d.claim_id in sources})
    return _settle(q, verdict, _Pool(figures, sources, docs, store))


def with_derived_in(q: Query, verdict: Verdict, record: Record) -> Verdict:
    """``with_derived`` over the derived figures of a loaded record (``Record.derived``: a
    full load), for the report's and trace's checks, which judge against a loaded record."""
    if not _asks(q, verdict):
        return verdict
    f = q.figure
    figures = [d for ds in record.derived.values() for d in ds
               if d.scope == f.scope and d.family == f.family]
    sources = {d.claim_id: record.claims[d.claim_id] for d in figures
               if d.claim_id in record.claims}
    docs = {c.doc_id: record.docs[c.doc_id] for c in sources.values() if c.doc_id in record.docs}
    return _settle(q, verdict, _Pool(figures, sources, docs, record.store))


def judge_with_derived(checker, c: Claim) -> Verdict:
    """The verdict on a stored figure outside primary documents: ``judge_stored``, then the
    derived figures for a per-GPU or per-node figure it leaves `unproven` and that names its
    subject. ``checker`` is a ``Checker`` over a loaded record (the figures are the
    record's) or one that checks over the warehouse and holds it as ``store`` (`claims
    serve`: read from there)."""
    v = judge_stored(checker, c)
    q = v.query if v.query is not None else \
        query_from_claim(c, "".join(checker.record.quote(c)))
    if q.figure is None or not names_subject(q.figure) or not _asks(q, v):
        return v
    store = getattr(checker, "store", None)
    if store is not None:
        return with_derived(q, v, store)
    return with_derived_in(q, v, checker.record)


def _settle(q: Query, verdict: Verdict, pool: _Pool) -> Verdict:
    """The verdict on ``q`` given the derived figures of ``pool`` (see the module's doc)."""
    figures = pool.figures
    version = _version(q.text)
    if version is not None:
        figures = [d for d in figures if _version(f"MLPerf {d.version or ''}") in (None, version)]
    figures = [d for d in figures if d.claim_id in pool.sources]
    if not figures:
        return verdict
    docs, sources = pool.docs, pool.sources
    ours = [d for d in figures if not d.mixed]
    whole = _DerivedRecord(docs, sources, figures, pool.store)
    judged = _DerivedRecord(docs, sources, ours, pool.store)
    dv = Checker(judged).check(q) if ours else None
    if dv is not None and dv.verdict == "supported":
        return _supported(q, dv, judged)
    wrong = _whole_system(q, whole)
    if wrong is not None:
        return _wrong_denominator(q, verdict, wrong, whole)
    if dv is not None and dv.verdict == "contradicted":
        return _contradicted(q, dv, judged)
    return _note_closest(q, verdict, whole)


# --- reading the warehouse -------------------------------------------------------------

def _version(text: str) -> str | None:
    """'MLPerf Inference v5.1' -> '5.1' (None when the text names no version)."""
    m = _VERSION.search(text or "")
    return m.group(1) if m else None


def _sources(store, figures: list[DerivedFigure]) -> dict[str, Claim]:
    """The per-system claims the figures were derived from, by id."""
    cols = ", ".join(f'"{c}"' for c in CLAIM_COLUMNS)
    _, rows = store.query(f"SELECT {cols} FROM claims WHERE list_contains(?, id)",
                          [sorted({d.claim_id for d in figures})])
    out = {}
    for r in rows:
        c = Claim(**dict(zip(CLAIM_COLUMNS, r)))
        c.findings = list(c.findings or [])
        out[c.id] = c
    return out


def _docs(store, ids: set[str]) -> dict[str, DocInfo]:
    """The result files' documents; only those whose role is `primary` hold evidence."""
    _, rows = store.query(f"SELECT {DOC_INFO_COLS} FROM documents WHERE list_contains(?, id)",
                          [sorted(ids)])
    return {d.id: d for d in map(DocInfo.from_row, rows)}


class _DerivedRecord(Record):
    """A record holding the derived figures alone, each as its source claim divided
    (``derived_claim``), with the result files' documents; ``figure`` maps a claim id back
    to its derived figure."""

    def __init__(self, docs: dict[str, DocInfo], sources: dict[str, Claim],
                 figures: list[DerivedFigure], store=None) -> None:
        # the warehouse, where there is one, gives the result files' texts: a headline's
        # node count or division is read from the row's own column (Checker.setup_of)
        super().__init__(docs=docs, store=store)
        self.figure: dict[str, DerivedFigure] = {}
        self.source: dict[str, Claim] = {}
        for d in figures:
            src = sources[d.claim_id]
            self.claims[d.claim_id] = derived_claim(src, d)
            self.figure[d.claim_id] = d
            self.source[d.claim_id] = src


# --- the verdicts ----------------------------------------------------------------------

def _row(d: DerivedFigure) -> str:
    """'MLPerf Inference v5.1 result 5.1-0008 (closed, llama2-70b-99, Offline)'."""
    head = f"MLPerf Inference {d.version} result {d.result_id}" if d.version \
        else f"MLPerf result {d.result_id}"
    inside = ", ".join(x for x in (d.division, d.benchmark, d.scenario) if x)
    return f"{head} ({inside})" if inside else head


def _system(d: DerivedFigure) -> str:
    """'52,061.6 tokens/s per system on 4 x GB200'."""
    on = f" on {d.hardware}" if d.hardware else ""
    count = ""
    if d.mixed and d.accelerators:
        count = f" ({d.accelerators} accelerators of more than one kind)"
    return f"{d.division_text.split(' / ')[0]} {d.unit} per system{on}{count}"


def _mark(ev: list[Evidence], rec: _DerivedRecord, relation: str | None = None) -> list[Evidence]:
    """Evidence figures of the derived record, each saying it is derived and from what."""
    out = []
    for e in ev:
        d = rec.figure.get(e.id)
        if d is None:
            continue
        out.append(replace(e, relation=relation or e.relation, value=d.value, scope=d.scope,
                           derived=d.text()))
    return out


def _supported(q: Query, dv: Verdict, rec: _DerivedRecord) -> Verdict:
    first = next(rec.figure[e.id] for e in dv.evidence if e.relation == "supports")
    noun = _NOUN[first.scope]
    n = sum(e.relation == "supports" for e in dv.evidence)
    more = f" ({n - 1} more derived figure{'s' if n > 2 else ''} agree)" if n > 1 else ""
    text = (f"Supported by a derived figure, {NOT_OFFICIAL}: {_row(first)} is "
            f"{_system(first)}; divided by its {first.divisor} {first.divided_by} that is "
            f"{fmt_number(round(first.value, 1))} {first.unit} {scope_words(first.scope)} "
            f"(derived: {first.division_text}), which meets {q.reading()}{more}. MLPerf "
            f"publishes results per system only: the {noun} figure is derived from the "
            f"per-system result, never an MLPerf result itself.")
    return Verdict("supported", text, _mark(dv.evidence, rec), q)


def _contradicted(q: Query, dv: Verdict, rec: _DerivedRecord) -> Verdict:
    first = next(rec.figure[e.id] for e in dv.evidence if e.relation == "contradicts")
    noun = _NOUN[first.scope]
    text = (f"Contradicted by a derived figure ({NOT_OFFICIAL}): {_row(first)} is "
            f"{_system(first)}, {fmt_number(round(first.value, 1))} {first.unit} "
            f"{scope_words(first.scope)} (derived: {first.division_text}), which rules out "
            f"{q.reading()}. MLPerf publishes results per system only: the {noun} figure is "
            f"derived from the per-system result.")
    return Verdict("contradicted", text, _mark(dv.evidence, rec), q)


def _whole_system(q: Query, rec: _DerivedRecord) -> tuple[DerivedFigure, Claim] | None:
    """A row whose *per-system* figure is the headline's per-GPU (per-node) number, on a
    system of more than one accelerator (node), under every condition the headline states.
    Only for a point headline ("N", "about N", "up to N": a number, not a floor or a
    ceiling that any larger or smaller figure meets) that names its subject and points at
    the MLPerf record (names MLPerf, the hardware, or a company the row names)."""
    f = q.figure
    assert f is not None
    if not names_subject(f) or ((f.comparator or "=") not in ("=", "~") and not q.peak):
        return None
    if not (_MLPERF.search(q.text) or f.hardware or f.accelerator or q.subject_text):
        return None
    checker = Checker(rec)
    hits = []
    for cid, d in rec.figure.items():
        if d.divisor <= 1:
            continue
        as_system = replace(rec.source[cid], scope=f.scope)
        c = checker.compare(q, as_system)
        if c.exact and c.meets and not checker.compare(q, rec.claims[cid]).meets:
            hits.append((d, rec.source[cid]))
    if not hits:
        return None
    return min(hits, key=lambda t: abs(t[0].system_value - f.value))


def _wrong_denominator(q: Query, verdict: Verdict, hit: tuple[DerivedFigure, Claim],
                       rec: _DerivedRecord) -> Verdict:
    d, src = hit
    noun = _NOUN[d.scope]
    text = (f"The claim's number is a whole system's figure, not a {noun} one: {_row(d)} is "
            f"{_system(d)}. Per {'GPU' if d.scope == 'per_gpu' else 'node'} that is "
            f"{fmt_number(round(d.value, 1))} {d.unit} (derived: {d.division_text}; "
            f"{NOT_OFFICIAL}), which rules out {q.reading()}. MLPerf publishes results per "
            f"system only: a {noun} figure is only ever derived from the per-system result.")
    e = Evidence(src.id, d.path, src.page, src.surface, src.value, src.unit, src.scope,
                 "contradicts", src.start, src.end, cite(rec.doc(src), src.page),
                 f"the whole system's figure ({d.divisor} {d.divided_by}), read as "
                 f"{scope_words(d.scope)}; {d.text()}")
    return Verdict("contradicted", text, [e, *(x for x in verdict.evidence if x.id != src.id)], q)


def _note_closest(q: Query, verdict: Verdict, rec: _DerivedRecord) -> Verdict:
    """The verdict stays `unproven`; it names the closest derived figure on the headline's
    conditions, so the reader sees what the division gives."""
    f = q.figure
    assert f is not None
    checker = Checker(rec)
    pool = [cid for cid in rec.figure if checker.compare(q, rec.claims[cid]).exact]
    if not pool:
        return verdict
    cid = min(pool, key=lambda i: abs(rec.figure[i].value - f.value))
    d = rec.figure[cid]
    meets = checker.compare(q, rec.claims[cid]).meets
    tail = ("an average over mixed accelerators, which describes none of them: it supports "
            "no per-GPU claim" if d.mixed and meets else "which does not meet it either")
    verdict.explanation += (f" The closest {_NOUN[d.scope]} figure derived from an MLPerf "
                            f"result on these conditions is {fmt_number(round(d.value, 1))} "
                            f"{d.unit} {scope_words(d.scope)} (derived: {d.division_text}, "
                            f"{_row(d)}; {NOT_OFFICIAL}), {tail}.")
    src = rec.source[cid]
    verdict.evidence.append(Evidence(src.id, d.path, src.page, src.surface, d.value, src.unit,
                                     d.scope, "context", src.start, src.end,
                                     cite(rec.doc(src), src.page), derived=d.text()))
    return verdict
