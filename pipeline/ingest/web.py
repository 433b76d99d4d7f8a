"""Web addresses -> files for the ingest flow: fetched politely, safely, with provenance.

``WebSource(addresses, options).found()`` yields the same ``Found`` records the folder walk
does: each fetched page is written to a private temporary folder under a name whose
extension says what the bytes are, so the ingest flow reads it like any file (worker
process, time limit, one transaction), and ``finish(doc)`` then gives the Document its
address and provenance. A failed address is a ``Found`` of kind ``error`` (address, one-line
reason); a page the server says is unchanged (HTTP 304 to a conditional request) is one of
kind ``unchanged``; feeds (RSS, Atom) expand into their items' links.

The HTTP client (httpx) is polite: a User-Agent naming the tool and its version,
robots.txt obeyed (``robots.py``), one request at a time with a delay per host (and a
robots Crawl-delay, when longer), connect/read timeouts and a deadline per download, a
few retries with backoff on 429 and 5xx honouring Retry-After, conditional requests with
the stored ETag / Last-Modified. It is careful: only http and https, no credentials in
addresses, redirects followed one hop at a time up to a limit (loops named), bodies
counted as they arrive and cut at the size limit (after Content-Encoding, so a gzip bomb
stops there too), and every connection checked where it is made: an address that
resolves to a loopback, private, link-local, reserved or cloud-metadata address is
refused unless ``allow_private`` (a guard against server-side request forgery, since
feeds and redirects come from strangers). The check runs on the addresses the socket is
actually opened to, so DNS answers cannot change between check and use.
"""
from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import ipaddress
import os
import re
import shutil
import socket
import ssl
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator
from urllib.parse import urljoin, urlsplit, urlunsplit

from pipeline.ingest.errors import FetchError, Refused
from pipeline.ingest.feeds import is_feed, parse_feed
from pipeline.ingest.limits import current as current_limits, size
from pipeline.ingest.meta import date_from_path
from pipeline.ingest.robots import ROBOTS_TOKEN, Robots
from pipeline.ingest.sniff import binary_kind, sniff
from pipeline.ingest.walk import DOCUMENT, ERROR, UNCHANGED, Found

_ADDRESS = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
REDIRECTS = (301, 302, 303, 307, 308)
RETRY_STATUSES = (429, 500, 502, 503, 504)
EXTENSIONS = {"html": ".html", "pdf": ".pdf", "markdown": ".md", "text": ".txt"}
# Cloud metadata services; most sit in link-local or private ranges anyway.
METADATA = {ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "169.254.169.253", "fd00:ec2::254",
    "100.100.100.200", "192.0.0.192")}


def user_agent() -> str:
    """``claims/<version> (...)``: names the tool and its version to every server."""
    try:
        from importlib.metadata import version

        v = version("claims")
    except Exception:   # running from a source tree without metadata
        v = "0"
    return f"{ROBOTS_TOKEN}/{v} (numeric claims checker; obeys robots.txt)"


@dataclass
class WebOptions:
    """Politeness and safety settings (`claims ingest` flags in brackets)."""

    allow_private: bool = False    # [--allow-private] fetch loopback/private addresses
    allow_link_local: bool = False  # [--allow-link-local] and link-local / cloud metadata
    delay: float = 1.0             # [--delay] seconds between requests to one host
    timeout: float = 30.0          # [--http-timeout] read timeout; connect: min(10, this)
    retries: int = 3               # on 429 and 5xx
    backoff: float = 1.0           # first wait without Retry-After, then doubled
    max_retry_after: float = 30.0  # seconds of retry waits per address in all (Retry-After
                                   # and backoff together); a longer wait gives up at once
    max_redirects: int = 5
    max_feed_items: int = 100      # [--max-feed-items] items fetched per feed
    max_encodings: int = 2         # Content-Encoding layers decoded (gzip, deflate)
    max_bytes: int | None = None   # default: Limits.max_file_bytes (--max-file-mb)
    robots: bool = True            # obey robots.txt (off only in tests of the client)

    @property
    def deadline(self) -> float:
        """Seconds one HTTP exchange may take in all, connection, headers and body (a
        server dripping its headers or body a byte at a time never hits a read timeout)."""
        return 4 * self.timeout


