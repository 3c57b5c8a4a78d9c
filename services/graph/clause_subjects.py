"""Who a verb's clause is about: its subject resolved to named things, through coordination, participles and
relative clauses, and the agent of a passive. Read by services/graph/clauses.py."""

from __future__ import annotations

from typing import Any

from services.graph.classes import class_label
from services.graph.clause_shapes import misplaced_agent, qualified, role_as_verb, trailing_participle
from services.graph.coordination import SUBJECTS, clause_opened, with_conj
from services.graph.coreference import Ref
from services.graph.resolver import Resolver, name_before
from services.graph.spans import kind
from services.graph.vocabulary import noun_label

OBJECTS = {"dobj", "obj"}  # not a dative: "won her the award" did not win her
_EARNING = {"earn", "win", "gain", "garner", "bring"}  # with a dative, the dative gets the object
RELATIVE = {"who", "which", "that", "whom"}


def subjects_of(verb: Any, resolver: Resolver) -> tuple[list[Ref], bool, list[Ref]]:
    """The verb's subjects (resolved), whether the verb is passive, and the owners of a subject that is their
    work ("her first novel was published by Two Dollar Radio": the novel has no name, its author has)."""
    passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children) or \
        (verb.dep_ == "acl" and verb.tag_ == "VBN") or (verb.dep_ == "advcl" and verb.tag_ == "VBN" and not any(
            c.dep_ in (*SUBJECTS, "aux") for c in verb.children))  # "…, ceded to the United States by France": a
    # participle's clause is passive
    noun = trailing_participle(verb)
    if noun is not None:
        return resolver.refs(noun), passive, []
    receiver = next((c for c in verb.children if c.dep_ == "dative" and verb.lemma_.lower() in _EARNING), None)
    winners = resolver.refs(receiver) if receiver is not None else []
    if winners:  # "a role that earned her a Golden Globe": she won it
        return winners, passive, []
    opener = next((t for t in verb.sent[: verb.i - verb.sent.start] if t.i in resolver.by_token
                   and (v := clause_opened(t)) is not None and v.i == verb.i), None)
    if opener is not None:  # "… and Bert Bell, co-founder of the Philadelphia Eagles, replaced him": Bell did
        return resolver.refs(opener), passive, []
    doc = verb.doc
    if verb.dep_ == "conj" and verb.pos_ == "VERB" and not any(c.dep_ in SUBJECTS for c in verb.children) \
            and verb.i - 1 in resolver.by_token and resolver.by_token[verb.i - 1][0].end == verb.i \
            and doc[verb.i - 1].dep_ in ("appos", "conj", "pobj", "dobj"):
        return [resolver.by_token[verb.i - 1][1]], passive, []  # "TAP Portugal operates a service to Lisbon,
        # Portugal, Turkish Airlines operates flights to Istanbul": the name before the verb is its subject, whatever
        # the parser hung it on
    node = verb
    if verb.i >= 2 and doc[verb.i - 1].text == "-" and not doc[verb.i - 1].whitespace_ \
            and not doc[verb.i - 2].whitespace_ and doc[verb.i - 2].lower_ in ("co", "re", "pre", "self") \
            and any(c.dep_ in SUBJECTS for c in doc[verb.i - 2].children):
        node = doc[verb.i - 2]  # "Christopher Nolan, who co-wrote …": the tokenizer split the verb, and the parser
        # gave "co" the clause
    for _ in range(4):
        subjects = [c for c in node.children if c.dep_ in SUBJECTS][:1]  # "Iannucci, OBE is": the first
        if subjects and node.dep_ == "relcl" and subjects[0].lower_ in RELATIVE:  # "a convict who was transported"
            holder = _person_of(qualified(node)) or _ruler_of(node) if subjects[0].lower_ in ("who", "whom") else None
            people = resolver.refs(holder) if holder is not None else []
            if people and all(kind(r.label) == "person" for r in people):  # "a constable of the Royal Canadian
                return people, passive, []  # Mounted Police who works in … Chicago": he works there, no police force
            named = _name_before_who(subjects[0], resolver)
            if named is not None:
                return [named], passive, []  # "the son of Gwyn Evans who played …": Gwyn Evans, however parsed
            refs = resolver.refs(qualified(node))  # ", which was rejected": the whole phrase's
            holder = _placed_noun(qualified(node)) if subjects[0].lower_ in ("that", "which") and refs \
                and all(kind(r.label) == "place" for r in refs) else None
            if holder is not None:  # "a franchise based in Hamilton, Ontario that played in …": the franchise
                return resolver.refs(holder), passive, []
            if subjects[0].lower_ in ("who", "whom") and refs and all(kind(r.label) == "place" for r in refs):
                before = resolver.person_subject_before(subjects[0])  # "X, born in New York City, who founded"
                refs = [before] if before else []
            elif subjects[0].lower_ in ("who", "whom") and refs and all(kind(r.label) in ("work", "event")
                                                                       for r in refs):
                before = resolver.person_subject_before(subjects[0])  # 'a character in the sitcom "The
                refs = [before] if before else refs  # Simpsons", who is voiced by Harry Shearer': the character
            named_person = qualified(node).i in resolver.by_token  # "founded by Stanley P. Morse that published
            # under the imprints …": a "that" right after a person's name is no person ("a role that earned her")
            if (subjects[0].lower_ == "which" or (subjects[0].lower_ == "that" and named_person)) and refs \
                    and all(r.label == "PERSON" for r in refs):
                refs = _thing_above(qualified(node), resolver)  # "Dell Magazines, founded 1921 by George T.
                # Delacorte, Jr., which had been acquired by …": a "which" is no person; the magazines were acquired
            return refs, passive, []
        if subjects:
            refs = [r for s in with_conj(subjects) for r in resolver.refs(s)]
            owners = [] if refs else _owners(subjects[0], resolver)
            return refs, passive, owners
        honoured = _named_for(node, resolver) if node.dep_ == "acl" and not subjects else []
        if honoured:  # "a residential hall at Dhaka University, named after Nawab …": the hall is named
            return honoured, passive, []
        if node.dep_ in ("acl", "advcl") and node.tag_ == "VBN" and node.lemma_.lower() in _NAMING \
                and not any(c.dep_ in SUBJECTS for c in node.children):
            named = _name_before(node.left_edge, resolver)
            if named is not None:  # "the location of the … Council of South Australia, also known as SA Unions"
                return [named], passive, []
        if node.dep_ in ("acl", "relcl"):
            played = _played_character(node, resolver)
            if played is not None:  # "a fictional character from the soap opera "Neighbours" played by Francis
                return played, passive, []  # Bell": the character is played, not the soap opera
            outer = _credit_list(node, resolver)
            if outer is not None:  # "was written by Sarah Mayberry, directed by Jonathon Dutton": the episode was
                return subjects_of(outer, resolver)[0], passive, []
            refs = resolver.refs(qualified(node))
            maker = _maker_of_the_work(qualified(node), resolver)
            if maker is not None:  # "a 1989 CBS Hallmark Hall of Fame television movie …, starring James Woods":
                return maker, passive, []  # the movie stars him, not the series that made it
            owner = _place_participle_owner(node, refs)
            if owner is not None:  # "is based in Detroit, Michigan, headquartered in …": the company is
                return subjects_of(owner, resolver)[0], passive, []
            return refs, passive, []
        if node.dep_ in ("xcomp", "advcl") and node.head.i != node.i:
            objects = [c for c in node.head.children if c.dep_ in OBJECTS]
            if objects and (node.dep_ == "xcomp" or any(c.lower_ == "as" for c in node.children)):
                # "requested Madison to prepare", "considered Texas as no longer constituting": the object acts
                return [r for o in with_conj(objects) for r in resolver.refs(o)], passive, []
        if node.dep_ in ("xcomp", "advcl") and node.head.i < node.i and any(
                t.lower_ == "that" and t.dep_ == "mark" for t in doc[node.head.i + 1:node.i]):
            break  # "Snoop Dogg later revealed that … the song was co-produced by Dre": a clause of its own,
            # whose subject the parser lost, is not the sayer's
        if node.dep_ in ("conj", "xcomp", "advcl") and node.head.i != node.i:
            node = node.head
            continue
        break
    before = name_before(verb, resolver)  # "Sandra Miju Oh is …", with "Oh" taken for an interjection
    return ([before] if before else []), passive, []


