"""Where a clause's parts really attach, where the parser's tree says otherwise (used by clauses.py): the noun a
participle qualifies (through a comma, through partitive "of"s), a participle the parser hung on a verb, the places
after "near X," that contain X, the second "as" of "as far west as", a fronted absolute "With X in jail", a "by"
that belongs to the name or the noun before it, and a nationality the parser made an object."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.graph.classes import class_label
from services.graph.coordination import SUBJECTS
from services.graph.coreference import Ref
from services.graph.gazetteer import country_names, us_states
from services.graph.name_span import NameSpan
from services.graph.resolver import Resolver, Triple

# Nouns naming a part of what their "of" names: "that part of the territory of that State lying between the
# Nueces and the Rio Grande" is the part that lies there, not the State.
PARTITIVE = {"part", "portion", "section", "half", "rest", "remainder", "piece", "segment", "stretch", "strip",
             "corner", "side", "end", "most", "much", "some", "area", "region", "territory", "tract", "parcel"}


def qualified(participle: Any) -> Any:
    """The noun a participle or relative clause qualifies. After a comma it qualifies the whole phrase, not the
    last name in it: in "a biopic about aviator Amy Johnson, directed by Herbert Wilcox" the biopic is directed,
    not Johnson; in "a treaty for the annexation of Texas to the United States, which was rejected", not the
    United States. A work's subject is no clause's either: in "a documentary on Saint Alphonsa which aired on
    Shalom TV" the documentary aired."""
    head = participle.head
    first = participle.left_edge.i  # the participle, or the "which" of a relative clause
    comma = first > 0 and participle.doc[first - 1].text == ","
    before = next((t for t in reversed(participle.doc[head.i + 1:first]) if t.text not in ('"', "“", "”")), None)
    if participle.dep_ == "acl" and before is not None and before.pos_ == "PROPN" and before.i + 1 < first \
            and participle.doc[before.i + 1].text in ('"', "”") and (before.dep_ in ("conj", "appos") or (
                before.dep_ == "pobj" and before.head.head.i == head.i)):
        return before  # 'two singles – "Mic Jack" featuring Adam Levine … and "Kill Jill" featuring Killer Mike': the
        # parser hung both on the singles; each features the names after its own quoted title; 'a remake of the
        # Tamil film "Kai Koduttha Dheivam" starring Sivaji Ganesan': the original stars him, not the remake
    while comma and head.dep_ == "pobj" and head.head.dep_ == "prep" and head.head.head.pos_ in ("NOUN", "PROPN"):
        head = head.head.head
    while head.dep_ == "pobj" and head.head.lower_ in ("on", "about") and head.head.head.pos_ == "NOUN" \
            and class_label(head.head.head.lemma_) == "WORK_OF_ART":
        head = head.head.head
    return _whole(head)


def _whole(noun: Any) -> Any:
    """The noun a participle after ``noun`` qualifies, through partitive "of"s and an event's "of": in "that part of
    the territory of that State lying between" the part lies there, not the State."""
    while noun.dep_ == "pobj" and noun.head.lower_ == "of" and (noun.head.head.lemma_.lower() in PARTITIVE
                                                                 or class_label(noun.head.head.lemma_) == "EVENT"):
        noun = noun.head.head  # "the 16th annual Conference of Karbi Lammet Amei held … at Rechohidi": the
        # conference was held there, not the body
    return noun


def trailing_participle(verb: Any) -> Any | None:
    """The noun a subjectless participle right after it qualifies, where the parser hung the participle on a verb
    ("surrendering … that part of the territory of that State lying between …": lying is no clause of its own)."""
    if verb.dep_ != "advcl" or verb.tag_ not in ("VBG", "VBN") or verb.i == 0 or \
            any(c.dep_ in SUBJECTS for c in verb.children):
        return None
    before = verb.doc[verb.i - 1]
    return _whole(before) if before.pos_ in ("NOUN", "PROPN") else None


def container(pobj: Any, pobjs: list[Any]) -> bool:
    """A place after the first one and a comma, with no "and" in the list, is where the first one is: in "near
    Benton, Kentucky, United States" the park is near Benton and in Kentucky and the United States."""
    first = pobj.left_edge.i  # "United" of "United States"
    return pobj is not pobjs[0] and first > 0 and pobj.doc[first - 1].text == "," \
        and not any(c.dep_ == "cc" for p in pobjs for c in p.children)


