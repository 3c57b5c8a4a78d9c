"""Hierarchical chunking: headings, then paragraphs, then sentences.

Chunks are exact slices of the document text (``text[char_start:char_end]``),
about ``size`` characters long, with about ``overlap`` characters of trailing
sentences repeated at the start of the next chunk in the same section. A new
heading always starts a new chunk, and each chunk records its heading path.

Headings are Markdown ``#`` lines outside fenced code blocks: the readers write
the document's own headings that way (HTML ``h1``–``h6``, Word heading styles)
and put code in fences, so a ``# comment`` in code never becomes a heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from services.documents import Chunk

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$", re.MULTILINE)
_PARA_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?;])[\"')\]]*\s+")


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    new_paragraph: bool


def _fenced_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every fenced code block; one left open runs to the end of the text (as in CommonMark)."""
    spans = []
    opening: re.Match[str] | None = None
    for match in _FENCE.finditer(text):
        fence = match.group(1)
        if opening is None:
            if not (fence[0] == "`" and "`" in match.group(2)):  # a backtick fence's info string has no backtick
                opening = match
        elif fence[0] == opening.group(1)[0] and len(fence) >= len(opening.group(1)) and not match.group(2).strip():
            spans.append((opening.start(), match.end()))
            opening = None
    if opening is not None:
        spans.append((opening.start(), len(text)))
    return spans


def _headings(text: str) -> list[re.Match[str]]:
    """The heading lines that are not inside a fenced code block."""
    spans = _fenced_spans(text)
    found, i = [], 0
    for match in _HEADING.finditer(text):
        while i < len(spans) and spans[i][1] <= match.start():
            i += 1
        if i < len(spans) and spans[i][0] <= match.start():
            continue
        found.append(match)
    return found


def _sections(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """Split into (start, end, heading_path) sections at heading lines."""
    sections = []
    path: list[tuple[int, str]] = []
    pos = 0
    for match in _headings(text):
        if match.start() > pos:
            sections.append((pos, match.start(), tuple(t for _, t in path)))
        level, title = len(match.group(1)), match.group(2).strip()
        path = [(lvl, t) for lvl, t in path if lvl < level] + [(level, title)]
        pos = match.start()  # the heading line belongs to its own section
    sections.append((pos, len(text), tuple(t for _, t in path)))
    return sections


def _hard_split(start: int, end: int, size: int, text: str) -> list[tuple[int, int]]:
    """Split an over-long sentence at whitespace near ``size``, or hard at ``size``."""
    out = []
    while end - start > size:
        cut = text.rfind(" ", start + size // 2, start + size)
        cut = cut + 1 if cut > start else start + size
        out.append((start, cut))
        start = cut
    out.append((start, end))
    return out


def _units(text: str, start: int, end: int, size: int) -> list[_Unit]:
    """Sentences (or pieces of over-long sentences) of one section, with paragraph starts marked."""
    units: list[_Unit] = []
    para_start = start
    breaks = [m for m in _PARA_BREAK.finditer(text, start, end)]
    bounds = [(para_start, breaks[0].start() if breaks else end)]
    for i, m in enumerate(breaks):
        bounds.append((m.end(), breaks[i + 1].start() if i + 1 < len(breaks) else end))
    for p_start, p_end in bounds:
        first = True
        s_start = p_start
        pieces = [m.end() for m in _SENTENCE_END.finditer(text, p_start, p_end)] + [p_end]
        for s_end in pieces:
            seg = text[s_start:s_end]
            if seg.strip():
                lead = len(seg) - len(seg.lstrip())
                trail = len(seg) - len(seg.rstrip())
                for a, b in _hard_split(s_start + lead, s_end - trail, size, text):
                    units.append(_Unit(a, b, first))
                    first = False
            s_start = s_end
    return units


def chunk_text(text: str, *, size: int = 1000, overlap: int = 200) -> list[Chunk]:
    """Chunk ``text``; see the module docstring for the rules."""
    if overlap >= size:
        raise ValueError("overlap must be smaller than size")
    chunks: list[Chunk] = []
    for sec_start, sec_end, path in _sections(text):
        units = _units(text, sec_start, sec_end, size)
        i = 0
        while i < len(units):
            j = i + 1
            while j < len(units) and units[j].end - units[i].start <= size:
                # Prefer to end at a paragraph boundary once the chunk is reasonably full.
                if units[j].new_paragraph and units[j - 1].end - units[i].start >= 0.6 * size:
                    next_para_end = j
                    while next_para_end + 1 < len(units) and not units[next_para_end + 1].new_paragraph:
                        next_para_end += 1
                    if units[next_para_end].end - units[i].start > size:
                        break
                j += 1
            start, end = units[i].start, units[j - 1].end
            chunks.append(Chunk(len(chunks), text[start:end], start, end, path))
            if j >= len(units):
                break
            # Overlap: step back over trailing sentences that fit in ``overlap``.
            k = j
            while k - 1 > i and end - units[k - 1].start <= overlap:
                k -= 1
            i = k
    return chunks
