"""Hostile files and databases (issue 15, part 5): UTF-16 without a BOM, a truncated or
corrupt warehouse, a full disk."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest

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


# --- a damaged warehouse ------------------------------------------------------------------

CHECK = Path(__file__).resolve().parent / "fixtures" / "check"
BLOCK0 = 12288 + 262144       # the file header, then the first 256 KB block


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("damaged")
    run_cli("ingest", str(CHECK), "--db", str(tmp / "good.duckdb"), "-q", cwd=tmp, check=True)
    return tmp, (tmp / "good.duckdb").read_bytes()


@pytest.mark.parametrize("how", ["half", "one_byte_short", "header_only", "garbled_block"])
def test_a_damaged_database_is_one_line_and_exit_2(warehouse, run_cli, how):
    tmp, data = warehouse
    damaged = {"half": data[:len(data) // 2], "one_byte_short": data[:-1],
               "header_only": data[:20000],
               "garbled_block": data[:BLOCK0] + b"\xaa" * 50000 + data[BLOCK0 + 50000:]}[how]
    db = tmp / f"{how}.duckdb"
    db.write_bytes(damaged)
    new = tmp / "new"                 # files it does not hold: written, then linked
    new.mkdir(exist_ok=True)
    (new / "n.md").write_text("Orbit serves Llama 3.1 405B at 31 tokens/s per user on 8 H100s.\n")
    every = [["report", "-o", str(tmp / "out")], ["sql", "SELECT count(*) FROM claims_full"],
             ["export", "claims"], ["ingest", str(new), "-q"]]
    for args in (every if how in ("half", "garbled_block") else every[1::2]):
        p = run_cli(*args, "--db", str(db), cwd=tmp)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2, (how, args, p.stderr)
        assert len(lines) == 1 and lines[0].startswith("error: "), (how, args, p.stderr)
        assert "damaged" in lines[0] and "unexpected" not in lines[0], lines[0]
    # refused at open, by readers and by ingest alike: never written to (a garbled block
    # is found by the writer's read of every block before it takes a new file)
    assert db.read_bytes() == damaged


def test_a_file_trimmed_by_a_checkpoint_is_sound_not_damaged(warehouse, run_cli):
    """A checkpoint cuts free blocks off the end of the file, while ``total_blocks`` still
    counts them: a warehouse in that state (a second ingest into one database left it so)
    was refused by every command as 'truncated'. The file stays whole blocks, at least as
    many as are in use, and every command opens it."""
    tmp, data = warehouse
    db = tmp / "trimmed.duckdb"
    db.write_bytes(data)
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE scratch AS SELECT range AS i, md5(range::VARCHAR) AS s "
                "FROM range(300000)")
    con.execute("CHECKPOINT")
    grown = db.stat().st_size
    con.execute("DROP TABLE scratch")
    con.execute("CHECKPOINT")
    con.close()
    con = duckdb.connect(str(db), read_only=True)
    total, size = con.execute("SELECT total_blocks, block_size FROM pragma_database_size()"
                              ).fetchone()
    con.close()
    # the state that tripped the old check: the header counts blocks the file no longer has
    assert db.stat().st_size < grown and db.stat().st_size < 12288 + total * size
    for args in (["sql", "SELECT count(*) FROM claims"], ["export", "claims"],
                 ["check", "Orbit serves Llama 3.1 405B at 31 tokens/s per user"]):
        p = run_cli(*args, "--db", str(db), cwd=tmp)
        assert "damaged" not in p.stderr and p.returncode in (0, 3, 4, 5), (args, p.stderr)
    new = tmp / "trimmed_new"
    new.mkdir(exist_ok=True)
    (new / "n.md").write_text("Orbit serves Llama 3.1 405B at 31 tokens/s per user on 8 H100s.\n")
    run_cli("ingest", str(new), "-q", "--db", str(db), cwd=tmp, check=True)


# --- a full disk --------------------------------------------------------------------------

class _FailingCommit:
    """A connection whose commit fails as DuckDB's does on a full disk: the transaction
    is over, so a rollback after it raises 'no transaction is active'."""

    def __init__(self, con):
        self._con, self._failed = con, False

    def commit(self):
        self._con.rollback()
        self._failed = True
        raise duckdb.TransactionException('TransactionContext Error: Failed to commit: Could not '
                                          'write file "/x/w.duckdb.wal": No space left on device')

    def rollback(self):
        if self._failed:
            raise duckdb.TransactionException("TransactionContext Error: cannot rollback - no "
                                              "transaction is active")
        self._con.rollback()

    def __getattr__(self, name):
        return getattr(self._con, name)


def test_a_failed_commit_reports_itself_not_the_rollback(tmp_path):
    from pipeline.model import Document
    from pipeline.run import _write_batch
    from pipeline.store import Store, StoreError, Stored, disk_full

    doc = Document(id="d1", path="a.md", format="markdown", text="x", meta={})
    with Store.open(tmp_path / "w.duckdb") as store:
        store.con = _FailingCommit(store.con)
        with pytest.raises(duckdb.TransactionException, match="No space left on device"):
            store.write_many([Stored.of(doc, [], "fp")])
        store.con._failed = False
        with pytest.raises(StoreError, match=r"^disk full: no space left on the disk holding /x "):
            _write_batch(store, [Stored.of(doc, [], "fp")], [], False)
    assert disk_full(OSError(28, "No space left on device")) is not None
    assert disk_full(ValueError("no")) is None


def test_disk_full_for_real_on_a_small_tmpfs(tmp_path, run_cli):
    """A 1.2 MB tmpfs (root only; skipped where it cannot be mounted)."""
    small = tmp_path / "small"
    small.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1200k", "tmpfs",
                                            str(small)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        corpus = tmp_path / "big"
        corpus.mkdir()
        for i in range(300):
            (corpus / f"d{i}.md").write_text(f"# Doc {i}\n\nvLLM reaches {1000 + i} tokens/s on "
                                             f"one H100. {os.urandom(2000).hex()}\n")
        p = run_cli("ingest", "big", "--db", str(small / "w.duckdb"), cwd=tmp_path)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2, p.stderr
        assert len(lines) == 1 and lines[0].startswith(f"error: disk full: no space left on the "
                                                       f"disk holding {small}"), p.stderr
        assert "cannot rollback" not in p.stderr
    finally:
        subprocess.run(["umount", str(small)], capture_output=True)
