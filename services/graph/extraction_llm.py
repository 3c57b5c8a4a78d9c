"""LLM extraction: schema-guided entities, relations, dates and exclusivity, as a LlamaIndex transform.

The model answers JSON that is validated with pydantic; anything that does not
fit is dropped (a bad relation) or fails the document's graph step (a bad
answer), never written half-understood. For each relation the model also says
whether it is *exclusive* ("subject": the subject has one such object at a
time, "object": the object has one such subject at a time), which is how a new
fact is judged to contradict, and so supersede, an older one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY, EntityNode, Relation
from llama_index.core.schema import BaseNode, TransformComponent
from pydantic import BaseModel, Field, PrivateAttr, ValidationError

from services.graph.entities import display_name, entity_key
from services.graph.temporal import DAY, MONTH, YEAR
from services.graph.vocabulary import LABELS, canonical
from services.stores.llm import LLMClient, LLMError

SYSTEM_PROMPT = """You extract a knowledge graph from text. Answer one JSON object only:
{"entities": [{"name": str, "type": "PERSON"|"ORG"|"GPE"|"LOC"|"FAC"|"NORP"|"EVENT"|"WORK_OF_ART"|"LAW"|"PRODUCT"}],
 "relations": [{"subject": str, "relation": str, "object": str, "sentence": str,
                "date": "YYYY-MM-DD"|"YYYY-MM"|"YYYY" or null, "until": the same or null, "exclusive": "subject"|"object"|null}]}
Rules: entities are named things only (people, organisations, places, works, events), with their full
names; no dates, numbers or common nouns. subject and object are entity names from "entities"; for "he",
"she", "it" or "the film" give the name it stands for. relation is one label from this list when one fits,
else a short snake_case verb phrase: {labels}. sentence is the exact sentence from the text that states the fact.
A negated statement ("did not win") is no relation. date is when the fact began or happened, as the clause
states it, only as precise as it states it ("in 1998" is 1998, "in March 1998" 1998-03), and until when it ended ("to 1389"), else
null; a birth year does not date other facts. exclusive says which side can hold only one such fact at a
time: "object" for ceo_of (a company has one CEO at a time), "subject" for located_in (a thing is in one
place at a time), null when many can hold. Use only what the text states.""".replace("{labels}", ", ".join(LABELS))


class _LLMEntity(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    type: str = "ENTITY"


class _LLMRelation(BaseModel):
    subject: str = Field(min_length=1, max_length=200)
    relation: str = Field(min_length=1, max_length=100)
    object: str = Field(min_length=1, max_length=200)
    sentence: str = ""
    date: str | None = None
    until: str | None = None
    exclusive: Literal["subject", "object"] | None = None


class _LLMAnswer(BaseModel):
    entities: list[_LLMEntity] = Field(default_factory=list)
    relations: list[_LLMRelation] = Field(default_factory=list)


def _relation_ok(raw: Any) -> _LLMRelation | None:
    try:
        return _LLMRelation.model_validate(raw)
    except ValidationError:
        return None


class LLMTemporalExtractor(TransformComponent):
    """Extract with an OpenAI-compatible chat model; same output keys as the spaCy extractor."""

    _llm: Any = PrivateAttr(default=None)

    def __init__(self, llm: LLMClient, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._llm = llm

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        for node in nodes:
            text = node.get_content()
            raw = self._llm.json_chat(SYSTEM_PROMPT, f"Text:\n{text}")
            entities_raw = raw.get("entities")
            if not isinstance(entities_raw, list) or not isinstance(raw.get("relations", []), list):
                raise LLMError("The LLM answer has no 'entities' list.")
            answer = _LLMAnswer(
                entities=[e for e in (self._entity_ok(x) for x in entities_raw) if e],
                relations=[r for r in (_relation_ok(x) for x in raw.get("relations", [])) if r],
            )
            entities: dict[str, EntityNode] = {}
            for ent in answer.entities:
                key = entity_key(ent.name)
                if key:
                    entities.setdefault(key, EntityNode(name=display_name(ent.name), label=ent.type.upper()[:20],
                                                        properties={"key": key, "aliases": [], "stated": False}))
            relations = []
            base = getattr(node, "start_char_idx", None) or 0  # TextNode's; 0 for other nodes
            for rel in answer.relations:
                src, dst = entity_key(rel.subject), entity_key(rel.object)
                if src not in entities or dst not in entities or src == dst:
                    continue  # the model named something it did not list: drop the fact, not the document
                at = text.find(rel.sentence) if rel.sentence else -1
                start = base + max(at, 0)
                valid_from, valid_until = _valid_iso(rel.date), _valid_iso(rel.until)
                relations.append(Relation(
                    label=canonical(rel.relation), source_id=entities[src].id, target_id=entities[dst].id,
                    properties={"sentence": (rel.sentence or text[:300])[:1000], "raw": rel.relation.replace("_", " "),
                                "valid_from": valid_from[0] if valid_from else None,
                                "valid_until": valid_until[0] if valid_until else None,
                                "valid_from_precision": valid_from[1] if valid_from else None,
                                "valid_until_precision": valid_until[1] if valid_until else None,
                                "char_start": start, "char_end": start + len(rel.sentence), "exclusive": rel.exclusive},
                ))
            node.metadata[KG_NODES_KEY] = list(entities.values())
            node.metadata[KG_RELATIONS_KEY] = relations
        return nodes

    @staticmethod
    def _entity_ok(raw: Any) -> _LLMEntity | None:
        try:
            return _LLMEntity.model_validate(raw)
        except ValidationError:
            return None


def _valid_iso(value: str | None) -> tuple[str, str] | None:
    """The model's date as (ISO date, precision): YYYY-MM-DD is a day, unless its sentence states only the
    year or the month (the prompt asks for a year alone as YYYY-01-01); a bare YYYY or YYYY-MM is taken too."""
    import datetime as dt

    if not value:
        return None
    text = value.strip()
    try:
        if len(text) == 4 and text.isdigit():
            return dt.date(int(text), 1, 1).isoformat(), YEAR
        if len(text) == 7 and text[4] == "-":
            return dt.date(int(text[:4]), int(text[5:]), 1).isoformat(), MONTH
        return dt.date.fromisoformat(text[:10]).isoformat(), DAY
    except ValueError:
        return None
