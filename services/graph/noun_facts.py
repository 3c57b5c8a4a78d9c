"""Facts a relational or class noun gives its subject: "(is) the capital of France", "a painting by Hunt", "an
American actor", "a village in County Kerry"; and the class itself, which types the subject. Read for a copula's
complement (services/graph/clauses.py) and for a name's appositive (services/graph/name_facts.py)."""

from __future__ import annotations

import re
from typing import Any

from services.graph.classes import class_label
from services.graph.clause_shapes import name_before_by, naming_the
from services.graph.coordination import with_conj
from services.graph.coreference import Ref
from services.graph.gazetteer import is_demonym, place_names
from services.graph.name_bounds import PEERAGES
from services.graph.name_words import given_names
from services.graph.resolver import Resolver, Triple
from services.graph.spans import NameSpan, kind
from services.graph.vocabulary import FAITHS, NATIONALITY, RELATED_TO, RELIGION, TOOK_PART_IN, noun_label

MAKING = {"created", "wrote", "directed", "produced", "founded"}  # what "a … by X" can say X did
SPORTS_NAMED = {"football", "rules"}  # "American football", "Australian rules football" are sports
ENVOYS = {"minister", "ambassador", "envoy", "consul", "commissioner", "agent", "representative", "delegate"}
# Nations whose name after another people's, without a hyphen, is the nationality ("a German American critic")
_NATIONS_OF_DESCENT = {"American", "Canadian", "Australian", "New Zealander", "Brazilian", "Argentine", "Argentinian"}
# Ranks a company or force has many of: "a director of CQX Group" is one of its officers, "the director of" leads it
_RANKS = {"director", "captain", "officer", "leader", "coach", "manager", "commander", "executive", "head"}

# Adjectives the tagger calls a people that name no nation: games, continents
_PARTY_WORDS = {"democratic", "democrat", "republican", "labour", "labor", "conservative", "liberal", "socialist",
                "communist", "tory", "whig", "federalist", "nationalist", "green", "libertarian", "unionist"}
_WORDS_OF_A_LANGUAGE = {"word", "term", "name", "phrase", "expression", "spelling", "translation", "dialect", "text",
                        "inscription", "title", "verb", "noun", "adjective", "idiom", "proverb", "pronunciation"}
_NO_NATIONS = {"olympic", "paralympic", "olympian", "north american", "south american", "latin american",
               "central american", "european", "asian", "african", "oceanian", "american continental"}

# A film industry's name ("Bollywood", "Tollywood", "Hollywood", "Nollywood"): no maker of its films
_INDUSTRY = re.compile(r"[A-Z][a-z]*(?:llywood|ollywood)|Hollywood|Sandalwood")

# Offices a place before them is the seat of, not the holder's origin ("a United States Representative from Maine")
_OFFICE_NOUNS = {"representative", "senator", "congressman", "congresswoman", "assemblyman", "assemblywoman",
                 "legislator", "delegate", "ambassador", "attorney", "marshal", "judge", "governor", "mayor",
                 "councillor", "councilor", "alderman", "commissioner", "consul", "envoy", "minister", "secretary"}


def _compound(noun: Any) -> str:
    mods = [t.lower_ for t in noun.children if t.dep_ in ("compound", "amod") and t.i < noun.i and t.is_alpha
            and not t.ent_type_]
    doc = noun.doc
    if noun.i + 4 < len(doc) and doc[noun.i + 1:noun.i + 5].text.lower() == "-in-chief":
        return " ".join([*mods, f"{noun.lemma_.lower()}-in-chief"])  # "the editor-in-chief of the Sunday Times"
    return " ".join([*mods, noun.lemma_.lower()])


def named_chair(owner: NameSpan, noun: Any) -> bool:
    """A title named for a man ("the Richard Charles Lee Director of the Asian Institute"): a chair, and no body
    whose member its holder is (but "Velvet Revolver drummer", a band the tagger called a person, is one)."""
    return owner.label == "PERSON" and owner.text.split()[0].lower() in given_names() and noun.text.istitle()


def _named_thing(noun: Any, resolver: Resolver) -> Any:
    """ "X was the name of a live action spoof show": X is the show (and no "name"); "X is the title of a novel"."""
    if noun.lower_ not in ("name", "title"):
        return noun
    of = [p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
          if p.dep_ == "pobj" and p.pos_ == "NOUN" and p.i not in resolver.by_token]
    return of[0] if of else noun


