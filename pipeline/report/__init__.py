"""Reports over the warehouse: a summary page plus one page per model or subject and per
document, in HTML (self-contained pages) and Markdown.

``write_report(record, out_dir)`` gathers what the pages show (gather.py, for the figures a
``Scope`` selects), draws the charts (charts.py) and each cluster's story (story_svg.py,
from pipeline.graph), and writes

* ``report.html`` and ``report.md``: counts, the figures outside primary documents with
  their verdicts, charts, the top clusters, conflicts, mismatches and derived checks (at
  most a readable number of each), an index of the model pages and of the documents;
* ``pages/<model or subject>.html|.md``: all of that for one model, every cluster whole
  with its graph;
* ``pages/doc-<name>.html|.md``: every figure of one document.

html.py and markdown.py only lay out; pages.py names the files and links them.
"""
from __future__ import annotations

import multiprocessing as mp
import re
import sys
import threading
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pipeline.gcpause import freeze


@dataclass
class ReportFiles:
    """What ``write_report`` wrote; unpacks as (report.html, report.md)."""

    html: Path
    md: Path
    pages: list[Path] = field(default_factory=list)

    def __iter__(self):
        return iter((self.html, self.md))

    def largest(self) -> tuple[Path, int]:
        sizes = [(p, p.stat().st_size) for p in [self.html, self.md, *self.pages]]
        return max(sizes, key=lambda t: t[1])


# files a previous report wrote in pages/ (removed first, so no page outlives its subject)
_OWN = re.compile(r"^(?:model|subject|doc)-[a-z0-9-]+-[0-9a-f]{8}(?:-\d+)?\.(?:html|md)$")
PART_BYTES = 1_500_000     # clusters on one model page before it continues on a next part


def split_parts(sizes: list[int], budget: int = PART_BYTES) -> list[range]:
    """Consecutive runs of items whose sizes add up to at most ``budget`` (an item larger
    than the budget is a run of its own); at least one run."""
    runs, start, total = [], 0, 0
    for i, n in enumerate(sizes):
        if i > start and total + n > budget:
            runs.append(range(start, i))
            start, total = i, 0
        total += n
    runs.append(range(start, len(sizes)))
    return runs


def _first(blocks: list[tuple[str, object]], sid: str) -> int:
    return next(i for i, (k, _) in enumerate(blocks) if k == sid)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def run_jobs(jobs: list, workers: int = 1) -> None:
    """Call every job (pages to write): in this process, or shared with ``workers - 1``
    forked processes that inherit what the jobs read. Each process takes the next job not
    yet taken, so the largest first keep the processes evenly busy; what a job writes does
    not depend on which process runs it."""
    if workers <= 1 or len(jobs) < 2 or "fork" not in mp.get_all_start_methods():
        for job in jobs:
            job()
        return
    ctx = mp.get_context("fork")
    taken = ctx.Value("q", 0)

    def take() -> None:
        while True:
            with taken.get_lock():
                i = taken.value
                taken.value = i + 1
            if i >= len(jobs):
                return
            jobs[i]()

    helpers = [ctx.Process(target=take, daemon=True) for _ in range(min(workers, len(jobs)) - 1)]
    sys.stdout.flush()      # a forked process flushes what it inherits when it ends
    sys.stderr.flush()
    freeze()                # what the pages read: out of the helpers' collections (gcpause)
    for h in helpers:
        h.start()
    try:
        take()
    finally:
        for h in helpers:
            h.join()
    failed = [h.exitcode for h in helpers if h.exitcode != 0]
    if failed:
        raise RuntimeError(f"a process writing the report's pages failed (exit {failed[0]})")


def _clear(pages_dir: Path) -> None:
    """Remove the pages a previous report wrote (and only those)."""
    for old in pages_dir.iterdir():
        if _OWN.match(old.name) and old.is_file():
            old.unlink()


