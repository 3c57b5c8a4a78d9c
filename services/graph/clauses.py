"""Facts from one parsed sentence: subject, canonical relation, named object, the raw phrase, and the clause.

The dependency parse gives the clauses; :class:`Resolver` turns a token into the entity it stands for. Rules:

* A fact joins two *named* things (a name, the topic, or a pronoun or description resolved to one). A common
  noun is followed to the name it introduces: its appositive ("the artist William Holman Hunt"), its "of"
  ("the city of Houston"), its "such as" / "including" list; otherwise it gives no fact.
* Verb + object, verb + preposition + object, each coordinated object one fact ("stars A and B").
* The passive takes its agent as the subject ("bordered by Houston" → Houston borders …).
* A copula with a relational noun ("is the capital of France", "was a member of Queen") and a noun with "by"
  ("a painting by Hunt": Hunt created it); a participle on the class noun ("a film directed by X") belongs to
  the subject of the copula. An appositive or a compound title does the same for a name ("Apple CEO Tim Cook").
* A clause that does not state what happened gives nothing (:mod:`services.graph.factuality`: negated,
  hypothetical, an infinitive of wanting or duty), nor does a question.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from services.graph.classes import class_label
from services.graph.clause_shapes import (
    PARTITIVE,
    absolute,
    behind_by,
    cast_pairs,
    comparison,
    container,
    describing,
    locates_object,
    name_before_by,
    naming_the,
    qualifier,
    role_as_verb,
)
from services.graph.clause_subjects import OBJECTS, agents_of, subjects_of
from services.graph.coreference import Ref
from services.graph.factuality import not_stated
from services.graph.gazetteer import is_demonym, place_names
from services.graph.name_bounds import PEERAGES
from services.graph.path_facts import TIME_PREPS, path_facts
from services.graph.resolver import BODY_PARTS, LISTING, Resolver, Triple, ranked, with_conj
from services.graph.spans import ENTITY, kind
from services.graph.vocabulary import FAITHS, NATIONALITY, RELATED_TO, RELIGION, TOOK_PART_IN, noun_label, verb_label

MAKING = {"created", "wrote", "directed", "produced", "founded"}  # what "a … by X" can say X did
# Light verbs: the object noun says what happened ("earned a nomination for" is a nomination, not a win).
# Labels a verb keeps for the party its object noun is shared with ("signed a treaty with Mexico")
BETWEEN_PARTIES = {"signed", "fought", "met", "traded_with", "allied_with", "collaborated_with", "married"}
LIGHT_VERBS = {"earn", "receive", "get", "gain", "make", "have", "take", "hold", "give", "draw", "garner"}
SCENE = {"with", "in", "at", "on", "across", "throughout", "within", "inside", "outside", "around", "near", "during", "among"}
SPORTS_NAMED = {"football", "rules"}  # "American football", "Australian rules football" are sports
ENVOYS = {"minister", "ambassador", "envoy", "consul", "commissioner", "agent", "representative", "delegate"}
# Verbs of thinking, holding and passing on: with a name as their object alone they say nothing of how two named
# things relate ("considered Texas [as …]", "bore the same relation to Mexico", "communicated it to Congress").
UNSAID = {"consider", "regard", "understand", "believe", "think", "deem", "view", "treat", "bear", "borne", "communicate",
          "submit", "transmit", "suppose", "hope", "trust", "owe", "pledge", "invite", "lay", "present",
          "request", "ask", "urge", "instruct"}
# Verbs that characterise their object with "as": "claimed this river as her boundary", "described the track as a
# classic", "identified them as vulnerable" say what the subject holds the object to be, not that it won, found or
# declared it.
CHARACTERISING = {"claim", "describe", "identify", "recognize", "recognise", "classify", "define", "list", "rank",
                  "hail", "cite", "count", "acknowledge", "accept", "label", "brand", "characterize", "characterise"}


_RANKS = {"director", "captain", "officer", "leader", "coach", "manager", "commander", "executive", "head"}


def _compound(noun: Any) -> str:
    mods = [t.lower_ for t in noun.children if t.dep_ in ("compound", "amod") and t.i < noun.i and t.is_alpha
            and not t.ent_type_]
    doc = noun.doc
    if noun.i + 4 < len(doc) and doc[noun.i + 1:noun.i + 5].text.lower() == "-in-chief":
        return " ".join([*mods, f"{noun.lemma_.lower()}-in-chief"])  # "the editor-in-chief of the Sunday Times"
    return " ".join([*mods, noun.lemma_.lower()])


def _named_thing(noun: Any, resolver: Resolver) -> Any:
    """ "X was the name of a live action spoof show": X is the show (and no "name"); "X is the title of a novel"."""
    if noun.lower_ not in ("name", "title"):
        return noun
    of = [p for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
          if p.dep_ == "pobj" and p.pos_ == "NOUN" and p.i not in resolver.by_token]
    return of[0] if of else noun


def _class_noun(noun: Any) -> Any:
    """The noun that states the class: "an American film and theatrical producer" is a producer, "film" only
    shares its modifiers (the parser makes "film" the head and "producer" its conjunct)."""
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
    performer = stated.lemma_.lower() == "act" and not any(c.dep_ == "prep" and c.lower_ == "of" for c in stated.children)
    for subject in subject_refs:
        if class_label(stated.lemma_) and not performer:  # "were the main act": a performer, no law
            kind_of = next((c.lower_ for c in stated.children if c.dep_ in ("compound", "amod") and c.i == stated.i - 1), "")
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


def sentence_triples(sent: Any, resolver: Resolver) -> list[Triple]:
    """Every fact the sentence states between named things."""
    if sent.text.rstrip().endswith("?"):
        return []
    out: list[Triple] = []
    for verb in sent:
        if verb.pos_ not in ("VERB", "AUX") or not_stated(verb) or comparison(verb) or verb.i in resolver.by_token \
                or role_as_verb(verb) or (verb.i > 0 and verb.doc[verb.i - 1].tag_ == "POS"):
            continue  # (a verb inside a name, '"Hold Da Faith"', says nothing; nor a role the parser made a verb,
            # nor a noun after a possessive: "with Shakespeare's play "A Midsummer Night's Dream"")
        if verb.lemma_.lower() in UNSAID:  # "considered Texas", "communicated this opinion to Congress"
            out += [replace(t, unsaid=True) for t in _verb_triples(verb, resolver, out) if t.label != RELATED_TO]
        else:
            out += _verb_triples(verb, resolver, out)
    return out


def _verb_triples(verb: Any, resolver: Resolver, found: list[Triple]) -> list[Triple]:
    """The facts one verb states."""
    out: list[Triple] = []
    subjects, passive, owners = subjects_of(verb, resolver)
    lemma = verb.lemma_.lower()
    if owners and passive:  # "her novel was published by X": the author is published by X
        label = verb_label(lemma, "by")
        for c in verb.children:
            if c.dep_ == "agent" or (c.dep_ == "prep" and c.lower_ == "by"):
                for o in with_conj(g for g in c.children if g.dep_ == "pobj"):
                    out += [Triple(w, label, verb.text, r, frozenset({verb.i}))
                            for r in resolver.refs(o) for w in owners]
    if not subjects or (verb.dep_ == "acl" and qualifier(verb.head)) \
            or any(c.dep_ in ("nsubj", "nsubjpass") and qualifier(c) for c in verb.children):
        return out  # "a school in Manhattan, New York City, New York established in 1876 by Arthur Cutler": the
        # participle is the school's; the state after the comma only says which New York City
    particle = " ".join(c.lower_ for c in verb.children if c.dep_ == "prt")
    anchors = frozenset({verb.i})
    agents = agents_of(verb, passive, resolver)
    for agent in agents:  # the passive: the agent is the subject
        label = verb_label(lemma, None, particle)
        for s in subjects:
            if lemma == "make" and s.label == "PERSON" and not any(c.dep_ in ("oprd", "xcomp") for c in verb.children):
                continue  # "… leads Fay Wray and Robert Armstrong, and was made by a team including Cooper": the
                # parse lent the film's verb a person subject; no one is made (but "was made a knight by")
            out.append(Triple(agent, label, verb.text, s, anchors))  # "remixed", read agent -> subject
    characterised = lemma in CHARACTERISING and any(c.dep_ == "prep" and c.lower_ == "as" for c in verb.children)
    for child in verb.children:
        if (child.dep_ in OBJECTS and lemma not in _BASING) or _listed_after_colon(child, verb, resolver):
            # ("Borchert based it on the true story of …": what he based is no influence on him)
            for obj in with_conj([child]):
                label = RELATED_TO if characterised else verb_label(lemma, None, particle)
                if passive and lemma in _GIVING:  # "Agüero was given the Golden Ball": the subject received it;
                    # not a name through a noun ("was given the subtitle Game Fēngjǐngxiàn", "granted an NFL team")
                    label = "won" if obj.i in resolver.by_token and not any(
                        c.dep_ in ("compound", "amod") and c.pos_ == "NOUN" and c.text.islower() for c in obj.children
                    ) else RELATED_TO
                if label == "known_as" and not passive:
                    continue  # "Time called them 'the most recognisable face'": the name is their complement's
                if qualifier(obj):
                    continue  # "includes Worcester, Massachusetts": the state only says which Worcester
                # a name reached through a noun ("made performances, including Mirandolina") keeps the noun
                raw = _raw(verb, particle, None) + ("" if obj.i in resolver.by_token else f" {obj.text}")
                for o in resolver.refs(obj):
                    out += [Triple(s, label, raw, o, anchors) for s in subjects]
                noun_kind = kind(class_label(obj.lemma_) or "")
                if obj.i not in resolver.by_token and noun_kind != "other":
                    # "starring his wife Bo Derek, Miles O'Keeffe and Richard Harris": the names listed after the
                    # noun's own name are the verb's objects too, when they are what the noun is (not "produced 20
                    # tornadoes …; and the 1974 Super Outbreak") and the subject is a named thing
                    listed = [c for a in obj.children if a.dep_ == "appos" and a.i in resolver.by_token
                              for c in with_conj([a])[1:] if c.i in resolver.by_token
                              and kind(resolver.by_token[c.i][1].label) == noun_kind]
                    short = raw if label == RELATED_TO else _raw(verb, particle, None)  # "has divisions" says more
                    out += [Triple(s, label, short, resolver.by_token[c.i][1], anchors) for c in listed for s in subjects
                            if s.label != ENTITY]
            for prep in (c for c in child.children if c.dep_ == "prep" and c.lower_ not in LISTING
                         and (c.lower_ != "of" or noun_label(child.lemma_, "of"))
                         and not _second_object(child)):
                # "defying the power of Mexico": an "of" completes its noun, unless the noun is relational
                # "signed a treaty with Mexico": the object noun, not the verb, says what the preposition means
                # "wrote episodes of Alias": wrote, not part_of; "commands the Nautilus near Vigo Bay": a place
                # "operates a service to Lisbon": the verb's label is said of its object noun, not of the name;
                # the name takes it through a relational "of" ("recorded a version of the song") and, for a
                # verb between two parties, through "with" ("signed a treaty with Mexico")
                light = noun_label(child.lemma_, prep.lower_) if lemma in LIGHT_VERBS else None
                label = verb_label(lemma, None, particle)
                if not (prep.lower_ == "of" or (prep.lower_ == "with" and label in BETWEEN_PARTIES)) \
                        or child.lemma_.lower() in PARTITIVE | _PARTS or ranked(child):
                    label = RELATED_TO  # "bought the Music division of Future US": a part of it, not Future US;
                    # "comprising six states of the northeastern United States": some of its states
                label = light or label
                for pobj in with_conj(c for c in prep.children if c.dep_ == "pobj"):
                    for o in resolver.refs(pobj):
                        raw = f"{_raw(verb, particle, None)} {child.text} {prep.text}"
                        out += [Triple(s, label, raw, o, anchors) for s in subjects]
        elif child.dep_ in ("prep", "dative") and child.lower_ != "by" and child.i not in resolver.by_token:
            # (a preposition inside a name is the name's: "the University of North Carolina at Chapel Hill")
            label = verb_label(lemma, child.lower_, particle)
            if lemma in _BASING and any(c.dep_ == "dobj" for c in verb.children):
                continue  # "Borchert based it on the true story of …": the work is based on it, not he
            if label in ("moved_to", "worked_for", "founded_in") and any(c.dep_ == "dobj" for c in verb.children):
                label = RELATED_TO  # "returned one Member to the House", "sent troops to Mexico", "they traded Tom
                # Hammonds … to the Charlotte Hornets": the object moved, and the subject works for no one; "the
                # Company established the rule in the city": the rule was founded there, not the Company
            actors = [r for c in verb.children if c.dep_ == "dobj" for r in resolver.refs(c)] \
                if label == "portrayed" else []
            if actors and any(c.dep_ == "prep" and c.lower_ == "as" and c.i < child.i for c in verb.children):
                continue  # "… and Elizabeth Olsen as his first wife": the first "as" paired the later actors
            if actors:  # "a film … starring Tom Hiddleston as Hank Williams": the actor plays him, not the film
                for cast, role in cast_pairs(actors, child, resolver):
                    out += [Triple(a, label, _raw(verb, particle, child.text), o, anchors) for a in cast for o in role]
                    if cast is not actors:  # "… and Elizabeth Olsen as Audrey Williams": the film stars her too
                        out += [Triple(s, "stars", _raw(verb, particle, None), a, anchors) for a in cast
                                for s in subjects]
                continue
            if passive and label == "granted_to":  # "it was sold to Crosstown": Crosstown acquired it
                for pobj in with_conj(c for c in child.children if c.dep_ == "pobj"):
                    out += [Triple(o, "acquired", _raw(verb, particle, child.text), s, anchors)
                            for o in resolver.refs(pobj) for s in subjects]
                continue
            if lemma in ("be", "do") and label == RELATED_TO:
                continue  # "as New Orleans does to the Mississippi": the verb stands for another, unsaid
            if child.i < verb.i and label == "released_in" and any(
                    class_label(p.lemma_) == "WORK_OF_ART" for p in child.children if p.dep_ == "pobj"):
                continue  # "In the episode, Homer makes a wish": the story's scene, no release
            if child.i < verb.i and label == RELATED_TO and child.lower_ in SCENE:
                continue  # "In the United States, education reform acknowledges …": a scene, no relation (but
                # "To the Cherokees, … the United States have granted": the fronted object is one)
            if absolute(child, verb) or locates_object(child, verb, resolver):
                continue  # "With Zannino in jail, Grasso became underboss": Zannino is no party to it
            if child.lower_ == "under" and any(p.lemma_.lower() in _ALIAS_NOUNS for p in child.children):
                continue  # the doer's other name: below
            pobjs = [p for p in with_conj(c for c in child.children if c.dep_ == "pobj")
                     if not describing(p, resolver) and not behind_by(child, p)]
            for pobj in pobjs:
                held = "located_in" if label == "located_near" and container(pobj, pobjs) else label
                for o in resolver.refs(pobj):
                    out += [Triple(s, held, _raw(verb, particle, child.text), o, anchors) for s in subjects]
                if pobj.i in resolver.by_token or resolver.refs(pobj) or child.i < verb.i:
                    continue  # "For her portrayal of Kate, Brewer earned …": a fronted adjunct is no object
                if not (class_label(pobj.lemma_) or any(noun_label(pobj.lemma_, c.lower_) for c in pobj.children)):
                    continue  # "played as a tackle at Oklahoma", not "pledged against restoration in Mexico"
                if child.lower_ in TIME_PREPS:
                    continue  # "signed with the Calgary Flames in 1983 after three seasons with the Clarkson Golden
                    # Knights": the seasons are another time, neither the verb's deed nor its date
                for inner in (c for c in pobj.children if c.dep_ == "prep" and c.lower_ != "of"):
                    # "came under attack from friends of Johnson": an "of" names whose the friends are, not the verb's
                    inner_label = verb_label(lemma, inner.lower_, particle)
                    raw = f"{_raw(verb, particle, child.text)} {pobj.text} {inner.text}"
                    for o in (r for p in with_conj(c for c in inner.children if c.dep_ == "pobj")
                              for r in resolver.refs(p)):
                        out += [Triple(s, inner_label, raw, o, anchors) for s in subjects]
        elif child.dep_ in ("attr", "acomp", "oprd") and not passive:
            if child.i in resolver.by_token:
                continue  # "X is Y" between two names: an identity, not a relation
            out += noun_facts(subjects, child, resolver, anchors | {child.i})
    if resolver.context.topic is not None:  # without a topic (an address, a report) its guesses were mostly
        out += path_facts(verb, subjects, resolver, found + out, anchors)  # wrong: 77.5% of a speech sample
    return _other_names(verb, out, agents if passive and agents else subjects, resolver, anchors)


def _other_names(verb: Any, out: list[Triple], doers: list[Ref], resolver: Resolver, anchors: frozenset[int]) -> list[Triple]:
    """ "performed under the stage name Cecil Parker", "released by Steven Wilson under the pseudonym Bass
    Communion": the name is the doer's other name, no party to the deed."""
    nouns = [p for c in verb.children if c.dep_ == "prep" and c.lower_ == "under" for p in c.children
             if p.dep_ == "pobj" and p.lemma_.lower() in _ALIAS_NOUNS]
    after = [p.doc[p.i + 1] for p in nouns if p.i + 1 < len(p.doc) and p.i + 1 in resolver.by_token]
    names = [r for t in nouns + after for r in resolver.refs(t)]  # (the parser may make the name the verb's object)
    if not names:
        return out
    return [t for t in out if t.object not in names and t.subject not in names] + [
        Triple(d, "known_as", f"{verb.text} under", n, anchors) for n in names for d in doers
        if d != n and kind(d.label) != "place"]


