"""Which named thing a token stands for, in one sentence: a name, the topic, a resolved pronoun or description,
or the name a common noun introduces ("the artist William Holman Hunt", "the Empire of Brazil", "bands such
as X and Y"). :mod:`services.graph.clauses` builds facts on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.graph.classes import class_label
from services.graph.coordination import SUBJECTS as SUBJECTS
from services.graph.coordination import with_conj
from services.graph.coreference import DEFINITE, NEUTER, PERSONAL, PLURAL, Context, Ref
from services.graph.gazetteer import is_demonym
from services.graph.kin_names import kin_name
from services.graph.spans import NameSpan, compatible, is_honorific, kind

LISTING = {"as", "including", "like", "among"}
NAMED_BY_OF = {"GPE", "LOC", "FAC", "ORG"}
# Classes of places whose "of" gives their name ("the state of Texas", "the Canadian province of Ontario")
_NAMED_BY_ITS_OF = {"state", "province", "city", "town", "county", "village", "island", "republic", "kingdom",
                    "territory", "municipality", "borough", "commonwealth", "emirate", "prefecture", "parish"}


@dataclass(frozen=True)
class Triple:
    subject: Ref
    label: str
    raw: str
    object: Ref
    anchors: frozenset[int]  # the tokens whose temporal expressions date the fact
    unsaid: bool = False  # its verb does not say how the two relate: kept only with a specific label


# Class nouns a name before them does not name but qualifies: "the Whitlam government" is his government, "the
# English Test team" England's team, "an Air Force family" a family of the force
_NAMED_FOR = {"family", "government", "administration", "cabinet", "ministry", "regime", "dynasty", "era"}
_SIDES = {"team", "squad", "side", "eleven", "xi"}  # a country's team is not the country


class Resolver:
    """The entities a token stands for, in one sentence, given its names and the paragraph's context."""

    def __init__(self, spans: list[NameSpan], context: Context, is_topic: Callable[[NameSpan], bool]) -> None:
        self.context = context
        self.by_token: dict[int, tuple[NameSpan, Ref]] = {}
        for span in spans:
            ref = context.topic if (context.topic and is_topic(span)) else Ref(span.text, span.label)
            assert ref is not None
            for i in range(span.start, span.end):
                self.by_token[i] = (span, ref)
        for span in spans:  # "her siblings Harry and Sophie": the family's surname is theirs
            whole = kin_name(span, self._owner)
            if whole is not None:
                for i in range(span.start, span.end):
                    self.by_token[i] = (span, Ref(whole, "PERSON"))

    def _owner(self, poss: Any) -> list[Ref]:
        """Whom a possessive stands for; "his", "her" are the topic where nothing nearer is named."""
        found = self.refs(poss)
        return found or ([self.context.topic] if self.context.topic and poss.lower_ in ("his", "her") else [])

    def _names_before(self, tok: Any) -> list[tuple[Any, Ref]]:
        """(token, named thing) of every name token before ``tok`` in its sentence, nearest first."""
        return [(t, self.by_token[t.i][1]) for t in reversed(tok.sent[: tok.i - tok.sent.start]) if t.i in self.by_token]

    def person_subject_before(self, pronoun: Any) -> Ref | None:
        """The nearest person named as a subject earlier in the same sentence."""
        return next((r for t, r in self._names_before(pronoun) if t.dep_ in ("nsubj", "nsubjpass")
                     and r.label == "PERSON"), None)

    def _person_before(self, pronoun: Any) -> Ref | None:
        """The one person the sentence names before ``pronoun``, in any role (None for none or several)."""
        people: list[Ref] = []
        for _, ref in self._names_before(pronoun):
            if ref.label == "PERSON" and ref not in people:
                people.append(ref)
        return people[0] if len(people) == 1 else None

    def group_subject_before(self, pronoun: Any) -> Ref | None:
        """The nearest team, band or body named as a subject earlier in the same sentence, for a "they" of a later
        clause ("the Rams became the first NFL team on the West Coast after they relocated from Cleveland")."""
        if pronoun.head.dep_ == "ROOT":
            return None  # a main clause's "they" goes by the paragraph
        return next((r for t, r in self._names_before(pronoun) if t.dep_ in ("nsubj", "nsubjpass")
                     and kind(r.label) in ("org", "group")), None)

    def _reporter(self, pronoun: Any, ref: Ref) -> Ref | None | bool:
        """In "Hobbico announced it was acquiring X", "it" is the one who announced, not the paragraph's topic.
        For a subject pronoun of a reported clause whose reporter is another noun: the reporter when it is a
        named organisation or group, else None (no one we can name); False when the rule does not apply."""
        if pronoun.dep_ not in SUBJECTS or pronoun.head.dep_ != "ccomp":
            return False
        reporters = [c for c in pronoun.head.head.children if c.dep_ in SUBJECTS and c.pos_ in ("NOUN", "PROPN")]
        if not reporters:
            return False
        found = self.by_token.get(reporters[0].i)
        if found is None:
            return None
        return found[1] if found[1] == ref or kind(found[1].label) in ("org", "group", "other") else None

    def _nearest_of_kind(self, tok: Any, wanted: str) -> Ref | None:
        """The last subject of the wanted kind before ``tok`` in its sentence: what "that territory" points back to
        ("… that Louisiana did when that fine territory was acquired"; "Paris is …, and that city": not France)."""
        return next((r for t, r in self._names_before(tok) if t.dep_ in SUBJECTS and kind(r.label) == wanted), None)

    def _of_its_kind(self, noun: Any, label: str | None, refs: list[Ref]) -> list[Ref]:
        """What a class noun set beside a phrase stands for. "X is the director of "W" (2006), a movie starring Y":
        the parser hung "a movie" on the director, which resolves to X, a person; a movie describes the last
        name of its own kind before it (W), and none when there is no such name."""
        if not label or not refs or any(compatible(r.label, label) for r in refs):
            return refs
        return [r for _, r in self._names_before(noun) if kind(r.label) == kind(label)][:1]

    def based_agent(self, tok: Any) -> Ref | None:
        """The name a place after "by" only qualifies: "an album by the Santa Cruz, California-based punk rock band
        Good Riddance" is Good Riddance's, no town's. None where the place is the agent ("an album by Chicago")."""
        span, ref = self.by_token[tok.i]
        doc, end = tok.doc, span.end
        if tok.dep_ != "pobj" or tok.head.lower_ != "by" or kind(ref.label) != "place" or end >= len(doc) \
                or doc[end].text != ",":
            return None
        based = next((t.i for t in doc[end:end + 6] if t.lower_ in ("based", "born")), None)
        for i in range(based + 1, min(based + 7, len(doc))) if based is not None else ():
            if i in self.by_token and kind(self.by_token[i][1].label) != "place":
                return self.by_token[i][1]
            if doc[i].pos_ not in ("NOUN", "ADJ", "PROPN", "DET"):
                return None
        return None

    def refs(self, tok: Any, depth: int = 0) -> list[Ref]:
        """The named things ``tok`` stands for ([] for a common noun that introduces none)."""
        if depth > 4:
            return []
        found = self.by_token.get(tok.i)
        if found:
            if tok.dep_ in SUBJECTS and any(c.dep_ == "poss" and c.pos_ == "PRON" for c in tok.children):
                return []  # "Dave made his Tollywood debut": a name after "his" qualifies a noun, it acts in nothing
            if tok.dep_ not in SUBJECTS and possessor(found[0], tok.doc):
                return []  # "a member of KBS's variety show": the show is the object, KBS only its owner
            if counted_members(tok):
                return []
            if found[0].label in ("GPE", "LOC", "NORP") and any(c.dep_ == "det" and c.lower_ in ("a", "an")
                                                                 for c in tok.children):
                return []  # "who had a UK hit with it", parsed as "a UK" that hit: a place takes no "a"
            end = found[0].end
            if found[0].label in ("GPE", "LOC", "NORP") and end + 1 < len(tok.doc) and is_honorific(tok.doc[end].text) \
                    and end + 1 in self.by_token and self.by_token[end + 1][0].label == "PERSON":
                return [self.by_token[end + 1][1]]  # "chief of staff to Queensland Senator Barnaby Joyce": the
                # senator; the state only says which senate
            return [self.based_agent(tok) or found[1]]
        word = tok.lower_
        if tok.pos_ == "PRON":
            if word == "it" and _expletive(tok):
                return []
            if word in PERSONAL and (any(c.dep_ == "conj" and c.lower_ in PERSONAL for c in tok.children)
                                     or (tok.dep_ == "conj" and tok.head.lower_ in PERSONAL)):
                return []  # "he or she will remain the head of a government": whoever holds the post, no one named
            if word in PERSONAL and (self.context.topic is None or self.context.topic.label != "PERSON"):
                subject = self.person_subject_before(tok)  # "Mr. Madison … did so; and, as he declared"
                if subject is None and self.context.topic is not None \
                        and kind(self.context.topic.label) in ("work", "org", "place", "event"):
                    subject = self._person_before(tok)  # "The Demon Child Trilogy follows R'shiel Tenragan as she
                    # accepts her fate": a work's "she" is the person the sentence names
                if subject is not None:
                    return [subject]
            group = self.group_subject_before(tok) if word in PLURAL else None
            if group is not None:
                return [group]
            ref = self.context.pronoun(word) if word in PERSONAL | NEUTER | PLURAL else None
            if ref is not None and self.context.topic is None and word in NEUTER | PLURAL and (
                    _nearer_common_noun(tok) or (word in NEUTER and tok.dep_ not in SUBJECTS)):
                return []  # "yielded to it his assent": an object "it" in an address is mostly a bill, a treaty
            if ref is not None and word in NEUTER | PLURAL:
                reporter = self._reporter(tok, ref)
                if reporter is not False:
                    return [reporter] if isinstance(reporter, Ref) else []
            return [ref] if ref else []
        if tok.pos_ not in ("NOUN", "PROPN"):
            return []
        for child in tok.children:  # "the artist William Holman Hunt", "the band, Metallica"
            if child.dep_ in ("appos", "compound") and child.i in self.by_token and child.i > tok.i \
                    and words_between(tok, child.left_edge) <= 1:  # not a name the parser hung on it from a clause away
                return [self.by_token[child.i][1]]
        label = class_label(tok.lemma_)
        if label and label not in ("PERSON", "EVENT", "LAW") and tok.lemma_.lower() not in _NAMED_FOR:
            # "the dbm library", "the Tate gallery": the class noun's own name; not "the Florida treaty", "the
            # Mexican war", "an Air Force family", "the Whitlam government" (named after)
            named = [c for c in tok.children if c.dep_ == "compound" and c.i in self.by_token]
            others = [c for c in tok.children if c.dep_ in ("compound", "amod", "nummod") and c.i not in self.by_token]
            others += [p for c in tok.children if c.dep_ == "prep" and c.lower_ == "of" for p in c.children
                       if p.dep_ == "pobj" and p.i in self.by_token and tok.lemma_.lower() in _NAMED_BY_ITS_OF]
            # "the US state of Massachusetts" is Massachusetts, a state of the US (but "the South West Slopes
            # region of New South Wales" is the region, "the Music division of Future US" the division)
            indefinite = any(c.dep_ == "det" and c.lower_ in ("a", "an", "another", "each", "every", "some")
                             for c in tok.children)  # "Another NFL team that played in Brooklyn": one of many
            if len(named) == 1 and not others and not indefinite and self.by_token[named[0].i][0].end == tok.i:
                # (not "the FBS football season")
                span, ref = self.by_token[named[0].i]
                place = span.label in ("GPE", "NORP", "LOC")  # "a Hong Kong Cantopop duo": where it is from
                street = span.text.split()[-1].lower() in _STREETS and kind(label) == "place"  # "the Franklin Street
                # building": where it stands (not "the Sesame Street episode", the show's)
                if not (tok.lemma_.lower() in _SIDES and (place or is_demonym(span.text.split()[0]))) \
                        and not (place and kind(label) != "place") and not street:
                    return [ref]  # "the Carry On team" is the franchise's; "the English Test team" no England
        listed: list[Ref] = []
        for prep in (c for c in tok.children if c.dep_ == "prep" and not _members_of_another(tok, c)):
            # "the Empire of Brazil", "the States of Mississippi and Alabama": the place or body named; not "the
            # governor of the Territory" (a person) nor "vessels of the United States" (things it owns)
            if _listing(prep) or (prep.lower_ == "of" and class_label(tok.lemma_) in NAMED_BY_OF
                                  and not ranked(tok) and not _a_part(tok)):
                for obj in with_conj(c for c in prep.children if c.dep_ == "pobj"):
                    if not _listing(prep) and _of_the_name(obj):
                        continue  # "the Territory of the United States" is a part of it, not the United States
                    listed += self.refs(obj, depth + 1)
        if listed:
            return listed
        if tok.dep_ in ("attr", "appos") and tok.head.i in self.by_token:  # "X, a film directed by Y"
            return [self.by_token[tok.head.i][1]]
        if tok.dep_ == "attr":
            subjects = [c for c in tok.head.children if c.dep_ in SUBJECTS]
            if not subjects:
                named = [self.by_token[c.i][1] for c in tok.head.children if c.dep_ == "attr" and c.i < tok.i
                         and c.i in self.by_token]
                if named:  # 'On the corner is "Shawfield House", a mansion owned by …': the mansion is the house
                    return named[-1:]
                before = name_before(tok.head, self)
                return [before] if before else []
            refs = [r for s in subjects for r in self.refs(s, depth + 1)]
            if any(c.dep_ == "attr" and c.i < tok.i for c in tok.head.children):
                return self._of_its_kind(tok, label, refs)  # a second attribute: the parser's appositive
            return refs
        if tok.dep_ == "appos":
            return self._of_its_kind(tok, label, self.refs(tok.head, depth + 1))
        if any(c.lower_ in ("that", "this") for c in tok.children if c.dep_ == "det") and label:
            near = self._nearest_of_kind(tok, kind(label))  # "Louisiana did when that fine territory was …"
            if near is not None:
                return [near]
        if label and any(c.lower_ == "latter" for c in tok.children if c.dep_ == "amod"):
            # "Formerly owned by Harris Publications, Future US bought the magazine. The latter company also
            # published …": the last one named of its kind
            latter = next((r for r in reversed(self.context.in_order) if kind(r.label) == kind(label)), None)
            return [latter] if latter else []
        if any(c.lower_ in DEFINITE for c in tok.children if c.dep_ == "det"):
            if _another_year(tok, self.context) or _named_otherwise(tok, self.context.topic):
                return []  # "after the 2011 Egyptian revolution", in the text of the 2012 election: another event
            if label == "PERSON" and any(c.dep_ == "amod" and c.lower_ in _ACCLAIMED for c in tok.children):
                return []  # "directed by the acclaimed actor and director", in an actor's text: someone the
                # sentence introduces (a praise word presents a person), not the one it is about
            after = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
            if after is not None and after.pos_ == "PROPN" and after.head.i != tok.i and tok.tag_ == "NN":
                # "the Norwegian king Harald Hardrada's invasion": the title of the name after it, no one before
                return [self.by_token[after.i][1]] if after.i in self.by_token else []
            ref = self.context.description(tok.lemma_, capital=tok.text[:1].isupper() and not tok.is_sent_start)
            return [ref] if ref else []
        return []


