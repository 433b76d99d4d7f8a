"""Reports over the warehouse: report.html (self-contained) and report.md.

``write_report(record, out_dir)`` gathers what the reports show (gather.py), draws the
charts (charts.py, inline SVG) and writes both files; html.py and markdown.py only lay out.
"""
from __future__ import annotations

from pathlib import Path


def write_report(record, out_dir: str | Path) -> tuple[Path, Path]:
    """Write report.html and report.md into ``out_dir``; returns their paths."""
    from pipeline.report import html, markdown
    from pipeline.report.gather import gather

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    data = gather(record)
    html_path, md_path = out / "report.html", out / "report.md"
    html_path.write_text(html.render(data), encoding="utf-8")
    md_path.write_text(markdown.render(data), encoding="utf-8")
    return html_path, md_path


__all__ = ["write_report"]
