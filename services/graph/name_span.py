"""A name found in a parsed text: its token offsets, its text and its type, and whether a text reads as a name
(read by services/graph/spans.py and the modules that repair, join and split names)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ENTITY = "ENTITY"  # a proper name NER gave no type


@dataclass
class NameSpan:
    start: int  # token offsets in the parsed doc
    end: int
    text: str
    label: str
    root: Any = None  # the span's syntactic head token

    def __contains__(self, i: int) -> bool:
        return self.start <= i < self.end


def is_name(text: str) -> bool:
    """A span reads as a name: a capitalised word of two letters or more, and no bare number or unit."""
    words = text.split()
    if not words or len(text) > 120:
        return False
    if any(re.fullmatch(r"[\d.,:/–-]+", w) for w in words) and not any(w[:1].isupper() and len(w) > 1 and
                                                                        w.isalpha() for w in words):
        return False
    if not any(w[:1].isupper() and sum(c.isalpha() for c in w) >= 2 for w in words):
        return False
    if re.match(r"^(c|ca|circa|fl|b|d)\.?\s*\d", text, re.I):  # "c. 1338", "b. 1950"
        return False
    if re.search(r"\b\d{1,2}:\d{2}\b", text):  # "22:00 KST": a time of day
        return False
    if re.search(r"\s(of|the|and|for)\s+\d+(st|nd|rd|th)?$", text):  # "Reception Committee of 16th" + "annual …"
        return False
    if re.fullmatch(r"(?i)(jr|sr|ii|iii|iv|v|vi)\.?", text):  # "III" of "Herbert Weston Scott Howell III"
        return False
    if re.fullmatch(r"(?i)[\d.,]+\s*(fm|am|mhz|khz|ghz|mw|kw)", text):  # "91.1 FM": a frequency
        return False
    return sum(c.isalpha() for c in text) >= 2  # "U.S." is a name; "C" of "°C" is not