def _named_otherwise(noun: Any, topic: Ref | None) -> bool:
    """ "Jem Marsh founded the Marcos car company", in the text of Almac: a description with a proper noun of its
    own that the topic's name lacks is another thing."""
    if topic is None or noun.dep_ not in ("dobj", "pobj"):  # (a subject may be the topic under another name: "The
        return False  # Milwaukee crime family or Balistrieri crime family is … based in Milwaukee")
    own = {w.lower() for w in re.findall(r"\w+", topic.name)}
    return any(c.dep_ in ("compound", "amod", "nmod") and c.pos_ == "PROPN" and c.text[:1].isupper()
               and c.lower_ not in own for c in noun.children)


def _years(noun: Any) -> set[str]:
    return {c.text for c in noun.children if c.dep_ in ("nummod", "compound", "amod") and c.text.isdigit()
            and len(c.text) == 4}


def _another_year(noun: Any, context: Context) -> bool:
    """A description that carries a year the topic does not is another thing than the topic: "the 2011 Egyptian
    revolution" in the text of the 2012 election. The topic's years are those of its name and of the class
    phrase that first described it ("a 1997 American film"); "the 1997 film" of a topic of unknown year, with
    the topic's own class noun, is still the topic."""
    years = _years(noun)
    if not years or context.topic is None:
        return False
    known = set(re.findall(r"\b\d{4}\b", context.topic.name))
    if context.topic_phrase is not None:
        known |= _years(context.topic_phrase[1])
    if noun.lemma_.lower() == context.topic_class:
        return bool(known) and not years & known
    return not years & known


