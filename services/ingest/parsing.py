"""Turn uploaded or on-disk files into plain text with Markdown-style headings.

Every parser returns :class:`ParsedText`; anything unreadable raises
:class:`UnsupportedInput` with a reason a person can act on. Headings are kept
as ``#`` lines so the chunker can record heading paths.
"""

from __future__ import annotations

import codecs
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from services.errors import UnsupportedInput
from services.ingest.html_text import html_to_markdown

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".docx", ".pdf")
_ZIP_MAX_UNCOMPRESSED = 200 * 1024 * 1024
_ZIP_MAX_RATIO = 200


@dataclass
class ParsedText:
    text: str
    title_hint: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


def decode_text(data: bytes, name: str) -> str:
    """Decode bytes as text, refusing binaries; tries UTF-8 (and BOMs) first, then detection."""
    if not data.strip():
        raise UnsupportedInput(f"{name}: the file is empty.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise UnsupportedInput(f"{name}: invalid UTF-16 text.") from None
        if not text.strip():
            raise UnsupportedInput(f"{name}: the file has no text.")
        return text
    head = data[:8192]
    if b"\x00" in head:
        raise UnsupportedInput(f"{name}: looks like a binary file (it contains NUL bytes), not text.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = _mostly_utf8(data) or _detected(data, name)
    if not text.strip():
        raise UnsupportedInput(f"{name}: the file has no text.")
    controls = sum(1 for ch in text[:8192] if ord(ch) < 32 and ch not in "\t\n\r\f")
    if controls > 0.05 * min(len(text), 8192):
        raise UnsupportedInput(f"{name}: looks like a binary file (too many control characters), not text.")
    if text.count("\ufffd") > 0.05 * len(text):
        raise UnsupportedInput(f"{name}: the text is mostly undecodable bytes.")
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
        raise UnsupportedInput(f"{name}: not valid text in any encoding we could detect.")
    return data.decode(best.encoding, errors="replace")


def _check_zip(data: bytes, name: str) -> None:
    if not data:
        raise UnsupportedInput(f"{name}: the file is empty.")
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise UnsupportedInput(
            f"{name}: this is an OLE file, not a .docx: it is encrypted (password-protected) or an old .doc."
        )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
    except zipfile.BadZipFile:
        raise UnsupportedInput(f"{name}: not a valid .docx (the file is corrupt, truncated or not a Word file).") from None
    total = sum(i.file_size for i in infos)
    if total > _ZIP_MAX_UNCOMPRESSED or total > _ZIP_MAX_RATIO * max(len(data), 1) + 10_000_000:
        raise UnsupportedInput(
            f"{name}: refused, it would expand to {total // (1024 * 1024)} MB (a zip bomb or an absurdly large file)."
        )
    if not any(i.filename == "word/document.xml" for i in infos):
        raise UnsupportedInput(f"{name}: not a Word document (no word/document.xml inside).")


def parse_docx(data: bytes, name: str) -> ParsedText:
    """Paragraphs (headings as #), lists and tables in document order."""
    _check_zip(data, name)
    import docx

    from services.ingest.docx_reader import read_blocks, render

    try:
        document = docx.Document(io.BytesIO(data))
        blocks = read_blocks(document)
    except Exception as exc:  # python-docx and lxml raise KeyError, XMLSyntaxError, ValueError...
        raise UnsupportedInput(f"{name}: the Word document could not be read ({exc.__class__.__name__}).") from None
    text, spans = render(blocks)
    if not text.strip():
        raise UnsupportedInput(f"{name}: the Word document has no text.")
    diagrams = [b.diagram for b in blocks if b.kind == "diagram"]
    title = document.core_properties.title or next((b.text for b in blocks if b.kind == "title"), None)
    return ParsedText(text=text, title_hint=title, extra={"diagrams": diagrams, "diagram_spans": spans})


def parse_pdf(data: bytes, name: str) -> ParsedText:
    """Text of every page. A PDF encrypted with an empty user password (owner restrictions only) is opened."""
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError

    if not data.startswith(b"%PDF"):
        raise UnsupportedInput(f"{name}: not a PDF file (no %PDF header).")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnsupportedInput(f"{name}: the PDF is encrypted with a password; remove it and try again.")
        pages = [(page.extract_text() or "").strip() for page in reader.pages]
    except UnsupportedInput:
        raise
    except LimitReachedError:
        raise UnsupportedInput(
            f"{name}: refused, a compressed stream would expand past pypdf's decompression limit (a PDF bomb?)."
        ) from None
    except Exception as exc:  # pypdf raises many types on corrupt input
        raise UnsupportedInput(
            f"{name}: the PDF could not be read; it is corrupt or truncated ({exc.__class__.__name__})."
        ) from None
    text = "\n\n".join(p for p in pages if p)
    if not text.strip():
        raise UnsupportedInput(f"{name}: the PDF has no extractable text (is it a scan?).")
    title = (reader.metadata.title if reader.metadata else None) or None
    return ParsedText(text=text, title_hint=title, extra={"pages": len(pages)})


def html_to_text(html: str, name: str = "page") -> ParsedText:
    """A web page's main content as Markdown (see :mod:`services.ingest.html_text`), titled by its ``<title>``.

    Uploaded ``.html`` files and crawled pages both come through here, so one page gives one text.
    """
    text, title = html_to_markdown(html, name)
    return ParsedText(text=text, title_hint=title)


def parse_bytes(data: bytes, name: str, *, max_bytes: int) -> ParsedText:
    """Parse a file's bytes by its suffix. Raises :class:`UnsupportedInput` on anything unreadable."""
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedInput(
            f"{name}: unsupported file type {suffix or '(none)'}; supported: {', '.join(SUPPORTED_SUFFIXES)}."
        )
    if len(data) > max_bytes:
        raise UnsupportedInput(
            f"{name}: {len(data) / 1_048_576:.1f} MB is over the {max_bytes / 1_048_576:.0f} MB limit (max_file_bytes)."
        )
    if not data:
        raise UnsupportedInput(f"{name}: the file is empty.")
    if suffix == ".docx":
        return parse_docx(data, name)
    if suffix == ".pdf":
        return parse_pdf(data, name)
    text = decode_text(data, name)
    if suffix in (".html", ".htm"):
        return html_to_text(text, name)
    return ParsedText(text=text)


def read_file(path: Path, *, max_bytes: int) -> ParsedText:
    """Read and parse a file from disk, checking its size before reading it."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UnsupportedInput(f"{path.name}: cannot be read ({exc.strerror}).") from None
    if size > max_bytes:
        raise UnsupportedInput(
            f"{path.name}: {size / 1_048_576:.1f} MB is over the {max_bytes / 1_048_576:.0f} MB limit (max_file_bytes)."
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnsupportedInput(f"{path.name}: cannot be read ({exc.strerror}).") from None
    return parse_bytes(data, path.name, max_bytes=max_bytes)
