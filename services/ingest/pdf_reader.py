"""A PDF as Markdown-ish text with its structure and its pages (see docs/architecture.md, "PDF").

pypdf reads the text (right-to-left scripts come out in logical order), the outline, page
labels, form fields, annotations and the document info; pdfplumber finds tables, and only on
pages that draw lines (most pages do not, and its layout analysis is the slow part). Per page:
running headers/footers and page numbers go, headings become ``#`` lines (from the outline, else
from font sizes), tables become Markdown tables, words hyphenated at a line end are joined.
``extra["page_spans"]`` gives each page's character span in the text with its number and label.
"""

from __future__ import annotations

import io
import logging
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import fontTools  # noqa: F401  pypdf reads embedded fonts with it (maths glyphs); without it, garbled text

from services.errors import UnsupportedInput
from services.ingest import pdf_ocr
from services.ingest.pdf_layout import heading_levels, mark_headings, markdown_table, norm, strip_running_lines
from services.ingest.text_hygiene import join_hyphenation

# pypdf and pdfminer log a warning per odd glyph or object (1,412 on one real thesis): errors only.
for _name in ("pypdf", "pdfminer", "pdfplumber"):
    logging.getLogger(_name).setLevel(logging.ERROR)

_DRAWS_LINES = re.compile(rb"(?:\s|^)(?:re|l)\s+(?:S|s|f|F|B|b|n|f\*)?", re.MULTILINE)
_MEANINGLESS_TITLE = re.compile(r"^(?:untitled|microsoft word - .*|.*\.(?:docx?|pdf|tex|dvi|odt|indd))$", re.IGNORECASE)


@dataclass
class PdfPage:
    number: int  # 1-based, physical
    label: str | None  # the printed label (/PageLabels), when the PDF has them
    lines: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    ocr: bool = False  # the text was read from the page's image


def open_pdf(data: bytes, name: str, password: str | None = None) -> Any:
    """A pypdf reader, decrypted. A wrong or missing password is an :class:`UnsupportedInput` saying so."""
    from pypdf import PdfReader

    if not data.startswith(b"%PDF"):
        raise UnsupportedInput("not a PDF file (no %PDF header).", file=name)
    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        if reader.decrypt(password or "") == 0:  # PasswordType.NOT_DECRYPTED
            if password:
                raise UnsupportedInput("the password is wrong for this encrypted PDF.", file=name)
            raise UnsupportedInput("the PDF is encrypted with a password; give the password (the app's "
                                   "password box, `rag ingest --password`) and try again.", file=name)
    return reader


def meaningful(value: Any) -> str | None:
    """A document-info string worth showing: not empty, not "untitled", not a file name."""
    text = " ".join(str(value or "").replace("\x00", " ").split())
    return text if text and not _MEANINGLESS_TITLE.match(text) else None


def _labels(reader: Any) -> list[str | None]:
    """Each page's printed label, when the PDF has /PageLabels (None for every page otherwise, or when damaged)."""
    try:
        if "/PageLabels" in reader.trailer["/Root"]:
            return list(reader.page_labels)
    except Exception:
        pass
    return [None] * len(reader.pages)