def _nearer_common_noun(pronoun: Any) -> bool:
    """Whether the nearest noun before a mid-sentence "it" or "they" is a common one of the same number: in "Washington
    retained the bill …, when it was presented to him" it is the bill. A text with no topic (an address) names
    most of what its pronouns stand for with common nouns, so the last name is then no antecedent."""
    plural = pronoun.lower_ in PLURAL
    for tok in reversed(pronoun.sent[: pronoun.i - pronoun.sent.start]):
        if tok.ent_type_ in ("DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"):
            continue  # "the bill from Monday, when it": a date is no antecedent
        if tok.pos_ == "PROPN" or tok.ent_type_:
            return False
        if tok.pos_ == "NOUN" and tok.dep_ not in ("compound", "npadvmod") and (tok.tag_ == "NNS") == plural:
            return True
    return False


def _of_the_name(obj: Any) -> bool:
    """The "of" names a whole the noun is part of: its name takes "the" ("the Territory of the United States",
    "the Government of the United States"), where a name the noun is ("the State of Texas", "the Republic of
    Mexico") takes none."""
    return any(c.dep_ == "det" and c.lower_ == "the" for c in obj.children)


# Bodies that are a part of the body after their "of" ("a subsidiary of Ilitch Holdings", "the studios of Triple
# J"), not named by it as "the Division of Blaxland" is
BODY_PARTS = {"subsidiary", "affiliate", "branch", "division", "unit", "arm", "wing", "imprint", "chapter",
              "department", "section", "studio", "office", "bureau"}


