"""SIGKILL in the middle of `claims ingest`: the database opens, holds only whole documents
with all their claims (and links once linked), and the same command run again completes
the rest, ending exactly where an uninterrupted run ends.

The ingest runs in a subprocess whose DuckDB connection pauses inside a transaction at a
chosen point (a write batch before its commit, or the link write before its commit); the
test kills it there with SIGKILL, reopens the file and counts.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from conftest import as_from_a_terminal, claims_command

# Run `claims ingest` with small write batches; pause before the commit named by STOP_AT
# ("batch:N": the N-th batch of files; "link": the link result) and say so on stdout.
PAUSING_INGEST = r"""
import os, sys, time
import pipeline.run as run
from pipeline.store import Store

run.FLUSH_DOCS = 5
STOP_AT = os.environ["STOP_AT"]

class Pausing:
    def __init__(self, con):
        self._con = con
    def __getattr__(self, name):
        return getattr(self._con, name)
    def commit(self):
        print("paused", flush=True)
        time.sleep(300)

def pausing(method, when):
    def wrapper(self, *args, **kwargs):
        if not when(self, *args):
            return method(self, *args, **kwargs)
        real, self.con = self.con, Pausing(self.con)
        try:
            return method(self, *args, **kwargs)
        finally:
            self.con = real
    return wrapper

batches = [0]
def nth_batch(self, items, *rest):
    if not items:
        return False
    batches[0] += 1
    print(f"batch {batches[0]}", flush=True)
    return STOP_AT == f"batch:{batches[0]}"

Store.write_many = pausing(Store.write_many, nth_batch)
Store.save_links = pausing(Store.save_links, lambda self, *a: STOP_AT == "link")
from pipeline.cli import main
main(sys.argv[1:])
"""

N_DOCS = 30


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    engines = ["vLLM", "SGLang", "TensorRT-LLM"]
    for i in range(N_DOCS):
        (folder / f"post{i:02d}.md").write_text(
            f"# Benchmark note {i}\n\n"
            f"{engines[i % 3]} reached {1000 + 10 * (i % 4)} tokens/s per GPU on 8x H100 "
            f"with Llama 3 70B.\n\n"
            f"Time to first token was {120 + i} ms at concurrency 64.\n\n"
            f"That is {1.2 + 0.1 * (i % 3):.1f}x faster than the baseline of 820 tokens/s.\n")
    return folder


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
    return subprocess.run([*claims_command(), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _kill_when_paused(args: list[str], stop_at: str, cwd: Path) -> list[str]:
    env = {**os.environ, "STOP_AT": stop_at}
    env.pop("CLAIMS_DB", None)
    proc = subprocess.Popen([sys.executable, "-c", PAUSING_INGEST, *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line.strip())
            if line.strip() == "paused":
                break
        assert seen and seen[-1] == "paused", (seen, proc.stderr.read())
        workers = _children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
    # the worker processes die with the writer (no orphans left parsing)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() and "Z" not in _state(w) for w in workers):
        assert time.monotonic() < deadline, f"workers {workers} outlived the killed ingest"
        time.sleep(0.1)
    return seen


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def _snapshot(db: Path) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        q = lambda sql: con.execute(sql).fetchall()  # noqa: E731
        return {
            "documents": sorted(q("SELECT path, id FROM documents")),
            "claims": sorted(q('SELECT doc_id, id, start, "end", value FROM claims')),
            "claims_per_doc": dict(q("SELECT d.path, count(c.id) FROM documents d "
                                     "LEFT JOIN claims c ON c.doc_id = d.id GROUP BY d.path")),
            "orphans": q("SELECT count(*) FROM claims WHERE doc_id NOT IN (SELECT id FROM documents)")[0][0]
                       + q("SELECT count(*) FROM claim_keys WHERE claim_id NOT IN (SELECT id FROM claims)")[0][0],
            "keys": q("SELECT count(*) FROM claim_keys")[0][0],
            "links": sorted(q("SELECT src, dst, relation FROM links")),
            "dangling_links": q("SELECT count(*) FROM links WHERE src NOT IN (SELECT id FROM claims)"
                                " OR dst NOT IN (SELECT id FROM claims)")[0][0],
            "clusters": sorted(q("SELECT cluster_id, claim_id FROM clusters")),
            "pending": q("SELECT count(*) FROM link_pending")[0][0],
        }
    finally:
        con.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The same corpus ingested without interruption."""
    root = tmp_path_factory.mktemp("crash_ref")
    corpus = _corpus(root / "corpus")
    proc = _cli("ingest", str(corpus), "--db", str(root / "ref.duckdb"), "--workers", "1", "-q", cwd=root)
    assert proc.returncode == 0, proc.stderr
    snap = _snapshot(root / "ref.duckdb")
    assert len(snap["documents"]) == N_DOCS and snap["links"], snap
    return snap


