"""`claims check`: a plain-words claim -> supported / contradicted / unproven / ambiguous.

Two records: the demo corpus (seed 000's documents) and tests/fixtures/check/, small
documents written for these tests. Both are ingested once per module through the real CLI;
the verdicts are then asked of the library (fast) and a few through the CLI (end to end).
"""
from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from pipeline.check import VERDICTS, check, read_claim

REPO = Path(__file__).resolve().parents[1]
CHECK_FIXTURES = REPO / "tests" / "fixtures" / "check"


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("corpus") / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


@pytest.fixture(scope="module")
def fixture_db(tmp_path_factory, run_cli) -> str:
    db = tmp_path_factory.mktemp("check") / "f.duckdb"
    run_cli("ingest", str(CHECK_FIXTURES), "--db", str(db), "-q", cwd=REPO, check=True)
    return str(db)


def _spans_hold(db: str, verdict) -> None:
    """Every evidence figure is found again at its path and character span."""
    con = duckdb.connect(db, read_only=True)
    try:
        for e in verdict.evidence:
            text, = con.execute("SELECT text FROM documents WHERE path = ?", [e.doc_path]).fetchone()
            assert text[e.start:e.end] == e.surface
    finally:
        con.close()


# --- seed 000 over corpus/ ---------------------------------------------------------------

HEADLINE = "Nvidia topped 1,000 tokens a second per user on models above 700B parameters"


def test_reading_the_headline():
    q = read_claim(HEADLINE)
    f = q.figure
    assert (f.value, f.comparator, f.family, f.scope) == (1000, ">", "token_throughput", "per_user")
    assert q.size is not None and q.size.value == 700e9 and q.size.comparator == ">"
    assert "above 700B parameters" in q.reading()


def test_headline_is_unproven_naming_826_and_kimi(corpus_db):
    v = check(HEADLINE, corpus_db)
    assert v.verdict == "unproven"
    assert "826" in v.explanation and "fastest per-user figure" in v.explanation
    assert "Kimi K3" in v.explanation and "62.7" in v.explanation
    surfaces = {e.surface for e in v.evidence}
    assert "826 tokens/s" in surfaces and "62.7 tokens/s/user" in surfaces
    # 954K is a per-GPU figure: never offered as per-user speed
    assert not any("954K" in e.surface for e in v.evidence)
    assert "954" not in v.explanation
    _spans_hold(corpus_db, v)


def test_954k_per_gpu_is_not_per_user_speed(corpus_db):
    v = check("vLLM reached 954K tokens per second per user on DeepSeek-V4.1-Flash", corpus_db)
    assert v.verdict != "supported"
    mism = [e for e in v.evidence if e.relation == "mismatch"]
    assert [e.surface for e in mism] == ["954K tokens/s"] and mism[0].scope == "per_gpu"
    assert "per GPU, not per user" in v.explanation
    v2 = check("vLLM serves DeepSeek-V4.1-Flash at 954K tokens per second per GPU", corpus_db)
    assert v2.verdict == "supported"


def test_revenue_against_price_is_a_label_mismatch(corpus_db):
    v = check("$38 in revenue per GPU hour", corpus_db)
    assert v.verdict == "unproven"
    assert "label mismatch" in v.explanation
    [e] = [e for e in v.evidence if e.relation == "label_mismatch"]
    assert e.surface == "$38.96" and e.doc_path == "vllm-deepseek-v4-1-flash.md"
    assert "off-peak prices" in e.detail and "revenue" in e.detail


def test_engine_left_open_does_not_source_a_credited_figure(corpus_db):
    v = check("SGLang hit 1.09 million tokens per second on DeepSeek-V4.1-Flash", corpus_db)
    assert v.verdict == "unproven"
    assert "per-GPU" in v.explanation           # the denominator the same value has
    [e] = [e for e in v.evidence if e.relation == "partial"]
    assert e.surface == "1,094,347 tok/s" and "no engine" in e.detail


def test_model_size_condition_reads_model_params(corpus_db):
    assert check("A model above 700B parameters topped 60 tokens per second per user",
                 corpus_db).verdict == "supported"          # Kimi K3, 62.7 at 2.8T
    v = check("A model below 600B parameters topped 800 tokens per second per user", corpus_db)
    assert v.verdict == "supported"                          # 826, 552B from the same post
    assert "552B" in v.explanation


# --- own fixtures: every verdict ---------------------------------------------------------

