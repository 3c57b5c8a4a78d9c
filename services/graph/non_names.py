"""Capitalised runs that are no names: an office ("Minister of Defense"), capitalised class, title or office
words ("the Executive", "His Majesty"), a job title ("the Music Director"), a place word, and a capitalised word
hyphenated to a lower-case one ("All-star"). Read by services/graph/spans.py."""

from __future__ import annotations

import re
from typing import Any

from services.graph.classes import CLASS_TYPES, class_label
from services.graph.gazetteer import is_demonym
from services.graph.name_words import _COMMON, _OFFICES, _RANKS, _RULERS, _TITLES, common_words, given_names


def is_office(tokens: Any) -> bool:
    """ "Minister of Defense", "Deputy Premier of South Australia", "Prime Minister of Australia": title words up
    to an "of" name an office, not a named thing (a ruler's "King of Sweden" names the place: see name_spans)."""
    words = [t.lower_ for t in tokens]
    if "of" not in words[1:4]:
        return False
    before = words[:words.index("of")]
    return before[-1] not in _RULERS and all(w in _TITLES or w in _OFFICES or w in _RANKS for w in before)


# Parts of a work or a contest, numbered: "Episode Nine", "Chapter 3", "Season Two" name nothing without their work
_NUMBERED_PARTS = {"episode", "chapter", "season", "series", "part", "volume", "book", "act", "scene", "round",
                   "stage", "track", "disc", "issue", "week"}  # (not "Level 42", a band)


def _numbered_part(words: list[Any]) -> bool:
    return len(words) > 1 and words[0].lower_ in _NUMBERED_PARTS and all(
        t.like_num or t.ent_type_ in ("CARDINAL", "ORDINAL") or re.fullmatch(r"[IVXLC]+", t.text) for t in words[1:])


def _counted(words: list[Any]) -> bool:
    """A capitalised plural counted in digits is a class of things, no name: "the oldest of the 30 Residence Halls"
    (not "won 3 Grammy Awards": a name's word; nor "the 2007 Ski Jumping World Championships": a year)."""
    if not words or words[0].i == 0:
        return False
    count, last = words[0].doc[words[0].i - 1], words[-1]
    return count.text.isdigit() and len(count.text) < 4 and count.head.i == last.i and last.lower_.endswith("s") \
        and last.lower_[:-1] in common_words() and all(w.lower_ in common_words() for w in words[:-1])


def is_capitalised_class(tokens: Any) -> bool:
    """Capitalised common nouns are no name ("the Empire of Brazil", "the Executive", "the Provinces", "the
    Postmaster-General", "His Majesty", "Vice President"): up to three class, title or office words, in the
    singular or plural; a name with one word that is not one ("Texas", "Congress", "General Electric") stays.
    Nor is a numbered part of a work alone ("Episode Nine")."""
    words = [t for t in tokens if t.text != "-"]
    if _numbered_part(words) or _counted(words):
        return True
    if len(words) > 3:
        return False
    if len(words) == 2 and words[0].lower_.endswith("s") and CLASS_TYPES.get(words[0].lower_[:-1]) == "PERSON" \
            and CLASS_TYPES.get(words[1].lower_) == "ORG" and words[0].ent_type_ == "ORG":
        return False  # "the Musicians Institute", "the Writers Guild": a body of its members, tagged one
    return all(any(w in CLASS_TYPES or w in _TITLES or w in _COMMON or w in _OFFICES
                   for w in (t.lower_, t.lemma_.lower(), t.lower_[:-1] if t.lower_.endswith("s") else t.lower_))
               for t in words)


# A team sport's positions, written in capitals ("Defensive Back", "Wide Receiver", "Left Wing")
_PLAY_SIDES = {"defensive", "offensive", "wide", "running", "tight", "left", "right", "centre", "center", "inside",
               "outside", "middle", "free", "strong", "nose", "attacking", "defending", "full", "half", "relief",
               "starting"}
_POSITIONS = {"back", "end", "tackle", "guard", "linebacker", "receiver", "safety", "midfielder", "defender",
              "forward", "winger", "wing", "half", "fielder", "centre", "center", "pitcher", "lineman"}


def is_job_title(tokens: Any) -> bool:
    """A capitalised job title ("an ex Investment Banker", "the Music Director"): words ending in a singular
    person noun, none of them tagged a person; or, tagged one, English words only in a class the sentence gives
    ("Asad Shan is a British Actor, Fashion Model, TV presenter")."""
    head = tokens[-1]
    if len(tokens) == 2 and tokens[0].lower_ in _PLAY_SIDES and head.lower_.rstrip("s") in _POSITIONS:
        return True  # "started 6 games at Defensive Back": a playing position
    if not (len(tokens) > 1 and (CLASS_TYPES.get(head.lower_) == "PERSON" or head.lower_ in _OFFICES)
            and head.tag_ in ("NN", "NNP")):
        return False
    if not any(t.ent_type_ == "PERSON" for t in tokens):
        return True
    return all(t.lower_ in common_words() for t in tokens) and (
        head.dep_ == "attr" or (head.dep_ in ("conj", "appos") and CLASS_TYPES.get(head.head.lower_) == "PERSON")
        or (tokens[0].lower_ not in given_names() and head.lower_.endswith(("er", "or", "ist", "ian", "ant", "ent"))))
    # "been Creative Producer and …", "Nuclear Safety Inspector" (an occupation's word: not "Gossip Girl")


def is_place_word(tok: Any) -> bool:
    word = tok.lower_[:-1] if tok.lower_.endswith("s") and tok.lower_[:-1] in CLASS_TYPES else tok.lower_
    return word in _COMMON or CLASS_TYPES.get(word) in ("GPE", "LOC")


