"""Manifests: a sidecar in an ingested folder that overrides the metadata of its files.

A manifest is `sources.csv` (comma-separated), `sources.tsv` or `MANIFEST.tsv`
(tab-separated). Recognised columns, in any order and case: `path` (required), `role`
(primary | secondary | unknown), `publisher`, `title`, `url`, `date`, `author`, and for
files copied from a code repository `repo` (owner/name), `path_in_repo` and `commit`: with
no `url`, those make one (a link to the file at that commit), and with no `publisher`, the
repository's owner is the publisher. Other columns are ignored. Any cell may be empty,
and an empty cell overrides nothing. Paths are relative to the folder holding the
manifest. Manifests nest: for a file, every manifest from the ingest root down to the
file's own folder applies, the nearest one winning field by field (in one folder:
sources.csv, then sources.tsv, then MANIFEST.tsv, the later winning). Problems (unknown
role, bad date, a listed file that does not exist) are collected, not raised, so the run
goes on and reports them.
"""
from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pipeline.ingest import meta as m
from pipeline.ingest.text import decode

MANIFEST_NAME = "sources.csv"
MANIFEST_NAMES = (MANIFEST_NAME, "sources.tsv", "MANIFEST.tsv")   # precedence: later wins
COLUMNS = ("path", "role", "publisher", "title", "url", "date", "author")
MAX_BYTES = 16 << 20     # a manifest lists files; anything larger is not one


@dataclass(frozen=True)
class Overrides:
    """Metadata a manifest imposes on one file; None means "leave what the file says"."""

    role: str | None = None
    publisher: str | None = None
    title: str | None = None
    url: str | None = None
    published: str | None = None
    author: str | None = None

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def merged(self, inner: "Overrides") -> "Overrides":
        """``self`` (an outer manifest) with the non-empty fields of ``inner`` on top."""
        return Overrides(**{**self.as_dict(), **inner.as_dict()})


@dataclass
class Manifest:
    """One parsed sources.csv."""

    path: Path
    entries: dict[str, Overrides] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def normalise(rel: str) -> str:
    """A manifest path in the same spelling as ``Document.path`` (POSIX, no ./)."""
    rel = rel.strip().replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    return PurePosixPath(rel).as_posix() if rel else ""


def delimiter(path: Path) -> str:
    """Tab for a .tsv manifest, comma otherwise."""
    return "\t" if path.suffix.lower() == ".tsv" else ","


def parse(text: str, path: Path) -> Manifest:
    """Parse manifest text; ``path`` tells the delimiter (by its extension) and is used to
    check that listed files exist."""
    manifest = Manifest(path)
    try:
        _read_rows(manifest, text, path)
    except csv.Error as exc:
        kind = "TSV" if delimiter(path) == "\t" else "CSV"
        manifest.problems.append(f"not readable as {kind}: {exc}")
    return manifest


def _exists(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):       # a NUL or an over-long name in the cell
        return False


def _read_rows(manifest: Manifest, text: str, path: Path) -> None:
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter(path))
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    if "path" not in header:
        manifest.problems.append("no 'path' column in the header")
        return
    reader.fieldnames = header
    for lineno, row in enumerate(reader, start=2):
        rel = normalise(row.get("path") or "")
        if not rel:
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                manifest.problems.append(f"line {lineno}: empty path")
            continue
        values = {k: m.clean(row.get(k)) for k in COLUMNS if k != "path"}
        repo, in_repo, commit = (m.clean(row.get(k)) for k in ("repo", "path_in_repo", "commit"))
        if repo and "/" in repo:
            if not values["url"]:
                values["url"] = (f"https://github.com/{repo}/blob/{commit or 'HEAD'}/{in_repo}"
                                 if in_repo else f"https://github.com/{repo}")
            values["publisher"] = values["publisher"] or repo.split("/")[0]
        try:
            role = m.role(values["role"])
        except ValueError as exc:
            manifest.problems.append(f"line {lineno}: {exc}")
            role = None
        published = m.iso_date(values["date"])
        if values["date"] and not published:
            manifest.problems.append(f"line {lineno}: date {values['date']!r} not understood")
        if not _exists(path.parent / rel):
            manifest.problems.append(f"line {lineno}: {rel!r} does not exist")
        manifest.entries[rel] = Overrides(role=role, publisher=values["publisher"],
                                          title=values["title"], url=values["url"],
                                          published=published, author=values["author"])


@lru_cache(maxsize=256)
def _load_cached(path: str, mtime_ns: int, size: int) -> Manifest:
    p = Path(path)
    return parse(decode(p.read_bytes()).text, p)


def load(path: Path) -> Manifest:
    """The parsed manifest at ``path``, re-read only when the file changed.

    A manifest that cannot be read (gone, unreadable, too large) is an empty one whose
    problem says why, so the run goes on without its overrides.
    """
    try:
        st = path.stat()
        if st.st_size > MAX_BYTES:
            return Manifest(path, problems=[f"{path.name} is over {MAX_BYTES >> 20} MB: not read"])
        return _load_cached(str(path), st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        return Manifest(path, problems=["vanished before it was read (moved or deleted during the run?)"])
    except PermissionError:
        return Manifest(path, problems=["cannot read it: permission denied (give read permission)"])
    except OSError as exc:
        return Manifest(path, problems=[f"cannot read it: {exc.strerror or exc}"])


def overrides_for(path: Path, root: Path) -> tuple[Overrides, list[Path]]:
    """Merged overrides for ``path`` from every manifest between ``root`` and it.

    Returns the overrides and the manifests that listed the file.
    """
    result, used = Overrides(), []
    try:
        rel_dir = path.parent.relative_to(root)
    except ValueError:
        return result, used
    folders = [root] + [root.joinpath(*rel_dir.parts[:i + 1]) for i in range(len(rel_dir.parts))]
    for folder in folders:
        for name in MANIFEST_NAMES:
            csv_path = folder / name
            if not csv_path.is_file():
                continue
            entry = load(csv_path).entries.get(path.relative_to(folder).as_posix())
            if entry is not None:
                result = result.merged(entry)
                used.append(csv_path)
    return result, used