def _a_part(tok: Any) -> bool:
    """ "a subsidiary of Ilitch Holdings", "the studios of Triple J", "the Music division of Future US": a part;
    "the division of Blaxland", one electorate, is named by its "of"."""
    return tok.is_lower and tok.lemma_ in BODY_PARTS and not (
        tok.tag_ == "NN" and any(c.dep_ == "det" and c.lower_ == "the" for c in tok.children)
        and not any(c.dep_ in ("compound", "amod") for c in tok.children))  # ("the Music division of Future US")


def ranked(tok: Any) -> bool:
    """ "the second city of Oahu", "the largest port of Chile", "the capital city of Japan": one of the place's
    own, ranked among them, not a name for the place ("the ancient city of Troy" is Troy)."""
    return any(c.dep_ in ("amod", "nummod", "compound") and (c.tag_ == "JJS" or c.ent_type_ in ("ORDINAL", "CARDINAL")
                                                              or c.lower_ in ("capital", "main", "chief", "principal"))
               for c in tok.children)  # (and "six states of the northeastern United States": counted among them)


def _members_of_another(noun: Any, prep: Any) -> bool:
    """Whether a list after a singular noun's clause is the members of the plural that ends the clause: in "the
    spelling standard used by the Oxford University Press for British publications, including its 'Oxford English
    Dictionary'" the dictionary is one of the publications, no standard (but "songs written by him, including …"
    are the songs)."""
    doc = noun.doc
    return _listing(prep) and noun.tag_ == "NN" and prep.i >= 2 and doc[prep.i - 1].text == "," \
        and doc[prep.i - 2].tag_ == "NNS" and any(c.dep_ in ("acl", "relcl") and noun.i < c.i < prep.i
                                                 for c in noun.children)


