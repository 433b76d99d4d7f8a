"""`claims export prov` (pipeline/formats/prov.py, docs/formats.md): the warehouse as W3C
PROV-JSON, read back by the `prov` package with the same records, and with exactly the
links that are provenance (restates, sources in primary documents, derives) as derivations."""
from __future__ import annotations

import collections
import json
import warnings
from pathlib import Path

import duckdb
import pytest

prov_model = pytest.importorskip("prov.model", reason="the `prov` package (test extra) is not installed")

REPO = Path(__file__).resolve().parents[1]
# Four documents written for this test: a primary post with a derived percentage, a
# secondary that credits it (restates), one that does not (supports), and a rival primary
# (conflicts).
DOCS = {
    'kestrel-post.md': '---\ntitle: "Kestrel Labs: serving Falcon 180B on H100"\npublisher: Kestrel Labs\ndate: 2027-05-04\nurl: https://kestrel.example/falcon-180b\n---\n\n# Serving Falcon 180B on H100\n\nWe serve Falcon 180B on one node of 8 x H100 GPUs with vLLM. With one user, the new kernel\npath reaches 96 tokens/s per user, while the old path on the same node reaches 64 tokens/s\nper user, so the new path is 50% faster.\n',
    'osprey.md': '---\ntitle: "Osprey Cloud benchmark notes"\npublisher: Osprey Cloud\ndate: 2027-05-06\n---\n\n# Benchmark notes\n\nOn our 8 x H100 node, Falcon 180B with vLLM reaches 75 tokens/s per user with one user.\n',
    'digest.md': '---\ntitle: "Inference digest, week 19"\npublisher: Token Times\ndate: 2027-05-10\n---\n\n# Inference digest\n\nKestrel Labs says Falcon 180B runs at 96 tokens/s per user on 8 x H100 with vLLM.\n',
    'roundup.md': '---\ntitle: "Roundup: what got faster"\npublisher: Wire Weekly\ndate: 2027-05-12\n---\n\n# Roundup\n\nFalcon 180B now runs at 96 tokens/s per user on 8 x H100 with vLLM.\n',
    'sources.csv': 'path,role\nkestrel-post.md,primary\nosprey.md,primary\ndigest.md,secondary\nroundup.md,secondary\n',
}

SECTION_TYPE = {"entity": "ProvEntity", "activity": "ProvActivity", "agent": "ProvAgent",
                "wasGeneratedBy": "ProvGeneration", "used": "ProvUsage",
                "wasAssociatedWith": "ProvAssociation", "wasDerivedFrom": "ProvDerivation"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory, run_cli):
    root = tmp_path_factory.mktemp("prov")
    docs = root / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    db = root / "p.duckdb"
    run_cli("ingest", str(docs), "--db", str(db), "-q", cwd=REPO, check=True)
    out = root / "claims.prov.json"
    run_cli("export", "prov", "--db", str(db), "-o", str(out), cwd=REPO, check=True)
    return db, out


