"""The facts stored with each claim (link/facts.py, issue 17 item 1): what the store writes
is what the one function computes, the checker reads the stored row for a claim read from
the warehouse, and a figure made from it (another denominator, a headline) gets its own.

Real DuckDB files; the claims are made up here (no corpus text).
"""
from __future__ import annotations

import dataclasses
import math

from pipeline.checker import Checker
from pipeline.link.consistency import bounds
from pipeline.link.facts import FACT_COLUMNS, facts_of, facts_row, full_figure, witness_figure
from pipeline.link.keys import hw_key, model_key, scope_key, token_kind_key, unit_key
from pipeline.model import Claim, Document
from pipeline.record import Record
from pipeline.store import Store

TEXT = "Runs reached 1,234.5 tokens/s per user, up to 2.5x, more than 900 and $2.10 per GPU hour."


def _claims() -> list[Claim]:
    base = dict(doc_id="d1", start=0, end=4, surface="x", sentence=TEXT, sentence_start=0,
                sentence_end=len(TEXT))
    return [
        Claim(id="a", value=1234.5, family="token_throughput", unit="tokens/s", scope="per_user",
              model="Meta's Llama-3.1 70B", hardware="8 x H100", engine="TRT-LLM",
              phase="Decode", statistic="P50", **base),
        Claim(id="b", value=2.5, family="ratio", unit="x", comparator="<=", precision=0.05,
              accelerator="NVIDIA B200 GPUs", **base),
        Claim(id="c", value=900.0, family="token_throughput", unit="tokens/s", comparator=">",
              scope="unspecified", hardware="DGX B200", **base),
        Claim(id="d", value=2.1, family="money", unit="USD", per_basis="per GPU hour",
              low=2.0, high=2.2, comparator="~", **base),
    ]


def test_each_fact_is_its_key_function_and_the_store_keeps_it(tmp_path):
    claims = _claims()
    for c in claims:
        f = facts_of(c)
        assert f.key_unit == unit_key(c) and f.key_scope == scope_key(c.scope)
        assert f.key_model == model_key(c.model) and f.key_token_kind == token_kind_key(c)
        assert ((f.key_hw_count, f.key_hw) if f.key_hw else None) == hw_key(c)
        assert f.witness(c) == bounds(witness_figure(c)) and f.full(c) == bounds(full_figure(c))
    assert facts_of(claims[0]).key_model == "llama 3.1 70b"
    assert facts_of(claims[2]).key_scope is None and facts_of(claims[2]).full_top == math.inf
    assert facts_of(claims[3]).key_unit == "usd/gpuhour"
    doc = Document(id="d1", path="a.md", format="markdown", text=TEXT)
    with Store.open(tmp_path / "w.duckdb") as store:
        store.write(doc, claims, "fp")
        rows = store.query(f"SELECT id, {', '.join(FACT_COLUMNS)} FROM claims ORDER BY id")[1]
    assert {r[0]: tuple(r[1:]) for r in rows} == {c.id: facts_row(c) for c in claims}


def test_the_checker_reads_the_stored_row_and_computes_for_a_new_figure(tmp_path):
    doc = Document(id="d1", path="a.md", format="markdown", text=TEXT)
    with Store.open(tmp_path / "w.duckdb") as store:
        store.write(doc, _claims(), "fp")
        # a stored key that no longer matches the code (as after a vocabulary change) is
        # still what both paths read, until the claim is stored again
        store.con.execute("UPDATE claims SET key_engine = 'stored engine' WHERE id = 'a'")
        record = Record.load(store, with_links=False, with_text=False)
    a = record.claims["a"]
    assert record.facts_of(a).key_engine == "stored engine"
    assert Checker(record).facts(a).engine == "stored engine"
    # the same figure read as another denominator is a figure of its own: computed
    other = dataclasses.replace(a, scope="per_gpu")
    assert record.facts_of(other).key_engine == "tensorrt-llm"
    assert record.facts_of(other).key_scope == "per_gpu"
