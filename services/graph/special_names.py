"""Names the tagger cuts apart, found from their own shape before the tagger's spans are read.

- A work titled by its musical key: "Toccata, Adagio, and Fugue in C major", "Sonata in B-flat minor",
  "Flute Sonata in D" is one title, where the tagger gives an organisation, a people and a person.
- A name joined by a patronymic or a Dutch or German particle: "Rhys ap Tewdwr", "Gwladys ferch Rhiwallon ap
  Cynfyn", "Ahmad ibn Hanbal", "Jean vander Bruggen" is one person, where the tagger keeps only a part ("Tewdwr").

- A person with a nickname in quotation marks inside the name: 'Robert A. "Bob" Starr', 'Ilario "Larry Baione"
  Zannino' is one person (named without the nickname), where the tagger gives the nickname and the surname apart
  and a quoted-title rule would take the nickname for a work.
- A body or a place named by its head and a place: "the Episcopal Diocese of West Texas", "Bank of Scotland",
  "the Firth of Tay", where the tagger gives the place alone and leaves the rest untyped.

Each function gives (start, end, label) token ranges; services/graph/spans.py makes them names
(:func:`nicknamed_names` also the name's text).
"""

from __future__ import annotations

import re
from typing import Any

from services.graph.classes import class_label
from services.graph.gazetteer import is_demonym, us_states
from services.graph.name_words import _TITLES

# Forms a key-titled work has: without "major" or "minor" ("Flute Sonata in D") the key needs one of them.
_FORMS = {"sonata", "sonatina", "symphony", "concerto", "fugue", "prelude", "mass", "quartet", "quintet", "trio",
          "suite", "toccata", "etude", "étude", "nocturne", "rhapsody", "fantasia", "fantasy", "overture", "requiem",
          "serenade", "partita", "canon", "chaconne", "passacaglia", "march", "waltz", "variations", "sinfonia",
          "divertimento", "ballade", "scherzo", "impromptu", "polonaise", "mazurka", "adagio", "allegro", "andante",
          "invention", "minuet", "magnificat", "te deum", "stabat mater", "cantata", "motet", "octet", "sextet"}
_KEY = re.compile(r"^[A-G](♭|♯|#|b)?$")
_ACCIDENTALS = {"flat", "sharp", "♭", "♯"}
_MODES = {"major", "minor"}
_PARTICLES = {"ap", "ab", "ferch", "verch", "ibn", "bin", "bint", "van", "vander", "vanden", "von", "der", "den", "ter",
              "ten", "zu"}  # "Jean vander Bruggen", "Ludwig van Beethoven" (the tagger cuts at the particle)


def _key_end(doc: Any, i: int) -> tuple[int, bool] | None:
    """Where a key that starts at token ``i`` ("C", "B-flat", "F sharp minor") ends, and whether it names a mode."""
    if i >= len(doc) or not _KEY.match(doc[i].text):
        return None
    j = i + 1
    if j + 1 < len(doc) and doc[j].text == "-" and doc[j + 1].lower_ in _ACCIDENTALS:
        j += 2
    elif j < len(doc) and doc[j].lower_ in _ACCIDENTALS | {"-flat", "-sharp"}:
        j += 1
    moded = j < len(doc) and doc[j].lower_ in _MODES
    return (j + 1 if moded else j), moded


