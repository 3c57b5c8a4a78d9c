"""When a fact holds: ``valid_from`` / ``valid_until`` from the temporal expression that governs its clause.

A date dates a fact only when the dependency parse attaches it to the fact's own verb (or to the copula of
"X was emperor from 98 to 117"): the first verb above the date must be the fact's anchor. So in "He was born
in 1510 and ruled Sweden from 1364 to 1389" the birth year dates the birth and the range dates the rule, and
a date inside parentheses ("Trajan (18 September 53 – 8 August 117)") dates no clause: it is a life span.

The preposition says which end the date is: "from", "since", "after" and "starting" open; "until", "till",
"to", "through" and "before" close ("from 1364 to 1389" gives both); "between X and Y" gives both; "in",
"on", "during" or a bare date give the start of a fact that happened then. A date expression that holds a
range itself ("1364–1389", "1364 to 1389") gives both ends. spaCy's NER finds the expression; its text is
read by :func:`services.graph.temporal.dated_text` (a full date, a month and year, or a year), and each end
keeps how precise its text was (``year``, ``month`` or ``day``), so that "in 1998" is shown as 1998, not as
the 1 January it is stored as.
A clause with no such expression gives an undated fact: neither the document's date nor the ingestion time is
a validity date (the document's date is kept apart, as ``stated_on``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from services.graph.temporal import YEAR, dated_text

OPENING = {"from", "since", "after", "starting", "beginning"}
CLOSING = {"until", "till", "til", "to", "through", "before", "thru"}
_RANGE = re.compile(r"^(.*?\d{3,4}.*?)\s*(?:–|—|-|to|until|till|and|through)\s*(.*?\d{3,4}.*)$")
_OPEN_RANGE = re.compile(r"^(.*?[A-Za-z].*?)\s+(?:–|—|-|to|until|till|through)\s+(.*?(\d{3,4})\D*)$")
_LOOSE = {"after", "before"}  # a bound of a time the text leaves open, when it names an event and not a date
_INNER = {"in", "on", "at", "during", "of"}  # a date's own preposition inside an event that "from"/"until" takes
_OPEN_PAIR = re.compile(r"^(.*?[A-Za-z].*?)\s+and\s+(.*?(\d{3,4})\D*)$")
_YEARISH = re.compile(r"^\d{3,4}$")
_RELATIVE = re.compile(r"\b(today|yesterday|tomorrow|now|recent|last|next|ago|this|current|later|earlier|age)\b", re.I)


@dataclass(frozen=True)
class Span:
    valid_from: str | None = None
    valid_until: str | None = None
    from_precision: str | None = None  # year, month or day: how much of valid_from the text gave
    until_precision: str | None = None

    def __bool__(self) -> bool:
        return bool(self.valid_from or self.valid_until)


def _governor(token: Any) -> tuple[Any | None, str | None, bool]:
    """(first verb above ``token``, the preposition on the way, whether a "between" or "from" led there)."""
    prep: str | None = None
    opened = False
    node = token
    steps = 0
    while node.head.i != node.i and steps < 12:
        node = node.head
        steps += 1
        if node.pos_ == "ADP" or node.dep_ in ("prep", "agent"):
            word = node.lower_
            if word == "to" and node.head.lower_ in ("prior", "up"):  # "prior to 1925", "up to 1925" close
                word = "before"
            if prep is None:
                prep = word
            elif word in OPENING | CLOSING and prep in _INNER:  # "until his retirement in May 2016": until
                prep = word
            elif word in ("from", "between"):
                opened = True
        if node.pos_ in ("VERB", "AUX"):
            return node, prep, opened
        if node.pos_ in ("NOUN", "PROPN") and prep is None and not (
                node.dep_ == "pobj" and node.head.lower_ in (OPENING | CLOSING | {"between"}) - _LOOSE):
            return None, None, False  # "a 1975 film": the date qualifies a noun; not "from the 1990 election"
            # ("After the 2012 series of "The Thick of It", he has produced …": some time after that series)
        if node.pos_ == "NOUN" and node.dep_ == "appos" and prep is not None and not opened \
                and prep not in OPENING | CLOSING | {"between", "to"}:
            return None, None, False  # "the New York Giants, the league's champion for the 1938 season": the date
            # is the appositive's, and dates no fact of the name it describes
        if node.pos_ in ("NOUN", "PROPN") and prep in _INNER and node.dep_ in ("conj", "appos") and not opened:
            return None, None, False  # 'including "Stuart Little" in 1945, "Charlotte's Web" in 1952': each
            # member's own date, which dates no fact of the list
    return (node if node.pos_ in ("VERB", "AUX") else None), prep, opened


def _inside_parentheses(span: Any) -> bool:
    sent = span.sent
    depth = 0
    for tok in sent:
        if tok.i >= span.start:
            break
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth = max(0, depth - 1)
    return depth > 0


def _date_spans(sent: Any) -> list[Any]:
    """The sentence's temporal expressions: DATE entities, and bare years after "from"/"to"/"since"/"until"."""
    found = [e for e in sent.ents if e.label_ == "DATE"]
    taken = {t.i for e in found for t in e}
    for tok in sent:
        if tok.i in taken or not _YEARISH.match(tok.text) or tok.dep_ != "pobj":
            continue
        if tok.head.lower_ in OPENING | CLOSING | {"between", "in"} and int(tok.text) >= 100:
            found.append(sent.doc[tok.i : tok.i + 1])
    return _ranges_joined(sorted(found, key=lambda e: e.start))


