"""Names the tagger split over "and" that are one, and one span over "and" that is two (read by
services/graph/spans.py): "Trinidad and Tobago", "the Heartache and Sorrow Company", "the Chinese Communists" are
one name; "Mark Kaufman & Yann Corno" two people; "Mike and George Parente" share a surname."""

from __future__ import annotations

from typing import Any

from services.graph.classes import class_label, head_label
from services.graph.gazetteer import country_names, is_demonym, place_names
from services.graph.name_span import ENTITY, NameSpan
from services.graph.name_words import COMPANY_SUFFIXES, common_words, given_names


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
            body = prev.start > 0 and doc[prev.start - 1].lower_ == "the" and prev.label != "PERSON" \
                and head_label(prev.text.split()) is None and head_label(span.text.split()) in ("ORG", "FAC")
            tail = prev.start > 0 and doc[prev.start - 1].lower_ == "the" and span.end - span.start == 1 \
                and (prev.label in ("ORG", "FAC") or class_label(prev.text.split()[-1]) in ("ORG", "FAC")) \
                and span.text.lower() in common_words() and span.text.lower() not in given_names()
            if country or body or tail:  # (a tail: "the Mount Vernon Hotel and Cafe", no café of its own)
                label = "GPE" if country else prev.label if tail and not body else span.label
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
    plural people after "the" ("the Dallas Texans": a team). Not two places ("Kingston Jamaica" stays as the
    tagger has it)."""
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


_SUFFIXES = COMPANY_SUFFIXES | {"jr", "sr", "ii", "iii", "iv"}


def listed_split(doc: Any, span: NameSpan) -> list[NameSpan]:
    """A tagged span over a list's commas is its members: "the counties of Kauai, Maui, Kalawao and Hawaii" (the
    tagger's "Kauai, Maui"), "situated between Pontefract, Barnsley and Doncaster" (one work to the tagger), and a
    list's end run into the subject after it ("… Guinea and Cape Verde, Sanhá was President"). A member starts
    where the parse makes a word a conjunct of the member before it (or of the first, in a flat list), or a word
    of the clause outside the span. A firm's partners ("Wright, Lindsey & Jennings"), a suffix ("Cartoon Network,
    Inc.", "Lon Chaney, Jr."), a place and its region ("Ellicott City, Maryland": an apposition) and a title in
    the list ("… and Welcome, Patient": its second word a conjunct of another member) stay whole."""
    stops = [i for i in range(span.start + 1, span.end - 1) if doc[i].text == ","]
    if not stops or any(doc[i].text == "&" for i in range(span.start, span.end)):
        return [span]
    stops += [i for i in range(stops[0] + 1, span.end - 1) if doc[i].lower_ == "and"]
    bounds = [span.start] + [i + 1 for i in sorted(stops)] + [span.end + 1]
    parts = [doc[a:b - 1] for a, b in zip(bounds, bounds[1:])]
    if any(len(p) == 0 or not p[0].text[:1].isupper() or p[0].lower_.rstrip(".") in _SUFFIXES for p in parts):
        return [span]
    members = [parts[0]]
    for part in parts[1:]:
        head, dep = part.root.head.i, part.root.dep_
        listed = dep == "conj" and any(m.start <= head < m.end for m in (members[0], members[-1]))
        if listed or (dep != "conj" and not span.start <= head < span.end):
            members.append(part)
        else:
            members[-1] = doc[members[-1].start:part.end]
    if len(members) == 1:
        return [span]
    label = ENTITY if span.label == "WORK_OF_ART" else span.label
    return [NameSpan(m.start, m.end, " ".join(m.text.split()), label if k == 0 or m.root.dep_ == "conj" else ENTITY,
                     m.root) for k, m in enumerate(members)]


def city_country_split(doc: Any, span: NameSpan) -> list[NameSpan]:
    """A place the tagger ran into its country is two: "born in Kingston Jamaica" is Kingston, in Jamaica (not
    "Mainland China", "TAP Portugal": the first word is no place of its own)."""
    words = span.text.split()
    if span.label != "GPE" or len(words) != 2 or span.end - span.start != 2 or words[1].lower() not in country_names() \
            or words[0].lower() not in place_names() or span.text.lower() in place_names():
        return [span]
    return [NameSpan(k, k + 1, doc[k].text, "GPE", doc[k]) for k in (span.start, span.start + 1)]


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


_SHARED_HEADS = {"streets": "Street", "avenues": "Avenue", "roads": "Road", "rivers": "River", "lakes": "Lake",
                 "islands": "Island", "mountains": "Mountain", "counties": "County", "bridges": "Bridge"}


def shared_heads(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """Two names over "and" that share a plural head are two of its kind: "North Charles and East Eager Streets"
    are North Charles Street and East Eager Street, "the Mississippi and Missouri Rivers" two rivers."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        head = _SHARED_HEADS.get(doc[span.end - 1].lower_)
        if prev is not None and head and span.end - span.start > 1 and prev.end + 1 == span.start \
                and doc[prev.end].lower_ == "and" and doc[span.end - 1].text[:1].isupper() \
                and "PERSON" not in (prev.label, span.label) and prev.text.split()[0].lower() not in given_names():
            place = "LOC" if head in ("River", "Lake", "Mountain", "Island") else "FAC"
            out[-1] = NameSpan(prev.start, prev.end, f"{prev.text} {head}", place, prev.root)
            out.append(NameSpan(span.start, span.end, f"{doc[span.start:span.end - 1].text} {head}", place, span.root))
            continue
        out.append(span)
    return out


_CAMPUS_HEADS = {"university", "college", "institute"}


def campus_joined(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """A university and the campus its comma sets after it are one name: "California State University, Northridge",
    "the University at Albany, SUNY" (as "University of California, Berkeley" is tagged whole). Not a place chain
    ("Harvard University, Cambridge, Massachusetts") nor a list ("Harvard University, Stanford and MIT")."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.label == "ORG" and doc[prev.end - 1].lower_ in _CAMPUS_HEADS \
                and span.start == prev.end + 1 and doc[prev.end].text == "," and span.end - span.start == 1 \
                and doc[span.start].dep_ == "appos" and (span.end >= len(doc) or doc[span.end].text != ","):
            out[-1] = NameSpan(prev.start, span.end, doc[prev.start:span.end].text, "ORG", prev.root)
            continue
        out.append(span)
    return out


_PUBLISHING = {"publish", "print", "republish", "reprint", "co-publish"}


def firm_listed(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """Three or more one-word names listed after "published by" are one firm's partners: "published by Oliphant,
    Anderson and Ferrier" (the tagger's place, person and place), "Harcourt, Brace and World". Two stay two
    ("published by Macmillan and Longman")."""
    out: list[NameSpan] = []
    k = 0
    while k < len(spans):
        run = [spans[k]]
        while k + len(run) < len(spans):
            nxt, last = spans[k + len(run)], run[-1]
            gap = [t.lower_ for t in doc[last.end:nxt.start]]
            if nxt.end - nxt.start != 1 or gap not in ([","], ["and"], [",", "and"]):
                break
            run.append(nxt)
        first = run[0]
        by = doc[first.start - 1] if first.start > 0 else None
        if len(run) >= 3 and all(s.end - s.start == 1 and doc[s.start].is_title for s in run) and by is not None \
                and by.lower_ == "by" and by.head.lemma_.lower() in _PUBLISHING:
            text = doc[first.start:run[-1].end].text
            out.append(NameSpan(first.start, run[-1].end, text, "ORG", doc[first.start:run[-1].end].root))
            k += len(run)
            continue
        out.append(spans[k])
        k += 1
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
