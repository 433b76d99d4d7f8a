"""Plain text in any encoding: decoded faithfully, replacements counted, never dropped."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.ingest import IngestError, ingest_file
from pipeline.ingest.text import decode


def _doc(fixtures: Path, name: str):
    return ingest_file(fixtures / name, fixtures)


def test_latin1_is_detected(fixtures):
    doc = _doc(fixtures, "latin1.txt")
    assert "The café demo answered in 85 ms; naïve batching" in doc.text
    assert "Résumé: 1.6x faster." in doc.text
    assert "\ufffd" not in doc.text
    assert doc.meta["encoding"] == "cp1252"


def test_cp1252_punctuation(fixtures):
    doc = _doc(fixtures, "cp1252.txt")
    assert "The “spot” price fell to €2.10 per GPU-hour – about 30% less." in doc.text


def test_utf16_with_bom(fixtures):
    doc = _doc(fixtures, "utf16.txt")
    assert doc.text.startswith("Throughput notes\n")
    assert "9,800 tokens/s — a 1.4× gain." in doc.text
    assert doc.meta["bom"] is True and doc.meta["encoding"].startswith("utf-16")


def test_utf8_bom_is_not_part_of_the_text(fixtures):
    doc = _doc(fixtures, "utf8_bom.txt")
    assert doc.text.startswith("Memory notes")
    assert "déjà vu" in doc.text


def test_invalid_utf8_bytes_are_replaced_and_counted(fixtures):
    doc = _doc(fixtures, "invalid_utf8.txt")
    # The good UTF-8 around the bad bytes survives as UTF-8, not as mojibake.
    assert "“measured”" in doc.text and "24 GB/s ✓." in doc.text
    assert "25 GB/s \ufffd\ufffd then" in doc.text
    assert doc.meta["replaced_chars"] == 2


def test_binary_named_txt_is_refused(fixtures):
    with pytest.raises(IngestError, match="binary"):
        _doc(fixtures, "binary.txt")


def test_zero_byte_file_is_refused(fixtures):
    with pytest.raises(IngestError, match="empty"):
        _doc(fixtures, "empty.txt")


def test_crlf_is_normalised_and_recorded(tmp_path):
    (tmp_path / "win.txt").write_bytes(b"Title line\r\n\r\nBody at 12 ms.\r\n")
    doc = ingest_file(tmp_path / "win.txt", tmp_path)
    assert doc.text == "Title line\n\nBody at 12 ms.\n"
    assert doc.meta["newline"] == "crlf"


def test_nul_inside_utf16_less_file_becomes_replacement(tmp_path):
    assert decode(b"abc\x00def").text == "abc\ufffddef"


def test_title_is_first_short_line(fixtures):
    assert _doc(fixtures, "latin1.txt").title == "Latency notes"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"),
               max_size=300),
       st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]))
def test_round_trip_any_unicode_text(text, codec):
    """Whatever Unicode text, written in a BOM-marked or UTF-8 encoding, reads back exactly."""
    assert decode(text.encode(codec)).text == text


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_decode_never_fails_and_keeps_length_sane(data):
    """Any bytes decode; each input byte yields at most one character (nothing invented)."""
    out = decode(data)
    assert isinstance(out.text, str)
    assert len(out.text) <= len(data)
