"""HTML: the article's main text (trafilatura) and metadata from the page's head.

trafilatura is good at dropping navigation, footers, cookie banners and scripts, and its
Markdown output keeps headings, paragraphs and table rows (`| a | b |`) one per line,
the same shape as our Markdown documents. When it finds no main text (tiny or unusual
pages) a small lxml walk over the page, minus obvious boilerplate, takes its place.
Metadata prefers explicit tags (Open Graph, `article:published_time`, canonical link,
`<meta name=author>`) over trafilatura's heuristics.
"""
from __future__ import annotations

import logging
import re
from html.parser import HTMLParser
from typing import Any

from pipeline.ingest import meta as m
from pipeline.ingest.errors import IngestError
from pipeline.ingest.text import BOMS, Decoded, Parsed, decode

for _name in ("trafilatura", "htmldate", "courlan", "justext"):
    logging.getLogger(_name).setLevel(logging.CRITICAL)

_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_XML_DECL = re.compile(r"\A\s*<\?xml[^>]*\?>")
_BOILERPLATE = re.compile(
    r"cookie|consent|gdpr|banner|newsletter|subscribe|share|social|breadcrumb|sidebar|"
    r"menu|navbar|nav-|footer|header|advert|promo|popup|modal|related|comment",
    re.IGNORECASE)
_DROP_TAGS = ("script", "style", "noscript", "template", "nav", "header", "footer", "aside",
              "form", "iframe", "svg", "button", "select", "head")
_BLOCKS = ("h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "pre", "blockquote", "table",
           "dt", "dd", "figcaption")

_DATE_TAGS = ("article:published_time", "og:article:published_time", "datepublished",
              "date", "pubdate", "publishdate", "publish_date", "dc.date", "dc.date.issued",
              "dcterms.date", "dcterms.created", "citation_publication_date",
              "citation_date", "sailthru.date", "parsely-pub-date")


def decode_html(data: bytes) -> Decoded:
    """Decode with the page's declared charset when there is no BOM and it decodes."""
    if not any(data.startswith(bom) for bom, _ in BOMS):
        declared = _CHARSET.search(data[:4096])
        if declared:
            codec = declared.group(1).decode("ascii").lower()
            try:
                text = data.decode(codec)
            except (LookupError, UnicodeDecodeError):
                pass
            else:
                d = Decoded(text, codec)
                if "\r" in text:
                    d.newline = "crlf"
                    d.text = text.replace("\r\n", "\n").replace("\r", "\n")
                d.text = re.sub("[\x00\ud800-\udfff]", "\ufffd", d.text)
                return d
    return decode(data)


_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _tree(html: str):
    """The page as an lxml tree, or None. ``huge_tree`` lifts libxml2's 10 MB text-node
    and 256-level nesting limits (to 1 GB and 2,048), which would silently drop text."""
    import lxml.html
    from lxml.etree import ParserError

    parser = lxml.html.HTMLParser(huge_tree=True, no_network=True)
    # control characters are no text a page shows, and lxml refuses them when a dropped
    # element's tail is joined to its parent
    html = _CONTROL_RE.sub(" ", html)
    try:
        return lxml.html.fromstring(_XML_DECL.sub("", html) or "<html></html>", parser=parser)
    except (ParserError, ValueError):
        return None


class _FlatText(HTMLParser):
    """Every text node outside scripts and styles, one block per line: the last resort for
    pages no tree holds (nesting past libxml2's 2,048 levels). Streaming, so depth costs
    nothing."""

    _SKIP = {"script", "style", "noscript", "template", "head", "svg"}
    _BREAK = set(_BLOCKS) | {"div", "br", "tr", "section", "article", "main", "ul", "ol"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in self._SKIP:
            self.skipping += 1
        elif tag in self._BREAK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self._BREAK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def flat_text(html: str) -> str:
    parser = _FlatText()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):      # html.parser on malformed declarations
        pass
    lines = (" ".join(line.split()) for line in "".join(parser.parts).split("\n"))
    return "\n\n".join(line for line in lines if line)


def head_metadata(tree) -> dict[str, Any]:
    """title/publisher/url/published/author from <title>, <meta>, <link rel=canonical>."""
    found: dict[str, Any] = {}
    if tree is None:
        return found
    metas: dict[str, list[str]] = {}
    for el in tree.iter("meta"):
        key = (el.get("property") or el.get("name") or el.get("itemprop") or "").strip().lower()
        content = el.get("content")
        if key and content and content.strip():
            metas.setdefault(key, []).append(content.strip())

    def first(*keys: str) -> str | None:
        for k in keys:
            if metas.get(k):
                return metas[k][0]
        return None

    titles = [t.text_content() for t in tree.iter("title")]
    found["title"] = m.clean(first("og:title", "twitter:title", "citation_title")
                             or (titles[0] if titles else None))
    found["publisher"] = m.clean(first("og:site_name", "publisher", "application-name",
                                       "citation_publisher", "citation_journal_title"))
    canon = [ln.get("href") for ln in tree.iter("link")
             if "canonical" in (ln.get("rel") or "").lower() and ln.get("href")]
    found["url"] = m.clean(canon[0] if canon else first("og:url", "twitter:url"))
    for key in _DATE_TAGS:
        for value in metas.get(key, []):
            found["published"] = m.iso_date(value)
            if found["published"]:
                break
        if found.get("published"):
            break
    if not found.get("published"):
        for t in tree.iter("time"):
            if t.get("datetime") and m.iso_date(t.get("datetime")):
                found["published"] = m.iso_date(t.get("datetime"))
                found["published_source"] = "time_element"
                break
    found["author"] = m.authors(metas.get("author") or metas.get("article:author")
                                or metas.get("citation_author") or metas.get("dc.creator"))
    return {k: v for k, v in found.items() if v}


