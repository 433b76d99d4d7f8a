"""robots.txt (RFC 9309) for the web fetcher: asked once per site and run, then obeyed.

A site's rules are read from ``scheme://host[:port]/robots.txt`` through the same guarded
client (redirects followed; a longer file is read up to its first 512 KB). As the RFC says: a robots.txt that does not
exist or is refused with a 4xx status allows everything; one that cannot be reached
(5xx, timeout, network error) disallows everything, so a site in trouble is not crawled
(a network error is reported as itself: the page could not have been fetched either).
The group for the ``claims`` token applies, else ``*``. A ``Crawl-delay`` longer than the
fetcher's per-host delay is used instead of it (capped at 30 s).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

from pipeline.ingest.errors import FetchError, Refused

ROBOTS_TOKEN = "claims"          # the user-agent token robots.txt groups are matched on

MAX_BYTES = 512 * 1024
MAX_CRAWL_DELAY = 30.0


@dataclass
class SiteRules:
    parser: RobotFileParser | None    # None: no rules (allow all) or unreachable (deny all)
    allow_all: bool = False
    reason: str = ""                  # why everything is disallowed
    delay: float = 0.0


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class Robots:
    """Per-site rules, fetched on first use (``Fetcher.get(..., robots=False)``)."""

    def __init__(self, fetcher: Any) -> None:
        """``fetcher`` is the web fetcher (``pipeline.ingest.web.Fetcher``): anything with
        its ``get(url, max_bytes=, robots=False)``; typed loosely so this module needs
        nothing of web.py, which uses it."""
        self.fetcher = fetcher
        self.sites: dict[str, SiteRules] = {}

    def rules(self, url: str) -> SiteRules:
        site = origin(url)
        if site not in self.sites:
            self.sites[site] = self._load(site)
        return self.sites[site]

    def allowed(self, url: str) -> bool:
        """May ``url`` be fetched? Raises the fetcher's Refused when robots.txt could not
        be read at all (the reason says so)."""
        rules = self.rules(url)
        if rules.allow_all:
            return True
        if rules.parser is None:
            raise Refused(rules.reason)
        return rules.parser.can_fetch(ROBOTS_TOKEN, url)

    def crawl_delay(self, url: str) -> float:
        """The site's Crawl-delay for us, when its rules are already known (else 0)."""
        rules = self.sites.get(origin(url))
        return rules.delay if rules else 0.0

    def _load(self, site: str) -> SiteRules:
        try:
            # a longer robots.txt is read up to the limit (RFC 9309 2.5: at least 500 KiB
            # parsed), never refused, nor blamed on the page
            cut = {"truncate": True} if getattr(self.fetcher, "truncates", False) else {}
            got = self.fetcher.get(site + "/robots.txt", max_bytes=MAX_BYTES, robots=False, **cut)
        except Refused:
            raise
        except FetchError as exc:
            if exc.status is not None and 400 <= exc.status < 500:
                return SiteRules(None, allow_all=True)
            if exc.status is None:      # the site itself cannot be reached: say why
                return SiteRules(None, reason=str(exc))
            return SiteRules(None, reason=f"robots.txt could not be read ({exc}): the site is "
                                          "not fetched until it can be")
        if got.not_modified:                  # never asked conditionally; be safe
            return SiteRules(None, allow_all=True)
        parser = RobotFileParser()
        parser.parse(got.body.decode("utf-8", errors="replace").splitlines())
        delay = parser.crawl_delay(ROBOTS_TOKEN)
        try:
            delay = min(float(delay or 0), MAX_CRAWL_DELAY)
        except (TypeError, ValueError):
            delay = 0.0
        return SiteRules(parser, delay=delay)