# Adjectives the tagger calls a people that name no nation: games, continents
_PARTY_WORDS = {"democratic", "democrat", "republican", "labour", "labor", "conservative", "liberal", "socialist",
                "communist", "tory", "whig", "federalist", "nationalist", "green", "libertarian", "unionist"}
_WORDS_OF_A_LANGUAGE = {"word", "term", "name", "phrase", "expression", "spelling", "translation", "dialect", "text",
                        "inscription", "title", "verb", "noun", "adjective", "idiom", "proverb", "pronunciation"}
_NO_NATIONS = {"olympic", "paralympic", "olympian", "north american", "south american", "latin american",
               "central american", "european", "asian", "african", "oceanian", "american continental"}

# Parts of a body ("a division of", "a stake in"): what is done to them is not done to the whole
_PARTS = BODY_PARTS | {"stake", "share", "assets"}
# Another name one goes by: "under the stage name Cecil Parker"
_ALIAS_NOUNS = {"name", "pseudonym", "alias", "moniker", "pen-name", "penname", "nickname", "sobriquet", "handle"}

# A film industry's name ("Bollywood", "Tollywood", "Hollywood", "Nollywood"): no maker of its films
_INDUSTRY = re.compile(r"[A-Z][a-z]*(?:llywood|ollywood)|Hollywood|Sandalwood")

