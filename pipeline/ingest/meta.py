"""Normalising metadata values that arrive in many shapes (dates, author lists, roles).

Front matter, HTML meta tags, PDF info dictionaries and sources.csv all spell the same
facts differently; the Document wants one spelling: ISO dates, one author string, a role
from ``pipeline.model.ROLES``.
"""
from __future__ import annotations

import datetime as dt
import re
from pathlib import PurePosixPath
from typing import Any

from pipeline.model import ROLES

_ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s_])")
_PDF_DATE = re.compile(r"^\s*D:(\d{4})(\d{2})?(\d{2})?")
_COMPACT = re.compile(r"^\s*(\d{4})(\d{2})(\d{2})\s*$")
_SLASH = re.compile(r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\b")
_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y",
            "%a, %d %b %Y %H:%M:%S %z", "%a, %d %b %Y %H:%M:%S %Z", "%a, %d %b %Y")
_PATH_DATE = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})(?=[-_/.]|$)")


def _ymd(y: str | int, m: str | int | None, d: str | int | None) -> str | None:
    try:
        day = dt.date(int(y), int(m or 1), int(d or 1))
    except ValueError:
        return None
    return day.isoformat() if 1900 <= day.year <= 2100 else None


def iso_date(value: Any) -> str | None:
    """``value`` as YYYY-MM-DD, or None when it is not recognisably a date."""
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    s = str(value).strip()
    for rx in (_ISO, _SLASH, _COMPACT):
        m = rx.match(s)
        if m:
            return _ymd(*m.groups())
    m = _PDF_DATE.match(s)
    if m:
        return _ymd(*m.groups())
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", s)
    for fmt in _FORMATS:
        try:
            return _ymd(*dt.datetime.strptime(cleaned, fmt).timetuple()[:3])
        except ValueError:
            continue
    return None


def date_from_path(rel_path: str) -> str | None:
    """A YYYY-MM-DD that names the file or one of its folders (Jekyll posts, dated dirs)."""
    found = _PATH_DATE.findall(rel_path)
    return _ymd(*found[-1]) if found else None


def clean(value: Any) -> str | None:
    """A single-line string, or None for empty values."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    s = " ".join(str(value).split())
    return s or None


def authors(value: Any) -> str | None:
    """One author string from a string, a list of strings, or a list of {name: ...}."""
    if isinstance(value, dict):
        value = value.get("name") or value.get("display_name")
    if isinstance(value, (list, tuple)):
        names = [authors(v) for v in value]
        return clean(", ".join(n for n in names if n))
    return clean(value)


def role(value: Any) -> str | None:
    """A valid role, or None; raises ValueError for a value that is not a role."""
    s = clean(value)
    if s is None:
        return None
    s = s.lower()
    if s not in ROLES:
        raise ValueError(f"role {s!r} is not one of {', '.join(ROLES)}")
    return s


def jsonable(value: Any) -> Any:
    """``value`` with dates and other odd leaves turned into strings, for Document.meta."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


# --- titles and publishers ---------------------------------------------------------------

_MARKUP_RE = re.compile(r"\*\*|__|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_LINK_RE = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# Words that name a part of a document, not the document: a title that is only one of them
# says nothing of what the document is about.
GENERIC_TITLES = frozenset("""overview introduction intro readme index contents summary
    abstract background about home untitled document""".split())


def clean_title(title: str | None) -> str | None:
    """A title without Markdown markup: links keep their text, emphasis marks go."""
    if not title:
        return title
    t = _LINK_RE.sub(r"\1", title)
    t = _MARKUP_RE.sub("", t)
    return clean(t.strip(" #:-"))


def generic(title: str | None) -> bool:
    return bool(title) and title.strip(" .:").lower() in GENERIC_TITLES


def better_title(title: str | None, rel_path: str) -> str | None:
    """The title without markup; a bare "Overview" gains the file's name ("Overview
    (perf-overview)"), or its folder's for a README or index file, so two documents'
    titles tell them apart. (A later heading is no better: it names a section.)"""
    title = clean_title(title)
    if not title or not generic(title):
        return title
    p = PurePosixPath(rel_path)
    name = p.stem
    if name.lower() in GENERIC_TITLES:
        name = p.parent.name or name
    return f"{title} ({name})" if name and name.lower() != title.lower() else title


def publisher_from_url(url: str | None) -> str | None:
    """Who publishes at a web address: the owner of a code-hosting repository
    (github.com/NVIDIA/... -> NVIDIA), else the host without www."""
    if not url:
        return None
    m = re.match(r"^[a-z][a-z0-9+.-]*://(?:www\.)?([^/:?#]+)(?::\d+)?(/[^?#]*)?", url.strip(), re.I)
    if not m:
        return None
    host, path = m.group(1).lower(), (m.group(2) or "")
    if host in ("github.com", "gitlab.com", "huggingface.co") and path.strip("/"):
        return path.strip("/").split("/")[0]
    return host
