"""Issue 4 through the real CLI: `claims ingest` links, `claims link` relinks everything.

Seeds and the demo corpus are copied into one folder (tmp/seeds, tmp/corpus) and ingested
together into a real DuckDB file; the acceptance facts are read back with `claims sql`.
Then the same folder is ingested again (nothing may change), one more document is added
(only its subjects are relinked, its links appear) and a manifest role is changed (a
replaced document); after each step `claims link` on a copy of the database must reach
exactly the same links, clusters, findings and roles as the incremental link did.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
LINKED = re.compile(r"^linked \((?:full, [\d,]+ claims|([\d,]+) subjects?, [\d,]+ claims held)\) "
                    r"in [\d.]+ s: ([\d,]+) links \(([\d,]+) supports, ([\d,]+) restates, "
                    r"([\d,]+) conflicts, ([\d,]+) mismatch, ([\d,]+) derives\); findings: "
                    r"([\d,]+) unsourced, ([\d,]+) ambiguous, ([\d,]+) misattributed; "
                    r"([\d,]+) clusters$")
VIEWS = ("conflicts", "unsourced_claims", "metric_mismatches", "derived_checks",
         "claim_clusters", "first_sources")

# A primary document written for this test: it restates the vLLM post's parameter count
# (a new `supports`) and gives the rack's 954K as an aggregate figure (a `mismatch`).
EXTRA = """---
title: Re-running DeepSeek-V4.1-Flash on GB300
publisher: Example Lab
date: 2026-11-05
role: primary
---
# Re-running DeepSeek-V4.1-Flash on GB300

We measured DeepSeek-V4.1-Flash, a model with 552B parameters.
On one GB300 NVL72 rack, DeepSeek-V4.1-Flash served 954K tokens/s in aggregate across all users.
"""


def snapshot(db: Path) -> dict:
    """Everything linking writes, in a comparable form."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        q = lambda sql: sorted(con.execute(sql).fetchall(), key=repr)   # noqa: E731
        return {
            "links": q("SELECT src, dst, relation, consistent, detail, computed, other FROM links"),
            "clusters": q("SELECT cluster_id, claim_id FROM clusters"),
            "findings": q("SELECT id, findings FROM claims WHERE len(findings) > 0"),
            "roles": q("SELECT path, role, role_source FROM documents"),
            "keys": q("SELECT claim_id, qkey, subject FROM claim_keys"),
            "pending": q("SELECT change, doc_id, qkey FROM link_pending"),
        }
    finally:
        con.close()


def linked_line(stdout: str) -> re.Match | None:
    for line in stdout.splitlines():
        m = LINKED.match(line)
        if m:
            return m
    return None


@pytest.fixture(scope="module")
def sql(run_cli):
    def run(db: Path, query: str) -> list[dict]:
        proc = run_cli("sql", query, "--db", str(db), "--format", "json", cwd=db.parent, check=True)
        return json.loads(proc.stdout)
    return run


@pytest.fixture(scope="module")
def world(SHARED, tmp_path_factory, run_cli):
    """tmp/seeds + tmp/corpus ingested together; returns (base folder, db, ingest stdout)."""
    seeds = SHARED / "seeds"
    if not seeds.is_dir():
        pytest.skip("shared/seeds is missing")
    base = tmp_path_factory.mktemp("link")
    shutil.copytree(seeds, base / "tmp" / "seeds")
    shutil.copytree(CORPUS, base / "tmp" / "corpus")
    db = base / "w.duckdb"
    proc = run_cli("ingest", "tmp", "--db", str(db), "-v", cwd=base, check=True)  # -v: each inferred role
    return base, db, proc.stdout


@pytest.fixture(scope="module")
def steps(world, run_cli, tmp_path_factory):
    """Re-ingest unchanged, add one document, change a manifest role: the database and the
    `claims ingest` output after each step, and what `claims link` makes of a copy of it."""
    base0, db0, _ = world
    base = tmp_path_factory.mktemp("grow")
    shutil.copytree(base0 / "tmp", base / "tmp")
    db = base / "g.duckdb"
    shutil.copy(db0, db)
    out = {"start": (snapshot(db), "")}

    def ingest(name: str) -> None:
        proc = run_cli("ingest", "tmp", "--db", str(db), cwd=base, check=True)
        full = base / f"{name}.full.duckdb"
        shutil.copy(db, full)
        relink = run_cli("link", "--db", str(full), cwd=base, check=True)
        out[name] = (snapshot(db), proc.stdout, snapshot(full), relink.stdout)

    ingest("again")
    (base / "tmp" / "extra").mkdir()
    (base / "tmp" / "extra" / "lab-rerun.md").write_text(EXTRA, encoding="utf-8")
    ingest("extra")
    csv = base / "tmp" / "corpus" / "sources.csv"
    csv.write_text(csv.read_text().replace("kimi-k3.txt,primary", "kimi-k3.txt,secondary"))
    ingest("role")
    out["db"] = db
    return out


