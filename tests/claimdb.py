"""Test helper: find a stored claim's id by its document path and surface text."""
from __future__ import annotations

import duckdb


def claim_id(db: str, path: str, surface: str) -> str:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute("SELECT c.id FROM claims c JOIN documents d ON d.id = c.doc_id"
                           " WHERE d.path = ? AND c.surface = ?", [path, surface]).fetchone()[0]
    finally:
        con.close()
