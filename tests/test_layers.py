"""The layering a newcomer reads from the folder names holds in the code (issue 17).

Every ``import`` in ``pipeline/`` is read with ``ast`` (module level, inside functions and
under ``if TYPE_CHECKING:`` alike: a function-level import is still an arrow), and the test
fails on

- an import cycle between modules of ``pipeline/``;
- an arrow from a lower stage to a higher one. The stages, lowest first:
  shared data (``model``, ``vocab/``) < ingest < extract < link < store < check (and the
  ingest flow, ``run``) < report (``report/``, ``trace``, ``graph``, ``output``,
  ``formats/``) < cli (``cli``, ``api``, ``explain``, ``spacy_component``). A module may
  import its own stage or lower ones.

``from pipeline.ingest import meta`` is an arrow to ``pipeline.ingest.meta`` (the submodule),
not to the package's ``__init__``. Nothing is imported or run: only the source is parsed.
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PIPELINE = Path(__file__).resolve().parents[1] / "pipeline"

# (module prefix, stage); the longest matching prefix wins. Every module must match one.
STAGES = (
    ("pipeline", 0), ("pipeline.model", 0), ("pipeline.vocab", 0),
    ("pipeline.ingest", 1),
    ("pipeline.extract", 2),
    ("pipeline.link", 3),
    ("pipeline.store", 4), ("pipeline.dbguard", 4), ("pipeline.migrate", 4),
    ("pipeline.record", 4), ("pipeline.words", 4), ("pipeline.citation", 4),
    ("pipeline.derived", 4), ("pipeline.derived_check", 5),
    ("pipeline.checker", 5), ("pipeline.check", 5), ("pipeline.check_sql", 5),
    ("pipeline.check_predicates", 5), ("pipeline.run", 5),
    ("pipeline.link_flow", 5), ("pipeline.judged", 5), ("pipeline.fingerprint", 4),
    ("pipeline.ray_cluster", 5), ("pipeline.link_state", 5), ("pipeline.link_parts", 5),
    ("pipeline.pool", 5), ("pipeline.ray_ingest", 5),
    ("pipeline.report", 6), ("pipeline.trace", 6), ("pipeline.graph", 6), ("pipeline.output", 6),
    ("pipeline.formats", 6),
    ("pipeline.cli", 7), ("pipeline.api", 7), ("pipeline.explain", 7), ("pipeline.clidoc", 7),
    ("pipeline.serve", 7), ("pipeline.spacy_component", 7),
)
STAGE_NAMES = ("shared", "ingest", "extract", "link", "store", "check", "report", "cli")

# Known violations, to be removed by the change that fixes each (issue 17, item 3). Do not
# add to this list: fix the import instead. Each entry is (importer, imported).
ALLOWED: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PIPELINE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PIPELINE.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``pipeline`` that ``name`` (at ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # `from pkg import sub` imports the submodule; `from mod import name`, the module
            subs = [f"{source}.{alias.name}" for alias in node.names]
            targets = [s for s in subs if s in known] or [source]
            if len(targets) < len(subs) and source in known:
                targets.append(source)       # a mix of submodules and names of the package
        else:
            continue
        for target in targets:
            while target and target not in known:      # `import pipeline.x.y` -> its module
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("pipeline"):
                found.add(target)
    return found


def stage(name: str) -> int:
    best = max((prefix for prefix, _ in STAGES
                if name == prefix or name.startswith(prefix + ".")), key=len, default=None)
    assert best is not None, f"{name} is in no stage: add it to STAGES in {__file__}"
    return dict(STAGES)[best]


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    mods = modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for name, path in mods.items():
        g.add_edges_from((name, target) for target in imports(name, path, set(mods)))
    return g


def test_every_module_has_a_stage(graph):
    for name in graph:
        stage(name)


def test_no_import_cycle_in_pipeline(graph):
    g = graph.copy()
    g.remove_edges_from(ALLOWED)
    cycles = [c for c in nx.simple_cycles(g)]
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + [c[0]]) for c in cycles)


def test_no_import_from_a_lower_stage_to_a_higher_one(graph):
    upward = sorted(f"{a} ({STAGE_NAMES[stage(a)]}) imports {b} ({STAGE_NAMES[stage(b)]})"
                    for a, b in graph.edges
                    if stage(b) > stage(a) and (a, b) not in ALLOWED)
    assert not upward, "imports against the stage order:\n" + "\n".join(upward)


def test_the_allow_list_holds_only_arrows_that_exist(graph):
    """The allow-list holds only arrows that exist: a fixed one must leave the list."""
    stale = sorted(f"{a} -> {b}" for a, b in ALLOWED if not graph.has_edge(a, b))
    assert not stale, "no longer imported, remove from ALLOWED: " + ", ".join(stale)


def test_the_reader_finds_arrows_it_must_find(tmp_path, graph):
    """The import reader itself: known arrows of each kind are seen (so a quiet pass above
    is not a reader that sees nothing)."""
    assert graph.has_edge("pipeline.ingest.html", "pipeline.ingest.meta")      # from pkg import sub
    assert graph.has_edge("pipeline.store", "pipeline.dbguard")                # from pkg import sub
    assert graph.has_edge("pipeline.cli", "pipeline.run")                      # function-level
    assert graph.has_edge("pipeline.extract.claims", "pipeline.model")         # from mod import name
    assert not graph.has_edge("pipeline.ingest.html", "pipeline.ingest")       # not the __init__
    fake = tmp_path / "pipeline" / "ingest" / "x.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("def f():\n    from pipeline.report import charts\n    from . import walk\n")
    known = set(graph) | {"pipeline.ingest.x"}
    global PIPELINE
    saved, PIPELINE = PIPELINE, tmp_path / "pipeline"
    try:
        got = imports("pipeline.ingest.x", fake, known)
    finally:
        PIPELINE = saved
    assert got == {"pipeline.report.charts", "pipeline.ingest.walk"}
    assert stage("pipeline.report.charts") > stage("pipeline.ingest.x")
