"""The folder walk: which files under the given paths are documents.

Folders are walked recursively in sorted order (stable runs, stable reports), skipping
hidden files and folders. Paths are relative to one ingest root per run (``ingest_root``).
A file the user names directly is always attempted (its content decides the format);
inside folders, only known extensions are documents, files with no extension are sniffed,
and everything else (other extensions, pipes, sockets, devices) is counted as unsupported.
A ``.json``/``.csv`` inside a folder is a document only when its content is a benchmark
result file (``structured.in_folder``); any other data file is unsupported, with the reason.

Trees the user did not write are walked defensively. Symlinks are followed only while
they stay inside the folder given (``follow_links`` lifts that); a link leading outside,
a broken link, a symlink loop, a folder that cannot be read and a folder that vanishes
mid-walk each become one ``ERROR`` entry with a one-line reason, and the walk goes on.
Each folder is read once, however many links lead to it.
"""
from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from pipeline.ingest import structured
from pipeline.ingest.manifest import MANIFEST_NAMES
from pipeline.ingest.sniff import by_extension, sniff

DOCUMENT, MANIFEST, UNSUPPORTED, ERROR = "document", "manifest", "unsupported", "error"
UNCHANGED = "unchanged"    # a web page the server says has not changed (HTTP 304)
_SKIP_DIRS = {"__pycache__", "node_modules"}


@dataclass(frozen=True)
class Found:
    """One file met by the walk."""

    path: Path     # as reached (absolute)
    root: Path     # the ingest root (see ingest_root); manifests apply from here down
    rel: str       # path relative to root, POSIX separators: Document.path
    kind: str      # document | manifest | unsupported | error | unchanged
    reason: str = ""   # for kind == error: what went wrong and what to do; for unsupported: why skipped

    @property
    def source(self) -> str:
        """Where the document comes from, its identity besides its bytes: the web address,
        else the file's resolved absolute path (``rel`` depends on the folder named on the
        command line, so two folders' README.md would share it)."""
        if self.rel.startswith(("http://", "https://")):
            return self.rel
        return os.path.realpath(self.path)


def _classify(path: Path) -> tuple[str, str]:
    """(kind, reason) of a regular file (or a followed link to one) inside a folder."""
    if path.name in MANIFEST_NAMES:
        return MANIFEST, ""
    if path.suffix.lower() in structured.SUFFIXES:
        # a folder's .json/.csv is read only when it is a benchmark result file (or one the
        # --mapping fits); any other data file is skipped with the reason, not an error
        try:
            with path.open("rb") as fh:
                head = fh.read(8192)
        except OSError as exc:
            return ERROR, _os_problem("file", exc)
        reason = structured.in_folder(path.suffix, head) if head else ""
        return (UNSUPPORTED, reason) if reason else (DOCUMENT, "")
    if path.suffix.lower() == ".parquet":
        reason = structured.parquet(path)
        return (UNSUPPORTED, reason) if reason else (DOCUMENT, "")
    if by_extension(path):
        return DOCUMENT, ""
    if path.suffix == "":
        try:
            with path.open("rb") as fh:
                head = fh.read(4096)
        except OSError as exc:
            return ERROR, _os_problem("file", exc)
        if sniff(head) in ("pdf", "html", "markdown", "text"):
            return DOCUMENT, ""
    return UNSUPPORTED, ""


def _os_problem(what: str, exc: OSError) -> str:
    """One line for an OS error met on a file or folder, with what to do."""
    if exc.errno == errno.ENOENT:
        return f"{what} vanished during the run (moved or deleted?)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"cannot read {what}: permission denied (give read permission or leave it out)"
    if exc.errno == errno.ELOOP:
        return "symlink loop: the link never reaches a file or folder"
    return f"cannot read {what}: {exc.strerror or exc}"


