"""docs/cli.md is the CLI's own help (issue 17): regenerated here and compared, so a new
option, command or help text without `python -m pipeline.clidoc > docs/cli.md` fails."""
from __future__ import annotations

from pathlib import Path

from pipeline import clidoc

DOC = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def test_docs_cli_md_is_what_the_cli_prints():
    rendered = clidoc.render()
    assert DOC.read_text(encoding="utf-8") == rendered, (
        "docs/cli.md is out of date: run `python -m pipeline.clidoc > docs/cli.md`")
    for name in clidoc.command_names():          # every command has its section and usage
        assert f"## claims {name}\n" in rendered and f"Usage: claims {name} " in rendered
    assert "\x1b" not in rendered and max(map(len, rendered.splitlines())) <= clidoc.WIDTH


def test_the_rendering_is_fixed_width_whatever_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.setenv("FORCE_COLOR", "1")
    text = clidoc.render_help(["link"])
    assert "\x1b" not in text and "Usage: claims link [OPTIONS]" in text
    assert max(map(len, text.splitlines())) == clidoc.WIDTH