# Offices a place before them is the seat of, not the holder's origin ("a United States Representative from Maine")
_OFFICE_NOUNS = {"representative", "senator", "congressman", "congresswoman", "assemblyman", "assemblywoman",
                 "legislator", "delegate", "ambassador", "attorney", "marshal", "judge", "governor", "mayor",
                 "councillor", "councilor", "alderman", "commissioner", "consul", "envoy", "minister", "secretary"}

# Verbs of giving: in the passive with an object ("was given the Golden Ball", "was awarded the prize"), the
# subject received the object
_GIVING = {"give", "award", "grant", "present", "hand", "offer", "bestow"}
# Verbs whose object is the thing based on something ("Borchert based it on the true story of …"): no relation of
# the subject to the object, nor to what it is based on
_BASING = {"base", "model"}


def _listed_after_colon(child: Any, verb: Any, resolver: Resolver) -> bool:
    """A name the parser left unattached after the verb's colon: 'the films in which he starred: "The Life and
    Death of Colonel Blimp", …' lists what he starred in."""
    if child.dep_ not in ("intj", "dep", "npadvmod") or child.i not in resolver.by_token or child.i <= verb.i:
        return False
    before = next((t for t in reversed(verb.doc[verb.i + 1:child.i]) if t.text not in ('"', "“", "”", "'")), None)
    return before is not None and before.text == ":"


def _second_object(obj: Any) -> bool:
    """An object after another of the same verb is that one's apposition the parser split off: in "requested Mr.
    Madison, at that time a member of the House" the member is Madison, and Washington is no member."""
    return any(c.dep_ in OBJECTS and c.i < obj.i for c in obj.head.children)


def _raw(verb: Any, particle: str, prep: str | None) -> str:
    aux = [c.text for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i < verb.i]
    return " ".join([*aux[-1:], verb.text, *([particle] if particle else []), *([prep] if prep else [])])


__all__ = ["noun_facts", "sentence_triples"]
