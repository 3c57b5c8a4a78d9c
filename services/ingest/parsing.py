"""Turn uploaded or on-disk files into plain text with Markdown-style headings.

Every parser returns :class:`ParsedText`; anything unreadable raises
:class:`UnsupportedInput` with a reason a person can act on. Headings are kept
as ``#`` lines so the chunker can record heading paths.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from pathlib import Path

from services.errors import UnsupportedInput
from services.ingest.html_text import html_to_markdown

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".docx", ".pdf")


@dataclass
class ParsedText:
    text: str
    title_hint: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


def decode_text(data: bytes, name: str) -> str:
    """Decode bytes as text, refusing binaries; tries UTF-8 (and BOMs) first, then detection."""
    if not data.strip():
        raise UnsupportedInput("the file is empty.", file=name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise UnsupportedInput("invalid UTF-16 text.", file=name) from None
        if not text.strip():
            raise UnsupportedInput("the file has no text.", file=name)
        return text
    head = data[:8192]
    if b"\x00" in head:
        raise UnsupportedInput("looks like a binary file (it contains NUL bytes), not text.", file=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = _mostly_utf8(data) or _detected(data, name)
    if not text.strip():
        raise UnsupportedInput("the file has no text.", file=name)
    controls = sum(1 for ch in text[:8192] if ord(ch) < 32 and ch not in "\t\n\r\f")
    if controls > 0.05 * min(len(text), 8192):
        raise UnsupportedInput("looks like a binary file (too many control characters), not text.", file=name)
    if text.count("\ufffd") > 0.05 * len(text):
        raise UnsupportedInput("the text is mostly undecodable bytes.", file=name)
    return text


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    """Decode bytes that are not UTF-8 as Windows-1252 (Latin-1 where it has no character)."""
    assert isinstance(err, UnicodeDecodeError)  # registered for decoding only
    bad = err.object[err.start : err.end]
    return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in bad), err.end


codecs.register_error("rag-cp1252-fallback", _cp1252_fallback)


def _mostly_utf8(data: bytes) -> str | None:
    """Text that is UTF-8 with some stray single-byte (Latin-1/cp1252) characters, as files pasted together are.

    Used when valid multi-byte UTF-8 characters outnumber the bytes that are not
    UTF-8; each stray byte is read as cp1252, so both parts come out right. Text in
    other encodings (Latin-1 alone, GBK, Shift-JIS...) rarely passes this test and
    goes to detection instead.
    """
    body = data[3:] if data.startswith(codecs.BOM_UTF8) else data
    replaced = body.decode("utf-8", errors="replace")
    invalid = replaced.count("\ufffd")
    multibyte = sum(1 for ch in replaced if ord(ch) > 0x7F) - invalid
    if multibyte == 0 or invalid > multibyte:
        return None
    return body.decode("utf-8", errors="rag-cp1252-fallback")


def _detected(data: bytes, name: str) -> str:
    from charset_normalizer import from_bytes

    best = from_bytes(data[:1_000_000]).best()
    if best is None or best.encoding is None:
        raise UnsupportedInput("not valid text in any encoding we could detect.", file=name)
    return data.decode(best.encoding, errors="replace")


def parse_docx(data: bytes, name: str) -> ParsedText:
    """Everything Word shows, in reading order: the body (headings as #, lists, tables, diagrams), then
    headers, footers, footnotes, endnotes and comments, each under a ``# <label>`` heading.

    A damaged secondary part is skipped (``extra["warnings"]`` says which); the file is refused only
    when the main document cannot be read, or when nothing anywhere in it has text.
    """
    from services.ingest.docx_reader import read_docx, render

    content = read_docx(data, name)
    text, spans = render(content)
    if not text.strip():
        raise UnsupportedInput("the Word document has no text (none in its body, headers, footers, notes or "
                               "comments).", file=name)
    diagrams = [b.diagram for b in content.blocks if b.kind == "diagram"]
    title = content.title or next((b.text for b in content.blocks if b.kind == "title"), None)
    return ParsedText(text=text, title_hint=title, extra={"diagrams": diagrams, "diagram_spans": spans,
                                                          "warnings": content.warnings})


def parse_pdf(data: bytes, name: str, password: str | None = None) -> ParsedText:
    """A PDF's text with headings, tables, form fields and comments, and each page's span
    (:mod:`services.ingest.pdf_reader`). An encrypted PDF opens with ``password`` (or with none when
    only owner restrictions are set); the password is used here and kept nowhere."""
    from pypdf.errors import LimitReachedError

    from services.ingest import pdf_ocr
    from services.ingest.budget import ParseCancelled
    from services.ingest.pdf_reader import meaningful, open_pdf, render_pdf

    try:
        reader = open_pdf(data, name, password)
        text, spans, empty = render_pdf(reader, data, password)
        info = reader.metadata or {}
        title, author = meaningful(info.get("/Title")), meaningful(info.get("/Author"))
    except (UnsupportedInput, ParseCancelled):
        raise
    except LimitReachedError:
        raise UnsupportedInput(
            "refused, a compressed stream would expand past pypdf's decompression limit (a PDF bomb?).", file=name) from None
    except Exception as exc:  # pypdf raises many types on corrupt input
        raise UnsupportedInput(
            f"the PDF could not be read; it is corrupt or truncated ({exc.__class__.__name__}).", file=name) from None
    ocr = pdf_ocr.available()
    if not text.strip():
        raise UnsupportedInput("the PDF has no extractable text on any page (a scan?) and OCR "
                               + ("found none either." if ocr else "is unavailable (install tesseract-ocr)."), file=name)
    extra: dict[str, object] = {"pages": len(reader.pages), "page_spans": spans, "pages_without_text": empty,
                                "ocr_available": ocr, "ocr_pages": [t["page"] for _, _, t in spans if t.get("ocr")]}
    if author:
        extra["author"] = author
    return ParsedText(text=text, title_hint=title, extra=extra)


def html_to_text(html: str, name: str = "page") -> ParsedText:
    """A web page's main content as Markdown (see :mod:`services.ingest.html_text`), titled by its ``<title>``.

    Uploaded ``.html`` files and crawled pages both come through here, so one page gives one text.
    """
    text, title = html_to_markdown(html, name)
    return ParsedText(text=text, title_hint=title)


def parse_bytes(data: bytes, name: str, *, max_bytes: int, password: str | None = None) -> ParsedText:
    """Parse a file's bytes by its suffix. Raises :class:`UnsupportedInput` on anything unreadable."""
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedInput(
            f"unsupported file type {suffix or '(none)'}; supported: {', '.join(SUPPORTED_SUFFIXES)}.", file=name)
    if len(data) > max_bytes:
        raise UnsupportedInput(
            f"{len(data) / 1_048_576:.1f} MB is over the {max_bytes / 1_048_576:.0f} MB limit (max_file_bytes).", file=name)
    if not data:
        raise UnsupportedInput("the file is empty.", file=name)
    if suffix == ".docx":
        return parse_docx(data, name)
    if suffix == ".pdf":
        return parse_pdf(data, name, password)
    text = decode_text(data, name)
    if suffix in (".html", ".htm"):
        return html_to_text(text, name)
    return ParsedText(text=text)


def read_file(path: Path, *, max_bytes: int, password: str | None = None) -> ParsedText:
    """Read and parse a file from disk, checking its size before reading it."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UnsupportedInput(f"cannot be read ({exc.strerror}).", file=path.name) from None
    if size > max_bytes:
        raise UnsupportedInput(
            f"{size / 1_048_576:.1f} MB is over the {max_bytes / 1_048_576:.0f} MB limit (max_file_bytes).", file=path.name)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnsupportedInput(f"cannot be read ({exc.strerror}).", file=path.name) from None
    return parse_bytes(data, path.name, max_bytes=max_bytes, password=password)
