"""Hostile text never runs in `claims serve`'s pages (a real headless Chromium).

Documents whose titles, publishers, addresses, file names, stored text and so quotes
carry script tags, ``javascript:`` links and event attributes. Every script among them
would set ``window.__pwned``. Each page is loaded twice: as served (its
Content-Security-Policy forbids scripts) and with that header removed, so escaping alone
is what is tested the second time. The flag must stay unset, the DOM must hold no element
or attribute the text tried to make, and the text must still be shown, as text.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.store import Store
from serve_kit import base, chrome, shots_folder  # noqa: F401 (fixtures)

MANIFEST = '''path,role,publisher,title,url,date
a.md,primary,"Lab<script>window.__pwned='publisher'</script>","<img src=x onerror=""window.__pwned='title'""><script>window.__pwned='title2'</script>",javascript:window.__pwned='url',2025-01-01
b.txt,secondary,"""><svg onload=""window.__pwned='svg'"">",B <iframe srcdoc='<script>parent.__pwned=1</script>'></iframe>,"https://example.com/x?a=""><script>window.__pwned='q'</script>",2025-02-01
'''
DOCS = {
    "a.md": "# A <script>window.__pwned='h1'</script>\n\nOn one H100, vLLM "
            "<script>window.__pwned='quote'</script> serves Llama-3-8B at 120 tokens/s per user "
            "<img src=x onerror=\"window.__pwned='img'\">. See [this](javascript:window.__pwned='md').\n",
    "b.txt": "A blog <b onmouseover=\"window.__pwned='b'\">says</b> vLLM serves Llama-3-8B at 150 "
             "tokens/s per user on one H100 <a href=\"javascript:window.__pwned='a'\">here</a>.\n",
    "c<svg onload=window.__pwned=7>.txt": "Another post: vLLM serves Llama-3-8B at 150 tokens/s "
                                          "per user on one H100 <style>*{display:none}</style>.\n",
}
HEADLINE = "vLLM serves Llama-3-8B at 150 tokens/s per user <script>window.__pwned='check'</script>"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, run_cli) -> Path:
    tmp = tmp_path_factory.mktemp("serve_hostile")
    corpus = tmp / "c"
    corpus.mkdir()
    (corpus / "sources.csv").write_text(MANIFEST)
    for name, text in DOCS.items():
        (corpus / name).write_text(text)
    run_cli("ingest", "c", "--db", "w.duckdb", "-q", cwd=tmp, check=True)
    return tmp / "w.duckdb"


def pages(warehouse: Path) -> list[str]:
    with Store.open(warehouse, read_only=True) as store:
        claims = [r[0] for r in store.con.execute("SELECT id FROM claims ORDER BY id").fetchall()]
        docs = [r[0] for r in store.con.execute("SELECT id FROM documents ORDER BY id").fetchall()]
    assert len(claims) >= 3 and len(docs) == 3
    return (["/", "/claims", "/claims?q=script", "/documents", "/views/conflicts",
             "/views/unsourced", "/views/mismatches", "/views/derived",
             "/check?q=" + HEADLINE.replace(" ", "+"),
             "/sql?q=SELECT+title,+publisher,+url,+path,+text+FROM+documents"]
            + [f"/claims/{c}" for c in claims] + [f"/documents/{d}" for d in docs])


# every element and attribute the hostile text tries to make, and javascript: links
SNIFF = """() => ({
  pwned: window.__pwned === undefined ? null : String(window.__pwned),
  scripts: document.querySelectorAll('script').length,
  frames: document.querySelectorAll('iframe, object, embed').length,
  svgs: document.querySelectorAll('svg').length,
  imgs: document.querySelectorAll('img').length,
  styles: document.querySelectorAll('body style').length,
  handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes]
      .filter(a => a.name.startsWith('on')).map(a => e.tagName + ' ' + a.name)),
  jsLinks: [...document.querySelectorAll('body [href], body [src], body [action]')]
      .map(e => e.getAttribute('href') || e.getAttribute('src') || e.getAttribute('action'))
      .filter(v => /^\\s*(javascript|data|vbscript):/i.test(v)),
  text: document.body.innerText + [...document.querySelectorAll('input, textarea')]
      .map(e => e.value).join(' '),
})"""


@pytest.mark.parametrize("csp", ["as served", "removed"])
def test_hostile_text_is_shown_and_never_runs(chrome, base, warehouse, csp, tmp_path_factory):
    context = chrome.new_context()
    if csp == "removed":
        def strip(route):
            response = route.fetch()
            headers = {k: v for k, v in response.headers.items()
                       if k.lower() != "content-security-policy"}
            route.fulfill(response=response, headers=headers)

        context.route("**/*", strip)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    shown = ""
    try:
        for path in pages(warehouse):
            r = page.goto(base + path)
            assert r.status == 200, path
            if csp == "removed":
                assert "content-security-policy" not in r.headers
            found = page.evaluate(SNIFF)
            assert found["pwned"] is None, (path, found["pwned"])
            for key in ("scripts", "frames", "svgs", "imgs", "styles"):
                assert found[key] == 0, (path, key)
            assert found["handlers"] == [] and found["jsLinks"] == [], path
            shown += found["text"]
        assert errors == []
        # the text was shown as text, not dropped
        for piece in ("<script>window.__pwned='quote'</script>", "onerror=\"window.__pwned='img'\"",
                      "javascript:window.__pwned='url'", "<iframe srcdoc=",
                      "<svg onload=window.__pwned=7>", "<b onmouseover=",
                      "<script>window.__pwned='check'</script>"):
            assert piece in shown, piece
        if csp == "removed":
            page.goto(base + "/claims?q=script")
            page.screenshot(path=str(shots_folder(tmp_path_factory) / "hostile-claims.png"),
                            full_page=True)
    finally:
        context.close()


def test_a_document_address_is_a_link_only_when_it_is_http(chrome, base, warehouse):
    with Store.open(warehouse, read_only=True) as store:
        ids = dict(store.con.execute("SELECT path, id FROM documents").fetchall())
    page = chrome.new_page()
    try:
        page.goto(f"{base}/documents/{ids['a.md']}")
        assert page.locator("a", has_text="javascript:").count() == 0
        assert page.inner_text(".url-text") == "javascript:window.__pwned='url'"
        page.goto(f"{base}/documents/{ids['b.txt']}")
        href = page.locator("#document a[rel~=noopener]").get_attribute("href")
        assert href.startswith("https://example.com/x?a=%22%3E%3Cscript%3E")
        assert re.search(r"[<>\"' ]", href) is None
    finally:
        page.close()
