"""The warehouse's claim graph as W3C PROV-JSON (docs/formats.md#prov), for provenance tools.

What PROV says of it:

* **entities**: every document (``doc:<id>``) and every claim (``claim:<id>``), with their
  fields as attributes (a claim's value in its canonical unit as ``prov:value``);
* **activities**: for each document, the ingest that read it (``act:ingest-<doc>``, ended
  when it was stored) and the extraction that read its claims (``act:extract-<doc>``),
  both carried out by the ``claims`` software agent (``wasAssociatedWith``);
* ``wasGeneratedBy`` a document by its ingest and a claim by its extraction, ``used``
  the document by its extraction, and ``wasDerivedFrom`` each claim from its document;
* from the links (docs/claims-model.md §3): ``wasQuotedFrom`` (a derivation typed
  ``prov:Quotation``) for a restatement, a secondary figure that credits the primary it
  matches; ``hadPrimarySource`` (typed ``prov:PrimarySource``) from a figure outside a
  primary document to the primary figure a ``supports`` or ``restates`` link ties it to
  (what makes a figure sourced rather than ``unsourced``); ``wasDerivedFrom`` from a
  ratio or percent to each of the two figures it is the arithmetic of (``derives``).
  ``conflicts``, ``mismatch`` and a ``supports`` between two figures of the same role say
  how figures compare, not where one came from: they are not provenance, and
  `claims export links` has them.

The file is written as the queries stream (one JSON object, section by section), so a
warehouse of a million claims is exported in bounded memory.
"""
from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import fields
from itertools import chain
from typing import IO, Any, Iterable, Iterator

from pipeline.model import Claim

PREFIXES = {
    "claims": "urn:claims:vocab:",        # this project's attribute and type names
    "doc": "urn:claims:document:",
    "claim": "urn:claims:claim:",
    "act": "urn:claims:activity:",
}
AGENT = "claims:tool"
# Claim fields not written as attributes: the offsets and quote stay in the warehouse
# (prov:value carries the value; ``claims:start``/``claims:end`` locate it).
_SKIP_CLAIM = frozenset({"id", "doc_id", "sentence", "value", "findings"})
CLAIM_FIELDS = tuple(f.name for f in fields(Claim) if f.name not in _SKIP_CLAIM)
DOC_FIELDS = ("path", "format", "title", "publisher", "url", "published", "author", "role",
              "role_source", "n_chars")
PRIMARY = "primary"
BATCH = 2000


def _qname(value: str) -> dict[str, str]:
    return {"$": value, "type": "prov:QUALIFIED_NAME"}


def _value(v: Any) -> Any:
    """An attribute value as PROV-JSON writes it: JSON strings, numbers and booleans as
    they are, dates typed, numbers JSON cannot hold as typed literals."""
    if isinstance(v, float) and not math.isfinite(v):
        return {"$": "NaN" if math.isnan(v) else ("INF" if v > 0 else "-INF"), "type": "xsd:double"}
    if isinstance(v, dt.datetime):
        return {"$": v.isoformat(), "type": "xsd:dateTime"}
    if isinstance(v, dt.date):
        return {"$": v.isoformat(), "type": "xsd:date"}
    return v


def _attrs(names: Iterable[str], values: Iterable[Any]) -> dict[str, Any]:
    return {f"claims:{n}": _value(v) for n, v in zip(names, values) if v is not None}


