"""Which words name a thing: named-entity spans with their boundaries repaired, and the kinds of things.

spaCy's small model finds names but often cuts them short ("Republic of the" + "Congo", "States House" of
"United States House of Representatives") or tags units and dates ("C" of "°C", "c. 1338"). A span here is an
NER span of a named type, widened over the proper nouns that belong to the same name (a compound chain, "of
the", an appositive name that continues it), with a leading article and a trailing possessive cut, and kept
only when it reads as a name: at least one capitalised word of two or more letters and no bare number.
Proper-noun chains NER missed ("Traianus") are names too, typed ``ENTITY`` until the document says more.

Types are coarse where they are compared (:func:`kind`): a person, an organisation, a place, a work, an
event, a group (NORP), anything else. A document's own words correct them: the class its title states ("…
is a band" makes the title an organisation) and the type most of a name's mentions carry.
"""

from __future__ import annotations

from typing import Any

from services.graph.classes import CLASS_TYPES, head_label
from services.graph.gazetteer import is_demonym
from services.graph.name_bounds import (
    chain_end,
    given_before,
    institution_end,
    is_propn,
    named_end,
    numbered_start,
    office_body,
    place_before,
    plural_class,
    plural_heading,
    postnominal,
    repair,
    seat_cut,
)
from services.graph.name_lists import (
    campus_joined,
    city_country_split,
    firm_listed,
    languages_listed,
    listed_split,
    shared_heads,
)
from services.graph.name_pairs import (
    adjoined,
    and_joined,
    family_surnames,
    nationality_joined,
    pair_split,
    shared_surnames,
)
from services.graph.name_span import ENTITY as ENTITY
from services.graph.name_span import NameSpan as NameSpan
from services.graph.name_span import is_name as is_name
from services.graph.name_words import (
    _COMPASS,
    _DEMONYM,
    _DOWNTOWN,
    _HONORIFICS,
    _PLACE_HEADS,
    _RULERS,
    _SPEAKING,
    _TITLES,
    COMPANY_HEADS,
    common_words,
    given_names,
)
from services.graph.non_names import (
    award_category_tail,
    box_office_verdict,
    degree_field,
    is_building_style,
    is_capitalised_class,
    is_hyphenated,
    is_job_title,
    is_office,
    is_place_word,
    job_field,
)
from services.graph.quoted_names import inside_quotes, quoted_stretches, quoted_titles
from services.graph.special_names import keyed_works, named_bodies, nicknamed_names, patronymic_names
from services.graph.vocabulary import FAITHS

NAMED = {"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "EVENT", "LAW", "PRODUCT", "WORK_OF_ART", "LANGUAGE"}
KINDS = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place", "NORP": "group",
         "EVENT": "event", "WORK_OF_ART": "work", "PRODUCT": "work", "LAW": "work", "LANGUAGE": "language"}


def is_honorific(word: str) -> bool:
    """A word before a name that makes it a person's ("General", "Mr.", "President")."""
    return word.lower().rstrip(".") in _HONORIFICS


def kind(label: str) -> str:
    """A label's coarse kind: person, org, place, work, event, group, language, or other."""
    return KINDS.get(label, "other")


def compatible(a: str, b: str) -> bool:
    """Two labels may name one thing: the same kind, or one of them untyped."""
    return a == b or ENTITY in (a, b) or kind(a) == kind(b)


