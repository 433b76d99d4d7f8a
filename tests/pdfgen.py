"""A minimal PDF writer for tests: one page, Helvetica text at given positions, and lines.

Written by hand (no reportlab): the standard-14 Helvetica needs no embedded font, and
pdfminer knows its widths, so pdfplumber reads the text back exactly.
"""
from __future__ import annotations


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_width(s: str, size: float) -> float:
    """Width of ``s`` in Helvetica at ``size`` points (pdfminer's own metrics)."""
    from pdfminer.fontmetrics import FONT_METRICS

    widths = FONT_METRICS["Helvetica"][1]
    return sum(widths.get(ch, 556) for ch in s) * size / 1000


def pdf_bytes(texts: list[tuple[float, float, str]], lines: list[tuple[float, float, float, float]] = (),
              size: float = 9, page=(612, 792)) -> bytes:
    """A one-page PDF: ``texts`` are (x, y, string) with y from the top of the page;
    ``lines`` are (x0, y0, x1, y1), y from the top too."""
    h = page[1]
    ops = []
    for x0, y0, x1, y1 in lines:
        ops.append(f"0.5 w {x0:.2f} {h - y0:.2f} m {x1:.2f} {h - y1:.2f} l S")
    for x, y, s in texts:
        ops.append(f"BT /F1 {size} Tf {x:.2f} {h - y:.2f} Td ({_esc(s)}) Tj ET")
    stream = "\n".join(ops).encode("latin-1")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page[0]} {page[1]}] /Contents 4 0 R "
        f"/Resources << /Font << /F1 5 0 R >> >> >>".encode(),
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def table_pdf(title: str, paragraph: str, header: list[str], rows: list[list[str]],
              ruled: bool, size: float = 9) -> bytes:
    """A page with a title line, a paragraph line and a table; ``ruled`` draws its grid."""
    cols = len(header)
    pad = 6
    widths = [max(text_width(r[j], size) for r in [header] + rows) + 2 * pad + (0 if ruled else 14) for j in range(cols)]
    x0, y = 60.0, 80.0
    texts = [(x0, y, title), (x0, y + 20, paragraph)]
    top = y + 50
    row_h = size + 8
    lines = []
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    for i, r in enumerate([header] + rows):
        base = top + i * row_h + row_h - 5
        for j, cell in enumerate(r):
            texts.append((xs[j] + pad, base, cell))
    if ruled:
        for i in range(len(rows) + 2):
            yy = top + i * row_h
            lines.append((xs[0], yy, xs[-1], yy))
        bottom = top + (len(rows) + 1) * row_h
        for xx in xs:
            lines.append((xx, top, xx, bottom))
    return pdf_bytes(texts, lines, size)
