"""A process pool for work that may hang or crash: a task per job, a time limit per job.

``multiprocessing.Pool`` cannot abandon one task: a file that sends a parser into a loop,
or kills its process, would stall or break the whole ingest. Here each worker process is
given a few jobs at a time (``PREFETCH``, so the next one is ready), results come back as
they finish, and a worker whose current job has run ``timeout`` seconds, or that dies, is
replaced: that job fails, the jobs queued behind it go to other workers. Failures are
values (``failed(reason, traceback)``), not exceptions. The pool knows nothing of files or
claims: the ingest flow (``pipeline.run``) gives it the task and the jobs.
"""
from __future__ import annotations

import os
import signal
import time
import traceback
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterator, TypeVar

from pipeline.store import one_line

PREFETCH = 2              # jobs handed to a worker at a time (the next one is ready)

J = TypeVar("J")
R = TypeVar("R")


@dataclass
class _Failed:
    """A task whose result would not pickle, as the worker reports it."""

    reason: str
    trace: str


class _Worker:
    """One worker process and the jobs sent to it, oldest (the one it is on) first."""

    def __init__(self, ctx, task: Callable[..., Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, task, os.getpid()),
                                daemon=True, name="claims-ingest-worker")
        self.proc.start()
        child.close()
        self.queue: deque = deque()
        self.since = 0.0       # when it started on queue[0]

    def send(self, job, args: tuple) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.queue.append(job)
        self.conn.send(args)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()

    def exit_reason(self) -> str:
        self.proc.join(timeout=5)
        code = self.proc.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"


def _worker_main(conn, task: Callable[..., Any], parent: int) -> None:
    """A worker: arguments in, ``task(*args)`` out, until told to stop or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the parent's to handle
    _die_with(parent)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        result = task(*msg)
        try:
            conn.send(result)
        except (EOFError, OSError):
            return
        except Exception as exc:    # the result would not pickle
            conn.send(_Failed(f"unexpected {type(exc).__name__}: {one_line(exc)}",
                              traceback.format_exc()))


def _die_with(parent: int) -> None:
    """Linux: get SIGKILL when the parent dies (a SIGKILLed ingest leaves no orphans)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)       # PR_SET_PDEATHSIG
    except Exception:
        pass
    if os.getppid() != parent:
        os._exit(0)


class Pool(Generic[J, R]):
    """``workers`` processes running ``task(*args(job))`` for each job, each given up to
    ``PREFETCH`` jobs at a time; results come back as they finish. A job whose worker ran
    it ``timeout`` seconds, or died, gives ``failed(reason, "")``. With ``workers=0`` jobs
    run in this process (no time limit). ``prepare`` runs in this process before the
    workers are forked (imports and compiled vocabularies they inherit)."""

    def __init__(self, workers: int, task: Callable[..., R], timeout: float | None,
                 failed: Callable[[str, str], R],
                 prepare: Callable[[], object] | None = None) -> None:
        self.n, self.task, self.failed, self.prepare = workers, task, failed, prepare
        self.timeout = timeout if timeout and timeout > 0 else None
        self.workers: list[_Worker] = []
        self.ctx = None

    def _start(self) -> None:
        import multiprocessing as mp

        # fork: workers inherit what is loaded (and any callable in ``task``); elsewhere
        # the platform's default start method
        method = "fork" if "fork" in mp.get_all_start_methods() else None
        self.ctx = mp.get_context(method)
        if method == "fork" and self.prepare is not None:
            self.prepare()
        self.workers = [_Worker(self.ctx, self.task) for _ in range(self.n)]

    def results(self, jobs: Iterator[J], args: Callable[[J], tuple]) -> Iterator[tuple[J, R]]:
        if self.n <= 0:
            for job in jobs:
                yield job, self.task(*args(job))
            return
        from multiprocessing.connection import wait

        source = iter(jobs)
        first = next(source, None)
        if first is None:          # nothing to do: no processes started
            return
        self._start()
        retry: deque[J] = deque([first])
        exhausted = False
        while True:
            for w in self.workers:
                while len(w.queue) < PREFETCH:
                    if retry:
                        job = retry.popleft()
                    elif not exhausted and (job := next(source, None)) is not None:
                        pass
                    else:
                        exhausted = True
                        break
                    w.send(job, args(job))
            busy = [w for w in self.workers if w.queue]
            if not busy:
                return
            deadline = None
            if self.timeout:
                deadline = max(0.0, min(w.since for w in busy) + self.timeout - time.monotonic())
            ready = set(wait([w.conn for w in busy], timeout=deadline))
            for w in busy:
                if w.conn in ready:
                    try:
                        result = w.conn.recv()
                    except (EOFError, OSError):
                        yield self._replace(w, retry, f"worker process died ({w.exit_reason()})")
                        continue
                    job = w.queue.popleft()
                    w.since = time.monotonic()
                    if isinstance(result, _Failed):
                        result = self.failed(result.reason, result.trace)
                    yield job, result
                elif self.timeout and time.monotonic() - w.since >= self.timeout:
                    yield self._replace(w, retry, f"gave up after {self.timeout:g} s (the per-file "
                                                  "time limit; raise it with --timeout)")

    def _replace(self, w: _Worker, retry: deque, reason: str) -> tuple[J, R]:
        """Stop ``w`` and start another; its current job fails with ``reason``."""
        job = w.queue.popleft()
        retry.extendleft(reversed(w.queue))
        w.queue.clear()
        w.stop(kill=True)
        self.workers[self.workers.index(w)] = _Worker(self.ctx, self.task)
        return job, self.failed(reason, "")

    def close(self) -> None:
        for w in self.workers:
            w.stop(kill=bool(w.queue))
        self.workers = []


def default_workers() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)
