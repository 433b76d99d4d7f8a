"""The folder walk: which files under the given paths are documents.

Folders are walked recursively in sorted order (stable runs, stable reports), skipping
hidden files and folders. Paths are relative to one ingest root per run (``ingest_root``). A file the user names directly is always attempted (its
content decides the format); inside folders, only known extensions are documents, files
with no extension are sniffed, and everything else is counted as unsupported.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from pipeline.ingest.manifest import MANIFEST_NAME
from pipeline.ingest.sniff import by_extension, sniff

DOCUMENT, MANIFEST, UNSUPPORTED = "document", "manifest", "unsupported"
_SKIP_DIRS = {"__pycache__", "node_modules"}


@dataclass(frozen=True)
class Found:
    """One file met by the walk."""

    path: Path     # as reached (absolute)
    root: Path     # the ingest root (see ingest_root); sources.csv applies from here down
    rel: str       # path relative to root, POSIX separators: Document.path
    kind: str      # document | manifest | unsupported


def _classify(path: Path) -> str:
    if path.name == MANIFEST_NAME:
        return MANIFEST
    if by_extension(path):
        return DOCUMENT
    if path.suffix == "":
        try:
            with path.open("rb") as fh:
                head = fh.read(4096)
        except OSError:
            return UNSUPPORTED
        if sniff(head) in ("pdf", "html", "markdown", "text"):
            return DOCUMENT
    return UNSUPPORTED


def _walk_dir(folder: Path, root: Path) -> Iterator[Found]:
    """Every non-hidden file under ``folder``, sorted by path relative to ``root``."""
    paths: list[Path] = []
    for here, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS]
        paths.extend(Path(here) / name for name in files if not name.startswith("."))
    for path in sorted(paths, key=lambda p: p.relative_to(root).as_posix()):
        yield Found(path, root, path.relative_to(root).as_posix(), _classify(path))


def ingest_root(paths: list[Path]) -> Path:
    """The folder paths are relative to: the folder given, a named file's folder, or, for
    several paths, their common folder (so two README.md files never share a path)."""
    anchors = [p if p.is_dir() else p.parent for p in paths]
    return Path(os.path.commonpath(anchors)) if len(anchors) > 1 else anchors[0]


def walk(paths: Iterable[Path]) -> Iterator[Found]:
    """Every file under ``paths`` once, in a stable order; missing paths raise."""
    given = [Path(os.path.abspath(p)) for p in paths]
    for p in given:
        if not (p.exists() or p.is_symlink()):
            raise FileNotFoundError(f"no such file or folder: {p}")
    if not given:
        return
    root = ingest_root(given)
    seen: set[Path] = set()
    for p in given:
        if p.is_dir():
            found_iter: Iterable[Found] = _walk_dir(p, root)
        else:
            kind = MANIFEST if p.name == MANIFEST_NAME else DOCUMENT
            found_iter = [Found(p, root, p.relative_to(root).as_posix(), kind)]
        for found in found_iter:
            key = found.path.resolve()
            if key in seen:
                continue
            seen.add(key)
            yield found
