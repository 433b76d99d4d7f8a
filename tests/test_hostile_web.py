"""Hostile web servers (issue 15, part 5), against a site on 127.0.0.1 only: headers
dripped a line at a time, `Content-Encoding: gzip, gzip` bombs, long Retry-After, a huge
robots.txt, a feed longer than the item cap, an endless --urls file, and link-local /
cloud-metadata addresses under --allow-private (refused before any connection: the test
replaces the socket connect, so nothing leaves the machine)."""
from __future__ import annotations

import gzip
import resource
import threading
import time
import zlib
from http.server import ThreadingHTTPServer

import httpcore
import pytest

from fixtures.web.server import Handler, Site
from pipeline.ingest.web import FetchError, Fetcher, Refused, WebOptions
from pipeline.run import ingest_paths
from pipeline.store import Store

FAST = dict(allow_private=True, delay=0, timeout=0.5, backoff=0.01)


def _bomb(inner_mb: int) -> bytes:
    """gzip(gzip(inner_mb MB of zeros)): a couple of KB on the wire."""
    z = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(1 << 20)
    inner = b"".join(z.compress(block) for _ in range(inner_mb)) + z.flush()
    return gzip.compress(inner, 9)


class Hostile(Handler):
    bomb = b""

    def r_drip_headers(self):
        self.hit.status = 200
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            for i in range(60):
                self.wfile.write(f"X-Drip-{i}: {'y' * 10}\r\n".encode())
                self.wfile.flush()
                time.sleep(0.3)
        except OSError:
            pass

    def r_huge_header(self):
        """One header line of 64 MB, sent as fast as the socket takes it."""
        self.hit.status = 200
        try:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Big: ")
            for _ in range(64):
                self.wfile.write(b"a" * (1 << 20))
            self.wfile.write(b"\r\n\r\n")
        except OSError:
            pass

    def r_double_gzip(self):
        self.send(200, self.bomb, "text/html", headers={"Content-Encoding": "gzip, gzip"})

    def r_triple_gzip(self):
        body = gzip.compress(gzip.compress(gzip.compress(b"<p>3 ms</p>")))
        self.send(200, body, "text/html", headers={"Content-Encoding": "gzip, gzip, gzip"})

    def r_two_layers_ok(self):
        body = gzip.compress(zlib.compress(b"<html><body><p>Nested 9 ms.</p></body></html>"))
        self.send(200, body, "text/html", headers={"Content-Encoding": "deflate, gzip"})

    def r_long_retry(self):
        self.send(503, b"busy", "text/plain", headers={"Retry-After": "119"})

    def r_retry_20(self):
        self.send(503, b"busy", "text/plain", headers={"Retry-After": "20"})

    def r_many_feed(self):
        items = "".join(f"<item><title>P{i}</title><link>{self.site.base}/post{i}</link></item>"
                        for i in range(5))
        self.send(200, f'<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title>'
                       f'{items}</channel></rss>'.encode(), "application/rss+xml")

    def do_GET(self):  # noqa: N802
        if self.path.startswith("/post"):
            self.hit = None
            n = self.path[5:]
            body = f"<html><body><p>Post {n} reports {n}1 ms.</p></body></html>".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path == "/robots.txt" and self.site.counters.get("big_robots"):
            body = b"User-agent: *\nDisallow: /nope\n" + b"# padding\n" * 70_000
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


@pytest.fixture(scope="module")
def site():
    Hostile.bomb = _bomb(512)
    s = Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("H", (Hostile,), {"site": s}))
    server.daemon_threads = True
    server.handle_error = lambda request, address: None
    s.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield s
    server.shutdown()



def test_headers_dripped_a_line_at_a_time_stop_at_the_deadline(fresh):
    with Fetcher(WebOptions(**FAST)) as f:           # 0.5 s per read, 2 s in all
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"download too slow: gave up after 2 s \(the whole "
                                             r"exchange, headers included"):
            f.get(f"{fresh.base}/drip-headers")
        took = time.monotonic() - started
    assert took < 4, took          # was: no end while the server kept dripping


