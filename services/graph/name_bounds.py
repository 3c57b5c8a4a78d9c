"""Where a name begins and ends in the parse: the tagger's span widened over the proper nouns of the same name
and cut of a leading article and a trailing possessive, a proper-noun chain the tagger missed, and the words a
person's name ends before. Read by services/graph/spans.py."""

from __future__ import annotations

import re
from typing import Any

from services.graph.classes import CLASS_TYPES, head_label
from services.graph.entities import entity_key
from services.graph.gazetteer import is_demonym, region_names
from services.graph.name_words import (
    _DEMONYM,
    _NUMBERED,
    _OFFICES,
    _POSTNOMINALS,
    _RANKS,
    _TITLES,
    common_words,
    given_names,
)

_CODED = re.compile(r"[A-Z][A-Za-z]?-\d{1,3}")  # an age class or a model: "FIFA U-20 World Cup", "the F-16"
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")  # letters, with an apostrophe inside ("Wai’anae", "O'Neill")


# Institutions every country has: alone, the name is generic ("Parliament" of the UK, of India, of Uganda)
_INSTITUTIONS = {"parliament", "government", "senate", "congress", "assembly", "cabinet", "legislature", "army",
                 "navy", "church", "crown", "council", "judiciary", "police", "republic", "kingdom", "bank", "peerage",
                 "baronetage"}
# A division of a place, named with the place after "of" ("the Royal Borough of Kensington & Chelsea")
_DIVISIONS = {"borough", "district", "county", "province", "region", "municipality", "principality", "duchy",
              "diocese", "archdiocese", "prefecture", "canton", "governorate", "oblast", "emirate", "shire", "territory"}
_GATHERINGS = {"festival", "championship", "championships", "games", "olympiad", "exhibition", "expo", "fair",
               "congress", "conference", "summit", "biennale", "carnival"}
# Classes named by a Roman numeral after them ("Grade I", "Division II", "Part III")
_NUMBERED_CLASSES = {"grade", "class", "division", "category", "part", "phase", "tier", "book", "volume", "series"}
_ROMAN = re.compile(r"(?:X{0,2})(?:IX|IV|V?I{1,3}|V|X)\*?")
_NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}


def institution_end(doc: Any, start: int, end: int) -> int:
    """Where "Parliament" + "of the United Kingdom" ends: a country's institution is named with the country."""
    if end - start == 1 and end + 1 < len(doc) and doc[start].lower_ in _INSTITUTIONS and doc[end].lower_ == "of":
        return next((e.end for e in doc.ents if e.start in (end + 1, end + 2) and e.label_ == "GPE"), end)
    return end


PEERAGES = {"baron", "baroness", "earl", "duke", "duchess", "viscount", "viscountess", "marquess", "marquis", "count",
            "countess", "baronet", "lord", "lady"}
ORDINAL = re.compile(r"\d+(st|nd|rd|th)")


def _category_end(doc: Any, i: int) -> int:
    """Where an award category's capitalised words end ("Actress in a Continuing Leading Dramatic Role")."""
    end = i
    while i < len(doc) and (doc[i].text[:1].isupper() or doc[i].lower_ in ("in", "a", "an", "the", "of", "or", "and")):
        if doc[i].text[:1].isupper():
            end = i + 1
        i += 1
    return end


def office_body(doc: Any, start: int, end: int) -> bool:
    """A bare institution in a member's office ("Member of Parliament", "a member of Parliament for Eddisbury"): the
    office's generic body, no named thing (the parliament of which country the text does not say there)."""
    return end - start == 1 and doc[start].lower_ in _INSTITUTIONS and start >= 2 and doc[start - 1].lower_ == "of" \
        and doc[start - 2].lower_ in ("member", "members") and institution_end(doc, start, end) == end


def _ruler_after(doc: Any, i: int, label: str) -> bool:
    """A person's given name and regnal number after a place's "of": "the Australian state of South Australia of
    Elizabeth II, Queen of Australia" names the state and its queen, not one place."""
    return label in ("GPE", "LOC") and i + 1 < len(doc) and doc[i].text.lower() in given_names() \
        and bool(_ROMAN.fullmatch(doc[i + 1].text))


