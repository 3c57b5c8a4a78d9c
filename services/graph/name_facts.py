"""Facts a name's own appositive, compound title or possessor gives ("Paris, the capital of France", "Apple CEO
Tim Cook", "Franz Schubert's Piano Sonata"), read by the extractor beside each sentence's clauses (clauses.py)."""

from __future__ import annotations

from typing import Any

from services.graph.classes import class_label
from services.graph.coreference import KIN_LABELS
from services.graph.gazetteer import is_demonym
from services.graph.noun_facts import MAKING, named_chair, noun_facts
from services.graph.resolver import Resolver, Triple
from services.graph.spans import NameSpan, kind
from services.graph.vocabulary import NATIONALITY, RELATED_TO, noun_label

# Sides of a chamber a leader leads, not the chamber: "Senate Minority Leader", "House Majority Leader"
_SIDES = {"minority", "majority", "opposition", "floor", "deputy", "assistant", "vice", "acting"}
_BROADCASTERS = {"tv", "television", "network", "channel", "radio", "fm", "broadcasting"}
_LEAGUES = {"league", "conference", "association", "federation", "division", "union", "circuit", "tour"}


def name_facts(spans: list[NameSpan], resolver: Resolver) -> list[Triple]:
    """Facts a name's own appositive or compound title gives: "Paris, the capital of France", "Apple CEO Tim Cook"."""
    out: list[Triple] = []
    for span in spans:
        tok = span.root
        ref = resolver.by_token[tok.i][1]
        for child in tok.children:
            if child.dep_ == "poss" and child.i in resolver.by_token and child.i not in span:
                owner = resolver.by_token[child.i][1]  # "Franz Schubert's Piano Sonata", "Comedy Central's South Park"
                raw = f"{child.text}'s {tok.text}"
                if owner.label == "PERSON" and kind(ref.label) in ("work", "other"):
                    out.append(Triple(owner, "created", raw, ref, frozenset()))
                elif owner.label == "ORG" and kind(ref.label) in ("work", "other", "org", "place"):
                    # "the Patti Smith Group's album", "ABC's sitcom": a band made it, a network aired it; only
                    # a company, a brand, a place is owned
                    owned = RELATED_TO if kind(ref.label) == "work" else "owned_by"
                    if owner.name.split()[-1].lower() in _LEAGUES and kind(ref.label) in ("org", "other"):
                        owned = "member_of"  # "the National Football League's Detroit Lions": a member, not owned
                    elif owner.name.split()[-1].lower() in _BROADCASTERS and kind(ref.label) in ("org", "other"):
                        owned = RELATED_TO  # "NBA TV's NBA Inside Stuff": a channel airs a show, owns no body
                        raw = f"{resolver.by_token[child.i][0].text}'s {span.text}"
                    out.append(Triple(ref, owned, raw, owner, frozenset()))
            elif child.dep_ == "appos" and child.i not in resolver.by_token and not any(
                    g.dep_ in ("conj", "appos", "compound") and g.i > child.i and g.i in resolver.by_token
                    and g.pos_ == "PROPN" and not any(c.dep_ == "prep" and child.i < c.i < g.i for c in child.children)
                    for g in child.children):
                # (not "Nigella Lawson, American chef and food writer Anthony Bourdain": the noun titles the next name)
                if _describes_another(child, ref) or _conjoined(child) \
                        or any(c.lower_ in ("namely", "including", "especially", "notably")
                               for c in child.children if c.dep_ == "advmod"):
                    continue  # "the American Mafia, namely the DeCavalcante crime family of Newark": one of it
                role = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "as" and c.i < child.i), None)
                if role is not None:  # "stars Taron Egerton as Eddie Edwards, a British skier": the part's, if named
                    out += [t for p in role.children if p.dep_ == "pobj" and p.i in resolver.by_token
                            for t in noun_facts([resolver.by_token[p.i][1]], child, resolver, frozenset())]
                    continue
                out += noun_facts([_holder(child, ref, resolver)], child, resolver, frozenset())
            elif child.dep_ == "compound" and child.i not in resolver.by_token and child.pos_ in ("NOUN", "PROPN"):
                for owner in child.children:
                    if owner.dep_ == "compound" and owner.i in resolver.by_token:
                        label = noun_label(child.lemma_, "of")
                        owner_span = resolver.by_token[owner.i][0]
                        if label in MAKING and class_label(child.lemma_) in ("WORK_OF_ART", "PRODUCT") \
                                and kind(owner_span.label) in ("person", "org", "other"):
                            out.append(Triple(resolver.by_token[owner.i][1], label, f"{owner.text} {child.text}", ref,
                                              frozenset()))  # "his debut solo GRICE album PROPELLER": Grice made
                            continue  # the album, the album made no one
                        if label in MAKING and kind(owner_span.label) in ("place", "person", "group"):
                            continue  # "Jackson writer Eudora Welty" writes in Jackson; "Pixar founder" founded it
                        if label in MAKING - {"founded"} and owner_span.label == "ORG":
                            label = "worked_for"  # "CBS producer Oscar Gómez" produces for CBS, not CBS itself
                        if label == "member_of" and named_chair(owner_span, child):
                            continue  # "the Richard Charles Lee Director": a chair, no body
                        if label == "member_of" and kind(owner_span.label) == "place":
                            label = "comes_from"  # "Hong Kong cantopop singer Charlene Choi" is from Hong Kong
                        elif label == "member_of" and (owner_span.label == "NORP" or is_demonym(owner_span.text)):
                            label = NATIONALITY  # "by Welsh singer Bonnie Tyler": her nation, no body she is in
                        if label == "leads" and any(c.dep_ in ("compound", "amod") and c.lower_ in _SIDES
                                                    for c in child.children):
                            label = "member_of"  # "Utah State Senate Minority Leader Scott Howell" leads a side
                        if label:
                            out.append(Triple(ref, label, f"{owner.text} {child.text}", resolver.by_token[owner.i][1],
                                              frozenset()))
                if class_label(child.lemma_) and not (child.i and child.doc[child.i - 1].lower_ in ("best", "outstanding")):
                    resolver.context.state_class(ref, child.lemma_)  # (not "a Best Director Oscar": a prize's category)
    return out


