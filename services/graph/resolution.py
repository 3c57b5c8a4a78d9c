"""One node per thing: a document's names resolved together, then matched to the collection's entities.

Within a document (:func:`resolve_document`), over all its segments:

* the type of a name is the class its text states, else the tag most of its mentions carry;
* a short form resolves to the document's topic when the topic's name ends with it, whatever the tagger called
  it ("Evans" in Ceri Evans's article, which also names his father Gwyn Evans; "Franklin", tagged an
  organisation, in Gary Franklin's); else to the one longer name of the
  same kind that ends with it ("Smith" → "John Smith",
  and a given name alone to the one person whose name starts with it: "Ben" → "Ben Stokes";
  "Cubs" → "Chicago Cubs"; persons also after their honorific: "President Lincoln" → "Abraham Lincoln"). Only
  people and organisations: "Texas" is not "East Texas";
* a stated alias ("(UN)", "born Marcus Ulpius Traianus", "also known as …") folds its name into the entity,
  and is kept in the entity's ``aliases``.

Across documents (:func:`match_existing`), an entity joins an entity of the collection that has its name or
one of its aliases, when their types are compatible. Two things whose types were both *stated* by their
texts and differ (Barcelona the city, Barcelona the club) stay two nodes: the second gets the key
``name#kind``. A name only tagged by NER joins whatever the collection already calls by that name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from services.graph.entities import entity_key
from services.graph.gazetteer import is_demonym
from services.graph.name_words import NAME_SUFFIXES, given_names
from services.graph.spans import ENTITY, compatible, is_honorific, kind
from services.graph.type_evidence import CHECKED, same_type

SHORT_FORM_KINDS = {"person", "org"}
_PATRONYMIC = {"ap", "ab", "ferch", "verch", "ibn", "bin", "bint", "ben", "bat"}  # the name after it is a parent's


@dataclass
class DocEntity:
    key: str  # the name key, before matching the collection
    name: str
    type: str
    stated: bool = False
    aliases: list[str] = field(default_factory=list)
    votes: Counter[str] = field(default_factory=Counter)
    topic: bool = False
    confirmed: set[str] | None = None  # the types something beyond the tag supports; None: not checked (LLM path)
    term: bool = False  # the text writes it in lower case: a term, not a named thing
    shadow: bool = False  # named in full in no fact: there for a short form to resolve to (document_facts._found)
    ambiguous: bool = False  # a surname alone that two people of the document bear: no fact can say which

    @property
    def alias_keys(self) -> list[str]:
        return sorted({k for k in (entity_key(a) for a in self.aliases) if k and k != self.key})


def resolve_document(found: list[tuple[Any, ...]]) -> tuple[dict[str, DocEntity], dict[str, str]]:
    """Settle a document's entities from every mention ``(key, name, type, stated, aliases, mentions, topic)``,
    optionally followed by ``confirmed`` (the types with evidence, or None), ``term`` and ``shadow``.

    Returns the entities by key and a map from every key seen to the key it resolves to.
    """
    entities: dict[str, DocEntity] = {}
    for key, name, type_, stated, aliases, mentions, topic, *extra in found:
        ent = entities.setdefault(key, DocEntity(key, name, type_, shadow=len(extra) > 2 and bool(extra[2])))
        if extra and extra[0] is not None:
            ent.confirmed = (ent.confirmed or set()) | set(extra[0])
        ent.term = ent.term or (len(extra) > 1 and bool(extra[1]))
        ent.shadow = ent.shadow and len(extra) > 2 and bool(extra[2])  # a fact's entity is none
        if stated and not ent.stated:
            ent.type, ent.stated = type_, True
        if type_ != ENTITY:
            ent.votes[type_] += max(mentions, 1)
        ent.topic = ent.topic or topic
        if len(name) > len(ent.name) and entity_key(name) == key:
            ent.name = name
        ent.aliases += [a for a in aliases if a not in ent.aliases]
    for ent in entities.values():
        if not ent.stated and ent.votes:
            ent.type = ent.votes.most_common(1)[0][0]
    target = {k: k for k in entities}
    for ent in entities.values():  # stated aliases
        for alias_key in ent.alias_keys:
            if alias_key in entities and alias_key != ent.key and not entities[alias_key].topic:
                target[alias_key] = ent.key
    for ent in entities.values():  # "General Paredes", "Mr. Madison": the person the text also names without it
        bare = _after_honorific(ent, entities)
        if bare is not None and target[ent.key] == ent.key:
            target[ent.key] = bare.key
            bare.type = "PERSON" if not bare.stated and kind(bare.type) in ("person", "other") else bare.type
            if bare.confirmed is not None and bare.type == "PERSON":
                bare.confirmed.add("PERSON")  # an honorific is a person's
    for ent in entities.values():  # short forms
        if target[ent.key] == ent.key and not ent.topic and kind(_evident(ent)) == "group" \
                and not is_demonym(ent.name):
            topic = [o for o in entities.values() if o.topic and len(o.key.split()) > len(ent.key.split())
                     and o.key.split()[-len(ent.key.split()):] == ent.key.split()]
            if len(topic) == 1:  # "the Classics line" in the text of "Walt Disney Classics": a group the tagger
                target[ent.key] = topic[0].key  # made of the topic's last word, which is no people's name
                continue
        if target[ent.key] != ent.key or ent.topic or kind(_evident(ent)) not in SHORT_FORM_KINDS | {"other"}:
            continue
        words = ent.key.split()
        if len(words) > 1 and kind(_evident(ent)) == "org" and any(a.isupper() and len(a) > 1 for a in ent.aliases):
            continue  # "the National Basketball League (NBL)", with initials of its own, is no short form of the
            # Women's National Basketball League
        ends = [o for o in entities.values() if o.key != ent.key and len(_bare_key(o)) > len(words)
                and _bare_key(o)[-len(words):] == words
                and _bare_key(o)[-len(words) - 1] not in _PATRONYMIC  # "Cynfyn" is not Bleddyn ap Cynfyn
                and not (_bare_key(o)[-len(words) - 1] == "of" and kind(_evident(ent)) == "person")
                and o.name.lower().rsplit(",", 1)[-1].split() != ent.name.lower().split()]
        # (nor is "Shimon Peres" the "Presidency of Shimon Peres", nor "Sira" the place after the comma of "Mallik
        # Rehan Tomb, Sira")
        # the types compared are those with evidence: "Ashleigh Brewer", tagged an organisation, and "Brewer", a
        # person, are both untyped names, and "Brewer" is her
        longer = [o for o in ends if kind(_evident(o)) in SHORT_FORM_KINDS | {"other"}
                  and compatible(_evident(o), _evident(ent)) and (kind(_evident(o)) != "other" or len(words) == 1)]
        subject = [o for o in ends if o.topic and (kind(o.type) in SHORT_FORM_KINDS | {"other"} or (
            kind(o.type) == "event" and len(words) > 1))]  # "Tornado Outbreak" in the text of "1998 Eastern
        # tornado outbreak" (one word is no event's short form: "War" of "Vietnam War")
        held = [o for o in ends if not o.topic and any(t.key.endswith(" of " + o.key) for t in subject)]
        if held:  # "Peres defeated Reuven Rivlin" in the text of "Presidency of Shimon Peres": the man, not his term
            longer = held
        elif subject and not ent.stated:  # a biography's surname alone is its subject
            longer = subject
        if not longer and len(words) == 1 and kind(ent.type) in ("person", "other"):  # "Ben" of "Ben Stokes"
            longer = [o for o in entities.values() if o.key != ent.key and _given_name_of(words[0], o.key.split()[0])
                      and len(o.key.split()) > 1 and not any(ch.isdigit() for ch in o.key)  # "Sega" of "Sega AM2":
                      and (kind(o.type) == "person" or _untyped_person_topic(o, ent))]  # a studio, no given name
        same = [o for o in longer if kind(_evident(o)) == kind(_evident(ent)) != "other"]
        if len(longer) > 1 and len(same) == 1:
            longer = same  # "Johnson" (a person) of "Samuel Johnson", not of the untyped "A Biographical Sketch of
            # Dr Samuel Johnson"
        if len(longer) > 1 and sum(not o.shadow for o in longer) == 1:
            longer = [o for o in longer if not o.shadow]  # "Williams" of "Hank Williams and his wife Audrey
            # Williams": the one of its facts, as when the other was not in the list
        if len(longer) == 1:
            target[ent.key] = longer[0].key
        elif len(words) == 1 and kind(ent.type) in ("person", "other") and len(
                {o.key for o in longer if kind(_evident(o)) == "person"}) > 1:
            ent.ambiguous = True  # "Williams learned the song" in a text of Hank and Audrey Williams
    for key, into in list(target.items()):  # follow chains (an alias of a short form)
        seen = {key}
        while target[into] != into and into not in seen:
            seen.add(into)
            into = target[into]
        target[key] = into
    for key, into in target.items():
        if key != into:
            kept, gone = entities[into], entities[key]
            if kept.type == ENTITY and not kept.stated and kind(gone.type) in SHORT_FORM_KINDS:
                kept.type = gone.type  # "Sven Hannawald", untagged in the title, is the person "Hannawald" is
            if gone.name not in kept.aliases and gone.name.lower() != kept.name.lower():
                kept.aliases.append(gone.name)
            kept.aliases += [a for a in gone.aliases if a not in kept.aliases]
            if kept.confirmed is not None and gone.confirmed:
                kept.confirmed |= gone.confirmed
    kept_entities = {k: e for k, e in entities.items() if target[k] == k}
    for ent in kept_entities.values():
        _settle_evidence(ent)
    return kept_entities, target


def _evident(ent: DocEntity) -> str:
    """The entity's type where something beyond the tag supports it, else untyped (the tag alone)."""
    if ent.confirmed is None or ent.stated or ent.type not in CHECKED or any(same_type(ent.type, c) for c in ent.confirmed):
        return ent.type
    return ENTITY


