"""sources.csv overrides the metadata of the files it lists, and reports its own problems."""
from __future__ import annotations

import shutil

from pipeline.ingest import ingest_file
from pipeline.ingest.manifest import load, overrides_for


def _corpus(tmp_path, fixtures):
    (tmp_path / "sub").mkdir()
    shutil.copy(fixtures / "post.md", tmp_path / "post.md")
    shutil.copy(fixtures / "latin1.txt", tmp_path / "sub" / "notes.txt")
    shutil.copy(fixtures / "blog.html", tmp_path / "sub" / "blog.html")
    return tmp_path


def test_manifest_overrides_listed_files(tmp_path, fixtures):
    root = _corpus(tmp_path, fixtures)
    (root / "sources.csv").write_text(
        "path,role,publisher,title,url,date\n"
        "post.md,secondary,Other Press,,,2020-02-03\n"
        "./sub/notes.txt,primary,Notes Inc,Latency notebook,https://n.example/x,\n",
        encoding="utf-8")
    post = ingest_file(root / "post.md", root)
    assert (post.role, post.role_source) == ("secondary", "manifest")
    assert post.publisher == "Other Press" and post.published == "2020-02-03"
    assert post.title == "Serving a 70B model on two nodes"      # empty cell: file's own title
    notes = ingest_file(root / "sub" / "notes.txt", root)
    assert (notes.role, notes.publisher, notes.title, notes.url) == (
        "primary", "Notes Inc", "Latency notebook", "https://n.example/x")
    blog = ingest_file(root / "sub" / "blog.html", root)          # not listed: untouched
    assert (blog.role, blog.role_source, blog.publisher) == ("unknown", None, "Quillfeather Labs")


def test_nearest_manifest_wins_field_by_field(tmp_path, fixtures):
    root = _corpus(tmp_path, fixtures)
    (root / "sources.csv").write_text("path,role,publisher\nsub/blog.html,primary,Outer\n")
    (root / "sub" / "sources.csv").write_text("path,publisher\nblog.html,Inner\n")
    over, used = overrides_for(root / "sub" / "blog.html", root)
    assert (over.role, over.publisher) == ("primary", "Inner")
    assert len(used) == 2


def test_bom_header_and_problems_are_collected(tmp_path, fixtures):
    root = _corpus(tmp_path, fixtures)
    (root / "sources.csv").write_bytes(
        b"\xef\xbb\xbfpath,role,date\r\npost.md,official,someday\r\nmissing.md,primary,\r\n")
    manifest = load(root / "sources.csv")
    assert "post.md" in manifest.entries                         # BOM did not eat "path"
    text = " ".join(manifest.problems)
    assert "official" in text and "someday" in text and "missing.md" in text
    assert ingest_file(root / "post.md", root).role == "primary"  # front matter role kept


def test_manifest_without_path_column(tmp_path):
    (tmp_path / "sources.csv").write_text("file,role\nx.md,primary\n")
    assert load(tmp_path / "sources.csv").problems == ["no 'path' column in the header"]
