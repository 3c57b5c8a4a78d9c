"""What a reader gives beside the text, made ready for the chunks: the text cleaned with its character
spans moved (:func:`tidy`), each chunk's diagrams and pages (:func:`chunk_metadata`), and what the item
should say about a PDF's pages without text (:func:`blank_pages_note`)."""

from __future__ import annotations

from typing import Any

from services.documents import Chunk
from services.ingest.parsing import ParsedText
from services.ingest.text_hygiene import clean_text, clean_value
from services.page_ref import chunk_pages

SPAN_KEYS = ("diagram_spans", "page_spans")  # reader offsets into the text: (start, end, tag)


def link_diagrams(extra: dict[str, Any], chunks: list[Chunk]) -> tuple[list[Any], list[dict[str, Any]]]:
    """Tag the chunks that overlap text linked to a diagram with the diagram's index.

    The indexes become diagram ids (``dgm-<document id>-<index>``) when the document
    is written and its id is known (see ``write_document``).
    """
    diagrams = list(extra.get("diagrams") or [])
    known = {d.index for d in diagrams}
    meta: list[dict[str, Any]] = []
    for chunk in chunks:
        found = [n for s, e, n in extra.get("diagram_spans") or []
                 if n in known and s < chunk.char_end and e > chunk.char_start]
        meta.append({"diagram_indexes": list(dict.fromkeys(found))} if found else {})
    return diagrams, meta


def tidy(parsed: ParsedText) -> ParsedText:
    """The reader's text and title cleaned (:mod:`services.ingest.text_hygiene`), its char spans moved to match."""
    extra = dict(parsed.extra)
    spans = [(s, e, (key, tag)) for key in SPAN_KEYS for s, e, tag in extra.get(key) or []]  # type: ignore[attr-defined]
    text, moved = clean_text(parsed.text, spans)
    for key in SPAN_KEYS:
        if key in extra:
            extra[key] = [(s, e, tag) for s, e, (k, tag) in moved if k == key]
    return ParsedText(text=text, title_hint=clean_value(parsed.title_hint) or None, extra=extra)


def blank_pages_note(extra: dict[str, Any]) -> str:
    """What a PDF's pages without a text layer gave: "pages 2, 7: no text (OCR unavailable)", "page 3: read by
    OCR". Such pages are said on the item, never dropped silently."""
    def pages(numbers: list[int]) -> str:
        return f"{'page' if len(numbers) == 1 else 'pages'} {', '.join(str(p) for p in numbers)}"

    notes = []
    read = sorted(set(extra.get("ocr_pages") or []))
    if read:
        notes.append(f"{pages(read)}: read by OCR")
    blank = extra.get("pages_without_text") or []
    if blank:
        notes.append(f"{pages(blank)}: no text ({'OCR found none' if extra.get('ocr_available') else 'OCR unavailable'})")
    return "; ".join(notes)


def chunk_metadata(extra: dict[str, Any], chunks: list[Chunk]) -> tuple[list[Any], list[dict[str, Any]]]:
    """The document's diagrams, and per chunk its diagram indexes and its pages (a PDF's)."""
    diagrams, meta = link_diagrams(extra, chunks)
    spans = list(extra.get("page_spans") or [])
    return diagrams, [{**m, **chunk_pages(spans, c.char_start, c.char_end)} for m, c in zip(meta, chunks)]
