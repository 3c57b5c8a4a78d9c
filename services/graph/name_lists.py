"""Names a list or a comma makes (read by services/graph/spans.py): one tagged span over a list is its members
("Kauai, Maui"; "Kingston Jamaica" a city and its country; "North Charles and East Eager Streets" two streets),
and a list or a comma inside one name stays in it ("Oliphant, Anderson and Ferrier", a publisher; "California
State University, Northridge"); peoples listed after a language are languages. Names joined or split over "and"
alone are services/graph/name_pairs.py's."""

from __future__ import annotations

from typing import Any

from services.graph.gazetteer import country_names, place_names
from services.graph.name_span import ENTITY, NameSpan
from services.graph.name_words import COMPANY_SUFFIXES, NAME_SUFFIXES, given_names

_SUFFIXES = COMPANY_SUFFIXES | NAME_SUFFIXES


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
    """A university and the campus its comma sets after it are one name: "California State University, Northridge"
    (as "University of California, Berkeley" is tagged whole). Not a place chain
    ("Harvard University, Cambridge, Massachusetts") nor a list ("Harvard University, Stanford and MIT")."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.label == "ORG" and doc[prev.end - 1].lower_ in _CAMPUS_HEADS \
                and span.start == prev.end + 1 and doc[prev.end].text == "," and span.end - span.start == 1 \
                and doc[span.start].dep_ == "appos" and (span.end + 1 >= len(doc) or doc[span.end].text != ","
                                                         or not doc[span.end + 1].text[:1].isupper()):
            # ("the Minnesota State University, Mankato, a position he held": a comma before a common word)
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


def languages_listed(spans: list[NameSpan]) -> list[NameSpan]:
    """Peoples listed after a language are languages: "published games in English, French, … Hungarian" (the
    tagger: English a language, the rest peoples)."""
    languages = {s.root.i for s in spans if s.label == "LANGUAGE" and s.root is not None}
    out = []
    for span in spans:
        first = span.root
        while first is not None and first.dep_ in ("conj", "appos") and first.head.i < first.i \
                and first.i not in languages:
            first = first.head
        if span.label == "NORP" and first is not None and first.i in languages:
            span = NameSpan(span.start, span.end, span.text, "LANGUAGE", span.root)
        out.append(span)
    return out
