"""The README's Python and spaCy lines run as written (issue 18): each ```python block is
a doctest, run in a folder where the README's first command has run (the demo corpus
ingested into warehouse/claims.duckdb)."""
from __future__ import annotations

import doctest
import os
import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def demo(tmp_path_factory, run_cli) -> Path:
    root = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "corpus", root / "corpus")
    run_cli("ingest", "corpus/", "-q", cwd=root, check=True)
    return root


def test_the_readme_has_both_examples():
    assert len(BLOCKS) == 2 and "extract(" in BLOCKS[0] and "add_pipe" in BLOCKS[1]


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_readme_example_runs_as_written(demo, i, monkeypatch):
    if "spacy" in BLOCKS[i]:
        pytest.importorskip("spacy", reason="the spaCy example needs the extra: pip install '.[spacy]'")
    monkeypatch.chdir(demo)
    monkeypatch.delenv("CLAIMS_DB", raising=False)
    test = doctest.DocTestParser().get_doctest(BLOCKS[i], {}, f"README block {i}", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"README block {i} failed (see the output above)"
