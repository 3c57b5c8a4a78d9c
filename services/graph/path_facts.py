"""The fallback fact of a clause: a name no rule linked to the verb's subject, linked by the dependency path between
them (the shortest-path method of Bunescu and Mooney, 2005). Read by services/graph/clauses.py."""

from __future__ import annotations

from typing import Any

from services.graph.clause_shapes import (
    appositive_of,
    behind_by,
    locates_object,
    misplaced_agent,
    name_before_by,
    naming_the,
)
from services.graph.coordination import SUBJECTS, opens_a_clause
from services.graph.coreference import Ref
from services.graph.name_bounds import PEERAGES
from services.graph.resolver import Resolver, Triple, counted_members, possessor, words_between
from services.graph.spans import kind
from services.graph.vocabulary import RELATED_TO, noun_label, verb_label

NAMING_VERBS = {"call", "name", "dub", "nickname", "describe", "term", "label", "brand"}
MODIFIERS = {"amod", "compound", "nmod", "poss", "npadvmod"}

# Whose "of" names a field of study ("a professor of Hebrew Literature"): no relation to a named thing
_TEACHERS = {"professor", "lecturer", "teacher", "instructor", "tutor", "reader"}

# What a work "based on the … of X" tells: X's story, not a thing X owns
_TOLD = {"story", "life", "biography", "history", "account", "tale", "memoir", "memoirs", "experiences", "career"}

# Prepositions of another time than the verb's: "signed … in 1983 after three seasons with the Clarkson Golden
# Knights" (a name under their noun is no party to the verb's deed)
TIME_PREPS = {"after", "before", "during", "following", "since", "until", "till", "prior", "throughout"}

_AFTER_WHOM = {"name", "rename", "model", "pattern", "style", "call", "look", "take", "fashion"}

# Verbs that say what their object is held to be with "as" ("referred to him as", "described the band as")
_ASCRIBING = {"refer", "describe", "regard", "consider", "view", "see", "portray", "depict", "characterize",
              "characterise", "cite", "hail", "recognize", "recognise", "list", "rank", "label", "brand", "identify",
              "count", "remember", "treat", "class", "classify"}

# Ranks under an office's holder: a deputy prime minister is not the prime minister
_DEPUTIES = {"deputy", "vice", "assistant", "associate", "acting", "under", "shadow", "sub"}


def _deputy(noun: Any) -> bool:
    return any(c.dep_ in ("compound", "amod") and c.lower_ in _DEPUTIES for c in noun.children)


def with_rank(noun: Any) -> str:
    """A title with the rank that keeps it from the office's holder: "Vice President", not "President"."""
    first = min((c.i for c in noun.children if c.dep_ in ("compound", "amod") and c.lower_ in _DEPUTIES
                 and c.i < noun.i), default=noun.i)
    return str(noun.doc[first:noun.i + 1].text)  # "Deputy Prime Minister", the words between them too


def _anothers(path: list[Any], subjects: list[Ref]) -> bool:
    """Whether the path lists examples of a person's things ("in his last works such as …") where the subjects are
    things (a novel): the examples are his, nothing of the novel's."""
    return any(c.dep_ == "poss" and c.lower_ in ("his", "her") for j, p in enumerate(path) if p.pos_ == "NOUN"
               and j > 0 and path[j - 1].lower_ in ("as", "like", "including") for c in p.children) \
        and not any(kind(s.label) == "person" for s in subjects)


def ascribes_object(verb: Any) -> bool:
    """Whether the verb's "as" says what its object is held to be: in "had referred to him … as an important
    character within the Wildstorm Universe" the character is him, and the universe is nothing of the ones who
    referred to him."""
    return verb.lemma_.lower() in _ASCRIBING and any(
        c.dep_ == "dobj" or (c.dep_ == "prep" and c.lower_ == "to" and any(p.dep_ == "pobj" for p in c.children))
        for c in verb.children)