def _outline(reader: Any) -> dict[int, list[tuple[int, str]]]:
    """Outline entries by 0-based page index, as (level, title)."""
    found: dict[int, list[tuple[int, str]]] = {}

    def walk(items: list[Any], level: int) -> None:
        for entry in items:
            if isinstance(entry, list):
                walk(entry, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(entry)
            except Exception:  # a broken destination: the entry is left out
                continue
            title = " ".join(str(entry.title or "").split())
            if title and page is not None and page >= 0:
                found.setdefault(page, []).append((level, title))

    try:
        walk(reader.outline, 1)
    except Exception:  # a damaged outline: headings come from font sizes instead
        return {}
    return found


def _page_text(page: Any) -> tuple[str, Counter[float], dict[str, float]]:
    """A page's text, the characters per font size, and each line's size (by :func:`norm`)."""
    sizes: Counter[float] = Counter()
    rows: dict[float, list[tuple[str, float]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, font_size: float) -> None:
        if not text.strip():
            return
        scale = math.sqrt(abs(tm[0] * tm[3] - tm[1] * tm[2]) * abs(cm[0] * cm[3] - cm[1] * cm[2])) or 1.0
        size = round(font_size * scale * 2) / 2
        sizes[size] += len(text.strip())
        rows.setdefault(round(tm[5] * cm[3] + cm[5]), []).append((text, size))

    text = page.extract_text(visitor_text=visit) or ""
    line_sizes = {}
    for parts in rows.values():
        line = "".join(t for t, _ in parts)
        size = Counter({s: len(t) for t, s in parts}).most_common(1)[0][0]
        for piece in line.splitlines():
            if piece.strip():
                line_sizes[norm(piece)] = size
    return text, sizes, line_sizes


def _tables(data: bytes, pages: list[int], password: str | None) -> dict[int, tuple[list[str], str]]:
    """For pages (0-based) that draw lines: their tables as Markdown and the page's text outside them."""
    if not pages:
        return {}
    import pdfplumber

    found: dict[int, tuple[list[str], str]] = {}
    with pdfplumber.open(io.BytesIO(data), password=password or "") as pdf:
        for index in pages:
            page = pdf.pages[index]
            tables = page.find_tables()
            if not tables:
                continue
            boxes = [t.bbox for t in tables]

            def outside(obj: dict[str, Any], boxes: list[Any] = boxes) -> bool:
                return obj.get("object_type") != "char" or not any(
                    b[0] <= obj["x0"] and obj["x1"] <= b[2] and b[1] <= obj["top"] and obj["bottom"] <= b[3] for b in boxes)

            markdown = [m for m in (markdown_table(t.extract()) for t in tables) if m]
            found[index] = (markdown, page.filter(outside).extract_text() or "")
    return found


def read_pages(reader: Any, data: bytes, password: str | None = None) -> list[PdfPage]:
    """Every page's lines with headings marked and running lines stripped, and its tables."""
    labels, outline = _labels(reader), _outline(reader)
    texts, all_sizes, line_sizes = [], Counter[float](), {}
    line_pages = []
    for page in reader.pages:
        text, sizes, sized = _page_text(page)
        texts.append(text)
        all_sizes.update(sizes)
        line_sizes.update(sized)
        try:
            contents = page.get_contents()
            line_pages.append(bool(contents is not None and _DRAWS_LINES.search(contents.get_data())))
        except Exception:
            line_pages.append(False)
    tables = _tables(data, [i for i, draws in enumerate(line_pages) if draws], password)
    for index, (_, text) in tables.items():
        texts[index] = text
    levels = heading_levels(all_sizes)
    stripped = strip_running_lines([t.splitlines() for t in texts])
    # A page with no text of its own (running lines and page numbers aside) is a scan, or blank: OCR reads it.
    blank = [i for i, lines in enumerate(stripped) if not any(ln.strip() for ln in lines) and i not in tables]
    read = pdf_ocr.ocr_pages(data, blank, password) if blank and pdf_ocr.available() else {}
    for index, text in read.items():
        stripped[index] = text.splitlines()
    pages = []
    for index, lines in enumerate(stripped):
        marked = mark_headings(lines, line_sizes, levels, outline.get(index, []))
        pages.append(PdfPage(index + 1, labels[index], marked, tables.get(index, ([], ""))[0], index in read))
    return pages


def page_body(page: PdfPage) -> str:
    """A page's text: its lines (hyphenation joined, headings set apart as paragraphs) and then its tables."""
    parts: list[str] = []
    para: list[str] = []
    for line in page.lines:
        if line.startswith("#"):
            if para:
                parts.append(join_hyphenation("\n".join(para)))
                para = []
            parts.append(line)
        else:
            para.append(line)
    if para:
        parts.append(join_hyphenation("\n".join(para)))
    return "\n\n".join(p.strip() for p in parts + page.tables if p.strip())


def form_fields(reader: Any) -> list[str]:
    """Filled form fields as "name: value" lines (unchecked boxes and empty fields left out)."""
    try:
        fields = reader.get_fields() or {}
    except Exception:
        return []
    out = []
    for key, spec in fields.items():
        value = spec.get("/V") if hasattr(spec, "get") else None
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        text = " ".join(str(value or "").split()).lstrip("/") if value is not None else ""
        if text and text not in ("Off", "None"):
            label = " ".join(str(spec.get("/TU") or key).split())
            out.append(f"- {label}: {text}")
    return out


def comments(reader: Any) -> list[tuple[int, str]]:
    """Annotation comments (notes, highlights' notes, free text) as (0-based page, line)."""
    out = []
    for index, page in enumerate(reader.pages):
        try:
            annots = page.get("/Annots") or []
            for ref in annots:
                annot = ref.get_object()
                if annot.get("/Subtype") in ("/Link", "/Widget", "/Popup"):
                    continue
                body = " ".join(str(annot.get("/Contents") or "").split())
                if body:
                    author = " ".join(str(annot.get("/T") or "").split())
                    out.append((index, f"- {author + ': ' if author else ''}{body}"))
        except Exception:  # a damaged annotation array: that page's comments are left out
            continue
    return out


def render_pdf(reader: Any, data: bytes, password: str | None = None) -> tuple[str, list[tuple[int, int, dict[str, Any]]], list[int]]:
    """The whole text, each page's (start, end, {"page", "label"}) span in it, and the pages with no text."""
    text, spans, empty = "", [], []

    def add(block: str, page: PdfPage | None) -> None:
        nonlocal text
        if not block:
            return
        if text:
            text += "\n\n"
        start = len(text)
        text += block
        if page is not None:
            spans.append((start, len(text), {"page": page.number, "label": page.label, "ocr": page.ocr}))

    pages = read_pages(reader, data, password)
    for page in pages:
        body = page_body(page)
        if not any(line.strip() and not line.startswith("#") for line in page.lines) and not page.tables:
            empty.append(page.number)
        add(body, page)
    fields = form_fields(reader)
    if fields:
        add("# Form fields\n\n" + "\n".join(fields), None)
    notes = comments(reader)
    if notes:
        add("# Comments", None)
        for index, line in notes:
            add(line, pages[index])
    return text, spans, empty
