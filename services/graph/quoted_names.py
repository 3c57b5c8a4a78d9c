"""Names in quotation marks: a quoted title is one name, and a name inside a longer quoted phrase (a nickname, a
description) relates nothing. Read by services/graph/spans.py."""

from __future__ import annotations

import re
from typing import Any

from services.graph.classes import CLASS_TYPES
from services.graph.name_span import NameSpan, is_name


def _pairs(doc: Any) -> list[tuple[int, int]]:
    """(opening, closing) quotation marks within one sentence: a closing mark pairs with the last opening one of its
    sentence ("“" always opens)."""
    out: list[tuple[int, int]] = []
    opening: int | None = None
    text = doc.text  # (built anew on each access)
    marks = [t for t in doc if t.text in ('"', "“", "”")] if any(q in text for q in '"“”') else []
    for tok in marks:
        if opening is None or tok.text == "“" or tok.sent.start != doc[opening].sent.start:
            opening = tok.i
            continue
        out.append((opening, tok.i))
        opening = None
    return out


def quoted_stretches(doc: Any) -> list[tuple[int, int]]:
    """(opening, closing) quotation marks within one sentence, at most 20 tokens apart."""
    return [(o, c) for o, c in _pairs(doc) if c - o <= 20]


def inside_quotes(doc: Any, span: NameSpan, opening: int, closing: int) -> bool:
    """A name inside a quoted phrase that is more than the name: a nickname or a description ('nicknamed "West
    Point on the Rio Grande"', 'his sobriquet "the modern Pre-Raphaelite"'), whose words relate nothing."""
    if not (opening < span.start and span.end <= closing):
        return False
    before = [t for t in doc[opening + 1:span.start] if not (t.is_punct or t.lower_ in ("the", "a", "an"))]
    after = [t for t in doc[span.end:closing] if not t.is_punct]
    return bool(before or after)


def quoted_titles(doc: Any) -> list[NameSpan]:
    """A title in quotation marks is one name, a work's ("Union of Lublin", "Late Night with Conan O'Brien"; the
    tagger calls the first an organisation): short (at most 12 words), in title case (its words of four letters
    or more capitalised), with no sentence inside. Elsewhere the same name is typed by its mentions as usual."""
    out: list[NameSpan] = []
    for opening, closing in _pairs(doc):
        start, end = opening + 1, closing
        while end > start and doc[end - 1].is_punct and not (doc[end - 1].text == ")" and "(" in doc[start:end].text):
            end -= 1  # a title's own closing bracket stays: "You Don't Love Me (No, No, No)"
        words = [t for t in doc[start:end] if not t.is_punct]
        long_words = [t for t in words if t.is_alpha and len(t) >= 4]
        numbered = doc[start].text[:1].isdigit() and doc[start].text[-1:].isalpha() and end - start > 1 \
            and doc[start + 1].text[:1].isupper()  # '"5o Vima"', '"2nd Law"'
        if not words or len(words) > 12 or not (doc[start].text[:1].isupper() or numbered) or \
                any(not t.text[:1].isupper() and not t.is_stop for t in long_words) or \
                any(t.text in ".!?;" for t in doc[start:end]):  # "Throw Momma from the Train": "from" is small
            continue
        text = " ".join(doc[start:end].text.split())
        if not is_name(text):
            continue
        chart = _chart_end(doc, closing + 1) if end - start == 1 else None
        if chart is not None:  # 'on the "Billboard" 200', '"Billboard" Hot 100': the chart, not the magazine
            text = " ".join([text, *(t.text for t in doc[closing + 1:chart])])
            end = chart
        before = doc[start - 2] if start >= 2 else None  # the word before the opening quotation mark
        named = CLASS_TYPES.get(before.lower_) if before is not None and before.pos_ == "NOUN" else None
        label = named if named and named not in ("WORK_OF_ART", "PRODUCT", "EVENT", "LAW") else "WORK_OF_ART"
        out.append(NameSpan(start, end, text, label, doc[start:end].root))  # 'the space duo "Future Folk"': a band
    return out


def _chart_end(doc: Any, i: int) -> int | None:
    """Where a chart's number ends after a quoted magazine's name: up to two capitalised words, then a number of
    at most three digits ('"Billboard" 200', '"Billboard" Hot 100'); None when no number follows."""
    j = i
    while j < len(doc) and j - i < 2 and doc[j].is_alpha and doc[j].text[:1].isupper():
        j += 1
    if j >= len(doc) or not re.fullmatch(r"[1-9]\d{0,2}", doc[j].text) \
            or (j + 1 < len(doc) and doc[j + 1].tag_ == "NNS"):  # not '"Billboard" 5 times'
        return None
    return j + 1
