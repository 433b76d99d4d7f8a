"""Roles are inferred in the ingest workers (where the text is at hand) and kept in
documents.meta, so the link after an ingest reads no text back; `claims link` infers
them again from the text, and both give the same roles."""
from __future__ import annotations

from pipeline.run import ingest_paths, link_store
from pipeline.store import Store


def _corpus(folder):
    folder.mkdir()
    (folder / "ours.md").write_text("# Our results\n\nWe measured 1,200 tokens/s on 8x H100 "
                                    "with Llama 3 70B. Our benchmarks ran vLLM.\n")
    (folder / "news.md").write_text("# Coverage\n\nAccording to the vendor, the system reached "
                                    "1,200 tokens/s on 8x H100 with Llama 3 70B, the company said.\n")
    return folder


def test_link_after_ingest_uses_the_workers_roles(tmp_path, monkeypatch):
    folder = _corpus(tmp_path / "c")
    with Store.open(tmp_path / "w.duckdb") as store:
        ingest_paths([folder], store, workers=1)
        stored = dict(store.query("SELECT path, meta->>'inferred_role' FROM documents")[1])
        assert stored == {"ours.md": "primary", "news.md": "secondary"}

        def no_texts(self, doc_ids, *a, **k):
            assert list(doc_ids) == [], "the incremental link read document texts"
            return iter(())

        with monkeypatch.context() as m:
            m.setattr(Store, "iter_texts", no_texts)
            report = link_store(store)
        assert sorted(report.inferred) == [("news.md", "secondary"), ("ours.md", "primary")]
        roles = store.query("SELECT path, role, role_source FROM documents ORDER BY path")[1]
        assert roles == [("news.md", "secondary", "inferred"), ("ours.md", "primary", "inferred")]
        full = link_store(store, full=True)          # from the text again: the same roles
        assert full.inferred == []
        assert store.query("SELECT path, role, role_source FROM documents ORDER BY path")[1] == roles
