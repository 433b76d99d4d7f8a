"""What a user hands the CLI as a stream, read with a cap: a --urls list, a SQL statement
from a file or stdin, a text on stdin for `claims extract`/`explain`.

Each is read up to its cap plus one byte, so an endless source (``--file /dev/zero``,
``< /dev/zero``, a pipe that never closes) or a huge one is refused with one line instead
of growing the process until the machine runs out of memory (``--urls /dev/zero`` grew to
24 GB; ``claims sql --file /dev/zero`` never returned). NUL bytes mean the wrong file.
"""
from __future__ import annotations

from typing import BinaryIO

LIST_MAX = 16 << 20      # bytes of a --urls list (~200,000 addresses) or a SQL statement


class InputError(Exception):
    """The input cannot be used (its one-line reason)."""


def read_capped(fh: BinaryIO, what: str, limit: int, kind: str, nul_ok: bool = False) -> bytes:
    """At most ``limit`` bytes of ``fh``; InputError naming ``what`` and saying it is not
    the ``kind`` of input expected, past the limit (or on a NUL byte, unless ``nul_ok``: a
    text whose decoder judges NULs itself)."""
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{what} is over {_size(limit)}: not {kind} (split it into smaller files)")
    if not nul_ok and b"\0" in data:
        raise InputError(f"{what} holds NUL bytes: not {kind}")
    return data


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n:,} bytes"