def numbered(doc: Any, start: int, end: int) -> bool:
    """Whether the number after a name is the name's: a model's letters and number ("the HD 21", "Heinkel HD 32"),
    a capitalised number word ("Formula One", "Air Force One"); not a count of what follows ("the NFL 10 teams")."""
    if end >= len(doc) or end == start or doc[end].head.i not in range(start, end + 1):
        return False
    tok, last = doc[end], doc[end - 1]
    if re.fullmatch(r"[A-Z]{2,4}", last.text) and re.fullmatch(r"\d{1,3}[A-Z]?", tok.text) and last.whitespace_:
        return True
    return tok.lower_ in _NUMBER_WORDS and tok.text[:1].isupper() and is_propn(last) and not tok.is_sent_start


def _joined(doc: Any, first: int, last: int) -> bool:
    """Whether tokens first..last read "Capital-word-Capital" with no space: a place joined by a short lower-case
    word ("Jupille-sur-Meuse", "Stratford-upon-Avon", "Newcastle-under-Lyme")."""
    a, dash1, word, dash2, b = (doc[i] for i in range(first, last + 1))
    return dash1.text == dash2.text == "-" and not any(t.whitespace_ for t in (a, dash1, word, dash2)) \
        and a.text[:1].isupper() and a.is_alpha and word.is_lower and word.is_alpha and len(word) <= 5 \
        and b.text[:1].isupper() and b.is_alpha


def is_propn(tok: Any) -> bool:
    return bool(tok.pos_ == "PROPN" and tok.text[:1].isupper() and (tok.is_alpha or _WORD.fullmatch(tok.text)
                                                                    or _CODED.fullmatch(tok.text)))


def plural_class(tok: Any) -> bool:
    """A sentence's first word, a plural common noun in capitals: "Regulars Sid James, Kenneth Williams and …"."""
    return bool(tok.is_sent_start and tok.lower_.endswith("s") and tok.lower_[:-1] in common_words())


def plural_heading(doc: Any, start: int, end: int) -> bool:
    """A sentence's first words, all common ones in capitals, ending in a plural: "New Main Cast Members from
    Episode One include …", "Other Acting Credits include …": a heading's words, no name."""
    words = doc[start:end]
    opens = doc[start].is_sent_start or (start > 0 and doc[start - 1].is_sent_start and doc[start - 1].lower_
                                         in common_words())  # "Other Acting Credits"
    return bool(end - start > 1 and opens and all(t.lower_ in common_words() for t in words[:-1])
                and doc[end - 1].lower_.endswith("s") and doc[end - 1].lower_[:-1] in common_words())


