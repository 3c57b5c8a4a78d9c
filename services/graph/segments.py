"""A long document cut into pieces spaCy can take one at a time, at a paragraph, else a sentence, else a space.

spaCy's memory grows with the text it holds at once (16 segments of 50,000 characters peaked at 3.3 GB),
and a Cancel is seen between segments, so one segment must parse in well under 2 s even on a busy machine:
5,000 characters take about 0.2 s of CPU (10,000: 0.44 s), and no more per character than longer segments.

A cut never falls inside a word or, where the text allows, inside a sentence: a segment that began
"he Republic of Mexico," made a name of the fragment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

SEGMENT_CHARS = 5_000
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")


def segments(text: str) -> Iterator[tuple[int, str]]:
    """``(offset, text)`` pieces of at most ``SEGMENT_CHARS`` characters that cover ``text`` in order."""
    start = 0
    while start < len(text):
        end = min(len(text), start + SEGMENT_CHARS)
        if end < len(text):
            end = _cut(text, start + SEGMENT_CHARS // 2, end) or end
        yield start, text[start:end]
        start = end


def _cut(text: str, low: int, high: int) -> int | None:
    """The best place to end a segment within ``[low, high)``: after a paragraph break, a sentence, a space."""
    cut = text.rfind("\n\n", low, high)
    if cut > low:
        return cut
    ends = [m.end() for m in _SENTENCE_END.finditer(text, low, high)]
    if ends:
        return ends[-1]
    space = max(text.rfind(" ", low, high), text.rfind("\n", low, high))
    return space + 1 if space > low else None