def _ruler_of(clause: Any) -> Any | None:
    """The title noun a "who" clause hangs on when the name before "who" is what the title rules: in "Bleddyn ap
    Cynfyn, king of Powys who rewarded Gwrgenau" the king rewarded him, not Powys. None otherwise."""
    head = clause.head
    if clause.dep_ != "relcl" or head.pos_ != "NOUN" or not head.is_lower \
            or noun_label(head.lemma_, "of") not in ("king_of", "president_of", "leads"):
        return None
    return head if any(c.dep_ == "prep" and c.lower_ == "of" and c.i < clause.i for c in head.children) else None


def _person_of(body: Any) -> Any | None:
    """The common noun a body's name hangs on by "of" ("a constable of the Royal Canadian Mounted Police"), or None."""
    prep = body.head
    if body.dep_ != "pobj" or body.pos_ != "PROPN" or prep.lower_ != "of" or prep.head.pos_ != "NOUN" \
            or kind(class_label(body.lemma_) or "ORG") != "org":
        return None
    return prep.head if prep.head.is_lower else None


def _played_character(participle: Any, resolver: Resolver) -> list[Ref] | None:
    """The character a "played by" hung on the work after "a character from" stands for: the subject of the
    sentence that calls it a character. None when the participle is no such part."""
    if participle.dep_ != "acl" or participle.lemma_.lower() not in ("play", "portray", "voice"):
        return None
    work = resolver.refs(participle.head)
    if not work or any(kind(r.label) != "work" for r in work):
        return None
    node = participle.head
    while node.head.i != node.i and node.dep_ not in ("attr", "appos"):
        node = node.head
    if node.dep_ not in ("attr", "appos") or class_label(node.lemma_) != "PERSON":
        return None
    if node.dep_ == "appos":
        return resolver.refs(node.head) or None
    subjects = [c for c in node.head.children if c.dep_ in SUBJECTS]
    return [r for s in subjects for r in resolver.refs(s)] or None


