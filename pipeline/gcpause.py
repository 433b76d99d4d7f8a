"""Keeping Python's cyclic garbage collector off the loaded record.

A loaded record is a million or so objects (claims, their strings and lists) that live as
long as the process and form no cycles. The collector's full (oldest-generation)
collections walk every object in the heap: while a 28,000-claim record loaded, three of
them cost about a second; while the report's 228 checks ran (each leaves thousands of
comparison objects that reach the oldest generation), about 30 of them cost a fifth of
the checks' CPU. Two remedies, neither of which changes what is computed:

* ``paused()``: no collection while a record is being built (it makes no cycles);
* ``freeze()``: the objects alive now (the record, the checker's per-figure facts) move to
  the permanent generation, which collections skip; a process forked afterwards (the
  report's check workers) inherits that, and the parent's pages stay shared.
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection inside the block (reference counting still frees objects)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def freeze() -> None:
    """Leave every object alive now out of later collections (``gc.freeze``)."""
    gc.freeze()
