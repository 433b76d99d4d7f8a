"""The record as report, trace and check read it: documents, claims, links, clusters.

Everything comes from the warehouse through read-only queries. When the database holds
claims but no links yet (an ingest that did not link), the link stage is run in memory
over what was read, so a report is never silently empty; ``linked_in_memory`` says so.

Every figure keeps what it needs to be found again: document path, character span
(``start``/``end`` into ``documents.text``) and page.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field, fields
from typing import Iterable

from pipeline.citation import Citations
from pipeline.derived import DerivedFigure, by_claim, load_derived
from pipeline.gcpause import paused
from pipeline.link.facts import FACT_COLUMNS, ClaimFacts, facts_of
from pipeline.model import INERT_STANCES, Claim, Link
from pipeline.store import CLAIM_COLUMNS, DOCUMENT_COLUMNS, Store

# what a document relays of another party's claim ("the DeepSpeed team ... claiming 2x") is
# that party's claim, not the document's measurement: never evidence for a verdict
UNCHECKED_STANCES = INERT_STANCES | {"reported"}
ROLE_ORDER = {"primary": 0, "unknown": 1, "secondary": 2}


@dataclass
class DocInfo:
    """One document's metadata (and text when loaded)."""

    id: str
    path: str
    format: str = "text"
    title: str | None = None
    publisher: str | None = None
    url: str | None = None
    published: str | None = None
    author: str | None = None
    role: str = "unknown"
    role_source: str | None = None
    text: str | None = None

    @property
    def name(self) -> str:
        """How the report names a source: publisher and title, else the path."""
        if self.publisher and self.title:
            return f"{self.publisher}: {self.title}"
        return self.publisher or self.title or self.path

    @property
    def short(self) -> str:
        return self.publisher or self.title or self.path

    def order_key(self) -> tuple:
        """Publication order: dated documents first, oldest first; primary wins a tie."""
        return (self.published is None, self.published or "", ROLE_ORDER.get(self.role, 1),
                self.path)

    @classmethod
    def from_row(cls, row, text: str | None = None) -> "DocInfo":
        """A document from a row of ``SELECT {DOC_INFO_COLS}`` (its date as 'YYYY-MM-DD')."""
        d = cls(**dict(zip(DOC_INFO_COLUMNS, row)), text=text)
        d.published = _date(d.published)
        return d


# the documents' columns DocInfo holds (its text is read only where asked for), named by
# the store's own list so the two cannot drift apart
DOC_INFO_COLUMNS = [c for c in DOCUMENT_COLUMNS if c in {f.name for f in fields(DocInfo)} - {"text"}]
DOC_INFO_COLS = ", ".join(DOC_INFO_COLUMNS)


def _date(v) -> str | None:
    if v is None:
        return None
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()[:10]
    return str(v)[:10]


def _q(name: str) -> str:
    return '"' + name + '"'


