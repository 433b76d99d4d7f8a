"""benchmarks/compare_warehouses.py: two ingests of the same files compare equal; a changed
figure or a changed role does not. Real ingests of the demo corpus through the CLI."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "compare_warehouses.py"
HEADLINE = "Kimi K3 reaches 62.7 tokens per second per user on 16 GB300s."


def compare(*args: Path | str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory, run_cli) -> dict[str, Path]:
    """The demo corpus ingested twice as it is, once with one figure changed, once with one
    document's role changed in its manifest."""
    tmp = tmp_path_factory.mktemp("compare")
    out = {}
    for name in ("a", "b", "figure", "role"):
        root = tmp / name / "corpus"
        shutil.copytree(REPO / "corpus", root)
        if name == "figure":
            kimi = root / "kimi-k3.txt"
            text = kimi.read_text("utf-8")
            assert "62.7 tokens/s/user" in text
            kimi.write_text(text.replace("62.7 tokens/s/user", "71.3 tokens/s/user"), "utf-8")
        if name == "role":
            manifest = root / "sources.csv"
            text = manifest.read_text("utf-8")
            assert "kimi-k3.txt,primary," in text
            manifest.write_text(text.replace("kimi-k3.txt,primary,", "kimi-k3.txt,secondary,"),
                                "utf-8")
        db = tmp / name / "w.duckdb"
        proc = run_cli("ingest", "corpus", "--db", str(db), "-q", cwd=root.parent)
        assert proc.returncode == 0, proc.stderr
        out[name] = db
    headlines = tmp / "headlines.jsonl"
    headlines.write_text(json.dumps({"headline": HEADLINE}) + "\n", "utf-8")
    out["headlines"] = headlines
    return out


def test_two_ingests_of_the_same_files_are_identical(warehouses):
    proc = compare(warehouses["a"], warehouses["b"], "--headlines", warehouses["headlines"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "identical"
    for part in ("documents", "claims", "links", "clusters", "verdicts"):
        line = next(x for x in lines if x.startswith(part + ":"))
        assert line.endswith(", identical"), line
    # not vacuous: the warehouse has claims and links, the headline was checked
    counts = {x.split(":")[0]: int(x.split()[1].replace(",", "")) for x in lines[:-1]}
    assert counts["claims"] > 10 and counts["links"] > 0 and counts["verdicts"] == 1


def test_a_changed_figure_is_reported(warehouses):
    proc = compare(warehouses["a"], warehouses["figure"], "--headlines",
                   warehouses["headlines"], "--limit", "3")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert out.splitlines()[-1] == "DIFFERENT"
    # the file's bytes changed: its document (and so its claims) has another id
    assert "documents: 7 vs 7: 1 only in A, 1 only in B" in out
    claims = next(x for x in out.splitlines() if x.startswith("claims:"))
    assert "only in A" in claims and not claims.endswith("identical")
    verdicts = next(x for x in out.splitlines() if x.startswith("verdicts:"))
    assert "1 changed" in verdicts
    assert len([x for x in out.splitlines() if x.startswith("  only in A")]) <= 3 * 5


def test_a_changed_role_is_reported_field_by_field(warehouses):
    proc = compare(warehouses["a"], warehouses["role"], "--no-check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    docs = next(x for x in lines if x.startswith("documents:"))
    assert docs == "documents: 7 vs 7: 0 only in A, 0 only in B, 1 changed (role 1)"
    assert any(x.strip().endswith('role: "primary" -> "secondary"') for x in lines)
    assert not any(x.startswith("verdicts:") and "changed" in x for x in lines)


def test_a_snapshot_compares_like_its_warehouse(warehouses, tmp_path):
    snap = tmp_path / "a.json"
    proc = compare(warehouses["a"], "--save", snap, "--headlines", warehouses["headlines"])
    assert proc.returncode == 0 and snap.is_file(), proc.stderr
    assert compare(snap, warehouses["b"], "--headlines",
                   warehouses["headlines"]).returncode == 0
    assert compare(snap, warehouses["figure"], "--headlines",
                   warehouses["headlines"]).returncode == 1


def test_usage_errors_exit_2(tmp_path):
    proc = compare(tmp_path / "missing.duckdb", tmp_path / "other.duckdb")
    assert proc.returncode == 2 and "no such file" in proc.stderr