# --- addresses ----------------------------------------------------------------------------

def is_address(text: str) -> bool:
    """True for anything written as ``scheme://...`` (a web address, or a refused one)."""
    return bool(_ADDRESS.match(text.strip()))


def redact(address: str) -> str:
    """The address with any user name and password replaced, for messages and the database."""
    try:
        parts = urlsplit(address.strip())
    except ValueError:
        return address.strip()
    if "@" not in parts.netloc:
        return address.strip()
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc="***@" + host))


def check_address(address: str) -> str:
    """The address, normalised (scheme and host lower-case, default port and fragment
    dropped), or Refused / FetchError saying why it is not fetched."""
    import httpx

    text = address.strip()
    scheme = text.split("://", 1)[0].lower() if "://" in text else ""
    if scheme not in ("http", "https"):
        raise Refused(f"only http and https addresses are fetched (not {scheme or repr(text)})")
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise FetchError(f"not a valid web address ({exc})") from None
    if url.userinfo:
        raise Refused("the address carries a user name or password: remove it "
                      "(credentials in addresses are refused)")
    if not url.host:
        raise FetchError("not a valid web address (no host)")
    return str(url.copy_with(fragment=None))


def ip_problem(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What kind of non-public address ``ip`` is, or None for a public one."""
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    if ip in METADATA:
        return "a cloud metadata address"
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_private:
        return "a private address"
    if ip.is_multicast or ip.is_reserved or ip.is_unspecified or not ip.is_global:
        return "a reserved (non-public) address"
    return None


def resolve(host: str, port: int) -> list[str]:
    """The IP addresses ``host`` resolves to (FetchError when it does not)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise FetchError(f"DNS: cannot resolve {host} ({exc.strerror or exc})") from None
    except UnicodeError:
        raise FetchError(f"DNS: {host!r} is not a valid host name") from None
    out: list[str] = []
    for info in infos:
        ip = info[4][0]
        if ip not in out:
            out.append(ip)
    return out


LINK_LOCAL_KINDS = ("a cloud metadata address", "a link-local address")


def refusal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, allow_private: bool,
            allow_link_local: bool = False) -> str | None:
    """Why a connection to ``ip`` is refused under these settings, or None.

    ``allow_private`` opens loopback, private and reserved addresses (a local test site,
    an intranet), never link-local ones (169.254.0.0/16, fe80::/10) nor cloud metadata
    services (169.254.169.254, fd00:ec2::254, ...): those need ``allow_link_local`` too,
    by name, as a server's credentials sit there."""
    problem = ip_problem(ip)
    if problem is None:
        return None
    if problem in LINK_LOCAL_KINDS:
        if allow_private and allow_link_local:
            return None
        return f"{problem}: not fetched (use --allow-private --allow-link-local to fetch " \
               "link-local and cloud-metadata addresses)"
    if allow_private:
        return None
    return f"{problem}: not fetched (use --allow-private to fetch private addresses)"


class _Clock:
    """When the HTTP exchange under way must be over (``time.monotonic()``), or None."""

    def __init__(self) -> None:
        self.until: float | None = None

    def left(self, timeout: float | None) -> float | None:
        """``timeout`` shortened to what is left of the exchange; raises httpcore's
        ReadTimeout once nothing is."""
        import httpcore

        if self.until is None:
            return timeout
        left = self.until - time.monotonic()
        if left <= 0:
            raise httpcore.ReadTimeout("the exchange ran past its deadline")
        return left if timeout is None else min(timeout, left)


def _deadline_stream(stream, clock: _Clock):
    """``stream`` whose every read, write and TLS handshake waits at most what is left
    of the exchange's deadline: headers dripped a line a second end there too."""
    import httpcore

    class DeadlineStream(httpcore.NetworkStream):
        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return stream.read(max_bytes, clock.left(timeout))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            stream.write(buffer, clock.left(timeout))

        def close(self) -> None:
            stream.close()

        def start_tls(self, ssl_context, server_hostname=None, timeout=None):
            return _deadline_stream(stream.start_tls(ssl_context, server_hostname,
                                                     clock.left(timeout)), clock)

        def get_extra_info(self, info: str):
            return stream.get_extra_info(info)

    return DeadlineStream()


