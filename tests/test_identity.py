"""A document is its bytes and where they were read from (issue 15, part 1).

Identity is the content hash plus the source (resolved absolute path or address), never
the path relative to the folder named on the command line: two folders' README.md are two
documents, the same source re-ingested changes nothing, a changed source replaces only its
own earlier version, and the same bytes from two sources are stored once with both
sources kept. Store-level cases use a real DuckDB file; the end-to-end cases run the real
CLI in a subprocess.
"""
from __future__ import annotations

import os
import re

import duckdb
import pytest

from pipeline.model import Document
from pipeline.store import Store

SUMMARY = re.compile(r"^(\d+) files: (\d+) new, (\d+) skipped \(unchanged\), (\d+) replaced, ")


def counts(stdout: str) -> tuple[int, int, int, int]:
    m = SUMMARY.match(stdout.strip().splitlines()[-1])
    assert m, stdout
    return tuple(int(g) for g in m.groups())   # files, new, skipped, replaced


def rows(db, sql, params=None):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def snapshot(db) -> dict[str, list[tuple]]:
    return {t: rows(db, f"SELECT * EXCLUDE ({x}) FROM {t} ORDER BY ALL")
            for t, x in (("documents", "ingested_at, text"), ("locations", "seen_at"))} | {
        "claims": rows(db, "SELECT id, doc_id, surface FROM claims ORDER BY ALL")}


def _doc(doc_id: str, path: str = "README.md") -> Document:
    return Document(id=doc_id, path=path, format="markdown", text=f"Text of {doc_id} at 5 ms.")


# --- the store's planner ----------------------------------------------------------------

@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "w.duckdb") as s:
        yield s


def _locations(store: Store) -> list[tuple[str, str]]:
    return store.query("SELECT source, doc_id FROM locations ORDER BY source")[1]


def test_same_relative_path_from_two_sources_is_two_documents(store):
    assert store.write(_doc("a1"), [], "fp", source="/x/README.md") == "new"
    assert store.write(_doc("b1"), [], "fp", source="/y/README.md") == "new"
    assert store.query("SELECT id, path FROM documents ORDER BY id")[1] == [
        ("a1", "README.md"), ("b1", "README.md")]
    assert _locations(store) == [("/x/README.md", "a1"), ("/y/README.md", "b1")]


def test_a_changed_source_replaces_only_its_own_version(store):
    store.write(_doc("a1"), [], "fp", source="/x/README.md")
    store.write(_doc("b1"), [], "fp", source="/y/README.md")
    plan = store.plan("a2", "README.md", "fp", source="/x/README.md")
    assert (plan.action, plan.previous, plan.stale) == ("replaced", "a1", ["a1"])
    assert store.write(_doc("a2"), [], "fp", source="/x/README.md") == "replaced"
    assert store.query("SELECT id FROM documents ORDER BY id")[1] == [("a2",), ("b1",)]
    assert _locations(store) == [("/x/README.md", "a2"), ("/y/README.md", "b1")]


def test_same_bytes_from_two_sources_are_stored_once_with_both_kept(store):
    assert store.write(_doc("s1"), [], "fp", source="/x/README.md") == "new"
    assert store.write(_doc("s1", "copy.md"), [], "fp", source="/y/copy.md") == "skipped"
    assert store.query("SELECT id, path FROM documents")[1] == [("s1", "README.md")]
    assert _locations(store) == [("/x/README.md", "s1"), ("/y/copy.md", "s1")]
    # one of the two changes: it gets its new document, the other keeps the shared one
    assert store.write(_doc("s2", "copy.md"), [], "fp", source="/y/copy.md") == "replaced"
    assert store.query("SELECT id FROM documents ORDER BY id")[1] == [("s1",), ("s2",)]
    assert _locations(store) == [("/x/README.md", "s1"), ("/y/copy.md", "s2")]
    # and when the last source of s1 changes too, s1 goes
    assert store.write(_doc("s3"), [], "fp", source="/x/README.md") == "replaced"
    assert store.query("SELECT id FROM documents ORDER BY id")[1] == [("s2",), ("s3",)]
    assert _locations(store) == [("/x/README.md", "s3"), ("/y/copy.md", "s2")]