def repair(doc: Any, start: int, end: int, label: str = "") -> tuple[int, int]:
    """Widen a span over the proper nouns of the same name, cut a leading article and a trailing possessive."""
    sent_start = doc[start].sent.start
    while start > sent_start and is_propn(doc[start - 1]) and doc[start - 1].head.i in range(start, end + 1) \
            and not doc[start - 1].ent_type_ and doc[start - 1].lower_ not in _TITLES and not plural_class(doc[start - 1]):
        start -= 1  # "States House" is part of "United States House…"; "CEO" of "Apple CEO Tim Cook" is not
    while end < len(doc):
        tok = doc[end]
        if is_propn(tok) and not tok.ent_type_ and tok.lower_ not in _TITLES and (tok.head.i in range(start, end)
                                                                                 or doc[end - 1].head.i == tok.i):
            end += 1
        elif tok.lower_ in ("of", "the", "de", "of the") and end + 1 < len(doc) and doc[end - 1].lower_ in ("of", "the") \
                and is_propn(doc[end + 1]):
            end += 1
        elif doc[end - 1].lower_ in ("of", "the", "and", "de") and is_propn(tok):
            # a whole name after the joint, not its first word: "the Five Families of" + "New York"
            end = next((e.end for e in doc.ents if e.start == end), end + 1) if tok.ent_iob_ == "B" else end + 1
        elif label == "GPE" and tok.lower_ in ("state", "province") and doc[end - 1].head.i == end \
                and not any(c.dep_ == "prep" for c in tok.children) and tok.i + 1 < len(doc) \
                and doc[tok.i + 1].lower_ != "of" and entity_key(doc[start:end].text) not in region_names():
            end += 1  # "a part of Bombay state": the state named after its city, no city
            break
        elif tok.text == "!" and not doc[end - 1].whitespace_ and label != "PERSON" \
                and (k := next((j for j in range(end + 1, min(end + 3, len(doc))) if not doc[j].is_space), 0)) \
                and doc[k].sent.start == doc[start].sent.start and is_propn(doc[k]):
            # "a subsidiary of Yum!  Brands, Inc.": an exclamation inside a sentence is the name's
            end = next((e.end for e in doc.ents if e.start == k), k + 1) if doc[k].ent_iob_ == "B" else k + 1
        elif doc[end - 1].text == "&" and tok.text[:1].isupper() and tok.is_alpha and label != "PERSON":
            end += 1  # "Give & Get", the tagger stopping at the ampersand
        elif tok.text == "&" and end + 1 < len(doc) and doc[end + 1].text[:1].isupper() and doc[end + 1].is_alpha \
                and label != "PERSON":
            end += 2  # "Marks & Spencer"
        elif tok.lower_ in ("of", "de") and label != "PERSON" and end + 1 < len(doc) and is_propn(doc[end + 1]) \
                and doc[end + 1].ent_iob_ != "B" and tok.head.i in range(start, end) \
                and not _ruler_after(doc, end + 1, label):
            end += 1  # "United States House" + "of Representatives"; not "Smith of Boston" (a person)
        elif tok.lower_ == "of" and label in ("WORK_OF_ART", "ORG") and end + 1 < len(doc) \
                and doc[end + 1].ent_iob_ == "B" and doc[end + 1].ent_type_ in ("NORP", "ORG", "WORK_OF_ART"):
            # "the Encyclopaedia of New Wave" + "of British Heavy Metal": the tagger's two bodies over "of" are one
            end = next(e.end for e in doc.ents if e.start == end + 1)
        elif institution_end(doc, start, end) > end:
            end = institution_end(doc, start, end)
        elif tok.lower_ == "of" and label != "PERSON" and end + 1 < len(doc) and doc[end + 1].ent_iob_ == "B" and (
                (doc[end - 1].lower_ in _DIVISIONS and doc[end + 1].ent_type_ in ("GPE", "LOC", "ORG", "FAC"))
                or (doc[end - 1].lower_ in _GATHERINGS and doc[end + 1].ent_type_ in ("GPE", "LOC"))):
            # "the Royal Borough" + "of Kensington & Chelsea" (tagged a body): a division is named with its place;
            # "the 30th International Film Festival" + "of India": a festival with its country
            end = next(e.end for e in doc.ents if e.start == end + 1)
        elif doc[end - 1].lower_ in _NUMBERED_CLASSES and _ROMAN.fullmatch(tok.text) and (
                end - start <= 2 or (doc[end - 1].is_upper and end + 1 < len(doc) and doc[end + 1].pos_ not in ("VERB", "AUX"))):
            end += 1  # "a Grade I listed building", "NCAA Division II": the numeral is the class's name; "the
            # Notepad Productions VOLUME I album", in capitals (not "… Volume I think": a pronoun)
            break
        elif doc[end - 1].lower_ in ("best", "outstanding") and tok.is_alpha and tok.text[:1].isupper():
            end += 1  # "the Oscar for Best" + "Animated Feature": an award's category is in its name
        elif tok.lower_ == "by" and any(t.lower_ in ("best", "outstanding") for t in doc[start:end]) \
                and end + 2 < len(doc) and doc[end + 1].lower_ in ("a", "an") and doc[end + 2].text[:1].isupper():
            end = _category_end(doc, end + 2)  # "… for Best Performance" + "by an Actress in a Leading Role"
        elif doc[end - 1].lower_ in _NUMBERED and (tok.like_num or re.fullmatch(r"[A-Z]?\d+[A-Z]?", tok.text)) \
                and not re.fullmatch(r"1\d{3}|20\d{2}", tok.text):
            end += 1  # "Hawaii Route" + "750", "Flight 93", "Interstate 95"; not "… Route 1999" (a year)
            break
        elif numbered(doc, start, end):
            end += 1
            break
        else:
            break
    if end < len(doc) and doc[end - 1].lower_ == "act" and re.fullmatch(r"1[6-9]\d\d|20\d\d", doc[end].text):
        end += 1  # "the Education Reform Act 1988": a British act's year is in its name
    if label == "PERSON" and end + 1 < len(doc) and doc[end].text == "," and doc[end + 1].lower_.rstrip(".") in ("jr", "sr"):
        end += 2  # "Lon Chaney, Jr." is not his father
    elif label == "PERSON" and end < len(doc) and doc[end].lower_.rstrip(".") in ("jr", "sr"):
        end += 1
    elif label == "PERSON" and end + 1 < len(doc) and doc[end].text in ("I", "II", "III", "IV") \
            and doc[end + 1].lower_ in ("of", ",", ")", "and", "."):
        end += 1  # "Ahmed Shah I of Gujarat Sultanate": a regnal number is in the name (not "… Shah I think")
    elif label in ("PERSON", "") and end + 2 < len(doc) and doc[end].text == "," and ORDINAL.fullmatch(doc[end + 1].text) \
            and doc[end + 2].lower_ in PEERAGES:
        end += 3  # "Henry Stafford, 1st Baron Stafford" and "…, 2nd Baron Stafford" are two men, father and son
        while end < len(doc) and (is_propn(doc[end]) or (doc[end].lower_ == "of" and end + 1 < len(doc)
                                                          and is_propn(doc[end + 1]))):
            end += 1
    if start >= 1 and ORDINAL.fullmatch(doc[start - 1].text) and doc[start].lower_ in PEERAGES:
        start -= 1  # "the 6th Baron Stanley of Alderley" is a man; "Baron Stanley of Alderley" the title
    while end + 1 < len(doc) and doc[end].text in ("–", "—", "-") and not doc[end].whitespace_ and not doc[end - 1].whitespace_ \
            and is_propn(doc[end + 1]):
        end += 2  # "University of Wisconsin–Stevens Point"
        while end < len(doc) and is_propn(doc[end]) and doc[end].ent_iob_ != "B":
            end += 1
    if end + 1 < len(doc) and doc[end].text in ("'", "’") and re.fullmatch(r"\d\d", doc[end + 1].text) \
            and not doc[end].whitespace_ and doc[end - 1].whitespace_ and label != "PERSON":
        end += 2  # "Canada-Russia '72", "Woodstock '99": a year cut to two digits is the title's
    if label == "PERSON" and end - start == 1 and start >= 1 and doc[start - 1].lower_ in ("dr.", "mr.", "mrs.", "ms."):
        start -= 1  # "Dr. Dre" is the name; a person's key leaves the honorific out
    if start >= 1 and not doc[start - 1].whitespace_ and doc[start - 1].text[:1].isupper() \
            and any(c in doc[start - 1].text for c in "$!"):
        start -= 1  # "A$AP Mob": the tokenizer splits a word at its symbol
    if start >= 2 and doc[start - 1].lower_ in ("'s", "’s", "'") and doc[start - 2].lower_ in _FOR_WHOM \
            and doc[start - 2].text[:1].isupper() and CLASS_TYPES.get(doc[end - 1].lower_) == "ORG":
        start -= 2  # "the Women's Korean Basketball League": a body for women, not a possession of theirs
    if start >= 1 and doc[start - 1].text == "The" and not doc[start - 1].is_sent_start:
        start -= 1  # "a member of The Cult": a capital "The" inside a sentence is the name's
    if start >= 2 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_ and not doc[start - 2].whitespace_ \
            and doc[start - 2].text[:1].isupper() and doc[start - 2].is_alpha:
        start -= 2  # "All-Star Game", not "Star Game"
    elif start >= 4 and _joined(doc, start - 4, start):
        start -= 4  # "Jupille-sur-Meuse", not "Meuse"
    if label == "NORP" and end + 1 < len(doc) and doc[end].text == "-" and not doc[end].whitespace_ \
            and not doc[end - 1].whitespace_ and is_demonym(doc[end + 1].text):
        end += 2  # "an Italian-American crime family", "a Canadian-American actor": one people, not the first
    if end + 4 <= len(doc) and _joined(doc, end - 1, end + 3):
        end += 4  # "Stratford-upon-Avon", not "Stratford"
    if end < len(doc) and doc[end - 1].lower_ in ("'s", "’s") and end - start > 1:
        end -= 1  # the tagger's "Turkish Women's" + "Basketball League": the possessive is read below
    if end + 1 < len(doc) and doc[end].lower_ in ("'s", "’s"):  # "Turkish Women's Basketball League"
        last = end + 1
        while last < len(doc) and is_propn(doc[last]) and not doc[last].ent_type_:
            last += 1
        if last > end + 1 and CLASS_TYPES.get(doc[last - 1].lower_) == "ORG":
            end = last
    while end - start > 1 and (doc[end - 1].lower_ in ("of", "the", "and", "de", "'s", "’s", "'", "-", ",")
                               or doc[end - 1].is_space or doc[end - 1].pos_ == "ADP" or doc[end - 1].is_quote):
        end -= 1
    while end - start > 1 and (doc[start].is_quote or doc[start].is_punct):
        start += 1
    while end - start > 2 and doc[start].is_lower and doc[start].is_alpha and doc[start].tag_ in ("JJ", "JJR", "JJS"):
        start += 1  # "forces an older Bruce Wayne": his age, no word of his name
    if label == "PERSON":
        start = _after_office(doc, start, end)
    while end - start > 1 and (doc[start].text in ("the", "a", "an", "'s", "’s") or (doc[start].lower_ in ("the", "a", "an")
                                                                                 and doc[start].is_sent_start)):
        start += 1  # "the Chicago Cubs" is "Chicago Cubs"; "The Beatles" mid-sentence keeps its article
    cut = next((t.i for t in doc[start + 1:end - 1] if t.lower_ == "for" and any(
        o.dep_ == "pobj" and o.i < end and any(c.dep_ == "conj" and c.i >= end for c in o.children) for o in t.children)), None)
    if cut is not None:
        end = cut  # "published by Codemasters for PlayStation, Microsoft Windows and Game Boy Color": a list of
        # what it was made for, not a body's name ("the Center for Middle Eastern Studies" lists nothing)
    return start, end


