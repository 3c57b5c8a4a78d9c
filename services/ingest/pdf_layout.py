"""Page-level structure of PDF text: running headers and footers, headings, tables as Markdown.

Pure functions over lines of text (no PDF library here), used by :mod:`services.ingest.pdf_reader`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

EDGE_LINES = 2  # lines looked at, at the top and at the bottom of each page, for running headers/footers
_PAGE_NUMBER = re.compile(r"^[\s\-–—|]*(?:(?:page|seite|p\.)\s*)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:of|von|/)\s*\d{1,4})?"
                          r"[\s\-–—|]*$", re.IGNORECASE)
MAX_HEADING_CHARS = 120
HEADING_RATIO = 1.15  # a size this much above the body size is a heading size
MAX_HEADING_LEVELS = 3


def norm(line: str) -> str:
    """A line's identity for comparisons: no whitespace, lower case."""
    return "".join(line.split()).lower()


def _shape(line: str) -> str:
    """A running line's identity across pages: digits (its page number) do not count."""
    return re.sub(r"\d+", "#", norm(line))


def strip_running_lines(pages: list[list[str]]) -> list[list[str]]:
    """Each page's lines without running headers/footers and bare page numbers at the top or bottom.

    A running line is one whose shape (digits aside) recurs at the top or the bottom of at least
    half the pages (and of three or more); a bare number ("12", "- 12 -", "Page 3 of 9", "iv") at
    the top or bottom of a page is a page number.
    """
    counts: Counter[str] = Counter()
    for lines in pages:
        counts.update({_shape(line) for line in _edges(lines)})
    need = max(3, (len(pages) + 1) // 2)
    running = {shape for shape, n in counts.items() if n >= need and shape}
    out = []
    for lines in pages:
        keep = list(lines)
        for _ in range(EDGE_LINES):
            while keep and (_shape(keep[0]) in running or _PAGE_NUMBER.match(keep[0]) or not keep[0].strip()):
                keep.pop(0)
            while keep and (_shape(keep[-1]) in running or _PAGE_NUMBER.match(keep[-1]) or not keep[-1].strip()):
                keep.pop()
        out.append(keep)
    return out


def _edges(lines: list[str]) -> Iterable[str]:
    filled = [line for line in lines if line.strip()]
    return filled[:EDGE_LINES] + filled[-EDGE_LINES:]


def heading_levels(size_chars: Counter[float]) -> dict[float, int]:
    """Heading level per font size: the body size is the one most characters have; the larger sizes,
    largest first, are levels 1, 2, 3 (a size used by very few characters still counts: headings are short)."""
    if not size_chars:
        return {}
    body = size_chars.most_common(1)[0][0]
    larger = sorted((s for s in size_chars if s >= body * HEADING_RATIO), reverse=True)
    return {size: level for level, size in enumerate(larger[:MAX_HEADING_LEVELS], start=1)}


def is_heading_text(line: str) -> bool:
    text = line.strip()
    return 0 < len(text) <= MAX_HEADING_CHARS and not text.endswith((".", ",", ";")) and any(c.isalpha() for c in text)


def mark_headings(lines: list[str], line_sizes: dict[str, float], levels: dict[float, int],
                  outline: list[tuple[int, str]]) -> list[str]:
    """``lines`` with heading lines written as Markdown ``#`` lines.

    With an outline (``(level, title)`` entries pointing at this page), a line that is an entry's
    title becomes a heading of its level, and an entry found on no line is put at the page's top;
    without one, a line set in a heading size (``line_sizes``: a line's size by :func:`norm`) is.
    """
    out = list(lines)
    if outline:
        wanted = {norm(title): (level, title) for level, title in outline}
        found = set()
        for i, line in enumerate(out):
            key = norm(line)
            if key in wanted and key not in found:
                level, title = wanted[key]
                out[i] = f"{'#' * min(level, 6)} {' '.join(title.split())}"
                found.add(key)
        missing = [f"{'#' * min(level, 6)} {' '.join(title.split())}" for level, title in outline
                   if norm(title) not in found]
        return missing + out
    for i, line in enumerate(out):
        size_level = levels.get(line_sizes.get(norm(line), 0.0))
        if size_level and is_heading_text(line):
            out[i] = f"{'#' * size_level} {' '.join(line.split())}"
    return out


def markdown_table(rows: list[list[str | None]]) -> str:
    """A table's rows as a Markdown table; the first row is the header. Empty rows and columns go."""
    cells = [[" ".join((c or "").split()).replace("|", "\\|") for c in row] for row in rows]
    cells = [row for row in cells if any(row)]
    if not cells:
        return ""
    width = max(len(row) for row in cells)
    cells = [row + [""] * (width - len(row)) for row in cells]
    used = [j for j in range(width) if any(row[j] for row in cells)]
    cells = [[row[j] for j in used] for row in cells]
    lines = ["| " + " | ".join(cells[0]) + " |", "| " + " | ".join("---" for _ in used) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in cells[1:]]
    return "\n".join(lines)