def comparison(verb: Any) -> bool:
    """A verb the parser hung on the second "as" of "as far west as" heads no clause: in "the territory as far west
    as the Rio Grande was confirmed to Spain" the territory was confirmed, and the river is only its limit."""
    mark = next((c for c in verb.children if c.dep_ == "mark" and c.lower_ == "as"), None)
    if mark is None or mark.i < 2:
        return False
    before = verb.doc[max(mark.i - 4, 0):mark.i]
    return any(t.lower_ == "as" for t in before) and before[-1].pos_ in ("ADV", "ADJ")


def absolute(prep: Any, verb: Any) -> bool:
    """A fronted "with" phrase whose noun has its own predicate is an absolute clause, the circumstance of the
    sentence ("With Zannino in jail", "With the war over"): its noun is no object of the verb."""
    return prep.i < verb.i and prep.lower_ in ("with", "without") and any(
        c.i > p.i and c.dep_ in ("prep", "acomp", "advmod", "amod", "acl")
        for p in prep.children if p.dep_ == "pobj" for c in p.children)


def qualifier(place: Any) -> bool:
    """A state or country right after a place and a comma says which place it is ("Worcester, Massachusetts",
    "Lisbon, Portugal"): no object of its own."""
    doc, first = place.doc, place.left_edge.i
    if first < 2 or doc[first - 1].text != "," or doc[first - 2].pos_ != "PROPN":
        return False
    name = doc[first:place.i + 1].text.lower().removeprefix("the ")
    before = doc[first - 2]
    start = before.left_edge.i if before.left_edge.i < before.i else before.i
    inner = doc[start:before.i + 1].text.lower().removeprefix("the ")
    if name in us_states():  # "Worcester, Massachusetts"; not "Texas, Oklahoma and Kansas"
        return inner not in us_states() and inner not in country_names()
    return name in country_names() and inner not in country_names()  # not "Germany, France and Spain"


def first_conjunct(tok: Any) -> Any:
    """The first of a coordination ("English" of "English and Chinese"), or ``tok`` when it is none's conjunct."""
    while tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head
    return tok


def describing(pobj: Any, resolver: Resolver) -> bool:
    """A nationality or language before a noun it describes, which the parser took for the object: "starred in
    both English and Chinese shows" (not "published games in English, French and Spanish")."""
    if pobj.i not in resolver.by_token or resolver.by_token[pobj.i][0].label not in ("NORP", "LANGUAGE"):
        return False
    top = first_conjunct(pobj)
    after = top.right_edge.i + 1
    return bool(after < len(pobj.doc) and pobj.doc[after].pos_ == "NOUN")


def behind_by(prep: Any, pobj: Any) -> bool:
    """A "by" between a preposition and the name the parser made its object: the name is the agent of a noun in
    between ("was adapted into a musical by band members James Bourne and Elliot Davis": they wrote the musical)."""
    top = first_conjunct(pobj)
    return any(t.lower_ == "by" and t.pos_ == "ADP" for t in pobj.doc[prep.i + 1:top.i])


def name_before_by(prep: Any, resolver: Resolver) -> tuple[NameSpan, Ref] | None:
    """The name right before a "by" that the parser hung on a farther noun: "an important location in the novel
    Strandloper by Alan Garner" is the novel's author, not the location's (the nearer attachment is the reading)."""
    before = prep.i - 1
    if prep.lower_ != "by" or before not in resolver.by_token or prep.head.i == before:
        return None
    span, ref = resolver.by_token[before]
    return None if span.start <= prep.head.i < span.end else (span, ref)


