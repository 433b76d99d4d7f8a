"""Bytes -> str for anything that is text, whatever its encoding; and the `.txt` format.

Why hand-rolled rather than only charset-normalizer: on short English files its guess
wanders between cp1250, cp1252 and friends, and a wrong guess silently changes
characters. The rules below are deterministic: a BOM decides; UTF-16 without BOM is
recognised by its NUL pattern (before UTF-8, which NULs do not break); valid UTF-8 is UTF-8; text that is mostly UTF-8 with a few
broken bytes stays UTF-8, those bytes read as cp1252 where that is plainly right (a
Latin-1 "café" pasted into UTF-8) and as U+FFFD elsewhere; otherwise a multi-byte legacy codec
is taken only when charset-normalizer finds one that decodes the bytes cleanly, and
everything else is read as cp1252 (a superset of printable Latin-1). Every replaced byte
is counted in ``Decoded.replaced`` so nothing is dropped silently.
"""
from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass, field
from typing import Any

BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Multi-byte legacy codecs worth trusting when they decode a file without error: a
# random Latin-1 file almost never happens to be valid in one of them *and* be chosen.
_MULTIBYTE = {"gb18030", "gbk", "gb2312", "big5", "big5hkscs", "shift_jis", "cp932",
              "euc_jp", "euc_kr", "cp949", "iso2022_jp", "koi8_r", "cp1251"}

_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_SURROGATE_OR_NUL = re.compile("[\x00\ud800-\udfff]")


@dataclass
class Decoded:
    """Decoded text plus how it was read, for ``Document.meta``."""

    text: str
    encoding: str
    replaced: int = 0          # characters that became U+FFFD
    bom: bool = False
    newline: str = "lf"        # what the file used before normalising to "\n"
    cp1252: int = 0            # stray cp1252 bytes in UTF-8 read as their character

    def meta(self) -> dict[str, Any]:
        m: dict[str, Any] = {"encoding": self.encoding}
        if self.bom:
            m["bom"] = True
        if self.replaced:
            m["replaced_chars"] = self.replaced
        if self.cp1252:
            m["cp1252_chars"] = self.cp1252
        if self.newline != "lf":
            m["newline"] = self.newline
        return m


def _cp1252_or_latin1(err: UnicodeDecodeError) -> tuple[str, int]:
    """Error handler: the five bytes cp1252 leaves undefined map to their Latin-1 char."""
    return err.object[err.start:err.end].decode("latin-1"), err.end


codecs.register_error("cp1252_latin1", _cp1252_or_latin1)

# Mixed encodings: a UTF-8 file with a paragraph pasted from a cp1252/Latin-1 source holds
# lone bytes such as b"caf\xe9" or b"\x93quoted\x94". Such a byte becomes its cp1252
# character when that is typographic punctuation, or a letter beside an ASCII letter;
# anything else becomes U+FFFD. Both are counted.
_CP1252_PUNCT = set("‘’“”–—…€•")
_mixed = threading.local()


def _utf8_cp1252(err: UnicodeDecodeError) -> tuple[str, int]:
    obj, start, end = err.object, err.start, err.end
    if end - start == 1:
        ch = bytes(obj[start:end]).decode("cp1252", errors="ignore")
        beside = (start > 0 and chr(obj[start - 1]).isascii() and chr(obj[start - 1]).isalpha()) or \
                 (end < len(obj) and chr(obj[end]).isascii() and chr(obj[end]).isalpha())
        if ch in _CP1252_PUNCT or (ch.isalpha() and beside):
            _mixed.cp1252 += 1
            return ch, end
    _mixed.replaced += 1
    return "\ufffd", end


codecs.register_error("utf8_cp1252", _utf8_cp1252)


def _decode_mixed(data: bytes) -> Decoded:
    _mixed.cp1252 = _mixed.replaced = 0
    text = data.decode("utf-8", errors="utf8_cp1252")
    return Decoded(text, "utf-8", _mixed.replaced, cp1252=_mixed.cp1252)


