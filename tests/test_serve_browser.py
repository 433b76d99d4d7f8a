"""`claims serve` in a real headless Chromium (Debian's, driven by Playwright): every page
of the demo corpus loads and is screenshotted, then a person's path through it: apply a
facet, open a trace, open a document, run a check, run a query. Assertions are on the
rendered DOM and held to the warehouse (SQL) and to `claims check`.

Screenshots go to $CLAIMS_SCREENSHOTS, else a pytest temporary folder (printed; see
docs/serve.md). Skipped without chromium or playwright, unless CI=true.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO
from pipeline.check import check
from pipeline.record import open_record
from pipeline.store import Store
from pipeline.trace import trace
from serve_kit import base, chrome, shots_folder  # noqa: F401 (fixtures)

HEADLINE = "DeepSeek-V4.1-Flash reaches 826 tokens/s per user"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, run_cli) -> Path:
    db = tmp_path_factory.mktemp("serve_browser") / "demo.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    return db


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return shots_folder(tmp_path_factory)


@pytest.fixture
def page(chrome):
    context = chrome.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.errors = errors
    yield p
    context.close()


def sql(db: Path, query: str, params=None) -> list[tuple]:
    with Store.open(db, read_only=True) as store:
        return store.con.execute(query, params or []).fetchall()


def shoot(page, shots: Path, name: str) -> Path:
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5000
    return path


@pytest.mark.parametrize("name,path", [
    ("home", "/"), ("claims", "/claims"), ("documents", "/documents"),
    ("conflicts", "/views/conflicts"), ("unsourced", "/views/unsourced"),
    ("mismatches", "/views/mismatches"), ("derived", "/views/derived"), ("check", "/check"),
    ("sql", "/sql?q=SELECT+family%2C+count(*)+AS+n+FROM+claims+GROUP+BY+1+ORDER+BY+2+DESC"),
])
def test_each_page_renders_styled(page, base, shots, name, path):
    r = page.goto(base + path)
    assert r.status == 200
    assert page.locator("main h2").first.is_visible()
    # both stylesheets applied (served from the app itself, nothing from outside)
    assert page.eval_on_selector("header", "e => getComputedStyle(e).backgroundColor") \
        == "rgb(246, 248, 250)"
    assert page.eval_on_selector("nav a", "e => getComputedStyle(e).fontWeight") == "600"
    assert page.errors == []
    shoot(page, shots, name)


def test_apply_a_facet_then_open_a_trace(page, base, shots, warehouse):
    page.goto(base + "/claims")
    page.locator("#facet-family a", has_text=re.compile(r"^token_throughput$")).click()
    page.wait_for_url(re.compile(r"family=token_throughput"))
    want = sql(warehouse, "SELECT count(*) FROM claims WHERE family = 'token_throughput'")[0][0]
    assert page.inner_text("#total") == f"{want:,}"
    assert page.locator("#facet-family li.selected").inner_text().startswith("✕ token_throughput")
    rows = page.locator("table.claims tbody tr")
    assert rows.count() == want
    shoot(page, shots, "claims-facet")
    # the highlighted figure of the first row is that claim's surface
    first = rows.first
    cid = first.get_attribute("id")[2:]
    surface = sql(warehouse, "SELECT surface FROM claims WHERE id = ?", [cid])[0][0]
    assert first.locator("mark").inner_text() == surface
    first.locator("a.trace").click()
    page.wait_for_url(re.compile(f"/claims/{cid}$"))
    assert page.inner_text("#trace h2 .figure") == surface
    assert page.inner_text("#trace .main-quote mark") == surface
    page.click("#story summary")
    assert page.locator("#story pre").inner_text().strip().startswith("story")
    shoot(page, shots, "trace")


def test_trace_of_a_linked_secondary_figure(page, base, shots, warehouse):
    cid = sql(warehouse, "SELECT id FROM claims_full WHERE doc_role = 'secondary' AND id IN "
                         "(SELECT src FROM links UNION SELECT dst FROM links) ORDER BY id LIMIT 1")[0][0]
    want = trace(cid, open_record(str(warehouse))).to_dict()
    page.goto(f"{base}/claims/{cid}")
    assert page.inner_text("#verdict .verdict").lower() == want["verdict"]["verdict"]
    steps = page.locator("#links article.step")
    assert steps.count() == len(want["links"]) > 0
    # both quotes side by side, each with its figure marked
    assert steps.first.locator(".pair > div").count() == 2
    assert steps.first.locator("mark").count() == 2
    box = [steps.first.locator(".pair > div").nth(i).bounding_box() for i in (0, 1)]
    assert box[0]["y"] == box[1]["y"] and box[0]["x"] < box[1]["x"]
    # the story: the chain from its first appearance down to this figure, each linked
    chain = [x["id"] for x in want["story"]["path"]]
    links = page.locator("#story-path li a.claim")
    assert [a.get_attribute("href") for a in links.all()] == [f"/claims/{x}" for x in chain]
    assert len(chain) > 1 and chain[-1] == cid
    shoot(page, shots, "trace-linked")


def test_document_page_highlights_every_claim(page, base, shots, warehouse):
    doc_id, path, n = sql(warehouse, "SELECT doc_id, any_value(doc_path), count(*) FROM claims_full "
                                     "GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 1")[0]
    page.goto(base + "/documents")
    page.locator("a.doc", has_text=path).first.click()
    page.wait_for_url(re.compile(f"/documents/{doc_id}$"))
    assert page.locator(".doctext a.fig mark").count() == n
    assert page.locator("#doc-claims tbody tr").count() == n
    shoot(page, shots, "document")


def test_run_a_check(page, base, shots, warehouse):
    want = check(HEADLINE, str(warehouse)).to_dict()      # what `claims check` prints
    page.goto(base + "/check")
    page.fill("#headline", HEADLINE)
    page.click("#check-button")
    page.wait_for_selector("#verdict")
    assert page.inner_text("#verdict .verdict").lower() == want["verdict"]
    assert page.inner_text("#verdict .explanation") == want["explanation"]
    assert page.locator("#verdict table.evidence tbody tr").count() == len(want["evidence"])
    shoot(page, shots, "check-result")


def test_run_a_query(page, base, warehouse):
    page.goto(base + "/sql")
    page.fill("textarea[name=q]", "SELECT role, count(*) AS n FROM documents GROUP BY 1 ORDER BY 1")
    page.click("form.sql button")
    page.wait_for_selector("table.sql-result")
    cells = page.locator("table.sql-result tbody tr").all_inner_texts()
    want = sql(warehouse, "SELECT role, count(*) FROM documents GROUP BY 1 ORDER BY 1")
    assert [c.split("\t") for c in cells] == [[r, str(n)] for r, n in want]
