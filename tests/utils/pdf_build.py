"""PDFs built for tests with reportlab: each case of issue 30 (ligatures, outline, tables, forms...).

Text is set in Bitstream Vera (shipped inside reportlab), embedded with a ToUnicode map, so a
ligature glyph (U+FB01 ﬁ) comes back out of the PDF as that one character, as in real theses.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import reportlab
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

_FONTS = Path(reportlab.__file__).parent / "fonts"
pdfmetrics.registerFont(TTFont("Vera", str(_FONTS / "Vera.ttf")))
pdfmetrics.registerFont(TTFont("VeraBd", str(_FONTS / "VeraBd.ttf")))
WIDTH, HEIGHT = A4
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
         "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip.")


class Pdf:
    """A canvas with a cursor: ``line``/``heading`` write downwards, ``page`` starts the next page
    (with a running header and a page number at the bottom when ``running`` is set)."""

    def __init__(self, *, title: str | None = None, author: str | None = None, running: str | None = None) -> None:
        self.buf = io.BytesIO()
        self.c = canvas.Canvas(self.buf, pagesize=A4, pageCompression=1)
        if title is not None:
            self.c.setTitle(title)
        if author is not None:
            self.c.setAuthor(author)
        self.running = running
        self.number = 1
        self.y = HEIGHT - 90
        self._decorate()

    def _decorate(self) -> None:
        if self.running:
            self.c.setFont("Vera", 9)
            self.c.drawString(72, HEIGHT - 50, self.running)
            self.c.drawString(WIDTH / 2, 40, str(self.number))

    def line(self, text: str, size: float = 11, font: str = "Vera") -> Pdf:
        self.c.setFont(font, size)
        self.c.drawString(72, self.y, text)
        self.y -= size * 1.5
        return self

    def heading(self, text: str, size: float, *, outline_level: int | None = None) -> Pdf:
        if outline_level is not None:
            key = f"h{self.number}-{self.y}"
            self.c.bookmarkPage(key, fit="XYZ", top=self.y + size)
            self.c.addOutlineEntry(text, key, level=outline_level)
        self.y -= size * 0.5
        return self.line(text, size, "VeraBd")

    def paragraph(self, text: str, width: int = 80) -> Pdf:
        words, row = text.split(), ""
        for word in words:
            if len(row) + len(word) + 1 > width:
                self.line(row)
                row = word
            else:
                row = f"{row} {word}".strip()
        if row:
            self.line(row)
        self.y -= 6
        return self

    def page(self) -> Pdf:
        self.c.showPage()
        self.number += 1
        self.y = HEIGHT - 90
        self._decorate()
        return self

    def table(self, rows: list[list[str]], col: float = 130, row_h: float = 20) -> Pdf:
        top = self.y + 14
        self.c.setFont("Vera", 10)
        for i, row in enumerate(rows):
            for j, cell in enumerate(row):
                self.c.rect(72 + j * col, top - (i + 1) * row_h, col, row_h)
                self.c.drawString(76 + j * col, top - (i + 1) * row_h + 6, cell)
        self.y = top - len(rows) * row_h - 24
        return self

    def bytes(self) -> bytes:
        self.c.showPage()
        self.c.save()
        return self.buf.getvalue()


def with_page_labels(data: bytes, labels: list[tuple[int, dict[str, Any]]]) -> bytes:
    """``data`` with /PageLabels: (first page index, {"/S": "/r" or "/D", "/St": start}) ranges."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    nums = ArrayObject()
    for index, spec in labels:
        nums.append(NumberObject(index))
        entry = DictionaryObject()
        for key, value in spec.items():
            entry[NameObject(key)] = NameObject(value) if isinstance(value, str) else NumberObject(value)
        nums.append(entry)
    writer._root_object[NameObject("/PageLabels")] = DictionaryObject({NameObject("/Nums"): nums})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def encrypted(data: bytes, password: str) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def with_nul_title(data: bytes, title: str) -> bytes:
    """``data`` with an info /Title that ends in NUL, as some producers write it."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_metadata({"/Title": title + "\x00", "/Author": "Ada Example\x00"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def form_with_comments() -> bytes:
    """A one-page form with two filled text fields and a checked box, and two sticky-note comments."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Text

    pdf = Pdf(title="Field survey form")
    pdf.line("Field survey form", 16, "VeraBd").line("Fill in the observer and the site.")
    form = pdf.c.acroForm
    form.textfield(name="observer", tooltip="Observer", x=72, y=600, width=200, height=20, value="Marta Quist")
    form.textfield(name="site", tooltip="Site", x=72, y=560, width=200, height=20, value="Heron marsh north")
    form.checkbox(name="calibrated", tooltip="Calibrated", x=72, y=520, checked=True)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf.bytes())))
    writer.add_annotation(0, Text(text="Check the heron count against last spring", rect=(400, 700, 420, 720)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def text_image(lines: list[str], size: int = 44) -> Any:
    """A scanned page's picture: black text on white, as a PIL image (about 200 dpi for an A4 page)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1654, 2339), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(_FONTS / "Vera.ttf"), size)
    for i, line in enumerate(lines):
        draw.text((150, 200 + i * size * 2), line, font=font, fill=0)
    return image


def scanned(pages: list[list[str] | str]) -> bytes:
    """A PDF whose pages are text (a str) or, for a list of lines, only a picture of those lines (no text layer)."""
    from reportlab.lib.utils import ImageReader

    pdf = Pdf()
    for n, page in enumerate(pages):
        if n:
            pdf.page()
        if isinstance(page, str):
            pdf.paragraph(page)
        else:
            pdf.c.drawImage(ImageReader(text_image(page)), 0, 0, width=WIDTH, height=HEIGHT)
    return pdf.bytes()
