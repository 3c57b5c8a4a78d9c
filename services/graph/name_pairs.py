"""Names the tagger split over "and" that are one, and one span over "and" that is two (read by
services/graph/spans.py): "Trinidad and Tobago", "the Heartache and Sorrow Company", "the Chinese Communists" are
one name; "Mark Kaufman & Yann Corno" two people; "Mike and George Parente" share a surname."""

from __future__ import annotations

from typing import Any

from services.graph.classes import class_label, head_label
from services.graph.gazetteer import country_names, is_demonym
from services.graph.name_span import ENTITY, NameSpan
from services.graph.name_words import common_words, given_names


def and_joined(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """Two names over "and" that are one: a country so named ("Trinidad and Tobago"), or a body after "the" whose
    head noun ends the second ("the Heartache and Sorrow Company", "the United Trades and Labour Council of South
    Australia") or whose second is one common word ("the Mount Vernon Hotel and Cafe"); not "Microsoft and Apple
    Inc.", with no article."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and span.start == prev.end + 1 and doc[prev.end].lower_ == "and":
            text = doc[prev.start:span.end].text
            country = text.lower() in country_names()
            # "the Trinidad and Tobago National U-17": a body named after a country so named
            national = not country and any(doc[prev.start:k].text.lower() in country_names()
                                           for k in range(span.start + 1, span.end))
            article = (prev.start > 0 and doc[prev.start - 1].lower_ == "the") or doc[prev.start].text == "The"
            body = article and prev.label != "PERSON" \
                and head_label(prev.text.split()) is None and head_label(span.text.split()) in ("ORG", "FAC")
            tail = prev.start > 0 and doc[prev.start - 1].lower_ == "the" and span.end - span.start == 1 \
                and (prev.label in ("ORG", "FAC") or class_label(prev.text.split()[-1]) in ("ORG", "FAC")) \
                and span.text.lower() in common_words() and span.text.lower() not in given_names()
            if country or national or body or tail:  # (a tail: "the Mount Vernon Hotel and Cafe", no café of its own)
                label = "GPE" if country else prev.label if tail and not body and not national else span.label
                out[-1] = NameSpan(prev.start, span.end, text, label, doc[prev.start:span.end].root)
                continue
        out.append(span)
    return out


_FIRST_OF_PAIR = {"ORG", "GPE", "LOC", "FAC"}
_SECOND_OF_PAIR = {"ORG", "GPE", ENTITY, "EVENT", "FAC"}


def _wing(doc: Any, body: NameSpan, span: NameSpan) -> bool:
    """A body's initials that qualify the name after them, which the tagger calls a person: "BJP Mahila Morcha"
    (the party's women's wing)."""
    last = doc[body.end - 1]
    return span.label == "PERSON" and body.label == "ORG" and body.end - body.start == 1 and last.text.isupper() \
        and len(last.text) > 1 and last.dep_ == "compound" and span.start <= last.head.i < span.end


def _given_word(doc: Any, word: NameSpan, span: NameSpan) -> bool:
    """One word the tagger called a people, no nationality, that opens the name after it: "Eliya Tsetan Phuntshog"
    (not "a Welsh Tom Jones")."""
    tok = doc[word.start]
    return word.label == "NORP" and word.end - word.start == 1 and span.label in ("PERSON", "ORG") \
        and tok.dep_ == "compound" and span.start <= tok.head.i < span.end and not is_demonym(tok.text) \
        and not tok.text.endswith("s")


def _brand(doc: Any, owner: NameSpan, span: NameSpan) -> bool:
    """One capitalised word after a one-word name and its possessive: a brand ("Domino's Pizza", the tagger's
    "Domino" a person and "Pizza" a name of its own)."""
    last = doc[owner.end - 1]
    return owner.label == "PERSON" and owner.end - owner.start == 1 and span.label == ENTITY \
        and span.end - span.start == 1 and span.start == owner.end + 1 and doc[owner.end].lower_ in ("'s", "’s") \
        and doc[owner.end].head.i == last.i and doc[span.start].is_title


def adjoined(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """Two names with nothing between them are one the tagger cut: a body's branch ("Sony Greece": a company),
    a city's event ("San Diego Comic Con"), a party's wing ("BJP Mahila Morcha"), a given name the tagger called a
    people ("Eliya Tsetan Phuntshog"), a brand after its owner's possessive ("Domino's Pizza"), a city and a
    plural people after "the" ("the Dallas Texans": a team). Not two places (a city the tagger ran into its
    country is split in services/graph/name_lists.py)."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and _brand(doc, prev, span):
            out[-1] = NameSpan(prev.start, span.end, doc[prev.start:span.end].text, ENTITY, doc[prev.start:span.end].root)
            continue
        if prev is not None and span.start == prev.end and doc[prev.end - 1].whitespace_ \
                and doc[span.start].text[:1].isupper() and _given_word(doc, prev, span):
            out[-1] = NameSpan(prev.start, span.end, doc[prev.start:span.end].text, span.label, doc[prev.start:span.end].root)
            continue
        if prev is not None and span.start == prev.end and prev.label == "GPE" and span.label == "NORP" \
                and span.end - span.start == 1 and span.text.endswith("s") and prev.start > 0 \
                and doc[prev.start - 1].lower_ == "the" and doc[prev.end - 1].whitespace_:
            out[-1] = NameSpan(prev.start, span.end, doc[prev.start:span.end].text, "ORG", doc[prev.start:span.end].root)
            continue  # "as the Dallas Texans": a team, no city and a people
        if prev is not None and span.start == prev.end and prev.label in _FIRST_OF_PAIR \
                and (span.label in _SECOND_OF_PAIR or _wing(doc, prev, span)) and not (prev.label == span.label == "GPE") \
                and doc[prev.end - 1].whitespace_ and doc[span.start].text[:1].isupper():
            label = prev.label if span.label in ("GPE", "PERSON") else span.label
            out[-1] = NameSpan(prev.start, span.end, doc[prev.start:span.end].text, label, doc[prev.start:span.end].root)
            continue
        out.append(span)
    return out


def shared_surnames(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """'run by Mike and George Parente': a given name alone before "and" and a person's whole name shares the
    surname (not where the text names the first elsewhere with another: "John Lennon … John and Paul McCartney")."""
    out = list(spans)
    for k, span in enumerate(spans[:-1]):
        after = spans[k + 1]
        if span.end - span.start != 1 or span.label not in ("PERSON", ENTITY, "ORG") or after.label != "PERSON" \
                or after.start != span.end + 1 or doc[span.end].lower_ != "and" or after.end - after.start != 2:
            continue
        first, (given, surname) = span.text, after.text.split()
        if first.lower() not in given_names() or given.lower() not in given_names():
            continue
        if any(s.text.split()[0] == first and len(s.text.split()) > 1 for s in spans):
            continue
        out[k] = NameSpan(span.start, span.end, f"{first} {surname}", "PERSON", span.root)
    return out


_FAMILY_NOUNS = {"sisters", "brothers", "siblings", "twins", "family", "children", "sons", "daughters"}


def family_surnames(spans: list[NameSpan]) -> list[NameSpan]:
    """Given names listed after a family named by its surname take it: "the three Halliwell sisters, Prue (Shannen
    Doherty), Piper … and Phoebe" are Prue, Piper and Phoebe Halliwell, no first names alone."""
    out = []
    for span in spans:
        tok = span.root
        while tok is not None and tok.dep_ == "conj" and tok.head.i < tok.i and tok.head.lower_ not in _FAMILY_NOUNS:
            tok = tok.head
        family = tok.head if tok is not None and tok.dep_ in ("appos", "conj") else None
        surname = next((c for c in family.children if c.dep_ == "compound" and c.pos_ == "PROPN"
                        and c.text[:1].isupper() and c.lower_ not in given_names()), None) \
            if family is not None and family.lower_ in _FAMILY_NOUNS else None
        if surname is not None and span.end - span.start == 1 and span.text.istitle() \
                and span.label in ("PERSON", "ORG", "GPE", ENTITY):  # (the tagger's "Phoebe" a place)
            span = NameSpan(span.start, span.end, f"{span.text} {surname.text}", "PERSON", span.root)
        out.append(span)
    return out


def pair_split(doc: Any, span: NameSpan) -> list[NameSpan]:
    """Two names the tagger ran together over "and" or "&": "Mark Kaufman & Yann Corno" are two people,
    "Celestine and Etta Tavernier" two of one family, and "Birger and Asbjørn" two first names, no one's whole
    name; "Southern Championship Wrestling and Steel City Wrestling" are two bodies. A one-word pair of a
    company ("Procter & Gamble", "Barnes & Noble") is one name."""
    joints = [i for i in range(span.start + 1, span.end - 1) if doc[i].lower_ in ("and", "&")]
    if len(joints) != 1:
        return [span]
    k = joints[0]
    left, right = doc[span.start:k], doc[k + 1:span.end]
    if doc[k - 1].tag_ == "JJ" or (doc[k - 1].dep_ in ("amod", "compound", "nmod")
                                   and doc[k - 1].head.i in range(k + 1, span.end)):
        return [span]  # "England Economic and Industrial Development District": two modifiers of one head
    if span.label != "PERSON" and (len(left) < 2 or len(right) < 2 or not right[0].text[:1].isupper()):
        return [span]
    if span.label == "PERSON" and len(left) == 1 and len(right) == 1:
        return []
    out = []
    for part in (left, right):
        text = " ".join(part.text.split())
        if span.label == "PERSON" and len(part) == 1:
            text = f"{text} {right[-1].text}"  # "Celestine" of "Celestine and Etta Tavernier"
        out.append(NameSpan(part.start, part.end, text, span.label, part.root))
    return out


_REGIONS = {"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest", "midwest",
            "far east", "middle east", "deep south", "pacific northwest", "upper midwest", "outback"}


def nationality_joined(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """"the Chinese Communists", "the American Jack Russell Terrier Club", "the American Southwest": a one-word
    nationality the tagger split off the front of a group's, a body's or a region's name, after "the", is part of
    that name (not of a person's: "the Russian Leo Tolstoy" stays two)."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.label == "NORP" and prev.end == span.start and prev.end - prev.start == 1 \
                and (span.label in ("NORP", "ORG", "EVENT", "FAC", "LAW") or span.text.lower() in _REGIONS) \
                and prev.start >= 1 \
                and doc[prev.start - 1].lower_ == "the":
            out[-1] = NameSpan(prev.start, span.end, f"{prev.text} {span.text}", span.label,
                               doc[prev.start:span.end].root)
            continue
        out.append(span)
    return out
