"""`claims ingest` end to end, through the real CLI in a subprocess."""
from __future__ import annotations

import re
import shutil

import duckdb
import pytest

from conftest import write_pdf

SUMMARY = re.compile(r"^(\d+) files: (\d+) new, (\d+) skipped \(unchanged\), (\d+) replaced, "
                     r"(\d+) errors, (\d+) skipped \(unsupported\); (\d+) claims; [\d.]+ s$")


def summary(stdout: str) -> tuple[int, ...]:
    lines = stdout.strip().splitlines()
    m = SUMMARY.match(lines[-1])
    assert m, f"no summary line in {stdout!r}"
    return tuple(int(g) for g in m.groups()[:6])   # files, new, skipped, replaced, errors, unsupported


def rows(db, sql):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture
def corpus(tmp_path, fixtures):
    root = tmp_path / "corpus"
    shutil.copytree(fixtures, root)
    (root / "pdfs").mkdir()
    write_pdf(root / "pdfs" / "deck.pdf", [["Deck", "410 tokens/s"], ["Page two at 9 ms"]])
    (root / "table.tsv").write_text("a\tb\n")
    return root


def test_ingest_folder_into_default_database(corpus, run_cli):
    proc = run_cli("ingest", "corpus", cwd=corpus.parent)
    assert proc.returncode == 0, proc.stderr
    # 12 fixtures + deck.pdf + table.tsv; binary.txt, empty.txt, corrupt.pdf fail
    assert summary(proc.stdout) == (14, 10, 0, 0, 3, 1)
    db = corpus.parent / "warehouse" / "claims.duckdb"
    assert db.is_file()
    errors = dict(rows(db, "SELECT path, reason FROM ingest_errors"))
    assert set(errors) == {"binary.txt", "empty.txt", "corrupt.pdf"}
    assert all("\n" not in r and r for r in errors.values())
    stderr = proc.stderr.strip().splitlines()
    assert len(stderr) == 3 and all(line.startswith("error: ") for line in stderr)
    assert "Traceback" not in proc.stderr
    docs = dict(rows(db, "SELECT path, format FROM documents"))
    assert docs["pdfs/deck.pdf"] == "pdf" and docs["docs.htm"] == "html"
    assert docs["post.md"] == "markdown" and docs["latin1.txt"] == "text"
    assert rows(db, "SELECT count(*) FROM pages p JOIN documents d ON d.id = p.doc_id "
                    "WHERE d.path = 'pdfs/deck.pdf'") == [(2,)]
    n_chars = rows(db, "SELECT bool_and(n_chars = length(text)) FROM documents")
    assert n_chars == [(True,)]


def test_strict_makes_errors_fail_the_run(corpus, run_cli, tmp_path):
    proc = run_cli("ingest", str(corpus / "empty.txt"), "--db", str(tmp_path / "s.duckdb"),
                   "--strict", cwd=tmp_path)
    assert proc.returncode == 1
    assert summary(proc.stdout)[4] == 1


def test_reingest_skips_replaces_and_never_duplicates(corpus, run_cli, tmp_path):
    db = tmp_path / "r.duckdb"
    env = {"CLAIMS_DB": str(db)}
    run_cli("ingest", str(corpus), cwd=tmp_path, env=env, check=True)
    first = rows(db, "SELECT path, id FROM documents ORDER BY path")

    again = run_cli("ingest", str(corpus), cwd=tmp_path, env=env, check=True)
    assert summary(again.stdout) == (14, 0, 10, 0, 3, 1)
    assert rows(db, "SELECT path, id FROM documents ORDER BY path") == first

    # a changed file is replaced whole; a fixed file clears its error; a manifest applies
    post = corpus / "post.md"
    post.write_text(post.read_text(encoding="utf-8").replace("38 GB/s", "41 GB/s"), encoding="utf-8")
    (corpus / "empty.txt").write_text("Now it has 5 ms of content.\n")
    (corpus / "sources.csv").write_text("path,role,publisher\nlatin1.txt,secondary,Some Outlet\n")
    third = run_cli("ingest", str(corpus), cwd=tmp_path, env=env, check=True)
    assert summary(third.stdout) == (14, 1, 8, 2, 2, 1)
    after = dict(rows(db, "SELECT path, id FROM documents"))
    assert len(after) == 11 and after["post.md"] != dict(first)["post.md"]
    assert rows(db, "SELECT count(*) FROM documents WHERE text LIKE '%41 GB/s%'") == [(1,)]
    assert rows(db, "SELECT count(*) FROM documents WHERE text LIKE '%38 GB/s%'") == [(0,)]
    assert rows(db, "SELECT role, role_source, publisher FROM documents WHERE path = 'latin1.txt'") == [
        ("secondary", "manifest", "Some Outlet")]
    assert {r[0] for r in rows(db, "SELECT path FROM ingest_errors")} == {"binary.txt", "corrupt.pdf"}


def test_same_folder_from_another_root_is_not_duplicated(corpus, run_cli, tmp_path):
    db = str(tmp_path / "d.duckdb")
    run_cli("ingest", str(corpus), "--db", db, cwd=tmp_path, check=True)
    proc = run_cli("ingest", str(corpus.parent), "--db", db, cwd=tmp_path, check=True)
    assert summary(proc.stdout)[1] == 0
    assert rows(db, "SELECT count(*) FROM documents") == [(10,)]


def test_missing_path_is_a_one_line_error(run_cli, tmp_path):
    proc = run_cli("ingest", "no/such/folder", cwd=tmp_path)
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines() == [f"error: no such file or folder: no/such/folder"]
    assert not (tmp_path / "warehouse").exists()


def test_workers_give_the_same_documents(corpus, run_cli, tmp_path):
    one, two = str(tmp_path / "1.duckdb"), str(tmp_path / "2.duckdb")
    run_cli("ingest", str(corpus), "--db", one, cwd=tmp_path, check=True)
    proc = run_cli("ingest", str(corpus), "--db", two, "--workers", "2", cwd=tmp_path, check=True)
    assert summary(proc.stdout) == (14, 10, 0, 0, 3, 1)
    query = "SELECT id, path, text FROM documents ORDER BY path"
    assert rows(one, query) == rows(two, query)