CASES = [
    ("Llama 3.1 405B reached 200 tokens/s per user", "supported", "212"),
    ("Qwen3-32B runs at 90 tokens per second per user on one H100", "contradicted", "140"),
    ("Mixtral 8x22B tops 600 tokens/s per user", "contradicted", "410"),
    ("Some system topped 1,000 tokens per second per user", "unproven", "410"),
    ("Qwen3-32B does 5,000 tokens per second", "ambiguous", "denominator"),
    ("A model served 9,800 tokens/s per GPU", "supported", "9,800"),
    ("A model above 300B parameters reached 200 tokens/s per user", "supported", "405B"),
    ("A model below 100B parameters reached 200 tokens/s per user", "unproven", "Qwen3-32B"),
    ("No model has reached 300 tokens per second per user", "contradicted", "410"),
    ("Llama 3.1 405B is served at 18,000 tokens/s per GPU on 8 x H200", "unproven", "6,100"),
]


@pytest.mark.parametrize("text,verdict,cited", CASES)
def test_fixture_verdicts(fixture_db, text, verdict, cited):
    v = check(text, fixture_db)
    assert v.verdict == verdict, v.explanation
    assert cited in v.explanation
    assert v.explanation.count(".") >= 1
    _spans_hold(fixture_db, v)


def test_every_verdict_occurs(fixture_db):
    seen = {check(text, fixture_db).verdict for text, _, _ in CASES}
    assert seen == set(VERDICTS)


def test_no_denominator_is_ambiguous_unless_a_same_valued_figure_settles_it(fixture_db):
    v = check("Qwen3-32B does 5,000 tokens per second", fixture_db)
    assert v.verdict == "ambiguous" and "no denominator" in v.explanation
    v = check("Qwen3-32B does 140 tokens per second", fixture_db)
    assert v.verdict == "supported"
    assert "per-user" in v.explanation          # the verdict names the denominator it took
    assert v.evidence[0].relation == "supports" and v.evidence[0].scope == "per_user"


def test_bound_below_a_single_operating_point_is_context_not_refutation(fixture_db):
    # 140 per user on Qwen3-32B does not show that more than 150 was never reached
    v = check("Qwen3-32B tops 150 tokens/s per user", fixture_db)
    assert v.verdict == "unproven"
    assert [e.relation for e in v.evidence] == ["context"]


def test_same_number_other_metric(fixture_db):
    v = check("Llama 3.1 405B runs at 9,800 tokens per second per user", fixture_db)
    assert v.verdict == "unproven"
    assert any(e.relation == "mismatch" and e.scope == "per_gpu" for e in v.evidence)


def test_profit_against_list_price(fixture_db):
    v = check("Operators make $2.10 in profit per million tokens on Llama 3.1 405B", fixture_db)
    assert v.verdict == "unproven"
    assert any(e.relation == "label_mismatch" for e in v.evidence)
    assert "not profit" in v.explanation


# --- the command -------------------------------------------------------------------------

def test_cli_json(corpus_db, run_cli):
    p = run_cli("check", HEADLINE, "--db", corpus_db, "--format", "json", cwd=REPO)
    assert p.returncode == 4, p.stderr          # the exit code tells the verdict: unproven
    out = json.loads(p.stdout)
    assert out["verdict"] == "unproven"
    assert set(out) >= {"verdict", "explanation", "evidence"}
    for e in out["evidence"]:
        assert set(e) >= {"id", "doc_path", "page", "surface", "value", "unit", "scope", "relation"}


def test_cli_text_and_errors(corpus_db, run_cli, tmp_path):
    p = run_cli("check", "$38 in revenue per GPU hour", "--db", corpus_db, cwd=REPO)
    assert p.returncode == 4 and p.stdout.startswith("unproven: ")
    assert "label_mismatch" in p.stdout and "vllm-deepseek-v4-1-flash.md [" in p.stdout
    p = run_cli("check", "anything", "--db", str(tmp_path / "none.duckdb"), cwd=REPO)
    assert p.returncode == 2 and p.stderr.startswith("error: no database")
    p = run_cli("check", "no figures in this sentence", "--db", corpus_db, cwd=REPO)
    assert p.returncode == 5 and p.stdout.startswith("ambiguous: No figure")


