"""Property tests on every ingester (issue 7): random bytes, tag soup, and real files from
shared/corpus/real (read at test time) cut short or mutated. Whatever goes in, the
ingester returns a Document or raises IngestError, never anything else; the text is a
str that DuckDB can store (no NUL, no lone surrogate); pages tile the text in order."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from pipeline.ingest import IngestError, content_id, html, ingest_bytes, markdown, pdf, text
from pipeline.ingest.limits import MB, Limits, using
from pipeline.ingest.sniff import detect, sniff
from pipeline.ingest.text import Parsed, decode

from test_ingest_limits import TEXT_OP, minimal_pdf

def fuzz(n: int, shrink: bool = True) -> settings:
    """``n`` examples; without ``shrink`` a failure is reported as found (shrinking a
    mutated 500 KB PDF takes minutes)."""
    phases = list(Phase) if shrink else [Phase.explicit, Phase.reuse, Phase.generate]
    return settings(max_examples=n, deadline=None, phases=phases,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
NAMES = ["doc.txt", "doc.md", "doc.html", "doc.pdf", "doc", "page.htm", "notes.text"]
PARSERS = {"text": text.parse, "markdown": markdown.parse, "html": html.parse, "pdf": pdf.parse}
# small limits keep a random "PDF" from spending long in pdfminer
SMALL = Limits(max_file_bytes=4 * MB, max_pdf_pages=50, max_inflate_bytes=8 * MB)


def check_parsed(parsed: Parsed) -> None:
    assert isinstance(parsed.text, str)
    assert "\x00" not in parsed.text
    assert not any("\ud800" <= c <= "\udfff" for c in parsed.text)
    for value in (parsed.title, parsed.publisher, parsed.url, parsed.published, parsed.author):
        assert value is None or (isinstance(value, str) and "\n" not in value)
    json.dumps(parsed.meta, default=str)
    check_pages(parsed.pages, len(parsed.text))


def check_pages(pages, n_chars: int) -> None:
    assert [p.number for p in pages] == list(range(1, len(pages) + 1))
    end = 0
    for p in pages:
        assert end <= p.start <= p.end <= n_chars
        end = p.end


def check_ingest(data: bytes, name: str) -> None:
    """ingest_bytes returns a consistent Document or raises IngestError with one line."""
    try:
        doc = ingest_bytes(data, name)
    except IngestError as exc:
        reason = str(exc)
        assert reason and "\n" not in reason
        return
    assert doc.id == content_id(data) and doc.text.strip()
    assert doc.format in ("text", "markdown", "html", "pdf")
    check_parsed(Parsed(doc.text, doc.format, doc.title, doc.publisher, doc.url,
                        doc.published, doc.author, pages=doc.pages, meta=doc.meta))
    assert (doc.format == "pdf") == bool(doc.pages)
    if doc.pages:       # pages tile the text: page, separator, page, ...
        assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
        for a, b in zip(doc.pages, doc.pages[1:]):
            assert b.start == a.end + len(pdf.PAGE_SEPARATOR)


def run_parser(fmt: str, data: bytes) -> None:
    try:
        parsed = PARSERS[fmt](data)
    except IngestError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    check_parsed(parsed)


# --- random input -----------------------------------------------------------------------

@fuzz(60)
@given(st.binary(max_size=3000), st.sampled_from(NAMES))
def test_random_bytes_through_ingest(data, name):
    with using(SMALL):
        check_ingest(data, name)


@fuzz(40)
@given(st.sampled_from(sorted(PARSERS)), st.binary(max_size=2000))
def test_random_bytes_through_each_parser(fmt, data):
    with using(SMALL):
        run_parser(fmt, data)


@fuzz(60)
@given(st.binary(max_size=600))
def test_sniff_and_detect_never_fail_unexpectedly(head):
    assert sniff(head) in ("pdf", "html", "markdown", "text", "script", "binary", "empty")
    for name in NAMES:
        try:
            assert detect(Path(name), head) in PARSERS
        except IngestError:
            pass
    assert isinstance(decode(head).text, str)


_TAGS = ["html", "head", "body", "title", "meta", "p", "div", "span", "table", "tr", "td", "th",
         "script", "style", "article", "nav", "footer", "h1", "h2", "li", "ul", "br", "a", "pre",
         "!--", "![CDATA[", "?xml", "svg", "template", "iframe"]
_soup_piece = st.one_of(
    st.sampled_from(_TAGS).map(lambda t: f"<{t}>"),
    st.sampled_from(_TAGS).map(lambda t: f"</{t}>"),
    st.sampled_from(["<meta charset='utf-16'>", "<meta charset=\"bogus\">",
                     "<meta property='og:title' content='T\n2'>", "<link rel=canonical href=x>",
                     "<time datetime='2024-02-30'>", "&amp;", "&#0;", "&#xD800;", "&bogus;",
                     "<p class='cookie-banner'>", "<!DOCTYPE html>", "\x00", "\r\n", "-->"]),
    st.text(max_size=40),
    st.sampled_from(["It reached 1,234 tokens/s.", "| a | b |", "P90 TTFT 120 ms"]),
)


@fuzz(60)
@given(st.lists(_soup_piece, max_size=60), st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_tag_soup_through_html(pieces, codec):
    data = "".join(pieces).encode(codec, errors="replace")
    run_parser("html", data)
    check_ingest(data, "soup.html")


_md_piece = st.one_of(
    st.sampled_from(["---\n", "+++\n", "title: x\n", "date: [\n", "role: primary\n",
                     "role: nonsense\n", "title = 'x'\n", "# Head\n", "| a | b |\n", "\n",
                     "author:\n  - name: A\n", "date: 2024-13-45\n", "!!python/object:os.system\n",
                     "*a\n", "&a [*a, *a]\n", "\t", "\x00", "\ufeff"]),
    st.text(max_size=30),
)


@fuzz(60)
@given(st.lists(_md_piece, max_size=30))
def test_front_matter_soup_through_markdown(pieces):
    data = "".join(pieces).encode("utf-8", errors="replace")
    run_parser("markdown", data)
    check_ingest(data, "post.md")


@fuzz(25)
@given(st.data())
def test_mutated_minimal_pdf(data):
    base = minimal_pdf(TEXT_OP)
    mutated = _mutate(base, data)
    with using(SMALL):
        run_parser("pdf", mutated)
        check_ingest(mutated, "m.pdf")


# --- real files, cut short or mutated ----------------------------------------------------

def _mutate(blob: bytes, data: st.DataObject) -> bytes:
    """A few random edits: flip, insert, delete, duplicate a span, overwrite with noise."""
    out = bytearray(blob)
    for _ in range(data.draw(st.integers(1, 6), label="edits")):
        if not out:
            break
        i = data.draw(st.integers(0, len(out) - 1), label="at")
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "dup", "noise"]), label="op")
        n = data.draw(st.integers(1, 64), label="n")
        if op == "flip":
            out[i] ^= 1 << data.draw(st.integers(0, 7), label="bit")
        elif op == "insert":
            out[i:i] = data.draw(st.binary(min_size=1, max_size=n), label="bytes")
        elif op == "delete":
            del out[i:i + n]
        elif op == "dup":
            out[i:i] = out[i:i + n]
        else:
            out[i:i + n] = data.draw(st.binary(min_size=n, max_size=n), label="noise")
    return bytes(out)


def _pick(files: list[tuple[str, bytes]], data: st.DataObject) -> bytes:
    """One real file, drawn by name (so a failure report names it, not its bytes)."""
    name = data.draw(st.sampled_from([n for n, _ in files]), label="file")
    return dict(files)[name]


@pytest.fixture(scope="module")
def real_files(REAL):
    files = sorted(p for p in REAL.rglob("*") if p.suffix in (".md", ".pdf"))
    texts = [p for p in files if p.suffix == ".md"]
    # the smaller, faster PDFs: pdfminer on a damaged 2 MB deck is slow enough already
    pdfs = sorted((p for p in files if p.suffix == ".pdf"), key=lambda p: p.stat().st_size)[:3]
    assert texts and pdfs
    return {kind: [(p.relative_to(REAL).as_posix(), p.read_bytes()) for p in group]
            for kind, group in (("md", texts), ("pdf", pdfs))}


@fuzz(40)
@given(st.data())
def test_truncated_real_markdown(real_files, data):
    blob = _pick(real_files["md"], data)
    cut = data.draw(st.integers(0, len(blob)), label="cut")
    name = data.draw(st.sampled_from(["a.md", "a.txt", "a.html", "a"]), label="name")
    check_ingest(blob[:cut], name)


@fuzz(40)
@given(st.data())
def test_mutated_real_markdown(real_files, data):
    blob = _pick(real_files["md"], data)
    check_ingest(_mutate(blob, data), data.draw(st.sampled_from(["a.md", "a.txt"]), label="name"))


@fuzz(12, shrink=False)
@given(st.data())
def test_truncated_real_pdf(real_files, data):
    blob = _pick(real_files["pdf"], data)
    cut = data.draw(st.integers(0, len(blob)), label="cut")
    with using(SMALL):
        check_ingest(blob[:cut], "deck.pdf")


@fuzz(12, shrink=False)
@given(st.data())
def test_mutated_real_pdf(real_files, data):
    blob = _pick(real_files["pdf"], data)
    with using(SMALL):
        check_ingest(_mutate(blob, data), "deck.pdf")
