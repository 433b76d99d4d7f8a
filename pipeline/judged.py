"""The verdicts on stored figures, worked out once per warehouse state and kept on disk.

``judge_stored`` (the check of a figure outside primary documents against the primary
record) is what `claims report`, `claims trace` and the trace pages of `claims serve`
spend their time on: a figure is compared with every primary figure of its family
(~4,000 on the 1,060-document warehouse, ~50-200 ms each). Its answer depends only on
what the warehouse holds and on the code that judges it, so it is kept:

* the key is ``pipeline.fingerprint.content_key``: a hash of every row of ``claims``,
  ``documents``, ``links`` and ``clusters`` and of the ``pipeline`` package's own files
  (the rules and vocabularies), read when the record is loaded. Any ingest, relink, role
  change or code change gives another key, so a kept verdict is never stale;
* the verdicts of one key live in one JSON file, ``verdicts-KEY.json``, in the cache folder
  (``$CLAIMS_CACHE_DIR``, else ``$XDG_CACHE_HOME/claims``, else ``~/.cache/claims``; set
  ``CLAIMS_CACHE_DIR=off`` to keep nothing). JSON, not pickle: reading a file never runs
  code. The oldest files go beyond ``MAX_FILES``;
* what is kept is the verdict, explanation and evidence; the query is read again from the
  claim (``query_from_claim``, as ``judge_stored`` reads it), and a kept verdict whose
  reading differs is not used.

``Judged`` is the one door: ``judge(checker, claim)`` returns the kept verdict or calls
``judge_with_derived`` (``judge_stored``, then the figures derived from MLPerf results for a
per-GPU or per-node figure: ``pipeline.derived_check``) and keeps its answer. Report, trace and serve all go through it, so the
judgement stays one function.
"""
from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Iterable

from pipeline.checker import Evidence, Verdict, query_from_claim
from pipeline.derived_check import judge_with_derived
from pipeline.model import Claim

CACHE_ENV = "CLAIMS_CACHE_DIR"
MAX_FILES = 64          # verdict files kept in the cache folder (one per warehouse state)


def cache_dir() -> Path | None:
    """Where verdicts are kept, or None when ``CLAIMS_CACHE_DIR=off``."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "none", "0") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "claims"


def _to_json(v: Verdict) -> dict:
    return {"verdict": v.verdict, "explanation": v.explanation,
            "evidence": [e.to_dict() for e in v.evidence],
            "reading": v.query.reading() if v.query is not None else None}


class Judged:
    """Verdicts of stored figures for one warehouse state (``key``), kept in memory and, when
    a cache folder is set, on disk. Safe to share between threads."""

    def __init__(self, key: str | None, folder: Path | None = None) -> None:
        self.key = key
        self.folder = folder if folder is not None else cache_dir()
        self.lock = threading.Lock()
        self._kept: dict[str, dict] = {}
        self._mtime: float | None = None
        self.hits = self.misses = 0
        self._read()

    @classmethod
    def of_record(cls, record) -> "Judged":
        """The verdicts kept for the state the record was loaded from (none kept when it
        carries no ``content_key``: a partial record)."""
        return cls(getattr(record, "content_key", None))

    @property
    def path(self) -> Path | None:
        if self.key is None or self.folder is None:
            return None
        return self.folder / f"verdicts-{self.key}.json"

    def _read(self) -> None:
        """Take in what the file holds (another process may have added verdicts)."""
        path = self.path
        if path is None:
            return
        try:
            st = path.stat()
            if self._mtime == st.st_mtime:
                return
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("key") == self.key:
            for k, v in (data.get("verdicts") or {}).items():
                self._kept.setdefault(k, v)
            self._mtime = st.st_mtime

    def get(self, c: Claim, sentence: str) -> Verdict | None:
        """The kept verdict on ``c`` (its quoted sentence ``sentence``), or None."""
        with self.lock:
            got = self._kept.get(c.id)
            if got is None:
                self._read()
                got = self._kept.get(c.id)
        if got is None:
            return None
        q = query_from_claim(c, sentence)
        if (q.reading() if q.figure is not None else None) != got.get("reading"):
            return None
        try:
            evidence = [Evidence(**e) for e in got["evidence"]]
            return Verdict(got["verdict"], got["explanation"], evidence, q)
        except (KeyError, TypeError):
            return None

    def judge(self, checker, c: Claim) -> Verdict:
        """``judge_with_derived(checker, c)``, answered from what is kept when it can be."""
        sentence = "".join(checker.record.quote(c))
        v = self.get(c, sentence)
        if v is not None:
            self.hits += 1
            return v
        self.misses += 1
        v = judge_with_derived(checker, c)
        self.put({c.id: v})
        return v

    def put(self, verdicts: dict[str, Verdict], save: bool = True) -> None:
        """Keep these verdicts (by claim id), and write them out."""
        with self.lock:
            for k, v in verdicts.items():
                self._kept[k] = _to_json(v)
            if save:
                self._save()

    def kept_ids(self) -> set[str]:
        with self.lock:
            self._read()
            return set(self._kept)

    def _save(self) -> None:
        path = self.path
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._read()      # keep what another process wrote meanwhile
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".verdicts-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"key": self.key, "verdicts": self._kept}, fh, ensure_ascii=False)
            os.replace(tmp, path)
            self._mtime = path.stat().st_mtime
            _prune(path.parent)
        except OSError:
            pass              # a cache that cannot be written is only slower


def _prune(folder: Path, keep: int = MAX_FILES) -> None:
    files = sorted(folder.glob("verdicts-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[keep:]:
        try:
            old.unlink()
        except OSError:
            pass


def judge_many(judged: Judged, checker, claims: Iterable[Claim]) -> dict[str, Verdict]:
    """Verdicts of the claims that are kept, by claim id (the others are left out)."""
    out = {}
    for c in claims:
        v = judged.get(c, "".join(checker.record.quote(c)))
        if v is not None:
            out[c.id] = v
    return out
