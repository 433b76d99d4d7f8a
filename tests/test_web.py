"""`claims ingest URL...` against a local site on 127.0.0.1 (tests/fixtures/web/server.py):
pages, PDFs, feeds, redirects, slow and huge answers, errors, politeness, conditional
requests, provenance, and the private-address guard. No test contacts any other address:
the one DNS failure is a patched resolver, the TLS case a local HTTPS server."""
from __future__ import annotations

import json
import re
import socket
import ssl
import time
from pathlib import Path

import duckdb
import pytest

from conftest import PDF_PAGES, write_pdf
from fixtures.web.server import serve
from pipeline.ingest import web
from pipeline.ingest.web import FetchError, Fetcher, Refused, WebOptions, user_agent
from pipeline.run import ingest_paths
from pipeline.store import Store

FAST = dict(allow_private=True, delay=0, timeout=1, backoff=0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pdf = write_pdf(tmp_path_factory.mktemp("webpdf") / "r.pdf", PDF_PAGES,
                    title="Decode speed notes").read_bytes()
    site, server = serve(pdf)
    yield site
    server.shutdown()



def rows(db: Path, sql: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def ingest(db: Path, urls: list[str], paths=(), **options):
    with Store.open(db) as store:
        return ingest_paths(list(paths), store, workers=0, extract=lambda d: [], urls=urls,
                            web=WebOptions(**{**FAST, **options}))


def web_meta(db: Path, path: str) -> dict:
    (meta,) = rows(db, f"SELECT meta FROM documents WHERE path = '{path}'")[0]
    return json.loads(meta)


# --- through the CLI ----------------------------------------------------------------------

def test_cli_mixes_paths_addresses_and_a_url_file(fresh, tmp_path, run_cli):
    b = fresh.base
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "local.md").write_text("# Local\n\nThe local run took 12 ms.\n")
    (tmp_path / "urls.txt").write_text(f"# reading list\n\n{b}/post2   # second post\n"
                                       f"  {b}/report.pdf\n#{b}/missing\n")
    db = tmp_path / "db.duckdb"
    proc = run_cli("ingest", "docs", f"{b}/article", "--urls", "urls.txt", "--db", str(db),
                   "--allow-private", "--delay", "0", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.match(r"4 files: 4 new, 0 skipped \(unchanged\), 0 replaced, 0 errors",
                    proc.stdout.splitlines()[-1]), proc.stdout
    assert sorted(rows(db, "SELECT path, format FROM documents")) == [
        (f"{b}/article", "html"), (f"{b}/post2", "html"), (f"{b}/report.pdf", "pdf"),
        ("local.md", "markdown")]
    assert "/missing" not in fresh.paths()          # commented out
    # exports show the address
    docs = [json.loads(line) for line in run_cli("export", "documents", "--db", str(db),
                                                 cwd=tmp_path, check=True).stdout.splitlines()]
    article = next(d for d in docs if d["path"] == f"{b}/article")
    assert article["url"] == f"{b}/blog/tuning-decode"          # <link rel=canonical>
    assert article["meta"]["web"]["url"] == f"{b}/article"
    claims = [json.loads(line) for line in run_cli("export", "claims", "--db", str(db),
                                                   cwd=tmp_path, check=True).stdout.splitlines()]
    assert any(c["doc_path"] == f"{b}/article" and c["surface"].startswith("1,234") for c in claims)


def test_cli_refuses_private_addresses_without_the_flag(fresh, tmp_path, run_cli):
    db = tmp_path / "db.duckdb"
    urls = [f"{fresh.base}/article", f"http://localhost:{fresh.port}/article",
            f"http://[::1]:{fresh.port}/article", "http://169.254.169.254/latest/meta-data/"]
    proc = run_cli("ingest", *urls, "--db", str(db), "--delay", "0", "--http-timeout", "1",
                   "--workers", "0", "--no-link", cwd=tmp_path)
    assert proc.returncode == 0
    assert fresh.hits == []                          # nothing reached the server
    errors = dict(rows(db, "SELECT path, reason FROM ingest_errors"))
    assert errors[urls[0]] == ("127.0.0.1 is a loopback address: not fetched "
                               "(use --allow-private to fetch private addresses)")
    assert errors[urls[1]].startswith("localhost resolves to ")
    assert "loopback address" in errors[urls[2]]
    assert errors[urls[3]].startswith("169.254.169.254 is a cloud metadata address")
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 4 and all(line.startswith("error: ") for line in lines)
    strict = run_cli("ingest", urls[0], "--db", str(db), "--strict", "--no-link", cwd=tmp_path)
    assert strict.returncode == 1


def test_cli_unchanged_page_costs_one_conditional_request(fresh, tmp_path, run_cli):
    db = tmp_path / "db.duckdb"
    args = ("ingest", f"{fresh.base}/article", "--db", str(db), "--allow-private", "--delay", "0",
            "--workers", "0", "--no-link")
    first = run_cli(*args, cwd=tmp_path, check=True)
    assert " 1 new," in first.stdout
    before = rows(db, "SELECT id, ingested_at, meta FROM documents")
    assert web_meta(db, f"{fresh.base}/article")["web"]["etag"] == '"v1"'
    fresh.hits.clear()
    second = run_cli(*args, cwd=tmp_path, check=True)
    assert " 0 new, 1 skipped (unchanged)" in second.stdout
    page_hits = [h for h in fresh.hits if h.path == "/article"]
    assert [(h.status, h.headers.get("if-none-match")) for h in page_hits] == [(304, '"v1"')]
    assert page_hits[0].headers.get("if-modified-since")
    assert rows(db, "SELECT id, ingested_at, meta FROM documents") == before
    fresh.hits.clear()
    forced = run_cli(*args, "--force", cwd=tmp_path, check=True)
    assert " 1 replaced" in forced.stdout
    assert [h.status for h in fresh.hits if h.path == "/article"] == [200]


def test_cli_every_failure_is_one_line_and_the_run_goes_on(fresh, tmp_path, run_cli):
    b = fresh.base
    cases = {
        f"{b}/missing": r"HTTP 404 Not Found",
        f"{b}/loop/a": rf"redirect loop: {b}/loop/a -> {b}/loop/b -> {b}/loop/a",
        f"{b}/slow": r"timed out waiting for the server \(nothing for 1 s; raise --http-timeout",
        f"{b}/huge": r"too large: 2\.9 MB declared, over the 1 MB limit \(raise it with --max-file-mb\)",
        f"{b}/huge-chunked": r"too large: more than the 1 MB limit",
        f"{b}/gzip-bomb": r"too large: more than the 1 MB limit",
        f"{b}/image.png": r"unsupported content: PNG image \(image/png\)",
        f"{b}/private/secret": r"robots\.txt disallows it",
        f"{b}/down": r"HTTP 503; the server asks to retry after 3600 s: try again later",
        f"{b}/to-ftp": r"redirected to ftp://127\.0\.0\.1/file\.txt: only http and https",
        "ftp://127.0.0.1/file.txt": r"only http and https addresses are fetched \(not ftp\)",
        f"http://***@127.0.0.1:{fresh.port}/article": r"user name or password: remove it",
    }
    given = [u.replace("***", "user:hunter2") for u in cases] + [f"{b}/article"]
    db = tmp_path / "db.duckdb"
    proc = run_cli("ingest", *given, "--db", str(db), "--allow-private", "--delay", "0",
                   "--http-timeout", "1", "--max-file-mb", "1", "--no-link", "--workers", "0",
                   cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.match(rf"{len(given)} files: 1 new, .* {len(cases)} errors", proc.stdout.splitlines()[-1])
    errors = dict(rows(db, "SELECT path, reason FROM ingest_errors"))
    assert set(errors) == set(cases)                 # credentials never stored
    for address, pattern in cases.items():
        assert re.search(pattern, errors[address]), (address, errors[address])
    assert "hunter2" not in proc.stderr and "Traceback" not in proc.stderr
    assert all(line.startswith("error: ") for line in proc.stderr.strip().splitlines())
    assert rows(db, "SELECT path FROM documents") == [(f"{b}/article",)]
    assert "/private/secret" not in fresh.paths()


def test_cli_nothing_to_ingest_and_missing_url_file(tmp_path, run_cli):
    proc = run_cli("ingest", "--db", str(tmp_path / "db.duckdb"), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("error: nothing to ingest")
    proc = run_cli("ingest", "--urls", "nope.txt", "--db", str(tmp_path / "db.duckdb"), cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: cannot read the --urls file nope.txt: No such file or directory"


# --- in-process: feeds, redirects, provenance ---------------------------------------------

def test_feed_items_are_fetched_with_their_metadata(fresh, tmp_path):
    db = tmp_path / "db.duckdb"
    summary = ingest(db, [f"{fresh.base}/feed.xml", f"{fresh.base}/atom"])
    assert (summary.files, summary.new, summary.errors) == (4, 3, 1)   # 4 RSS items; Atom's is a repeat
    b = fresh.base
    docs = {r[0]: r[1:] for r in rows(db, "SELECT path, title, publisher, author, "
                                          "strftime(published, '%Y-%m-%d') FROM documents")}
    assert docs[f"{b}/article"] == ("Tuning decode on H100 | Example Labs", "Example Labs",
                                    "Ada Tuner", "2024-01-09")
    assert docs[f"{b}/post2"] == ("The second post", "Example Labs blog", None, "2024-02-02")
    assert f"{b}/report.pdf" in docs
    meta = web_meta(db, f"{b}/post2")
    assert meta["feed"] == {"url": f"{b}/feed.xml", "title": "Example Labs blog",
                            "item_title": "The second post", "published": "2024-02-02"}
    assert meta["published_source"] == "feed"
    assert rows(db, "SELECT path, reason FROM ingest_errors") == [(f"{b}/missing", "HTTP 404 Not Found")]


def test_redirect_chain_provenance(fresh, tmp_path):
    db = tmp_path / "db.duckdb"
    assert ingest(db, [f"{fresh.base}/chain/1"]).new == 1
    b = fresh.base
    meta = web_meta(db, f"{b}/chain/1")["web"]
    assert meta["url"] == f"{b}/chain/1" and meta["final_url"] == f"{b}/article"
    assert meta["redirects"] == [f"{b}/chain/2", f"{b}/chain/3", f"{b}/article"]
    assert meta["status"] == 200 and meta["canonical_url"] == f"{b}/blog/tuning-decode"
    assert re.fullmatch(r"[0-9a-f]{64}", meta["sha256"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", meta["fetched_at"])
    (doc_id, url), = rows(db, "SELECT id, url FROM documents")
    assert meta["sha256"].startswith(doc_id) and url == f"{b}/blog/tuning-decode"
    text = rows(db, "SELECT text FROM documents")[0][0]
    assert "1,234 tokens/s" in text
    assert not any(m in text for m in ("SCRIPT-MARKER", "NAV-MARKER", "COOKIE-MARKER", "FOOTER-MARKER"))


def test_too_many_redirects(fresh):
    with Fetcher(WebOptions(**FAST, max_redirects=2)) as f:
        with pytest.raises(FetchError, match=r"too many redirects \(more than 2\)"):
            f.get(f"{fresh.base}/chain/1")


def test_content_is_sniffed_from_the_bytes(fresh, tmp_path):
    db = tmp_path / "db.duckdb"
    assert ingest(db, [f"{fresh.base}/mislabeled", f"{fresh.base}/notes.md"]).new == 2
    assert sorted(rows(db, "SELECT format, title FROM documents")) == [
        ("markdown", "Plain notes"), ("pdf", "Decode speed notes")]


# --- politeness -----------------------------------------------------------------------

def test_retry_after_and_backoff_on_503_and_429(fresh, tmp_path):
    db = tmp_path / "db.duckdb"
    assert ingest(db, [f"{fresh.base}/flaky", f"{fresh.base}/limited"]).new == 2
    flaky = [h for h in fresh.hits if h.path == "/flaky"]
    assert [h.status for h in flaky] == [503, 200]
    assert flaky[1].at - flaky[0].at >= 0.95          # Retry-After: 1 honoured
    assert [h.status for h in fresh.hits if h.path == "/limited"] == [429, 200]


def test_per_host_delay_user_agent_and_robots_once(fresh):
    with Fetcher(WebOptions(allow_private=True, delay=0.3, timeout=2)) as f:
        for path in ("/article", "/post2", "/notes.md"):
            f.get(fresh.base + path)
    assert fresh.paths() == ["/robots.txt", "/article", "/post2", "/notes.md"]
    gaps = [b.at - a.at for a, b in zip(fresh.hits, fresh.hits[1:])]
    assert min(gaps) >= 0.28
    assert {h.headers["user-agent"] for h in fresh.hits} == {user_agent()}
    assert re.fullmatch(r"claims/\S+ \(.*robots\.txt\)", user_agent())


def test_slow_download_hits_the_deadline(fresh):
    with Fetcher(WebOptions(**{**FAST, "timeout": 0.5})) as f:
        started = time.monotonic()
        with pytest.raises(FetchError, match=r"download too slow: gave up after 2 s"):
            f.get(f"{fresh.base}/dribble")
        assert time.monotonic() - started < 5


# --- safety -------------------------------------------------------------------------------

def test_redirect_into_private_space_is_refused(fresh, monkeypatch):
    """Here 127.0.0.1 counts as public and 127.0.0.2 as what it is: the redirect to it is
    refused before any connection is made."""
    real = web.ip_problem
    monkeypatch.setattr(web, "ip_problem", lambda ip: None if str(ip) == "127.0.0.1" else real(ip))
    with Fetcher(WebOptions(delay=0, timeout=1)) as f:
        assert f.get(f"{fresh.base}/article").status == 200
        with pytest.raises(Refused, match=r"127\.0\.0\.2 is a loopback address: not fetched"):
            f.get(f"{fresh.base}/far")


def test_dns_failure(monkeypatch):
    def no_dns(*a, **kw):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with Fetcher(WebOptions(delay=0, timeout=1)) as f:
        with pytest.raises(FetchError, match=r"^DNS: cannot resolve nowhere\.invalid \(Name or service not known\)$"):
            f.get("http://nowhere.invalid/page")


def _self_signed(tmp_path: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 signed by itself: cryptography if installed, else openssl."""
    try:
        from cryptography import x509
    except ImportError:
        return _self_signed_openssl(tmp_path)
    import datetime as dt
    import ipaddress

    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def _self_signed_openssl(tmp_path: Path) -> tuple[Path, Path]:
    import shutil
    import subprocess

    if not shutil.which("openssl"):
        pytest.skip("neither cryptography nor openssl to make a certificate")
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key_file), "-out", str(cert_file)], check=True, capture_output=True)
    return cert_file, key_file


def test_tls_failure_is_reported(tmp_path):
    cert, key = _self_signed(tmp_path)
    site, server = serve()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    try:
        with Fetcher(WebOptions(**FAST)) as f:
            with pytest.raises(FetchError, match=r"^TLS error: .*certificate verify failed"):
                f.get(f"https://127.0.0.1:{site.port}/article")
    finally:
        server.shutdown()


ROUTES = ["/article", "/report.pdf", "/feed.xml", "/atom", "/chain/1", "/loop/a", "/slow",
          "/dribble", "/huge", "/huge-chunked", "/gzip-bomb", "/missing", "/flaky", "/limited",
          "/down", "/image.png", "/private/secret", "/mislabeled", "/notes.md"]


def test_every_case_is_refused_without_allow_private(fresh, tmp_path):
    db = tmp_path / "db.duckdb"
    summary = ingest(db, [fresh.base + r for r in ROUTES], allow_private=False)
    assert (summary.files, summary.errors, summary.new) == (len(ROUTES), len(ROUTES), 0)
    assert fresh.hits == []
    reasons = {r for (r,) in rows(db, "SELECT DISTINCT reason FROM ingest_errors")}
    assert reasons == {"127.0.0.1 is a loopback address: not fetched "
                       "(use --allow-private to fetch private addresses)"}
