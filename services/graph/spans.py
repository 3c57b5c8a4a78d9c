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

import re
from dataclasses import dataclass
from typing import Any

NAMED = {"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "EVENT", "LAW", "PRODUCT", "WORK_OF_ART", "LANGUAGE"}
ENTITY = "ENTITY"  # a proper name NER gave no type
KINDS = {"PERSON": "person", "ORG": "org", "GPE": "place", "LOC": "place", "FAC": "place", "NORP": "group",
         "EVENT": "event", "WORK_OF_ART": "work", "PRODUCT": "work", "LAW": "work", "LANGUAGE": "language"}
_TITLES = {"mr", "mrs", "ms", "miss", "dr", "sir", "dame", "lord", "lady", "president", "senator", "governor",
           "general", "gen", "colonel", "col", "captain", "capt", "king", "queen", "prince", "princess", "emperor",
           "pope", "saint", "st", "reverend", "rev", "professor", "prof", "judge", "justice", "chancellor",
           "secretary", "minister", "prime", "chairman", "ceo", "mayor", "admiral", "commodore", "lieutenant",
           "sheriff", "bishop", "archbishop", "cardinal", "rabbi", "father", "brother", "sister", "uncle", "aunt",
           "representative", "rep", "sen", "gov", "vice", "former", "late", "director", "coach", "chief", "maj", "lt",
           "sgt", "cpl", "pvt", "adm", "hon", "msgr", "fr", "mme", "mlle", "herr", "frau", "sr", "jr"}

# The class a sentence gives its subject ("X is a band") -> the NER label it stands for.
CLASS_TYPES: dict[str, str] = {}
for _label, _nouns in {
    "PERSON": "actor actress singer songwriter musician rapper guitarist drummer bassist pianist composer "
              "conductor writer author novelist poet playwright screenwriter journalist editor director producer "
              "filmmaker photographer painter artist sculptor architect designer politician statesman diplomat "
              "lawyer judge businessman businesswoman entrepreneur executive engineer scientist physicist chemist "
              "biologist mathematician economist historian philosopher psychologist sociologist linguist "
              "professor teacher academic scholar physician doctor surgeon nurse soldier officer general admiral "
              "commander pilot astronaut athlete player footballer cricketer boxer wrestler swimmer runner "
              "cyclist skater skier golfer racer driver jockey coach manager referee king queen prince princess "
              "emperor empress monarch pharaoh sultan nobleman noblewoman duke duchess earl count countess bishop "
              "priest pope saint missionary theologian explorer inventor model comedian comic dancer "
              "choreographer presenter host broadcaster personality youtuber blogger chef activist revolutionary "
              "leader president senator governor mayor minister congressman congresswoman representative "
              "official man woman boy girl person character vocalist frontman lyricist magician illustrator "
              "cartoonist animator voice novelist essayist critic spy criminal murderer superhero villain hero heroine "
              "protagonist member resident native citizen fighter aviator aviatrix ace catcher pitcher quarterback "
              "midfielder defender forward striker goalkeeper winger guard outfielder infielder batsman bowler "
              "sprinter tennis gymnast mountaineer sailor navigator astronomer botanist zoologist geologist "
              "anthropologist archaeologist surveyor merchant banker investor industrialist philanthropist "
              "socialite heir heiress courtier knight baron baroness marquess viscount bishop cleric monk nun "
              "abbot friar rabbi imam preacher evangelist saint martyr warrior chieftain chief consort "
              "mistress wife husband son daughter father mother brother sister lyricist rapper dj deejay "
              "frontwoman keyboardist saxophonist trumpeter violinist cellist organist harpist percussionist "
              "tenor soprano baritone mezzo-soprano contralto bass-baritone crooner diva idol entertainer "
              "impressionist ventriloquist stuntman stuntwoman",
    "ORG": "band group duo trio quartet company corporation firm business conglomerate manufacturer retailer "
           "brand label airline bank agency organization organisation association society institute institution "
           "foundation charity university college school academy club team franchise league federation union "
           "party government ministry department council committee army navy regiment battalion division "
           "brigade fleet squadron unit network channel station newspaper magazine publisher studio chain "
           "restaurant hotel church order orchestra choir ensemble consortium cooperative subsidiary "
           "startup developer tribe dynasty family",
    "GPE": "city town village country state nation province county municipality district borough suburb "
           "neighborhood neighbourhood commune hamlet capital metropolis region territory republic kingdom "
           "empire colony township parish settlement community locality prefecture canton emirate principality "
           "census-designated",
    "LOC": "river lake sea ocean mountain mountains hill valley island islands peninsula desert forest bay "
           "gulf strait coast beach volcano glacier canyon plain plateau continent archipelago creek waterfall "
           "reservoir cape",
    "FAC": "building bridge tower stadium arena airport station castle palace cathedral temple mosque "
           "museum gallery library hospital prison park garden square street road highway motorway railway "
           "line tunnel dam port harbour harbor canal theatre theater venue mall house mansion monument memorial "
           "fort fortress lighthouse campus skyscraper racecourse circuit track",
    "WORK_OF_ART": "film movie novel book album song single ep painting sculpture poem play opera musical "
                   "series show sitcom drama documentary episode game videogame comic manga anime novella "
                   "story anthology magazine journal soundtrack symphony concerto sonata composition work "
                   "franchise programme program miniseries telenovela podcast video",
    "PRODUCT": "car aircraft airplane ship vessel locomotive engine rifle gun tank vehicle motorcycle "
               "computer software console device phone smartphone camera satellite rocket missile "
               "submarine destroyer cruiser battleship frigate carrier",
    "EVENT": "war battle siege campaign election festival tournament championship championships competition "
             "race cup olympics games conference summit revolution uprising rebellion massacre disaster "
             "earthquake hurricane storm treaty ceremony award awards season contest marathon expedition crisis "
             "incident attack operation",
    "LAW": "act law bill amendment constitution treaty",
}.items():
    for _noun in _nouns.split():
        CLASS_TYPES.setdefault(_noun, _label)
# A class noun whose referent is plural or collective: "they" can stand for it.
COLLECTIVE_KINDS = {"org", "group"}


@dataclass
class NameSpan:
    start: int  # token offsets in the parsed doc
    end: int
    text: str
    label: str
    root: Any = None  # the span's syntactic head token

    def __contains__(self, i: int) -> bool:
        return self.start <= i < self.end


def kind(label: str) -> str:
    """A label's coarse kind: person, org, place, work, event, group, language, or other."""
    return KINDS.get(label, "other")


def compatible(a: str, b: str) -> bool:
    """Two labels may name one thing: the same kind, or one of them untyped."""
    return a == b or ENTITY in (a, b) or kind(a) == kind(b)


def is_name(text: str) -> bool:
    """A span reads as a name: a capitalised word of two letters or more, and no bare number or unit."""
    words = text.split()
    if not words or len(text) > 120:
        return False
    if any(re.fullmatch(r"[\d.,:/–-]+", w) for w in words) and not any(w[:1].isupper() and len(w) > 1 and
                                                                        w.isalpha() for w in words):
        return False
    if not any(w[:1].isupper() and sum(c.isalpha() for c in w) >= 2 for w in words):
        return False
    if re.match(r"^(c|ca|circa|fl|b|d)\.?\s*\d", text, re.I):  # "c. 1338", "b. 1950"
        return False
    return sum(c.isalpha() for c in text) >= 2  # "U.S." is a name; "C" of "°C" is not


def _is_propn(tok: Any) -> bool:
    return bool(tok.pos_ == "PROPN" and tok.text[:1].isupper() and tok.is_alpha)


def _repair(doc: Any, start: int, end: int, label: str = "") -> tuple[int, int]:
    """Widen a span over the proper nouns of the same name, cut a leading article and a trailing possessive."""
    sent_start = doc[start].sent.start
    while start > sent_start and _is_propn(doc[start - 1]) and doc[start - 1].head.i in range(start, end + 1) \
            and not doc[start - 1].ent_type_ and doc[start - 1].lower_ not in _TITLES:
        start -= 1  # "States House" is part of "United States House…"; "CEO" of "Apple CEO Tim Cook" is not
    while end < len(doc):
        tok = doc[end]
        if _is_propn(tok) and not tok.ent_type_ and tok.lower_ not in _TITLES and (tok.head.i in range(start, end)
                                                                                 or doc[end - 1].head.i == tok.i):
            end += 1
        elif tok.lower_ in ("of", "the", "de", "of the") and end + 1 < len(doc) and doc[end - 1].lower_ in ("of", "the") \
                and _is_propn(doc[end + 1]):
            end += 1
        elif doc[end - 1].lower_ in ("of", "the", "and", "de") and _is_propn(tok):
            end += 1
        elif tok.lower_ in ("of", "de") and label != "PERSON" and end + 1 < len(doc) and _is_propn(doc[end + 1]) \
                and doc[end + 1].ent_iob_ != "B" and tok.head.i in range(start, end):
            end += 1  # "United States House" + "of Representatives"; not "Smith of Boston" (a person)
        else:
            break
    while end - start > 1 and (doc[end - 1].lower_ in ("of", "the", "and", "de", "'s", "’s", "'", "-", ",")
                               or doc[end - 1].is_space or doc[end - 1].pos_ == "ADP" or doc[end - 1].is_quote):
        end -= 1
    while end - start > 1 and (doc[start].is_quote or doc[start].is_punct):
        start += 1
    while end - start > 1 and (doc[start].text in ("the", "a", "an", "'s", "’s") or (doc[start].lower_ in ("the", "a", "an")
                                                                                 and doc[start].is_sent_start)):
        start += 1  # "the Chicago Cubs" is "Chicago Cubs"; "The Beatles" mid-sentence keeps its article
    return start, end


def name_spans(doc: Any) -> list[NameSpan]:
    """Every name in the parsed text, repaired and filtered, in text order, without overlaps."""
    spans: list[NameSpan] = []
    taken: set[int] = set()
    for ent in doc.ents:
        if ent.label_ not in NAMED:
            continue
        start, end = _repair(doc, ent.start, ent.end, ent.label_)
        # "Eric became King": a tagged span that runs over a verb ends before it
        verb = next((t.i for t in doc[start + 1:end] if t.pos_ in ("VERB", "AUX") and t.tag_ != "NNP"), None)
        if verb is not None:
            end = verb
        if end <= start:
            continue
        if end - start > 2 and doc[start + 1].lower_ == "of" and (doc[start].lower_ in _TITLES or _place_word(doc[start])):
            start += 2  # "King of Sweden", "the Empire of Brazil", "the States of Mississippi": the name is the place
            label = ENTITY
        else:
            label = ent.label_
        if any(i in taken for i in range(start, end)):
            continue
        text = " ".join(doc[start:end].text.split())
        if not is_name(text) or _hyphenated(doc, end) or _common(doc[start:end]):
            continue
        spans.append(NameSpan(start, end, text, label, doc[start:end].root))
        taken.update(range(start, end))
    i = 0
    while i < len(doc):  # proper-noun chains NER missed
        if i in taken or not _is_propn(doc[i]) or doc[i].ent_type_:
            i += 1
            continue
        j = i
        while j < len(doc) and j not in taken and _is_propn(doc[j]) and not doc[j].ent_type_:
            j += 1
        text = doc[i:j].text
        if _hyphenated(doc, j):
            i = j
            continue
        first = doc[i].is_sent_start and j - i == 1 and doc[i].lower_ in _TITLES
        if is_name(text) and not first and not all(t.lower_ in _TITLES for t in doc[i:j]) and not _common(doc[i:j]):
            spans.append(NameSpan(i, j, text, ENTITY, doc[i:j].root))
            taken.update(range(i, j))
        i = j
    return sorted(spans, key=lambda s: s.start)


_COMMON = {"government", "executive", "legislature", "administration", "department", "territory", "territories",
           "union", "empire", "kingdom", "republic", "nation", "nations", "province", "provinces", "state", "states",
           "powers", "power", "people", "country", "constitution", "treaty", "minister", "ministers", "president"}


def _common(tokens: Any) -> bool:
    """One capitalised common noun is no name ("the Empire of Brazil", "the Executive", "the Provinces"): a class
    or title word, in the singular or plural; a name of one word that is not one ("Texas", "Congress") stays."""
    if len(tokens) != 1:
        return False
    word = tokens[0].lower_
    return any(w in CLASS_TYPES or w in _TITLES or w in _COMMON for w in (word, tokens[0].lemma_.lower(),
                                                                         word[:-1] if word.endswith("s") else word))


def _place_word(tok: Any) -> bool:
    word = tok.lower_[:-1] if tok.lower_.endswith("s") and tok.lower_[:-1] in CLASS_TYPES else tok.lower_
    return word in _COMMON or CLASS_TYPES.get(word) in ("GPE", "LOC")


def _hyphenated(doc: Any, end: int) -> bool:
    """A capitalised word joined by a hyphen to a lower-case one ("All-star", "Oscar-winning") is no name."""
    return end + 1 < len(doc) and doc[end].text == "-" and not doc[end].whitespace_ and doc[end + 1].is_lower \
        and not doc[end - 1].whitespace_


def strip_titles(name: str) -> str:
    """A person's name without honorifics ("President Abraham Lincoln" -> "Abraham Lincoln")."""
    words = name.split()
    while len(words) > 1 and words[0].rstrip(".").lower() in _TITLES:
        words = words[1:]
    return " ".join(words)


def class_label(noun: str) -> str | None:
    """The NER label a class noun stands for ("band" -> ORG), or None."""
    noun = noun.lower()
    return CLASS_TYPES.get(noun) or (CLASS_TYPES.get(noun[:-1]) if noun.endswith("s") else None)