class _Writer:
    """One PROV-JSON object written section by section; records counted per section
    (what a reader must find again)."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh
        self.counts: dict[str, int] = {}
        self._sections = 0
        self._ids = 0

    def section(self, name: str, records: Iterable[tuple[str | None, dict[str, Any]]]) -> None:
        """``records``: (id, attributes); an id of None gets a blank-node id (relations)."""
        fh = self.fh
        fh.write(("{\n" if self._sections == 0 else ",\n") + f" {json.dumps(name)}: {{")
        self._sections += 1
        n = 0
        for rid, attrs in records:
            if rid is None:
                self._ids += 1
                rid = f"_:r{self._ids}"
            fh.write(("\n" if n == 0 else ",\n") + f"  {json.dumps(rid, ensure_ascii=False)}: "
                     + json.dumps(attrs, ensure_ascii=False, allow_nan=False))
            n += 1
        fh.write("\n }" if n else "}")
        self.counts[name] = self.counts.get(name, 0) + n

    def close(self) -> None:
        self.fh.write("\n}\n" if self._sections else "{}\n")


def _rows(store, sql: str) -> Iterator[tuple]:
    cur = store.cursor_for(sql)
    while chunk := cur.fetchmany(BATCH):
        yield from chunk


def _documents(store) -> Iterator[tuple[str, dict[str, Any]]]:
    cols = ", ".join(DOC_FIELDS)
    for row in _rows(store, f"SELECT id, {cols} FROM documents ORDER BY path, id"):
        doc_id, values = row[0], row[1:]
        attrs = {"prov:type": _qname("claims:Document"),
                 "prov:label": values[DOC_FIELDS.index("title")] or values[0]}
        attrs.update(_attrs(DOC_FIELDS, values))
        yield f"doc:{doc_id}", attrs


def _claims(store) -> Iterator[tuple[str, dict[str, Any]]]:
    cols = ", ".join(f'"{c}"' for c in CLAIM_FIELDS)
    for row in _rows(store, f'SELECT id, value, {cols} FROM claims ORDER BY doc_id, start, "end", id'):
        attrs = {"prov:type": _qname("claims:Claim"), "prov:label": row[CLAIM_FIELDS.index("surface") + 2]}
        if row[1] is not None:
            attrs["prov:value"] = _value(row[1])
        attrs.update(_attrs(CLAIM_FIELDS, row[2:]))
        yield f"claim:{row[0]}", attrs


def _activities(store) -> Iterator[tuple[str, dict[str, Any]]]:
    for doc_id, path, url, at, fingerprint in _rows(
            store, "SELECT id, path, url, ingested_at, fingerprint FROM documents ORDER BY path, id"):
        when = at.isoformat() if at is not None else None
        ingest = {"prov:type": _qname("claims:Ingest"), "claims:source": url or path}
        extract = {"prov:type": _qname("claims:Extract"), "claims:fingerprint": fingerprint}
        if when:
            ingest["prov:endTime"] = extract["prov:endTime"] = when
        yield f"act:ingest-{doc_id}", ingest
        yield f"act:extract-{doc_id}", extract


def _generated(store) -> Iterator[tuple[None, dict[str, Any]]]:
    for doc_id, at in _rows(store, "SELECT id, ingested_at FROM documents ORDER BY path, id"):
        rel = {"prov:entity": f"doc:{doc_id}", "prov:activity": f"act:ingest-{doc_id}"}
        if at is not None:
            rel["prov:time"] = at.isoformat()
        yield None, rel
    for cid, doc_id in _rows(store, 'SELECT id, doc_id FROM claims ORDER BY doc_id, start, "end", id'):
        yield None, {"prov:entity": f"claim:{cid}", "prov:activity": f"act:extract-{doc_id}"}


def _used(store) -> Iterator[tuple[None, dict[str, Any]]]:
    for (doc_id,) in _rows(store, "SELECT id FROM documents ORDER BY path, id"):
        yield None, {"prov:activity": f"act:extract-{doc_id}", "prov:entity": f"doc:{doc_id}"}


def _associated(store) -> Iterator[tuple[None, dict[str, Any]]]:
    for (doc_id,) in _rows(store, "SELECT id FROM documents ORDER BY path, id"):
        for kind in ("ingest", "extract"):
            yield None, {"prov:activity": f"act:{kind}-{doc_id}", "prov:agent": AGENT}


_LINKS_SQL = (
    "SELECT l.src, l.dst, l.relation, l.consistent, l.detail, l.computed, l.other, "
    "ds.role, dd.role FROM links l "
    "JOIN claims cs ON cs.id = l.src JOIN documents ds ON ds.id = cs.doc_id "
    "JOIN claims cd ON cd.id = l.dst JOIN documents dd ON dd.id = cd.doc_id "
    "WHERE l.relation IN ('restates', 'supports', 'derives') "
    "ORDER BY l.relation, l.src, l.dst")


def _derivation(generated: str, used: str, kind: str | None = None, **attrs: Any) -> dict[str, Any]:
    rel: dict[str, Any] = {"prov:generatedEntity": f"claim:{generated}",
                           "prov:usedEntity": f"claim:{used}"}
    if kind:
        rel["prov:type"] = _qname(kind)
    rel.update({f"claims:{k}": _value(v) for k, v in attrs.items() if v is not None})
    return rel


def _derived(store) -> Iterator[tuple[None, dict[str, Any]]]:
    for cid, doc_id in _rows(store, 'SELECT id, doc_id FROM claims ORDER BY doc_id, start, "end", id'):
        yield None, {"prov:generatedEntity": f"claim:{cid}", "prov:usedEntity": f"doc:{doc_id}",
                     "prov:activity": f"act:extract-{doc_id}"}
    for src, dst, relation, consistent, detail, computed, other, src_role, dst_role in \
            _rows(store, _LINKS_SQL):
        if relation == "derives":
            for operand in (dst, other):
                if operand:
                    yield None, _derivation(src, operand, None, relation="derives",
                                            consistent=consistent, computed=computed,
                                            detail=detail or None)
            continue
        if relation == "restates":
            yield None, _derivation(src, dst, "prov:Quotation", relation="restates",
                                    detail=detail or None)
        # a figure outside a primary document traced to a primary one
        if dst_role == PRIMARY and src_role != PRIMARY:
            yield None, _derivation(src, dst, "prov:PrimarySource", relation=relation)
        elif src_role == PRIMARY and dst_role != PRIMARY:
            yield None, _derivation(dst, src, "prov:PrimarySource", relation=relation)


def write_prov(store, fh: IO[str]) -> dict[str, int]:
    """Write the warehouse as PROV-JSON to ``fh``; returns the records written per
    section (``entity``, ``activity``, ``wasDerivedFrom`` ...)."""
    from pipeline import __version__

    w = _Writer(fh)
    w.section("prefix", ((k, v) for k, v in PREFIXES.items()))
    w.counts.pop("prefix")
    w.section("agent", [(AGENT, {"prov:type": _qname("prov:SoftwareAgent"),
                                 "prov:label": f"claims {__version__}"})])
    w.section("entity", chain(_documents(store), _claims(store)))
    w.section("activity", _activities(store))
    w.section("wasGeneratedBy", _generated(store))
    w.section("used", _used(store))
    w.section("wasAssociatedWith", _associated(store))
    w.section("wasDerivedFrom", _derived(store))
    w.close()
    return dict(w.counts)