_CREDITS = {"write", "direct", "produce", "compose", "edit", "design", "create", "illustrate", "co-write",
            "arrange", "photograph", "animate", "choreograph", "narrate", "record", "mix", "master", "present"}


def _credit_list(participle: Any, resolver: Resolver) -> Any | None:
    """The passive verb of a list of credits whose next credit the parser hung on the last person credited: in
    "written by Sarah Mayberry, directed by Jonathon Dutton" the episode was directed, not Mayberry. None
    when the participle is no such credit."""
    person = participle.head
    for _ in range(2):  # "produced by G. V. H. Prasad on Sudarshana Pictures banner, presented by …": the banner is
        if person.dep_ != "pobj" or person.i in resolver.by_token or person.head.dep_ != "prep":  # Prasad's
            break
        person = person.head.head
    agent = person.head
    if participle.dep_ != "acl" or participle.tag_ != "VBN" or participle.lemma_.lower() not in _CREDITS \
            or participle.i < 1 or participle.doc[participle.i - 1].text != "," or person.dep_ != "pobj" \
            or agent.dep_ != "agent" or agent.head.lemma_.lower() not in _CREDITS \
            or not any(c.dep_ == "agent" for c in participle.children):
        return None
    refs = resolver.refs(person)
    return agent.head if refs and all(r.label == "PERSON" for r in refs) else None