def test_pdf_evidence_carries_its_page(tmp_path, run_cli):
    """A figure from page 2 of a primary PDF is cited with that page, in check and report."""
    from conftest import write_pdf

    folder = tmp_path / "docs"
    folder.mkdir()
    write_pdf(folder / "bench.pdf", [["Falcon-180B serving notes", "We describe our setup."],
                                     ["We measured Falcon-180B at 88 tokens/s per user",
                                      "on 8 x H100 GPUs."]],
              title="Falcon-180B serving notes", author="Test Lab")
    (folder / "sources.csv").write_text("path,role,publisher,title,url,date\n"
                                        "bench.pdf,primary,Test Lab,,,2027-01-05\n")
    db = str(tmp_path / "p.duckdb")
    run_cli("ingest", str(folder), "--db", db, "-q", cwd=REPO, check=True)
    v = check("Falcon-180B reached 80 tokens per second per user", db)
    assert v.verdict == "supported"
    assert v.evidence[0].page == 2 and v.evidence[0].doc_path == "bench.pdf"
    _spans_hold(db, v)
    out = tmp_path / "out"
    run_cli("report", "--db", db, "-o", str(out), cwd=REPO, check=True)
    # the figure with its page is on the document's page of the report (docs/reports.md)
    [page] = (out / "pages").glob("doc-bench-*.html")
    assert "p. 2" in page.read_text()


# --- the candidates chosen in SQL (pipeline/check_sql.py) --------------------------------
#
# `claims check` no longer loads every primary figure of the family: SQL picks the few that
# can change the answer. Two things must hold, and these tests hold them on a warehouse
# built for the purpose (figures at the edges of every comparison, random otherwise):
#   * column by column, SQL's three-valued answer is Python's whenever it is not NULL, and
#     no figure Python accepts is dropped by the early filters (value window, denominator,
#     names) of the query that asks for it;
#   * the verdict, explanation and evidence are those of the whole-family comparison.

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import check_sql
from pipeline.check import Checker, Query, check_loaded, query_from_claim
from pipeline.check_sql import _Ctx, SqlChecker, check_query
from pipeline.checker import settles
from pipeline.link.consistency import Figure
from pipeline.model import Claim, Document
from pipeline.record import Record
from pipeline.store import Store

MODELS = ["Llama 3.1 405B", "Meta's Llama 3.1 405B", "llama-3.1-405b", "Llama 3.1 405B Instruct",
          "Llama 3.1", "Qwen3-32B", "Kimi K3", "DeepSeek-V4.1-Flash", "", None]
HARDWARE = [(None, None, None), ("8 x H200", None, None), ("H200", None, None),
            (None, 8, "H200"), (None, None, "H200"), ("DGX H100", None, None),
            ("8 x H100", 8, "H100"), ("72 x GB300 (GB300 NVL72)", None, None), ("4 x B300", 4, None)]
ENGINES = [None, None, "vLLM", "TRT-LLM", "TensorRT-LLM", "SGLang", "Dynamo SGLang", ""]
STATS = [None, None, "p90", "P90", "median", "peak", "max"]
SCOPES = [None, "", "unspecified", "per_user", "per_user", "per_gpu", "aggregate"]
COMPARATORS = ["=", "=", "=", "~", ">", ">=", "<", "<=", None]
CONCURRENCY = [None, None, 1.0, 1.0000001, 2.0]
PHASES = [None, None, "decode", "prefill"]
KINDS = [None, None, "output", "total"]
STANCES = ["asserted"] * 6 + ["reported", "negated", "hypothetical", None]
PRECISIONS = [None, 0.5, 0.5, 0.05, 0.005, 50.0, 5000.0, 0.0]
UNITS = {"token_throughput": ("tokens/s", [None]), "latency": ("s", [None]),
         "parameters": ("count", [None]), "tokens": ("count", [None]),
         "percent": ("%", [None]), "request_throughput": ("requests/s", [None]),
         "money": ("USD", [None, "per GPU-hour", "per GPU hour", "per million tokens"])}
ANCHORS = {"token_throughput": [1000.0, 212.0, 826.0, 954000.0, 1094347.0],
           "latency": [0.5, 0.2, 1.0], "parameters": [552e9, 405e9, 2.8e12, 7e11],
           "tokens": [142000.0, 1000.0, 212.0], "percent": [38.0, 96.0],
           "request_throughput": [1000.0, 2.5], "money": [38.96, 2.1, 38.0]}