def respectively(triples: list[Triple], sent: Any) -> list[Triple]:
    """A "respectively" pairs two lists by position ("Mustaine and McGovney were later replaced by Kirk Hammett and
    Cliff Burton, respectively": Hammett replaced Mustaine), where the parse gives a relation any pairs of them. A
    relation with several subjects and as many objects keeps the pairs in order; with several subjects and another
    number of objects it gives nothing ("Angus Deayton and Richard Mylan join the cast as … and Deputy Head Simon
    Lowsley … respectively", whose first role is no name). One subject keeps its objects, and one object outside a
    list its subjects: the list they pair with names no one ("after several bassist and lead guitarist changes, the
    band settled on Cliff Burton and Kirk Hammett, respectively", "… joined the band on bass and drums,
    respectively")."""
    if not any(t.lower_ == "respectively" for t in sent):
        return triples
    text = sent.text
    groups: dict[tuple[str, str], list[Triple]] = {}
    for t in triples:
        groups.setdefault((t.label, t.raw), []).append(t)
    kept: list[Triple] = []
    for group in groups.values():
        subjects = sorted({t.subject.name: t.subject for t in group}.values(), key=lambda r: _at(text, r.name))
        objects = sorted({t.object.name: t.object for t in group}.values(), key=lambda r: _at(text, r.name))
        if len(subjects) == 1 or (len(objects) == 1 and not _listed(sent, objects[0].name)):
            kept += group  # "Brett Scallions and Matt Sorum joined the band on bass and drums, respectively"
        elif len(subjects) == len(objects) and all(_at(text, r.name) < len(text) for r in subjects + objects):
            kept += [replace(group[0], subject=s, object=o) for s, o in zip(subjects, objects, strict=True)]
    return [t for t in triples if t in kept] + [t for t in kept if t not in triples]


def _listed(sent: Any, name: str) -> bool:
    """The name is in a coordination in the sentence, by the parse or by an "and" before it and its title
    ("George Windsor and Deputy Head Simon Lowsley", which the parser made the verb's object)."""
    words = name.split()
    if not words:
        return False
    for t in sent:
        if t.text == words[-1] and (t.dep_ == "conj" or any(c.dep_ == "conj" for c in t.children)):
            return True
        if t.text == words[0]:
            i = t.i - 1
            while i > sent.start and t.doc[i].is_title:
                i -= 1
            if t.doc[i].lower_ in ("and", "or"):
                return True
    return False


def _at(text: str, name: str) -> int:
    found = text.find(name)
    return found if found >= 0 else len(text)


def role_as_verb(verb: Any) -> bool:
    """A person's role the parser took for a verb ("formed in 1981 by vocalist King Diamond and guitarist Hank
    Shermann": "guitarist" a verb with Shermann its object): a class noun of persons ending "-ist" or "-ian", never
    a verb. It states nothing itself; its object is one more name of the list it ends (clause_subjects.agents_of)."""
    word = verb.lower_
    if word in ("lead", "co-lead") and verb.i + 1 < len(verb.doc) and class_label(verb.doc[verb.i + 1].lemma_) == "PERSON":
        return True  # "and Counting Crows lead singer Adam Duritz": a role, no leading
    if verb.tag_ in ("VBD", "VBN") and verb.lemma_.lower() == word and word.isalpha() \
            and not word.endswith(("ed", "en", "wn", "pt", "lt", "nt", "ght")) and word not in _SAME_IN_THE_PAST:
        return True  # "Rosie the robot maid on the animated series": no past form, a noun the tagger made a verb
    return word.endswith(("ist", "ists", "ian", "ians")) and class_label(word) == "PERSON"


# Verbs whose past is their present ("he put", "it was cast"): a past tag with no past ending is theirs
_SAME_IN_THE_PAST = {"put", "set", "cut", "hit", "let", "cast", "read", "spread", "shut", "cost", "hurt", "quit",
                     "bet", "bid", "broadcast", "burst", "split", "thrust", "upset", "fit", "rid", "wed", "shed",
                     "slit", "knit", "forecast", "beat", "come", "become", "run", "overrun", "outrun", "recast",
                     "reset", "offset", "input", "output", "telecast", "simulcast", "podcast", "preset", "typeset",
                     "sublet", "undercut", "outbid", "overbid", "rerun", "shit", "spit", "slid", "hid", "bred",
                     "fed", "led", "fled", "sped", "bled", "misled", "pled", "shod"}


