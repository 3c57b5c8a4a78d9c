"""OCR for PDF pages that have no text layer (scans), offline.

A page is rendered with PDFium (pypdfium2, whose wheel bundles it) and read by Debian's Tesseract
(``tesseract-ocr``, run as a program: no Python binding, no model download; the Makefile installs it).
Measured on this machine (docs/benchmarks.md, "PDF"): Tesseract about 1 s a page against RapidOCR's
8–11 s, whose newer releases fetch their models at run time. Without the program the page is reported
as "no text (OCR unavailable)" and nothing else changes.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
import time

from services.ingest.budget import current_budget

RENDER_DPI = 250  # Tesseract reads body text best at 200-300 dpi; higher costs time for nothing
OCR_SECONDS = 60  # per page; a page that takes longer is left without text (and reported)
PREFERRED_LANGUAGES = ("eng", "deu", "fra", "spa", "ita")


@functools.cache
def tesseract() -> str | None:
    """The tesseract program, or None when it is not installed."""
    return shutil.which("tesseract")


@functools.cache
def languages() -> str:
    """The installed Tesseract languages we read with, as "eng+deu" (English alone when the list fails)."""
    program = tesseract()
    if program is None:
        return "eng"
    try:
        out = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=20, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return "eng"
    have = {line.strip() for line in out.splitlines()[1:]}
    return "+".join(lang for lang in PREFERRED_LANGUAGES if lang in have) or "eng"


def available() -> bool:
    return tesseract() is not None


def render_png(data: bytes, index: int, password: str | None = None, dpi: int = RENDER_DPI) -> bytes:
    """Page ``index`` (0-based) of the PDF as a PNG image, rendered by PDFium."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(data, password=password or None)
    try:
        image = doc[index].render(scale=dpi / 72, grayscale=True).to_pil()
    finally:
        doc.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def ocr_png(png: bytes) -> str:
    """The text Tesseract reads in an image ('' when it reads nothing or fails)."""
    program = tesseract()
    if program is None:
        return ""
    try:
        done = subprocess.run([program, "stdin", "stdout", "-l", languages(), "--psm", "3"], input=png,
                              capture_output=True, timeout=OCR_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.decode("utf-8", errors="replace").replace("\f", "").strip() if done.returncode == 0 else ""


def ocr_pages(data: bytes, indexes: list[int], password: str | None) -> dict[int, str]:
    """OCR text of the given pages (0-based) that gave any. Each page reports progress (done, total) to
    the parse budget, checks the job's Cancel, and adds its own time to the file's budget."""
    budget = current_budget()
    found = {}
    for done, index in enumerate(indexes, start=1):
        budget.check_cancel()
        started = time.monotonic()
        text = ocr_png(render_png(data, index, password))
        budget.extend(time.monotonic() - started)
        if text:
            found[index] = text
        if budget.progress is not None:
            budget.progress(done, len(indexes))
    return found
