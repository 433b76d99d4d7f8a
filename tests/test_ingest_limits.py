"""Hostile single files (issue 7): size, pages, decompression bombs, nesting, long lines,
NULs, UTF-16 with a BOM, mixed encodings. Each is read or refused with one line that says
what to do; none raises anything but IngestError."""
from __future__ import annotations

import os
import time
import zlib
from pathlib import Path

import pytest

from conftest import write_pdf
from pipeline.ingest import IngestError, ingest_bytes, ingest_file, read_bytes
from pipeline.ingest.limits import MB, Limits, using

MB_TEXT = "The tuned build reached 512 tokens/s on one H100. "


def minimal_pdf(content: bytes, filters: bytes = b"", raw: bytes | None = None) -> bytes:
    """A one-page PDF whose content stream is ``raw`` (already encoded) or ``content``."""
    stream = content if raw is None else raw
    filt = b" /Filter " + filters if filters else b""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length " + str(len(stream)).encode() + filt + b" >>\nstream\n" + stream
            + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


TEXT_OP = b"BT /F1 12 Tf 72 720 Td (Decode reached 512 tokens/s.) Tj ET\n"


def flate_bomb(expanded: int) -> bytes:
    """A PDF whose content stream inflates to ``expanded`` bytes (built without holding them)."""
    comp = zlib.compressobj(9)
    parts = [comp.compress(TEXT_OP)]
    block = b" " * MB
    for _ in range(expanded // MB):
        parts.append(comp.compress(block))
    parts.append(comp.flush())
    return minimal_pdf(b"", b"/FlateDecode", raw=b"".join(parts))


def runlength(data: bytes) -> bytes:
    """RunLengthDecode encoding: literal runs of up to 128 bytes, then EOD."""
    out = bytearray()
    for i in range(0, len(data), 128):
        chunk = data[i:i + 128]
        out += bytes([len(chunk) - 1]) + chunk
    return bytes(out + b"\x80")


# --- size -----------------------------------------------------------------------------------

def test_file_over_the_size_limit_is_refused_before_reading(tmp_path):
    big = tmp_path / "huge.txt"
    with big.open("wb") as fh:          # sparse: 60 MB on paper, nothing on disk
        fh.truncate(60 * MB)
    started = time.perf_counter()
    with pytest.raises(IngestError, match=r"file is 60 MB, over the 50 MB limit: raise it with --max-file-mb"):
        read_bytes(big)
    assert time.perf_counter() - started < 1.0
    with using(Limits(max_file_bytes=100 * MB)):
        assert len(read_bytes(big)) == 60 * MB


def test_a_file_that_grows_after_its_size_was_read_is_read_whole_or_refused(tmp_path, monkeypatch):
    grown = tmp_path / "grown.txt"
    grown.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    def stale_fstat(fd):                # the size as it was before the file grew
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, *st[1:6], 10, *st[7:]))

    monkeypatch.setattr(os, "fstat", stale_fstat)
    assert read_bytes(grown) == b"x" * 5000
    with pytest.raises(IngestError, match="grew past"):
        read_bytes(grown, Limits(max_file_bytes=1000))


def test_size_limit_is_configurable(tmp_path):
    (tmp_path / "a.txt").write_text(MB_TEXT * 100)
    with using(Limits(max_file_bytes=1000)):
        with pytest.raises(IngestError, match="over the 1000 bytes limit"):
            ingest_file(tmp_path / "a.txt", tmp_path)
        with pytest.raises(IngestError, match="--max-file-mb"):
            ingest_bytes(b"x" * 2000, "x.txt")


# --- PDF pages and decompression bombs ---------------------------------------------------

def test_pdf_over_the_page_limit_is_refused(tmp_path):
    pdf = write_pdf(tmp_path / "deck.pdf", [["one 1 ms"], ["two 2 ms"], ["three 3 ms"]])
    with using(Limits(max_pdf_pages=2)):
        with pytest.raises(IngestError, match=r"more than 2 pages: raise the limit with --max-pdf-pages"):
            ingest_file(pdf, tmp_path)
    with using(Limits(max_pdf_pages=3)):
        assert len(ingest_file(pdf, tmp_path).pages) == 3


def test_flate_bomb_is_refused_at_the_inflate_limit():
    bomb = flate_bomb(8 * MB)
    assert len(bomb) < 20_000
    with using(Limits(max_inflate_bytes=1 * MB)):
        with pytest.raises(IngestError, match=r"expand past 1 MB \(a decompression bomb\?\).*--max-inflate-mb"):
            ingest_bytes(bomb, "bomb.pdf")
    doc = ingest_bytes(bomb, "bomb.pdf")       # the default (256 MB) reads it
    assert "Decode reached 512 tokens/s." in doc.text


def test_runlength_bomb_is_refused_and_runlength_text_still_reads():
    text = ingest_bytes(minimal_pdf(b"", b"/RunLengthDecode", raw=runlength(TEXT_OP)), "rl.pdf")
    assert "Decode reached 512 tokens/s." in text.text
    # each 2-byte run repeats a space 128 times: 40 KB -> 2.5 MB
    bomb = minimal_pdf(b"", b"/RunLengthDecode", raw=runlength(TEXT_OP)[:-1] + b"\x81 " * 20_000 + b"\x80")
    with using(Limits(max_inflate_bytes=1 * MB)):
        with pytest.raises(IngestError, match="decompression bomb"):
            ingest_bytes(bomb, "rl.pdf")