def _guarded_backend(allow_private: bool, allow_link_local: bool = False,
                     clock: _Clock | None = None):
    """An httpcore network backend that resolves, checks and connects in one place; its
    streams keep to ``clock``'s deadline."""
    import httpcore

    clock = clock or _Clock()

    class GuardedBackend(httpcore.SyncBackend):
        def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
            try:
                ips = [str(ipaddress.ip_address(host))]
            except ValueError:
                ips = resolve(host, port)
            for ip in ips:
                problem = refusal(ipaddress.ip_address(ip), allow_private, allow_link_local)
                if problem:
                    where = f"{ip} is" if host == ip else f"{host} resolves to {ip},"
                    raise Refused(f"{where} {problem}")
            last: Exception | None = None
            for ip in ips:
                try:
                    stream = super().connect_tcp(ip, port, timeout=clock.left(timeout),
                                                 local_address=local_address,
                                                 socket_options=socket_options)
                    return _deadline_stream(stream, clock)
                except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                    last = exc
            assert last is not None
            raise last

    return GuardedBackend()


# --- fetching -----------------------------------------------------------------------------

@dataclass
class Fetched:
    """One response that ended the redirect chain."""

    url: str                       # as asked for
    final_url: str                 # after redirects
    status: int
    headers: dict[str, str]
    body: bytes = b""
    redirects: list[str] = field(default_factory=list)
    fetched_at: str = ""

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