FACTORS = [1.0, 1.0, 1.0005, 0.9995, 1.0000001, 0.9999999, 1.05, 0.95, 1.0500001, 2.0, 0.5]
LABELS = ["revenue", "profit", "price", "cost"]


def _value(rng: random.Random, family: str) -> tuple[float, float | None]:
    a = rng.choice(ANCHORS[family])
    v = a * rng.choice(FACTORS)
    if rng.random() < 0.2:                     # the edge of a rounding interval
        v = a + rng.choice([0.5, -0.5, 1.0, -1.0, 0.05, 1.5, 2.0]) * rng.choice([1, 1000])
    p = rng.choice(PRECISIONS)
    if p is None and rng.random() < 0.5:
        v = round(v, 2)                        # no precision, a decimal: Python's default
    return v, p


def _claim(rng: random.Random, cid: str, doc_id: str, family: str, at: int) -> Claim:
    unit, bases = UNITS[family]
    v, p = _value(rng, family)
    low = high = None
    if rng.random() < 0.1:
        low, high = v * 0.9, v * rng.choice([1.1, 1.0, 1.2])
    hw, n, acc = rng.choice(HARDWARE)
    model = rng.choice(MODELS)
    label = rng.choice(LABELS + [None])
    surface = f"{v:g}"
    sentence = (f"At list {label} of {surface} per GPU-hour." if family == "money" and label
                else f"{model or 'It'} reached {surface} here.")
    return Claim(
        id=cid, doc_id=doc_id, start=at, end=at + len(surface), surface=surface, value=v,
        family=family, unit=unit, value_text=surface, low=low, high=high,
        comparator=rng.choice(COMPARATORS), precision=p,
        scope=rng.choice(SCOPES) if family in ("token_throughput", "request_throughput")
        else rng.choice([None, None, "aggregate", "per_gpu"]),
        statistic=rng.choice(STATS), phase=rng.choice(PHASES), token_kind=rng.choice(KINDS),
        per_basis=rng.choice(bases), sentence=sentence, model=model,
        model_params=rng.choice([None, None, 405e9, 552e9, 0.0, 2.8e12]),
        hardware=hw, hw_count=n, accelerator=acc, engine=rng.choice(ENGINES),
        concurrency=rng.choice(CONCURRENCY), stance=rng.choice(STANCES),
        implied=rng.random() < 0.2, inherited=rng.random() < 0.2)


def _build_synthetic(path) -> None:
    rng = random.Random(20270315)
    families = list(UNITS)
    with Store.open(path) as store:
        for i in range(48):
            doc_id = f"doc{i:02d}"
            role, source = rng.choice([("primary", "manifest")] * 5 + [("secondary", "manifest"),
                                                                        ("unknown", "manifest")])
            if i == 47:
                role, source = "unknown", None          # inferred on reading, as Record does
            published = rng.choice([None, "2026-10-23", "2026-10-20", "2027-01-05"])
            claims = []
            for j in range(rng.randint(6, 14)):
                fam = rng.choice(families + ["token_throughput", "parameters"])
                claims.append(_claim(rng, f"c{i:02d}_{j:02d}", doc_id, fam, 20 * j))
            text = " ".join(c.sentence for c in claims)
            if i == 47:
                text = "We measured our serving stack. " + text
            path_name = rng.choice(["a", "b", "é", "Z", "b-2"]) + f"/{i}.md"
            doc = Document(id=doc_id, path=path_name, format="markdown", text=text,
                           title=f"T{i}", publisher=rng.choice([None, f"P{i % 5}"]),
                           published=published, role=role, role_source=source)
            store.write(doc, claims, "fp")