def test_gzip_input_is_refused_not_unpacked(tmp_path):
    import gzip

    (tmp_path / "notes.txt").write_bytes(gzip.compress(b"\0" * 10_000_000))
    with pytest.raises(IngestError, match=r"^gzip file: unpack it first"):
        ingest_file(tmp_path / "notes.txt", tmp_path)


# --- HTML nesting and long lines ------------------------------------------------------------

@pytest.mark.parametrize("depth", [300, 3000, 100_000])
def test_deeply_nested_html_keeps_its_text(depth):
    page = ("<html><head><title>Deep</title></head><body>" + "<div>" * depth
            + "<p>Deep text reached 500 tokens/s.</p>" + "</div>" * depth + "</body></html>")
    started = time.perf_counter()
    doc = ingest_bytes(page.encode(), "deep.html")
    assert "Deep text reached 500 tokens/s." in doc.text
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("ext", ["txt", "md", "html"])
def test_ten_megabyte_line_without_a_break(ext):
    line = (MB_TEXT * (10 * MB // len(MB_TEXT) + 1))[:10 * MB]
    data = line.encode() if ext != "html" else f"<html><body><p>{line}</p></body></html>".encode()
    started = time.perf_counter()
    doc = ingest_bytes(data, f"long.{ext}")
    assert time.perf_counter() - started < 20
    assert len(doc.text) >= 10 * MB - 1 and "\n" not in doc.text.strip()
    assert doc.title is None or len(doc.title) <= 200


# --- NULs and encodings ---------------------------------------------------------------------

def test_stray_nul_bytes_become_replacement_characters():
    doc = ingest_bytes(MB_TEXT.encode() + b"\x00" + MB_TEXT.encode() * 5, "nul.txt")
    assert "\x00" not in doc.text and doc.text.count("\ufffd") == 1
    assert doc.meta["replaced_chars"] == 1
    html = b"<html><body><p>" + MB_TEXT.encode() + b"\x00 more</p></body></html>"
    assert "\x00" not in ingest_bytes(html, "nul.html").text


def test_mostly_nul_bytes_are_binary():
    with pytest.raises(IngestError, match="binary content.*only text, Markdown, HTML and PDF"):
        ingest_bytes(b"a\x00" * 10 + b"\x00" * 500, "nul.txt")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_utf16_and_utf32_with_bom_in_every_text_format(codec):
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00"}[codec]
    md = "---\ntitle: Wide notes\n---\n# Heading\n\nIt reached 9,800 tokens/s — 1.4× more.\n"
    html = ("<!DOCTYPE html><html><head><title>Wide page</title></head><body><article>"
            "<p>It reached 9,800 tokens/s — 1.4× more than before on the same node.</p>"
            "</article></body></html>")
    for text, name in ((md, "wide.md"), (html, "wide.html"), (md, "wide"), (html, "page")):
        doc = ingest_bytes(bom + text.encode(codec), name)
        assert "9,800 tokens/s — 1.4× more" in doc.text
        assert "\x00" not in doc.text and "\ufeff" not in doc.text
        assert doc.title in ("Wide notes", "Wide page")


def test_mixed_utf8_and_cp1252_reads_both():
    data = ("Résumé — “tuned” at 5 ms. ".encode() + b"caf\xe9 na\xefve \x93quoted\x94 \xff\xfe end")
    doc = ingest_bytes(data, "mixed.txt")
    assert doc.text == "Résumé — “tuned” at 5 ms. café naïve “quoted” \ufffd\ufffd end"
    assert doc.meta["encoding"] == "utf-8"
    assert doc.meta["cp1252_chars"] == 4 and doc.meta["replaced_chars"] == 2


def test_limit_flags_reach_the_worker_processes(tmp_path, run_cli):
    import duckdb

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "big.txt").write_text(MB_TEXT * 1000)                        # ~50 KB
    (docs / "bomb.pdf").write_bytes(flate_bomb(4 * MB))
    write_pdf(docs / "deck.pdf", [["one 1 ms"], ["two 2 ms"], ["three 3 ms"]])
    (docs / "ok.md").write_text("# ok\n\nIt ran at 5 ms.\n")
    db = tmp_path / "db.duckdb"
    proc = run_cli("ingest", "docs", "--db", str(db), "--no-link", "--workers", "2",
                   "--max-file-mb", "0.02", "--max-pdf-pages", "2", "--max-inflate-mb", "1",
                   cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    con = duckdb.connect(str(db), read_only=True)
    errors = dict(con.execute("SELECT path, reason FROM ingest_errors").fetchall())
    con.close()
    assert set(errors) == {"big.txt", "bomb.pdf", "deck.pdf"}
    assert "--max-file-mb" in errors["big.txt"] and "--max-inflate-mb" in errors["bomb.pdf"]
    assert "--max-pdf-pages" in errors["deck.pdf"]
    assert len(proc.stderr.strip().splitlines()) == 3