@dataclass
class Record:
    """What the warehouse holds, as plain records, with a few lookups."""

    docs: dict[str, DocInfo] = field(default_factory=dict)
    claims: dict[str, Claim] = field(default_factory=dict)
    links: list[Link] = field(default_factory=list)
    clusters: dict[str, str] = field(default_factory=dict)      # claim id -> cluster id
    findings: dict[str, list[str]] = field(default_factory=dict)
    linked_in_memory: bool = False
    db_path: str = ""
    citations: Citations | None = None    # how figures of result files are cited
    # the open warehouse, kept so a lookup that needs a document's text (``lead_in``) can
    # read just that document when the record was loaded without texts
    store: Store | None = field(default=None, repr=False, compare=False)
    content_key: str | None = None    # what the warehouse held (pipeline.judged), full loads only
    # claim id -> per-GPU / per-node figures derived from its MLPerf row (pipeline.derived),
    # full loads only: shown beside the row's figure, never a claim of the record
    derived: dict[str, list[DerivedFigure]] = field(default_factory=dict)
    _leads: dict[str, tuple[str, int]] = field(default_factory=dict, repr=False, compare=False)
    # claim id -> the facts stored with it (link.facts), for the claims read from the
    # warehouse; ``facts_of`` reads them
    stored_facts: dict[str, ClaimFacts] = field(default_factory=dict, repr=False, compare=False)

    # --- loading -----------------------------------------------------------------------
    @classmethod
    def load(cls, store: Store, families: Iterable[str] | None = None,
             with_links: bool = True, with_text: bool = True) -> "Record":
        """Read the warehouse. ``families`` limits the claims read (check reads few)."""
        with paused():        # tens of thousands of objects, no cycles (pipeline/gcpause.py)
            return cls._load(store, families, with_links, with_text)

    @classmethod
    def _load(cls, store: Store, families: Iterable[str] | None,
              with_links: bool, with_text: bool) -> "Record":
        rec = cls(db_path=str(store.path), store=store)
        if families is None and with_links:
            # read on the connection the record is loaded from, before it: the verdicts
            # kept under this key are verdicts on exactly these rows
            from pipeline.fingerprint import content_key
            rec.content_key = content_key(store.con)
        cols = ", ".join(_q(c) for c in CLAIM_COLUMNS + FACT_COLUMNS)
        sql = f"SELECT {cols} FROM claims"
        params: list = []
        if families is not None:
            sql += " WHERE list_contains(?, family)"
            params.append(sorted(set(families)))
        _, rows = store.query(sql + ' ORDER BY doc_id, start, "end", id', params)
        for r in rows:
            rec.add_row(r)
        doc_cols = DOC_INFO_COLS + (", text" if with_text else "")
        _, drows = store.query(f"SELECT {doc_cols} FROM documents ORDER BY path, id")
        n = len(DOC_INFO_COLUMNS)
        for r in drows:
            d = DocInfo.from_row(r[:n], text=r[n] if with_text else None)
            rec.docs[d.id] = d
        rec.findings = {c.id: list(c.findings) for c in rec.claims.values() if c.findings}
        rec.citations = Citations.load(store)
        if families is None:
            rec.derived = by_claim(load_derived(store))
        if with_links:
            _, lrows = store.query(
                "SELECT src, dst, relation, consistent, detail, computed, other FROM links"
                " ORDER BY relation, src, dst")
            rec.links = [Link(*r) for r in lrows]
            _, krows = store.query("SELECT cluster_id, claim_id FROM clusters")
            rec.clusters = {k: c for c, k in krows}
            if not rec.links and rec.claims and families is None:
                rec._link_in_memory()
        rec._infer_missing_roles(store, all_claims=families is None)
        return rec

    def _infer_missing_roles(self, store: Store, all_claims: bool) -> None:
        """Documents stored before roles were inferred: infer them the link stage's way."""
        todo = [d for d in self.docs.values() if d.role == "unknown" and d.role_source is None]
        if not todo:
            return
        from pipeline.link import DocMeta
        from pipeline.link.roles import resolve_role

        by_doc: dict[str, list[Claim]] = defaultdict(list)
        if all_claims:
            for c in self.claims.values():
                by_doc[c.doc_id].append(c)
        for d in todo:
            claims = by_doc.get(d.id, [])
            if not all_claims:
                _, rows = store.query(
                    "SELECT stance, asserted_by, in_table FROM claims WHERE doc_id = ?", [d.id])
                claims = [Claim(id="", doc_id=d.id, start=0, end=0, surface="", value=0.0,
                                family="", unit="", stance=s or "asserted", asserted_by=a,
                                in_table=bool(t)) for s, a, t in rows]
            text = d.text
            if text is None:
                _, rows = store.query("SELECT text FROM documents WHERE id = ?", [d.id])
                text = rows[0][0] if rows else ""
            # the one resolver of a role (link.roles.resolve_role); these documents have none
            d.role, d.role_source = resolve_role(
                DocMeta.of(d, role="unknown", role_source=None, text=text), claims)

    def _link_in_memory(self) -> None:
        from pipeline.link import DocMeta, link

        claims = list(self.claims.values())
        metas = {d.id: DocMeta.of(d) for d in self.docs.values()}
        result = link(claims, metas)
        self.links = result.links
        self.clusters = dict(result.clusters)
        self.findings = {k: list(v) for k, v in result.findings.items()}
        for doc_id, (role, source) in result.roles.items():
            d = self.docs.get(doc_id)
            if d is not None and d.role_source is None:
                d.role, d.role_source = role, source
        self.linked_in_memory = True

    def add_row(self, row: tuple) -> Claim:
        """A row of ``CLAIM_COLUMNS + FACT_COLUMNS`` as a claim of the record, its facts kept."""
        n = len(CLAIM_COLUMNS)
        # (CLAIM_COLUMNS are Claim's fields in their order: positional, no dict per row)
        c = Claim(*row[:n])
        c.findings = list(c.findings or [])
        self.claims[c.id] = c
        self.stored_facts[c.id] = ClaimFacts(*row[n:])
        return c

    # --- lookups -----------------------------------------------------------------------
    def facts_of(self, claim: Claim) -> ClaimFacts:
        """The facts stored with this claim object, read with it from the warehouse; a
        claim that was not (a headline's figure, a figure read as another denominator, a
        derived one) has them computed by the same function (``link.facts.facts_of``)."""
        got = self.stored_facts.get(claim.id)
        if got is not None and self.claims.get(claim.id) is claim:
            return got
        return facts_of(claim)

    def doc(self, claim: Claim) -> DocInfo:
        return self.docs.get(claim.doc_id) or DocInfo(id=claim.doc_id, path=claim.doc_id)

    def role(self, claim: Claim) -> str:
        return self.doc(claim).role

    def active(self, claim: Claim) -> bool:
        return (claim.stance or "asserted") not in INERT_STANCES

    def primary_claims(self) -> list[Claim]:
        return [c for c in self.claims.values() if self.role(c) == "primary" and self.active(c)]

    def links_of(self, claim_id: str) -> list[Link]:
        if not hasattr(self, "_by_claim"):
            idx: dict[str, list[Link]] = defaultdict(list)
            for ln in self.links:
                idx[ln.src].append(ln)
                if ln.dst != ln.src:
                    idx[ln.dst].append(ln)
                if ln.other and ln.other not in (ln.src, ln.dst):
                    idx[ln.other].append(ln)
            self._by_claim = idx
        return self._by_claim.get(claim_id, [])

    def citation(self, claim: Claim) -> str | None:
        """How a figure read from a benchmark result file is cited (MLPerf version,
        division, result ID, scenario, retrieval date; file and row of others), else None."""
        if self.citations is None:
            return None
        return self.citations.of(claim, self.doc(claim).text)

    def derived_of(self, claim: Claim) -> list[DerivedFigure]:
        """The figures derived from this per-system MLPerf result (per GPU, per node), as
        shown beside it; a division by one (a one-node system's per-node figure) is the
        result itself and is not shown."""
        return [d for d in self.derived.get(claim.id, []) if d.divisor > 1]

    def findings_of(self, claim_id: str) -> list[str]:
        return self.findings.get(claim_id, [])

    def quote(self, claim: Claim) -> tuple[str, str, str]:
        """(before, figure, after) of the sentence around the figure, from the stored text."""
        d = self.doc(claim)
        text = d.text
        s0, s1 = claim.sentence_start, claim.sentence_end
        if text is not None and s0 is not None and s1 is not None \
                and s0 <= claim.start <= claim.end <= s1 <= len(text):
            return (text[s0:claim.start], text[claim.start:claim.end], text[claim.end:s1])
        sentence = claim.sentence or ""
        i = sentence.find(claim.surface)
        if i >= 0:
            return (sentence[:i], claim.surface, sentence[i + len(claim.surface):])
        return ("", claim.surface, "")

    def text_of(self, d: DocInfo) -> str:
        """A document's stored text, read on first use where the record holds none."""
        if d.text is None and self.store is not None:
            try:
                _, rows = self.store.query("SELECT text FROM documents WHERE id = ?", [d.id])
            except Exception:       # a closed warehouse: the sentence alone is what we have
                return ""
            d.text = rows[0][0] if rows and rows[0][0] is not None else ""
        return d.text or ""

    def read_texts(self, doc_ids: Iterable[str]) -> None:
        """Read the stored texts of these documents that the record holds without one, in
        one query, as ``text_of`` would read each (a check that reads what leads up to
        thousands of figures read hundreds of documents one query at a time). Where the
        warehouse cannot be read, nothing is read: ``text_of`` answers for each."""
        docs = [d for d in (self.docs.get(k) for k in set(doc_ids)) if d is not None
                and d.text is None]
        if not docs or self.store is None:
            return
        try:
            _, rows = self.store.query(
                "SELECT id, text FROM documents WHERE id IN "
                "(SELECT unnest(CAST($ids AS VARCHAR[])))", {"ids": sorted(d.id for d in docs)})
        except Exception:       # a closed warehouse
            return
        got = dict(rows)
        for d in docs:
            d.text = got.get(d.id) or ""

    def lead_in(self, claim: Claim) -> str:
        """What leads up to a figure: its section (from the heading before it) through its
        sentence (``pipeline.cause.lead_in``); the sentence alone without the text."""
        return self.lead_at(claim)[0]

    def lead_at(self, claim: Claim) -> tuple[str, int]:
        """``lead_in`` and where the figure starts in it (worked out once per figure: the
        cause, the application and the phase of a figure all read it)."""
        got = self._leads.get(claim.id)
        if got is None:
            got = self._leads[claim.id] = self._lead_at(claim)
        return got

    def _lead_at(self, claim: Claim) -> tuple[str, int]:
        from pipeline.cause import lead_in

        text = self.text_of(self.doc(claim))
        end = claim.sentence_end if claim.sentence_end is not None else claim.end
        if text and 0 <= end <= len(text) and claim.start <= end:
            lead = lead_in(text, end)
            return lead, max(0, len(lead) - (end - claim.start))
        at = claim.start - claim.sentence_start if claim.sentence_start is not None else 0
        return claim.sentence or "", max(0, at)

    def params_of(self, claim: Claim) -> tuple[float, Claim | None] | None:
        """The size of the claim's model: its own ``model_params``, else a parameters
        claim on the same model in the same document, else in any primary document."""
        if claim.family == "parameters" and claim.model:
            return (claim.value, claim)
        mk = self.facts_of(claim).key_model
        if mk is None:
            return (claim.model_params, None) if claim.model_params else None
        idx = self._params_index()
        same_doc = idx.get((claim.doc_id, mk))
        if same_doc:
            return (same_doc[0].value, same_doc[0])
        if claim.model_params:
            return (claim.model_params, None)
        anywhere = idx.get(("*", mk))
        if anywhere:
            return (anywhere[0].value, anywhere[0])
        return None

    def _params_index(self) -> dict[tuple[str, str], list[Claim]]:
        if not hasattr(self, "_pidx"):
            idx: dict[tuple[str, str], list[Claim]] = defaultdict(list)
            for c in self.claims.values():
                if c.family != "parameters" or not self.active(c):
                    continue
                mk = self.facts_of(c).key_model
                if mk is None:
                    continue
                idx[(c.doc_id, mk)].append(c)
                if self.role(c) == "primary":
                    idx[("*", mk)].append(c)
            for v in idx.values():
                v.sort(key=lambda c: (c.implied, c.inherited, c.start))
            self._pidx = idx
        return self._pidx


def open_record(db: str | None = None, **kwargs) -> Record:
    """Open the warehouse read-only and load the record (StoreError when missing)."""
    with Store.open(db, read_only=True) as store:
        return Record.load(store, **kwargs)