def _listing(prep: Any) -> bool:
    """ "including", "like", "among", and "as" in "such as"; not the "as" of "as far west as the Rio Grande"."""
    if prep.lower_ == "as":
        return any(t.lower_ == "such" for t in (*prep.children, prep.doc[prep.i - 1] if prep.i else prep))
    return prep.lower_ in LISTING


def _expletive(it: Any) -> bool:
    """ "It appeared that …", "it is necessary to …": an "it" that stands for the clause after it, not a thing."""
    if it.dep_ == "expl":
        return True
    verb = it.head
    if it.dep_ == "nsubj" and verb.lemma_ == "be" and any(c.dep_ in ("xcomp", "ccomp", "csubj") and c.i > verb.i
                                                          for c in verb.children):
        return True  # "it is our duty to provide …", "it was a mistake that …"
    return it.dep_ in ("nsubj", "nsubjpass") and any(c.dep_ in ("ccomp", "xcomp", "csubj") and c.i > verb.i
                                                     for c in verb.children) and not any(
        c.dep_ in ("dobj", "attr") for c in verb.children if c.i > verb.i and c.pos_ in ("NOUN", "PROPN"))


def counted_members(tok: Any) -> bool:
    """ "Dan Cooper and two other former Kimber of Oregon employees": the parser lost the people counted, and the
    name only says whose they were (but "two Golden Globe Awards" are awards won)."""
    return any(c.dep_ == "nummod" and c.ent_type_ == "CARDINAL" for c in tok.children) and any(
        c.dep_ == "amod" and c.lower_ in ("other", "former", "fellow") for c in tok.children)


