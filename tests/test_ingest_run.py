"""The ingest flow in-process: extractor failures are per-file errors; PDF claims get pages."""
from __future__ import annotations

import shutil

from pipeline.model import Claim, Document
from pipeline.run import ingest_paths, process
from pipeline.store import Store


def _one_claim(doc: Document) -> list[Claim]:
    start = doc.text.index("1,234")
    return [Claim(id=f"{doc.id}-0", doc_id=doc.id, start=start, end=start + 5, surface="1,234",
                  value=1234.0, family="token_throughput", unit="tokens/s")]


def test_pdf_claims_get_their_page(sample_pdf):
    doc, claims = process(sample_pdf, sample_pdf.parent, extract=_one_claim)
    assert [c.page for c in claims] == [2]


def test_extractor_failure_is_recorded_and_the_run_goes_on(tmp_path, fixtures):
    for name in ("post.md", "latin1.txt"):
        shutil.copy(fixtures / name, tmp_path / name)

    def flaky(doc: Document) -> list[Claim]:
        if doc.path == "post.md":
            raise RuntimeError("extractor bug\nsecond line")
        return []

    with Store.open(tmp_path / "db.duckdb") as store:
        summary = ingest_paths([tmp_path], store, extract=flaky)
        assert (summary.new, summary.errors) == (1, 1)
        (outcome,) = [o for o in summary.outcomes if o.status == "error"]
        assert outcome.reason == "unexpected RuntimeError: extractor bug second line"
        assert "Traceback" in outcome.trace
        assert store.query("SELECT path FROM documents")[1] == [("latin1.txt",)]
        assert store.query("SELECT path FROM ingest_errors")[1] == [("post.md",)]


def test_force_reprocesses_unchanged_files(tmp_path, fixtures):
    shutil.copy(fixtures / "post.md", tmp_path / "post.md")
    with Store.open(tmp_path / "db.duckdb") as store:
        assert ingest_paths([tmp_path], store, extract=lambda d: []).new == 1
        assert ingest_paths([tmp_path], store, extract=lambda d: []).skipped == 1
        assert ingest_paths([tmp_path], store, extract=lambda d: [], force=True).replaced == 1
        assert store.query("SELECT count(*) FROM documents")[1] == [(1,)]
