"""Who "he", "it", "the film" and "they" are: the document's topic, or the last compatible name before them.

A documented rule set, not a statistical model (no coreference component installs offline here):

* **The topic.** A document is about its title when the title names a thing that its text mentions; else
  about the named subject of its first sentence. The topic's type comes from the class its text states
  ("… is a band" → an organisation), else from the names' own tags.
* **he / she / him / her** → the topic when it is a person; else a person named as a subject earlier in the
  same sentence; else the subject of the previous sentence in the paragraph when that is a person; else, in a
  document with a topic, the last person named in the paragraph.
* **it** → the thing the previous sentence brought in with "there is" ("There is a fifth country …, Denika. It
  is off the map"); else the topic when it is not a person; else the previous sentence's subject when that is a
  thing.
* **they / them** → the topic when it is an organisation or a group (a band, a team, a people); else the
  previous sentence's subject when that is one.
* **the film, the company, this station …** (a definite description) → the topic when the noun is the
  topic's stated class or a class of the topic's kind; else the last name in the paragraph stated to be of
  that class. Never a shared node of its own: a description nothing resolves gives no fact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.graph.classes import COLLECTIVE_KINDS, class_label, head_label
from services.graph.name_bounds import PEERAGES
from services.graph.name_words import given_names
from services.graph.spans import ENTITY, kind
from services.graph.vocabulary import noun_label

KIN_LABELS = {"child_of", "descendant_of", "parent_of", "sibling_of", "married"}


# Names of one kind of work: "the movie" is the film, "the single" the song; "the music video" or "the album" of a
# song, "the soundtrack" of a film are other works. (A series' "book", a soap opera's "show" may be the topic.)
_WORK_KINDS = {"film": "film", "movie": "film", "picture": "film", "song": "song", "single": "song", "track": "song",
               "album": "album", "lp": "album", "ep": "album", "compilation": "album", "video": "video",
               "soundtrack": "soundtrack", "novel": "novel", "novella": "novel", "book": "novel"}
_SERIES = {"series", "show", "sitcom", "drama", "programme", "program", "opera", "serial", "miniseries", "franchise"}


def _another_work(noun: str, topic_class: str | None) -> bool:
    """ "The music video was directed by Dave Meyers", in the text of a song: another work than the topic."""
    mine = _WORK_KINDS.get(noun)
    theirs = _WORK_KINDS.get(topic_class or "") or ("series" if topic_class in _SERIES else None)
    if mine is None or theirs is None or mine == theirs:
        return False
    return not (mine == "novel" and theirs == "series")  # "the first book of the Scaredy Squirrel series"


def kin_of(tok: Any) -> bool:
    """A name given as someone's kin ("a great-great-granddaughter of Martha Washington", "the son of Leofric"):
    named to place another person, who stays the one a later "she" or "he" means."""
    prep = tok.head
    if tok.dep_ != "pobj" or prep.lower_ != "of" or prep.head.pos_ != "NOUN":
        return False
    return noun_label(prep.head.lower_.split("-")[-1], "of") in KIN_LABELS

PERSONAL = {"he", "him", "she", "her", "himself", "herself"}
NEUTER = {"it", "itself"}
PLURAL = {"they", "them", "themselves"}
DEFINITE = {"the", "this", "that", "these", "those"}


def _not_a_person(name: str) -> bool:
    """The name's head noun says it is no person ("Cihu Mausoleum", "… Preparatory School"); a two-word name
    that starts with a given name may be one ("John Lake", "David Castle")."""
    words = name.split()
    head = head_label(words)
    return head not in (None, "PERSON") and not (len(words) == 2 and words[0].lower() in given_names())


@dataclass
class Ref:
    """An entity as a sentence names it: its surface name and NER label (``stated``: typed by a class)."""

    name: str
    label: str
    stated: bool = False
    topic: bool = False


# A title held by one after another, named after its family: "the Jerningham Baronetcy"
_TITLES_HELD = {"baronetcy", "baronets", "barony", "earldom", "dukedom", "viscountcy", "marquessate", "peerage",
                "lordship", "baronage"}


def _a_title(ref: Ref) -> bool:
    """A peerage or a title held by one after another ("Baron Stanley of Alderley", "the Jerningham Baronetcy"),
    whatever the tagger called it: no "he" of its text is the title."""
    words = ref.name.lower().split()
    return words[0] in PEERAGES or any(w in _TITLES_HELD for w in words[1:])


@dataclass
class Context:
    """What the sentences so far in a paragraph have said: the topic, its class, the recent names."""

    topic: Ref | None = None
    topic_class: str | None = None
    topic_phrase: tuple[str, Any] | None = None  # the class phrase the text first gives the topic, and its noun
    previous_subject: Ref | None = None
    recent: list[Ref] = field(default_factory=list)  # names of this paragraph, oldest first
    classes: dict[str, Ref] = field(default_factory=dict)  # class noun -> the last name stated to be one
    background: set[int] = field(default_factory=set)  # ids of people named only as someone's kin ("daughter of X")
    in_order: list[Ref] = field(default_factory=list)  # the paragraph's names in the order the text gives them
    topic_personal: bool = False  # the text has called the topic "he" or "she": no "it" of its is the topic
    introduced: Ref | None = None  # the thing the last sentence brought in with "there is": the next "it"

    def new_paragraph(self) -> None:
        self.previous_subject = None
        self.introduced = None
        self.recent.clear()
        self.classes.clear()
        self.background.clear()
        self.in_order.clear()

    def state_class(self, ref: Ref, noun: str, kind_of: str = "") -> None:
        """The text says what ``ref`` is ("X is a band", "the pop band X"): that types it. ``kind_of`` is the word
        before the noun, where the two name one class ("a publishing house" is a publisher, not a building)."""
        self.classes[noun.lower()] = ref
        label = class_label(f"{kind_of} {noun}".strip()) or class_label(noun)
        if label == "PERSON" and _not_a_person(ref.name):
            label = None  # "Worksop College Preparatory School is a member of …", "President Chiang Kai-shek
            # Mausoleum": the name's own head says what it is
        if ref.topic and self.topic is not None:
            self.topic_class = self.topic_class or noun.lower()
            if label and not self.topic.stated:
                self.topic.label, self.topic.stated = label, True
        elif label and not ref.stated:
            ref.label, ref.stated = label, True

    def pronoun(self, word: str) -> Ref | None:
        word = word.lower()
        topic_kind = kind(self.topic.label) if self.topic else None
        prev = self.previous_subject
        if word in PERSONAL:  # a peerage is held by one man after another: "he" is the last one named, not it
            peerage = self.topic is not None and _a_title(self.topic)
            if self.topic and not peerage and (topic_kind == "person" or (not self.topic.stated
                                                                        and topic_kind in ("org", "other"))):
                self.topic_personal = True
                return self.topic  # a name the tagger called an organisation, that the text calls "he"
            if prev and kind(prev.label) == "person" and not _a_title(prev):
                return prev
            if self.topic is None or peerage:  # an address, a report, a title's holders: the last person named
                return None  # is a guess, wrong more often
            people = [r for r in reversed(self.recent) if kind(r.label) == "person"]
            # "for his second wife, Gabriella Peter, a great-great-granddaughter of Martha Washington. She grew
            # up at …": she is the wife; the ancestor is named only to place her
            return next((r for r in people if id(r) not in self.background), people[0] if people else None)
        if word in NEUTER and self.introduced is not None:
            return self.introduced  # "There is a fifth country introduced to the trilogy, Denika. It is off the map"
        if word in NEUTER:
            prev_thing = prev if prev and kind(prev.label) not in ("person", "group") and prev.label != ENTITY else None
            if self.topic and topic_kind != "person":
                return self.topic
            if self.topic and not self.topic.stated and not self.topic_personal:  # tagged a person, yet called
                return prev_thing or self.topic  # "it": a thing, unless a thing was the last subject (or the text
            # called the topic "he": "Carr released "Been a Long Time" … It peaked at number 33" is the single)
            return prev_thing
        if word in PLURAL:
            if self.topic and topic_kind in COLLECTIVE_KINDS:
                return self.topic
            if prev and kind(prev.label) in COLLECTIVE_KINDS:
                return prev
        return None

    def description(self, noun: str, capital: bool = False) -> Ref | None:
        """The referent of "the <noun>" (``capital``: written "the Club", a short form of a name)."""
        noun = noun.lower()
        if self.topic is not None:
            if noun == self.topic_class:
                return self.topic
            named = next((r for r in reversed(self.recent) if r.name.lower().split()[-1] == noun
                          and len(r.name.split()) > 1), None) if capital else None
            if named is not None and noun not in self.topic.name.lower().split():
                return named  # "the original Maryland Club … The Club later moved": the club named, not the church
            label = class_label(noun)
            if label and kind(label) == kind(self.topic.label) and kind(label) != "person" \
                    and not _another_work(noun, self.topic_class):
                return self.topic
            if noun in self.topic.name.lower().split():  # "the expressway" in "Lee Roy Selmon Expressway"
                return self.topic
        return self.classes.get(noun)

    def main_subject(self, ref: Ref | None | bool) -> None:
        """The sentence's main subject: a name becomes the previous subject; something unnamed clears it."""
        if ref is None:
            self.previous_subject = None
        elif ref is not False:
            assert isinstance(ref, Ref)
            self.saw(ref, subject=True)

    def saw(self, ref: Ref, *, subject: bool, background: bool = False) -> None:
        if background and not subject:
            self.background.add(id(ref))
        else:
            self.background.discard(id(ref))
        if not subject:
            self.in_order = [*self.in_order[-29:], ref]
        self.recent.append(ref)
        if len(self.recent) > 30:
            del self.recent[:10]
        if subject:
            self.previous_subject = ref


def sentence_subject(sent: Any, refs: Callable[[Any], list[Ref]]) -> Ref | None | bool:
    """What the sentence's main clause is about, for the next sentence's "it" and "they": a named thing; None
    when it is something unnamed ("the bank", "the war"), which the next pronoun more likely means than an older
    name; False when the main clause has no subject to go by. ``refs`` resolves a token (Resolver.refs)."""
    subject = next((t for t in sent.root.children if t.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None:
        return False
    found = refs(subject)
    return found[0] if found else None


def brought_in(sent: Any, refs: Callable[[Any], list[Ref]]) -> Ref | None:
    """The named thing a "there is" sentence brings in ("There is a fifth country introduced to the trilogy as
    well, Denika"), which the next sentence's "it" means rather than the topic; None for any other sentence."""
    root = sent.root
    if root.lemma_.lower() != "be" or not any(c.dep_ == "expl" for c in root.children):
        return None
    noun = next((c for c in root.children if c.dep_ == "attr"), None)
    if noun is None or class_label(noun.lemma_) in (None, "PERSON"):
        return None
    found = [r for t in (noun, *(c for c in noun.children if c.dep_ == "appos")) for r in refs(t)]
    return found[0] if len(found) == 1 and not found[0].topic else None