# --- the acceptance facts, through `claims sql` ------------------------------------------

def test_44_percent_derives_from_826_and_575(world, sql):
    _, db, _ = world
    rows = sql(db, "SELECT a_value, b_value, consistent, computed FROM derived_checks "
                   "WHERE surface = '44%'")
    assert rows, "no derived check for 44%"
    assert any({r["a_value"], r["b_value"]} == {826.0, 575.0} and r["consistent"]
               and r["computed"] == pytest.approx(43.65, abs=0.01) for r in rows), rows


def test_109_million_supports_1094347(world, sql):
    _, db, _ = world
    rows = sql(db, "SELECT a.surface AS a, b.surface AS b, l.consistent FROM links l "
                   "JOIN claims a ON a.id = l.src JOIN claims b ON b.id = l.dst "
                   "WHERE l.relation = 'supports'")
    assert any(r["a"].startswith("1.09 million") and r["b"].startswith("1,094,347")
               and r["consistent"] is True for r in rows), rows


def test_coverage_only_figures_are_unsourced(world, sql):
    _, db, _ = world
    rows = sql(db, "SELECT surface FROM unsourced_claims WHERE path = 'corpus/coverage-nvidia-1000-tokens.md'")
    surfaces = [r["surface"] for r in rows]
    for figure in ("20.9 times", "325", "943", "654,000"):
        assert any(s.startswith(figure) for s in surfaces), (figure, surfaces)


def test_954k_conflicts_with_inferencex_471578(world, sql):
    _, db, _ = world
    rows = sql(db, "SELECT src_surface, dst_surface, src_title, dst_title, detail FROM conflicts")
    pairs = [{r["src_surface"], r["dst_surface"]} for r in rows]
    assert any(any(s.startswith("954K") for s in p) and any(s.startswith("471,578") for s in p)
               for p in pairs), rows
    hit = next(r for r in rows if {r["src_surface"][:3], r["dst_surface"][:3]} == {"954", "471"})
    assert "InferenceX" in (hit["src_title"] + hit["dst_title"]) and "operating point" in hit["detail"]


def test_ingest_prints_inferred_roles_and_keeps_manifest_roles(world, sql):
    _, db, stdout = world
    lines = stdout.strip().splitlines()
    assert lines[-1].startswith("10 files: 10 new")            # the ingest summary stays last
    assert linked_line(stdout), stdout
    inferred = [ln for ln in lines if ln.startswith("inferred role:")]
    assert any("seeds/000_6ee1630c75cb2df0.txt" in ln and "secondary" in ln
               and 'sources.csv row "seeds/000_6ee1630c75cb2df0.txt,primary"' in ln
               for ln in inferred), inferred
    assert not any("corpus/vllm" in ln or "corpus/coverage" in ln for ln in inferred)
    roles = {r["path"]: (r["role"], r["role_source"])
             for r in sql(db, "SELECT path, role, role_source FROM documents")}
    assert roles["corpus/coverage-nvidia-1000-tokens.md"] == ("secondary", "manifest")
    assert roles["corpus/inferencex-deepseek-v4-1-flash.html"] == ("primary", "manifest")
    assert roles["seeds/000_6ee1630c75cb2df0.txt"] == ("secondary", "inferred")
    assert all(source is not None for _, source in roles.values())


def test_export_links_and_claims_carry_link_results(world, run_cli):
    base, db, _ = world
    out = run_cli("export", "links", "--db", str(db), cwd=base, check=True).stdout
    objs = [json.loads(line) for line in out.splitlines()]
    assert objs
    for o in objs:
        assert list(o)[:5] == ["src", "dst", "relation", "consistent", "detail"]
        assert o["consistent"] in (True, False, None) and o["relation"] in (
            "supports", "restates", "conflicts", "mismatch", "derives")
    claims = [json.loads(line) for line in run_cli("export", "claims", "--db", str(db), cwd=base,
                                                    check=True).stdout.splitlines()]
    coverage = [c for c in claims if c["doc_path"] == "corpus/coverage-nvidia-1000-tokens.md"]
    assert any("unsourced" in c["findings"] for c in coverage)


# --- incremental linking ------------------------------------------------------------------

def test_reingest_changes_nothing(steps):
    before, _ = steps["start"]
    after, stdout, _, _ = steps["again"]
    assert linked_line(stdout) is None and "inferred role" not in stdout   # nothing relinked
    assert after == before and len(after["links"]) > 0 and after["pending"] == []


