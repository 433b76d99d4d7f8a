"""The ingest worker pool: a file a parser spins on is abandoned after --timeout seconds
and recorded, a worker that dies costs only its file, the rest of the run goes on, and
results are written in large batches by the one writer."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import pipeline.run as run
from pipeline.model import Claim, Document
from pipeline.run import Summary, ingest_paths
from pipeline.store import Store


def _corpus(folder, names: list[str]):
    folder.mkdir(exist_ok=True)
    for i, name in enumerate(names):
        (folder / name).write_text(f"# {name}\n\nThe build reached {1000 + i} tokens/s on 8x H100.\n")
    return folder


def _one_claim(doc: Document) -> list[Claim]:
    start = doc.text.index("tokens/s") - 5
    return [Claim(id=f"{doc.id}-0", doc_id=doc.id, start=start, end=start + 4,
                  surface=doc.text[start:start + 4], value=1.0, family="token_throughput",
                  unit="tokens/s")]


def _spin_on(marker: str):
    def extract(doc: Document) -> list[Claim]:
        if marker in doc.path:
            while True:          # a parser stuck in a loop
                pass
        return _one_claim(doc)
    return extract


def _errors(store: Store) -> dict[str, str]:
    return dict(store.query("SELECT path, reason FROM ingest_errors")[1])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_spinning_file_is_abandoned_and_recorded(tmp_path, workers):
    folder = _corpus(tmp_path / "c", ["a.md", "spin.md", "b.md", "c.md", "spin2.md", "d.md"])
    started = time.monotonic()
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([folder], store, workers=workers, timeout=1, extract=_spin_on("spin"))
        assert (summary.new, summary.errors) == (4, 2)
        errors = _errors(store)
        assert set(errors) == {"spin.md", "spin2.md"}
        assert all("gave up after 1 s" in r and "--timeout" in r for r in errors.values())
        assert sorted(r[0] for r in store.query("SELECT path FROM documents")[1]) == \
            ["a.md", "b.md", "c.md", "d.md"]
        assert store.query("SELECT count(*) FROM claims")[1] == [(4,)]
    assert time.monotonic() - started < 30


def test_a_worker_that_dies_costs_only_its_file(tmp_path):
    def die_on_crash(doc: Document) -> list[Claim]:
        if "crash" in doc.path:
            os.kill(os.getpid(), signal.SIGKILL)
        return _one_claim(doc)

    folder = _corpus(tmp_path / "c", ["a.md", "crash.md", "b.md", "c.md"])
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([folder], store, workers=1, extract=die_on_crash)
        assert (summary.new, summary.errors) == (3, 1)
        assert "worker process died (killed by SIGKILL)" in _errors(store)["crash.md"]


def test_in_process_mode_needs_no_pool(tmp_path):
    folder = _corpus(tmp_path / "c", ["a.md", "b.md"])
    with Store.open(tmp_path / "w.duckdb") as store:
        assert ingest_paths([folder], store, workers=0, extract=_one_claim).new == 2


def test_many_files_few_transactions(tmp_path, monkeypatch):
    folder = _corpus(tmp_path / "c", [f"p{i:03d}.md" for i in range(120)])
    calls = []
    original = Store.write_many

    def counting(self, items, **kw):
        calls.append(len(items))
        return original(self, items, **kw)

    monkeypatch.setattr(Store, "write_many", counting)
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([folder], store, workers=2, extract=_one_claim)
        assert summary.new == 120 and summary.claims == 120
        assert store.query("SELECT count(*) FROM claims")[1] == [(120,)]
    assert sum(calls) == 120 and len(calls) <= 3, calls


def test_a_file_that_breaks_its_batch_fails_alone(tmp_path):
    def dup_on_bad(doc: Document) -> list[Claim]:
        claims = _one_claim(doc)
        return claims * 2 if "bad" in doc.path else claims

    folder = _corpus(tmp_path / "c", ["a.md", "bad.md", "b.md"])
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([folder], store, workers=1, extract=dup_on_bad)
        assert (summary.new, summary.errors) == (2, 1)
        assert "Duplicate key" in _errors(store)["bad.md"]
        assert store.query("SELECT count(*) FROM documents")[1] == [(2,)]


def test_same_bytes_twice_in_one_run_are_stored_once(tmp_path):
    folder = _corpus(tmp_path / "c", ["a.md"])
    (folder / "copy.md").write_bytes((folder / "a.md").read_bytes())
    with Store.open(tmp_path / "w.duckdb") as store:
        summary = ingest_paths([folder], store, workers=2, extract=_one_claim)
        assert (summary.new, summary.skipped) == (1, 1)


def test_summary_keeps_errors_only(tmp_path):
    s = Summary()
    for i in range(run.MAX_KEPT_OUTCOMES + 10):
        s.add(run.Outcome(f"{i}.md", "new"))
        s.add(run.Outcome(f"{i}.txt", "error", "bad"))
    assert s.new == s.errors == run.MAX_KEPT_OUTCOMES + 10
    assert len(s.outcomes) == run.MAX_KEPT_OUTCOMES
    assert all(o.status == "error" for o in s.outcomes)


# The CLI: a real parser (the Markdown one) made to spin on one file.
SPINNING_PARSER = r"""
import sys
import pipeline.ingest as ingest
parse = ingest.PARSERS["markdown"]
def spinning(data):
    if b"SPIN" in data:
        while True:
            pass
    return parse(data)