def test_a_document_stored_before_sources_were_kept_is_found_by_its_path(store):
    store.write(_doc("old"), [], "fp", source="/x/README.md")
    store.con.execute("DELETE FROM locations")          # as an older warehouse holds it
    assert store.plan("old", "README.md", "fp", source="/x/README.md").action == "skipped"
    assert store.write(_doc("new"), [], "fp", source="/x/README.md") == "replaced"
    assert store.query("SELECT id FROM documents")[1] == [("new",)]
    assert _locations(store) == [("/x/README.md", "new")]


# --- end to end through the CLI ---------------------------------------------------------

def _write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def two_folders(tmp_path):
    _write(tmp_path / "alpha" / "README.md",
           "# Alpha engine\n\nAlpha serves 1,250 tokens/s per user on one H100.\n")
    _write(tmp_path / "alpha" / "notes.md", "# Notes\n\nThe queue drains in 40 ms.\n")
    _write(tmp_path / "beta" / "README.md",
           "# Beta engine\n\nBeta serves 830 tokens/s per user on one B200.\n")
    return tmp_path


def test_two_folders_with_readme_keep_both_and_reingest_is_idempotent(two_folders, run_cli):
    db = two_folders / "w.duckdb"
    first = run_cli("ingest", "alpha", "--db", str(db), cwd=two_folders, check=True)
    assert counts(first.stdout) == (2, 2, 0, 0)
    second = run_cli("ingest", "beta", "--db", str(db), cwd=two_folders, check=True)
    assert counts(second.stdout) == (1, 1, 0, 0), second.stdout
    assert "replaced" not in second.stdout.splitlines()[0]
    docs = rows(db, "SELECT path, title FROM documents ORDER BY title")
    assert docs == [("README.md", "Alpha engine"), ("README.md", "Beta engine"),
                    ("notes.md", "Notes")]
    sources = {r[0] for r in rows(db, "SELECT source FROM locations")}
    assert sources == {os.path.realpath(two_folders / p)
                       for p in ("alpha/README.md", "alpha/notes.md", "beta/README.md")}
    per_readme = rows(db, "SELECT d.title, count(c.id) FROM documents d JOIN claims c"
                          " ON c.doc_id = d.id WHERE d.path = 'README.md' GROUP BY d.title")
    assert len(per_readme) == 2            # each README keeps its own claims
    before = snapshot(db)
    for folder in ("alpha", "beta"):
        again = run_cli("ingest", folder, "--db", str(db), cwd=two_folders, check=True)
        assert counts(again.stdout)[1:] == (0, counts(again.stdout)[0], 0)
    # the same files named through another folder are the same sources
    run_cli("ingest", ".", "--db", str(db), cwd=two_folders, check=True)
    assert snapshot(db) == before


def test_a_changed_source_is_replaced_and_reported_by_source(two_folders, run_cli):
    db = two_folders / "w.duckdb"
    run_cli("ingest", "alpha", "beta", "--db", str(db), cwd=two_folders, check=True)
    beta_before = rows(db, "SELECT id FROM documents WHERE title = 'Beta engine'")
    readme = two_folders / "alpha" / "README.md"
    readme.write_text(readme.read_text().replace("1,250", "1,400"), encoding="utf-8")
    proc = run_cli("ingest", "alpha", "--db", str(db), cwd=two_folders, check=True)
    assert counts(proc.stdout) == (2, 0, 1, 1)
    replaced = [ln for ln in proc.stdout.splitlines() if ln.startswith("replaced: ")]
    assert len(replaced) == 1 and replaced[0].startswith(f"replaced: {os.path.realpath(readme)} (")
    assert rows(db, "SELECT id FROM documents WHERE title = 'Beta engine'") == beta_before
    texts = [r[0] for r in rows(db, "SELECT text FROM documents WHERE title = 'Alpha engine'")]
    assert len(texts) == 1 and "1,400" in texts[0]
    assert rows(db, "SELECT count(*) FROM claims WHERE surface LIKE '1,250%'") == [(0,)]