# Nouns that count or gather the things of their "of" ("a series of tornado outbreaks", "a set of tools"): the class
# is those things
_MEASURES = {"series", "set", "sequence", "succession", "pair", "string", "cluster"}


# Ranks of living things, and groups that hold things where a common noun names them ("the clarinet family")
_TAXA = {"genus", "subfamily", "superfamily", "suborder", "phylum", "clade"}
_GROUPS = {"family", "order", "tribe", "class"}


def _kind_of(noun: Any) -> str:
    """The word before a class noun that may make one class with it ("a publishing house", "an all-star game")."""
    doc, i = noun.doc, noun.i
    if i >= 3 and doc[i - 2].text == "-" and not doc[i - 2].whitespace_ and not doc[i - 3].whitespace_:
        return str(doc[i - 3:i].text).lower()  # (the tokeniser splits "all-star")
    return next((c.lower_ for c in noun.children if c.dep_ in ("compound", "amod") and c.i == i - 1), "")


def _of_a_kind(noun: Any) -> bool:
    """ "A member of the clarinet family", "a member of the genus Felis": one of a kind of things, no person (but
    "a member of the Kennedy family", "of the royal family" is one)."""
    if noun.lemma_.lower() != "member":
        return False
    for group in (p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
                  if p.dep_ == "pobj"):
        if group.lemma_.lower() in _TAXA or (group.lemma_.lower() in _GROUPS and any(
                c.dep_ == "compound" and c.pos_ == "NOUN" and c.text.islower() for c in group.children)):
            return True
    return False


def _class_noun(noun: Any) -> Any:
    """The noun that states the class: "an American film and theatrical producer" is a producer, "film" only
    shares its modifiers (the parser makes "film" the head and "producer" its conjunct); "a series of tornado
    outbreaks" are outbreaks."""
    if noun.lemma_.lower() in _MEASURES:  # "a series of tornado outbreaks" is outbreaks, no television series
        members = [p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
                   if p.dep_ == "pobj" and p.pos_ == "NOUN" and p.tag_ == "NNS" and class_label(p.lemma_)]
        if members:  # (of a kind no class names, the series stays: "a series of instrumental pieces")
            return members[0]
    conj = next((c for c in noun.children if c.dep_ == "conj" and c.pos_ == "NOUN" and c.i > noun.i), None)
    if conj is None or any(c.dep_ == "prep" for c in noun.children) or any(c.dep_ in ("det", "prep") for c in
                                                                           conj.children):
        return noun
    return conj if class_label(conj.lemma_) else noun