def test_a_huge_header_line_is_refused_not_held(fresh):
    """A server that sends one endless header line: refused once the line passes the HTTP
    parser's buffer (h11's 16 KB for an incomplete event), never read into memory."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with Fetcher(WebOptions(**FAST)) as f:
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"broken HTTP response"):
            f.get(f"{fresh.base}/huge-header")
    assert time.monotonic() - started < 4
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 32 * 1024   # KB


def test_gzip_gzip_bomb_is_refused_early_under_one_budget(fresh):
    assert len(Hostile.bomb) < 4096                  # 512 MB of zeros inside
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with Fetcher(WebOptions(**FAST, max_bytes=1 << 20)) as f:
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"too large: more than the 1 MB limit once decoded "
                                             r"\(Content-Encoding: gzip, gzip"):
            f.get(f"{fresh.base}/double-gzip")
        took = time.monotonic() - started
    grew_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
    assert took < 2, took
    assert grew_mb < 64, grew_mb


def test_content_encoding_layers_decode_and_too_many_are_refused(fresh):
    with Fetcher(WebOptions(**FAST)) as f:
        assert b"Nested 9 ms." in f.get(f"{fresh.base}/two-layers-ok").body
        with pytest.raises(FetchError, match=r"3 layers .* more than 2 is refused"):
            f.get(f"{fresh.base}/triple-gzip")


def test_retry_after_is_capped_in_all(fresh):
    slept: list[float] = []
    with Fetcher(WebOptions(**{**FAST, "backoff": 1.0}), sleep=slept.append) as f:
        with pytest.raises(FetchError, match=r"HTTP 503; the server asks to retry after 119 s: "
                                             r"try again later \(one address is waited for 30 s"):
            f.get(f"{fresh.base}/long-retry")
        assert slept == []                           # was: 3 x 119 s
        with pytest.raises(FetchError, match=r"retry after 20 s"):
            f.get(f"{fresh.base}/retry-20")
        assert slept == [20.0]                        # the second 20 s would pass 30 s in all
    assert [h.path for h in fresh.hits if h and h.path != "/robots.txt"] == \
        ["/long-retry", "/retry-20", "/retry-20"]


def test_a_robots_txt_over_the_limit_is_read_up_to_it_not_blamed_on_the_page(fresh):
    fresh.counters["big_robots"] = 1
    with Fetcher(WebOptions(**{**FAST, "timeout": 2})) as f:
        assert f.get(f"{fresh.base}/post3").status == 200          # 700 KB robots.txt
        with pytest.raises(Refused, match="robots.txt disallows it"):
            f.get(f"{fresh.base}/nope")


def test_feed_items_left_out_are_reported(fresh, tmp_path):
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([], store, workers=0, extract=lambda d: [],
                               urls=[f"{fresh.base}/many-feed"],
                               web=WebOptions(**{**FAST, "max_feed_items": 2}))
    assert summary.new == 2
    assert summary.cut_feeds == [(f"{fresh.base}/many-feed", 5, 2)]
    assert "; 3 feed items left out (over --max-feed-items); " in summary.line()


def test_urls_file_is_capped(tmp_path, run_cli):
    started = time.monotonic()
    p = run_cli("ingest", "--urls", "/dev/zero", "--db", "w.duckdb", cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.strip() == ("error: the --urls file /dev/zero is over 16 MB: not a list of "
                                "addresses (split it into smaller files)")
    assert time.monotonic() - started < 10
    (tmp_path / "nul.txt").write_bytes(b"http://127.0.0.1/\0\n")
    p = run_cli("ingest", "--urls", "nul.txt", "--db", "w.duckdb", cwd=tmp_path)
    assert p.returncode == 2 and "holds NUL bytes" in p.stderr


@pytest.fixture
def no_sockets(monkeypatch):
    """Every outgoing TCP connection attempt recorded and refused (nothing leaves)."""
    tried: list[str] = []

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        tried.append(host)
        raise httpcore.ConnectError("no connection in this test")

    monkeypatch.setattr(httpcore.SyncBackend, "connect_tcp", connect_tcp)
    return tried


@pytest.mark.parametrize("address, kind", [
    ("http://169.254.169.254/latest/meta-data/", "a cloud metadata address"),
    ("http://[fd00:ec2::254]/", "a cloud metadata address"),
    ("http://169.254.10.1/", "a link-local address"),
    ("http://[fe80::1]/", "a link-local address"),
])
def test_allow_private_still_refuses_link_local_and_metadata(no_sockets, address, kind):
    with Fetcher(WebOptions(allow_private=True, delay=0, timeout=0.5, robots=False)) as f:
        with pytest.raises(Refused, match=rf"is {kind}: not fetched \(use --allow-private "
                                          r"--allow-link-local"):
            f.get(address)
    assert no_sockets == []
    # named explicitly, the connection is attempted (and refused here by the stub)
    with Fetcher(WebOptions(allow_private=True, allow_link_local=True, delay=0, timeout=0.5,
                            robots=False)) as f:
        with pytest.raises(FetchError, match="cannot connect"):
            f.get(address)
    assert len(no_sockets) == 1
    # without --allow-private, --allow-link-local alone opens nothing
    with Fetcher(WebOptions(allow_link_local=True, delay=0, timeout=0.5, robots=False)) as f:
        with pytest.raises(Refused):
            f.get(address)
    assert len(no_sockets) == 1