# Whom a body is for, in its name's possessive ("Women's", "Young Men's", "Boys'")
_FOR_WHOM = {"women", "men", "children", "people", "girls", "boys", "ladies", "workers", "veterans", "peoples"}

# Words of an office written before a holder's name ("Premier", "Minority Leader", "State Senator")
_OFFICE_WORDS = _TITLES | _OFFICES | _RANKS | {"leader", "minority", "majority", "whip", "state", "senate", "house"}


def _after_office(doc: Any, start: int, end: int) -> int:
    """Where a person's name starts after the office before it: "Premier Jay Weatherill" is Jay Weatherill,
    "Minority Leader Scott Howell" Scott Howell. Only before a given name and at least one more proper noun:
    "President Lincoln" keeps its title (resolution folds it into "Abraham Lincoln" when the text names him)."""
    i = start
    while i < end and doc[i].lower_.rstrip(".") in _OFFICE_WORDS and doc[i].text[:1].isupper():
        i += 1
    if i == start or end - i < 2 or doc[i].lower_ not in given_names() or not all(is_propn(t) for t in doc[i:end]):
        return start
    return i


def numbered_start(doc: Any, start: int, end: int) -> int:
    """Where a numbered unit's name starts: over its ordinal and the place that owns it ("California's 26th
    Congressional District", "the 7th Cavalry Regiment"); only for the units _NUMBERED lists, so "Jordan's 6th NBA
    Championship" stays a championship."""
    if doc[end - 1].lower_ not in _NUMBERED:
        return start
    if start >= 1 and ORDINAL.fullmatch(doc[start - 1].text) and doc[start - 1].head.i in range(start, end):
        start -= 1
    if not ORDINAL.fullmatch(doc[start].text) or start < 2 or doc[start - 1].tag_ != "POS":
        return start
    place = next((e for e in doc.ents if e.end == start - 1 and e.label_ == "GPE"), None)
    owner = doc[start - 2]
    return place.start if place is not None and owner.dep_ == "poss" and owner.head.i in range(start, end) else start


