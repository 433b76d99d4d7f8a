"""Charts where a picture beats a table, as inline SVG strings (matplotlib, in memory).

* per-user speed by system and source: every per-user figure of the primary record as a
  bar, with the per-user figures other documents claim drawn as lines across them;
* per-user against per-GPU throughput: each per-GPU figure at the per-user speed it was
  measured at (its operating point), figures with only one of the two in side bands.

Text stays text (``svg.fonttype = none``) so the page needs no font files and its labels
are searchable; element ids are prefixed per chart so several SVGs share one page.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from pipeline.link.keys import hardware_text
from pipeline.model import Claim
from pipeline.record import Record
from pipeline.words import fmt_number, hw_key

MAX_BARS = 24
MAX_LABELS = 14
MAX_LINES = 10        # claimed values drawn as lines across the bars
MAX_POINTS = 120      # markers in the operating-point chart
MAX_ROWS = 80         # rows of a chart's data in report.md
PALETTE = ["#1f6feb", "#2da44e", "#bf8700", "#8250df", "#cf222e", "#0a7f8a", "#6e7781",
           "#e16f24", "#a40e26", "#116329"]


@dataclass
class Chart:
    id: str
    title: str
    caption: str
    svg: str
    rows: list[tuple] = field(default_factory=list)     # the data, for report.md
    columns: list[str] = field(default_factory=list)


def _system(c: Claim) -> str:
    parts = [c.model or "unnamed model"]
    hw = hardware_text(hw_key(c))
    if hw:
        parts.append(hw)
    if c.engine:
        parts.append(c.engine)
    return " · ".join(parts)


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({
        "svg.fonttype": "none", "svg.hashsalt": "claims-report",
        "font.family": "sans-serif", "font.size": 9, "axes.spines.top": False,
        "axes.spines.right": False, "axes.titlesize": 10,
        # labels carry titles, publishers and names from documents: a `$...$` in them is
        # text, never mathtext (which stops the report on anything it cannot parse)
        "text.parse_math": False,
    })
    return plt


def to_svg(fig, chart_id: str) -> str:
    """The figure as an inline <svg> element with ids unique to this chart."""
    plt = _plt()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    prefix = f"{chart_id}-"
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r'url\(#([^)]+)\)', lambda m: f"url(#{prefix}{m.group(1)})", svg)
    svg = re.sub(r'(xlink:href|href)="#([^"]+)"', lambda m: f'{m.group(1)}="#{prefix}{m.group(2)}"', svg)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{chart_id}" class="chart-svg" ', 1)
    return svg.strip()


def _colors(keys: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for k in keys:
        if k not in out:
            out[k] = PALETTE[len(out) % len(PALETTE)]
    return out


def per_user_bars(record: Record, pool: list[Claim] | None = None) -> Chart | None:
    """Per-user speed of the highest primary figures, by system and source; claimed
    figures as lines (the most repeated values first when there are many)."""
    pool = list(record.claims.values()) if pool is None else pool
    prim = [c for c in pool if c.family == "token_throughput" and c.scope == "per_user"
            and record.role(c) == "primary" and record.active(c)]
    if len(prim) < 2:
        return None
    n_prim = len(prim)
    prim.sort(key=lambda c: -c.value)
    prim = prim[:MAX_BARS][::-1]
    claimed = [c for c in pool
               if c.family == "token_throughput" and c.scope == "per_user"
               and record.role(c) != "primary" and record.active(c)]
    plt = _plt()
    sources = _colors([_src(record, c) for c in prim])
    h = 0.9 + 0.32 * len(prim)
    fig, ax = plt.subplots(figsize=(8.6, h))
    labels = []
    for i, c in enumerate(prim):
        size = record.params_of(c)
        sys_ = _system(c) + (f" ({fmt_number(size[0], 'count')})" if size else "")
        labels.append(f"{_cut(sys_, 64)} — {_src(record, c)}")
        ax.barh(i, c.value, color=sources[_src(record, c)], height=0.62, left=0)
        ax.text(c.value, i, f" {c.surface}", va="center", fontsize=8)
    ax.set_yticks(range(len(prim)), labels, fontsize=8)
    top = max(c.value for c in prim)
    lines: dict[float, list[str]] = {}
    for c in sorted(claimed, key=lambda c: c.value):
        lines.setdefault(c.value, [])
        who = _src(record, c)
        if who not in lines[c.value]:
            lines[c.value].append(who)
    n_lines = len(lines)
    lines = dict(sorted(lines.items(), key=lambda kv: (-len(kv[1]), -kv[0]))[:MAX_LINES])
    for i, (v, who) in enumerate(sorted(lines.items())):
        ax.axvline(v, color="#cf222e", linestyle="--", linewidth=1, zorder=0)
        ax.text(v, -0.55, f" claimed {fmt_number(v)} ({', '.join(who)})", color="#cf222e",
                fontsize=7, rotation=90, va="bottom", ha="right")
        top = max(top, v)
    low = min(c.value for c in prim if c.value > 0) if any(c.value > 0 for c in prim) else 1
    if top / low > 50:
        ax.set_xscale("log")
        ax.set_xlim(low / 2, top * 3)
    else:
        ax.set_xlim(0, top * 1.22)
    ax.set_ylim(-0.6, len(prim) - 0.4)
    ax.set_xlabel("tokens/s per user (primary documents)")
    ax.set_title("Per-user speed by system and source", pad=10)
    rows = [(record.doc(c).path, c.surface, _system(c), c.start, c.end, c.page)
            for c in prim[::-1]]
    rows += [(record.doc(c).path, c.surface, "claimed (" + record.role(c) + ")", c.start, c.end,
              c.page) for c in claimed if c.value in lines]
    caption = ("Bars: per-user figures in primary documents. Dashed lines: per-user figures "
               "other documents claim.")
    if n_prim > len(prim) or n_lines > len(lines):
        caption += (f" Drawn: the {len(prim)} highest of {n_prim} primary figures and "
                    f"{len(lines)} of {n_lines} claimed values (the most repeated); the "
                    "model pages list them all.")
    return Chart("chart-per-user", "Per-user speed by system and source",
                 caption, to_svg(fig, "chart-per-user"), rows[:MAX_ROWS],
                 ["path", "figure", "system", "start", "end", "page"])


def operating_points(record: Record, pool: list[Claim] | None = None) -> Chart | None:
    """Per-GPU throughput against the per-user speed it was measured at (at most
    ``MAX_POINTS`` markers: the figures with an operating point, highest first)."""
    from pipeline.link.operating_point import assign_op_points
    from pipeline.link.prepare import prepare

    pool = list(record.claims.values()) if pool is None else pool
    tp = [c for c in pool if c.family == "token_throughput"
          and record.active(c) and c.scope in ("per_user", "per_gpu")]
    gpu = [c for c in tp if c.scope == "per_gpu"]
    if not gpu:
        return None
    prepared = [prepare(c, i, record.role(c), record.doc(c).published) for i, c in enumerate(tp)]
    assign_op_points(tp, prepared)
    op = {p.id: p.op_point for p in prepared if p.op_point is not None}
    used_user: set[tuple[str, float]] = {(c.doc_id, op[c.id]) for c in gpu if c.id in op}
    users = [c for c in tp if c.scope == "per_user" and (c.doc_id, c.value) not in used_user
             and record.role(c) == "primary"]
    if sum(1 for c in gpu if c.id in op) < 2:
        return None      # without operating points the picture says nothing a table does not
    plt = _plt()
    all_pts = gpu + users
    n_all = len(all_pts)
    if n_all > MAX_POINTS:
        all_pts = sorted(all_pts, key=lambda c: (c.id not in op, record.role(c) == "primary",
                                                 -c.value, c.id))[:MAX_POINTS]
        gpu = [c for c in all_pts if c.scope == "per_gpu"]
        users = [c for c in all_pts if c.scope != "per_gpu"]
    colors = _colors([_src(record, c) for c in sorted(all_pts, key=lambda c: record.doc(c).order_key())])
    xmax = max([op[c.id] for c in gpu if c.id in op] + [c.value for c in users] + [1.0])
    ymax = max([c.value for c in gpu] + [1.0])
    bx, by = -0.10 * xmax, -0.10 * ymax
    fig, ax = plt.subplots(figsize=(8.6, 4.8))
    ax.axvspan(bx * 1.6, bx * 0.4, color="#f0f0f0", zorder=0)
    ax.axhspan(by * 1.6, by * 0.4, color="#f0f0f0", zorder=0)
    ax.text(bx * 1.45, ymax * 0.5, "per-GPU figure, no per-user speed stated", rotation=90,
            ha="left", va="center", fontsize=7, color="#57606a")
    ax.text(xmax * 1.44, by * 1.5, "per-user figure only", ha="right", va="bottom", fontsize=7,
            color="#57606a")
    n_label = 0
    top_ids = {c.id for c in sorted(all_pts, key=lambda c: -c.value)[:4]}
    legend: dict[str, object] = {}
    rows = []
    placed: list[tuple[float, float]] = []
    for c in sorted(all_pts, key=lambda c: (c.scope, op.get(c.id, -1.0), c.value)):
        d = record.doc(c)
        primary = d.role == "primary"
        if c.scope == "per_gpu":
            x = op.get(c.id, bx)
            y = c.value
        else:
            x, y = c.value, by
        col = colors[_src(record, c)]
        h = ax.scatter([x], [y], s=46 if primary else 80, facecolors=col if primary else "none",
                       edgecolors=col, linewidths=1.6, zorder=3 if primary else 4)
        legend.setdefault(f"{_src(record, c)} ({d.role})", h)
        if n_label < MAX_LABELS and (c.id in op or len(all_pts) <= MAX_LABELS
                                     or c.id in top_ids):
            # alternate above and below when a neighbour is close, so labels do not collide
            near = sum(1 for px, py in placed
                       if abs(px - x) < 0.12 * xmax and abs(py - y) < 0.08 * ymax)
            dy = (6, -18, 18, -30)[near % 4]
            what = c.engine or (hardware_text(hw_key(c)) or c.model or "" if c.scope == "per_user"
                                else "no engine")
            ax.annotate(f"{_short(c)} · {what}", (x, y), textcoords="offset points",
                        xytext=(7, dy), fontsize=7, color="#24292f")
            placed.append((x, y))
            n_label += 1
        rows.append((d.path, c.surface, c.scope, fmt_number(op.get(c.id)) if c.id in op else "",
                     _system(c), c.start, c.end, c.page))
    ax.set_xlim(bx * 1.6, xmax * 1.45)
    ax.set_ylim(by * 1.6, ymax * 1.18)
    ax.set_xlabel("per-user speed, tokens/s per user")
    ax.set_ylabel("throughput, tokens/s per GPU")
    ax.yaxis.set_major_formatter(lambda v, _: (f"{v / 1000:,.0f}K" if v > 0 else "0")
                                 if v >= 0 else "")
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:,.0f}" if v >= 0 else "")
    ax.set_title("Per-user speed against per-GPU throughput, by system and source")
    ax.legend(list(legend.values())[:12], list(legend.keys())[:12], fontsize=7,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    caption = ("Each per-GPU figure sits at the per-user speed its document measured it at; "
               "a per-GPU figure says nothing about how fast one user's answer streams. "
               "Hollow markers: figures from secondary documents.")
    if n_all > len(all_pts):
        caption += (f" Drawn: {len(all_pts)} of {n_all} figures (those with an operating "
                    "point and from secondary documents first, then the highest).")
    return Chart("chart-operating-points", "Per-user speed against per-GPU throughput",
                 caption, to_svg(fig, "chart-operating-points"), rows[:MAX_ROWS],
                 ["path", "figure", "scope", "at per-user", "system", "start", "end", "page"])


def _cut(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _src(record: Record, c: Claim) -> str:
    """The source's short name, cut to fit a label."""
    return _cut(record.doc(c).short, 30)


def _short(c: Claim) -> str:
    """'954K', '1,094,347', '1.09M': the number alone."""
    return c.value_text or fmt_number(c.value)


def build_charts(record: Record, pool: list[Claim] | None = None) -> list[Chart]:
    """The charts over ``pool`` (default: every figure), each with a bounded number of
    marks whatever the warehouse holds."""
    out = []
    for make in (per_user_bars, operating_points):
        ch = make(record, pool)
        if ch is not None:
            out.append(ch)
    return out
