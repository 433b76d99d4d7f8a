"""The SQL behind the pages: a claims filter from the address, facet counts, one page of rows.

Every list is read a page at a time (``LIMIT``/``OFFSET`` in DuckDB, never the whole table
into Python), so a page costs memory in proportion to its rows, whatever the warehouse
holds. Values from the address are always query parameters, never SQL text; the only
names put into SQL come from the fixed tables below (a sort key or facet not in them is
ignored).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
FACET_VALUES = 12          # values a facet lists (the most frequent); the rest are counted
NONE = "(none)"            # the facet value that selects claims where the field is empty

# facet name in the address -> column of claims_full
FACETS: dict[str, str] = {
    "family": "family", "scope": "scope", "model": "model", "hardware": "hardware",
    "engine": "engine", "statistic": "statistic", "document": "doc_id", "role": "doc_role",
}
FINDING = "finding"        # a list column (findings): its own query
FACET_ORDER = ("family", "role", FINDING, "model", "hardware", "engine", "scope", "statistic",
               "document")

# sort key in the address -> ORDER BY terms; every order ends on the export's order, so a
# page boundary is stable
EXPORT_ORDER = 'doc_path, start, "end", id'
SORTS: dict[str, str] = {
    "document": "doc_path", "value": "value", "family": "family", "model": "model",
    "hardware": "hardware", "engine": "engine", "published": "doc_published",
    "figure": "surface",
}
SEARCHED = ("surface", "sentence", "model", "hardware", "engine", "doc_title", "doc_path",
            "doc_publisher")
ROW_COLUMNS = ('id, doc_id, surface, value, unit, family, scope, statistic, comparator, model, '
               'hardware, engine, page, start, "end", sentence, sentence_start, findings, '
               'stance, doc_path, doc_title, doc_role, doc_published')


def _int(value: str | None, default: int, low: int, high: int) -> int:
    try:
        n = int(value) if value not in (None, "") else default
    except ValueError:
        n = default
    return max(low, min(high, n))


@dataclass
class ClaimFilter:
    """What the claims page shows: facet values, a search text, a sort and a page."""

    facets: dict[str, str] = field(default_factory=dict)
    q: str = ""
    sort: str = "document"
    desc: bool = False
    page: int = 1
    size: int = PAGE_SIZE

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> "ClaimFilter":
        facets = {k: params[k] for k in (*FACETS, FINDING) if params.get(k) not in (None, "")}
        sort = params.get("sort") or "document"
        return cls(facets=facets, q=(params.get("q") or "").strip(),
                   sort=sort if sort in SORTS else "document",
                   desc=params.get("desc") in ("1", "true", "yes"),
                   page=_int(params.get("page"), 1, 1, 10**9),
                   size=_int(params.get("size"), PAGE_SIZE, 1, MAX_PAGE_SIZE))

    # --- the address of a changed filter ------------------------------------------------
    def params(self, **change: Any) -> dict[str, str]:
        """The address parameters of this filter with ``change`` applied (None removes a
        facet); changing anything but the page goes back to page 1."""
        out: dict[str, Any] = dict(self.facets)
        out.update(q=self.q, sort=self.sort, desc="1" if self.desc else "", page=self.page,
                   size=self.size if self.size != PAGE_SIZE else "")
        if change and "page" not in change:
            out["page"] = 1
        out.update(change)
        return {k: str(v) for k, v in out.items()
                if v not in (None, "") and not (k == "page" and str(v) == "1")
                and not (k == "sort" and v == "document")}

    # --- SQL --------------------------------------------------------------------------
    def where(self, skip: str | None = None) -> tuple[str, list[Any]]:
        """(WHERE clause or '', parameters); ``skip`` leaves one facet out."""
        terms: list[str] = []
        params: list[Any] = []
        for name, value in self.facets.items():
            if name == skip:
                continue
            if name == FINDING:
                if value == NONE:
                    terms.append("coalesce(len(findings), 0) = 0")
                else:
                    terms.append("list_contains(findings, ?)")
                    params.append(value)
                continue
            col = FACETS[name]
            if value == NONE:
                terms.append(f"{col} IS NULL")
            else:
                terms.append(f"{col} = ?")
                params.append(value)
        if self.q:
            needle = self.q.lower()
            terms.append("(" + " OR ".join(f"contains(lower({c}), ?)" for c in SEARCHED) + ")")
            params += [needle] * len(SEARCHED)
        return (" WHERE " + " AND ".join(terms)) if terms else "", params

    def order(self) -> str:
        col = SORTS[self.sort]
        if self.sort == "document":
            return EXPORT_ORDER + (" DESC" if self.desc else "")
        return f"{col} {'DESC' if self.desc else 'ASC'} NULLS LAST, {EXPORT_ORDER}"

    def page_sql(self) -> tuple[str, list[Any]]:
        """The ids of this page's claims, in order: sorting reads only the sort columns
        (the rows' sentences are read for the page alone, by ``page_rows``)."""
        where, params = self.where()
        return (f"SELECT id FROM claims_full{where} ORDER BY {self.order()} "
                f"LIMIT {self.size} OFFSET {(self.page - 1) * self.size}", params)

    def page_rows(self, cur) -> list[dict[str, Any]]:
        """This page's claims (ROW_COLUMNS), in the filter's order."""
        sql, params = self.page_sql()
        ids = [r[0] for r in cur.execute(sql, params).fetchall()]
        return rows_of(cur, ids)

    def export_sql(self) -> tuple[str, list[Any]]:
        """Every column of claims_full for the filter, in `claims export claims`'s order."""
        where, params = self.where()
        return f"SELECT * FROM claims_full{where} ORDER BY {EXPORT_ORDER}", params


def rows_of(cur, ids: list[str]) -> list[dict[str, Any]]:
    """The ROW_COLUMNS of these claims, in the order of ``ids``."""
    if not ids:
        return []
    res = cur.execute(f"SELECT {ROW_COLUMNS} FROM claims_full WHERE id IN "
                      "(SELECT unnest(CAST(? AS VARCHAR[])))", [ids])
    columns = [d[0] for d in res.description]
    by_id = {r[0]: dict(zip(columns, r)) for r in res.fetchall()}
    return [by_id[i] for i in ids if i in by_id]


@dataclass
class FacetValue:
    value: str            # what goes into the address (NONE for an empty field)
    label: str
    count: int
    selected: bool = False


@dataclass
class Facet:
    name: str
    values: list[FacetValue]
    more: int = 0         # further values not listed


def facet_counts(cur, flt: ClaimFilter) -> tuple[int, list[Facet]]:
    """(claims matching the filter, the facets): for each facet, its most frequent values
    among the matching claims, counted in one pass (GROUPING SETS) plus one for findings."""
    where, params = flt.where()
    cols = [c for c in FACETS.values()]
    sets = ", ".join(f"({c})" for c in cols) + ", ()"
    flags = ", ".join(f"GROUPING({c}) AS g_{c}" for c in cols)
    sql = (f"SELECT {', '.join(cols)}, any_value(doc_path) AS path, {flags}, count(*) AS n "
           f"FROM claims_full{where} GROUP BY GROUPING SETS ({sets})")
    rows = cur.execute(sql, params).fetchall()
    n = len(cols)
    total = 0
    groups: dict[str, list[tuple[Any, str, int]]] = {name: [] for name in FACETS}
    names = list(FACETS)
    for r in rows:
        values, path, flagbits, count = r[:n], r[n], r[n + 1:2 * n + 1], r[-1]
        grouped = [i for i, g in enumerate(flagbits) if g == 0]
        if not grouped:
            total = count
            continue
        i = grouped[0]
        v = values[i]
        label = path if names[i] == "document" and v is not None else v
        groups[names[i]].append((v, label, count))
    out: dict[str, Facet] = {}
    for name, items in groups.items():
        out[name] = _facet(name, items, flt)
    fwhere, fparams = flt.where()
    frows = cur.execute(
        "SELECT f, count(*) FROM (SELECT unnest(CASE WHEN coalesce(len(findings), 0) = 0 "
        "THEN [NULL::VARCHAR] ELSE findings END) AS f FROM claims_full" + fwhere + ") GROUP BY f",
        fparams).fetchall()
    out[FINDING] = _facet(FINDING, [(v, v, k) for v, k in frows], flt)
    return total, [out[name] for name in FACET_ORDER]


def _facet(name: str, items: list[tuple[Any, Any, int]], flt: ClaimFilter) -> Facet:
    items.sort(key=lambda t: (-t[2], t[0] is None, str(t[1])))
    chosen = flt.facets.get(name)
    values = [FacetValue(NONE if v is None else str(v), NONE if v is None else str(label),
                         k, selected=(chosen == (NONE if v is None else str(v))))
              for v, label, k in items[:FACET_VALUES]]
    return Facet(name, values, max(0, len(items) - FACET_VALUES))


# --- documents ------------------------------------------------------------------------------

DOC_LIST_COLUMNS = ("d.id, d.path, d.format, d.title, d.publisher, d.published, d.role, "
                    "d.role_source, d.n_chars")


def documents_page(cur, q: str, role: str, page: int, size: int = PAGE_SIZE
                   ) -> tuple[int, list[dict[str, Any]]]:
    """(documents matching, one page of them with their number of claims), by path."""
    terms, params = [], []
    if q:
        terms.append("(" + " OR ".join(f"contains(lower(d.{c}), ?)" for c in
                                       ("path", "title", "publisher", "url")) + ")")
        params += [q.lower()] * 4
    if role:
        terms.append("d.role = ?")
        params.append(role)
    where = (" WHERE " + " AND ".join(terms)) if terms else ""
    total = cur.execute(f"SELECT count(*) FROM documents d{where}", params).fetchone()[0]
    rows = cur.execute(
        f"WITH page AS (SELECT {DOC_LIST_COLUMNS} FROM documents d{where} ORDER BY d.path, d.id "
        f"LIMIT {size} OFFSET {(page - 1) * size}) "
        "SELECT p.*, (SELECT count(*) FROM claims c WHERE c.doc_id = p.id) AS n_claims "
        "FROM page p ORDER BY p.path, p.id", params)
    columns = [d[0] for d in rows.description]
    return total, [dict(zip(columns, r)) for r in rows.fetchall()]


# --- the views ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ViewPage:
    """A warehouse view shown as a page of pairs or rows."""

    name: str             # in the address
    view: str             # warehouse view
    title: str
    order: str
    about: str
    where: str = ""       # rows of the view left out of the page (an SQL condition)


VIEWS: dict[str, ViewPage] = {v.name: v for v in (
    ViewPage("conflicts", "conflicts", "Conflicts", "model NULLS LAST, family, src_path, src, dst",
             "Pairs of figures on the same quantity whose values disagree beyond their "
             "precision."),
    ViewPage("unsourced", "unsourced_claims", "Unsourced claims", "path, id",
             "Figures outside primary documents that no primary figure supports or restates."),
    ViewPage("mismatches", "metric_mismatches", "Metric mismatches",
             "model NULLS LAST, src_path, src, dst",
             "The same subject and a consistent number, but another family, denominator or "
             "unit: the metric drifted between sources."),
    ViewPage("derived", "derived_checks", "Derived checks", "path, claim_id, operand_a",
             "Ratios and percentages checked against the two figures they are computed from. "
             "Per-GPU and per-node figures derived from MLPerf results are under Derived "
             "figures."),
    ViewPage("derived_figures", "derived_figures", "Derived figures",
             "path, result_id, benchmark, scenario, scope, claim_id",
             "Per-GPU and per-node figures derived from MLPerf Inference results: each "
             "per-system result divided by its accelerators (a# x Nodes) or its nodes. MLPerf "
             "publishes results per system only, so none of these is an official MLPerf "
             "result; `claims check`, the report and the traces use them only to judge a "
             "per-GPU or per-node figure, and say so. A division by one (a one-node "
             "system's per-node figure) is the result itself and is left out.",
             where="divisor > 1"),
)}


def view_page(cur, view: ViewPage, page: int, size: int = PAGE_SIZE
              ) -> tuple[int, list[dict[str, Any]]]:
    where = f" WHERE {view.where}" if view.where else ""
    total = cur.execute(f"SELECT count(*) FROM {view.view}{where}").fetchone()[0]
    res = cur.execute(f"SELECT * FROM {view.view}{where} ORDER BY {view.order} "
                      f"LIMIT {size} OFFSET {(page - 1) * size}")
    columns = [d[0] for d in res.description]
    return total, [dict(zip(columns, r)) for r in res.fetchall()]
