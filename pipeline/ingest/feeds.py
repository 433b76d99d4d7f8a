"""RSS 2.0, RSS 1.0 (RDF) and Atom feeds -> their items' links, titles, dates, authors.

Only what ingest needs: the channel's title (a publisher) and, per item, the link to
fetch with its title, publication date and author, which the fetched page keeps as
metadata. Parsed with lxml in its safe mode (no DTDs, no entity expansion, no network,
libxml2's size limits), tolerant of the small breakages feeds have; elements are matched
by local name so namespace spellings do not matter.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

from pipeline.ingest import meta as m
from pipeline.ingest.errors import FetchError

_FEED_START = re.compile(
    rb"\A(?:\s|<\?xml[^>]*\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>|<\?xml-stylesheet[^>]*\?>)*"
    rb"<(?:[A-Za-z0-9_-]+:)?(?:rss|feed|RDF)[\s>/]", re.IGNORECASE | re.DOTALL)


@dataclass
class FeedItem:
    link: str
    title: str | None = None
    published: str | None = None    # ISO date
    author: str | None = None


@dataclass
class Feed:
    title: str | None = None
    items: list[FeedItem] = field(default_factory=list)


def is_feed(body: bytes, content_type: str = "") -> bool:
    """True when the bytes are an RSS or Atom document (the Content-Type is not trusted)."""
    from pipeline.ingest.sniff import _as_utf8

    return bool(_FEED_START.match(_as_utf8(body[:4096])))


def _local(el) -> str:
    tag = el.tag if isinstance(el.tag, str) else ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def _children(el, name: str) -> list:
    return [c for c in el if _local(c) == name]


def _text(el, *names: str) -> str | None:
    for name in names:
        for c in _children(el, name):
            value = m.clean("".join(c.itertext()))
            if value:
                return value
    return None


def _atom_link(entry) -> str | None:
    links = _children(entry, "link")
    for want in ("alternate", None):
        for ln in links:
            rel = (ln.get("rel") or "alternate").lower()
            if (want is None or rel == want) and ln.get("href"):
                return ln.get("href").strip()
    return None


def _rss_link(item) -> str | None:
    link = _text(item, "link")
    if link:
        return link
    for g in _children(item, "guid"):
        if (g.get("isPermaLink") or "true").lower() != "false" and (g.text or "").strip():
            return g.text.strip()
    return None


def parse_feed(body: bytes, base_url: str) -> Feed:
    """The feed's title and items (links made absolute against ``base_url``); raises
    FetchError when the bytes are no readable feed."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, recover=True)
    try:
        root = etree.fromstring(body, parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise FetchError(f"feed not readable as XML ({str(exc).splitlines()[0] if str(exc) else 'empty'})") from None
    if root is None:
        raise FetchError("feed not readable as XML")
    kind = _local(root)
    feed = Feed()
    if kind == "feed":                                   # Atom
        feed.title = _text(root, "title")
        entries = _children(root, "entry")
        for e in entries:
            link = _atom_link(e)
            if not link:
                continue
            author = next((_text(a, "name") for a in _children(e, "author")), None)
            feed.items.append(FeedItem(urljoin(base_url, link), _text(e, "title"),
                                       m.iso_date(_text(e, "published", "updated", "issued")),
                                       author))
        return feed
    channel = next(iter(_children(root, "channel")), None)
    if channel is not None:
        feed.title = _text(channel, "title")
    # RSS 2.0 items sit in the channel; RSS 1.0 items beside it
    items = (_children(channel, "item") if channel is not None else []) + _children(root, "item")
    for it in items:
        link = _rss_link(it)
        if not link:
            continue
        feed.items.append(FeedItem(urljoin(base_url, link), _text(it, "title"),
                                   m.iso_date(_text(it, "pubdate", "date", "published")),
                                   m.clean(_text(it, "creator", "author"))))
    return feed
