"""The folder walk: recursive, stable, hidden files skipped, unknown extensions counted."""
from __future__ import annotations

import pytest

from pipeline.ingest.walk import DOCUMENT, MANIFEST, UNSUPPORTED, walk


def test_walk_classifies_files(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    files = {
        "a/b/deep.md": "# Deep\n", "a/page.HTML": "<html><body><p>x</p></body></html>",
        "notes.txt": "n", "data.tsv": "a\tb\n", "README": "# readme without extension\n",
        "run": "#!/bin/sh\necho\n", "sources.csv": "path,role\n", ".hidden.md": "h",
        ".git/config": "[core]",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    found = {f.rel: f.kind for f in walk([tmp_path])}
    assert found == {
        "README": DOCUMENT, "a/b/deep.md": DOCUMENT, "a/page.HTML": DOCUMENT,
        "data.tsv": UNSUPPORTED, "notes.txt": DOCUMENT, "run": UNSUPPORTED,
        "sources.csv": MANIFEST,
    }
    assert [f.rel for f in walk([tmp_path])] == sorted(found)  # stable order


def test_named_file_is_its_own_root_and_visited_once(tmp_path):
    (tmp_path / "x.log").write_text("a log")
    found = list(walk([tmp_path / "x.log", tmp_path]))
    assert [(f.rel, f.kind, f.root) for f in found] == [("x.log", DOCUMENT, tmp_path)]


def test_several_folders_share_their_common_root(tmp_path):
    for name in ("v2", "v3"):
        (tmp_path / "src" / name).mkdir(parents=True)
        (tmp_path / "src" / name / "README.md").write_text(f"# {name}\n")
    (tmp_path / "src" / "x.txt").write_text("x")
    found = list(walk([tmp_path / "src" / "v3", tmp_path / "src" / "v2", tmp_path / "src" / "x.txt"]))
    assert [f.rel for f in found] == ["v3/README.md", "v2/README.md", "x.txt"]
    assert {f.root for f in found} == {tmp_path / "src"}


def test_missing_path_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        list(walk([tmp_path / "nope"]))
