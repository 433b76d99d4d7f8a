"""A writer function's output as a stream of byte chunks, for a streamed HTTP response.

The export writers (``pipeline.output.write_records``) write to a file object; a response
needs an iterator. The writer runs on a thread of its own and writes into a bounded
queue, so memory holds a few chunks whatever the export's size; when the client goes away
the writer's next write raises BrokenPipeError and the thread ends.
"""
from __future__ import annotations

import queue
import threading
from typing import IO, Callable, Iterator

CHUNK = 1 << 16        # characters gathered before a chunk is handed over
DEPTH = 8              # chunks waiting at most


class _Pipe:
    """The file object the writer sees."""

    def __init__(self, q: "queue.Queue", gone: threading.Event) -> None:
        self.q, self.gone = q, gone
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= CHUNK:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self.parts:
            data = "".join(self.parts).encode("utf-8")
            self.parts, self.size = [], 0
            self.put(data)

    def put(self, item: object) -> None:
        while True:
            if self.gone.is_set():
                raise BrokenPipeError("the client went away")
            try:
                self.q.put(item, timeout=0.5)
                return
            except queue.Full:
                continue


_DONE = object()


def stream(write: Callable[[IO[str]], None]) -> Iterator[bytes]:
    """Run ``write(fh)`` on a thread; yield what it writes, in chunks of about CHUNK."""
    q: "queue.Queue" = queue.Queue(maxsize=DEPTH)
    gone = threading.Event()
    pipe = _Pipe(q, gone)

    def run() -> None:
        try:
            write(pipe)         # type: ignore[arg-type]
            pipe.flush()
            pipe.put(_DONE)
        except BrokenPipeError:
            pass
        except BaseException as exc:     # handed to the reader
            try:
                pipe.put(exc)
            except BrokenPipeError:
                pass

    threading.Thread(target=run, name="claims-serve-export", daemon=True).start()
    try:
        while True:
            item = q.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item          # type: ignore[misc]
    finally:
        gone.set()