def test_sigkill_inside_a_write_batch(tmp_path, reference):
    corpus = _corpus(tmp_path / "corpus")
    db = tmp_path / "w.duckdb"
    args = ["ingest", str(corpus), "--db", str(db), "--workers", "1", "-q"]
    seen = _kill_when_paused(args, "batch:3", tmp_path)
    assert seen[-2:] == ["batch 3", "paused"]

    # the database opens and holds the two committed batches: whole documents only
    after = _snapshot(db)
    assert len(after["documents"]) == 10
    ref_counts = reference["claims_per_doc"]
    assert after["claims_per_doc"] == {p: ref_counts[p] for p in after["claims_per_doc"]}
    assert set(after["claims"]) <= set(reference["claims"])
    assert after["orphans"] == 0 and after["keys"] == len(after["claims"])
    assert after["links"] == [] and after["pending"] == 10     # not linked yet, queued

    # the same command again completes the rest and links everything
    proc = _cli(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"{N_DOCS} files: {N_DOCS - 10} new, 10 skipped (unchanged)" in proc.stdout
    final = _snapshot(db)
    assert final == reference


def test_sigkill_while_writing_links(tmp_path, reference):
    corpus = _corpus(tmp_path / "corpus")
    db = tmp_path / "w.duckdb"
    args = ["ingest", str(corpus), "--db", str(db), "--workers", "2", "-q"]
    _kill_when_paused(args, "link", tmp_path)

    after = _snapshot(db)       # every document and claim stored, no link half-written
    assert after["documents"] == reference["documents"]
    assert after["claims"] == reference["claims"]
    assert after["links"] == [] and after["clusters"] == [] and after["pending"] == N_DOCS

    proc = _cli(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"{N_DOCS} files: 0 new, {N_DOCS} skipped (unchanged)" in proc.stdout
    assert "linked" in proc.stdout
    assert _snapshot(db) == reference


def test_sigkill_during_a_relink_keeps_the_old_links(tmp_path, reference):
    corpus = _corpus(tmp_path / "corpus")
    db = tmp_path / "w.duckdb"
    assert _cli("ingest", str(corpus), "--db", str(db), "-q", cwd=tmp_path).returncode == 0
    _kill_when_paused(["link", "--db", str(db), "-q"], "link", tmp_path)
    assert _snapshot(db) == reference


def test_ctrl_c_mid_batch_stops_cleanly(tmp_path, reference):
    """SIGINT (Ctrl-C) while a batch is being written: one line, exit 130, the batch
    rolled back, no worker left behind, and the same command completes the rest."""
    corpus = _corpus(tmp_path / "corpus")
    db = tmp_path / "w.duckdb"
    args = ["ingest", str(corpus), "--db", str(db), "--workers", "2", "-q"]
    env = {**os.environ, "STOP_AT": "batch:2"}
    env.pop("CLAIMS_DB", None)
    proc = subprocess.Popen([sys.executable, "-c", PAUSING_INGEST, *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=as_from_a_terminal)
    for line in proc.stdout:
        if line.strip() == "paused":
            break
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.strip().splitlines() == ["error: interrupted"]
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() and "Z" not in _state(w) for w in workers):
        assert time.monotonic() < deadline, f"workers {workers} outlived the interrupted ingest"
        time.sleep(0.1)
    after = _snapshot(db)
    assert len(after["documents"]) == 5 and after["orphans"] == 0     # the first batch only
    proc = _cli(*args, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _snapshot(db) == reference
