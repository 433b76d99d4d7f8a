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

import pytest

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


BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def chromium_or_skip() -> str:
    """Debian's chromium; skipped when missing, unless CI=true (.ci/run installs it)."""
    import shutil

    ci = os.environ.get("CI", "").lower() == "true"
    for name in BROWSERS:
        exe = shutil.which(name)
        if exe:
            break
    else:
        if ci:
            pytest.fail("CI=true and no chromium on PATH (.ci/run installs it with apt-get)")
        pytest.skip("chromium is not installed")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if ci:
            pytest.fail("CI=true and playwright is not installed (the test extra has it)")
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    return exe


@contextlib.contextmanager
def browser(executable: str) -> Iterator:
    """A headless Chromium driven by Playwright (the installed browser, none downloaded)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


def shots_folder(tmp_path_factory) -> Path:
    """Where screenshots go: $CLAIMS_SCREENSHOTS when set, else a pytest temporary folder
    (``/tmp/pytest-of-$USER/pytest-N/serve-shots0``); the path is printed for a person."""
    chosen = os.environ.get("CLAIMS_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("serve-shots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nserve screenshots: {folder}")
    return folder


# --- fixtures a serve test module imports (it defines ``warehouse``) ------------------------

@pytest.fixture(scope="module")
def base(warehouse):
    """The address of `claims serve` over the module's warehouse."""
    with running(warehouse) as (url, _):
        yield url


@pytest.fixture(scope="module")
def chrome():
    """One headless Chromium for the module."""
    with browser(chromium_or_skip()) as b:
        yield b
