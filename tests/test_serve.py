"""`claims serve` over HTTP: the real command in a subprocess, on the demo corpus plus a
generated three-page PDF, asked over loopback with httpx. What each page shows is held
to the warehouse itself (SQL in this process), to `claims export`, `claims check` and
`pipeline.trace` on the fully loaded record."""
from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

import httpx
import pytest
from markupsafe import escape

from conftest import REPO
from pipeline.record import open_record
from pipeline.serve.around import trace_of
from pipeline.store import Store
from pipeline.trace import trace
from serve_kit import running


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, run_cli, sample_pdf) -> Path:
    db = tmp_path_factory.mktemp("serve") / "demo.duckdb"
    run_cli("ingest", str(REPO / "corpus"), str(sample_pdf), "--db", str(db), "-q",
            cwd=REPO, check=True)
    return db


@pytest.fixture(scope="module")
def web(warehouse):
    with running(warehouse, "--sql-timeout", "1") as (base, _):
        with httpx.Client(base_url=base, timeout=60) as client:
            yield client


def sql(db: Path, query: str, params=None) -> list[tuple]:
    with Store.open(db, read_only=True) as store:
        return store.con.execute(query, params or []).fetchall()


def total(page: str) -> int:
    return int(re.search(r'id="total">([\d,]+)<', page).group(1).replace(",", ""))


def row_ids(page: str) -> list[str]:
    return re.findall(r'<tr id="c-([0-9a-f]+)">', page)


# --- pages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/claims", "/documents", "/views/conflicts",
                                  "/views/unsourced", "/views/mismatches", "/views/derived",
                                  "/check", "/sql"])
def test_every_page_answers_with_no_script_allowed(web, path):
    r = web.get(path)
    assert r.status_code == 200, r.text[-500:]
    assert r.headers["content-type"].startswith("text/html")
    assert "script-src" not in r.headers["content-security-policy"]
    assert r.headers["content-security-policy"].startswith("default-src 'none'")
    assert "<script" not in r.text.lower()


def test_facet_filters_rows_and_counts(web, warehouse):
    page = web.get("/claims", params={"family": "token_throughput"}).text
    want = sql(warehouse, "SELECT count(*) FROM claims WHERE family = 'token_throughput'")[0][0]
    assert total(page) == want > 0
    fams = sql(warehouse, "SELECT family FROM claims WHERE id IN (SELECT unnest(?))",
               [row_ids(page)])
    assert {f for (f,) in fams} == {"token_throughput"}
    # the role facet counts the filtered claims
    n_primary = sql(warehouse, "SELECT count(*) FROM claims_full WHERE family = "
                               "'token_throughput' AND doc_role = 'primary'")[0][0]
    facet = re.search(r'id="facet-role">(.*?)</div>', page, re.S).group(1)
    assert re.search(rf'>primary</a>\s*<span class="count">{n_primary}</span>', facet)
    # two facets and the empty value: claims with no model
    page = web.get("/claims", params={"family": "token_throughput", "model": "(none)"}).text
    want = sql(warehouse, "SELECT count(*) FROM claims WHERE family = 'token_throughput' "
                          "AND model IS NULL")[0][0]
    assert total(page) == want


def test_finding_and_document_facets(web, warehouse):
    page = web.get("/claims", params={"finding": "unsourced"}).text
    want = sql(warehouse, "SELECT count(*) FROM claims WHERE list_contains(findings, 'unsourced')")
    assert total(page) == want[0][0] > 0
    doc_id, path, n = sql(warehouse, "SELECT doc_id, any_value(doc_path), count(*) FROM claims_full "
                                     "GROUP BY doc_id ORDER BY 3 DESC LIMIT 1")[0]
    page = web.get("/claims", params={"document": doc_id}).text
    assert total(page) == n
    assert f"document: {escape(path)}" in page


def test_search_sort_and_pages(web, warehouse):
    page = web.get("/claims", params={"q": "SGLang"}).text
    want = sql(warehouse, "SELECT count(*) FROM claims_full WHERE contains(lower(sentence), 'sglang') "
               "OR contains(lower(engine), 'sglang') OR contains(lower(surface), 'sglang') "
               "OR contains(lower(model), 'sglang') OR contains(lower(hardware), 'sglang') "
               "OR contains(lower(doc_title), 'sglang') OR contains(lower(doc_path), 'sglang') "
               "OR contains(lower(doc_publisher), 'sglang')")[0][0]
    assert total(page) == want > 0
    order = ('value DESC NULLS LAST, doc_path, start, "end", id')
    second = web.get("/claims", params={"sort": "value", "desc": "1", "size": "5", "page": "2"}).text
    want = [r[0] for r in sql(warehouse, f"SELECT id FROM claims_full ORDER BY {order} "
                                         "LIMIT 5 OFFSET 5")]
    assert row_ids(second) == want
    assert 'rel="prev"' in second and 'rel="next"' in second


