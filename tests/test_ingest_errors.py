"""ingest_errors is keyed by where a file was read (its source), not by its display path
(issue 15): two folders' README.md failing and succeeding are told apart, and the display
path stays a column. Rows from before sources were kept (source NULL) match by path."""
from __future__ import annotations

import pytest

from pipeline.model import Document
from pipeline.store import Store


def _doc(doc_id: str, path: str = "README.md") -> Document:
    return Document(id=doc_id, path=path, format="markdown", text=f"Text of {doc_id} at 5 ms.")


def _errors(store: Store) -> list[tuple]:
    return store.query("SELECT source, path, reason FROM ingest_errors ORDER BY ALL")[1]


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "w.duckdb") as s:
        yield s


def test_two_sources_with_one_display_path_keep_their_own_errors(store):
    store.record_error("README.md", "bad bytes", source="/x/README.md")
    store.record_error("README.md", "too large", source="/y/README.md")
    assert _errors(store) == [("/x/README.md", "README.md", "bad bytes"),
                              ("/y/README.md", "README.md", "too large")]
    store.record_error("README.md", "still   bad", source="/x/README.md")     # latest wins
    assert _errors(store) == [("/x/README.md", "README.md", "still bad"),
                              ("/y/README.md", "README.md", "too large")]


def test_storing_one_source_clears_its_error_and_no_other(store):
    store.record_error("README.md", "bad bytes", source="/x/README.md")
    store.record_error("README.md", "too large", source="/y/README.md")
    assert store.write(_doc("y1"), [], "fp", source="/y/README.md") == "new"
    assert _errors(store) == [("/x/README.md", "README.md", "bad bytes")]


def test_an_error_from_before_sources_were_kept_is_matched_by_its_path(store):
    store.con.execute("INSERT INTO ingest_errors (path, reason, failed_at)"
                      " VALUES ('a.md', 'old reason', TIMESTAMP '2025-01-01')")
    store.record_error("a.md", "new reason", source="/z/a.md")    # replaces the old row
    assert _errors(store) == [("/z/a.md", "a.md", "new reason")]
    store.con.execute("INSERT INTO ingest_errors (path, reason, failed_at)"
                      " VALUES ('b.md', 'old reason', TIMESTAMP '2025-01-01')")
    assert store.write(_doc("b1", "b.md"), [], "fp", source="/z/b.md") == "new"
    assert _errors(store) == [("/z/a.md", "a.md", "new reason")]


def test_without_a_source_the_display_path_stands_for_it(store):
    store.write_many([], errors=[("c.md", "one"), ("c.md", "two")])
    assert _errors(store) == [(None, "c.md", "two")]
    assert store.write(_doc("c1", "c.md"), [], "fp", source="/w/c.md") == "new"
    assert _errors(store) == []



def test_two_folders_readme_errors_through_the_cli(tmp_path, run_cli):
    """Through the real CLI: a README.md that fails in one folder keeps its error when
    another folder's README.md is stored, and the error names its source."""
    for name, body in (("alpha", b"\x00" * 4000), ("beta", b"# Beta\n\nIt serves 900 tokens/s per GPU.\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "README.md").write_bytes(body)
    db = tmp_path / "w.duckdb"
    run_cli("ingest", str(tmp_path / "alpha"), "--db", str(db), "-q", cwd=tmp_path)
    run_cli("ingest", str(tmp_path / "beta"), "--db", str(db), "-q", cwd=tmp_path, check=True)
    with Store.open(db, read_only=True) as store:
        rows = store.query("SELECT source, path FROM ingest_errors")[1]
    assert rows == [(str((tmp_path / "alpha" / "README.md").resolve()), "README.md")]