def _ranges_joined(spans: list[Any]) -> list[Any]:
    """Two dates the tagger split over "to" are one range, with the day it left between them: "from 25 September
    to 16 October 2009" is tagged "25 September" and "October 2009"."""
    out: list[Any] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.end < span.start:
            between = [t.lower_ for t in span.doc[prev.end:span.start]]
            if between[0] in ("to", "until", "till", "through", "-", "–", "—") \
                    and all(re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", w) for w in between[1:]):
                out[-1] = span.doc[prev.start:span.end]
                continue
        out.append(span)
    return out


Dated = tuple[str, str]  # (ISO date, precision)


def _ends(text: str) -> tuple[Dated | None, Dated | None]:
    if _RELATIVE.search(text):
        return None, None
    between = text.strip().lower().startswith("between ")
    text = re.sub(r"^(from|between|since)\s+", "", text.strip(), flags=re.I)
    m = _RANGE.match(text)
    if m:
        first, second = _read(m.group(1)), _read(m.group(2))
        if first and second and first[0] <= second[0]:
            if re.search(r"\bseason$", text, re.I):
                return first, None  # "began play in the 1982-1983 season as the Detroit Spirits": one season, in
                # which the fact began; its years are no span of the fact
            return first, second
    m = _OPEN_RANGE.match(text) or (_OPEN_PAIR.match(text) if between else None)  # "between January and August
    # 2008": the year is said once (not "June and July 2014" alone, two months of something)
    if m and not re.search(r"\d{3,4}", m.group(1)):  # "June 23 to August 12, 2014": the year is said once
        first, second = _read(f"{m.group(1)}, {m.group(3)}"), _read(m.group(2))
        if first and second and first <= second:
            return first, second
    return _read(text), None


def _read(text: str) -> Dated | None:
    """A date expression as an ISO date and its precision; a bare year of three or four digits ("117",
    "1389") as its 1 January, a year."""
    m = re.fullmatch(r"\s*(?:AD\s+)?(\d{3,4})\s*(?:AD|CE)?\s*", text)
    if m:
        return f"{int(m.group(1)):04d}-01-01", YEAR
    return dated_text(text)


def _with_day(span: Any) -> str:
    """The expression with the day the tagger left out: "the 26th of" + "October, 1846"."""
    doc = span.doc
    if span.start >= 2 and doc[span.start - 1].lower_ == "of" and re.fullmatch(r"\d{1,2}(st|nd|rd|th|d)?",
                                                                               doc[span.start - 2].lower_):
        return f"{doc[span.start - 2].text} of {span.text}"
    if span.start >= 2 and len(span) > 1 and doc[span.start - 1].lower_ in ("and", "&") \
            and re.fullmatch(r"\d{1,2}", doc[span.start - 2].text) and re.fullmatch(r"\d{1,2}", span[0].text):
        return " ".join([doc[span.start - 2].text, *(t.text for t in span[1:])])  # "on 23 and" + "24 May 2012": the 23rd
    return str(span.text)


def _governed(sent: Any, anchors: set[int]) -> list[tuple[Any, str | None, bool]]:
    """The sentence's date expressions that the fact's anchors govern, with their preposition and whether a
    "from" or "between" led to them."""
    out = []
    for span in _date_spans(sent):
        if _inside_parentheses(span):
            continue
        if span.start >= 2 and span.doc[span.start - 1].lower_ in ("of", "at") \
                and span.doc[span.start - 2].lower_ == "as":
            continue  # "As of 2013, the Texans have sent 20 players": when it was said, not when it began
        verb, prep, opened = _governor(span.root)
        if verb is not None and verb.i in anchors:
            out.append((span, prep, opened))
    return out


_LINKS = {"from", "since", "until", "till", "to", "through", "and", "between", "in", "on", "during", "after",
          "before", "-", "–", "—", '"', "'", "”", "’", ")", "("}


def _joined(doc: Any, first: int, last: int) -> bool:
    """Nothing but prepositions and quotation marks between tokens ``first`` and ``last`` (exclusive)."""
    return all(doc[i].lower_ in _LINKS for i in range(first, last))


def _own_dates(governed: list[tuple[Any, str | None, bool]], obj: tuple[int, int],
               names: list[tuple[int, int]]) -> list[tuple[Any, str | None, bool]]:
    """Of the dates one verb governs, the run of them set right beside the fact's object. In "the head coach at
    Boston University from 1985 to 1987 and Hartwick College from 1992 to 2001" each college has its own years,
    and in "released on November 10, 1998 in North America, and February 4, 1999 in Europe" each region its day.
    All of them when they are one run ("from October 5 until November 10", "from 1895 until his retirement in
    1928": no name between the runs), or when none is beside the object."""
    runs: list[list[tuple[Any, str | None, bool]]] = []
    for g in sorted((g for g in governed if _ends(_with_day(g[0]))[0] is not None), key=lambda g: g[0].start):
        if runs and _joined(g[0].doc, runs[-1][-1][0].end, g[0].start):
            runs[-1].append(g)
        else:
            runs.append([g])
    if len(runs) < 2 or not any(runs[0][-1][0].end <= a and b <= runs[-1][0][0].start for a, b in names):
        return governed
    start, end = obj
    after = next((r for r in runs if r[0][0].start >= end and _joined(r[0][0].doc, end, r[0][0].start)), None)
    before = next((r for r in runs if r[-1][0].end <= start and _joined(r[0][0].doc, r[-1][0].end, start)), None)
    return after or before or governed


def _date_beside(sent: Any, governed: list[tuple[Any, str | None, bool]],
                 obj: tuple[int, int]) -> list[tuple[Any, str | None, bool]] | None:
    """The date set right before the fact's object, where the parser hung it on the name before and the verb
    governs only another's: "aired on December 7, 2006 in the United States and November 29, 2007 in the United
    Kingdom" (the second date, a conjunct of "States" in the parse, is the United Kingdom's)."""
    doc = sent.doc
    if any(g[0].end <= obj[0] and all(t.lower_ in _LINKS | {"the", "a", "an"} for t in doc[g[0].end:obj[0]])
           for g in governed):
        return None
    beside = [s for s in _date_spans(sent) if s.end <= obj[0] and 0 < obj[0] - s.end <= 2
              and all(t.lower_ in {"in", "on", "at", "the"} for t in doc[s.end:obj[0]])]
    return [(beside[-1], None, False)] if beside else None


def _qualified(span: Any) -> Any | None:
    """The noun a date is a word of ("the 1998 and 1999 Winston Cup seasons", "the 2005 FIFA U-17 World
    Championship"), or None when the date is no noun's modifier."""
    root = span.root
    while root.dep_ == "conj" and root.head.i < root.i:  # "the 1998 and 1999 … seasons"
        root = root.head
    return root.head if root.dep_ in ("nummod", "compound", "amod", "nmod") else None


def _describes(span: Any, obj: tuple[int, int]) -> bool:
    """Whether the date only says which of a noun the fact's object is among: in "features race car drivers from the
    1998 and 1999 Winston Cup seasons like Kyle Petty" the years qualify the seasons Petty is named under, and date
    nothing the game does."""
    noun = _qualified(span)
    return noun is not None and noun.pos_ == "NOUN" and any(a.i == noun.i for a in span.doc[obj[0]].ancestors)


def _of_another_name(span: Any, obj: tuple[int, int], names: list[tuple[int, int]]) -> bool:
    """Whether the date is the year of another name than the fact's object: in "supplied four players to the 2005
    FIFA U-17 World Championship and five players to the 2007 FIFA U-20 World Cup" 2005 is the championship's, and
    dates nothing of the cup."""
    noun = _qualified(span)
    return noun is not None and not obj[0] <= noun.i < obj[1] and any(a <= noun.i < b for a, b in names
                                                                      if (a, b) != obj)


def _gapped_after(doc: Any, span: Any, obj: tuple[int, int]) -> bool:
    """Whether the date opens a later conjunct whose verb the text left out, after the fact's object: "received
    the Brown-Hudson Folklore Award from the North Carolina Folklore Society, and in 2014, the North Carolina
    Heritage Award" (2014 is the second award's, not the first's)."""
    if span.start < obj[1]:
        return False
    start = span.start - 1 if span.start > 0 and doc[span.start - 1].pos_ == "ADP" else span.start
    return start >= 2 and doc[start - 1].lower_ == "and" and doc[start - 2].text == "," \
        and span.end + 1 < len(doc) and doc[span.end].text == "," and doc[span.end + 1].pos_ in ("DET", "PROPN", "NOUN")


def clause_dates(sent: Any, anchors: set[int], obj: tuple[int, int] | None = None,
                 names: list[tuple[int, int]] | None = None) -> Span:
    """The validity span of a fact anchored on the tokens ``anchors`` (its verb, or its copula and noun). With the
    token spans of the fact's object and of the sentence's names, a verb that governs dates for several objects
    gives the fact its object's."""
    start: Dated | None = None
    until: Dated | None = None
    points = 0  # more than one moment of one verb: each dates another member of a list
    governed = _governed(sent, anchors)
    if obj is not None:
        governed = [g for g in governed if not _gapped_after(sent.doc, g[0], obj) and not _describes(g[0], obj)
                    and not _of_another_name(g[0], obj, names or [])]
    if obj is not None and governed:
        governed = _date_beside(sent, governed, obj) or governed
    if obj is not None and len(governed) > 1:
        governed = _own_dates(governed, obj, names or [])
    for span, prep, opened in governed:
        first, second = _ends(_with_day(span))
        if first is None:
            continue
        if second:  # a range in one expression
            start, until = start or first, until or second
        elif prep in CLOSING and (prep != "to" or opened):
            until = until or first
        elif prep == "between" or (span.root.dep_ == "conj" and opened):
            if start is None:
                start = first
            else:
                until = until or first
        else:  # from, since, in, on, during, a bare date
            if prep not in OPENING and start is not None and start != first and not opened:
                points += 1
            start = start or first
    if start and until and until[0] < start[0]:
        until = None
    if points and until is None:
        start = None  # 'wrote books, including "Stuart Little" in 1945, "Charlotte's Web" in 1952': no one date
    return Span(start[0] if start else None, until[0] if until else None,
                start[1] if start else None, until[1] if until else None)