def looks_utf16(data: bytes) -> str | None:
    """'utf-16-le' / 'utf-16-be' when NULs sit in every other byte, as BOM-less UTF-16 does."""
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_nul = even.count(0) / len(even)
    odd_nul = odd.count(0) / max(len(odd), 1)
    if odd_nul > 0.3 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.3 and odd_nul < 0.05:
        return "utf-16-be"
    return None


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 without a BOM in bytes that may also be valid UTF-8: NULs in at least half
    of the even (or odd) positions and almost none in the others, over 16 bytes or more
    (a few stray NULs in UTF-8 text never qualify)."""
    sample = data[:4096]
    if len(sample) < 16 or sample.count(0) < 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    even_nul, odd_nul = even.count(0) / len(even), odd.count(0) / len(odd)
    if odd_nul > 0.5 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.5 and odd_nul < 0.05:
        return "utf-16-be"
    return None


def _count_replacements(raw: bytes, codec: str) -> tuple[str, int]:
    text = raw.decode(codec, errors="replace")
    return text, text.count("\ufffd") - raw.decode(codec, errors="ignore").count("\ufffd")


def decode(data: bytes) -> Decoded:
    """Decode ``data`` by the rules in the module docstring and normalise newlines."""
    decoded = _decode_raw(data)
    text = decoded.text
    if "\r" in text:
        decoded.newline = "crlf" if "\r\n" in text else "cr"
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # NUL and lone surrogates cannot be stored; swap them 1:1 so offsets do not move.
    text, n = _SURROGATE_OR_NUL.subn("\ufffd", text)
    decoded.replaced += n
    decoded.text = text
    return decoded


def _decode_raw(data: bytes) -> Decoded:
    for bom, codec in BOMS:
        if data.startswith(bom):
            text, bad = _count_replacements(data[len(bom):], codec)
            return Decoded(text, codec, bad, bom=True)
    # before UTF-8: BOM-less UTF-16 of mostly Latin text is valid UTF-8 too (NUL is a
    # UTF-8 character), which would store every other character as U+FFFD
    utf16 = _bomless_utf16(data)
    if utf16:
        text, bad = _count_replacements(data, utf16)
        return Decoded(text, utf16, bad)
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    good = len(_UTF8_MULTIBYTE.findall(data))
    if good:
        mixed = _decode_mixed(data)
        if good >= mixed.replaced:
            return mixed
    legacy = _legacy_guess(data)
    if legacy:
        return Decoded(data.decode(legacy), legacy)
    return Decoded(data.decode("cp1252", errors="cp1252_latin1"), "cp1252")


def _legacy_guess(data: bytes) -> str | None:
    """A multi-byte legacy codec that charset-normalizer picks and that decodes cleanly."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - declared dependency
        return None
    best = from_bytes(data[:65536]).best()
    if best is None or best.encoding not in _MULTIBYTE:
        return None
    try:
        data.decode(best.encoding)
    except (UnicodeDecodeError, LookupError):
        return None
    return best.encoding


@dataclass
class Parsed:
    """What a format module hands back: the stored text and whatever metadata it found."""

    text: str
    format: str
    title: str | None = None
    publisher: str | None = None
    url: str | None = None
    published: str | None = None
    author: str | None = None
    role: str | None = None
    pages: list = field(default_factory=list)       # list[pipeline.model.Page]
    meta: dict[str, Any] = field(default_factory=dict)
    tables: list | None = None                      # list[pipeline.model.Table] read at ingest


# lines that come before a reStructuredText document's title and are none: a title's
# overline ("=========="), a comment or directive (".. _label:", ".. meta::") and a field
# (":orphan:", ":tocdepth: 2")
_NOT_TITLE_RE = re.compile(r"^(?:([^\w\s])\1{2,}|\.\.(?:\s.*)?|:[\w-]+:(?:\s.*)?)$")


def first_line_title(text: str, limit: int = 200) -> str | None:
    """The first non-blank line when it is short enough to be a title; in
    reStructuredText, past the title's overline and any comment, directive or field
    above it."""
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line and not _NOT_TITLE_RE.match(line):
            return line if len(line) <= limit else None
    return None


def parse(data: bytes) -> Parsed:
    """A plain-text file: the decoded text as is; its first short line is the title."""
    decoded = decode(data)
    meta = decoded.meta()
    title = first_line_title(decoded.text)
    if title:
        meta["title_source"] = "first_line"
    return Parsed(decoded.text, "text", title=title, meta=meta)