class Fetcher:
    """One httpx client, the robots.txt cache and the per-host clock."""

    truncates = True    # get(..., truncate=True) keeps the head of a long body (robots.txt)

    def __init__(self, options: WebOptions | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        import certifi
        import httpcore
        import httpx


        self.options = options or WebOptions()
        self.sleep = sleep
        self.max_bytes = self.options.max_bytes or current_limits().max_file_bytes
        transport = httpx.HTTPTransport(retries=0)
        if not hasattr(transport, "_pool"):      # pragma: no cover - httpx internals moved
            raise RuntimeError("httpx.HTTPTransport has no _pool: the address guard cannot be installed")
        self.clock = _Clock()
        transport._pool = httpcore.ConnectionPool(
            ssl_context=ssl.create_default_context(cafile=certifi.where()),
            network_backend=_guarded_backend(self.options.allow_private,
                                             self.options.allow_link_local, self.clock),
            max_connections=10, keepalive_expiry=5.0)
        t = self.options.timeout
        self.client = httpx.Client(
            transport=transport, follow_redirects=False, trust_env=False,
            timeout=httpx.Timeout(t, connect=min(10.0, t)),
            headers={"User-Agent": user_agent(), "Accept-Encoding": "gzip, deflate",
                     "Accept": "text/html,application/xhtml+xml,"
                     "application/pdf,application/rss+xml,application/atom+xml,text/*;q=0.9,*/*;q=0.5"})
        self.robots = Robots(self)
        self.last: dict[str, float] = {}       # host -> when its last request started

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- one address, through its redirects -----------------------------------------
    def get(self, address: str, validators: dict[str, str] | None = None,
            max_bytes: int | None = None, robots: bool = True, truncate: bool = False) -> Fetched:
        """GET ``address`` following redirects; FetchError / Refused on any failure.

        ``validators`` (``etag``, ``last_modified``) make the request conditional: an
        unchanged page answers 304 with no body. ``truncate`` keeps the first
        ``max_bytes`` of a longer body instead of refusing it (robots.txt).
        """
        url = check_address(address)
        chain = [url]
        for _ in range(self.options.max_redirects + 1):
            if robots and self.options.robots and not self.robots.allowed(url):
                raise Refused("robots.txt disallows it (the site asks crawlers not to fetch it)")
            got = self._request(url, validators, max_bytes or self.max_bytes, truncate)
            if got.status not in REDIRECTS:
                got.url, got.redirects = address, chain[1:]
                return got
            location = got.headers.get("location")
            if not location:
                raise FetchError(f"HTTP {got.status} redirect without a Location", got.status)
            try:
                url = check_address(urljoin(url, location))
            except FetchError as exc:
                raise type(exc)(f"redirected to {redact(urljoin(url, location))}: {exc}") from None
            if url in chain:
                raise FetchError("redirect loop: " + " -> ".join(chain[chain.index(url):] + [url]))
            chain.append(url)
        raise FetchError(f"too many redirects (more than {self.options.max_redirects}), "
                         f"last to {url}")

    def _request(self, url: str, validators: dict[str, str] | None, max_bytes: int,
                 truncate: bool = False) -> Fetched:
        """One URL, retried on 429/5xx (waiting at most ``max_retry_after`` seconds in
        all); the body is read only for 2xx answers."""
        import httpx

        opts = self.options
        headers = {}
        if validators:
            if validators.get("etag"):
                headers["If-None-Match"] = validators["etag"]
            if validators.get("last_modified"):
                headers["If-Modified-Since"] = validators["last_modified"]
        attempt = 0
        waited = 0.0
        while True:
            self._wait_turn(url, opts.delay)
            try:
                got = self._once(url, headers, max_bytes, truncate)
            except Refused:
                raise
            except FetchError:
                raise
            except httpx.ConnectTimeout:
                raise FetchError(f"timed out connecting (after {min(10.0, opts.timeout):g} s)") from None
            except httpx.ReadTimeout:
                raise FetchError(f"timed out waiting for the server (nothing for {opts.timeout:g} s; "
                                 "raise --http-timeout for slow sites)") from None
            except httpx.TimeoutException as exc:
                raise FetchError(f"timed out ({type(exc).__name__})") from None
            except httpx.ConnectError as exc:
                raise FetchError(_connect_problem(exc)) from None
            except httpx.DecodingError as exc:
                raise FetchError(f"cannot decode the response body ({_first_line(exc)})") from None
            except (httpx.RemoteProtocolError, httpx.LocalProtocolError) as exc:
                raise FetchError(f"broken HTTP response ({_first_line(exc)})") from None
            except httpx.HTTPError as exc:
                raise FetchError(f"{type(exc).__name__}: {_first_line(exc)}") from None
            finally:
                # the host's next turn counts from the end of this exchange, so requests
                # reach it ``delay`` apart however long this one took to arrive
                self._turn_over(url)
            status = got.status
            if status in RETRY_STATUSES and attempt < opts.retries:
                wait = _retry_after(got.headers.get("retry-after"))
                if wait is None:
                    wait = opts.backoff * (2 ** attempt)
                if waited + wait > opts.max_retry_after:
                    asked = "the server asks to retry after" if got.headers.get("retry-after") \
                        else "the next retry would be after"
                    raise FetchError(f"HTTP {status}; {asked} {wait:.0f} s: try again later "
                                     f"(one address is waited for {opts.max_retry_after:g} s at "
                                     "most in all)", status)
                attempt += 1
                waited += wait
                self.sleep(wait)
                continue
            if status in REDIRECTS or status == 304 or 200 <= status < 300:
                if status in (204, 205):
                    raise FetchError(f"HTTP {status}: no content", status)
                return got
            reason = _reason(status)
            tries = f" after {attempt + 1} tries" if attempt else ""
            raise FetchError(f"HTTP {status} {reason}{tries}".strip(), status)

    def _once(self, url: str, headers: dict[str, str], max_bytes: int,
              truncate: bool = False) -> Fetched:
        """One exchange, over by ``options.deadline`` whatever the server does (the clock
        bounds every socket read and write, headers included). The body is read raw and
        its Content-Encoding layers decoded here, each under the same size budget."""
        import httpx

        started = time.monotonic()
        self.clock.until = until = started + self.options.deadline
        try:
            with self.client.stream("GET", url, headers=headers) as resp:
                hdrs = {k.lower(): v for k, v in resp.headers.items()}
                got = Fetched(url, str(resp.url), resp.status_code, hdrs,
                              fetched_at=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"))
                if not 200 <= resp.status_code < 300:
                    return got
                declared = hdrs.get("content-length", "")
                if declared.isdigit() and int(declared) > max_bytes and not truncate:
                    raise FetchError(f"too large: {size(int(declared))} declared, over the "
                                     f"{size(max_bytes)} limit (raise it with --max-file-mb)")
                got.body = self._body(resp, hdrs.get("content-encoding", ""), max_bytes,
                                      truncate, started)
                return got
        except httpx.TimeoutException:
            if time.monotonic() >= until - 0.05:
                raise FetchError(f"download too slow: gave up after {self.options.deadline:g} s "
                                 "(the whole exchange, headers included, may take 4 x "
                                 "--http-timeout)") from None
            raise
        finally:
            self.clock.until = None

    def _body(self, resp, encoding: str, max_bytes: int, truncate: bool, started: float) -> bytes:
        budget = _Budget(max_bytes)
        chunks: Iterator[bytes] = budget.count(resp.iter_raw())
        for layer in reversed(_encodings(encoding, self.options.max_encodings)):
            chunks = budget.count(_decode(layer, chunks))
        parts: list[bytes] = []
        n = 0
        try:
            for chunk in chunks:
                if truncate and n + len(chunk) > max_bytes:
                    parts.append(chunk[:max_bytes - n])
                    break
                n += len(chunk)
                if n > max_bytes:
                    raise FetchError(f"too large: more than the {size(max_bytes)} limit "
                                     "(raise it with --max-file-mb)")
                parts.append(chunk)
                if time.monotonic() - started > self.options.deadline:
                    raise FetchError(f"download too slow: gave up after {self.options.deadline:g} s")
        except _OverBudget:
            if truncate:
                pass
            elif encoding.strip() and encoding.strip().lower() != "identity":
                raise FetchError(f"too large: more than the {size(max_bytes)} limit once decoded "
                                 f"(Content-Encoding: {encoding.strip()}; a decompression bomb?)") from None
            else:
                raise FetchError(f"too large: more than the {size(max_bytes)} limit "
                                 "(raise it with --max-file-mb)") from None
        except zlib.error as exc:
            raise FetchError(f"cannot decode the response body ({encoding}: {exc})") from None
        return b"".join(parts)

    def _wait_turn(self, url: str, delay: float) -> None:
        """Sleep until this host's last exchange ended ``delay`` (or its Crawl-delay) ago."""
        host = urlsplit(url).netloc.lower()
        delay = max(delay, self.robots.crawl_delay(url)) if self.options.robots else delay
        last = self.last.get(host)
        if last is not None and delay > 0:
            wait = last + delay - time.monotonic()
            if wait > 0:
                self.sleep(wait)
        self.last[host] = time.monotonic()

    def _turn_over(self, url: str) -> None:
        self.last[urlsplit(url).netloc.lower()] = time.monotonic()


class _OverBudget(Exception):
    pass


class _Budget:
    """One size budget for a body: its raw bytes and what every Content-Encoding layer
    produces are counted together, so nested layers (``gzip, gzip``) stop as soon as
    their output, however small the input, passes the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = 3 * limit      # raw + layers: a plain body uses one share of it
        self.first = limit          # what any one stream may reach
        self.n = 0

    def count(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        mine = 0
        for chunk in chunks:
            mine += len(chunk)
            self.n += len(chunk)
            if mine > self.first or self.n > self.limit:
                raise _OverBudget
            yield chunk


_DECODE_STEP = 64 * 1024


def _encodings(header: str, most: int) -> list[str]:
    """The Content-Encoding layers in the order they were applied ('identity' dropped);
    FetchError for one this client did not ask for, or too many."""
    layers = [x.strip().lower() for x in header.split(",") if x.strip()]
    layers = [x for x in layers if x != "identity"]
    for x in layers:
        if x not in ("gzip", "x-gzip", "deflate"):
            raise FetchError(f"unsupported Content-Encoding {x!r} (only gzip and deflate are asked for)")
    if len(layers) > most:
        raise FetchError(f"Content-Encoding with {len(layers)} layers ({header.strip()}): "
                         f"more than {most} is refused (a decompression bomb?)")
    return layers


def _decode(layer: str, chunks: Iterable[bytes]) -> Iterator[bytes]:
    """One Content-Encoding layer, decoded in steps of at most 64 KB of output (never one
    call that inflates a small input to gigabytes)."""
    d = None
    for chunk in chunks:
        if d is None:
            if layer == "deflate":      # zlib-wrapped, or raw as some servers send it
                zlib_header = len(chunk) >= 2 and chunk[0] & 0x0F == 8 and \
                    (chunk[0] << 8 | chunk[1]) % 31 == 0
                d = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
            else:
                d = zlib.decompressobj(zlib.MAX_WBITS | 16)
        data = chunk
        while True:
            if d.eof:                   # gzip members one after another; other trailing
                data = d.unused_data + data     # bytes (padding) are ignored, as browsers do
                if layer == "deflate" or not data.startswith(b"\x1f\x8b"):
                    break
                d = zlib.decompressobj(zlib.MAX_WBITS | 16)
            out = d.decompress(data, _DECODE_STEP)
            if out:
                yield out
            data = d.unconsumed_tail
            if not data and len(out) < _DECODE_STEP and not d.eof:
                break
            if not data and d.eof and not d.unused_data:
                break
    if d is not None and not d.eof:
        tail = d.flush()
        if tail:
            yield tail


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _connect_problem(exc: BaseException) -> str:
    text = _first_line(exc)
    low = text.lower()
    if "certificate" in low or "ssl" in low or "tls" in low or "handshake" in low:
        return f"TLS error: {text}"
    if "name or service" in low or "nodename" in low or "getaddrinfo" in low:
        return f"DNS: {text}"
    return f"cannot connect: {text}"


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: a number, or an HTTP date from now."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return max(0.0, (when - dt.datetime.now(dt.timezone.utc)).total_seconds())


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


# --- what the bytes are ---------------------------------------------------------------------

_TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown", "")


def web_format(body: bytes, content_type: str, url: str) -> str:
    """The format to read a response as: the bytes decide, the Content-Type and the
    address's extension break ties; FetchError for what no ingester reads."""
    head = body[:8192]
    found = sniff(head)
    if found == "empty":
        raise FetchError("empty response (0 bytes)")
    if found in ("pdf", "html"):
        return found
    if found == "binary":
        kind = binary_kind(head) or "binary data"
        raise FetchError(f"unsupported content: {kind}" + (f" ({content_type})" if content_type else ""))
    path = urlsplit(url).path.lower()
    if content_type in ("text/html", "application/xhtml+xml"):
        return "html"
    if content_type in ("text/markdown", "text/x-markdown") or path.endswith((".md", ".markdown")):
        return "markdown"
    if content_type.startswith("text/") or content_type in _TEXT_TYPES or \
            content_type == "application/octet-stream":
        return "markdown" if found == "markdown" else "text"
    raise FetchError(f"unsupported content type {content_type}")


# --- addresses -> Found records for the ingest flow ---------------------------------------

@dataclass
class WebInfo:
    """What ``finish`` adds to a fetched document."""

    fetched: Fetched
    tmp: Path
    feed: dict | None = None       # the feed item this page came from


class WebSource:
    """Addresses (pages, PDFs, feeds) as ``Found`` records; see the module docstring.

    ``known(url)`` returns the validators (``etag``, ``last_modified``) stored with the
    current document for that address, or None to fetch it in full.
    """

    def __init__(self, addresses: Iterable[str], options: WebOptions | None = None,
                 known: Callable[[str], dict[str, str] | None] | None = None,
                 fetcher: Fetcher | None = None) -> None:
        self.addresses = list(addresses)
        self.options = options or WebOptions()
        self.known = known or (lambda url: None)
        self.fetcher = fetcher or Fetcher(self.options)
        self.tmpdir = Path(tempfile.mkdtemp(prefix="claims-web-"))
        self.pending: dict[str, WebInfo] = {}
        self.seen: set[str] = set()
        self.n = 0
        # (feed address, items it lists, items fetched) of each feed cut at max_feed_items
        self.cut_feeds: list[tuple[str, int, int]] = []

    @property
    def dropped_items(self) -> int:
        """Feed items left out (over ``max_feed_items``), over all feeds."""
        return sum(total - kept for _, total, kept in self.cut_feeds)

    def close(self) -> None:
        self.fetcher.close()
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def __enter__(self) -> "WebSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def found(self) -> Iterator[Found]:
        for address in self.addresses:
            yield from self._address(address, feed=None)

    def _error(self, address: str, reason: str) -> Found:
        return Found(self.tmpdir, self.tmpdir, redact(address), ERROR, reason)

    def _address(self, address: str, feed: dict | None) -> Iterator[Found]:

        try:
            url = check_address(address)
        except FetchError as exc:
            yield self._error(address, str(exc))
            return
        if url in self.seen:
            return
        self.seen.add(url)
        try:
            got = self.fetcher.get(url, validators=self.known(url))
        except FetchError as exc:
            yield self._error(url, str(exc))
            return
        if got.not_modified:
            yield Found(self.tmpdir, self.tmpdir, url, UNCHANGED)
            return
        if feed is None and is_feed(got.body, got.content_type):
            try:
                parsed = parse_feed(got.body, got.final_url)
            except FetchError as exc:
                yield self._error(url, str(exc))
                return
            items = parsed.items[:self.options.max_feed_items]
            if len(parsed.items) > len(items):
                self.cut_feeds.append((url, len(parsed.items), len(items)))
            if not items:
                yield self._error(url, "the feed lists no items with a link")
            for item in items:
                yield from self._address(item.link, feed={
                    "url": url, "title": parsed.title, "item_title": item.title,
                    "published": item.published, "author": item.author})
            return
        try:
            fmt = web_format(got.body, got.content_type, got.final_url)
        except FetchError as exc:
            yield self._error(url, str(exc))
            return
        self.n += 1
        tmp = self.tmpdir / f"{self.n:06d}{EXTENSIONS[fmt]}"
        tmp.write_bytes(got.body)
        self.pending[url] = WebInfo(got, tmp, feed)
        yield Found(tmp, self.tmpdir, url, DOCUMENT)

    def finish(self, doc) -> None:
        """Give a Document read from a fetched page its address and provenance."""
        info = self.pending.pop(doc.path, None)
        if info is None:
            return
        got = info.fetched
        canonical = urljoin(got.final_url, doc.url) if doc.url else None
        if canonical and not canonical.startswith(("http://", "https://")):
            canonical = None
        web = {"url": doc.path, "final_url": got.final_url, "canonical_url": canonical,
               "status": got.status, "fetched_at": got.fetched_at,
               "sha256": hashlib.sha256(got.body).hexdigest(),
               "content_type": got.headers.get("content-type"),
               "etag": got.headers.get("etag"), "last_modified": got.headers.get("last-modified"),
               "redirects": got.redirects}
        doc.meta["web"] = {k: v for k, v in web.items() if v not in (None, [], "")}
        doc.url = canonical or got.final_url
        if not doc.published:
            doc.published = date_from_path(urlsplit(doc.path).path)
            if doc.published:
                doc.meta["published_source"] = "url"
        if info.feed:
            feed = {k: v for k, v in info.feed.items() if v}
            doc.meta["feed"] = feed
            if feed.get("published") and (not doc.published
                                          or doc.meta.get("published_source") in ("url", "path")):
                doc.published = feed["published"]
                doc.meta["published_source"] = "feed"
            if not doc.title and feed.get("item_title"):
                doc.title = feed["item_title"]
                doc.meta["title_source"] = "feed"
            if not doc.publisher and feed.get("title"):
                doc.publisher = feed["title"]
            if not doc.author and feed.get("author"):
                doc.author = feed["author"]
        try:
            os.unlink(info.tmp)
        except OSError:
            pass
