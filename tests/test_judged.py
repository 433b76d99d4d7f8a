"""Verdicts kept per warehouse state (pipeline.judged): the same answers as worked out, shared
by report, trace and serve, and never taken for another state of the warehouse."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from pipeline.checker import judge_stored
from pipeline.fingerprint import content_key
from pipeline.judged import Judged
from pipeline.record import open_record
from pipeline.report.verdicts import IndexedChecker, judge_all
from pipeline.serve.around import trace_of
from pipeline.store import Store
from pipeline.trace import trace

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def db(tmp_path_factory, run_cli) -> str:
    tmp = tmp_path_factory.mktemp("judged")
    path = tmp / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), str(REPO / "tests" / "fixtures" / "check"),
            "--db", str(path), "-q", cwd=REPO, check=True)
    return str(path)


def _secondary(record):
    return [c for c in record.claims.values() if record.role(c) != "primary"]


def test_kept_verdicts_are_the_worked_out_ones(db, tmp_path):
    record = open_record(db)
    claims = [c for c in _secondary(record) if record.active(c)]
    assert len(claims) >= 5 and record.content_key
    fresh = {c.id: judge_stored(IndexedChecker(record), c).to_dict() for c in claims}
    assert len({v["verdict"] for v in fresh.values()}) >= 2

    first = Judged(record.content_key, tmp_path)
    assert {k: v.to_dict() for k, v in judge_all(record, claims, judged=first).items()} == fresh
    assert first.path.is_file() and first.kept_ids() == set(fresh)

    # a new process's view: read from the file only, nothing worked out again
    again = Judged(record.content_key, tmp_path)
    chk = IndexedChecker(record)
    chk.check = None          # any check now would fail
    got = {c.id: again.judge(chk, c).to_dict() for c in claims}
    assert got == fresh and again.hits == len(claims) and again.misses == 0


def test_trace_and_serve_read_the_verdicts_the_report_kept(db, tmp_path):
    record = open_record(db)
    judged = Judged(record.content_key, tmp_path)
    claims = _secondary(record)
    judge_all(record, [c for c in claims if record.active(c)], judged=judged)
    for c in claims:
        want = trace(c.id, open_record(db), judged=Judged(None)).verdict.to_dict()
        assert trace(c.id, record, judged=judged).verdict.to_dict() == want
        with Store.open(db, read_only=True) as store:
            assert content_key(store.con) == record.content_key
            served = Judged(content_key(store.con), tmp_path)
            assert trace_of(store, c.id, judged=served).verdict.to_dict() == want


def test_a_changed_warehouse_has_another_key(db, tmp_path):
    copy = tmp_path / "w.duckdb"
    shutil.copy(db, copy)
    before = open_record(str(copy))
    judged = Judged(before.content_key, tmp_path)
    judge_all(before, _secondary(before), judged=judged)
    con = duckdb.connect(str(copy))
    try:
        assert content_key(con) == before.content_key
        cid = _secondary(before)[0].id
        con.execute("UPDATE claims SET value = value * 3 WHERE id = ?", [cid])
        assert content_key(con) != before.content_key
        con.execute("UPDATE claims SET value = value / 3 WHERE id = ?", [cid])
        con.execute("UPDATE documents SET role = 'primary' WHERE id = "
                    "(SELECT doc_id FROM claims WHERE id = ?)", [cid])
        assert content_key(con) != before.content_key
    finally:
        con.close()
    after = open_record(str(copy))
    assert after.content_key != before.content_key
    assert Judged(after.content_key, tmp_path).kept_ids() == set()


def test_a_kept_verdict_read_another_way_is_not_used(db, tmp_path):
    record = open_record(db)
    judged = Judged(record.content_key, tmp_path)
    c = next(c for c in _secondary(record) if record.active(c))
    want = judged.judge(IndexedChecker(record), c).to_dict()
    data = json.loads(judged.path.read_text())
    data["verdicts"][c.id]["reading"] = "something else"
    data["verdicts"][c.id]["verdict"] = "supported" if want["verdict"] != "supported" \
        else "contradicted"
    judged.path.write_text(json.dumps(data))
    again = Judged(record.content_key, tmp_path)
    assert again.judge(IndexedChecker(record), c).to_dict() == want and again.misses == 1


def test_cache_off_keeps_nothing(db, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMS_CACHE_DIR", "off")
    record = open_record(db)
    judged = Judged.of_record(record)
    assert judged.path is None
    c = next(c for c in _secondary(record) if record.active(c))
    assert judged.judge(IndexedChecker(record), c).verdict
    assert not list(tmp_path.iterdir())
