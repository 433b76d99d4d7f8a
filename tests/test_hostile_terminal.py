"""Terminal safety (issue 15, part 5): rich markup in a path does not stop an interactive
ingest; control sequences from file names and document text never reach the terminal raw."""
from __future__ import annotations

import os
import select
import subprocess
import time

from conftest import claims_command

ESC = "\x1b"


def _corpus(root):
    c = root / "c"
    (c / "z[").mkdir(parents=True)   # sorts last: the bar's final redraw shows it
    for i in range(7):
        (c / f"g{i}.md").write_text(f"vLLM reaches {i + 1}00 tokens/s on one H100.\n")
    (c / "z[" / "]doc.md").write_text("SGLang reaches 900 tokens/s on one H100.\n")
    (c / f"esc{ESC}[31mred.md").write_text(f"x{ESC}]0;pwned\x07 vLLM reaches 77 tokens/s.{ESC}[2J\x9b6n\n")
    (c / f"empty{ESC}]0;title\x07.md").write_bytes(b"")
    return c


def _run_on_pty(args, cwd, timeout=120):
    """Run the CLI with stderr on a pseudo-terminal (the progress bar shows): rc, stdout, stderr."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
    proc = subprocess.Popen([*claims_command(), *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    err, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                err += chunk
                if not chunk and proc.poll() is not None:
                    break
            elif proc.poll() is not None:
                break
        else:
            proc.kill()
        out = proc.stdout.read()
        proc.wait(timeout=10)
    finally:
        os.close(master)
    return proc.returncode, out.decode(), err.decode(errors="replace")


def test_markup_and_escapes_in_paths_on_an_interactive_ingest(tmp_path):
    _corpus(tmp_path)
    rc, out, err = _run_on_pty(["ingest", "c", "--db", "w.duckdb", "--workers", "0"], tmp_path)
    assert rc == 0, err
    assert "Traceback" not in err and "MarkupError" not in err
    assert "10 files: 9 new" in out
    assert "z[/]doc.md" in err                  # shown as text by the bar's last redraw
    # the file names' sequences are shown escaped, never sent (the bar's own colours are)
    assert f"{ESC}]0;" not in err and f"{ESC}[31m" not in err
    assert "error: empty\\x1b]0;title\\x07.md: " in err


def test_document_text_is_escaped_in_tables_and_trace(tmp_path, run_cli):
    _corpus(tmp_path)
    run_cli("ingest", "c", "--db", "w.duckdb", "-q", cwd=tmp_path, check=True)
    p = run_cli("sql", "SELECT path, text FROM documents WHERE path LIKE 'esc%'", "--db",
                "w.duckdb", cwd=tmp_path, check=True)
    assert ESC not in p.stdout and "\x07" not in p.stdout and "\x9b" not in p.stdout
    assert "\\x1b]0;pwned\\x07" in p.stdout and "\\x1b[2J" in p.stdout
    p = run_cli("sql", "SELECT text FROM documents WHERE path LIKE 'esc%'", "-f", "markdown",
                "--db", "w.duckdb", cwd=tmp_path, check=True)
    assert ESC not in p.stdout
    # data formats redirected to a file stay the data
    p = run_cli("sql", "SELECT text FROM documents WHERE path LIKE 'esc%'", "-f", "csv",
                "--db", "w.duckdb", cwd=tmp_path, check=True)
    assert ESC in p.stdout
    claim = run_cli("sql", "SELECT c.id FROM claims c JOIN documents d ON d.id = c.doc_id "
                    "WHERE d.path LIKE 'esc%'", "-f", "csv", "--db", "w.duckdb", cwd=tmp_path,
                    check=True).stdout.split()[1]
    p = run_cli("trace", claim, "--db", "w.duckdb", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert ESC not in p.stdout and "\x07" not in p.stdout


def test_terminal_safe():
    from pipeline.output import terminal_safe

    assert terminal_safe("a\x1b]0;x\x07b\tc\nd\x9b\u202e\r") == \
        "a\\x1b]0;x\\x07b\tc\nd\\x9b\\u202e\\x0d"
