"""Markdown: front matter becomes metadata; the rest is stored exactly as written.

Keeping the Markdown source (rather than rendering it) keeps headings, paragraphs and
table rows (`| a | b |`) readable one per line, and keeps every offset meaningful to a
reader who opens the file. Only the front matter block is cut, because it is metadata,
not prose; YAML (`---`) and Hugo's TOML (`+++`) are both understood.
"""
from __future__ import annotations

import re
import tomllib
from typing import Any

import yaml

from pipeline.ingest import meta as m
from pipeline.ingest.text import Parsed, decode

_YAML = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_TOML = re.compile(r"\A\+\+\+[ \t]*\n(.*?\n)?\+\+\+[ \t]*(?:\n|\Z)", re.DOTALL)
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.MULTILINE)

# Front-matter spellings seen in blogs and docs sites, first match wins.
KEYS: dict[str, tuple[str, ...]] = {
    "title": ("title", "blog_title"),
    "publisher": ("publisher", "site", "site_name", "organization", "source"),
    "published": ("date", "published", "publishdate", "pubdate", "published_at", "created"),
    "url": ("url", "canonical_url", "canonical", "link", "source_url"),
    "author": ("author", "authors"),
    "role": ("role",),
}


def _yaml_load(text: str) -> Any:
    """``yaml.safe_load``, through libyaml when PyYAML was built with it (ten times faster;
    the same safe constructors build the values)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def split_front_matter(text: str) -> tuple[dict[str, Any] | None, str, str | None]:
    """(front matter mapping or None, text after it, error message or None)."""
    for rx, loader in ((_YAML, _yaml_load), (_TOML, tomllib.loads)):
        match = rx.match(text)
        if not match:
            continue
        body = text[match.end():]
        try:
            data = loader(match.group(1) or "")
        except Exception as exc:  # yaml.YAMLError, tomllib.TOMLDecodeError
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return None, body, f"front matter not parsed: {first}"
        if data is None:
            return {}, body, None
        if not isinstance(data, dict):
            return None, text, None  # a horizontal rule, not front matter
        return data, body, None
    return None, text, None


def _pick(front: dict[str, Any], field: str) -> Any:
    lowered = {str(k).lower(): v for k, v in front.items()}
    for key in KEYS[field]:
        if lowered.get(key) not in (None, "", []):
            return lowered[key]
    return None


def parse(data: bytes) -> Parsed:
    """Decode, cut the front matter, and read title/publisher/date/url/author/role from it."""
    decoded = decode(data)
    front, body, error = split_front_matter(decoded.text)
    info = decoded.meta()
    parsed = Parsed(body, "markdown", meta=info)
    if error:
        info["front_matter_error"] = error
    if front:
        info["front_matter"] = m.jsonable(front)
        parsed.title = m.clean(_pick(front, "title"))
        parsed.publisher = m.clean(_pick(front, "publisher"))
        parsed.published = m.iso_date(_pick(front, "published"))
        parsed.url = m.clean(_pick(front, "url"))
        parsed.author = m.authors(_pick(front, "author"))
        try:
            parsed.role = m.role(_pick(front, "role"))
        except ValueError as exc:
            info["role_error"] = str(exc)
    if not parsed.title:
        h1 = _H1.search(body)
        if h1:
            parsed.title = m.clean(h1.group(1))
            info["title_source"] = "heading"
    return parsed