def test_quote_marks_the_figure(web, warehouse):
    page = web.get("/claims", params={"size": "200"}).text
    rows = dict(((i, s) for i, s in sql(warehouse, "SELECT id, surface FROM claims")))
    for cid, mark in re.findall(r'<tr id="c-([0-9a-f]+)">.*?<mark>(.*?)</mark>', page, re.S):
        assert html.unescape(mark) == rows[cid]


def test_export_is_claims_export(web, warehouse, run_cli):
    full = run_cli("export", "claims", "-f", "csv", "--db", str(warehouse), cwd=REPO, check=True)
    assert web.get("/claims.csv").text == full.stdout
    lines = run_cli("export", "claims", "--db", str(warehouse), cwd=REPO, check=True).stdout
    family = sql(warehouse, "SELECT family FROM claims GROUP BY 1 ORDER BY count(*), 1 LIMIT 1")[0][0]
    want = [x for x in lines.splitlines() if json.loads(x)["family"] == family]
    got = web.get("/claims.jsonl", params={"family": family, "page": "2"})
    assert got.headers["content-disposition"] == 'attachment; filename="claims.jsonl"'
    assert got.text.splitlines() == want and want


def test_trace_reads_what_the_full_record_gives(warehouse):
    """record_around loads a part of the record; trace on it says what trace says on all
    of it, verdicts (chosen in SQL) included."""
    record = open_record(str(warehouse))
    with Store.open(warehouse, read_only=True) as store:
        for cid in record.claims:
            assert trace_of(store, cid).to_dict() == trace(cid, record).to_dict(), cid


def test_trace_page(web, warehouse, run_cli):
    cid = sql(warehouse, "SELECT id FROM claims_full WHERE doc_role = 'secondary' "
                         "AND id IN (SELECT src FROM links UNION SELECT dst FROM links) "
                         "ORDER BY id LIMIT 1")[0][0]
    want = json.loads(run_cli("trace", cid, "-f", "json", "--db", str(warehouse),
                              cwd=REPO, check=True).stdout)
    page = web.get(f"/claims/{cid}").text
    assert f'<span class="verdict v-{want["verdict"]["verdict"]}">' in page
    assert escape(want["verdict"]["explanation"]) in page
    assert page.count('class="callout step') == len(want["links"]) > 0
    assert f"<mark>{escape(want['claim']['surface'])}</mark>" in page
    short = web.get(f"/claims/{cid[:10]}", follow_redirects=False)
    assert short.status_code == 302 and short.headers["location"] == f"/claims/{cid}"
    missing = web.get("/claims/ffffffffffffffffffff")
    assert missing.status_code == 404 and "no claim with id" in missing.text
    assert "<h2>404</h2>" in missing.text and "<title>Error 404" in missing.text


def test_document_page_highlights_claims_and_pages(web, warehouse):
    doc_id, n_pages = sql(warehouse, "SELECT d.id, count(p.page) FROM documents d JOIN pages p "
                                     "ON p.doc_id = d.id WHERE d.format = 'pdf' GROUP BY d.id")[0]
    page = web.get(f"/documents/{doc_id}").text
    assert [int(x) for x in re.findall(r'id="page-(\d+)"', page)] == list(range(1, n_pages + 1))
    claims = sql(warehouse, 'SELECT id, surface, page FROM claims WHERE doc_id = ? '
                            'ORDER BY start', [doc_id])
    marked = re.findall(r'<a class="fig" id="f-([0-9a-f]+)"[^>]*><mark>(.*?)</mark>', page)
    assert [(i, html.unescape(s)) for i, s in marked] == [(i, s) for i, s, _ in claims]
    # each figure sits after the marker of its own page
    text = page[page.index('class="doctext"'):]
    for cid, _, pg in claims:
        at = text.index(f'id="f-{cid}"')
        assert text.rindex('id="page-', 0, at) == text.index(f'id="page-{pg}"')
    assert web.get("/documents/nope").status_code == 404


def test_documents_list(web, warehouse):
    page = web.get("/documents", params={"role": "secondary"}).text
    want = sql(warehouse, "SELECT count(*) FROM documents WHERE role = 'secondary'")[0][0]
    assert total(page) == want > 0


