"""Property tests on the web side's parsers (issue 7's fuzzing, issue 8's inputs): feeds,
addresses, response sniffing and robots.txt take anything a stranger's server can send
and answer with a value or FetchError, never another exception."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline.ingest.feeds import is_feed, parse_feed
from pipeline.ingest.robots import Robots
from pipeline.ingest.web import FetchError, Fetched, Refused, check_address, redact, web_format

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_xml_piece = st.one_of(
    st.sampled_from(["<?xml version='1.0'?>", "<rss>", "</rss>", "<channel>", "</channel>",
                     "<item>", "</item>", "<link>", "</link>", "<title>", "</title>",
                     "<feed xmlns='http://www.w3.org/2005/Atom'>", "</feed>", "<entry>",
                     "</entry>", "<link href='/x'/>", "<link rel='self' href='//h/y'/>",
                     "<guid isPermaLink='false'>", "</guid>", "<pubDate>", "</pubDate>",
                     "Tue, 09 Jan 2024 10:00:00 GMT", "2024-13-99", "<!DOCTYPE rss [",
                     "<!ENTITY e 'x'>", "]>", "&e;", "&amp;", "<![CDATA[", "]]>",
                     "<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>",
                     "http://a.b/c", "javascript:alert(1)", "\x00", "<!--", "-->"]),
    st.text(max_size=20),
)


@FUZZ
@given(st.lists(_xml_piece, max_size=40), st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_feed_soup(pieces, codec):
    body = "".join(pieces).encode(codec, errors="replace")
    assert is_feed(body) in (True, False)
    try:
        feed = parse_feed(body, "https://site.example/feed.xml")
    except FetchError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    for item in feed.items:
        assert isinstance(item.link, str) and item.link
        assert item.published is None or len(item.published) == 10


@FUZZ
@given(st.binary(max_size=800))
def test_feed_random_bytes(body):
    is_feed(body)
    try:
        parse_feed(body, "http://x.example/")
    except FetchError:
        pass


@FUZZ
@given(st.one_of(st.text(max_size=80),
                 st.builds(lambda s, rest: s + "://" + rest,
                           st.sampled_from(["http", "https", "HTTP", "ftp", "file", "javascript"]),
                           st.text(max_size=60))))
def test_any_address_is_checked_or_refused(text):
    try:
        url = check_address(text)
    except FetchError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert url.startswith(("http://", "https://")) and "@" not in url.split("/")[2]
    assert isinstance(redact(text), str)


@FUZZ
@given(st.binary(max_size=600),
       st.sampled_from(["", "text/html", "text/plain", "application/pdf", "image/png",
                        "application/json", "text/markdown", "application/octet-stream"]),
       st.sampled_from(["http://x/a", "http://x/a.md", "http://x/a.pdf?x=1.5"]))
def test_any_response_is_sniffed_or_refused(body, ctype, url):
    try:
        assert web_format(body, ctype, url) in ("html", "pdf", "markdown", "text")
    except FetchError as exc:
        assert str(exc) and "\n" not in str(exc)


@FUZZ
@given(st.binary(max_size=600), st.sampled_from(["/", "/a", "/private/x", "/%ZZ", "/?q=1"]))
def test_any_robots_txt(body, path):
    class One:
        def get(self, url, max_bytes=None, robots=True):
            return Fetched(url, url, 200, {}, body)

    robots = Robots(One())
    try:
        assert robots.allowed("https://site.example" + path) in (True, False)
    except Refused:
        pass
    assert robots.crawl_delay("https://site.example/") >= 0