def is_hyphenated(doc: Any, end: int) -> bool:
    """A capitalised word joined by a hyphen to a lower-case one ("All-star", "Oscar-winning") is no name."""
    return end + 1 < len(doc) and doc[end].text == "-" and not doc[end].whitespace_ and doc[end + 1].is_lower \
        and not doc[end - 1].whitespace_


_ABBREVIATION = re.compile(r"\(\s*([A-Z]{2,6})s?\s*\)")
_WORDS_BEFORE = re.compile(r"((?:[a-z][a-z-]*\s+){1,7})$")
_SMALL = {"of", "and", "the", "for", "in", "on", "to", "a", "an"}


def defined_terms(text: str) -> set[str]:
    """Abbreviations the text defines for a common noun ("a broader combined statistical area (CSA)", "gross
    domestic product (GDP)"): a term, not a named thing, wherever it stands alone."""
    found = set()
    for m in _ABBREVIATION.finditer(text):
        before = _WORDS_BEFORE.search(text[max(0, m.start() - 120):m.start()])
        if before is None:
            continue
        words = [w for w in before.group(1).split() if w not in _SMALL]
        acronym = m.group(1)
        letters = "".join(w[0] for w in words[-len(acronym):])
        hyphened = "".join(p[0] for w in words for p in w.split("-") if p)[-len(acronym):]
        if acronym.lower() in (letters, hyphened):
            found.add(acronym)
    return found


def box_office_verdict(doc: Any, end: int) -> bool:
    """ "The film recorded as "Blockbuster" at the box office", "declared a "Super Hit" at the box office": a
    verdict on the takings, no name."""
    while end < len(doc) and doc[end].is_punct:
        end += 1
    return bool(doc[end:end + 4].text.lower() == "at the box office")


# Architectural styles, written in capitals before the building they describe ("a Greek Revival home", "a
# Queen Anne-style house", "the Art Deco tower"): a manner of building, no named thing
_STYLES = {"gothic", "romanesque", "baroque", "rococo", "georgian", "victorian", "edwardian", "italianate", "tudor",
           "queen anne", "second empire", "art deco", "art nouveau", "beaux-arts", "beaux arts", "neoclassical",
           "neo-classical", "palladian", "prairie school", "brutalist", "elizabethan", "jacobean", "byzantine",
           "shingle style", "stick style", "spanish colonial", "dutch colonial", "french colonial"}


def is_building_style(doc: Any, start: int, end: int) -> bool:
    """A style name that modifies a noun after it ("Greek Revival home", "Gothic Revival church", "Queen Anne
    style house"): the house is not named "Greek Revival". Only before a noun: "the Gothic" alone may be a name."""
    words = [t.lower_ for t in doc[start:end]]
    text = " ".join(words)
    if not (text in _STYLES or (len(words) > 1 and words[-1] == "revival")):
        return False
    k = end
    while k < len(doc) and (doc[k].text in ("-", "–") or doc[k].lower_ in ("style", "styled", "era", "period")
                            or doc[k].pos_ == "ADJ"):
        k += 1  # "Queen Anne-style", "Gothic Revival stone"
    return k < len(doc) and doc[k].pos_ == "NOUN" and class_label(doc[k].lemma_) in ("FAC", "ORG")


_DEGREES = {"bachelor", "bachelors", "master", "masters", "doctor", "doctorate", "diploma", "licentiate"}


def degree_field(doc: Any, start: int) -> bool:
    """The field of a degree ("a Bachelor of Fine Arts", "her Master of Business Administration"): part of the
    degree's name, no named thing."""
    return start >= 2 and doc[start - 1].lower_ == "of" and doc[start - 2].lower_.rstrip("'’s") in _DEGREES \
        and doc[start - 2].text[:1].isupper()


_FIELD_JOBS = {"director", "producer", "editor", "engineer", "designer", "manager", "supervisor", "teacher",
               "instructor", "coordinator", "consultant", "critic", "correspondent", "composer", "technician",
               "professor", "coach", "programmer", "arranger", "choreographer",
               "division", "department", "section", "desk", "unit", "wing"}  # (and a body's unit: "the Music division")


def job_field(doc: Any, start: int, end: int) -> bool:
    """A common word in capitals before a job ("a Music director", "the MUSIC DIRECTOR", "an Art director") or a
    body's unit ("the Music division of Future US"): its field, no named thing (not "CBS producer": a network)."""
    if end - start != 1 or end >= len(doc) or doc[start].is_sent_start:
        return False
    word, job = doc[start], doc[end]
    if word.lower_ not in common_words() or job.lemma_.lower() not in _FIELD_JOBS or is_demonym(word.text):
        return False  # (not "Polish teacher", a nationality; nor "Revere resident", a town)
    return (word.is_title and job.is_lower) or (word.is_upper and job.is_upper and len(word) > 3)


def award_category_tail(doc: Any, start: int) -> bool:
    """The end of a prize's category ("… Supporting Actress in a Comedy Series", "Best Actor in a Leading Role"):
    part of the prize's name, no thing of its own."""
    return start >= 3 and doc[start - 1].lower_ in ("a", "an") and doc[start - 2].lower_ == "in" \
        and doc[start - 3].text[:1].isupper() and doc[start - 3].lemma_.lower() in _PERFORMERS


_PERFORMERS = {"actor", "actress", "performance", "performer", "role", "director", "directing", "writing", "series",
               "program", "programme", "film", "picture", "song", "score", "vocalist", "host", "presenter"}