def test_views_are_the_warehouse_views(web, warehouse):
    for name, view in (("conflicts", "conflicts"), ("unsourced", "unsourced_claims"),
                       ("mismatches", "metric_mismatches"), ("derived", "derived_checks")):
        page = web.get(f"/views/{name}").text
        assert total(page) == sql(warehouse, f"SELECT count(*) FROM {view}")[0][0], name
    page = web.get("/views/unsourced").text
    ids = {r[0] for r in sql(warehouse, "SELECT id FROM unsourced_claims")}
    assert set(re.findall(r'href="/claims/([0-9a-f]+)"', page)) == ids
    assert web.get("/views/nope").status_code == 404


@pytest.mark.parametrize("headline", ["DeepSeek-V4.1-Flash reaches 826 tokens/s per user",
                                      "Nvidia hits 2,000 tokens per second per user"])
def test_check_page_is_claims_check(web, warehouse, run_cli, headline):
    proc = run_cli("check", headline, "-f", "json", "--db", str(warehouse), cwd=REPO)
    want = json.loads(proc.stdout)
    page = web.get("/check", params={"q": headline}).text
    assert f'<span class="verdict v-{want["verdict"]}">' in page
    assert escape(want["explanation"]) in page
    assert f"read as: {escape(want['reading'])}" in page
    for e in want["evidence"]:
        assert f'href="/claims/{e["id"]}"' in page


def test_sql_page_reads_and_refuses_what_claims_sql_refuses(web, warehouse):
    page = web.get("/sql", params={"q": "SELECT family, count(*) AS n FROM claims GROUP BY 1 "
                                        "ORDER BY 2 DESC, 1"}).text
    first = sql(warehouse, "SELECT family, count(*) FROM claims GROUP BY 1 ORDER BY 2 DESC, 1")[0]
    assert re.search(rf"<td>{first[0]}</td><td>{first[1]}</td>", page)
    for query, said in (("DELETE FROM claims", "refused: `claims sql` only reads"),
                        ("SELECT 1; SELECT 2", "one statement at a time"),
                        ("SELECT * FROM read_text('/etc/hostname')", "refused"),
                        ("SET threads = 1", "refused")):
        page = web.get("/sql", params={"q": query}).text
        error = re.search(r'id="sql-error">(.*?)</p>', page, re.S)
        assert error and said in html.unescape(error.group(1)), query


def test_sql_page_stops_at_its_time_limit(web):
    slow = "SELECT sum(hash(a.range * b.range)) FROM range(100000) a, range(100000) b"
    r = web.get("/sql", params={"q": slow})
    assert "ran past the 1 s limit" in r.text
    assert r.elapsed.total_seconds() < 20
    assert "<td>1</td>" in web.get("/sql", params={"q": "SELECT 1"}).text   # still answers


def test_nothing_writes(web, warehouse):
    before = hashlib.sha256(warehouse.read_bytes()).hexdigest()
    for path in ("/", "/claims", "/sql", "/check", "/documents", "/views/conflicts"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            r = web.request(method, path, content=b"q=DELETE FROM claims")
            assert r.status_code == 405, (method, path)
    web.get("/sql", params={"q": "CREATE TABLE x AS SELECT 1"})
    web.get("/sql", params={"q": "COPY claims TO '/tmp/x.csv'"})
    web.get("/sql", params={"q": "ATTACH '/tmp/other.duckdb'"})
    assert hashlib.sha256(warehouse.read_bytes()).hexdigest() == before
    assert sql(warehouse, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'x'")[0][0] == 0


def test_only_loopback_names_are_answered(web):
    """A page elsewhere cannot read the warehouse through a DNS name rebound to 127.0.0.1."""
    assert web.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert web.get("/", headers={"Host": "localhost"}).status_code == 200


def test_another_host_is_warned_about(warehouse):
    with running(warehouse, "--host", "0.0.0.0") as (base, proc):
        port = base.rsplit(":", 1)[1]
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200
    assert "warning: serving on 0.0.0.0" in proc.err


def test_user_errors_are_one_line(run_cli, tmp_path, warehouse):
    proc = run_cli("serve", "--db", str(tmp_path / "none.duckdb"), cwd=REPO)
    assert proc.returncode == 2 and proc.stderr.startswith("error: no database at")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = run_cli("serve", "--db", str(warehouse), "--port", str(port), cwd=REPO)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_the_command_default_time_limit_is_the_app_one():
    from pipeline.cli import SERVE_SQL_TIMEOUT
    from pipeline.serve.app import SQL_TIMEOUT

    assert SERVE_SQL_TIMEOUT == SQL_TIMEOUT