def _holder(noun: Any, ref: Any, resolver: Resolver) -> Any:
    """Who a person's title after a comma describes, where the parser hung it on a place before the name next to
    it: "the state of South Australia of Elizabeth II, Queen of Australia" (the queen is Elizabeth II)."""
    if class_label(noun.lemma_) != "PERSON" or kind(ref.label) != "place":
        return ref
    i = noun.left_edge.i - 1
    while i > 0 and noun.doc[i].is_punct:
        i -= 1
    nearest = resolver.by_token.get(i)
    return nearest[1] if nearest is not None and kind(nearest[1].label) != "place" else ref


def _conjoined(noun: Any) -> bool:
    """An appositive the parser hung on the name before an "and": "the first wife of Hank Williams, Sr. and the
    mother of Hank Williams, Jr." is a second noun of the one who is the wife, not of her husband."""
    first = noun.left_edge.i
    return first > 0 and noun.doc[first - 1].lower_ in ("and", "or")


def _describes_another(noun: Any, ref: Any) -> bool:
    """An appositive the parser hung on the wrong name: "born in Cedar Falls, Iowa, the son of William C." says
    whose son the subject is; a town is no one's son. (A kin noun after a kin noun's name may describe either:
    "the granddaughter of Hank Williams, Sr., the daughter of Hank Williams, Jr." is hers, "daughter of Mary
    Plowden, sister of John Paul Stafford-Howard" Mary Plowden's.)"""
    tok = noun.head  # a place where something is: "born in Cedar Falls" (not "Santa Anna, then the Dictator of
    # Mexico", a man the tagger calls a place)
    where = tok.dep_ == "pobj" and tok.head.lower_ in ("in", "at", "near", "from")
    return where and kind(ref.label) == "place" and (class_label(noun.lemma_) == "PERSON"
                                                     or noun_label(noun.lower_, "of") in KIN_LABELS)

