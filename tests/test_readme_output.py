"""The README's example output is what the commands print (issue 15: 'the README's example
output does not match what the first command prints'): its first command run as written in
a copy of the demo corpus, then its `claims check` line, each compared line by line with the
README's blocks (timings aside)."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b")


def _block_after(marker: str) -> list[str]:
    """The lines of the first fenced block after ``marker``."""
    start = README.index(marker)
    body = re.search(r"```\n(.*?)```", README[start:], re.S)
    assert body, marker
    return body.group(1).rstrip("\n").splitlines()


def _same(printed: str, shown: list[str]) -> None:
    got = [SECONDS.sub("N s", ln.rstrip()) for ln in printed.rstrip("\n").splitlines()]
    want = [SECONDS.sub("N s", ln.rstrip()) for ln in shown]
    assert got == want


def test_the_readme_shows_what_the_first_command_and_check_print(tmp_path, run_cli):
    first = next(ln for ln in README.splitlines() if ln.startswith("python3 -m venv"))
    command = shlex.split(first.split("&&")[-1].strip())
    assert command[0].endswith("claims") and command[1] == "ingest", first
    shutil.copytree(REPO / "corpus", tmp_path / "corpus")
    ingest = run_cli(*command[1:], cwd=tmp_path, check=True)
    _same(ingest.stdout, _block_after("the first command prints"))
    check = _block_after("a headline can then be checked")
    assert check[0].startswith("$ claims check ")
    verdict = run_cli(*shlex.split(check[0][2:])[1:], cwd=tmp_path)
    assert verdict.returncode in (0, 3, 4, 5), verdict.stderr
    _same(verdict.stdout, check[1:])