def test_one_more_document_relinks_only_its_subjects(steps, sql):
    before, _ = steps["start"]
    after, stdout, _, _ = steps["extra"]
    m = linked_line(stdout)
    assert m and m.group(1) == "1", stdout       # one subject: DeepSeek-V4.1-Flash
    new = set(after["links"]) - set(before["links"])
    assert set(before["links"]) <= set(after["links"])
    assert {ln[2] for ln in new} >= {"supports", "mismatch"}, new
    rows = sql(steps["db"], "SELECT src_surface, dst_surface FROM metric_mismatches")
    assert any(r["src_surface"].startswith("954K") and r["dst_surface"].startswith("954K")
               for r in rows)


@pytest.mark.parametrize("step", ["again", "extra", "role"])
def test_claims_link_reproduces_incremental_ingest(steps, step):
    incremental, _, full, relink_out = steps[step]
    m = linked_line(relink_out)
    assert m and relink_out.strip().splitlines()[-1].startswith("linked (full, ")
    assert int(m.group(2).replace(",", "")) == len(full["links"])
    assert incremental == full


def test_replaced_document_updates_findings(steps, sql):
    after, stdout, _, _ = steps["role"]
    assert "1 replaced" in stdout and linked_line(stdout)
    assert ("corpus/kimi-k3.txt", "secondary", "manifest") in after["roles"]
    # Kimi K3's own figures are secondary now and nothing primary backs them
    rows = sql(steps["db"], "SELECT c.surface, c.findings FROM claims c JOIN documents d "
                            "ON d.id = c.doc_id WHERE d.path = 'corpus/kimi-k3.txt'")
    assert rows and all("unsourced" in r["findings"] for r in rows), rows


def test_six_views_have_rows_after_ingest(steps, sql):
    for view in VIEWS:
        assert sql(steps["db"], f"SELECT count(*) AS n FROM {view}")[0]["n"] > 0, view


# --- --no-link and old databases ----------------------------------------------------------

def test_no_link_defers_to_the_next_ingest(world, run_cli, tmp_path):
    base, _, _ = world
    db = tmp_path / "n.duckdb"
    first = run_cli("ingest", str(base / "tmp"), "--db", str(db), "--no-link", cwd=tmp_path, check=True)
    assert linked_line(first.stdout) is None
    deferred = snapshot(db)
    assert deferred["links"] == [] and deferred["pending"]
    second = run_cli("ingest", str(base / "tmp"), "--db", str(db), cwd=tmp_path, check=True)
    assert "10 skipped (unchanged)" in second.stdout and linked_line(second.stdout)
    linked = snapshot(db)
    assert linked["links"] and linked["pending"] == []
    full = tmp_path / "n.full.duckdb"
    shutil.copy(db, full)
    run_cli("link", "--db", str(full), cwd=tmp_path, check=True)
    assert snapshot(full) == linked


def test_database_without_keys_gets_a_full_link(tmp_path):
    from pipeline.model import Claim, Document
    from pipeline.run import link_store
    from pipeline.store import Store

    text = "Orca 70B reaches 1,240 tokens/s per user."
    docs = [Document(id=f"d{i}", path=f"{i}.md", format="markdown", text=text,
                     role="primary", role_source="metadata", publisher=f"P{i}") for i in (1, 2)]
    with Store.open(tmp_path / "old.duckdb") as store:
        for d in docs:
            c = Claim(id=f"{d.id}c", doc_id=d.id, start=17, end=29, surface="1,240 tokens",
                      value=1240.0, family="token_throughput", unit="tokens/s", scope="per_user",
                      model="Orca 70B")
            store.write(d, [c], "fp")                  # no keys: as before linking existed
        report = link_store(store)
        assert report.mode == "full"
        assert store.query("SELECT relation FROM links")[1] == [("supports",)]
        assert store.query("SELECT count(*) FROM claim_keys")[1] == [(2,)]
        assert link_store(store) is None                # nothing pending any more


def test_real_corpus_fills_every_view(real_warehouse, sql):
    """The real corpus through `claims ingest -q --workers 2` (conftest's shared run): the
    link line is printed even with -q."""
    db = real_warehouse.db
    assert linked_line(real_warehouse.stdout), real_warehouse.stdout
    for view in VIEWS:
        n = sql(db, f"SELECT count(*) AS n FROM {view}")[0]["n"]
        # the real corpus's one metric mismatch was a misread scope (52.3k input tokens/s
        # "in total ... per node"), and its three conflicts were two publishers' own updates
        # and a model mis-tag: blind reviews rejected them (benchmarks/LINKS_REVIEW_3.md) and
        # none is linked now. Both are tested on fixtures (test_link_corpus, test_link_views,
        # test_link_measure).
        assert n > 0 or view in ("metric_mismatches", "conflicts"), view
