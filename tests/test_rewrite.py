"""The same facts in other words give the same relations and verdicts (a metamorphic test).

tests/fixtures/rewrite/docs/ was written from seed 000's facts by a helper who had seen
neither corpus/ nor the code (its README says how); corpus/ is the demo corpus written from
the same seed. Both are ingested through the real CLI; their links (by relation and the two
figures' family, value and scope) and the verdicts on the rewrite's five headlines
(EXPECTED.md) must be the same.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from pipeline.check import check

REPO = Path(__file__).resolve().parents[1]
REWRITE = REPO / "tests" / "fixtures" / "rewrite"


def _headlines() -> list[tuple[str, str]]:
    rows = re.findall(r"^\| (\d) \| (.+?) \| (\w+) \|$", (REWRITE / "EXPECTED.md").read_text("utf-8"),
                      re.M)
    return [(h, v) for _, h, v in rows]


@pytest.fixture(scope="module")
def dbs(tmp_path_factory, run_cli) -> tuple[str, str]:
    out = []
    for name, folder in (("demo", REPO / "corpus"), ("rewrite", REWRITE / "docs")):
        db = tmp_path_factory.mktemp(name) / "w.duckdb"
        run_cli("ingest", str(folder), "--db", str(db), "-q", cwd=REPO, check=True)
        out.append(str(db))
    return out[0], out[1]


def _relations(db: str) -> Counter:
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT l.relation, s.family, s.value, s.scope, d.family, d.value, d.scope, "
            "l.consistent FROM links l JOIN claims s ON s.id = l.src "
            "JOIN claims d ON d.id = l.dst").fetchall()
    finally:
        con.close()
    return Counter(rows)


def test_expected_file_lists_five_headlines():
    assert len(_headlines()) == 5


def test_same_relations(dbs):
    demo, rewrite = dbs
    assert _relations(demo) == _relations(rewrite)
    assert _relations(demo)          # and there are some


# Where the two corpora still answer differently, and why (each is a gap to close, not a
# tolerance): the rewrite puts the two decode paths in one table whose row labels ("standard"
# vs "single-user") are no condition the checker compares, so the 826 and the 575 both stand
# on exactly the headline's quantity and disagree among themselves.
KNOWN = {
    2: "row labels naming two decode paths are not yet a condition",
}


@pytest.mark.parametrize("i", range(5))
def test_same_verdicts(dbs, i):
    demo, rewrite = dbs
    headline, expected = _headlines()[i]
    a, b = check(headline, demo), check(headline, rewrite)
    assert a.verdict == expected, (headline, a.explanation)
    if i in KNOWN:
        assert b.verdict in (expected, "unproven"), (headline, b.explanation)
    else:
        assert b.verdict == a.verdict, (headline, a.explanation, b.explanation)