def _bare_key(ent: DocEntity) -> list[str]:
    """The words of an entity's key without a generational suffix ("George William Wilson, Sr." ends with Wilson)."""
    words = ent.key.split()
    while len(words) > 2 and words[-1] in NAME_SUFFIXES:
        words = words[:-1]
    return words


def _settle_evidence(ent: DocEntity) -> None:
    """An offline type with no evidence beyond the tag is dropped (services/graph/type_evidence.py)."""
    if ent.term:
        ent.type, ent.stated = ENTITY, False  # "aircraft carrier": a term the topic names, typed by nothing
    elif ent.confirmed is not None and not ent.stated and ent.type in CHECKED \
            and not any(same_type(ent.type, c) for c in ent.confirmed):
        ent.type = ENTITY


def _after_honorific(ent: DocEntity, entities: dict[str, DocEntity]) -> DocEntity | None:
    """The one person (or untyped name) the document calls by ``ent``'s name without its leading honorific:
    "Paredes" or "Mariano Paredes" for "General Paredes", which the tagger often calls an organisation.
    Without such a mention the name stays as it is ("General Motors" is no "Motors")."""
    words = ent.key.split()
    if len(words) < 2 or not is_honorific(words[0]):
        return None
    rest = words[1:]
    found = [o for o in entities.values() if o.key != ent.key and kind(o.type) in ("person", "other")
             and o.key.split()[-len(rest):] == rest and not is_honorific(o.key.split()[0])]
    exact = [o for o in found if o.key.split() == rest]
    return exact[0] if exact else found[0] if len(found) == 1 else None


