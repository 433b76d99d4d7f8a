"""`claims link --partitioned --ray` (pipeline/link_parts.py): each partition linked by a Ray
task running the function the local partitioned link runs, the results written back here:
the same links, clusters, findings, keys and roles; a task whose worker dies is run again.

One local Ray (2 CPUs, conftest's ``local_ray``) for the session; skipped only where Ray
cannot be imported (the optional extra `claims[ray]`)."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from pipeline.link_parts import link_partitioned
from pipeline.store import Store
from test_link_partition import TABLES, _state as state_of

pytest.importorskip("ray", reason="Ray is not installed (pip install 'claims[ray]')")

REPO = Path(__file__).resolve().parents[1]
MAX_CLAIMS = 600     # 3,000 claims: several partitions in each of the three passes


def _state(db: Path) -> dict[str, set]:
    """Links, clusters, findings, keys and roles (test_link_partition's comparison)."""
    with Store.open(db, read_only=True) as store:
        return state_of(store)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    """3,000 generated claims (benchmarks/bench_scale.py): every relation, operating
    points and misattributions, not linked."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_scale import store_synthetic

    db = tmp_path_factory.mktemp("rlink") / "synthetic.duckdb"
    with Store.open(db) as store:
        store_synthetic(store, 3000, chunk=1500)
    return db


@pytest.fixture(scope="module")
def linked_here(synthetic, tmp_path_factory) -> dict[str, set]:
    """What the local partitioned link stores."""
    db = tmp_path_factory.mktemp("rlink") / "here.duckdb"
    shutil.copy(synthetic, db)
    with Store.open(db) as store:
        link_partitioned(store, max_claims=MAX_CLAIMS)
    return _state(db)


def test_ray_tasks_give_the_local_partitioned_links(local_ray, synthetic, linked_here,
                                                    tmp_path):
    db = tmp_path / "ray.duckdb"
    shutil.copy(synthetic, db)
    with Store.open(db) as store:
        report = link_partitioned(store, max_claims=MAX_CLAIMS, ray="local")
        assert store.pending().empty
    assert report.mode == "full" and report.claims == 3000
    assert local_ray.is_initialized()        # it joined the session's Ray, left it running
    got = _state(db)
    assert {r[2] for r in linked_here["links"]} >= {"supports", "conflicts", "derives",
                                                      "mismatch"}
    assert any("misattributed" in r[1] for r in linked_here["findings"])
    assert set(got) == set(TABLES)
    for name in TABLES:
        assert got[name] == linked_here[name], name


def _dies_once(fn, marker: Path):
    """``fn``, except that the first call (of any process) kills its worker process, as a
    node lost mid-run does; pickled by value with the task (a closure)."""
    def dying(*args):
        if not marker.exists():
            marker.write_text(str(os.getpid()), encoding="utf-8")
            os._exit(1)
        return fn(*args)
    return dying


def test_a_partition_whose_worker_dies_is_run_again(local_ray, synthetic, linked_here,
                                                    tmp_path, monkeypatch):
    import pipeline.link.partition as partition

    marker = tmp_path / "died"
    monkeypatch.setattr(partition, "subjects_partition",
                        _dies_once(partition.subjects_partition, marker))
    db = tmp_path / "dies.duckdb"
    shutil.copy(synthetic, db)
    with Store.open(db) as store:
        link_partitioned(store, max_claims=MAX_CLAIMS, ray="local")
    assert marker.exists() and int(marker.read_text()) != os.getpid()   # a worker died
    assert _state(db) == linked_here


def test_a_failing_partition_leaves_a_full_link_pending(local_ray, synthetic, linked_here,
                                                       tmp_path, monkeypatch):
    """An error in a partition is not retried (it would recur): the link fails half way,
    with the 'full' row still in link_pending, so the next link relinks everything."""
    import pipeline.link.partition as partition
    from pipeline.run import link_store

    db = tmp_path / "fails.duckdb"
    shutil.copy(synthetic, db)

    def broken(*args):
        raise ValueError("a partition that cannot be linked")

    monkeypatch.setattr(partition, "subjects_partition", broken)
    with Store.open(db) as store:
        with pytest.raises(Exception, match="cannot be linked"):
            link_partitioned(store, max_claims=MAX_CLAIMS, ray="local")
        assert store.pending().full
    assert _state(db) != linked_here          # half done: pass 3's links are missing
    monkeypatch.undo()
    with Store.open(db) as store:
        link_store(store, partitioned=True, ray="local")
        assert store.pending().empty
    assert _state(db) == linked_here


def test_cli_link_ray(local_ray, synthetic, linked_here, run_cli, tmp_path):
    """`claims link --ray=ADDRESS` (the real CLI, joining this session's Ray) stores what
    the local partitioned link stores; a value that is no address is refused."""
    db = tmp_path / "cli.duckdb"
    shutil.copy(synthetic, db)
    bad = run_cli("link", "--ray", "nowhere", "--db", str(db), cwd=tmp_path)
    assert bad.returncode != 0 and "not a Ray address" in bad.stderr
    address = local_ray.get_runtime_context().gcs_address
    ok = run_cli("link", f"--ray={address}", "--db", str(db), "-q", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("linked (full,")
    assert _state(db) == linked_here


def test_link_ray_without_ray_says_how_to_install_it(synthetic, tmp_path):
    """Where Ray cannot be imported, `claims link --ray` fails in one line naming the extra
    (Ray is hidden from a child interpreter)."""
    import subprocess

    db = tmp_path / "noray.duckdb"
    shutil.copy(synthetic, db)
    code = ("import sys; sys.modules['ray'] = None; from pipeline.cli import main; "
            f"main(['link', '--ray', '--db', {str(db)!r}])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode != 0 and "claims[ray]" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
