"""Headlines written blind to the checker about real figures (nine suites by nine
helpers, tests/data/HEADLINES.md to HEADLINES9.md): false headlines answered `supported`
stay at or below the count measured when the rules last changed, and the share answered
as the labeller accepts stays above its floor (benchmarks/headlines.py prints the tables).

A module of its own: pytest runs with ``--dist loadfile``, so this, the suite's longest
test, runs beside the other modules rather than behind them."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# (suite, most false `supported`, least share right): measured this round; tighten as
# rules improve
BOUNDS = [("headlines.jsonl", 1, 0.85),      # 176/206
          ("headlines2.jsonl", 1, 0.71),     # 110/153
          # 98/125, 5: 93, 6 in round 8, when the bandwidth figures of one post gained
          # their hardware (MI300X, from "AMD GPUs") and one headline setting a figure against
          # another's peak met them; round 9 looked at one more id (k028, a TGI figure stored
          # as vLLM's)
          ("headlines3.jsonl", 4, 0.79),     # 99/125 (round 11: k112, an "up to" below the record's best)
          # h4-001 was met by coincidence until round 11 (7x and 10x on other quantities met
          # "up to 6.4x"); h4-012 and h4-013 stopped being supported there (a slide line's technique)
          ("headlines4.jsonl", 1, 0.54),     # 68/125 (blind 52/125, 16 false supported)
          ("headlines5.jsonl", 1, 0.56),     # 57/100 (blind 41/100, 7 false supported)
          ("headlines6.jsonl", 1, 0.44),     # 45/100 (blind 38/100, 9 false supported)
          ("headlines7.jsonl", 0, 0.62),     # 50/80 (blind 34/80, 5 false supported)
          ("headlines8.jsonl", 0, 0.56),     # 45/80 (blind 34/80, 7 false supported)
          ("headlines9.jsonl", 0, 0.57),     # 46/80 (blind 39/80, 3 false supported)
          ("headlines10.jsonl", 1, 0.50),    # 40/80 (blind 32/80, 3 false supported)
          ("headlines11.jsonl", 1, 0.47)]    # 38/80 (blind 37/80, 3 false supported)


@pytest.fixture(scope="module")
def suites_db(SHARED, tmp_path_factory):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import headlines
    finally:
        sys.path.pop(0)
    db = tmp_path_factory.mktemp("suites") / "h.duckdb"
    headlines.build_warehouse(SHARED, db)
    return headlines, db


@pytest.mark.parametrize("suite, max_false, min_right", BOUNDS)
def test_blind_headlines_no_false_supported(suites_db, suite, max_false, min_right):
    headlines, db = suites_db
    results = headlines.evaluate(headlines.load(REPO / "tests" / "data" / suite), db)
    wrong = [(r["id"], r["headline"]) for r in results if headlines.false_supported(r)]
    right = sum(map(headlines.right, results)) / len(results)
    assert len(wrong) <= max_false, (suite, wrong)
    assert right >= min_right, (suite, right)
