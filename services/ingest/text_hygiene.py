"""Text hygiene for every reader's output, before anything is chunked or written.

* Ligature glyphs (U+FB00–FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) become their letters (NFKC), so a keyword
  search for "Definition" finds "Deﬁnition".
* Control characters (C0 but tab, newline and carriage return; DEL; C1) and NUL are dropped, a
  form feed becomes a newline; the soft hyphen (U+00AD, invisible) is dropped too.
* :func:`join_hyphenation` (PDF text only: other formats have no line-end hyphens) joins a word
  split at a line end, "adip-\\niscing" → "adipiscing", and leaves a real compound ("Heine-\\nBorel",
  the part after the break capitalised) or a dash ("word -\\nnext") alone.

:func:`clean_text` also maps character spans (a Word diagram's, a PDF page's) onto the cleaned
text, so offsets recorded by a reader stay true. :func:`clean_value` cleans a title or a metadata
value the same way, collapsing its whitespace.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from typing import Any

_LIGATURES = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
_CONTROLS = "".join(chr(c) for c in (*range(0, 9), 11, *range(14, 32), 127, *range(0x80, 0xA0), 0xAD))
_FIX = re.compile("[" + re.escape("".join(_LIGATURES) + _CONTROLS + "\f") + "]")
MAX_DEPTH = 32
_HYPHENATED = re.compile(r"([^\W\d_])-[ \t]*\r?\n[ \t]*([^\W\d_]+)")


def _replacement(ch: str) -> str:
    if ch == "\f":
        return "\n"
    return _LIGATURES.get(ch, "")


def clean_text(text: str, spans: list[tuple[int, int, Any]] | None = None) -> tuple[str, list[tuple[int, int, Any]]]:
    """``text`` cleaned (see the module docstring), and ``spans`` ((start, end, tag)) moved onto it."""
    if not _FIX.search(text):
        return text, list(spans or [])
    out: list[str] = []
    old_marks, new_marks = [0], [0]  # offset pairs after each change, to move spans
    pos = new_len = 0
    for match in _FIX.finditer(text):
        kept = text[pos:match.start()]
        out.append(kept)
        new_len += len(kept)
        rep = _replacement(match.group())
        out.append(rep)
        new_len += len(rep)
        pos = match.end()
        old_marks.append(pos)
        new_marks.append(new_len)
    out.append(text[pos:])

    def moved(offset: int) -> int:
        i = bisect.bisect_right(old_marks, offset) - 1
        return min(new_marks[i] + (offset - old_marks[i]), new_marks[i + 1] if i + 1 < len(new_marks) else 1 << 62)

    return "".join(out), [(moved(s), moved(e), tag) for s, e, tag in spans or []]


def join_hyphenation(text: str) -> str:
    """Join words hyphenated at a line end when the part after the break starts in lower case.

    The two lines become one (line-based steps, running headers and headings, run before this).
    """
    def join(match: re.Match[str]) -> str:
        if not match.group(2)[0].islower():
            return match.group()
        return match.group(1) + match.group(2)

    return _HYPHENATED.sub(join, text)


def clean_value(value: Any, depth: int = 0) -> Any:
    """A title or metadata value without control characters or ligatures; lists and dicts cleaned inside
    (to ``MAX_DEPTH`` levels; deeper nesting is left for the schema check to refuse)."""
    if isinstance(value, str):
        return " ".join(clean_text(value)[0].split()) if _FIX.search(value) else value
    if depth >= MAX_DEPTH:
        return value
    if isinstance(value, list):
        return [clean_value(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {k: clean_value(v, depth + 1) for k, v in value.items()}
    return value
