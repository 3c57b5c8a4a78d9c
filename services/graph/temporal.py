"""Temporal rules for facts: reading a stated date, a document's own date, and which facts supersede which.

Pure functions, no store access. Dates are ISO strings (``YYYY-MM-DD``) so that
they compare correctly as strings in both Cypher engines. A date read from a year alone ("in 1998") is stored
as its 1 January, and from a month and year as its first day; its **precision** (``year``, ``month`` or
``day``) is stored beside it (``valid_from_precision``, ``valid_until_precision``, ``stated_on_precision``),
so that it is shown as the text gave it (:func:`shown_date`: "1998", "1998-03", "1998-01-01"). A fact
written before the precision was stored has none: its 1 January reads as the year, as before.

A fact's ``valid_from`` / ``valid_until`` come from its clause (services/graph/dating.py); a document's own
date is its facts' ``stated_on``. Supersession applies to *single-valued* relations. Each has a key side: for
``ceo_of`` the company has one CEO at a time (keyed by the object), for
``located_in`` a thing is in one place (keyed by the subject). Among the facts
with the same relation and key entity, ordered by ``valid_from``, each fact is
superseded by the next one that names a different entity on the other side;
its ``valid_until`` is that fact's ``valid_from``. History is never deleted.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

# relation -> which side identifies "the slot" that holds one value at a time (labels of the vocabulary,
# services/graph/vocabulary.py)
SINGLE_VALUED: dict[str, str] = {
    "ceo_of": "object", "president_of": "object", "prime_minister_of": "object", "king_of": "object",
    "secretary_of": "object", "capital_of": "object",
    "located_in": "subject", "headquartered_in": "subject", "lives_in": "subject", "based_in": "subject",
    "owned_by": "subject",
}
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2}|21[0-9]{2})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?=$|[^0-9])")
_MONTHS = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
           r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
_ORDINAL = r"(?:st|nd|rd|th|d)?"  # "the 2d of September, 1789" in older English
_WRITTEN_DATE = re.compile(rf"\b{_MONTHS}\.? \d{{1,2}}{_ORDINAL},? \d{{4}}\b|"
                           rf"\b\d{{1,2}}{_ORDINAL} (?:of )?{_MONTHS}\.?,? \d{{4}}\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTHS}\.?,? (\d{{4}})\b")
# Two days of one month: the first is the start ("on 23 and 24 May 2012", "May 23–24, 2012")
_DAY_PAIR = re.compile(rf"\b(\d{{1,2}}{_ORDINAL})\s*(?:and|or|to|–|-)\s*\d{{1,2}}{_ORDINAL}\b(?=\s+{_MONTHS}|,?\s+\d{{4}})")


YEAR, MONTH, DAY = "year", "month", "day"


def date_from_text(text: str) -> str | None:
    """An ISO date stated in ``text`` (a full date, or a year as its 1 January), else None."""
    found = dated_text(text)
    return found[0] if found else None


def dated_text(text: str) -> tuple[str, str] | None:
    """The first date stated in ``text`` as (ISO date, precision): a full date is a day, "March 1998" a month
    (its first day), a year alone a year (its 1 January); None without one."""
    iso = _ISO.search(text)
    if iso:
        try:
            return dt.date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))).isoformat(), DAY
        except ValueError:
            pass
    text = _DAY_PAIR.sub(r"\1", text)
    written = _WRITTEN_DATE.search(text)
    month = None if written else _MONTH_YEAR.search(text)
    if written or month:  # parse only the matched date, so other numbers in the sentence cannot leak in
        from dateutil import parser as dateparser

        matched = (written or month).group(0)  # type: ignore[union-attr]
        plain = re.sub(r"(\d)(?:st|nd|rd|th|d)\b", r"\1", matched).replace(" of ", " ")
        try:
            return dateparser.parse(plain, default=dt.datetime(1, 1, 1)).date().isoformat(), DAY if written else MONTH
        except (ValueError, OverflowError):
            pass
    year = _YEAR.search(text)
    return (f"{year.group(1)}-01-01", YEAR) if year else None


def shown_date(iso: str | None, precision: str | None) -> str | None:
    """A stored date as the text gave it: "1998" for a year, "1998-03" for a month, the ISO date for a day.
    Without a precision (a fact stored before it was kept) a 1 January reads as its year, as it used to."""
    if not iso or len(iso) != 10:
        return iso
    if precision == YEAR or (precision is None and iso.endswith("-01-01")):
        return iso[:4]
    return iso[:7] if precision == MONTH else iso


def dated_document(metadata: dict[str, Any]) -> tuple[str, str] | None:
    """The document's own date from its metadata, with its precision: ``date`` (ISO; a day, or the year of an
    impossible date) or ``year`` (a year)."""
    for key in ("date", "published", "published_at"):
        value = metadata.get(key)
        if isinstance(value, str) and _ISO.search(value):
            return dated_text(value)
    year = metadata.get("year")
    if isinstance(year, bool):
        return None
    if isinstance(year, int) or (isinstance(year, str) and year.isdigit()):
        y = int(year)
        if 1 <= y <= 9999:
            return f"{y:04d}-01-01", YEAR
    return None


@dataclass(frozen=True)
class ChainFact:
    id: str
    valid_from: str
    other: str  # the key of the entity on the non-key side


def resolve_chain(facts: list[ChainFact]) -> list[tuple[str, str | None, str]]:
    """For facts sharing a relation and key entity: (fact id, valid_until, status) for each."""
    ordered = sorted(facts, key=lambda f: (f.valid_from, f.id))
    out = []
    for i, fact in enumerate(ordered):
        until = None
        for later in ordered[i + 1 :]:
            if later.valid_from > fact.valid_from and later.other != fact.other:
                until = later.valid_from
                break
        out.append((fact.id, until, "superseded" if until else "current"))
    return out