def name_spans(doc: Any) -> list[NameSpan]:
    """Every name in the parsed text, repaired and filtered, in text order, without overlaps."""
    spans = [NameSpan(start, end, text, label, doc[start:end].root) for start, end, label, text in nicknamed_names(doc)]
    taken = {i for s in spans for i in range(s.start, s.end)}  # 'Robert A. "Bob" Starr': "Bob" is no title
    for title in quoted_titles(doc):
        if not any(i in taken for i in range(title.start, title.end)):
            spans.append(title)
            taken.update(range(title.start, title.end))
    # "Fugue in C major", "Rhys ap Tewdwr", "the Episcopal Diocese of West Texas"
    for start, end, label in keyed_works(doc) + patronymic_names(doc) + named_bodies(doc):
        if not any(i in taken for i in range(start, end)):
            text = " ".join(doc[start:end].text.split())
            spans.append(NameSpan(start, end, text, label, doc[start:end].root))
            taken.update(range(start, end))
    for ent in doc.ents:
        if ent.label_ not in NAMED:
            continue
        start, end = repair(doc, ent.start, ent.end, ent.label_)
        # "Eric became King": a tagged span that runs over a verb ends before it
        verb = next((t.i for t in doc[start + 1:end] if t.pos_ in ("VERB", "AUX") and t.tag_ != "NNP"
                     and not t.text[:1].isupper()), None)  # "Best Animated Feature": a capital is the name's
        if verb is not None and doc[verb - 1].text != "&":  # not "Give & Get"
            end = verb
        cut = next((t.i for t in doc[start + 1:end - 1] if t.text == "as"), None)
        if cut is not None and ent.label_ != "WORK_OF_ART":
            end = cut  # "the American Russell Terrier Club as Foundation stock": a body's name has no "as" (a title may)
        inner = [t.i for t in doc[start + 1:end - 1] if t.pos_ == "NOUN" and t.is_lower and t.is_alpha
                 and doc[t.i - 1].whitespace_ and t.whitespace_]  # (not "Latter-day Saints")
        if inner and ent.label_ in ("ORG", "PERSON", "GPE", "FAC", "LOC", "NORP") and is_propn(doc[inner[-1] + 1]):
            start = inner[-1] + 1  # "for Kreisliga club TSV Burgau": a league and a common noun before the club's name
        if end <= start:
            continue
        label = ent.label_
        while label in ("ORG", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT") and start > 0 and doc[start - 1].is_title \
                and doc[start - 1].ent_type_ == "CARDINAL" and doc[start - 1].is_alpha and not doc[start - 1].is_sent_start:
            start -= 1  # "a director at Six Flags Entertainment Corporation": a capitalised number opens the name
        while label == "PERSON" and given_before(doc, start, end) \
                and not any(s.end == start and s.start < start - 1 for s in spans):  # (not a longer name's end)
            spans = [s for s in spans if s.end != start]  # "Julia" (ORG) + "Eileen Gillard" (PERSON): one name
            taken.discard(start - 1)
            start -= 1
        while label == "PERSON" and end - start > 2 and CLASS_TYPES.get(doc[start].lower_) == "PERSON":
            start += 1  # "Businessman Ross Perot", "Economist Pat Choate": the job is no part of the name
        if end - start >= 3 and is_demonym(doc[start].text) and (doc[start + 1].text.isupper() or doc[start + 1].lower_
                                                                  in _TITLES or CLASS_TYPES.get(doc[start + 1].lower_)
                                                                  == "PERSON") and head_label([t.text for t in doc[start + 2:end]]) is None:
            start, label = start + 2, "PERSON"  # "Invented by Danish MD Lasse Hessel": his nationality and title
        if label == "NORP" and end - start == 2 and all(is_demonym(t.text) for t in doc[start:end]):
            for k in (start, start + 1):  # "a 2003 Indian Bengali thriller film": a nation and a language
                spans.append(NameSpan(k, k + 1, doc[k].text, "NORP", doc[k]))
                taken.add(k)
            continue
        if 2 <= end - start <= 3 and is_demonym(doc[start].text) and _after_article(doc, start) \
                and end < len(doc) and doc[end].pos_ == "NOUN" and doc[start + 1].text != "-" \
                and head_label([t.text for t in doc[start:end]]) is None and not any(t.is_upper for t in doc[start:end]):
            spans.append(NameSpan(start, start + 1, doc[start].text, "NORP", doc[start]))
            taken.add(start)  # "a Jamaican Reggae singer": a nationality and a genre, no body's name
            continue
        if end - start > 2 and is_office(doc[start:end]):
            continue  # "Minister of Defense", "Secretary of the Treasury": an office, not a named thing
        if end - start > 2 and doc[start + 1].lower_ == "of" and (doc[start].lower_ in _RULERS or is_place_word(doc[start])) \
                and not is_capitalised_class(doc[end - 1:end]):  # "the Republic of China Government" is the government
            start += 2  # "King of Sweden", "the Empire of Brazil", "the States of Mississippi": the name is the place
            label = ENTITY
        while label == "ORG" and start >= 2 and doc[start - 1].text == "," and is_propn(doc[start - 2]) \
                and any(t.text == "&" for t in doc[start:end]):
            start -= 2  # "Harris, Forbes & Co.", "Kuhn, Loeb & Co.": a firm's partners are all in its name
        if end - start == 1 and start > 0 and doc[start - 1].like_num and doc[start].text.endswith("s") \
                and doc[start].tag_ in ("NNS", "NNPS"):
            continue  # "played 81 Tests and 223 ODIs": things counted, no name
        if end - start == 1 and doc[start].text.rstrip(".").lower() in ("op", "no", "bwv", "hwv", "kv") \
                and end < len(doc) and (doc[end].like_num or doc[end].text == "."):
            continue  # "Op. 67", "BWV 564": a catalogue number, no name
        seat = seat_cut(doc, start, end)
        if seat < end and not any(i in taken for i in range(seat + 1, end)):
            spans.append(NameSpan(seat + 1, end, doc[seat + 1:end].text, ENTITY, doc[seat + 1:end].root))
            taken.update(range(seat + 1, end))  # the seat: "Wide Bay"
        end = seat
        if numbered_start(doc, start, end) < start:
            start = numbered_start(doc, start, end)  # "California's 26th Congressional District"
            spans = [s for s in spans if not start <= s.start < end]
            taken.difference_update(range(start, end))
        place = place_before(doc, start, end)
        if place is not None:  # "Oregon" + "City High School": a place that modifies the body's head is in its name
            spans = [s for s in spans if s.start != place.start]
            taken.difference_update(range(place.start, place.end))
            start = place.start
        if any(i in taken for i in range(start, end)) or office_body(doc, start, end) or _portfolio(doc, start, end):
            continue
        if postnominal(doc, start, end):
            continue
        if label == "NORP" and doc[start:end].text.lower() in _COMPASS:
            continue  # "a veteran Western movie actor", "Southern rock": a region's or a genre's adjective, no people
        if label == "PERSON" and doc[start].text == "The" and not doc[start].is_sent_start and end - start > 1:
            label = ENTITY  # "her career at The Bill": a capital "The" inside a sentence is a title's, no person's
        text = " ".join(doc[start:named_end(doc, start, end, label)].text.split())
        if not is_name(text) or is_hyphenated(doc, end) or is_capitalised_class(doc[start:end]) or is_job_title(doc[start:end]):
            continue
        if start > 0 and doc[start - 1].lower_ in _DOWNTOWN and label in ("ORG", "PERSON", "NORP"):
            label = "GPE"  # "downtown Clearwater": a town, whatever the tagger said
        if end - start == 1 and label in ("ORG", "PERSON") and _demonym(doc[start]):
            label = "NORP"  # "a Welsh singer": the tagger's organisation is the singer's nationality
        if label == "NORP" and _spoken(doc[start:end].root):
            label = "LANGUAGE"  # "fluent in English, French and Italian": the language, not the people
        if start > 0 and doc[start - 1].lower_.rstrip(".") in _HONORIFICS:
            label = "PERSON"  # "President Washington", "General Clinch": the tagger calls them a place, a company
        elif is_honorific(doc[start].text) and end - start > 1 and _who(doc[start:end].root):
            label = "PERSON"  # "General Clinch, who commanded the troops": the title is inside the tagger's span
        for part in listed_split(doc, NameSpan(start, end, text, typed_name(text, label), doc[start:end].root)):
            spans += [p for half in city_country_split(doc, part) for p in pair_split(doc, half)]
        taken.update(range(start, end))
    i = 0
    while i < len(doc):  # proper-noun chains NER missed
        if i in taken or not is_propn(doc[i]) or doc[i].ent_type_:
            i += 1
            continue
        j = chain_end(doc, i, taken)
        if numbered_start(doc, i, j) < i:
            i = numbered_start(doc, i, j)  # "California’s 26th Congressional District"
            spans = [s for s in spans if not i <= s.start < j]
            taken.difference_update(range(i, j))
        place = place_before(doc, i, j)
        if place is not None:
            spans = [s for s in spans if s.start != place.start]  # "Oregon" + "City High School"
            taken.difference_update(range(place.start, place.end))
            i = place.start
        if institution_end(doc, i, j) > j:
            j = institution_end(doc, i, j)
            spans = [s for s in spans if not i <= s.start < j]  # the country is inside the name now
        of = i - 2 if i >= 3 and doc[i - 1].lower_ == "the" else i - 1  # "Leader of the Opposition"
        if (of >= 1 and doc[of].lower_ == "of" and doc[of - 1].lower_ in _TITLES - _RULERS | {"leader"}) \
                or _portfolio(doc, i, j):
            i = j  # "Minister of Defense", "Commissioner for Crown Lands and Immigration": the office's field,
            continue  # not a named thing
        if i >= 1 and _league_before(doc, i, j) and any(s.start == i - 1 and s.end == i for s in spans):
            spans = [s for s in spans if s.start != i - 1]  # "the NFL All-Star Game": the league's own event
            i -= 1
        elif i >= 1 and doc[i - 1].pos_ == "ADJ" and doc[i - 1].text[:1].isupper() and not doc[i - 1].is_sent_start \
                and doc[i - 1].i not in taken and (j - i > 1 or (doc[i - 1].is_alpha and not _demonym(doc[i - 1])
                                                                 and doc[i - 1].lower_ not in common_words())):
            i -= 1  # "Turkish Women's Basketball League"; "Mercyful Fate" (no English adjective)
        elif i >= 1 and doc[i - 1].pos_ == "NOUN" and doc[i - 1].is_title and doc[i - 1].dep_ == "compound" \
                and doc[i - 1].head.i in range(i, j) and doc[i - 1].lower_ in given_names() and doc[i - 1].i not in taken:
            i -= 1  # "Cecil Schwabe (3 September 1897 – …)": a given name the parser took for a noun
        if i >= 1 and doc[i - 1].text == "The" and not doc[i - 1].is_sent_start and doc[i - 1].i not in taken:
            i -= 1  # "a member of The Cult"
        text = doc[i:j].text
        if is_hyphenated(doc, j) or office_body(doc, i, j) or postnominal(doc, i, j):
            i = j
            continue
        first = (doc[i].is_sent_start and j - i == 1 and (doc[i].lower_ in _TITLES or plural_class(doc[i]))) \
            or plural_heading(doc, i, j)
        if is_name(text) and not first and not all(t.lower_ in _TITLES for t in doc[i:j]) and not is_capitalised_class(doc[i:j]) \
                and not is_job_title(doc[i:j]):
            honorific = i > 0 and doc[i - 1].lower_.rstrip(".") in _HONORIFICS or _titled(doc[i:j])
            spans.append(NameSpan(i, j, text, "PERSON" if honorific else typed_name(text, ENTITY), doc[i:j].root))
            taken.update(range(i, j))
        i = j
    quoted = quoted_stretches(doc)
    spans = [s for s in _subtitled(doc, sorted(spans, key=lambda s: s.start))
             if not any(inside_quotes(doc, s, o, c) for o, c in quoted)]
    spans = [s for s in spans if not box_office_verdict(doc, s.end)  # 'recorded as "Blockbuster" at the box office'
             and not is_building_style(doc, s.start, s.end)  # "a Greek Revival home": its style, not its name
             and not degree_field(doc, s.start) and not job_field(doc, s.start, s.end)
             and not award_category_tail(doc, s.start)]  # "… Supporting Actress in a Comedy Series"  # "a Bachelor of Fine Arts"
    spans = languages_listed(sorted(spans, key=lambda s: s.start))
    spans = adjoined(doc, and_joined(doc, nationality_joined(doc, firm_listed(doc, campus_joined(doc, spans)))))
    return shared_heads(doc, family_surnames(shared_surnames(doc, spans)))


# Offices whose field is a portfolio, not a body ("the CEO of Beta Industries" names a company)
_PORTFOLIO_TITLES = {"minister", "ministers", "commissioner", "secretary", "ministry", "department", "spokesperson",
                     "spokesman", "spokeswoman", "undersecretary"}


def _league_before(doc: Any, i: int, j: int) -> bool:
    """A body's acronym the parse makes part of the name after it ("the NFL All-Star Game", "the NBA Draft")."""
    tok = doc[i - 1]
    return tok.ent_type_ == "ORG" and tok.is_upper and tok.is_alpha and 2 <= len(tok) <= 5 and tok.dep_ == "compound" \
        and tok.head.i in range(i, j) and (j - i > 1 or doc[i].text[:1].isupper())


def _after_article(doc: Any, start: int) -> bool:
    """An indefinite article before ``start``, past adjectives ("an Italian-born American Futurist painter")."""
    i = start - 1
    while i >= 0 and start - i <= 4 and (doc[i].pos_ == "ADJ" or is_demonym(doc[i].text) or doc[i].text in ("-", "–")
                                        or doc[i].lower_ == "born"):
        i -= 1
    return i >= 0 and doc[i].lower_ in ("a", "an")


def _subtitled(doc: Any, spans: list[NameSpan]) -> list[NameSpan]:
    """"Big Hero 6" + ": The Series": a subtitle after a colon is the title's, and so is a name after its "of"
    ("…: The Bizarre Story of The Brady Bunch Variety Hour")."""
    out: list[NameSpan] = []
    for span in spans:
        prev = out[-1] if out else None
        if prev is not None and ": " in prev.text and prev.label == "WORK_OF_ART" and span.start == prev.end + 1 \
                and doc[prev.end].lower_ == "of" and doc[span.start].text[:1].isupper():
            text = f"{prev.text} of {span.text}"  # "…: The Bizarre Story" + "of The Brady Bunch Variety Hour"
            out[-1] = NameSpan(prev.start, span.end, text, prev.label, doc[prev.start:span.end].root)
            continue
        if span.start < 2 or doc[span.start].text != "The" or doc[span.start - 1].text != ":":
            out.append(span)
            continue
        if prev is not None and span.start == prev.end + 1:
            label = "WORK_OF_ART" if "WORK_OF_ART" in (prev.label, span.label) else prev.label
            out[-1] = NameSpan(prev.start, span.end, f"{prev.text}: {span.text}", label, doc[prev.start:span.end].root)
            continue
        k = span.start - 2  # an untagged title before the colon: "Big Hero 6"
        while k >= doc[span.start].sent.start and (doc[k].text[:1].isupper() or doc[k].like_num) \
                and not (prev is not None and k < prev.end):
            k -= 1
        if prev is not None and prev.end == k + 1 and k + 1 < span.start - 1:
            k, out = prev.start - 1, out[:-1]  # "Star" + "Wars" + ": The Clone Wars"
        if k + 1 < span.start - 1 and doc[k + 1].text[:1].isupper():
            text = f"{doc[k + 1:span.start - 1].text}: {span.text}"
            out.append(NameSpan(k + 1, span.end, text, "WORK_OF_ART", doc[k + 1:span.end].root))
        else:
            out.append(span)
    return out


def _portfolio(doc: Any, start: int, end: int) -> bool:
    """A field of an office, in common words ("Commissioner for Crown Lands and Immigration", "Minister of
    Education"): no named thing ("President of Microsoft" names one)."""
    words = [t.lower_ for t in doc[start:end] if t.lower_ not in ("and", "of", "the", "&")]
    if not words or not all(w in common_words() for w in words):
        return False
    i = start - 1  # back over the fields before it: "Minister of Education, Youth and" + "Culture"
    while i > 1 and (doc[i].lower_ in ("and", ",", "&") or (doc[i].text[:1].isupper() and doc[i].lower_ in common_words())):
        i -= 1
    return i >= 1 and doc[i].lower_ in ("of", "for") and doc[i - 1].lower_ in _PORTFOLIO_TITLES


def _demonym(tok: Any) -> bool:
    """A one-word name before a common noun that reads as a nationality ("Welsh", "Danish", "Italian")."""
    return tok.dep_ in ("compound", "amod") and tok.head.pos_ == "NOUN" and tok.head.i > tok.i \
        and bool(_DEMONYM.fullmatch(tok.text))


def _spoken(tok: Any) -> bool:
    """Whether a nationality word names a language: the object of "speaks", "fluent in", "translated into"."""
    while tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head
    head = tok.head
    if tok.dep_ == "dobj" and head.lemma_.lower() in _SPEAKING:
        return True
    return tok.dep_ == "pobj" and head.lower_ in ("in", "into") and head.head.lemma_.lower() in (
        "fluent", "proficient", "translate", "write", "sing", "dub", "publish")


def _who(root: Any) -> bool:
    """The name is what a "who" clause is about: a person (a company takes "which")."""
    return any(c.dep_ == "relcl" and any(t.lower_ in ("who", "whom", "whose") and t.i < c.i for t in c.subtree)
               for c in root.children)


def _titled(chain: Any) -> bool:
    """A chain the tagger left untyped that opens with an honorific names a person ("General Paredes"), unless
    its head is a class word ("General Assembly", "President Hotel")."""
    words = [t.text for t in chain]
    return len(words) > 1 and is_honorific(words[0]) and not any(w.lower() in CLASS_TYPES for w in words[1:]) \
        and head_label(words[1:]) is None


def typed_name(text: str, label: str) -> str:
    """The tagger's label, unless the name's head noun says otherwise ("Aloha Stadium" is a place, whatever the
    tagger said). A two-word person's name keeps its tag: "John Lake", "David Castle" are people."""
    words = text.split()
    if label == "NORP" and len(words) > 1 and not (any(is_demonym(w) for w in words) or words[-1].endswith("s")
                                                   or text.lower() in FAITHS):
        return ENTITY  # "written by Girish Dhamija": a people's name has a nationality word or a plural
    if len(words) > 1 and words[-1].lower() in COMPANY_HEADS:
        return "ORG"  # "Fantasy Cruises", "Chandris Lines": no one's surname
    if label == "PERSON" and len(words) > 1 and words[-1].lower() in _PLACE_HEADS:
        return "GPE"  # "Sioux Falls", "Palm Springs", "Kings County" are no one's name
    head = head_label(words)
    if head is None or (label == "PERSON" and len(words) == 2):
        return label
    return head


def strip_titles(name: str) -> str:
    """A person's name without honorifics ("President Abraham Lincoln" -> "Abraham Lincoln")."""
    words = name.split()
    while len(words) > 1 and words[0].rstrip(".").lower() in _TITLES:
        words = words[1:]
    return " ".join(words)
