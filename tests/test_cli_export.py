"""`claims export documents|claims|links` as JSON lines, CSV or Parquet."""
from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq
import pytest

from pipeline.ingest import ingest_file
from pipeline.model import Claim, Link
from pipeline.store import Store

REQUIRED_CLAIM_KEYS = (
    "id doc_path start end surface page sentence value value_text low high comparator precision "
    "unit_text unit family scope statistic phase token_kind model hardware engine dtype "
    "concurrency asserted_by stance implied findings").split()


@pytest.fixture(scope="module")
def db(tmp_path_factory, fixtures):
    """Two documents with hand-made claims and a link, written through the store API so
    the export tests do not depend on what the extractor finds."""
    root = tmp_path_factory.mktemp("export")
    path = root / "e.duckdb"
    with Store.open(path) as store:
        post = ingest_file(fixtures / "post.md", fixtures)
        claims = []
        for i, surface in enumerate(("48 tokens/s", "2,900 tokens/s")):
            start = post.text.index(surface)
            claims.append(Claim(id=f"c{i}", doc_id=post.id, start=start, end=start + len(surface),
                                surface=surface, value=float(surface.split()[0].replace(",", "")),
                                family="token_throughput", unit="tokens/s",
                                scope="per_user" if i == 0 else "aggregate",
                                findings=["unsourced"] if i else []))
        store.write(post, claims, "fp")
        store.write(ingest_file(fixtures / "blog.html", fixtures), [], "fp")
        store.write_links([Link(src="c0", dst="c1", relation="mismatch", consistent=None,
                                detail="per user vs aggregate")], [("k1", "c0"), ("k1", "c1")])
    return path


def test_claims_jsonl_has_the_agreed_fields(db, run_cli):
    out = run_cli("export", "claims", "--db", str(db), cwd=db.parent, check=True).stdout
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["id"] for o in objs] == ["c0", "c1"]
    for key in REQUIRED_CLAIM_KEYS:
        assert key in objs[0], key
    assert objs[1]["doc_path"] == "post.md" and objs[1]["value"] == 2900.0
    assert objs[1]["findings"] == ["unsourced"] and objs[0]["implied"] is False


def test_documents_jsonl_and_csv(db, run_cli):
    out = run_cli("export", "documents", "--db", str(db), cwd=db.parent, check=True).stdout
    docs = {d["path"]: d for d in map(json.loads, out.splitlines())}
    assert set(docs) == {"post.md", "blog.html"}
    assert docs["post.md"]["meta"]["encoding"] == "utf-8"          # JSON column as an object
    assert docs["post.md"]["published"] == "2024-06-18"
    assert docs["blog.html"]["text"].startswith("# Speculative decoding")
    out = run_cli("export", "documents", "--db", str(db), "--format", "csv", cwd=db.parent,
                  check=True).stdout
    table = list(csv.DictReader(io.StringIO(out)))
    assert {r["path"] for r in table} == {"post.md", "blog.html"}
    assert "| two nodes, TP8 x PP2 | 2,900 | 1.4 s |" in next(
        r["text"] for r in table if r["path"] == "post.md")


def test_links_csv_and_parquet_file(db, run_cli, tmp_path):
    out = run_cli("export", "links", "--db", str(db), "--format", "csv", cwd=tmp_path,
                  check=True).stdout
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert (row["src"], row["dst"], row["relation"], row["detail"]) == (
        "c0", "c1", "mismatch", "per user vs aggregate")
    target = tmp_path / "claims.parquet"
    run_cli("export", "claims", "--db", str(db), "--format", "parquet", "-o", str(target),
            cwd=tmp_path, check=True)
    table = pq.read_table(target)
    assert table.num_rows == 2 and "doc_path" in table.column_names


def test_jsonl_to_file_and_parquet_needs_a_file(db, run_cli, tmp_path):
    run_cli("export", "links", "--db", str(db), "-o", str(tmp_path / "l.jsonl"), cwd=tmp_path,
            check=True)
    assert json.loads((tmp_path / "l.jsonl").read_text())["relation"] == "mismatch"
    proc = run_cli("export", "claims", "--db", str(db), "--format", "parquet", cwd=tmp_path)
    assert proc.returncode != 0 and proc.stderr.startswith("error: ") and proc.stdout == ""