def trafilatura_text(html: str) -> str | None:
    """Main text as Markdown-ish lines, or None when trafilatura finds no article."""
    import trafilatura

    out = trafilatura.extract(
        html, output_format="markdown", include_tables=True, include_links=False,
        include_images=False, include_comments=False, deduplicate=False,
        with_metadata=False)
    return out.strip() if out and out.strip() else None


def trafilatura_metadata(html: str) -> dict[str, Any]:
    import trafilatura

    try:
        doc = trafilatura.extract_metadata(html)
    except Exception:  # a metadata heuristic failing must not lose the text
        return {}
    if doc is None:
        return {}
    d = doc.as_dict()
    return {k: v for k, v in {
        "title": m.clean(d.get("title")), "publisher": m.clean(d.get("sitename")),
        "url": m.clean(d.get("url")), "published": m.iso_date(d.get("date")),
        "author": m.clean(d.get("author")),
    }.items() if v}


def _is_boilerplate(el) -> bool:
    marker = f"{el.get('id') or ''} {el.get('class') or ''} {el.get('role') or ''}"
    return bool(marker.strip()) and bool(_BOILERPLATE.search(marker)) and el.tag not in (
        "html", "body", "main", "article")


def fallback_text(tree) -> str:
    """Block-by-block text of the page minus boilerplate; tables one row per line."""
    if tree is None:
        return ""
    for el in list(tree.iter(*_DROP_TAGS)):
        if el.getparent() is not None:
            el.drop_tree()
    for el in list(tree.iter()):
        if isinstance(el.tag, str) and el.getparent() is not None and _is_boilerplate(el):
            el.drop_tree()
    root = next(iter(tree.iter("article", "main")), None)
    if root is None:
        roles = tree.xpath('//*[@role="main"]')
        root = roles[0] if roles else tree
    lines: list[str] = []
    taken: set = set()
    for el in root.iter(*_BLOCKS):
        if any(a in taken for a in el.iterancestors()):
            continue
        taken.add(el)
        if el.tag == "table":
            for tr in el.iter("tr"):
                cells = [" ".join(c.text_content().split()) for c in tr if c.tag in ("td", "th")]
                if any(cells):
                    lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
            continue
        text = " ".join(el.text_content().split())
        if not text:
            continue
        if el.tag[0] == "h" and el.tag[1:].isdigit():
            text = "#" * int(el.tag[1:]) + " " + text
        elif el.tag == "li":
            text = "- " + text
        lines.append(text)
        lines.append("")
    out = "\n".join(lines).strip()
    if not out:
        out = "\n".join(" ".join(s.split()) for s in root.text_content().splitlines()
                        if s.strip())
    return out


def parse(data: bytes) -> Parsed:
    """Main text plus metadata; IngestError when the page holds no text at all."""
    decoded = decode_html(data)
    html = decoded.text
    info = decoded.meta()
    text = trafilatura_text(html)
    info["extractor"] = "trafilatura"
    tree = _tree(html)
    if text is None:
        text = fallback_text(_tree(html))
        info["extractor"] = "fallback"
    if not text.strip():
        text = flat_text(html)
        info["extractor"] = "flat"
    if not text.strip():
        raise IngestError("no text found in the HTML page (a script-only page? save the "
                          "rendered page, or its PDF, and ingest that)")
    found = head_metadata(tree)
    extra = trafilatura_metadata(html)
    for key, value in extra.items():
        if key not in found:
            found[key] = value
            if key == "published":
                found["published_source"] = "trafilatura"
    if found.get("published_source"):
        info["published_source"] = found.pop("published_source")
    return Parsed(text, "html", title=found.get("title"), publisher=found.get("publisher"),
                  url=found.get("url"), published=found.get("published"),
                  author=found.get("author"), meta=info, tables=_tables(tree, text))


def _tables(tree, text: str) -> list | None:
    """The page's tables from its DOM, with spans in the stored text (``tables_html``);
    None (the extractor reads the text) if the reader fails."""
    from pipeline.ingest import tables_html

    try:
        return tables_html.dom_tables(tree, text)
    except (RecursionError, MemoryError, ValueError, AttributeError, TypeError, IndexError):
        return None
