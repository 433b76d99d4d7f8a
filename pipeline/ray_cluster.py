"""Joining a Ray cluster, shared by ``claims ingest --ray`` (``ray_ingest``) and the
partitioned link's Ray tasks (``link_parts``): one place for the connection, the retry
count and the message a user reads when Ray is missing or unreachable."""
from __future__ import annotations

import logging
from typing import Any

from pipeline.pool import default_workers

TASK_RETRIES = 3     # times Ray runs a task again whose worker or node died
LOCAL = "local"      # --ray without an address: a Ray started here with this machine's cores


class RayUnavailable(Exception):
    """Ray is not installed, the cluster cannot be reached, the job failed, or the shard
    folder is not one (a message for the user)."""


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (None: start a local Ray with this machine's cores)
    unless this process is already connected -> whether this call connected."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise RayUnavailable("--ray needs Ray Data: pip install 'claims[ray]' "
                             "(or pip install 'ray[data]')") from None
    for name in ("ray", "ray.data"):     # Ray's INFO lines would bury the summary
        logging.getLogger(name).setLevel(logging.ERROR)
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    try:
        if address in (None, LOCAL):
            ray.init(num_cpus=default_workers(), **kwargs)
        else:
            ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = "a local Ray" if address in (None, LOCAL) else f"the Ray cluster at {address}"
        raise RayUnavailable(f"cannot start or reach {where}: {' '.join(str(exc).split())}") from None
    return True