class _Walker:
    """One given folder: its entries, links checked against ``boundary``."""

    def __init__(self, folder: Path, root: Path, follow_links: bool) -> None:
        self.folder, self.root, self.follow = folder, root, follow_links
        self.boundary = Path(os.path.realpath(folder))
        self.seen_dirs: set[tuple[int, int]] = set()
        self.out: list[Found] = []

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def error(self, path: Path, reason: str) -> None:
        rel = self.rel(path)
        self.out.append(Found(path, self.root, str(path) if rel == "." else rel, ERROR, reason))

    def run(self) -> list[Found]:
        try:
            st = os.stat(self.folder)
        except OSError as exc:
            self.error(self.folder, _os_problem("folder", exc))
            return self.out
        self.seen_dirs.add((st.st_dev, st.st_ino))
        stack = [self.folder]
        while stack:
            here = stack.pop()
            subdirs = self._scan(here)
            stack.extend(reversed(subdirs))
        return self.out

    def _scan(self, here: Path) -> list[Path]:
        """Record the files of ``here``; return its sub-folders to walk, in name order."""
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            self.error(here, _os_problem("folder", exc))
            return []
        subdirs: list[Path] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    target = self._follow(path)
                    if target is None:
                        continue
                    st = os.stat(path)
                else:
                    st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                self.error(path, _os_problem("file", exc))
                continue
            if stat.S_ISDIR(st.st_mode):
                if entry.name in _SKIP_DIRS:
                    continue
                key = (st.st_dev, st.st_ino)
                if key in self.seen_dirs:
                    if entry.is_symlink() and self._is_ancestor(path):
                        self.error(path, "symlink loop: the link leads back to a folder that "
                                         "contains it; not followed")
                    continue        # a folder already read through another path
                self.seen_dirs.add(key)
                subdirs.append(path)
            elif stat.S_ISREG(st.st_mode):
                kind, reason = _classify(path)
                self.out.append(Found(path, self.root, self.rel(path), kind, reason))
            else:
                self.out.append(Found(path, self.root, self.rel(path), UNSUPPORTED))
        return subdirs

    def _follow(self, link: Path) -> Path | None:
        """The link's target when it may be followed; else None, with the reason recorded."""
        try:
            os.stat(link)
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                self.error(link, f"broken symlink: its target {os.readlink(link)} does not exist")
            else:
                self.error(link, _os_problem("link", exc))
            return None
        target = Path(os.path.realpath(link))
        if not self.follow and not target.is_relative_to(self.boundary):
            self.error(link, f"symlink to {target} leads outside {self.folder}: not followed "
                             "(use --follow-links to read it)")
            return None
        return target

    def _is_ancestor(self, link: Path) -> bool:
        target = Path(os.path.realpath(link))
        return Path(os.path.realpath(link.parent)).is_relative_to(target)


def _walk_dir(folder: Path, root: Path, follow_links: bool = False) -> Iterator[Found]:
    """Every non-hidden file under ``folder``, sorted by path relative to ``root``."""
    found = _Walker(folder, root, follow_links).run()
    yield from sorted(found, key=lambda f: f.rel)


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def ingest_root(paths: list[Path]) -> Path:
    """The folder paths are relative to: the folder given, a named file's folder, or, for
    several paths, their common folder (so two README.md files never share a path)."""
    anchors = [p if _is_dir(p) else p.parent for p in paths]
    return Path(os.path.commonpath(anchors)) if len(anchors) > 1 else anchors[0]


def printable(name: str) -> str:
    """``name`` as valid Unicode: bytes of a file name that were not UTF-8 (held by Python
    as lone surrogates) shown as ``\\xNN``."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") \
            if _escapable(name) else name.encode("utf-8", "backslashreplace").decode("utf-8")


def _escapable(name: str) -> bool:
    try:
        name.encode("utf-8", "surrogateescape")
        return True
    except UnicodeEncodeError:
        return False


def _storable(found: Found) -> Found:
    """``found`` with a name the database can hold: a file whose name (or folder's) is not
    valid UTF-8 becomes an ERROR entry shown with ``\\xNN`` escapes, so one bad name is
    one recorded error and never stops the run."""
    rel, reason = printable(found.rel), printable(found.reason)
    if rel == found.rel and reason == found.reason and (
            found.kind == ERROR or printable(found.source) == found.source):
        return found
    if found.kind == ERROR:
        return Found(found.path, found.root, rel, ERROR, reason)
    return Found(found.path, found.root, rel, ERROR,
                 "file name is not valid UTF-8 (its bytes are shown as \\xNN): rename it "
                 "(e.g. with `convmv`) to read it")


def walk(paths: Iterable[Path], follow_links: bool = False) -> Iterator[Found]:
    """Every file under ``paths`` once, in a stable order; missing paths raise.

    ``follow_links`` follows symlinks that lead outside the folder they sit in. A name
    that is not valid UTF-8 is an ERROR entry (``_storable``).
    """
    given = [Path(os.path.abspath(p)) for p in paths]
    for p in given:
        if not os.path.lexists(p):
            raise FileNotFoundError(f"no such file or folder: {p}")
    if not given:
        return
    root = ingest_root(given)
    seen: set[str] = set()
    for p in given:
        if _is_dir(p):
            found_iter: Iterable[Found] = _walk_dir(p, root, follow_links)
        else:
            kind = MANIFEST if p.name in MANIFEST_NAMES else DOCUMENT
            found_iter = [Found(p, root, p.relative_to(root).as_posix(), kind)]
        for found in found_iter:
            key = found.rel if found.kind == ERROR else os.path.realpath(found.path)
            if key in seen:
                continue
            seen.add(key)
            yield _storable(found)