def keyed_works(doc: Any) -> list[tuple[int, int, str]]:
    """Titles that end in a musical key, with the capitalised words and the list before "in"."""
    out: list[tuple[int, int, str]] = []
    for tok in doc:
        if tok.lower_ != "in" or tok.i == 0 or not (doc[tok.i - 1].text[:1].isupper() or _catalogue(doc, tok.i - 1)):
            continue
        found = _key_end(doc, tok.i + 1)
        if found is None:
            continue
        end, moded = found
        start = tok.i
        while start > tok.sent.start and (doc[start - 1].text[:1].isupper() and doc[start - 1].text.replace(" ", "").isalpha()
                                          or doc[start - 1].text == "," or doc[start - 1].lower_ in ("and", "&")
                                          or _catalogue(doc, start - 1)):
            start -= 1  # "Piano Sonata No. 1 in C major"
        while start < tok.i and not doc[start].text[:1].isupper():
            start += 1  # not from a comma or an "and"
        words = {w for t in doc[start:tok.i] for w in t.lower_.split()}  # (a topic the parse made one token)
        if start == tok.i or not (moded or words & _FORMS):
            continue
        if not words & _FORMS and ((start > 0 and doc[start - 1].lower_ == "by")
                                   or any(t.ent_type_ == "PERSON" for t in doc[start:tok.i])):
            continue  # "composed by George Frideric Handel in F major": the composer, and the key he wrote in
        if start == tok.sent.start and doc[start].lower_ in ("the", "a", "an", "his", "her", "its", "their"):
            start += 1
        out.append((start, end, "WORK_OF_ART"))
    return out


def _catalogue(doc: Any, i: int) -> bool:
    """Token ``i`` is part of a work's number: "No. 1", "Op. 94" (the tokenizer splits "No" from its period)."""
    text = doc[i].text
    return text in ("No.", "Op.", "No", "Op") or (text == "." and i > 0 and doc[i - 1].text in ("No", "Op")) or (
        doc[i].like_num and i > 0 and doc[i - 1].text in ("No.", "Op.", "."))


def patronymic_names(doc: Any) -> list[tuple[int, int, str]]:
    """Person names joined by "ap", "ferch", "ibn", "van", "von" …: capitalised words on both sides of each
    particle."""
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(doc):
        tok = doc[i]
        if tok.text not in _PARTICLES or i == 0 or i + 1 >= len(doc) or not _capital(doc[i - 1]) \
                or not _capital(doc[i + 1]):
            i += 1
            continue
        start = i - 1
        while start > tok.sent.start and _capital(doc[start - 1]) and not doc[start - 1].is_stop \
                and doc[start - 1].lower_ not in _TITLES and not is_demonym(doc[start - 1].text) \
                and class_label(doc[start - 1].lower_) != "PERSON":
            start -= 1  # not "German Baron Gottfried von Cramm"
        end = i + 2
        while end < len(doc) and (_capital(doc[end]) or (doc[end].text in _PARTICLES and end + 1 < len(doc)
                                                         and _capital(doc[end + 1]))):
            end += 1
        while start < i - 1 and doc[start].is_stop:
            start += 1
        out.append((start, end, "PERSON"))
        i = end
    return out


def _capital(tok: Any) -> bool:
    return tok.is_alpha and tok.text[:1].isupper() and not tok.is_sent_start or (
        tok.is_alpha and tok.text[:1].isupper() and tok.is_sent_start and not tok.is_stop)


# Heads whose "of" and a place are part of the name: a body's, and a place's ("the Firth of Tay", "Isle of Man").
_OF_HEADS = {"diocese", "archdiocese", "eparchy", "bishopric", "university", "college", "bank", "church", "museum",
             "council", "ministry", "embassy", "academy", "institute", "society", "parliament", "assembly",
             "department", "faculty", "school"}
_PORTFOLIO_BODIES = {"ministry", "department", "museum", "institute", "school", "faculty", "academy", "society"}
_OF_PLACES = {"firth", "gulf", "bay", "isle", "strait", "straits", "sea", "cape", "vale", "bight"}