def write_report(record, out_dir: str | Path, scope=None, workers: int = 1) -> ReportFiles:
    """Write the summary and its pages into ``out_dir``; ``scope`` narrows the figures
    (report.scope.Scope), ``workers`` processes check the figures outside primary documents."""
    from pipeline.report import html, markdown
    from pipeline.report.gather import gather
    from pipeline.report.pages import PAGES_DIR, PageIndex
    from pipeline.report.story_svg import story_svg

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pages_dir = out / PAGES_DIR
    pages_dir.mkdir(exist_ok=True)
    # while the figures are checked in other processes (forked before this thread starts):
    # the previous report's pages are removed in a thread (thousands of files wait on the
    # disk) and each cluster's graph is drawn
    clearing = threading.Thread(target=_clear, args=(pages_dir,))
    graphs: dict[str, str] = {}

    def meanwhile(clusters) -> None:
        clearing.start()
        for cv in clusters:
            graphs[cv.id] = story_svg(record, cv.id, [f.claim.id for f in cv.figs]).svg

    try:
        data = gather(record, scope=scope, workers=workers, while_checking=meanwhile)
    finally:
        if clearing.ident is None:      # gather stopped before it: the pages go all the same
            _clear(pages_dir)
        else:
            clearing.join()
    hidx, midx = PageIndex.of(data, ".html"), PageIndex.of(data, ".md")
    # each model page's items (clusters with their graphs, conflicts, ...), cut into parts
    # of a few MB; a cluster's address is the part that holds it
    plan = []
    moves = 0           # clusters sent to a later part so far (their links change)
    for g in data.groups:
        arts = [html.cluster_article(cv, None, graphs[cv.id]) for cv in g.clusters]
        blocks = html.group_blocks(g, hidx.inside(), arts)
        seen = moves
        runs = split_parts([len(h.encode("utf-8")) for _, h in blocks], PART_BYTES)
        slugs = [g.slug] + [f"{g.slug}-{k + 1}" for k in range(1, len(runs))]
        for slug, run in zip(slugs, runs):
            for i in run:
                if blocks[i][0] == "clusters":
                    cid = g.clusters[i - _first(blocks, "clusters")].id
                    if hidx.clusters.get(cid) != slug:
                        moves += 1
                    hidx.clusters[cid] = midx.clusters[cid] = slug
        plan.append([g, arts, runs, slugs, blocks, seen])
    for step in plan:   # blocks written before a cluster moved are laid out again
        if step[5] != moves:
            step[4] = None
    files = ReportFiles(out / "report.html", out / "report.md")
    files.html.write_text(html.render(data, hidx), encoding="utf-8")
    files.md.write_text(markdown.render(data, midx), encoding="utf-8")
    hin, min_ = hidx.inside(), midx.inside()

    def group_pages(g, arts, runs, slugs, blocks) -> None:
        # links to the final parts (the blocks above hold them where nothing moved since)
        hb = blocks if blocks is not None else html.group_blocks(g, hin, arts)
        mb = markdown.group_blocks(g, min_)
        for k, (slug, run) in enumerate(zip(slugs, runs)):
            _write(pages_dir / f"{slug}.html",
                   html.render_group(data, g, hin, [hb[i] for i in run], k,
                                     [s + ".html" for s in slugs]))
            _write(pages_dir / f"{slug}.md",
                   markdown.render_group(data, g, min_, [mb[i] for i in run], k,
                                         [s + ".md" for s in slugs]))

    def doc_pages(d, figs, slug) -> None:
        _write(pages_dir / f"{slug}.html", html.render_doc(data, d, figs, hin))
        _write(pages_dir / f"{slug}.md", markdown.render_doc(data, d, figs, min_))

    jobs = []
    for g, arts, runs, slugs, blocks, _ in plan:
        files.pages += [pages_dir / f"{slug}{ext}" for slug in slugs for ext in (".html", ".md")]
        jobs.append((sum(len(a) for a in arts) + 2000 * len(g.secondary),
                     partial(group_pages, g, arts, runs, slugs, blocks)))
    for d, figs in data.documents:
        slug = hidx.docs[d.id]
        files.pages += [pages_dir / f"{slug}.html", pages_dir / f"{slug}.md"]
        jobs.append((1000 * len(figs), partial(doc_pages, d, figs, slug)))
    run_jobs([job for _, job in sorted(jobs, key=lambda t: -t[0])], workers)
    return files


__all__ = ["ReportFiles", "run_jobs", "split_parts", "write_report"]
