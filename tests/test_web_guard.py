"""The web fetcher's rules without a network: which addresses are refused, how robots.txt
answers are read, what a response is read as, how feeds are parsed (safely)."""
from __future__ import annotations

import ipaddress

import pytest

from pipeline.ingest import web
from pipeline.ingest.feeds import is_feed, parse_feed
from pipeline.ingest.robots import Robots
from pipeline.ingest.web import (FetchError, Fetched, Refused, _retry_after, check_address,
                                 ip_problem, is_address, redact, web_format)


@pytest.mark.parametrize("ip, problem", [
    ("127.0.0.1", "a loopback address"), ("::1", "a loopback address"),
    ("::ffff:127.0.0.1", "a loopback address"), ("10.1.2.3", "a private address"),
    ("172.16.0.1", "a private address"), ("192.168.1.1", "a private address"),
    ("fc00::1", "a private address"), ("169.254.1.1", "a link-local address"),
    ("fe80::1", "a link-local address"), ("169.254.169.254", "a cloud metadata address"),
    ("fd00:ec2::254", "a cloud metadata address"), ("100.100.100.200", "a cloud metadata address"),
    ("192.0.0.192", "a cloud metadata address"), ("100.64.0.1", "a reserved (non-public) address"),
    ("0.0.0.0", "a private address"), ("224.0.0.1", "a reserved (non-public) address"),
    ("8.8.8.8", None), ("2606:4700::1", None), ("93.184.215.14", None),
])
def test_private_loopback_link_local_and_metadata_ranges(ip, problem):
    assert ip_problem(ipaddress.ip_address(ip)) == problem


@pytest.mark.parametrize("address, expected", [
    ("HTTPS://Example.COM:443/a/b?x=1#part", "https://example.com/a/b?x=1"),
    ("http://example.com", "http://example.com"),
    ("http://bücher.example/", "http://xn--bcher-kva.example/"),
])
def test_addresses_are_normalised(address, expected):
    assert check_address(address) == expected


@pytest.mark.parametrize("address, message", [
    ("ftp://example.com/x", r"only http and https addresses are fetched \(not ftp\)"),
    ("file:///etc/passwd", r"\(not file\)"),
    ("gopher://x", r"\(not gopher\)"),
    ("http://user:pw@example.com/", r"user name or password: remove it"),
    ("http://user@example.com/", r"user name or password"),
    ("http:///path-only", r"not a valid web address"),
])
def test_refused_addresses(address, message):
    with pytest.raises(FetchError, match=message):
        check_address(address)


def test_is_address_and_redact():
    assert is_address("https://x.org/a") and is_address("ftp://x") and is_address(" HTTP://x ")
    assert not is_address("docs/file.md") and not is_address("C:\\docs") and not is_address("x:y")
    assert redact("https://bob:pw@x.org:8080/a?b#c") == "https://***@x.org:8080/a?b#c"
    assert redact("https://x.org/a") == "https://x.org/a"


def test_retry_after_seconds_and_dates():
    assert _retry_after("7") == 7.0 and _retry_after(None) is None and _retry_after("soon") is None
    assert _retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0      # in the past


@pytest.mark.parametrize("body, ctype, url, fmt", [
    (b"%PDF-1.7\n...", "text/html", "http://x/a", "pdf"),
    (b"<!DOCTYPE html><html><body><p>x</p>", "application/octet-stream", "http://x/a", "html"),
    (b"<p>fragment</p>", "text/html", "http://x/a", "html"),
    (b"# Title\n\ntext", "text/plain", "http://x/a", "markdown"),
    (b"plain words", "text/plain", "http://x/README.md", "markdown"),
    (b"plain words", "text/plain", "http://x/a.txt", "text"),
    (b"plain words", "", "http://x/a", "text"),
])
def test_format_is_sniffed_from_the_bytes(body, ctype, url, fmt):
    assert web_format(body, ctype, url) == fmt