@pytest.fixture(scope="module")
def synthetic_db(tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("synthetic") / "s.duckdb"
    _build_synthetic(db)
    return str(db)


@pytest.fixture
def strict(monkeypatch):
    """An SQL answer Python contradicts raises instead of falling back quietly."""
    monkeypatch.setattr(check_sql, "STRICT", True)


def _query(rng: random.Random) -> Query:
    fam = rng.choice(list(UNITS) + ["token_throughput"] * 3)
    f = _claim(rng, "q", "query", fam, 0)
    f.stance = "negated" if rng.random() < 0.1 else "asserted"
    if f.precision == 0.0:
        f.precision = 0.5
    if rng.random() < 0.3:
        f.scope = None
    size = None
    if rng.random() < 0.3:
        size = Figure(rng.choice([300e9, 552e9, 700e9, 2.8e12, 405e9]), None, None,
                      rng.choice([">", ">=", "<", "<=", "=", "~"]), rng.choice([None, 5e8, 5e10]))
    label = rng.choice(LABELS + [None]) if fam == "money" else None
    return Query(text=f.sentence or "", figure=f, size=size, label=label,
                 negated=f.stance == "negated")


def _reference(store: Store, q: Query) -> Checker:
    fams = {"parameters", q.figure.family}
    if q.figure.family in check_sql.COUNT_FAMILIES:
        fams |= check_sql.COUNT_FAMILIES
    return Checker(Record.load(store, families=fams, with_links=False, with_text=False))


NAMES = list(_Ctx.PRED)


def _verdict_code_reading(name: str, c, chk: Checker, q: Query) -> bool:
    """What the verdict code itself keeps (``Checker._check``, ``_unproven_text``,
    ``_unscoped``, ``settles``, ``_near_kind``): the predicates of check_predicates must
    read the same on every figure."""
    ok_scope = c.scope in ("same", "free")
    pool = ok_scope and not (set(c.differs) - {"model size"}) and not (set(c.open) - {"model size"})
    return {
        "supports": lambda: c.exact and c.meets,
        "contradicts": lambda: c.exact and c.refutes,
        "exact": lambda: c.exact,
        "unknown": lambda: "model size" in c.open and c.meets,
        "pool": lambda: pool,
        "same_model": lambda: ok_scope and "model" not in c.differs and "model" not in c.open,
        "scope_ok": lambda: ok_scope,
        "inside": lambda: pool and "model size" not in c.differs and "model size" not in c.open,
        "settle": lambda: settles(q, c),
        "by_scope": lambda: c.claim.scope not in (None, "", "unspecified") and not (
            {"model", "hardware", "engine", "model size"} & set(c.differs)),
        "near_mismatch": lambda: chk._near_kind(q, c) == "mismatch",
        "near_label": lambda: chk._near_kind(q, c) == "label_mismatch",
        "near_partial": lambda: chk._near_kind(q, c) == "partial",
    }[name]()


def _holds_columns(store: Store, q: Query) -> None:
    """Every figure's SQL columns agree with Python's comparison wherever SQL answers, and
    the early filters of each query keep every figure Python accepts."""
    ref = _reference(store, q)
    f = q.figure
    cands = ref._candidates(f)
    cmps = {p.id: ref.compare(q, p) for p in cands}
    chk = SqlChecker(store)
    ctx = _Ctx(chk, q)
    everything = ctx.table(NAMES, early=False)
    assert set(everything) == set(cmps)             # the same candidates, no more, no less
    for cid, flags in everything.items():
        for name, flag in zip(NAMES, flags):
            py = _Ctx.py(name, cmps[cid], ref, q)
            assert py == _verdict_code_reading(name, cmps[cid], ref, q), (name, cid, py)
            assert flag is None or flag == py, (name, cid, flag, py)
    for name in NAMES:
        kept = {cid for cid, (flag,) in ctx.table([name]).items() if flag is not False}
        accepted = {cid for cid, c in cmps.items() if _Ctx.py(name, c, ref, q)}
        assert accepted <= kept, (name, accepted - kept)
    if ctx.cross_needed:
        ref.primaries = [p for p in ref.primaries]        # _cross_family walks these
        accepted = {c.claim.id for _, c, _ in ref._cross_family(f)}
        every = ctx.table(["cross"], early=False)
        for cid, (flag,) in every.items():
            assert flag is None or flag == (cid in accepted), ("cross", cid)
        kept = {cid for cid, (flag,) in ctx.table(["cross"]).items() if flag is not False}
        assert accepted <= kept


def _same_verdict(store: Store, q: Query) -> None:
    sql = check_query(q, store, load_below=0)        # always the SQL path, however small
    assert sql.to_dict() == check_loaded(q, store).to_dict(), q.reading()


def test_sql_columns_and_verdicts_on_edge_figures(synthetic_db, strict):
    """Fixed random queries over figures at the rounding edges, other denominators and
    statistics, missing and inherited subjects, named systems, ranges, money labels."""
    rng = random.Random(7)
    with Store.open(synthetic_db, read_only=True) as store:
        for _ in range(12):
            q = _query(rng)
            _holds_columns(store, q)
            _same_verdict(store, q)


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_sql_columns_and_verdicts_property(synthetic_db, seed):
    check_sql.STRICT = True
    try:
        with Store.open(synthetic_db, read_only=True) as store:
            q = _query(random.Random(seed))
            _holds_columns(store, q)
            _same_verdict(store, q)
    finally:
        check_sql.STRICT = False


def test_sql_verdicts_for_every_stored_figure(synthetic_db, strict):
    """Each stored figure checked as a claim (as the report does): the same answer."""
    with Store.open(synthetic_db, read_only=True) as store:
        _, rows = store.query("SELECT id FROM claims ORDER BY id")
        rec = Record.load(store, with_links=False, with_text=False)
        for (cid,) in rows[::5]:
            _same_verdict(store, query_from_claim(rec.claims[cid]))


def test_window_border_figures_are_kept(tmp_path, strict):
    """Figures just inside and just outside the rounding interval of '1,000', '~1,000',
    '> 1,000' and 'up to 1,000': SQL keeps what Python accepts, down to the last digit."""
    db = tmp_path / "border.duckdb"
    values = [999.5, 999.4999999, 1000.5, 1000.5000001, 1001.0, 1001.5, 1000.0, 999.0, 949.99,
              950.0, 1050.0, 1050.0000001, 1051.0, 1052.0, 998.5, 1002.0]
    claims = [Claim(id=f"b{i:02d}{j}", doc_id="d", start=i, end=i + 1, surface="x", value=v,
                    family="token_throughput", unit="tokens/s", scope="per_user",
                    comparator=cmp, precision=p)
              for i, v in enumerate(values)
              for j, (cmp, p) in enumerate([("=", 0.5), ("=", 0.05), ("~", 0.5), (">=", 0.5),
                                            ("<=", 0.5), ("=", None), ("=", 500.0)])]
    # a value outside its own range: consistent's strict test compares values
    claims.append(Claim(id="odd", doc_id="d", start=1, end=2, surface="x", value=1000.0, low=10.0,
                        high=20.0, family="token_throughput", unit="tokens/s", scope="per_user",
                        precision=0.5))
    with Store.open(db) as store:
        store.write(Document(id="d", path="d.md", format="markdown", text="x" * 40,
                             role="primary", role_source="manifest"), claims, "fp")
    with Store.open(db, read_only=True) as store:
        for cmp in ("=", "~", ">", ">=", "<", "<="):
            for p in (0.5, 500.0):
                f = Claim(id="q", doc_id="query", start=0, end=1, surface="1,000", value=1000.0,
                          family="token_throughput", unit="tokens/s", comparator=cmp,
                          precision=p, scope="per_user")
                q = Query(text="", figure=f)
                _holds_columns(store, q)
                _same_verdict(store, q)


def test_sql_verdicts_on_the_corpora(corpus_db, fixture_db, strict):
    """Every figure of the demo corpus and of the check fixtures, checked as a claim, and
    the sentences above: the SQL-chosen candidates give the whole-family verdict."""
    texts = [HEADLINE] + [t for t, _, _ in CASES] + [
        "Qwen3-32B does 140 tokens per second", "Qwen3-32B tops 150 tokens/s per user",
        "Some system served at most 100 tokens/s per user", "Kimi K3 has 1 trillion parameters",
        "DeepSeek-V4.1-Flash does 826 tokens per second", "The median input is 142K tokens"]
    for db in (corpus_db, fixture_db):
        with Store.open(db, read_only=True) as store:
            rec = Record.load(store, with_links=False, with_text=False)
            for c in rec.claims.values():
                _same_verdict(store, query_from_claim(c))
            for t in texts:
                _same_verdict(store, read_claim(t))


def test_real_corpus_sample(real_warehouse, strict):
    """A sample of the shared corpus's figures, checked as claims: the same verdicts."""
    with Store.open(real_warehouse.db, read_only=True) as store:
        rec = Record.load(store, with_links=False, with_text=False)
        ids = sorted(rec.claims)
        for cid in random.Random(3).sample(ids, 30):
            _same_verdict(store, query_from_claim(rec.claims[cid]))


def _doc(i: int, claims: list[Claim], role: str = "primary", date: str | None = None) -> Document:
    return Document(id=f"h{i:02d}", path=f"h/{i:02d}.md", format="markdown", text="x" * 400,
                    publisher=f"Lab {i}", published=date, role=role, role_source="manifest")


def _fig(cid: str, doc: int, value: float, family: str = "token_throughput", **kw) -> Claim:
    kw.setdefault("unit", {"token_throughput": "tokens/s", "money": "USD",
                           "parameters": "count", "tokens": "count"}[family])
    kw.setdefault("precision", 0.5)
    kw.setdefault("surface", f"{value:g}")
    return Claim(id=cid, doc_id=f"h{doc:02d}", start=len(cid), end=len(cid) + 3, value=value,
                 family=family, **kw)


def test_sql_long_lists_pools_and_labels(tmp_path, strict):
    """The lists the verdict text counts or cuts (more than ten supports or refutations, the
    first four figures per denominator, two models within a size condition, figures with
    no model size), pools whose best figure only Python can judge (money labels), and
    subjects whose figures disagree: the same answers as the whole-family comparison."""
    db = tmp_path / "lists.duckdb"
    docs: dict[int, list[Claim]] = {}

    def add(doc: int, c: Claim) -> None:
        docs.setdefault(doc, []).append(c)

    for i in range(12):       # 12 per-user figures at 140 on Qwen3-32B, then 3 per-GPU ones
        add(i, _fig(f"u{i}", i, 140.0, scope="per_user", model="Qwen3-32B", hardware="1 x H100"))
    for i in range(12, 15):
        add(i, _fig(f"g{i}", i, 140.0, scope="per_gpu", model="Qwen3-32B", hardware="1 x H100"))
    for i in range(15):       # 15 figures above 5,000 per user, none naming a model size
        add(i, _fig(f"hi{i}", i, 5000.0 + 10 * i, scope="per_user", model="Orca 70B"))
    for i, (v, label) in enumerate([(2.10, "list price"), (3.00, "price"), (1.50, "profit"),
                                    (1.20, "profit"), (0.90, "revenue"), (2.60, "cost"),
                                    (1.41, "revenue")]):
        add(20 + i, _fig(f"m{i}", 20 + i, v, family="money", per_basis="per million tokens",
                         precision=0.005, model="Llama 3.1 405B", surface=f"${v:.2f}",
                         sentence=f"Our {label} is ${v:.2f} per million tokens."))
    for i, (model, size) in enumerate([("Big A", 8e11), ("Big B", 9e11), ("Small C", 7e10)]):
        add(30 + i, _fig(f"p{i}", 30 + i, size, family="parameters", model=model))
        add(30 + i, _fig(f"s{i}", 30 + i, 400.0 - 50 * i, scope="per_user", model=model))
    add(34, _fig("s9", 34, 900.0, scope="per_user", model="Unsized D"))
    for i, v in enumerate([400.0, 410.0, 380.0]):      # figures on one subject that disagree
        add(40 + i, _fig(f"d{i}", 40 + i, v, scope="per_user", model="Mixtral 8x22B",
                         hardware="8 x H100"))
    with Store.open(db) as store:
        for i, claims in sorted(docs.items()):
            store.write(_doc(i, claims, date=f"2027-01-{1 + i % 28:02d}"), claims, "fp")
    texts = [
        "Qwen3-32B does 140 tokens per second",                   # ambiguous, two denominators
        "Some system topped 5,000 tokens per second per user",     # 15 supports
        "Some system served at most 100 tokens per second per user",  # refuted many times
        "No system has topped 1,000 tokens per second per user",
        "Operators make $1.40 in profit per million tokens on Llama 3.1 405B",
        "Operators make $1.40 in profit per million tokens",       # pool: labels, read in Python
        "Operators make more than $3 in profit per million tokens",
        "Llama 3.1 405B costs $2.60 per million tokens", "Llama 3.1 405B earns $5 in revenue",
        "A model above 700B parameters topped 1,000 tokens per second per user",
        "A model above 700B parameters topped 320 tokens per second per user",
        "A model below 100B parameters reached 1,000 tokens/s per user",
        "Mixtral 8x22B runs at 395 tokens per second per user on 8 x H100",
        "Mixtral 8x22B tops 500 tokens per second per user",
        "Mixtral 8x22B reaches at most 300 tokens per second per user",
    ]
    with Store.open(db, read_only=True) as store:
        for t in texts:
            q = read_claim(t)
            _holds_columns(store, q)
            _same_verdict(store, q)
        rec = Record.load(store, with_links=False, with_text=False)
        for c in rec.claims.values():
            _same_verdict(store, query_from_claim(c))
