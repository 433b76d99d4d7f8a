"""Markdown: front matter becomes metadata and is cut; everything else stays as written."""
from __future__ import annotations

from pipeline.ingest import ingest_file
from pipeline.ingest.markdown import split_front_matter


def test_front_matter_metadata(fixtures):
    doc = ingest_file(fixtures / "post.md", fixtures)
    assert doc.format == "markdown"
    assert doc.title == "Serving a 70B model on two nodes"
    assert doc.publisher == "Larkspur Compute"
    assert doc.published == "2024-06-18"
    assert doc.url == "https://larkspur.example/posts/two-nodes"
    assert doc.author == "Ines Duarte, Kofi Mensah"
    assert (doc.role, doc.role_source) == ("primary", "metadata")
    assert doc.meta["front_matter"]["tags"] == ["serving", "benchmarks"]


def test_stored_text_is_the_file_minus_front_matter(fixtures):
    raw = (fixtures / "post.md").read_text(encoding="utf-8")
    doc = ingest_file(fixtures / "post.md", fixtures)
    assert raw.endswith(doc.text)
    assert "publisher:" not in doc.text and not doc.text.startswith("---")
    start = doc.text.index("2,900 tokens/s")
    assert doc.text[start:start + 14] == "2,900 tokens/s"


def test_table_rows_and_headings_stay_one_per_line(fixtures):
    lines = ingest_file(fixtures / "post.md", fixtures).text.splitlines()
    assert "| two nodes, TP8 x PP2 | 2,900 | 1.4 s |" in lines
    assert "## Results" in lines


def test_toml_front_matter(fixtures):
    doc = ingest_file(fixtures / "hugo.md", fixtures)
    assert doc.title == "Goodput under strict latency targets"
    assert doc.published == "2025-01-09"
    assert doc.author == "Priya Raman, Lucas Brandt"
    assert "draft" not in doc.text and doc.text.lstrip().startswith("Under a 200 ms")


def test_title_from_heading_and_date_from_path(tmp_path):
    folder = tmp_path / "2023-11-05"
    folder.mkdir()
    (folder / "README.md").write_text("Intro line\n\n# The real title\n\nBody.\n")
    doc = ingest_file(folder / "README.md", tmp_path)
    assert doc.path == "2023-11-05/README.md"
    assert doc.title == "The real title"
    assert doc.published == "2023-11-05" and doc.meta["published_source"] == "path"


def test_broken_front_matter_is_reported_not_fatal(tmp_path):
    (tmp_path / "bad.md").write_text("---\ntitle: [unclosed\n---\nBody at 3 ms.\n")
    doc = ingest_file(tmp_path / "bad.md", tmp_path)
    assert doc.text == "Body at 3 ms.\n"
    assert "front matter not parsed" in doc.meta["front_matter_error"]


def test_horizontal_rule_is_not_front_matter():
    front, body, err = split_front_matter("---\njust text\n---\nmore\n")
    assert front is None and body.startswith("---") and err is None


def test_bad_role_in_front_matter_is_ignored(tmp_path):
    (tmp_path / "r.md").write_text("---\nrole: official\n---\nBody.\n")
    doc = ingest_file(tmp_path / "r.md", tmp_path)
    assert doc.role == "unknown" and doc.role_source is None
    assert "official" in doc.meta["role_error"]
