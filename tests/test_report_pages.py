"""`claims report` pages (issue 16 part 3, issue 20): the story SVG per cluster, the
summary's caps, the --model/--since/--doc filters and the page split of a large model."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from xml.etree import ElementTree

import duckdb
import pytest

from pipeline.model import Claim, Link
from pipeline.report import split_parts, write_report
from pipeline.record import DocInfo, Record, open_record
from pipeline.report.story_svg import MAX_NODES, story_svg

REPO = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def texts(svg: str, cls: str) -> list[str]:
    root = ElementTree.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == cls]


# --- the story drawn -------------------------------------------------------------------------

def synthetic(n: int, title: str = "Post") -> Record:
    """One primary figure and ``n`` later restatements, each in its own document."""
    docs, claims, links = {}, {}, []
    for i in range(n + 1):
        did, cid = f"d{i:04d}", f"c{i:04d}"
        docs[did] = DocInfo(id=did, path=f"{did}.md", title=f"{title} {i}",
                            publisher=f"{title} {i}",
                            published=(dt.date(2026, 1, 1) + dt.timedelta(days=i)).isoformat(),
                            role="primary" if i == 0 else "secondary")
        claims[cid] = Claim(id=cid, doc_id=did, start=0, end=14, surface="1,000 tokens/s",
                            value=1000.0, family="token_throughput", unit="tokens/s",
                            scope="per_user", model="Example-70B")
        if i:
            parent = "c0000" if i % 3 else f"c{i - 1:04d}"
            links.append(Link(cid, parent, "restates" if i % 3 else "supports", True, "same"))
    if n >= 10:
        claims["c0010"].scope = "per_gpu"
        links[9] = Link("c0010", "c0009", "mismatch", True, "scope per_gpu vs per_user")
    return Record(docs=docs, claims=claims, links=links, clusters={k: "kx" for k in claims})


def test_a_large_cluster_is_summarised_and_drawn_the_same_every_time():
    rec = synthetic(120)
    a = story_svg(rec, "kx", list(rec.claims))
    assert (a.shown, a.total) == (MAX_NODES, 121)
    assert a.first == ["c0000"]
    figs = texts(a.svg, "st-fig")
    assert len(figs) == MAX_NODES
    note = " ".join(texts(a.svg, "st-note"))
    assert f"{MAX_NODES} of 121 figures drawn" in note and "--cluster kx` has them all" in note
    # the figure whose metric changed is kept although it is not among the earliest 50
    assert any(g.get("data-claim") == "c0010" for g in ElementTree.fromstring(a.svg).iter(f"{NS}g"))
    assert story_svg(rec, "kx", list(rec.claims)).svg == a.svg
    small = story_svg(rec, "kx", ["c0000", "c0001", "c0002"])
    assert (small.shown, small.total) == (3, 3) and not texts(small.svg, "st-note")


def test_hostile_text_in_the_story_is_escaped_and_the_svg_stays_well_formed():
    evil = '</svg><script>alert("x")</script> & ]]> \x01 \ud800'
    rec = synthetic(3, title=evil)
    s = story_svg(rec, 'k"><script>', list(rec.claims)).svg
    root = ElementTree.fromstring(s)                       # well-formed XML
    assert root.tag == f"{NS}svg"
    assert "<script" not in s and "</svg><" not in s[:-6]
    assert 'id="st-kscript"' in s                          # the id keeps only safe characters
    docs = texts(s, "st-doc")
    assert docs and all("<script>alert(\"x\")" in t for t in docs)   # shown as text
    assert "\x01" not in s and "\ud800" not in s


# --- the pages of the demo corpus, filtered ---------------------------------------------------

@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, run_cli):
    db = tmp_path_factory.mktemp("pages") / "c.duckdb"
    run_cli("ingest", str(REPO / "corpus"), "--db", str(db), "-q", cwd=REPO, check=True)
    return db


def _docs_listed(out: Path) -> list[str]:
    html = (out / "report.html").read_text()
    part = html[html.index('<section id="documents">'):]
    return re.findall(r'<a href="pages/doc-[^"]+"><code>([^<]+)</code></a>', part)


def test_filters_narrow_the_report(demo_db, run_cli, tmp_path):
    con = duckdb.connect(str(demo_db), read_only=True)
    dated = con.execute("SELECT path, published FROM documents WHERE published IS NOT NULL "
                        "ORDER BY published").fetchall()
    con.close()
    full = tmp_path / "full"
    run_cli("report", "--db", str(demo_db), "-o", str(full), cwd=REPO, check=True)
    assert len(_docs_listed(full)) == 7

    out = tmp_path / "doc"
    p = run_cli("report", "--db", str(demo_db), "-o", str(out), "--doc",
                "coverage-nvidia-1000-tokens.md", cwd=REPO, check=True)
    assert _docs_listed(out) == ["coverage-nvidia-1000-tokens.md"]
    html = (out / "report.html").read_text()
    assert "only document coverage-nvidia-1000-tokens.md" in html
    assert "<mark>1.09 million tokens per second</mark>" in html
    # its cluster is shown whole: the primary figure it restates is on the model page
    model_pages = [f for f in (out / "pages").glob("model-*.html")]
    assert any("1,094,347 tok/s" in f.read_text() for f in model_pages)

    since = dated[-1][1].isoformat()
    out = tmp_path / "since"
    run_cli("report", "--db", str(demo_db), "-o", str(out), "--since", since, cwd=REPO,
            check=True)
    assert set(_docs_listed(out)) == {p for p, d in dated if d.isoformat() >= since}
    assert len(_docs_listed(out)) < 7

    out = tmp_path / "model"
    run_cli("report", "--db", str(demo_db), "-o", str(out), "--model", "Kimi-K3", cwd=REPO,
            check=True)
    titles = re.findall(r'<a href="pages/(?:model|subject)-[^"]+">([^<]+)</a>',
                        (out / "report.html").read_text())
    assert len(titles) == 1 and titles[0].replace(" ", "-").casefold() == "kimi-k3", titles

    # a second report into the same folder leaves no page of the first behind
    run_cli("report", "--db", str(demo_db), "-o", str(full), "--model", "Kimi-K3", cwd=REPO,
            check=True)
    assert {f.name for f in (full / "pages").iterdir()} == \
        {f.name for f in (out / "pages").iterdir()}


@pytest.mark.parametrize("args, message", [
    (["--since", "yesterday"], "--since takes a date"),
    (["--doc", "no-such-file.md"], "no document 'no-such-file.md'"),
    (["--model", "Nonexistent-9000"], "no claim on model"),
    (["--doc", "kimi-k3.txt", "--since", "2099-01-01"], "no document matches"),
])
def test_filter_errors_are_one_line(demo_db, run_cli, tmp_path, args, message):
    p = run_cli("report", "--db", str(demo_db), "-o", str(tmp_path / "o"), *args, cwd=REPO)
    assert p.returncode == 2 and message in p.stderr and p.stderr.startswith("error:"), p.stderr
    assert "Traceback" not in p.stderr


def test_summary_caps_each_list_and_points_to_the_pages(demo_db, tmp_path, monkeypatch):
    from pipeline.report import html

    monkeypatch.setattr(html, "SUMMARY_FIGURES", 2)
    monkeypatch.setattr(html, "SUMMARY_CLUSTERS", 1)
    monkeypatch.setattr(html, "SUMMARY_CLUSTER_FIGS", 1)
    files = write_report(open_record(str(demo_db)), tmp_path / "out")
    text = files.html.read_text()
    cov = text[text.index('<section id="coverage">'):text.index('<section id="charts">')]
    assert cov.count('<tr><td><span class="verdict') == 2
    n_secondary = sum(1 for _ in re.finditer(r'<tr><td><span class="verdict', "".join(
        f.read_text() for f in files.pages if f.name.startswith(("model-", "subject-"))
        and f.suffix == ".html")))
    assert f"{n_secondary - 2:,} more figures outside primary documents" in cov
    cl = text[text.index('<section id="clusters">'):text.index('<section id="conflicts">')]
    assert cl.count('<article class="cluster"') == 1 and "1 more clusters" in cl
    assert "more figures in" in cl and "its page, with the graph" in cl


def test_split_parts_keeps_order_and_budget():
    assert [list(r) for r in split_parts([5, 5, 5, 20, 1], 10)] == [[0, 1], [2], [3], [4]]
    assert [list(r) for r in split_parts([], 10)] == [[]]
    assert [list(r) for r in split_parts([3, 3, 3], 10)] == [[0, 1, 2]]


def test_a_model_with_many_clusters_continues_on_parts(tmp_path, monkeypatch):
    import pipeline.report as report

    rec = synthetic(30)
    # 30 one-figure clusters on one model
    rec.clusters = {k: f"k{i:03d}" for i, k in enumerate(sorted(rec.claims))}
    rec.links = []
    monkeypatch.setattr(report, "PART_BYTES", 4000)
    files = write_report(rec, tmp_path / "out")
    parts = sorted(f.name for f in files.pages
                   if f.name.startswith("model-") and f.suffix == ".html")
    assert len(parts) > 2
    [head] = [n for n in parts if re.search(r"-[0-9a-f]{8}\.html$", n)]
    first = (tmp_path / "out" / "pages" / head).read_text()
    assert "Part 1 of" in first
    clusters = set()
    for name in parts:
        clusters |= set(re.findall(r'<article class="cluster" id="(k\d+)"', (
            tmp_path / "out" / "pages" / name).read_text()))
    assert clusters == set(rec.clusters.values())
    assert all(f.stat().st_size < 60_000 for f in files.pages)


def test_checks_in_worker_processes_give_the_same_verdicts():
    from pipeline.check import Checker, judge_stored
    from pipeline.report.verdicts import PARALLEL_FROM, judge_all

    rec = synthetic(PARALLEL_FROM + 20)
    for i, c in enumerate(rec.claims.values()):     # some agree with the primary, some not
        if i % 4 == 1:
            c.value, c.surface = 1500.0, "1,500 tokens/s"
    secondary = [c for c in rec.claims.values() if rec.role(c) != "primary"]
    one = judge_all(rec, secondary, workers=1)
    two = judge_all(rec, secondary, workers=2)
    assert list(two) == [c.id for c in secondary]
    plain = Checker(rec)
    for c in secondary:
        ref = judge_stored(plain, c)                # the Checker without the index
        for v in (one[c.id], two[c.id]):
            assert (v.verdict, v.explanation, [x.id for x in v.evidence]) == \
                (ref.verdict, ref.explanation, [x.id for x in ref.evidence])
    assert {v.verdict for v in two.values()} >= {"supported", "unproven"}


def test_disagreements_beside_the_tree_are_bounded():
    from pipeline.report.story_svg import MAX_BRACKETS

    rec = synthetic(20)
    rec.links = []                  # 21 primary measurements that all disagree pairwise
    for i, c in enumerate(sorted(rec.claims.values(), key=lambda c: c.id)):
        rec.docs[c.doc_id].role = "primary"
        c.value = 1000.0 + 100 * i
    ids = sorted(rec.claims)
    rec.links = [Link(a, b, "conflicts", False, "values differ") for i, a in enumerate(ids)
                 for b in ids[i + 1:]]
    s = story_svg(rec, "kx", ids).svg
    dashed = [p for p in ElementTree.fromstring(s).iter(f"{NS}path")
              if p.get("stroke-dasharray") == "5 3"]
    assert len(dashed) == MAX_BRACKETS
    assert f"{MAX_BRACKETS} of {len(rec.links)} conflicts and mismatches" in \
        " ".join(texts(s, "st-note"))


def test_pages_are_the_same_whether_checked_here_or_in_workers(tmp_path):
    """The report checks in worker processes while it draws graphs and clears the previous
    pages: the pages are those of a report checked in this process, and only the previous
    report's own pages are removed."""
    from pipeline.report.verdicts import PARALLEL_FROM

    rec = synthetic(PARALLEL_FROM + 10)
    for i, c in enumerate(rec.claims.values()):
        if i % 3 == 1:
            c.value, c.surface = 1500.0, "1,500 tokens/s"
    one = write_report(rec, tmp_path / "one", workers=1)
    (tmp_path / "two" / "pages").mkdir(parents=True)
    stale = tmp_path / "two" / "pages" / "doc-gone-0123abcd.html"
    mine = tmp_path / "two" / "pages" / "notes.html"
    stale.write_text("old"), mine.write_text("kept")
    two = write_report(rec, tmp_path / "two", workers=2)
    assert not stale.exists() and mine.read_text() == "kept"

    def text(p):
        return re.sub(r"\d{4}-\d\d-\d\d[ T][\d:.]+", "TS", p.read_text())
    names = sorted(p.name for p in one.pages)
    assert names == sorted(p.name for p in two.pages) and len(names) > PARALLEL_FROM
    for a in [one.html, one.md, *one.pages]:
        assert text(a) == text(tmp_path / "two" / a.relative_to(tmp_path / "one"))
    assert "1,500" in one.html.read_text()