def noun_facts(subject_refs: list[Ref], noun: Any, resolver: Resolver, anchors: frozenset[int]) -> list[Triple]:
    """Facts a relational or class noun gives its subject: "(is) the capital of France", "a painting by Hunt",
    "an American actor"; and the class itself, which types the subject."""
    out: list[Triple] = []
    if noun.pos_ not in ("NOUN", "PROPN", "ADJ") or noun.i in resolver.by_token:
        return out
    noun = _named_thing(noun, resolver)
    modifiers = [m for m in noun.children if m.dep_ in ("amod", "compound", "nmod") and m.i < noun.i]
    modifiers += [g for m in modifiers if m.i not in resolver.by_token for g in m.children
                  if g.dep_ in ("amod", "compound", "nmod") and g.i < m.i]  # "an English-American film director"
    stated = _class_noun(noun)
    no_class = _of_a_kind(stated) or (  # "were the main act": a performer, no law
        stated.lemma_.lower() == "act" and not any(c.dep_ == "prep" and c.lower_ == "of" for c in stated.children))
    for subject in subject_refs:
        if class_label(stated.lemma_) and not no_class:
            kind_of = _kind_of(stated)
            resolver.context.state_class(subject, stated.lemma_, kind_of)  # "a publishing house"
        if subject.topic and resolver.context.topic_phrase is None and noun.pos_ == "NOUN":
            of = [p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
                  if p.dep_ == "pobj" and p.pos_ == "NOUN"]  # "a genus of flowering plant"
            phrase = _compound(noun) + (f" of {_compound(of[0])}" if of else "")
            resolver.context.topic_phrase = (phrase, noun)
        for mod in modifiers:
            if mod.i in resolver.by_token:
                span, ref = resolver.by_token[mod.i]
                raw = f"{mod.text} {noun.text}"  # a property, not an event: no clause date
                if span.end < len(noun.doc) and noun.doc[span.end].lower_ in SPORTS_NAMED:
                    continue  # "an American football coach": the sport's name, not the coach's nationality
                if span.end + 2 < len(noun.doc) and noun.doc[span.end + 1].text in ("-", "–") \
                        and noun.doc[span.end].pos_ == "NOUN" and noun.doc[span.end + 2].tag_ in ("VBN", "VBG", "JJ"):
                    continue  # "a Vietnam war-based film": the name qualifies the war, not the film (but "an
                    # American singer-songwriter", "an American non-profit executive" are American)
                if span.text.lower() in _NO_NATIONS or span.text.lower() in _PARTY_WORDS:
                    continue  # "an American two-time Olympic gold medal swimmer": the games'; "the only North
                    # American airport": a continent's; "the Democratic candidate": a party's; no nationality
                if noun.lemma_.lower() in _WORDS_OF_A_LANGUAGE and span.label in ("NORP", "LANGUAGE"):
                    continue  # "a masculine Akkadian word for a spirit": the word's language, no one's nation
                if span.label in ("NORP", "LANGUAGE") and span.start > 0 and span.start - 1 in resolver.by_token \
                        and resolver.by_token[span.start - 1][0].label in ("NORP", "LANGUAGE") \
                        and span.text not in _NATIONS_OF_DESCENT:
                    continue  # "a 2003 Indian Bengali thriller film": after its nation, the film's language (but a
                    # "German American film critic" is American)
                if span.label == "NORP" and class_label(noun.lemma_) in ("GPE", "LOC") \
                        and not is_demonym(span.text.split()[-1]):
                    continue  # "Salzkammergut region": a region's name the tagger made a people, no nation
                if span.label in ("NORP", "LANGUAGE") or (mod.pos_ == "ADJ" and span.end - span.start == 1) \
                        or (span.end - span.start == 1 and is_demonym(span.text)):  # "a Ugandan politician", tagged ORG
                    belief = RELIGION if ref.name.lower() in FAITHS else NATIONALITY
                    out.append(Triple(subject, belief, raw, ref, frozenset()))
                elif span.label == "GPE" or span.text.lower() in place_names():  # "a New Zealand cook", "a Chicago
                    # band"; "Hong Kong cantopop singer" whatever the tagger called Hong Kong
                    held = "served_in" if noun.lemma_.lower() in _OFFICE_NOUNS else "comes_from"
                    if class_label(noun.lemma_) == "EVENT":
                        held = "held_in"  # "the 1824 U.S. presidential election", "a New Zealand tournament"
                    held = NATIONALITY if noun.lemma_.lower() in ("citizen", "national", "subject") else held
                    out.append(Triple(subject, held, raw, ref, frozenset()))  # "a United States Representative"
                elif span.label == "EVENT":  # "a World War I flying ace", "an Olympic medalist"
                    out.append(Triple(subject, TOOK_PART_IN, raw, ref, frozenset()))
                elif span.label in ("ORG", "PERSON") and class_label(noun.lemma_) == "PERSON":
                    if named_chair(span, noun):
                        continue  # "the Richard Charles Lee Director": a chair, no body
                    out.append(Triple(subject, "member_of", raw, ref, frozenset()))  # "an NBA player"
                elif span.label in ("ORG", "PERSON") and class_label(noun.lemma_) in ("WORK_OF_ART", "PRODUCT") \
                        and not _INDUSTRY.fullmatch(span.text) and not is_demonym(span.text.split()[0]) \
                        and "-language" not in span.text:  # not "a 1996 Indian Hindi-language film"
                    out.append(Triple(ref, "created", raw, subject, frozenset()))  # "a Counting Crows song"; not "a
                    # 1971 Bollywood romantic drama film": an industry
    for prep in (c for c in noun.children if c.dep_ == "prep"):
        if prep.lower_ == "of" and noun.lower_ in PEERAGES:
            continue  # "Maud Herbert, Countess of Northumberland": a title, not where she lived
        label = noun_label(_compound(noun), prep.lower_) or noun_label(noun.lemma_, prep.lower_)
        if label == "leads" and noun.lemma_.lower() in _RANKS and any(c.dep_ == "det" and c.lower_ in ("a", "an")
                                                                     for c in noun.children):
            label = "member_of"  # "a director of CQX Group", "a retired captain of the US Air Force": one of its
            # officers; "the director of" leads it
        if label == "located_in" and prep.lower_ == "of" and naming_the(noun):
            continue  # "the largest municipality is the city of Thompson": the city is Thompson, not in it
        if prep.lower_ in ("in", "on", "near") and any(
                o.lower_ == "of" and o.i < prep.i and any(p.dep_ == "pobj" and p.i in resolver.by_token for p in o.children)
                for o in noun.children if o.dep_ == "prep"):
            continue  # "constable of Windsor Castle in Berkshire": the castle is in Berkshire, not he
        envoy = prep.lower_ == "of" and noun.lemma_.lower() in ENVOYS and _compound(noun) == noun.lemma_.lower()
        objects = [r for o in with_conj(c for c in prep.children if c.dep_ == "pobj") for r in resolver.refs(o)]
        raw = f"{noun.text} {prep.text}"
        sort_of = [c.text for c in noun.children if c.dep_ == "compound" and c.i == noun.i - 1
                   and (c.pos_ == "NOUN" or c.is_upper)]  # "music director", "MUSIC DIRECTOR"
        if noun.lemma_.lower() == "director" and sort_of:
            raw = f"{sort_of[0]} {raw}"  # "the MUSIC DIRECTOR of a Hindi movie" scored it; he directed nothing
        named = name_before_by(prep, resolver)
        if named is not None:  # "a location in the novel Strandloper by Alan Garner": he wrote the novel
            span, work = named
            if kind(work.label) == "work" or (span.start > 0 and class_label(prep.doc[span.start - 1].lemma_) == "WORK_OF_ART"):
                out += [Triple(obj, "created", f"{span.text} by", work, anchors) for obj in objects]
            continue
        for obj in objects:
            for subject in subject_refs:
                if prep.lower_ == "by":  # "a painting by Hunt", "an album by Avril Lavigne": the agent made it
                    out.append(Triple(obj, label if label in MAKING else "created", raw, subject, anchors))
                elif label == "created" and prep.lower_ == "of" and class_label(noun.lemma_) == "WORK_OF_ART":
                    out.append(Triple(obj, label, raw, subject, anchors))  # "a live album of Hank Williams": his
                elif envoy and kind(obj.label) == "place":  # "Mr. Thompson, the minister of the United States"
                    out.append(Triple(subject, "represented", raw, obj, anchors))  # is its envoy, not its minister
                elif label:
                    out.append(Triple(subject, label, raw, obj, anchors))
                elif prep.lower_ in ("in", "at", "on") and class_label(noun.lemma_) == "EVENT":
                    out.append(Triple(subject, "held_in", raw, obj, anchors))  # "a civil war in the United States"
                elif prep.lower_ in ("in", "on", "near", "at") and (class_label(noun.lemma_) in ("GPE", "LOC", "FAC")
                                                                   or obj.label in ("GPE", "LOC", "FAC")):
                    # "a village in County Kerry" is there; "active in Auckland", "a constable in Berkshire", "a
                    # beer in Belgium" only relate to it: a person, a work or a product is located nowhere
                    if class_label(noun.lemma_) is None and kind(subject.label) == "place" and noun.pos_ == "NOUN" \
                            and not any(c.dep_ == "det" for c in noun.children):
                        continue  # "double platinum in Denmark, platinum in Finland": no class of Denmark's
                    placed = (noun.pos_ != "ADJ" or kind(subject.label) == "place") \
                        and class_label(noun.lemma_) not in ("PERSON", "WORK_OF_ART", "PRODUCT")
                    out.append(Triple(subject, "located_in" if placed else RELATED_TO, raw, obj, anchors))
                elif prep.lower_ in ("in", "at", "within") and obj.label in ("ORG", "NORP"):
                    # "the head coach at Blinn College" works there; "a residential hall in ANU" is part of it
                    held = "worked_for" if class_label(noun.lemma_) == "PERSON" and obj.label == "ORG" else "part_of"
                    out.append(Triple(subject, held, raw, obj, anchors))
                elif prep.lower_ in ("in", "at") and obj.label == "EVENT" and class_label(noun.lemma_) in ("PERSON", "ORG"):
                    out.append(Triple(subject, "competed_in", raw, obj, anchors))  # "a runner-up at the Olympics"
                    # (a location is in a novel the tagger called an event, and competes in nothing)
                elif (prep.lower_ in ("from", "in") or (prep.lower_ == "of" and kind(obj.label) == "place")) \
                        and class_label(noun.lemma_) in ("PERSON", "ORG"):  # "the first band of the Big Four": no place
                    out.append(Triple(subject, "comes_from" if prep.lower_ == "from" else "based_in", raw, obj, anchors))
    return out