def given_before(doc: Any, start: int, end: int) -> bool:
    """The word before a person's span is a given name of the same name, which the tagger split off and called
    something else: "Julia Eileen Gillard" tagged "Julia" ORG + "Eileen Gillard" PERSON."""
    if start == 0:
        return False
    tok = doc[start - 1]
    return tok.tag_ == "NNP" and tok.text[:1].isupper() and tok.lower_ in given_names() and start <= tok.head.i < end \
        and tok.ent_type_ != "NORP" and not _DEMONYM.fullmatch(tok.text)  # "German Mauser M1924": no one's name


def named_end(doc: Any, start: int, end: int, label: str) -> int:
    """Where a person's name ends within its span: before the letters after it ("Mollison MBE"), which stay in
    the span because the parse may make them the phrase's head."""
    while label == "PERSON" and end - start > 1 and doc[end - 1].text.replace(".", "") in _POSTNOMINALS:
        end -= 1
    return end


def chain_end(doc: Any, i: int, taken: set[int]) -> int:
    """Where a proper-noun chain from ``i`` ends: over hyphens inside a word ("All-Star Game") and over a
    possessive that an organisation's name holds ("Women's Basketball League")."""
    j = i
    while j < len(doc) and j not in taken and is_propn(doc[j]) and not doc[j].ent_type_:
        j += 1
        if j + 1 < len(doc) and doc[j].text == "-" and not doc[j].whitespace_ and not doc[j - 1].whitespace_ \
                and is_propn(doc[j + 1]):
            j += 1
        elif j + 1 < len(doc) and re.fullmatch(r"U-?\d\d", doc[j].text) and is_propn(doc[j + 1]) \
                and not doc[j + 1].ent_type_:
            j += 1  # "the 2005 FIFA U-17 World Championship": an age class inside the name
        elif j + 1 < len(doc) and doc[j].lower_ in ("'s", "’s") and is_propn(doc[j + 1]):
            last = j + 1
            while last < len(doc) and is_propn(doc[last]) and not doc[last].ent_type_:
                last += 1
            if CLASS_TYPES.get(doc[last - 1].lower_) == "ORG":
                j += 1
        elif j + 1 < len(doc) and doc[j].lower_ == "of" and doc[i].lower_ in PEERAGES and is_propn(doc[j + 1]) \
                and not doc[j + 1].ent_type_ and j + 1 not in taken:
            j += 1  # "the subsidiary titles of 12th Baron Strange of Blackmere": a peerage's place is in its name
        elif j + 2 < len(doc) and doc[j].lower_ == "of":  # "Representation of the People Act 1832"
            k = j + 1 + (doc[j + 1].lower_ == "the")
            last = k
            while last < len(doc) and last not in taken and is_propn(doc[last]) and not doc[last].ent_type_:
                last += 1
            if last > k and head_label(["of", doc[last - 1].text]) == "LAW":
                j = last
    if j > i and doc[j - 1].lower_ == "act" and j < len(doc) and re.fullmatch(r"1[6-9]\d\d|20\d\d", doc[j].text):
        j += 1  # a British act's year is in its name
    elif j not in taken and numbered(doc, i, j):
        j += 1
    return j