ingest.PARSERS["markdown"] = spinning
from pipeline.cli import main
main(sys.argv[1:])
"""


def test_cli_timeout_records_the_file_and_exits_cleanly(tmp_path):
    folder = _corpus(tmp_path / "c", ["a.md", "b.md"])
    (folder / "stuck.md").write_text("# SPIN\n\n12 tokens/s\n")
    db = tmp_path / "w.duckdb"
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", SPINNING_PARSER, "ingest", str(folder), "--db",
                           str(db), "--timeout", "1", "--workers", "2", "-q"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert time.monotonic() - started < 60
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: stuck.md: gave up after 1 s (the per-file time limit; raise it with --timeout)"]
    assert "3 files: 2 new, 0 skipped (unchanged), 0 replaced, 1 errors" in proc.stdout
    with Store.open(db, read_only=True) as store:
        assert list(_errors(store)) == ["stuck.md"]


def test_cli_workers_default_and_in_process(tmp_path, run_cli):
    folder = _corpus(tmp_path / "c", ["a.md", "b.md", "c.md"])
    help_text = run_cli("ingest", "--help", cwd=tmp_path, check=True).stdout
    assert "--workers" in help_text and "--timeout" in help_text
    for workers in ([], ["--workers", "0"], ["--workers", "3"]):
        db = tmp_path / f"w{len(workers)}{''.join(workers)}.duckdb"
        proc = run_cli("ingest", str(folder), "--db", str(db), "-q", *workers, cwd=tmp_path,
                       check=True)
        assert "3 files: 3 new" in proc.stdout


def test_files_stream_through(tmp_path, monkeypatch):
    """Memory stays bounded: the walk is read as it goes (the first batch is written long
    before the last file is found) and no batch holds more than FLUSH_DOCS files."""
    folder = _corpus(tmp_path / "c", [f"p{i:03d}.md" for i in range(400)])
    walked = [0]
    real_walk = run.walk

    def counting_walk(*args, **kwargs):
        for found in real_walk(*args, **kwargs):
            walked[0] += 1
            yield found

    batches = []
    original = Store.write_many

    def recording(self, items, **kw):
        if items:
            batches.append((len(items), walked[0]))
        return original(self, items, **kw)

    monkeypatch.setattr(run, "walk", counting_walk)
    monkeypatch.setattr(run, "FLUSH_DOCS", 25)
    monkeypatch.setattr(Store, "write_many", recording)
    with Store.open(tmp_path / "w.duckdb") as store:
        assert ingest_paths([folder], store, workers=2, extract=_one_claim).new == 400
    assert max(n for n, _ in batches) <= 25
    assert batches[0][1] <= run.PLAN_CHUNK + 25      # written while the walk was still going