def path_facts(verb: Any, subjects: list[Ref], resolver: Resolver, found: list[Triple],
               anchors: frozenset[int]) -> list[Triple]:
    """The fallback: a name in the verb's clause that no rule linked to its subject, linked by the dependency
    path between them (the shortest-path method of Bunescu and Mooney, 2005) when the path is short, passes
    through nouns and prepositions only, and crosses no other verb. The label comes from the preposition
    nearest the verb ("is the first EP by the band X": by → the band made it), else ``related_to``; the raw
    phrase is the path's words ("is EP by band")."""
    if not subjects or (verb.lemma_.lower() in NAMING_VERBS and not any(c.dep_ in ("nsubjpass", "auxpass")
                                                                        for c in verb.children)):
        return []  # "Time called them 'the most recognisable face' of Cool Britannia": a description, no relation
    linked = {(t.subject.name.lower(), t.object.name.lower()) for t in found}
    linked |= {(b, a) for a, b in linked}
    claimed = {(t.raw, t.object.name.lower()) for t in found}  # an object the clause already tied to another party
    out: list[Triple] = []
    seen: set[str] = set()
    for tok in verb.subtree:
        if tok.i not in resolver.by_token or tok.dep_ in SUBJECTS:
            continue
        span, obj = resolver.by_token[tok.i]
        if span.root is None or tok.i != span.root.i or obj.name.lower() in seen or tok.dep_ in MODIFIERS \
                or (tok.head.i == span.end and tok.head.pos_ == "NOUN") or possessor(span, tok.doc) \
                or (tok.dep_ == "appos" and words_between(tok.head, tok.left_edge) > 1):
            # "All-Star guard": the name modifies a noun; "a country …, bordered by …, Brazil": no apposition
            continue  # "the Australian band X": a name that modifies a noun is no object
        if counted_members(tok):
            continue  # "two other former Kimber of Oregon employees": the employees', not Kimber
        if obj not in resolver.refs(tok) and resolver.refs(tok):
            continue  # "to Queensland Senator Barnaby Joyce": the name stands for another (the senator)
        if resolver.based_agent(tok) is not None:
            continue  # "by the Santa Cruz, California-based … band Good Riddance": the band's, no town's
        if tok.dep_ == "conj" and opens_a_clause(tok):
            continue  # "resigned as NFL Commissioner and Bert Bell, co-founder of …, replaced him": Bell's clause
        node = tok
        if tok.dep_ == "conj" and tok.head.i not in resolver.by_token and tok.head.pos_ == "NOUN" \
                and tok.head.head.i == verb.i and tok.head.dep_ in ("attr", "dobj", "oprd"):
            # a name coordinated with the verb's common noun is another clause's ("Pierre is the state capital and
            # Sioux Falls … is"), or the last item of the noun's own list ("the holding company of MidWestOne Bank,
            # and MidWestOne Insurance Services"), no dependent of the noun (but "the vocalist for the band 311
            # and The Nick Hexum Quintet": a second object of the preposition)
            listed = [p for c in tok.head.children if c.dep_ == "prep" and c.i < tok.i for p in c.children
                      if p.dep_ == "pobj" and p.i in resolver.by_token]
            if not listed:
                continue
            node = listed[-1]
        path: list[Any] = []
        while node.dep_ == "conj" and node.head.i in resolver.by_token and node.head.i < node.i:
            node = node.head  # "run by Mike and George Parente": the second name's path is the first's
        while node.head.i != node.i and node.head.i != verb.i and len(path) < 5:
            node = node.head
            if node.pos_ in ("VERB", "AUX") or node.dep_ in SUBJECTS or node.i in resolver.by_token:
                path = []
                break
            path.append(node)
        if _anothers(path, subjects):
            continue  # "It is the last of the novels … before he began to concentrate, in his last works such as
            # 'Nightwork'": the works are his, no one's the novel relates to
        if path and path[-1].dep_ == "attr" and appositive_of(path[-1], resolver) is None:
            continue  # "the successor of JBL2, the second division of the former Japan Basketball League": JBL2's
        if any(p.lower_ in PEERAGES and p.dep_ != "attr" for p in path):
            continue  # "succeeded his first cousin …, the Earl of Sheffield": a title's place is no party of the verb
            # (but "Tostig was Earl of Northumbria" governed it)
        if not path or len(path) > 3 or node.head.i != verb.i or path[-1].i < verb.i or obj.label in ("NORP", "LANGUAGE"):
            continue  # a long path, a fronted adjunct ("In an interview for …, X comments"), a nationality
        told = path[0].lower_ == "of" and len(path) > 2 and path[1].lemma_.lower() in _TOLD and path[2].lower_ == "on"
        if told:  # "based on the true story of James Stockdale": the work tells his story (the work is the object
            seen.add(obj.name.lower())  # of an active "based": "Borchert based it on the true story of …")
            works = [r for c in verb.children if c.dep_ == "dobj" for r in resolver.refs(c)] \
                if any(c.dep_ == "dobj" for c in verb.children) else subjects
            raw = " ".join(t.text for t in sorted([verb, *path], key=lambda t: t.i))
            out += [Triple(s, "depicts", raw, obj, anchors) for s in works if (s.name.lower(), obj.name.lower())
                    not in linked and s.name.lower() != obj.name.lower()]
            continue
        if path[0].lower_ == "of" and len(path) > 2 and path[2].pos_ == "ADP" and path[2].lower_ != "as":
            continue  # "attacked by friends of Johnson": the friends, not Johnson ("known as the founder of X" is his)
        if path[-1].pos_ != "ADP" and path[-1].dep_ not in ("attr", "dobj", "oprd"):
            continue
        if any(p.lower_ == "by" and p.head.pos_ == "NOUN" and p.head.dep_ == "pobj" for p in path):
            continue  # "was adapted into a musical by James Bourne": the musical's authors, not the album's
        seen.add(obj.name.lower())
        top = path[-1]
        if misplaced_agent(top) is not None:
            continue  # "where it connects to Block Island Sound, by Gardiners Island": the outer verb's agent
        if top.lower_ == "as" and len(path) > 1 and ascribes_object(verb):
            continue  # "had referred to him … as an important character within the Wildstorm Universe"
        if top.pos_ == "ADP" and (behind_by(top, tok) or locates_object(top, verb, resolver)):
            continue  # "adapted into a musical by James Bourne": the musical's author (the parse lost the noun)
        if top.pos_ == "ADP":
            label = verb_label(verb.lemma_.lower(), top.lower_)
            if top.lower_ == "by" and len(path) > 1 and path[0].pos_ == "ADP":
                # "distributed … by subscription in U.S.": a means, no agent; the name is where, not who
                label = verb_label(verb.lemma_.lower(), path[0].lower_)
            if label == "located_in" and len(path) > 1 and path[0].lower_ in ("to", "toward", "towards", "from"):
                label = RELATED_TO  # "located on the asphalt road to Keren": on the road, not in Keren (but "on an
                # island in Hawaii" is in it)
            if label == "portrayed" and any(c.dep_ == "dobj" for c in verb.children):
                continue  # "starring Tom Hiddleston as Hank Williams": the actor's part (_verb_triples)
            if top.lower_ == "as" and label in (RELATED_TO, "served_in") and len(path) > 1 \
                    and path[0].pos_ == "ADP" and not _deputy(path[0].head):
                # "operates as a subsidiary of Ilitch Holdings", "serves as chairman of the Foundation": the noun
                # between says the relation (with its compounds: "Prime Minister of"; not a deputy's)
                head = path[0].head
                words = [c.text for c in head.children if c.dep_ == "compound" and c.i < head.i]
                label = noun_label(" ".join([*words, head.lemma_]), path[0].lower_) or label
            if label == "known_as" and len(path) > 1:  # "best known as the founder and frontman of … Euphoria":
                # a name reached through a noun is no other name of the subject; the noun says the relation
                prep = path[0] if path[0].pos_ == "ADP" else None
                label = (noun_label(prep.head.lemma_, prep.lower_) if prep is not None else None) or RELATED_TO
        else:
            prep = next((p for p in path if p.pos_ == "ADP"), None)
            # the noun the preposition hangs on: "the Prime Minister of Australia and the Leader of the Labor
            # Party" gives leads for the party, not the minister's label
            label = (noun_label(prep.head.lemma_, prep.lower_) if prep is not None and not _deputy(prep.head)
                     else None) or RELATED_TO  # "the 13th Deputy Prime Minister of Australia" is no minister of it
            if label == "located_in" and prep is not None and prep.lower_ == "of" and naming_the(prep.head):
                continue  # "is the city of Thompson": the city is Thompson
            if prep is not None and prep.lower_ == "of" and prep.head.lemma_.lower() in _TEACHERS:
                continue  # "a professor of Landscape Architecture": a field, no body
            if prep is not None and prep.lower_ == "by" and prep.head.dep_ == "acl":
                # "a restaurant run by Mike Parente" (the parser took "run" for a noun): the participle's label
                raw = " ".join(t.text for t in sorted([verb, *path], key=lambda t: t.i))
                label = verb_label(prep.head.lemma_.lower(), "by")
                out += [Triple(s, label, raw, obj, anchors) for s in subjects
                        if (s.name.lower(), obj.name.lower()) not in linked and s.name.lower() != obj.name.lower()]
                continue
            if prep is not None and name_before_by(prep, resolver) is not None:
                continue  # "a location in the novel Strandloper by Alan Garner": the novel's author (above)
            if prep is not None and prep.lower_ == "by" and label in (RELATED_TO, "created"):
                raw = " ".join(t.text for t in sorted([verb, *path], key=lambda t: t.i))
                out += [Triple(obj, "created", raw, s, anchors) for s in subjects
                        if (s.name.lower(), obj.name.lower()) not in linked]
                continue
        ranks = [c for p in path if _deputy(p) for c in p.children if c.dep_ in ("compound", "amod") and c.i < p.i]
        raw = " ".join(t.text for t in sorted([verb, *path, *ranks], key=lambda t: t.i))
        when = anchors
        if top.lower_ in TIME_PREPS and len(path) > 1 and verb.lemma_.lower() not in _AFTER_WHOM \
                and path[-2].ent_type_ not in ("DATE", "TIME"):  # (not "aired until November 10 on KBS2")
            # "signed … in 1983 after three seasons with the Clarkson Golden Knights": a party of another time;
            # neither the verb's label nor its date is the seasons' (but "named after the Dakota Sioux tribes")
            label, when = RELATED_TO, frozenset()
        if (raw, obj.name.lower()) in claimed:
            continue  # "Zazula, who signed Metallica to Megaforce Records": the clause gave the label its signee
        out += [Triple(s, label, raw, obj, when) for s in subjects if (s.name.lower(), obj.name.lower()) not in linked
                and s.name.lower() != obj.name.lower()]
    return out