def cast_pairs(actors: list[Ref], as_prep: Any, resolver: Resolver) -> list[tuple[list[Ref], list[Ref]]]:
    """Who plays whom after "starring X as": "starring Tom Hiddleston as Hank Williams and Elizabeth Olsen as Audrey
    Williams", which the parser reads as Hiddleston playing Williams and Olsen, with the second "as" hung on
    Williams or on Olsen. A name of the role list that an "as" follows is the next actor, that "as" its role."""
    pairs: list[tuple[list[Ref], list[Ref]]] = [(actors, [])]
    for pobj in (c for c in as_prep.children if c.dep_ == "pobj"):
        conjs = [c for c in pobj.conjuncts if c.i > pobj.i]
        ases = [c for t in (pobj, *conjs, as_prep.head) for c in t.children if c.dep_ == "prep" and c.lower_ == "as"
                and c.i > as_prep.i]  # the next "as" hangs on a role, on the next actor or on the verb itself
        pairs[0][1].extend(resolver.refs(pobj))
        for tok in conjs:
            own = next((a for a in ases if a.i > tok.i and not any(tok.i < c.i < a.i for c in conjs)), None)
            if own is None:
                pairs[-1][1].extend(resolver.refs(tok))
            else:
                pairs.append((resolver.refs(tok), [r for p in own.children if p.dep_ == "pobj" for r in resolver.refs(p)]))
    return pairs


def naming_the(noun: Any) -> bool:
    """A bare "the city of X" names X (where "the largest city of Texas" and "a city of Germany" place a city)."""
    return any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children) and not any(
        c.dep_ in ("amod", "compound", "nummod", "nmod", "poss") for c in noun.children)


def locates_object(prep: Any, verb: Any, resolver: Resolver) -> bool:
    """An "in" after a comma that says where the verb's named object is: "studied at the Musicians Institute, in
    Hollywood" (the institute is in Hollywood; he did not study at Hollywood)."""
    if prep.lower_ != "in" or prep.i < 2 or prep.doc[prep.i - 1].text != ",":
        return False
    before = prep.doc[prep.i - 2]
    return before.i in resolver.by_token and before.dep_ == "pobj" and before.head.dep_ == "prep" \
        and before.head.head.i == verb.i and before.head.lower_ in ("at", "for", "with", "from")


def misplaced_agent(prep: Any) -> Any | None:
    """The passive verb a ", by X" belongs to when the parser hung it on a clause inside that verb's own phrase: in
    "It is bounded on its eastern end, where it connects to Block Island Sound, by Gardiners Island" the bay is
    bounded by the island, and nothing connects by it. None for any other "by"."""
    doc = prep.doc
    clause = prep.head
    if prep.lower_ != "by" or prep.dep_ != "prep" or prep.i == 0 or doc[prep.i - 1].text != "," \
            or clause.dep_ not in ("relcl", "advcl") or any(c.dep_ in ("auxpass", "nsubjpass") for c in clause.children):
        return None
    node = clause.head
    for _ in range(4):
        if node.pos_ in ("VERB", "AUX"):
            passive = any(c.dep_ in ("auxpass", "nsubjpass") for c in node.children)
            agent = any(c.dep_ == "agent" or (c.dep_ == "prep" and c.lower_ == "by") for c in node.children)
            return node if passive and not agent else None
        if node.head.i == node.i:
            return None
        node = node.head
    return None


def split_apposition(obj: Any) -> bool:
    """An object after a comma that closes the verb's own prepositional phrase is that phrase's apposition, which the
    parser hung on the verb: in "drew on a regular group of actors, the Carry On team" nothing drew the team (but
    "founded, in 1990, the company" sets its phrase off on both sides)."""
    doc = obj.doc
    start = obj.left_edge.i
    if obj.dep_ != "dobj" or start < 2 or doc[start - 1].text != ",":
        return False
    return any(c.dep_ == "prep" and c.i > obj.head.i and c.right_edge.i == start - 2 and doc[c.i - 1].text != ","
               and any(p.dep_ == "pobj" for p in c.children) for c in obj.head.children)


def appositive_of(attr: Any, resolver: Resolver) -> list[Ref] | None:
    """A second complement after a comma and a name is that name's appositive, which the parser hung on the verb:
    in "X is a former linebacker for the Tampa Bay Buccaneers, the team he played for", the team is the Buccaneers
    (X is no team). Empty for any other complement; None after a proper noun the tagger named nothing."""
    doc = attr.doc
    start = attr.left_edge.i
    if start == 0 or doc[start - 1].text != "," or attr.pos_ != "NOUN" or doc[start].dep_ != "det" or not any(
            c.dep_ == "attr" and c.i < attr.i for c in attr.head.children):
        return []
    if start - 2 in resolver.by_token:
        return [resolver.by_token[start - 2][1]]
    return None if start >= 2 and doc[start - 2].pos_ == "PROPN" and doc[start - 2].dep_ == "pobj" else []
