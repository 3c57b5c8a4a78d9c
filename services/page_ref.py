"""Where a passage sits in a paged document (a PDF): its pages in chunk metadata, and how they are shown.

A chunk of a PDF carries ``pages`` ([first, last] physical page numbers, 1-based) and, when the PDF
prints its own page labels (/PageLabels: "iv", "A-3"), ``page_labels`` ([first, last]). Every front
end shows the same words: "p. 18", "pp. 3–4", or the printed label with the physical page after it
when they differ, "p. iv (PDF p. 4)".
"""

from __future__ import annotations

from typing import Any


def chunk_pages(spans: list[tuple[int, int, Any]], start: int, end: int) -> dict[str, Any]:
    """Chunk metadata for the text ``[start, end)``: the pages whose spans it overlaps (none: {})."""
    hit = [tag for s, e, tag in spans if s < end and e > start]
    if not hit:
        return {}
    first, last = hit[0], hit[-1]
    out: dict[str, Any] = {"pages": [int(first["page"]), int(last["page"])]}
    if first.get("label") is not None and last.get("label") is not None:
        out["page_labels"] = [str(first["label"]), str(last["label"])]
    if any(tag.get("ocr") for tag in hit):
        out["ocr"] = True  # some of the text was read from a page image (a scan)
    return out


def page_ref(chunk_metadata: dict[str, Any] | None) -> str:
    """"p. 18", "pp. 3–4", "p. iv (PDF p. 4)"; "" for a chunk that has no pages (not from a PDF)."""
    pages = (chunk_metadata or {}).get("pages")
    if not isinstance(pages, list) or len(pages) != 2:
        return ""
    first, last = pages
    labels = (chunk_metadata or {}).get("page_labels")
    if isinstance(labels, list) and len(labels) == 2:
        shown = _span(*labels)
        if [str(first), str(last)] != labels:
            return f"{shown} (PDF {_span(str(first), str(last))})"
        return shown
    return _span(str(first), str(last))


def _span(first: str, last: str) -> str:
    return f"p. {first}" if first == last else f"pp. {first}–{last}"


def first_page(chunk_metadata: dict[str, Any] | None) -> int | None:
    """The physical page a chunk starts on (for opening or rendering it), or None."""
    pages = (chunk_metadata or {}).get("pages")
    return int(pages[0]) if isinstance(pages, list) and pages else None