_ACCLAIMED = {"acclaimed", "famous", "renowned", "noted", "legendary", "celebrated", "well-known", "prominent",
              "distinguished", "eminent", "veteran", "award-winning"}
_STREETS = {"street", "avenue", "road", "boulevard", "lane", "square", "drive", "place", "row"}


def possessor(span: Any, doc: Any) -> bool:
    """The name owns the noun after it ("KBS's variety show"), whatever the parse made of it."""
    return bool(span.end + 1 < len(doc) and doc[span.end].tag_ == "POS" and doc[span.end + 1].is_alpha)


def words_between(first: Any, last: Any) -> int:
    """How many tokens other than punctuation lie strictly between two tokens ('album, "Vicious Lies …"': none)."""
    return sum(not t.is_punct for t in first.doc[first.i + 1:last.i])


def name_before(verb: Any, resolver: Resolver) -> Ref | None:
    """The name right before a sentence's root verb, when the parse found no subject for it."""
    if verb.dep_ != "ROOT":
        return None
    i = verb.i - 1
    while i >= verb.sent.start and (verb.doc[i].is_space or verb.doc[i].dep_ in ("aux", "auxpass", "neg")):
        i -= 1
    found = resolver.by_token.get(i) if i >= verb.sent.start else None
    return found[1] if found else None
