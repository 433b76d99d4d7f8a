"""`claims check --format claimreview` (pipeline/formats/claimreview.py, docs/formats.md):
schema.org ClaimReview JSON-LD with the properties fact-check consumers require, every
property one schema.org defines for its type, and the verdict, rating and documents the
checker and the warehouse give."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest

from pipeline.check import check
from pipeline.formats.claimreview import RATING_VALUE, review_url

REPO = Path(__file__).resolve().parents[1]
CHECK_FIXTURES = REPO / "tests" / "fixtures" / "check"
EXIT = {"supported": 0, "contradicted": 3, "unproven": 4, "ambiguous": 5}
# One headline per verdict over tests/fixtures/check (tests/test_check.py holds the verdicts).
HEADLINES = {
    "supported": "Llama 3.1 405B reached 200 tokens/s per user",
    "contradicted": "Mixtral 8x22B tops 600 tokens/s per user",
    "unproven": "Some system topped 1,000 tokens per second per user",
    "ambiguous": "Qwen3-32B does 5,000 tokens per second",
}

# The schema.org properties of each type this output uses, its supertypes' included
# (schema.org/ClaimReview < Review < CreativeWork < Thing; Rating < Intangible < Thing;
# Claim < CreativeWork; Organization < Thing), limited to the ones a ClaimReview could
# carry here. A property outside its type's list is not schema.org.
THING = {"@type", "name", "description", "identifier", "url", "alternateName", "sameAs"}
CREATIVE_WORK = THING | {"author", "citation", "datePublished", "publisher", "dateModified",
                         "headline", "inLanguage", "isBasedOn", "sdPublisher"}
SCHEMA = {
    "ClaimReview": CREATIVE_WORK | {"@context", "claimReviewed", "itemReviewed", "reviewRating",
                                    "reviewBody", "reviewAspect"},
    "Rating": THING | {"ratingValue", "bestRating", "worstRating", "ratingExplanation",
                       "reviewAspect", "author"},
    "Claim": CREATIVE_WORK | {"appearance", "firstAppearance", "claimInterpreter"},
    "CreativeWork": CREATIVE_WORK,
    "Organization": THING | {"legalName", "logo"},
}
# What Google's fact-check markup requires (claimReviewed, reviewRating with an
# alternateName, url) and recommends (author with a name, datePublished, itemReviewed).
REQUIRED = ("claimReviewed", "reviewRating", "url", "author", "datePublished", "itemReviewed")


def _schema_org_only(node, where: str = "$") -> None:
    """Every object is typed, of a type listed above, with only that type's properties."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            _schema_org_only(item, f"{where}[{i}]")
        return
    if not isinstance(node, dict):
        return
    kind = node.get("@type")
    assert kind in SCHEMA, f"{where}: untyped or unknown type {kind!r}"
    extra = set(node) - SCHEMA[kind]
    assert not extra, f"{where} ({kind}): not schema.org properties: {sorted(extra)}"
    for key, value in node.items():
        if isinstance(value, (dict, list)):
            _schema_org_only(value, f"{where}.{key}")


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("claimreview") / "f.duckdb"
    run_cli("ingest", str(CHECK_FIXTURES), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


@pytest.fixture(scope="module")
def reviews(fixture_db, run_cli) -> dict[str, dict]:
    out = {}
    for verdict, headline in HEADLINES.items():
        p = run_cli("check", headline, "--db", fixture_db, "--format", "claimreview", cwd=REPO)
        assert p.returncode == EXIT[verdict], p.stderr
        out[verdict] = json.loads(p.stdout)
    return out


@pytest.mark.parametrize("verdict", list(HEADLINES))
def test_required_properties_and_schema_org_vocabulary(reviews, verdict):
    r = reviews[verdict]
    assert r["@context"] == "https://schema.org" and r["@type"] == "ClaimReview"
    for key in REQUIRED:
        assert r.get(key), f"{key} missing"
    assert r["claimReviewed"] == HEADLINES[verdict]
    assert r["reviewRating"]["alternateName"] == verdict
    assert r["reviewRating"]["ratingExplanation"]
    assert r["author"]["name"] == "claims"
    assert dt.date.fromisoformat(r["datePublished"]) <= dt.datetime.now(dt.timezone.utc).date()
    assert r["itemReviewed"]["@type"] == "Claim"
    assert r["url"] == review_url(HEADLINES[verdict])
    _schema_org_only(r)


def test_the_rating_follows_the_documented_mapping(reviews):
    for verdict, r in reviews.items():
        rating = r["reviewRating"]
        if verdict == "unproven":      # absence of evidence gets no number
            assert "ratingValue" not in rating and "bestRating" not in rating
            continue
        assert rating["ratingValue"] == RATING_VALUE[verdict]
        assert rating["worstRating"] <= rating["ratingValue"] <= rating["bestRating"]
    assert reviews["supported"]["reviewRating"]["ratingValue"] == 5
    assert reviews["contradicted"]["reviewRating"]["ratingValue"] == 1


def test_same_verdict_and_explanation_as_json(reviews, fixture_db):
    """What `check --format json` prints (``Verdict.to_dict``), in ClaimReview's words."""
    for verdict, headline in HEADLINES.items():
        plain = check(headline, fixture_db).to_dict()
        r = reviews[verdict]
        assert r["reviewRating"]["alternateName"] == plain["verdict"]
        assert r["reviewRating"]["ratingExplanation"] == plain["explanation"]
        assert r["description"] == "read as: " + plain["reading"]
        cited = {c["identifier"] for c in r.get("citation", [])}
        assert cited == {e["doc_path"] for e in plain["evidence"]}


def test_documents_come_from_the_warehouse(reviews, fixture_db):
    con = duckdb.connect(fixture_db, read_only=True)
    try:
        docs = {path: (title, url, published.isoformat() if published else None, publisher)
                for path, title, url, published, publisher in con.execute(
                    "SELECT path, title, url, published, publisher FROM documents").fetchall()}
    finally:
        con.close()
    supported = reviews["supported"]
    item = supported["itemReviewed"]
    assert item["appearance"], "a supported headline appears in the documents that support it"
    for work in item["appearance"] + [item["firstAppearance"]] + supported["citation"]:
        title, url, published, publisher = docs[work["identifier"]]
        assert work["name"] == (title or work["identifier"])
        assert work.get("url") == url and work.get("datePublished") == published
        assert work.get("publisher", {}).get("name") == publisher
    dates = [w["datePublished"] for w in item["appearance"] if "datePublished" in w]
    assert item["firstAppearance"]["datePublished"] == min(dates)
    assert any(w.get("url", "").startswith("https://") for w in item["appearance"])
    # a contradicting document is cited, never given as where the claim appears
    contra = reviews["contradicted"]
    assert "appearance" not in contra["itemReviewed"]
    assert any(c["description"].startswith("contradicts: ") for c in contra["citation"])


def test_review_url_option(fixture_db, run_cli):
    p = run_cli("check", HEADLINES["supported"], "--db", fixture_db, "-f", "claimreview",
                "--review-url", "https://factcheck.example/llama-405b", cwd=REPO)
    assert p.returncode == 0 and json.loads(p.stdout)["url"] == "https://factcheck.example/llama-405b"


def test_no_database_is_a_clear_error(tmp_path, run_cli):
    p = run_cli("check", HEADLINES["supported"], "--db", str(tmp_path / "none.duckdb"),
                "-f", "claimreview", cwd=REPO)
    assert p.returncode == 2 and p.stderr.startswith("error:") and not p.stdout
