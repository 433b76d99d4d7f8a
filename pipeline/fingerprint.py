"""A key for what the warehouse holds and the code that reads it: what is worked out from
the warehouse once (``pipeline.judged``: the verdict on every figure outside primary
documents) is kept under it and is never stale.

* ``content_key``: every row of ``claims``, ``documents``, ``links`` and ``clusters``,
  hashed by DuckDB row by row and combined order-free (count, XOR and sum of the 64-bit
  row hashes), ~0.1 s for the 1,060-document warehouse; any ingest, relink or role change
  changes it. It also folds in ``code_key``;
* ``code_key``: a hash of the files of the ``pipeline`` package (code, vocabularies, SQL),
  so a change of a rule changes the key too.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

_TABLES = ("claims", "documents", "links", "clusters")
_SUFFIXES = (".py", ".toml", ".sql", ".json", ".yaml", ".txt")


@lru_cache(maxsize=1)
def code_key() -> str:
    """A hash of the files of the ``pipeline`` package."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.suffix in _SUFFIXES and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def content_key(con) -> str:
    """The key of what the warehouse holds now, read with ``con`` (a DuckDB connection or
    cursor open on it), and of the code reading it."""
    h = hashlib.sha256(code_key().encode())
    for t in _TABLES:
        row = con.execute(f"SELECT count(*), bit_xor(hash(x)), sum(hash(x)::HUGEINT) "
                          f"FROM {t} x").fetchone()
        h.update(f"{t}:{row[0]}:{row[1]}:{row[2]};".encode())
    return h.hexdigest()[:32]
