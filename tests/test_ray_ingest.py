"""`claims ingest --ray` (pipeline/ray_ingest.py): the per-file work mapped over a local Ray,
shards taken in by DuckDB, the same database as the worker processes give.

One local Ray (2 CPUs, conftest's ``local_ray``) serves the session; the tests skip only where Ray Data cannot be
imported (it is the optional extra `claims[ray]`)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pipeline.run import ingest_paths, link_store
from pipeline.store import Store

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'claims[ray]')")
pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'claims[ray]')")

from pipeline.ray_ingest import ingest_ray  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

# every stored table, without the time of writing
TABLES = {
    "documents": "SELECT id, path, format, title, publisher, url, published, author, role,"
                 " role_source, n_chars, n_bytes, text, CAST(meta AS VARCHAR), fingerprint"
                 " FROM documents",
    "pages": "SELECT * FROM pages",
    "claims": "SELECT * FROM claims",
    "claim_keys": "SELECT * FROM claim_keys",
    "links": "SELECT * FROM links",
    "clusters": "SELECT * FROM clusters",
    "locations": "SELECT source, doc_id, path FROM locations",
    "errors": "SELECT path, reason FROM ingest_errors",
}


def _state(db: Path) -> dict[str, set]:
    with Store.open(db, read_only=True) as store:
        return {name: {tuple(tuple(v) if isinstance(v, list) else v for v in row)
                       for row in store.query(sql)[1]} for name, sql in TABLES.items()}


@pytest.fixture(scope="module")
def sources(REAL, fixtures, tmp_path_factory) -> list[Path]:
    """The real corpus, corpus/, and a folder with a file that fails (an error row)."""
    bad = tmp_path_factory.mktemp("bad")
    shutil.copy(fixtures / "corrupt.pdf", bad / "corrupt.pdf")
    (bad / "note.md").write_text("# Note\n\nOrca-70B reaches 1,240 tokens/s per user on "
                                 "one H200.\n", encoding="utf-8")
    return [REAL, REPO / "corpus", bad]


@pytest.fixture(scope="module")
def with_workers(sources, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("workers") / "w.duckdb"
    with Store.open(db) as store:
        ingest_paths(sources, store, workers=2)
        link_store(store)
    return db


def test_ray_and_workers_give_the_same_database(local_ray, sources, with_workers, tmp_path):
    db = tmp_path / "r.duckdb"
    shards = tmp_path / "shards"
    with Store.open(db) as store:
        summary = ingest_ray(sources, store, shards=shards)
        link_store(store)
    # the shards are Parquet of the four tables, kept where they were asked for
    assert {p.name for p in shards.iterdir()} >= {"table=documents", "table=claims",
                                                  "table=errors"}
    assert summary.errors == 1 and summary.new > 20 and summary.claims > 500
    assert any(o.path.endswith("corrupt.pdf") for o in summary.outcomes)
    ray_state, workers_state = _state(db), _state(with_workers)
    assert len(ray_state["links"]) > 20 and len(ray_state["errors"]) == 1
    for name in TABLES:
        assert ray_state[name] == workers_state[name], name

    # idempotent: the same files again are all skipped before parsing, nothing changes
    with Store.open(db) as store:
        again = ingest_ray(sources, store)
        assert link_store(store) is None
    assert again.new == again.replaced == 0 and again.skipped == summary.new
    assert _state(db) == ray_state


def test_changed_file_replaces_its_document(local_ray, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    page = folder / "a.md"
    page.write_text("# A\n\nOrca-70B reaches 1,240 tokens/s per user on one H200.\n", encoding="utf-8")
    db = tmp_path / "c.duckdb"
    with Store.open(db) as store:
        first = ingest_ray([folder], store)
        old = store.query("SELECT id FROM documents")[1]
        page.write_text("# A\n\nOrca-70B reaches 1,310 tokens/s per user on one H200.\n", encoding="utf-8")
        second = ingest_ray([folder], store)
        new = store.query("SELECT id FROM documents")[1]
        values = store.query("SELECT value FROM claims WHERE family = 'token_throughput'")[1]
    assert first.new == 1 and second.replaced == 1
    assert old != new and len(new) == 1
    assert values == [(1310.0,)]


def test_cli_ray_option(local_ray, run_cli, tmp_path):
    """`claims ingest --ray=ADDRESS` joins the Ray at ADDRESS (this session's); a bare
    `--ray` starts a local one; a value that is neither an address nor a path is refused
    in one line."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nOrca-70B reaches 1,240 tokens/s per user on one "
                                 "H200.\n", encoding="utf-8")
    db = tmp_path / "cli.duckdb"
    bad = run_cli("ingest", "--ray", "no-such-thing", str(folder), "--db", str(db), cwd=tmp_path)
    assert bad.returncode != 0 and "not a Ray address" in bad.stderr
    address = ray.get_runtime_context().gcs_address
    ok = run_cli("ingest", f"--ray={address}", str(folder), "--db", str(db), "-q", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "1 files: 1 new" in ok.stdout and "1 claims" in ok.stdout
    (folder / "b.md").write_text("# B\n\nOrca-70B reaches 1,240 tokens/s per user on two "
                                 "H200.\n", encoding="utf-8")
    # a bare --ray (here the last word): a local Ray started by the command itself
    again = run_cli("ingest", str(folder), "--db", str(db), "-q", "--ray", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "2 files: 1 new, 1 skipped" in again.stdout


def test_ray_option_value_that_is_a_path_is_a_source(tmp_path):
    from pipeline.cli import _bare_ray, _ray_address

    assert _ray_address(["b"], str(tmp_path)) == ([str(tmp_path), "b"], "local")
    assert _ray_address(["b"], "10.1.2.3:6379") == (["b"], "10.1.2.3:6379")
    assert _bare_ray(["ingest", "--ray", "-q", "x"]) == ["ingest", "--ray=local", "-q", "x"]
    assert _bare_ray(["ingest", "x", "--ray"]) == ["ingest", "x", "--ray=local"]
    assert _bare_ray(["ingest", "--ray", "auto"]) == ["ingest", "--ray", "auto"]


def test_shards_folder_holding_other_files_is_refused(tmp_path):
    """--ray-shards empties an earlier run's shards, never a folder of other files."""
    from pipeline.ray_ingest import RayUnavailable

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nOrca-70B reaches 1,240 tokens/s.\n", encoding="utf-8")
    shards = tmp_path / "mine"
    shards.mkdir()
    (shards / "keep.txt").write_text("mine", encoding="utf-8")
    with Store.open(tmp_path / "s.duckdb") as store:
        with pytest.raises(RayUnavailable, match="not shards"):
            ingest_ray([folder], store, shards=shards)
        assert store.query("SELECT count(*) FROM documents")[1] == [(0,)]
    assert (shards / "keep.txt").read_text(encoding="utf-8") == "mine"


def _notes(folder: Path, n: int) -> Path:
    """``n`` small Markdown files, one figure each (two Ray tasks of files when n > 8)."""
    folder.mkdir()
    for i in range(n):
        (folder / f"n{i}.md").write_text(f"# Note {i}\n\nOrca-{i}B reaches {1000 + i} tokens/s "
                                         "per user on one H200.\n", encoding="utf-8")
    return folder


def _dies(fn, target: str, attempts: Path, times: int | None):
    """``file_rows`` that kills its worker process (as a node lost mid-run does) when it
    reaches ``target``, the first ``times`` times (None: every time); each attempt at
    ``target`` is a line in ``attempts``. A closure, so Ray ships it by value."""
    def rows(item):
        if item["rel"] == target:
            with attempts.open("a", encoding="utf-8") as f:
                f.write(f"{os.getpid()}\n")
            if times is None or len(attempts.read_text(encoding="utf-8").split()) <= times:
                os._exit(1)
        return fn(item)
    return rows


@pytest.fixture
def notes_reference(tmp_path) -> tuple[Path, Path]:
    """Nine notes, and the database `--workers` makes of them (ingested and linked)."""
    folder = _notes(tmp_path / "notes", 9)
    db = tmp_path / "reference.duckdb"
    with Store.open(db) as store:
        ingest_paths([folder], store, workers=0)
        link_store(store)
    return folder, db


def test_a_task_whose_worker_dies_is_run_again(local_ray, notes_reference, tmp_path,
                                               monkeypatch):
    import pipeline.ray_ingest as ray_ingest

    folder, reference = notes_reference
    attempts = tmp_path / "attempts"
    monkeypatch.setattr(ray_ingest, "file_rows", _dies(ray_ingest.file_rows, "n4.md",
                                                       attempts, times=1))
    db = tmp_path / "dies.duckdb"
    with Store.open(db) as store:
        summary = ingest_ray([folder], store)
        link_store(store)
    pids = attempts.read_text(encoding="utf-8").split()
    assert len(pids) == 2 and pids[0] != pids[1]      # died once, run again in a new worker
    assert summary.new == 9 and summary.errors == 0
    assert _state(db) == _state(reference)


def test_a_task_that_keeps_dying_leaves_error_rows_and_a_rerun_completes(
        local_ray, notes_reference, tmp_path, monkeypatch):
    """Past ``TASK_RETRIES`` the task's files are ingest errors, the rest is stored and
    the run ends normally; the next `claims ingest` parses just those files again."""
    import pipeline.ray_ingest as ray_ingest

    folder, reference = notes_reference
    attempts = tmp_path / "attempts"
    original = ray_ingest.file_rows
    monkeypatch.setattr(ray_ingest, "file_rows", _dies(original, "n4.md", attempts, None))
    db = tmp_path / "keeps.duckdb"
    with Store.open(db) as store:
        first = ingest_ray([folder], store)
        link_store(store)
        errors = store.query("SELECT path, reason FROM ingest_errors ORDER BY path")[1]
    assert len(attempts.read_text(encoding="utf-8").split()) == 1 + ray_ingest.TASK_RETRIES
    assert 0 < first.errors < 9 and first.new == 9 - first.errors
    assert "n4.md" in {Path(p).name for p, _ in errors} and len(errors) == first.errors
    assert all("no result from the Ray cluster" in r for _, r in errors)

    monkeypatch.setattr(ray_ingest, "file_rows", original)
    with Store.open(db) as store:
        again = ingest_ray([folder], store)
        link_store(store)
    assert again.new == first.errors and again.skipped == first.new and again.errors == 0
    assert _state(db) == _state(reference)