def test_links_to_a_cluster_reach_the_part_that_holds_it(tmp_path, monkeypatch):
    """A model page's items are laid out once to cut the page into parts, and again only
    where a cluster moved to a later part since: every link to a cluster, written by one
    process or shared among two, lands on the part whose page holds it."""
    import pipeline.report as report

    rec = synthetic(30)
    ids = sorted(rec.claims)
    rec.clusters = {k: f"k{i:03d}" for i, k in enumerate(ids)}
    # conflicts between clusters: their rows link to the clusters, on whichever part
    rec.links = [Link(a, b, "conflicts", False, "values differ") for a, b in zip(ids, ids[1:])]
    monkeypatch.setattr(report, "PART_BYTES", 4000)
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        files = write_report(rec, out, workers=workers)
        checked = 0
        for page in files.pages:
            if page.suffix != ".html":
                continue
            for target, anchor in re.findall(r'href="([\w.-]+\.html)#(k\d+)"', page.read_text()):
                assert f'id="{anchor}"' in (out / "pages" / target).read_text(), (page, target)
                checked += 1
        assert checked >= 30
    for a in (tmp_path / "w1" / "pages").iterdir():
        assert re.sub(r"\d{4}-\d\d-\d\d[ T][\d:.]+", "TS", a.read_text()) == \
            re.sub(r"\d{4}-\d\d-\d\d[ T][\d:.]+", "TS", (tmp_path / "w2" / "pages" / a.name).read_text())


def test_page_jobs_run_once_each_and_a_failure_is_raised(tmp_path):
    from pipeline.report import run_jobs

    def job(i):
        def write():
            with open(tmp_path / f"{i}.txt", "a") as fh:
                fh.write("x")
        return write

    run_jobs([job(i) for i in range(50)], workers=2)
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["x"] * 50

    def boom():
        raise ValueError("no disk")
    with pytest.raises((ValueError, RuntimeError)):
        run_jobs([boom] * 4, workers=2)
