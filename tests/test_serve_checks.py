"""What `claims serve` keeps for checks (pipeline/serve/checking.py, the kept answers of
check_sql._Asked) changes no answer: checks and traces answered with them are those of
`claims check` and `claims trace`.

The real corpus (../shared/corpus/real) is ingested once per test run (conftest's
``real_warehouse``). In this process, headlines of
every kind in the blind suite (tests/data/headlines.jsonl) are checked with and without
what the server keeps, in SQL (``load_below=0``) and in Python (``check_loaded``); then
the real server is asked for check and trace pages, held to the real CLI's JSON.
"""
from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from markupsafe import escape

from conftest import REPO
from pipeline.check import check_loaded, format_verdict, read_claim
from pipeline import check_sql
from pipeline.check_sql import check_query
from pipeline.serve.around import trace_of
from pipeline.serve.checking import KeptAnswers, LoadedChecks
from pipeline.store import Store
from pipeline.trace import format_trace
from serve_kit import running

SUITE = REPO / "tests" / "data" / "headlines.jsonl"


def suite(per_kind: int) -> list[str]:
    """The first ``per_kind`` headlines of each kind of the blind suite."""
    seen: dict[str, int] = {}
    out = []
    for line in SUITE.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if seen.get(row["kind"], 0) < per_kind:
                seen[row["kind"]] = seen.get(row["kind"], 0) + 1
                out.append(row["headline"])
    return out


@pytest.fixture(scope="module")
def real_db(real_warehouse) -> Path:
    """The session's real-corpus warehouse (conftest), only ever opened read-only here."""
    return real_warehouse.db


def test_kept_answers_and_figures_change_no_verdict(real_db, monkeypatch):
    """Each headline twice through what the server keeps (the second time from kept
    answers), against a fresh SQL check and against ``check_loaded``. STRICT: an answer
    that SQL and Python judge differently (a stale kept answer would be one) raises
    instead of falling back to the whole family in Python."""
    monkeypatch.setattr(check_sql, "STRICT", True)
    heads = suite(2)
    assert len(heads) >= 15
    loaded, kept = LoadedChecks(), KeptAnswers()
    with Store.open(real_db, read_only=True) as store:
        for h in heads:
            q = read_claim(h)
            fresh = format_verdict(check_query(q, store, load_below=0))
            for _ in range(2):
                got = check_query(read_claim(h), store, load_below=0, loaded=loaded, kept=kept)
                assert format_verdict(got) == fresh, h
            assert format_verdict(loaded(read_claim(h), store)) == \
                format_verdict(check_loaded(q, store)), h
        assert kept.answers and len(loaded.families) > 2     # it kept, and grew


def test_figures_past_the_budget_are_not_kept(real_db):
    heads = suite(1)
    with Store.open(real_db, read_only=True) as store:
        small = LoadedChecks(budget=1)
        for h in heads:
            q = read_claim(h)
            assert format_verdict(small(q, store)) == format_verdict(check_loaded(q, store)), h
        assert small.kept == 0
        whole = LoadedChecks()
        whole.preload(store)
        n = store.con.execute("SELECT count(*) FROM claims").fetchone()[0]
        assert whole.kept == n        # the real corpus fits the budget: every family is kept


def test_traces_with_what_is_kept_are_the_plain_ones(real_db):
    loaded, kept = LoadedChecks(), KeptAnswers()
    with Store.open(real_db, read_only=True) as store:
        ids = [r[0] for r in store.con.execute(
            "SELECT id FROM claims_full WHERE doc_role <> 'primary' ORDER BY id").fetchall()]
        assert len(ids) >= 5
        for cid in ids:
            want = trace_of(store, cid)
            got = trace_of(store, cid, loaded=loaded, kept=kept)
            assert got.to_dict() == want.to_dict(), cid
            assert format_trace(got) == format_trace(want), cid


def test_kept_figures_read_texts_through_each_request(real_db):
    """The server preloads its figures through a connection of its own and closes it;
    what a check reads later in a kept figure's text (the lead-in or table row its
    application, configuration, node count or link is read in) comes through the
    request's connection, so the answers are still ``check_loaded``'s (a record left
    with the closed connection read the sentence alone: 9 of these 72 headlines of the
    suites were answered otherwise)."""
    heads = [json.loads(line)["headline"] for path in sorted(SUITE.parent.glob("headlines*.jsonl"))
             for line in path.read_text("utf-8").splitlines() if line.strip()]
    reads_text = [h for h in heads if read_claim(h).figure is not None and read_claim(h).reads_text()]
    assert len(reads_text) >= 20
    loaded = LoadedChecks()
    with Store.open(real_db, read_only=True) as store:
        first = store.cursor()
        loaded.preload(first)
        first.con.close()
        for h in reads_text:
            cur = store.cursor()
            try:
                got = format_verdict(loaded(read_claim(h), cur))
            finally:
                cur.con.close()
            assert got == format_verdict(check_loaded(read_claim(h), store)), h


@pytest.fixture(scope="module")
def web(real_db):
    with running(real_db) as (base, _):
        with httpx.Client(base_url=base, timeout=60) as client:
            yield client


def test_served_checks_are_claims_check(web, real_db, run_cli):
    for h in suite(1)[:5]:
        # (the exit status says the verdict)
        want = json.loads(run_cli("check", h, "-f", "json", "--db", str(real_db),
                                  cwd=REPO).stdout)
        for _ in range(2):          # the second time from what the server kept
            page = web.get("/check", params={"q": h}).text
            assert f'<span class="verdict v-{want["verdict"]}">' in page, h
            assert escape(want["explanation"]) in page, h
            for e in want["evidence"]:
                assert f'href="/claims/{e["id"]}"' in page, h


def test_served_traces_are_claims_trace(web, real_db, run_cli):
    with Store.open(real_db, read_only=True) as store:
        ids = [r[0] for r in store.con.execute(
            "SELECT any_value(id ORDER BY id) FROM claims_full WHERE doc_role <> 'primary' "
            "GROUP BY family ORDER BY 1 LIMIT 4").fetchall()]
    assert len(ids) >= 2
    for cid in ids:
        want = json.loads(run_cli("trace", cid, "-f", "json", "--db", str(real_db),
                                  cwd=REPO, check=True).stdout)
        page = web.get(f"/claims/{cid}").text
        assert f'<span class="verdict v-{want["verdict"]["verdict"]}">' in page, cid
        assert escape(want["verdict"]["explanation"]) in page, cid
        assert page.count('class="callout step') == len(want["links"]), cid
