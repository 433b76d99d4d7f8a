"""Document metadata an analyst can cite: a publisher, a real title (issue: no bare
'Overview', no Markdown markup), a link to the file a copy came from."""
from __future__ import annotations

from pathlib import Path

from pipeline.ingest import ingest_bytes, ingest_file
from pipeline.ingest.meta import better_title, clean_title, publisher_from_url


def test_titles_lose_markup_and_bare_section_names_gain_the_file():
    assert clean_title("**A Look Back** at [SGLang](https://x.y) `v0.4`") == "A Look Back at SGLang v0.4"
    assert better_title("Overview", "docs/perf-overview.md") == "Overview (perf-overview)"
    assert better_title("Introduction", "lmdeploy/README.md") == "Introduction (lmdeploy)"
    assert better_title("Serving Llama 3", "x/overview.md") == "Serving Llama 3"


def test_publisher_from_a_web_address():
    assert publisher_from_url("https://github.com/NVIDIA/TensorRT-LLM/blob/main/x.md") == "NVIDIA"
    assert publisher_from_url("https://www.blog.vllm.ai/2024/09/05/perf.html") == "blog.vllm.ai"
    assert publisher_from_url(None) is None and publisher_from_url("not a url") is None


def test_markdown_heading_title_is_cleaned_and_url_names_publisher():
    doc = ingest_bytes(b"---\nurl: https://github.com/acme/serve/blob/main/b.md\n---\n"
                       b"# **Overview**\n\nAcme serves 100 tokens/s per user.\n", "docs/bench-notes.md")
    assert doc.title == "Overview (bench-notes)"
    assert doc.publisher == "acme" and doc.meta["publisher_source"] == "url"


def test_manifest_repo_columns_give_url_and_publisher(tmp_path: Path):
    (tmp_path / "a.md").write_text("# Bench\n\nIt reached 100 tokens/s per user.\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("# Other\n\nIt reached 90 tokens/s per user.\n", encoding="utf-8")
    (tmp_path / "MANIFEST.tsv").write_text(
        "path\trepo\tpath_in_repo\tcommit\tpublisher\n"
        "a.md\tacme/serve\tdocs/a.md\tabc123\t\n"
        "b.md\tacme/serve\tdocs/b.md\tabc123\tAcme Labs\n", encoding="utf-8")
    a = ingest_file(tmp_path / "a.md", tmp_path)
    b = ingest_file(tmp_path / "b.md", tmp_path)
    assert a.url == "https://github.com/acme/serve/blob/abc123/docs/a.md"
    assert a.publisher == "acme"
    assert b.publisher == "Acme Labs"            # a stated publisher wins over the owner