def _thing_above(name: Any, resolver: Resolver) -> list[Ref]:
    """The nearest named thing (no person) the phrase around a person's name hangs on, a few heads up."""
    node = name
    for _ in range(5):
        if node.head.i == node.i:
            return []
        node = node.head
        if node.pos_ in ("NOUN", "PROPN"):
            refs = resolver.refs(node)
            if refs and all(r.label != "PERSON" for r in refs):
                return refs
    return []


def _placed_noun(place: Any) -> Any | None:
    """The noun a participle of place hangs the place on ("a franchise based in Hamilton"), or None."""
    prep = place.head
    participle = prep.head if prep.dep_ == "prep" else None
    if place.dep_ != "pobj" or participle is None or participle.dep_ != "acl" or participle.tag_ != "VBN" \
            or participle.lemma_.lower() not in ("base", "locate", "headquarter", "situate", "found", "establish"):
        return None
    return participle.head if participle.head.pos_ in ("NOUN", "PROPN") else None


_NAMING = {"know", "call", "name", "nickname", "dub", "rename", "style", "title"}


def _name_before_who(who: Any, resolver: Resolver) -> Ref | None:
    """The person or untyped name right before a "who" (past a comma), which the clause is about."""
    if who.lower_ not in ("who", "whom"):
        return None
    found = _name_before(who, resolver)
    return None if found is None or kind(found.label) in ("place", "work", "event") else found


def _name_before(tok: Any, resolver: Resolver) -> Ref | None:
    """The name that ends right before ``tok`` (past a comma), or None."""
    doc, i = tok.doc, tok.i - 1
    if i >= 0 and doc[i].text == ",":
        i -= 1
    found = resolver.by_token.get(i) if i >= 0 else None
    return found[1] if found is not None and found[0].end == i + 1 else None


# Participles that say what a company or a body is, never a place ("Detroit, Michigan, headquartered in …")
_BODY_PARTICIPLES = {"headquarter", "base", "found", "establish", "incorporate", "own", "operate", "register"}


def _named_for(participle: Any, resolver: Resolver) -> list[Ref]:
    """ "X is a park in Chicago, named after John Smith", "a lake in Ontario, Canada, named for the explorer": the
    participle the parser hung on the place (or body) of a class noun's preposition names the class noun's thing,
    which the text describes, not where it is."""
    if participle.tag_ != "VBN" or participle.lemma_.lower() not in ("name", "rename", "dedicate") \
            or not any(c.dep_ == "prep" and c.lower_ in ("after", "for", "to") for c in participle.children):
        return []
    place = participle.head
    while place.dep_ in ("appos", "conj", "npadvmod") and place.head.i != place.i:
        place = place.head  # "in Ontario, Canada"
    if place.pos_ == "NOUN" and place.i not in resolver.by_token and class_label(place.lemma_):
        return resolver.refs(place)  # the parser hung it on the park: not the name just before it
    if place.dep_ != "pobj" or place.i not in resolver.by_token or place.head.lower_ not in ("in", "at", "on", "near"):
        return []
    noun = place.head.head
    if noun.pos_ != "NOUN" or noun.i in resolver.by_token:
        return []
    return resolver.refs(noun)


def _maker_of_the_work(head: Any, resolver: Resolver) -> list[Ref] | None:
    """What a participle describes when the parser hung it inside a body's name that only qualifies the work
    after it ("is a 1989 CBS Hallmark Hall of Fame television movie directed by …, starring …"): the subject of
    the clause that says what the work is; None where the head is no such name."""
    found = resolver.by_token.get(head.i)
    if found is None or kind(found[0].label) != "org":
        return None
    doc, i = head.doc, found[0].end
    while i < len(doc) and doc[i].pos_ == "NOUN" and doc[i].dep_ == "compound":
        i += 1
    if i >= len(doc) or doc[i].pos_ != "NOUN" or class_label(doc[i].lemma_) != "WORK_OF_ART":
        return None
    tok = found[0].root
    while tok.dep_ in ("pobj", "prep", "compound") and tok.head.i != tok.i:
        tok = tok.head
    if tok.dep_ != "attr":
        return None
    return [r for s in tok.head.children if s.dep_ in SUBJECTS for r in resolver.refs(s)] or None