@pytest.mark.parametrize("body, ctype, message", [
    (b"", "text/html", "empty response"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "image/png", r"unsupported content: PNG image \(image/png\)"),
    (b'{"a": 1}', "application/json", "unsupported content type application/json"),
])
def test_unsupported_responses(body, ctype, message):
    with pytest.raises(FetchError, match=message):
        web_format(body, ctype, "http://x/a")


# --- robots.txt -----------------------------------------------------------------------------

class StubFetcher:
    def __init__(self, answers):
        self.answers, self.asked = answers, []

    def get(self, url, max_bytes=None, robots=True):
        self.asked.append(url)
        answer = self.answers[url]
        if isinstance(answer, Exception):
            raise answer
        return Fetched(url, url, 200, {}, answer)


def test_robots_rules_for_our_token_and_crawl_delay():
    rules = b"User-agent: *\nDisallow: /private/\n\nUser-agent: claims\nDisallow: /drafts/\nCrawl-delay: 2\n"
    f = StubFetcher({"https://a.org/robots.txt": rules})
    r = Robots(f)
    assert r.allowed("https://a.org/post") and not r.allowed("https://a.org/drafts/x")
    assert r.allowed("https://a.org/private/x")          # our group replaces '*'
    assert r.crawl_delay("https://a.org/x") == 2.0
    assert r.crawl_delay("https://b.org/x") == 0.0         # unknown site: nothing fetched
    assert f.asked == ["https://a.org/robots.txt"]         # once per site


def test_robots_missing_allows_and_unreachable_refuses():
    f = StubFetcher({"https://a.org/robots.txt": FetchError("HTTP 404 Not Found", 404),
                     "https://b.org/robots.txt": FetchError("HTTP 503 Service Unavailable", 503),
                     "https://c.org/robots.txt": FetchError("cannot connect: refused")})
    r = Robots(f)
    assert r.allowed("https://a.org/x")
    with pytest.raises(Refused, match=r"robots\.txt could not be read \(HTTP 503"):
        r.allowed("https://b.org/x")
    with pytest.raises(Refused, match=r"^cannot connect: refused$"):
        r.allowed("https://c.org/x")


# --- feeds ----------------------------------------------------------------------------------

RSS1 = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>RDF site</title></channel>
  <item><title>First</title><link>http://x.org/1</link><dc:date>2024-03-04T05:06:07Z</dc:date>
    <dc:creator>Cy</dc:creator></item>
</rdf:RDF>"""


def test_rss1_feed():
    assert is_feed(RSS1)
    feed = parse_feed(RSS1, "http://x.org/index.rdf")
    assert feed.title == "RDF site"
    assert [(i.link, i.title, i.published, i.author) for i in feed.items] == [
        ("http://x.org/1", "First", "2024-03-04", "Cy")]


def test_feed_entities_are_not_expanded():
    evil = b"""<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa">
<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<rss version="2.0"><channel><title>&xxe;&c;</title>
<item><title>&xxe;</title><link>http://x.org/a</link></item></channel></rss>"""
    assert is_feed(evil)
    feed = parse_feed(evil, "http://x.org/")
    assert "root:" not in (feed.title or "") and len(feed.title or "") < 200
    assert [i.link for i in feed.items] == ["http://x.org/a"]


def test_not_a_feed():
    assert not is_feed(b"<!DOCTYPE html><html><body>x</body></html>")
    assert not is_feed(b"just text about rss")
    with pytest.raises(FetchError, match="feed not readable as XML"):
        parse_feed(b"", "http://x.org/")


def test_feed_links_resolve_and_odd_items_are_skipped():
    feed = parse_feed(b"""<rss><channel><item><title>no link</title></item>
<item><guid isPermaLink="false">tag:x,1</guid></item>
<item><link> /rel </link></item></channel></rss>""", "https://x.org/feed/")
    assert [i.link for i in feed.items] == ["https://x.org/rel"]


def test_check_address_does_not_resolve(monkeypatch):
    monkeypatch.setattr(web.socket, "getaddrinfo", lambda *a, **k: pytest.fail("resolved"))
    assert check_address("https://example.org/a") == "https://example.org/a"
