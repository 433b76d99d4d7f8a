"""report.html in a real browser: headless Chromium renders it, takes a screenshot and dumps
the rendered DOM; verdicts, a highlighted quote and a chart must be on the page.

Skipped when no Chromium is installed, unless CI=true (``.ci/run`` installs Debian's
chromium), where a missing browser is a failure. Set CLAIMS_SCREENSHOT=path/to/file.png to
keep the screenshot.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline.report import write_report
from pipeline.record import open_record

REPO = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")
WINDOW = (1280, 4200)


@pytest.fixture(scope="module")
def chromium() -> str:
    for name in BROWSERS:
        exe = shutil.which(name)
        if exe:
            return exe
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true and no chromium on PATH (.ci/run installs it with apt-get)")
    pytest.skip("chromium is not installed")


@pytest.fixture(scope="module")
def rendered(chromium, tmp_path_factory, run_cli):
    tmp = tmp_path_factory.mktemp("browser")
    db = tmp / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    files = write_report(open_record(str(db)), tmp / "out")
    shot, dom = _render(chromium, tmp, files.html, "report.png")
    keep = os.environ.get("CLAIMS_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
    # the model page whose cluster holds the coverage's 1.09 million figure
    [page] = [f for f in files.pages if f.suffix == ".html" and f.name.startswith("model-")
              and "1.09 million tokens per second" in f.read_text()]
    return (shot, dom), _render(chromium, tmp, page, "model.png")


def _render(chromium: str, tmp: Path, page: Path, png: str) -> tuple[Path, str]:
    """(screenshot, rendered DOM) of one page."""
    url = page.resolve().as_uri()

    def run(*args: str) -> subprocess.CompletedProcess:
        cmd = [chromium, *FLAGS, f"--user-data-dir={tmp / 'profile'}", *args, url]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)

    shot = tmp / png
    p = run(f"--screenshot={shot}", f"--window-size={WINDOW[0]},{WINDOW[1]}")
    assert shot.is_file(), p.stderr[-2000:]
    return shot, run("--dump-dom").stdout


def test_rendered_dom_has_verdicts_quote_and_chart(rendered):
    (_, dom), _ = rendered
    assert "<h1>Claims report</h1>" in dom
    assert 'class="verdict v-unproven"' in dom
    assert "<mark>$38</mark>" in dom and "label mismatch" in dom
    assert "<mark>954K tokens/s</mark>" in dom
    assert "<svg" in dom and "Per-user speed by system and source" in dom
    assert dom.count('class="chart-svg"') == 2


def test_screenshot_shows_them(rendered):
    from PIL import Image

    (shot, _), _ = rendered
    img = Image.open(shot).convert("RGB")
    assert img.size == WINDOW
    colors = {c for _, c in img.getcolors(maxcolors=1 << 22)}
    assert len(colors) > 200                       # a page, not a blank or error screen
    unproven_badge = (0x9a, 0x67, 0x00)            # .v-unproven background
    highlight = (0xff, 0xf1, 0xa8)                 # <mark> background
    chart_bar = (0x1f, 0x6f, 0xeb)                 # first palette colour, a chart bar
    for rgb, what in ((unproven_badge, "verdict badge"), (highlight, "highlighted quote"),
                      (chart_bar, "chart")):
        assert rgb in colors, f"no {what} pixels in the screenshot"


def test_model_page_renders_each_cluster_with_its_story_graph(rendered):
    from PIL import Image

    _, (shot, dom) = rendered
    assert "<h1>DeepSeek-V4.1-Flash</h1>" in dom
    assert dom.count('class="story-svg"') == dom.count('<article class="cluster"') >= 2
    svg = dom[dom.index('class="story-svg"'):]
    svg = svg[:svg.index("</svg>")]
    assert 'class="st-fig"' in svg and "first" in svg
    colors = {c for _, c in Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 22)}
    primary_node, secondary_node = (0xda, 0xfb, 0xe1), (0xff, 0xf8, 0xc5)   # story_svg fills
    assert primary_node in colors and secondary_node in colors, "no story graph drawn"
