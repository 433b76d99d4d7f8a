"""Hostile files and databases (issue 15, part 5): UTF-16 without a BOM, a truncated or
corrupt warehouse, a full disk."""
from __future__ import annotations

import pytest

from pipeline.ingest import ingest_bytes
from pipeline.ingest.text import decode

TEXT = "# Decode notes\n\nvLLM reaches 1,200 tokens/s on one H100 with Llama-3-8B.\n"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_decoded_not_stored_as_garbage(codec):
    d = decode(TEXT.encode(codec))
    assert (d.text, d.encoding, d.replaced, d.bom) == (TEXT, codec, 0, False)


@pytest.mark.parametrize("name", ["notes.md", "notes.txt", "notes"])
def test_utf16_without_bom_through_ingest(tmp_path, name, run_cli):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / name).write_bytes(TEXT.encode("utf-16-le"))
    run_cli("ingest", "c", "--db", "w.duckdb", "-q", cwd=tmp_path, check=True)
    import duckdb

    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    try:
        text, enc, replaced, n = con.execute(
            "SELECT text, meta->>'encoding', meta->>'replaced_chars', "
            "(SELECT count(*) FROM claims) FROM documents").fetchone()
    finally:
        con.close()
    assert enc == "utf-16-le" and replaced is None
    assert "vLLM reaches 1,200 tokens/s" in text and "\ufffd" not in text
    assert n >= 1


def test_utf8_with_a_few_nuls_stays_utf8():
    d = decode("plain ascii text, 5 ms\x00 and more text here, 7 ms.\n".encode())
    assert d.encoding == "utf-8" and d.replaced == 1