def test_same_bytes_in_two_folders_stored_once_with_both_sources(two_folders, run_cli):
    db = two_folders / "w.duckdb"
    copy = two_folders / "gamma" / "README.md"
    _write(copy, (two_folders / "alpha" / "README.md").read_text())
    proc = run_cli("ingest", "alpha", "gamma", "--db", str(db), cwd=two_folders, check=True)
    assert counts(proc.stdout) == (3, 2, 1, 0)
    (doc_id,) = rows(db, "SELECT id FROM documents WHERE title = 'Alpha engine'")[0]
    located = rows(db, "SELECT source, path FROM locations WHERE doc_id = ? ORDER BY source",
                   [doc_id])
    assert located == [(os.path.realpath(two_folders / "alpha" / "README.md"), "alpha/README.md"),
                       (os.path.realpath(copy), "gamma/README.md")]
    # the copy changes: it becomes a document of its own; alpha's stays with its source
    copy.write_text("# Gamma engine\n\nGamma serves 610 tokens/s per user.\n", encoding="utf-8")
    proc = run_cli("ingest", "gamma", "--db", str(db), cwd=two_folders, check=True)
    assert counts(proc.stdout) == (1, 0, 0, 1)
    assert f"replaced: {os.path.realpath(copy)} (document {doc_id} -> " in proc.stdout
    assert rows(db, "SELECT source FROM locations WHERE doc_id = ?", [doc_id]) == [
        (os.path.realpath(two_folders / "alpha" / "README.md"),)]
    assert sorted(r[0] for r in rows(db, "SELECT title FROM documents")) == [
        "Alpha engine", "Gamma engine", "Notes"]
    assert rows(db, "SELECT count(*) FROM link_pending") == [(0,)]


def test_the_same_bytes_twice_in_one_run_with_workers(two_folders, run_cli):
    """A duplicate met while its twin is still at a worker keeps its source too."""
    db = two_folders / "w.duckdb"
    for i in range(6):
        _write(two_folders / f"copy{i}" / "README.md",
               (two_folders / "beta" / "README.md").read_text())
    folders = ["alpha", "beta"] + [f"copy{i}" for i in range(6)]
    proc = run_cli("ingest", *folders, "--db", str(db), "--workers", "2", cwd=two_folders,
                   check=True)
    assert counts(proc.stdout) == (9, 3, 6, 0)
    assert rows(db, "SELECT count(*), count(DISTINCT doc_id) FROM locations") == [(9, 3)]
    assert rows(db, "SELECT count(*) FROM locations WHERE doc_id NOT IN "
                    "(SELECT id FROM documents)") == [(0,)]


def test_dry_run_shows_what_would_change_and_writes_nothing(two_folders, run_cli):
    db = two_folders / "w.duckdb"
    fresh = run_cli("ingest", "alpha", "--db", str(db), "--dry-run", cwd=two_folders, check=True)
    assert fresh.stdout.splitlines()[-1].startswith("dry run, nothing written: 2 files: 2 new")
    assert not db.exists()                       # no database was created
    run_cli("ingest", "alpha", "--db", str(db), cwd=two_folders, check=True)
    before = snapshot(db) | {"errors": rows(db, "SELECT * FROM ingest_errors")}
    readme = two_folders / "alpha" / "README.md"
    readme.write_text(readme.read_text().replace("1,250", "1,500"), encoding="utf-8")
    (two_folders / "alpha" / "empty.md").write_text("")   # new: a dry run parses nothing
    proc = run_cli("ingest", "alpha", "--db", str(db), "--dry-run", cwd=two_folders, check=True)
    lines = proc.stdout.splitlines()
    assert [ln.split(" (")[0] for ln in lines[:-1]] == [
        f"would replace: {os.path.realpath(readme)}"]
    assert lines[-1].startswith("dry run, nothing written: 3 files: 1 new, 1 skipped (unchanged),"
                                " 1 replaced, 0 errors")
    assert snapshot(db) | {"errors": rows(db, "SELECT * FROM ingest_errors")} == before