_CHAMBERS = {"representatives", "commons", "deputies", "lords", "delegates", "parliament", "senate", "assembly"}


def seat_cut(doc: Any, start: int, end: int) -> int:
    """Where a chamber's name ends before the seat a member holds in it: "the member of the House of
    Representatives for Wide Bay" is the House's member for Wide Bay (not "… Assembly for Wales" named alone)."""
    at = next((k for k in range(start + 1, end - 1) if doc[k].lower_ == "for"), None)
    if at is None or doc[at - 1].lower_ not in _CHAMBERS:
        return end
    before = start - 1 - (start >= 1 and doc[start - 1].lower_ == "the")
    return at if before >= 1 and doc[before].lower_ == "of" and doc[before - 1].lower_ in ("member", "members") else end


def postnominal(doc: Any, start: int, end: int) -> bool:
    """The letters of an order or a degree after a name ("Edward Stanley, 3rd Earl of Derby KG"): no one's name."""
    if end - start != 1 or start == 0 or doc[start].text.replace(".", "") not in _POSTNOMINALS:
        return False
    before = start - 1 - (start >= 2 and doc[start - 1].text == ",")  # "Armando Giovanni Iannucci, OBE"
    return doc[before].text[:1].isupper() and not doc[before].is_punct


def place_before(doc: Any, start: int, end: int) -> Any:
    """The tagged place right before a body's name that the parse makes part of it ("moved to Oregon City High
    School": "Oregon" + "City High School"), or None."""
    if start == 0 or head_label([t.text for t in doc[start:end]]) not in ("ORG", "FAC"):
        return None  # a body by its head noun ("… High School"), not by the tagger ("a Hong Kong Cantopop duo")
    place = next((e for e in doc.ents if e.end == start and e.label_ == "GPE"), None)
    if place is None or doc[start - 1].dep_ != "compound" or doc[start - 1].head.i not in range(start, end):
        return None
    return place
