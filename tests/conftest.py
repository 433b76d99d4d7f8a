"""Shared fixtures: where the shared corpus and our own fixtures are, and the real CLI.

Fixture files under tests/fixtures/ingest/ were written for these tests (no corpus text):
HTML pages with navigation/cookie banner/scripts/footer, Markdown with YAML and TOML
front matter, text in UTF-8 (with BOM), UTF-16, Latin-1, cp1252 and broken UTF-8, a
binary file named .txt, a zero-byte file and a corrupt PDF. A valid PDF is generated at
run time with matplotlib (``make_pdf``).
"""
from __future__ import annotations

import datetime as dt
import fcntl
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "ingest"


@pytest.fixture(scope="session", autouse=True)
def _verdict_cache(tmp_path_factory):
    """Verdicts kept by report, trace and serve (pipeline.judged) go to a folder of this
    test run, not the user's cache (the CLI in a subprocess inherits it)."""
    old = os.environ.get("CLAIMS_CACHE_DIR")
    os.environ["CLAIMS_CACHE_DIR"] = str(tmp_path_factory.mktemp("verdict-cache"))
    yield
    if old is None:
        os.environ.pop("CLAIMS_CACHE_DIR", None)
    else:
        os.environ["CLAIMS_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def SHARED() -> Path:
    """The shared/ folder beside the repository (CI copies it there); skip if absent."""
    shared = Path(__file__).resolve().parents[1].parent / "shared"
    if not shared.is_dir():
        pytest.skip("shared/ is not beside the repository")
    return shared


@pytest.fixture(scope="session")
def REAL(SHARED: Path) -> Path:
    real = SHARED / "corpus" / "real"
    if not real.is_dir():
        pytest.skip("shared/corpus/real is missing")
    return real


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


def claims_command() -> list[str]:
    """The installed console script next to this interpreter, else `python -m pipeline.cli`."""
    script = Path(sys.executable).with_name("claims")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pipeline.cli"]


def as_from_a_terminal() -> None:
    """``preexec_fn`` for a child that a test interrupts as a user's Ctrl-C would: SIGINT at
    its default, as a shell gives a foreground command. A child inherits an ignored SIGINT
    (the test process's own state, set by whatever ran in it before), and Python keeps it
    ignored, so Ctrl-C would never reach the command under test."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def run_cli():
    """Run the real `claims` CLI in a subprocess; returns the CompletedProcess."""

    def run(*args: str, cwd: Path, env: dict[str, str] | None = None,
            check: bool | None = None) -> subprocess.CompletedProcess:
        full_env = {k: v for k, v in os.environ.items() if k not in ("CLAIMS_DB", "CLAIMS_DEBUG")}
        full_env.update(env or {})
        proc = subprocess.run([*claims_command(), *args], cwd=cwd, env=full_env,
                              capture_output=True, text=True, timeout=300)
        if check is True:
            assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        return proc

    return run


@pytest.fixture(scope="session")
def ingest_texts(tmp_path_factory, run_cli):
    """``ingest_texts(name, {file: text})``: the documents written here, ingested through the
    real CLI into a real warehouse; returns the warehouse's path (tests that check
    headlines against a small record of their own)."""

    def ingest(name: str, files: dict[str, str]) -> str:
        root = tmp_path_factory.mktemp(name)
        (root / "docs").mkdir()
        for fname, text in files.items():
            (root / "docs" / fname).write_text(text)
        db = root / "p.duckdb"
        run_cli("ingest", str(root / "docs"), "--db", str(db), "-q", cwd=REPO, check=True)
        return str(db)

    return ingest


@pytest.fixture(scope="session")
def primary_db(tmp_path_factory, run_cli):
    """A warehouse made by the real CLI from one document written for a test, marked
    primary in a sources.csv beside it; returns the database path."""

    def make(name: str, text: str) -> str:
        root = tmp_path_factory.mktemp(Path(name).stem)
        (root / name).write_text(text, encoding="utf-8")
        (root / "sources.csv").write_text(f"path,role\n{name},primary\n", encoding="utf-8")
        db = root / "w.duckdb"
        run_cli("ingest", str(root), "--db", str(db), "-q", cwd=Path(__file__).resolve().parents[1],
                check=True)
        return str(db)

    return make


def built_once(tmp_path_factory, name: str, build: Callable[[Path], None]) -> Path:
    """``build(folder)`` run once per test run, however many xdist workers ask: the first
    builds under a file lock in the folder all workers share (the pytest-xdist docs' recipe,
    with ``fcntl`` instead of a dependency on filelock); the others wait, then find the
    folder done. Outside xdist it is simply built in this run's folder. What is in the
    folder is for reading: a test that writes copies it first."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent   # this run's folder, above each worker's
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (folder / ".done").is_file():
                shutil.rmtree(folder, ignore_errors=True)   # a build that failed half way
                folder.mkdir()
                build(folder)
                (folder / ".done").touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder


