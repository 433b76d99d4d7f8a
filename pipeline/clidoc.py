"""docs/cli.md, generated from the CLI's own help: `python -m pipeline.clidoc > docs/cli.md`.

The reference is what ``claims --help`` and ``claims COMMAND --help`` print, so it cannot
say something the CLI does not. Each help is rendered by the real console script in a
subprocess at a fixed width (100 columns) with colour off and trailing spaces stripped, so
the file is the same on every machine; ``tests/test_cli_docs.py`` fails when docs/cli.md
differs from what this prints (after changing a command or an option, run the line above).
"""
from __future__ import annotations

import os
import subprocess
import sys

WIDTH = 100
HEADER = f"""# Command-line reference

Generated from `claims --help` and `claims COMMAND --help` at {WIDTH} columns by
`python -m pipeline.clidoc > docs/cli.md`; do not edit by hand (`tests/test_cli_docs.py`
fails when this file is out of date). The README has the short version; the topics are in
the other files of `docs/`.
"""

# Run the CLI as the console script does, with the program named `claims` in usage lines.
_RUN = "import sys; sys.argv[0] = 'claims'; from pipeline.cli import main; main()"


def command_names() -> list[str]:
    """The subcommands, in the order the CLI lists them."""
    import typer.main

    from pipeline.cli import app

    return list(typer.main.get_command(app).commands)


def render_help(args: list[str]) -> str:
    """What ``claims ARGS --help`` prints at WIDTH columns, without colour or trailing blanks."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "CLAIMS_DB", "CLAIMS_DEBUG")}
    env.update(COLUMNS=str(WIDTH), TERMINAL_WIDTH=str(WIDTH), NO_COLOR="1", TERM="dumb",
               LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-c", _RUN, *args, "--help"], env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120, check=True)
    lines = [line.rstrip() for line in proc.stdout.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def render() -> str:
    """The whole of docs/cli.md."""
    from concurrent.futures import ThreadPoolExecutor

    commands = [[]] + [[name] for name in command_names()]
    with ThreadPoolExecutor(max_workers=4) as pool:        # one subprocess each
        helps = list(pool.map(render_help, commands))
    parts = [HEADER]
    for args, text in zip(commands, helps):
        parts += [f"## {' '.join(['claims', *args])}\n", "```text\n" + text + "\n```\n"]
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(render())
