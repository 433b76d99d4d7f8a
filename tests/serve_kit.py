"""The real `claims serve` in a subprocess on a free loopback port, for the serve tests.

``--port 0`` lets the system choose the port; the command prints the address it serves,
which is read back here (no race for a port picked in advance).
"""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import threading
from pathlib import Path
from typing import Iterator

from conftest import REPO, claims_command

SERVING = re.compile(r"serving .* at (http://\S+?)/ ")


@contextlib.contextmanager
def running(db: Path, *extra: str, timeout: float = 60) -> Iterator[tuple[str, subprocess.Popen]]:
    """(base address, process) of `claims serve --db DB --port 0 EXTRA...`, stopped after;
    the process's ``err`` is then what it wrote on stderr."""
    env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
    proc = subprocess.Popen([*claims_command(), "serve", "--db", str(db), "--port", "0", *extra],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)
    timer = threading.Timer(timeout, proc.kill)     # a server that never says where it is
    timer.start()
    try:
        line = proc.stdout.readline()
    finally:
        timer.cancel()
    m = SERVING.search(line)
    if not m:
        proc.kill()
        out, err = proc.communicate(timeout=10)
        raise AssertionError(f"claims serve did not start: {line}{out}\n{err}")
    try:
        yield m.group(1), proc
    finally:
        proc.terminate()
        try:
            _, proc.err = proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, proc.err = proc.communicate(timeout=10)