@dataclass(frozen=True)
class BuiltWarehouse:
    """A warehouse the real CLI made, with what that run printed."""
    db: Path
    stdout: str
    stderr: str

    def copy(self, folder: Path) -> Path:
        """A private copy to write to (the shared file is opened read-only by others)."""
        dst = folder / self.db.name
        shutil.copy(self.db, dst)
        return dst


@pytest.fixture(scope="session")
def real_warehouse(REAL, tmp_path_factory, run_cli) -> BuiltWarehouse:
    """``claims ingest ../shared/corpus/real -q --workers 2`` (ingest, extract, link) run
    once per test run by the real CLI: several modules check this same warehouse (the
    ingest itself and its summary, every view filled, checks in SQL and Python, serve's
    kept answers), which each built for itself before, at a minute or more a build. Open
    it read-only, or ``copy()`` it to write."""

    def build(folder: Path) -> None:
        proc = run_cli("ingest", str(REAL), "--db", str(folder / "real.duckdb"), "-q",
                       "--workers", "2", cwd=folder, check=True)
        (folder / "stdout.txt").write_text(proc.stdout, encoding="utf-8")
        (folder / "stderr.txt").write_text(proc.stderr, encoding="utf-8")

    folder = built_once(tmp_path_factory, "real-warehouse", build)
    return BuiltWarehouse(folder / "real.duckdb", (folder / "stdout.txt").read_text("utf-8"),
                          (folder / "stderr.txt").read_text("utf-8"))


def write_pdf(path: Path, pages: list[list[str]], title: str | None = None,
              author: str | None = None, created: dt.datetime | None = None) -> Path:
    """A real PDF with selectable text, one list of lines per page (matplotlib backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    matplotlib.rcParams["pdf.fonttype"] = 42  # TrueType: text stays extractable
    meta = {k: v for k, v in {"Title": title, "Author": author, "CreationDate": created}.items() if v}
    with PdfPages(path, metadata=meta) as pdf:
        for lines in pages:
            fig = plt.figure(figsize=(6, 4))
            for i, line in enumerate(lines):
                fig.text(0.08, 0.9 - 0.09 * i, line, fontsize=10)
            pdf.savefig(fig)
            plt.close(fig)
    return path


PDF_PAGES = [
    ["Decode speed notes", "The baseline build ran at 410 tokens/s."],
    ["Second page: the tuned build", "reached 1,234 tokens/s per GPU.", "| engine | tok/s |",
     "| tuned | 1234 |"],
    ["Third page closes with a 2.5x speedup."],
]


@pytest.fixture(scope="session")
def sample_pdf(tmp_path_factory) -> Path:
    """Three pages with known lines and full metadata."""
    return write_pdf(tmp_path_factory.mktemp("pdf") / "notes.pdf", PDF_PAGES,
                     title="Decode speed notes", author="Test Author",
                     created=dt.datetime(2024, 5, 6, tzinfo=dt.timezone.utc))


@pytest.fixture
def fresh(site):
    """The loopback test site (a module's ``site`` fixture) with an empty request log and
    counters."""
    site.hits.clear()
    site.counters.clear()
    return site


@pytest.fixture(scope="session")
def local_ray():
    """One local Ray (2 CPUs) for every Ray test of the session (tests/test_ray_ingest.py,
    tests/test_link_ray.py): the code under test joins it and leaves it running."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'claims[ray]')")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    yield ray
    ray.shutdown()