def _place_participle_owner(participle: Any, refs: list[Ref]) -> Any | None:
    """The verb whose subject a body's participle after a comma describes, where the parser hung the participle
    on the place that verb's preposition names ("is based in Detroit, Michigan, headquartered in the Fox Theatre")."""
    if participle.lemma_.lower() not in _BODY_PARTICIPLES or not refs or any(kind(r.label) != "place" for r in refs):
        return None
    first = participle.left_edge.i
    if first == 0 or participle.doc[first - 1].text != ",":
        return None
    place = participle.head
    while place.dep_ in ("appos", "conj") and place.head.i != place.i:
        place = place.head
    if place.dep_ == "pobj" and place.head.dep_ == "prep" and place.head.head.pos_ in ("VERB", "AUX"):
        return place.head.head
    return None


def agents_of(verb: Any, passive: bool, resolver: Resolver) -> list[Ref]:
    """Who a passive verb's "by" names; "directed and produced by X" gives X to both verbs."""
    def own(v: Any) -> list[Ref]:
        found = [r for c in v.children if (c.dep_ == "agent" or (passive and c.dep_ == "prep" and c.lower_ == "by"))
                 and c.i not in resolver.by_token  # "for Best Performance by an Actress": the award's own "by"
                 for o in with_conj(g for g in c.children if g.dep_ == "pobj") for r in _named(o, resolver)]
        if found:  # "by vocalist King Diamond and guitarist Hank Shermann", "guitarist" parsed as a verb
            found += [r for c in v.children if c.dep_ == "conj" and role_as_verb(c)
                      for o in with_conj(g for g in c.children if g.dep_ in OBJECTS) for r in resolver.refs(o)]
        return found
    found = own(verb)
    if not found and passive:
        for conj in verb.conjuncts:
            if conj.i > verb.i and conj.tag_ == "VBN" and not any(c.dep_ in SUBJECTS for c in conj.children) \
                    and not (_modified(verb) and _modified(conj)):
                # "written and directed by X", "recorded and mixed at Minutia Studios by X"; not "recorded in 1996
                # and released on July 15, 1997 by Capitol": two verbs each with a complement of its own are two
                # clauses, and the first leaves its doer unsaid
                found = own(conj)
                if found:
                    break
    if not found and passive:  # "bounded on its eastern end, where it connects to …, by Gardiners Island"
        found = [r for t in verb.subtree if t.dep_ == "prep" and misplaced_agent(t) is verb
                 for o in with_conj(g for g in t.children if g.dep_ == "pobj") for r in resolver.refs(o)]
    return found


def _named(noun: Any, resolver: Resolver) -> list[Ref]:
    """An agent's names: its own, or those its appositive gives a common noun ("by husband and wife team Eric
    Obenauf and Eliza Jane Wood-Obenauf")."""
    refs = resolver.refs(noun)
    if refs or noun.pos_ != "NOUN":
        return refs
    return [r for a in noun.children if a.dep_ == "appos" for t in with_conj([a]) for r in resolver.refs(t)]


def _modified(verb: Any) -> bool:
    """A verb with a time, place or manner of its own besides its agent ("released on July 15 by Capitol")."""
    return any(c.dep_ in ("prep", "npadvmod", "advcl") and c.lower_ != "by" for c in verb.children)


def _owners(noun: Any, resolver: Resolver) -> list[Ref]:
    """Who a work belongs to ("her novel", "the band's album"), when the noun is a work."""
    if class_label(noun.lemma_) not in ("WORK_OF_ART", "PRODUCT"):
        return []
    return [r for c in noun.children if c.dep_ == "poss" for r in resolver.refs(c)]
