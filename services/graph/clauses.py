"""Facts from one parsed sentence: subject, canonical relation, named object, the raw phrase, and the clause.

The dependency parse gives the clauses; :class:`Resolver` turns a token into the entity it stands for. Rules:

* A fact joins two *named* things (a name, the topic, or a pronoun or description resolved to one). A common
  noun is followed to the name it introduces: its appositive ("the artist William Holman Hunt"), its "of"
  ("the city of Houston"), its "such as" / "including" list; otherwise it gives no fact.
* Verb + object, verb + preposition + object, each coordinated object one fact ("stars A and B").
* The passive takes its agent as the subject ("bordered by Houston" → Houston borders …).
* A copula with a relational noun ("is the capital of France", "was a member of Queen") and a noun with "by"
  ("a painting by Hunt": Hunt created it), read by :mod:`services.graph.noun_facts`; a participle on the class
  noun ("a film directed by X") belongs to the subject of the copula. An appositive or a compound title does the
  same for a name ("Apple CEO Tim Cook").
* A clause that does not state what happened gives nothing (:mod:`services.graph.factuality`: negated,
  hypothetical, an infinitive of wanting or duty), nor does a question.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.graph.classes import class_label
from services.graph.clause_shapes import (
    PARTITIVE,
    absolute,
    appositive_of,
    behind_by,
    cast_pairs,
    comparison,
    container,
    describing,
    locates_object,
    qualifier,
    role_as_verb,
    split_apposition,
)
from services.graph.clause_subjects import OBJECTS, agents_of, subjects_of
from services.graph.coordination import with_conj
from services.graph.coreference import Ref
from services.graph.factuality import not_stated
from services.graph.noun_facts import noun_facts
from services.graph.path_facts import TIME_PREPS, ascribes_object, path_facts, with_rank
from services.graph.resolver import BODY_PARTS, LISTING, Resolver, Triple, ranked
from services.graph.spans import ENTITY, kind
from services.graph.vocabulary import RELATED_TO, noun_label, verb_label

# Light verbs: the object noun says what happened ("earned a nomination for" is a nomination, not a win).
# Labels a verb keeps for the party its object noun is shared with ("signed a treaty with Mexico")
BETWEEN_PARTIES = {"signed", "fought", "met", "traded_with", "allied_with", "collaborated_with", "married"}
LIGHT_VERBS = {"earn", "receive", "get", "gain", "make", "have", "take", "hold", "give", "draw", "garner"}
SCENE = {"with", "in", "at", "on", "across", "throughout", "within", "inside", "outside", "around", "near", "during", "among"}
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
        elif any(c.lower_ == "respectively" for c in verb.children):
            out += _respectively(verb, _verb_triples(verb, resolver, out), resolver)
        else:
            out += _verb_triples(verb, resolver, out)
    return out


def _respectively(verb: Any, triples: list[Triple], resolver: Resolver) -> list[Triple]:
    """A clause with "respectively" pairs the list before that word with the other list, member by member: "…
    characters, played by Leroy Golding and Jacqui Gordon-Lawrence respectively" (the two characters one name here)
    pairs nothing, and no one played both. Facts without the list's members stay, and so do the facts of one
    partner named alone, whose list is no name's ("the band settled on Cliff Burton and Kirk Hammett, respectively")."""
    word = next(c for c in verb.children if c.lower_ == "respectively")
    last = verb.doc[word.i - 1 - (verb.doc[word.i - 1].text == ",")]
    first = last
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    listed = list(dict.fromkeys(resolver.by_token[t.i][1].name for t in [first, *first.conjuncts]
                                if t.i in resolver.by_token))
    if len(listed) < 2:
        return triples
    ours = [t for t in triples if t.subject.name in listed or t.object.name in listed]
    partners = list(dict.fromkeys(t.object.name if t.subject.name in listed else t.subject.name for t in ours))
    if len(partners) != len(listed):
        merged = len(partners) > 1 or any(w in ("and", "&") for p in partners for w in p.split())
        return [t for t in triples if t not in ours] if merged else triples  # "the band settled on Cliff Burton
        # and Kirk Hammett, respectively" (as bassist and lead guitarist): the band took both
    return [t for t in triples if t not in ours or (listed.index(t.subject.name) == partners.index(t.object.name)
                                                     if t.subject.name in listed
                                                     else listed.index(t.object.name) == partners.index(t.subject.name))]


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
        if split_apposition(child) and child.i not in resolver.by_token:
            continue  # "drew on a regular group of actors, the Carry On team": the group's apposition (a name
            # keeps its facts: "tying them with their NFC rivals, the San Francisco 49ers")
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
                        raw = f"{_raw(verb, particle, None)} {_noun_words(child)} {prep.text}"
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
            signed = [r for c in verb.children if c.dep_ == "dobj" for r in resolver.refs(c)] \
                if label == "published_by" else []  # "Zazula, who signed Metallica to Megaforce Records": the band
            titles = _objects_listed_after(pobjs, verb, resolver)
            for pobj in titles:  # "produced "Catastrophe" for Channel 4, as well as "Inside No. 9" …": produced
                out += [Triple(s, verb_label(lemma, None, particle), _raw(verb, particle, None), o, anchors)
                        for o in resolver.refs(pobj) for s in subjects]
            for pobj in (p for p in pobjs if p not in titles):
                held = "located_in" if label == "located_near" and container(pobj, pobjs) else label
                for o in resolver.refs(pobj):
                    out += [Triple(s, held, _raw(verb, particle, child.text), o, anchors) for s in signed or subjects]
                if pobj.i in resolver.by_token or resolver.refs(pobj) or child.i < verb.i:
                    continue  # "For her portrayal of Kate, Brewer earned …": a fronted adjunct is no object
                if not (class_label(pobj.lemma_) or any(noun_label(pobj.lemma_, c.lower_) for c in pobj.children)):
                    continue  # "played as a tackle at Oklahoma", not "pledged against restoration in Mexico"
                if child.lower_ in TIME_PREPS:
                    continue  # "signed with the Calgary Flames in 1983 after three seasons with the Clarkson Golden
                    # Knights": the seasons are another time, neither the verb's deed nor its date
                if child.lower_ == "as" and ascribes_object(verb):
                    continue  # "referred to him … as an important character within the Wildstorm Universe": his
                for inner in (c for c in pobj.children if c.dep_ == "prep" and c.lower_ != "of"):
                    # "came under attack from friends of Johnson": an "of" names whose the friends are, not the verb's
                    inner_label = verb_label(lemma, inner.lower_, particle)
                    raw = f"{_raw(verb, particle, child.text)} {with_rank(pobj)} {inner.text}"  # "Vice President"
                    for o in (r for p in with_conj(c for c in inner.children if c.dep_ == "pobj")
                              for r in resolver.refs(p)):
                        out += [Triple(s, inner_label, raw, o, anchors) for s in subjects]
        elif child.dep_ in ("attr", "acomp", "oprd") and not passive:
            if child.i in resolver.by_token:
                continue  # "X is Y" between two names: an identity, not a relation
            owner = appositive_of(child, resolver)
            if owner is None:
                continue  # "formed … as the successor of JBL2, the second division of the former Japan Basketball
                # League": the division is JBL2, a name the tagger missed, not the subject
            out += noun_facts(owner or subjects, child, resolver, anchors | {child.i})
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