def named_bodies(doc: Any) -> list[tuple[int, int, str]]:
    """Capitalised words ending in a body's head noun, "of" and a capitalised name after it."""
    out: list[tuple[int, int, str]] = []
    for tok in doc:
        i = tok.i
        if tok.lower_ != "of" or i == 0 or i + 1 >= len(doc) or doc[i - 1].lower_ not in _OF_HEADS | _OF_PLACES \
                or not doc[i - 1].text[:1].isupper() or not _capital(doc[i + 1]):
            continue
        start = i - 1
        while start > tok.sent.start and doc[start - 1].is_alpha and doc[start - 1].text[:1].isupper() \
                and not doc[start - 1].is_stop:
            start -= 1
        if start >= 2 and doc[start - 1].lower_ == "and" and doc[start - 2].text[:1].isupper() \
                and doc[start - 2].is_alpha and doc[start - 2].head.i in range(start, i):
            start -= 2  # "Film and Television Institute of India": two modifiers of one head
        end = i + 1
        while end < len(doc) and _capital(doc[end]) or (end + 1 < len(doc) and doc[end].text in ("–", "—", "-")
                                                        and not doc[end - 1].whitespace_ and _capital(doc[end + 1])) \
                or (doc[i - 1].lower_ in _PORTFOLIO_BODIES and end + 1 < len(doc) and doc[end].lower_ in ("and", "&")
                    and _capital(doc[end + 1])):
            end += 1  # "University of Wisconsin–Stevens Point", "the Ministry of Education, Youth and Culture"
        if end + 2 < len(doc) and doc[end].lower_ == "and" and doc[end + 1].text.rstrip(".") in ("St", "Saint") \
                and doc[i + 1].text.rstrip(".") in ("St", "Saint") and _capital(doc[end + 2]):
            end += 3  # "the Church of St James and St Paul": one dedication to two saints
        if doc[i - 1].lower_ == "university" and end + 1 < len(doc) and doc[end].text == "," \
                and _capital(doc[end + 1]) and doc[i + 1:end].text.lower() in us_states():
            end += 2  # "the University of California, Berkeley": a campus of a state's university
            while end < len(doc) and _capital(doc[end]):
                end += 1
        if doc[i - 1].lower_ in ("university", "college") and end + 1 < len(doc) and doc[end].lower_ == "at" \
                and _capital(doc[end + 1]):
            end += 2  # "the University of North Carolina at Chapel Hill": a campus is in the name
            while end < len(doc) and _capital(doc[end]):
                end += 1
        out.append((start, end, "LOC" if doc[i - 1].lower_ in _OF_PLACES else "ORG"))
    return out


_QUOTES = {'"', "“", "”"}
_SINGLE = {"'", "‘", "’"}


def nicknamed_names(doc: Any) -> list[tuple[int, int, str, str]]:
    """(start, end, "PERSON", the name without its nickname) for each 'First "Nick" Last'."""
    out: list[tuple[int, int, str, str]] = []
    i = 1
    while i < len(doc):
        single = doc[i].text in _SINGLE and bool(doc[i - 1].whitespace_)  # "Roberta 'Bobbie' Bradshaw" (not "Jones'")
        if not (doc[i].text in _QUOTES or single) or not _given(doc[i - 1]):
            i += 1
            continue
        marks = _SINGLE if single else _QUOTES
        close = next((j for j in range(i + 1, min(i + 5, len(doc))) if doc[j].text in marks), None)
        if close is None or close == i + 1 or close + 1 >= len(doc) or not _capital(doc[close + 1]) \
                or not all(t.text[:1].isupper() and t.is_alpha for t in doc[i + 1:close]):
            i += 1
            continue
        start = i - 1
        while start > doc[i].sent.start and _given(doc[start - 1]) and not doc[start - 1].is_stop:
            start -= 1
        end = close + 2
        while end < len(doc) and _capital(doc[end]) and doc[end].pos_ == "PROPN" and not doc[end].text.isupper():
            end += 1  # not over the letters after a name ('James Allan "Jim" Mollison MBE')
        text = " ".join(t.text for t in [*doc[start:i], *doc[close + 1:end]])
        out.append((start, end, "PERSON", text))
        i = end
    return out


def _given(tok: Any) -> bool:
    """A given name or an initial ("Robert", "A.")."""
    return _capital(tok) or (len(tok.text) == 2 and tok.text[0].isupper() and tok.text[1] == ".")