def match_existing(entities: dict[str, DocEntity], existing: list[dict[str, Any]]) -> dict[str, str]:
    """The collection key each document entity is written under.

    ``existing`` are the collection's entities that share a name or alias key with the document's:
    rows with ``key``, ``name_key``, ``type``, ``stated`` and ``alias_keys``.
    """
    out: dict[str, str] = {}
    taken = {row["key"] for row in existing}
    for ent in entities.values():
        names = {ent.key, *ent.alias_keys}
        candidates = [r for r in existing if (r.get("name_key") or r["key"]) in names
                      or ent.key in (r.get("alias_keys") or [])]
        same = [r for r in candidates if kind(r.get("type") or ENTITY) == kind(ent.type)]
        loose = [r for r in candidates if compatible(r.get("type") or ENTITY, ent.type)
                 or not (ent.stated and r.get("stated"))]
        choices = same or loose
        if choices:
            pick = choices[0]
            out[ent.key] = pick["key"]
        elif ent.key in taken or any((r.get("name_key") or r["key"]) == ent.key for r in candidates):
            out[ent.key] = f"{ent.key}#{kind(ent.type)}"
        else:
            out[ent.key] = ent.key
    return out


# Short forms of given names that are no prefix of them ("Bob" of Robert); a prefix of three letters or more is
# one by itself ("Ben" of Benjamin, "Chris" of Christopher).
_DIMINUTIVES = {"bob": "robert", "bobby": "robert", "bill": "william", "billy": "william", "will": "william",
                "dick": "richard", "rick": "richard", "jim": "james", "jimmy": "james", "jack": "john",
                "johnny": "john", "peggy": "margaret", "maggie": "margaret", "meg": "margaret", "liz": "elizabeth",
                "beth": "elizabeth", "betty": "elizabeth", "kate": "katherine", "katie": "katherine",
                "ted": "edward", "ned": "edward", "harry": "henry", "hank": "henry", "chuck": "charles",
                "charlie": "charles", "tony": "anthony", "larry": "lawrence", "peg": "margaret", "sally": "sarah",
                "polly": "mary", "molly": "mary", "sue": "susan", "nancy": "anne", "jenny": "jennifer"}


def _untyped_person_topic(topic: DocEntity, short: DocEntity) -> bool:
    """An untyped topic whose name starts with a given name, or with the name the tagger calls a person: "Sigmund
    Ruud … was a Norwegian ski jumper" (no class of the tagger's), so "Sigmund earned a silver medal" is he."""
    return topic.topic and kind(topic.type) == "other" and (topic.key.split()[0] in given_names()
                                                            or short.votes.get("PERSON", 0) > 0)


def _given_name_of(short: str, given: str) -> bool:
    """Whether ``short`` is ``given`` or a short form of it: "Ben" of "Benjamin Andrew Stokes", "Bob" of Robert."""
    return short == given or _DIMINUTIVES.get(short) == given or (len(short) >= 3 and given.startswith(short))
