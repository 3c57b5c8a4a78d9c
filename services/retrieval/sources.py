"""Who said a sentence and when, from its document's metadata; and who a sentence merely quotes.

A source is named by its metadata ("James K. Polk, 1846"): the first field whose name says it holds a person
(speaker, president, author…) and the first that holds a date or year; the title stands in for what is
missing. A person the sentence names beside a verb of saying ("as President Van Buren said") or inside
quotation marks is quoted: the source's speaker, not that person, is who said the sentence.
"""

from __future__ import annotations

import re
from typing import Any

PERSON_FIELDS = ("speaker", "president", "author", "person", "creator", "writer", "presenter", "narrator", "sender",
                 "by", "from", "artist")
DATE_FIELDS = ("year", "date", "published", "created", "issued", "when", "day")
_SAID = re.compile(r"\b(?:said|says|say|declared|declares|wrote|writes|stated|states|remarked|observed|asked|told|"
                   r"warned|proclaimed|announced|urged|argued|insisted|added|put it|words of|according to)\b", re.I)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def _field(metadata: dict[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        for key, value in metadata.items():
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip() and \
                    (key.lower() == name or key.lower().endswith("_" + name) or key.lower().startswith(name + "_")):
                return str(value).strip()
    return None


def speaker(metadata: dict[str, Any]) -> str | None:
    """The person a document's metadata says it is by, or None."""
    value = _field(metadata, PERSON_FIELDS)
    return value if value and not value.isdigit() else None


def when(metadata: dict[str, Any]) -> str | None:
    """The document's year (or date) from its metadata, or None."""
    value = _field(metadata, DATE_FIELDS)
    if value is None:
        return None
    year = _YEAR.search(value)
    return year.group(1) if year else value


def label(metadata: dict[str, Any], title: str) -> str:
    """How an answer names a sentence's source: "Speaker, year", else the parts it has beside the title."""
    who, date = speaker(metadata), when(metadata)
    if who and date:
        return f"{who}, {date}"
    if who:
        return who
    return f"{title}, {date}" if date and date not in title else title


def quoted_people(sentence: str, people: list[tuple[int, int, str]]) -> list[str]:
    """Of the people a sentence names (start, end, name), those it quotes: beside a verb of saying (within a
    few words either side) or inside quotation marks."""
    quoted_spans = [(m.start(), m.end()) for m in re.finditer(r"[\"“][^\"”]{3,}[\"”]", sentence)]
    out = []
    for start, end, name in people:
        window = sentence[max(0, start - 30): end + 30]
        inside = any(a <= start and end <= b for a, b in quoted_spans)
        if inside or _SAID.search(window):
            out.append(name)
    return list(dict.fromkeys(out))


def same_person(a: str, b: str) -> bool:
    """Whether two names are one person's: one's last word is in the other ("Polk", "James K. Polk")."""
    wa, wb = a.lower().replace(".", " ").split(), b.lower().replace(".", " ").split()
    return bool(wa and wb) and (wa[-1] in wb or wb[-1] in wa)