# Parts of a body ("a division of", "a stake in"): what is done to them is not done to the whole
_PARTS = BODY_PARTS | {"stake", "share", "assets"}
# Another name one goes by: "under the stage name Cecil Parker"
_ALIAS_NOUNS = {"name", "pseudonym", "alias", "moniker", "pen-name", "penname", "nickname", "sobriquet", "handle"}

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


def _objects_listed_after(pobjs: list[Any], verb: Any, resolver: Resolver) -> list[Any]:
    """The titles in quotation marks the parser joined to an unquoted object of a preposition, when the verb's own
    object is such a title: in 'produced "Catastrophe" for Channel 4, as well as "Inside No. 9" and "Detectorists"'
    they are more of what he produced, not more for whom."""
    if len(pobjs) < 2 or _quoted(pobjs[0], resolver) or not any(
            c.dep_ == "dobj" and _quoted(c, resolver) for c in verb.children):
        return []
    return [p for p in pobjs[1:] if _quoted(p, resolver)]


def _quoted(tok: Any, resolver: Resolver) -> bool:
    """Whether the name at ``tok`` opens right after a quotation mark."""
    start = resolver.by_token[tok.i][0].start if tok.i in resolver.by_token else tok.left_edge.i
    return start > 0 and tok.doc[start - 1].text in ('"', "“")


def _noun_words(noun: Any) -> str:
    """A noun with the nouns right before it that say which it is: "guest appearances", not "appearances" (which
    reads as a starring part)."""
    first = noun.i
    while first > 0 and noun.doc[first - 1].pos_ == "NOUN" and noun.doc[first - 1].head.i == noun.i \
            and noun.doc[first - 1].dep_ in ("compound", "amod"):
        first -= 1
    return str(noun.doc[first:noun.i + 1].text)


def _second_object(obj: Any) -> bool:
    """An object after another of the same verb is that one's apposition the parser split off: in "requested Mr.
    Madison, at that time a member of the House" the member is Madison, and Washington is no member."""
    return any(c.dep_ in OBJECTS and c.i < obj.i for c in obj.head.children)


def _raw(verb: Any, particle: str, prep: str | None) -> str:
    aux = [c.text for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i < verb.i]
    return " ".join([*aux[-1:], verb.text, *([particle] if particle else []), *([prep] if prep else [])])


__all__ = ["sentence_triples"]
