"""Input trees nobody tidied (issue 7): symlink loops, links leading outside the folder,
broken links, unreadable files and folders, files and folders vanishing mid-run, pipes.
Each is reported (ingest_errors + summary) and the run goes on."""
from __future__ import annotations

import errno
import os
import re
import shutil
import threading

import duckdb
import pytest

from pipeline.ingest import IngestError, read_bytes
from pipeline.ingest.manifest import load as load_manifest
from pipeline.ingest.walk import DOCUMENT, ERROR, UNSUPPORTED, _Walker, walk
from pipeline.model import Claim, Document
from pipeline.run import ingest_paths
from pipeline.store import Store

ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def kinds(paths, **kw):
    return {f.rel: (f.kind, f.reason) for f in walk(paths, **kw)}


@pytest.fixture
def tree(tmp_path):
    """root/ with good files, links inside and outside, loops and a broken link."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "a.md").write_text("# A\n\nIt ran at 10 ms.\n")
    (root / "sub" / "b.txt").write_text("B ran at 20 ms.\n")
    (outside / "secret.md").write_text("# Outside\n\n30 ms.\n")
    os.symlink("../outside", root / "out-dir")
    os.symlink("../outside/secret.md", root / "out-file.md")
    os.symlink("sub", root / "sub-again")                # inside: same folder, read once
    os.symlink("../a.md", root / "sub" / "a-link.md")     # inside: same file, read once
    os.symlink("..", root / "sub" / "up")                 # a folder loop
    os.symlink("loop2.md", root / "loop1.md")             # a link loop
    os.symlink("loop1.md", root / "loop2.md")
    os.symlink("missing.md", root / "broken.md")
    return root


def test_symlink_loops_and_outside_links_are_reported_not_followed(tree):
    found = kinds([tree])
    assert {rel for rel, (kind, _) in found.items() if kind == DOCUMENT} == {"a.md", "sub/b.txt"}
    errors = {rel: reason for rel, (kind, reason) in found.items() if kind == ERROR}
    assert set(errors) == {"out-dir", "out-file.md", "sub/up", "loop1.md", "loop2.md", "broken.md"}
    assert re.fullmatch(r"symlink to .*outside leads outside .*root: not followed "
                        r"\(use --follow-links to read it\)", errors["out-dir"])
    assert errors["sub/up"].startswith("symlink loop: the link leads back to a folder")
    assert errors["loop1.md"].startswith("symlink loop")
    assert errors["broken.md"] == "broken symlink: its target missing.md does not exist"


def test_follow_links_reads_outside_targets_but_never_loops(tree):
    found = kinds([tree], follow_links=True)
    docs = {rel for rel, (kind, _) in found.items() if kind == DOCUMENT}
    assert docs == {"a.md", "sub/b.txt", "out-dir/secret.md"}   # out-file.md: same file
    assert found["sub/up"][0] == ERROR and found["loop1.md"][0] == ERROR


def test_tree_problems_land_in_ingest_errors_and_the_summary(tree, run_cli):
    db = tree.parent / "db.duckdb"
    proc = run_cli("ingest", str(tree), "--db", str(db), "--no-link", "--workers", "0",
                   cwd=tree.parent)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\b2 new\b.*\b6 errors\b", proc.stdout.splitlines()[-1])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 6 and all(line.startswith("error: ") for line in lines)
    assert "Traceback" not in proc.stderr
    con = duckdb.connect(str(db), read_only=True)
    assert {r[0] for r in con.execute("SELECT path FROM ingest_errors").fetchall()} == {
        "out-dir", "out-file.md", "sub/up", "loop1.md", "loop2.md", "broken.md"}
    con.close()
    strict = run_cli("ingest", str(tree), "--db", str(db), "--no-link", "--strict", cwd=tree.parent)
    assert strict.returncode == 1
    followed = run_cli("ingest", str(tree), "--db", str(db), "--no-link", "--follow-links",
                       "--workers", "0", cwd=tree.parent)
    assert re.search(r"\b1 new\b.*\b4 errors\b", followed.stdout.splitlines()[-1]), followed.stdout


def _deny(monkeypatch, denied: set[str]):
    """Make opening/listing these paths fail with EACCES, as for an unprivileged user."""
    real_open, real_scandir = os.open, os.scandir

    def fake_open(path, *a, **kw):
        if os.path.basename(str(path)) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    def fake_scandir(path="."):
        if os.path.basename(str(path)) in denied:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "scandir", fake_scandir)


def test_unreadable_file_and_folder_are_reported(tmp_path, monkeypatch):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.md").write_text("# x\n")
    (tmp_path / "secret.md").write_text("# s\n")
    (tmp_path / "ok.md").write_text("# ok\n\n5 ms.\n")
    _deny(monkeypatch, {"locked", "secret.md"})
    found = kinds([tmp_path])
    assert found["locked"] == (ERROR, "cannot read folder: permission denied "
                                      "(give read permission or leave it out)")
    with pytest.raises(IngestError, match=r"^cannot read file: permission denied \(give read"):
        read_bytes(tmp_path / "secret.md")
    with Store.open(tmp_path / "db.duckdb") as store:
        summary = ingest_paths([tmp_path], store, workers=0, extract=lambda d: [])
        assert (summary.new, summary.errors) == (1, 2)
        assert dict(store.query("SELECT path, reason FROM ingest_errors")[1]) == {
            "locked": found["locked"][1],
            "secret.md": "cannot read file: permission denied (give read permission or leave it out)"}


@pytest.mark.skipif(ROOT_USER, reason="root reads everything; the monkeypatched test covers it")
def test_unreadable_file_and_folder_for_real(tmp_path):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.md").write_text("# x\n")
    (tmp_path / "secret.md").write_text("# s\n")
    os.chmod(tmp_path / "locked", 0)
    os.chmod(tmp_path / "secret.md", 0)
    try:
        found = kinds([tmp_path])
        assert found["locked"][0] == ERROR and "permission denied" in found["locked"][1]
        with pytest.raises(IngestError, match="permission denied"):
            read_bytes(tmp_path / "secret.md")
    finally:
        os.chmod(tmp_path / "locked", 0o755)
        os.chmod(tmp_path / "secret.md", 0o644)


def test_file_vanishing_mid_run_is_reported(tmp_path):
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(f"# {name}\n\nIt ran at 5 ms.\n")

    def delete_the_next(doc: Document) -> list[Claim]:
        if doc.path == "a.md":
            (tmp_path / "b.md").unlink()        # listed and hashed, gone before parsing
        return []

    with Store.open(tmp_path / "db.duckdb") as store:
        summary = ingest_paths([tmp_path], store, workers=0, extract=delete_the_next)
        assert (summary.new, summary.errors) == (2, 1)
        assert store.query("SELECT path, reason FROM ingest_errors")[1] == [
            ("b.md", "file vanished before it was read (moved or deleted during the run?)")]


def test_folder_vanishing_mid_walk_is_reported(tmp_path):
    (tmp_path / "gone").mkdir()
    walker = _Walker(tmp_path, tmp_path, follow_links=False)
    shutil.rmtree(tmp_path / "gone")
    walker.seen_dirs.add((0, 0))
    assert walker._scan(tmp_path / "gone") == []
    assert [(f.rel, f.kind, f.reason) for f in walker.out] == [
        ("gone", ERROR, "folder vanished during the run (moved or deleted?)")]


def test_manifest_vanished_or_unreadable_is_a_problem_not_a_crash(tmp_path, monkeypatch):
    csv = tmp_path / "sources.csv"
    assert load_manifest(csv).problems == [
        "vanished before it was read (moved or deleted during the run?)"]
    csv.write_text("path,role\na.md,primary\n")
    real_stat = os.stat

    def denied(path, *a, **kw):
        if str(path) == str(csv):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *a, **kw)

    monkeypatch.setattr(os, "stat", denied)
    assert load_manifest(csv).problems == ["cannot read it: permission denied (give read permission)"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_pipes_are_never_opened_for_reading(tmp_path):
    os.mkfifo(tmp_path / "pipe.txt")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "ok.md").write_text("# ok\n")
    result: dict = {}

    def run():
        result["found"] = kinds([tmp_path])
        try:
            read_bytes(tmp_path / "pipe.txt")
        except IngestError as exc:
            result["named"] = str(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive(), "blocked on a pipe"
    assert result["found"]["pipe.txt"][0] == UNSUPPORTED and result["found"]["pipe"][0] == UNSUPPORTED
    assert result["named"] == "not a regular file (a pipe, socket or device): left alone"