def _read(path: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a construct prov would reject later fails now
        return prov_model.ProvDocument.deserialize(source=str(path), format="json")


def _links(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT l.src, l.dst, l.relation, l.other, ds.role, dd.role FROM links l "
            "JOIN claims cs ON cs.id = l.src JOIN documents ds ON ds.id = cs.doc_id "
            "JOIN claims cd ON cd.id = l.dst JOIN documents dd ON dd.id = cd.doc_id").fetchall()
    finally:
        con.close()


def _count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def test_prov_reads_back_every_record(exported):
    db, out = exported
    raw = json.loads(out.read_text(encoding="utf-8"))
    doc = _read(out)
    counts = collections.Counter(type(r).__name__ for r in doc.get_records())
    assert counts == {SECTION_TYPE[k]: len(v) for k, v in raw.items() if k != "prefix"}
    n_docs = _count(db, "SELECT count(*) FROM documents")
    n_claims = _count(db, "SELECT count(*) FROM claims")
    assert (n_docs, n_claims) == (4, 6)
    assert counts["ProvEntity"] == n_docs + n_claims
    assert counts["ProvActivity"] == counts["ProvAssociation"] == 2 * n_docs
    assert counts["ProvGeneration"] == n_docs + n_claims and counts["ProvUsage"] == n_docs
    # written out again by prov and read back: the same document
    again = prov_model.ProvDocument.deserialize(content=doc.serialize(format="json"), format="json")
    assert again == doc


def test_links_become_the_right_derivations(exported):
    db, out = exported
    doc = _read(out)
    derived = collections.Counter()
    for r in doc.get_records(prov_model.ProvDerivation):
        attrs = dict(r.formal_attributes)
        gen = attrs[prov_model.PROV_ATTR_GENERATED_ENTITY].localpart
        used = attrs[prov_model.PROV_ATTR_USED_ENTITY].localpart
        kinds = {str(t) for t in r.get_asserted_types()} or {"derivation"}
        for kind in kinds:
            derived[(gen, used, kind)] += 1
    links = _links(db)
    assert {ln[2] for ln in links} == {"restates", "supports", "derives", "conflicts"}
    expected = collections.Counter()
    for src, dst, relation, other, src_role, dst_role in links:
        if relation == "restates":
            expected[(src, dst, "prov:Quotation")] += 1
        if relation == "derives":
            expected[(src, dst, "derivation")] += 1
            expected[(src, other, "derivation")] += 1
        if relation in ("restates", "supports") and "primary" in (src_role, dst_role) \
                and src_role != dst_role:
            sec, pri = (src, dst) if dst_role == "primary" else (dst, src)
            expected[(sec, pri, "prov:PrimarySource")] += 1
    claim_to_claim = {k: v for k, v in derived.items() if k[0] != k[1] and
                      not doc.get_record(f"doc:{k[1]}")}
    assert claim_to_claim == expected
    assert sum(1 for k in expected if k[2] == "prov:PrimarySource") == 2
    # each claim is derived from its own document, by that document's extraction
    n_claims = _count(db, "SELECT count(*) FROM claims")
    from_docs = [k for k in derived if doc.get_record(f"doc:{k[1]}")]
    assert len(from_docs) == n_claims


def test_entities_carry_the_warehouse_fields(exported):
    db, out = exported
    raw = json.loads(out.read_text(encoding="utf-8"))
    con = duckdb.connect(str(db), read_only=True)
    try:
        for cid, value, surface, family, unit in con.execute(
                "SELECT id, value, surface, family, unit FROM claims").fetchall():
            e = raw["entity"][f"claim:{cid}"]
            assert (e["prov:value"], e["claims:surface"], e["claims:family"], e["claims:unit"]) \
                == (value, surface, family, unit)
        for did, path, url, published in con.execute(
                "SELECT id, path, url, published FROM documents").fetchall():
            e = raw["entity"][f"doc:{did}"]
            assert e["claims:path"] == path and e.get("claims:url") == url
            assert e["claims:published"]["$"] == published.isoformat()
    finally:
        con.close()


def test_an_empty_warehouse_is_an_empty_document(tmp_path, run_cli):
    db = tmp_path / "empty.duckdb"
    empty = tmp_path / "nothing"
    empty.mkdir()
    run_cli("ingest", str(empty), "--db", str(db), "-q", cwd=REPO)
    p = run_cli("export", "prov", "--db", str(db), cwd=REPO, check=True)
    doc = prov_model.ProvDocument.deserialize(content=p.stdout, format="json")
    assert [type(r).__name__ for r in doc.get_records()] == ["ProvAgent"]


@pytest.mark.parametrize("args,message", [
    (("--format", "csv"), "PROV-JSON"),
    (("--cluster", "abc"), "whole warehouse"),
])
def test_wrong_options_are_clear_errors(exported, run_cli, args, message):
    db, _ = exported
    p = run_cli("export", "prov", "--db", str(db), *args, cwd=REPO)
    assert p.returncode == 2 and message in p.stderr and not p.stdout


def test_control_characters_reach_a_terminal_escaped(tmp_path, run_cli):
    """On a terminal the export shows a title's C1 control and bidi override escaped;
    redirected, the file is the data, raw characters and all."""
    import os
    import subprocess

    from conftest import claims_command

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "odd.md").write_text('---\ntitle: "Odd \\u009b6n \\u202eknown"\n---\n\n'
                                 "Falcon 180B reaches 96 tokens/s per user on 8 x H100.\n",
                                 encoding="utf-8")
    run_cli("ingest", str(docs), "--db", str(tmp_path / "w.duckdb"), "-q", cwd=tmp_path, check=True)
    piped = run_cli("export", "prov", "--db", str(tmp_path / "w.duckdb"), cwd=tmp_path, check=True)
    assert "\x9b6n \u202eknown" in piped.stdout
    json.loads(piped.stdout)
    master, slave = os.openpty()
    proc = subprocess.Popen([*claims_command(), "export", "prov", "--db", str(tmp_path / "w.duckdb")],
                            cwd=tmp_path, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    out = b""
    try:
        while True:             # read as it comes: a full terminal buffer would stop the writer
            try:
                chunk = os.read(master, 65536)
            except OSError:     # EIO: the writer closed the terminal
                break
            if not chunk:
                break
            out += chunk
        proc.wait(timeout=120)
    finally:
        os.close(master)
    text = out.decode("utf-8")
    assert proc.returncode == 0, proc.stderr.read()
    assert "\x9b" not in text and "\u202e" not in text
    assert "\\x9b6n \\u202eknown" in text
