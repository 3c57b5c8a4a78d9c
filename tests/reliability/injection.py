"""Hostile strings, and a collection per string holding a document and graph facts named with it.

The facts come from the real LLM extraction path (client → HTTP → validation →
parameterised Cypher) against a local OpenAI-compatible server on 127.0.0.1
whose "model" names the payload as an entity, so entity names carry the payload
exactly as a hostile document could make a real model do.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from services.graph.extraction_llm import LLMTemporalExtractor
from services.graph.service import GraphService
from services.ingest.requests import text_request
from services.settings import Settings
from services.stores.llm import LLMClient
from tests.utils.fake_openai import FakeOpenAI

PAYLOADS = {
    "sql": "'); DROP TABLE chunks;--",
    "cypher": '"}) DETACH DELETE n //',
    "script": "<script>alert(1)</script>",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "md-js-link": "[x](javascript:alert(1))",
    "md-image": "![pixel](http://127.0.0.1:9/track.png)",
    "backticks": "`rm -rf /` ``` fenced",
    "pipes-brackets": "| a | [b] {c} (d) #e; %f \\g",
    "st-directives": ":red[boom] $x^2$ **bold**",
}
SENTINEL = "Quillon Harbour Authority"


@dataclass
class Planted:
    kind: str
    payload: str
    collection: str
    collection_id: int
    document_id: int
    title: str
    metadata: dict[str, Any]
    text: str


def _model(messages: list[dict[str, Any]], request: dict[str, Any]) -> str:
    """Name the payload found in the text as an entity that oversees the sentinel organisation."""
    text = messages[-1]["content"].split("Text:\n", 1)[1]
    found = [p for p in PAYLOADS.values() if p in text]
    entities = [{"name": SENTINEL, "type": "ORG"}] + [{"name": p, "type": "ORG"} for p in found]
    relations = [{"subject": p, "relation": "oversees", "object": SENTINEL, "sentence": p, "date": None}
                 for p in found]
    return json.dumps({"entities": entities, "relations": relations})


def plant(services: Any) -> list[Planted]:
    """One collection per payload (named with it), a document titled with it, facts about it."""
    planted = []
    with FakeOpenAI(_model) as server:
        settings = Settings(openai_base_url=server.base_url, llm_model="fake-model", data_dir=services.settings.data_dir)
        graph = GraphService(engine=services.engine, store=services.graph_store,
                             extractor=LLMTemporalExtractor(LLMClient(settings)))
        for kind, payload in PAYLOADS.items():
            name = f"inj {uuid.uuid4().hex[:6]} {payload}"
            coll = services.collections.create(name=name, description=f"Description with {payload}")
            title = f"Report {payload}"
            metadata = {"note": payload, f"key {payload}": "value", "nested": {"list": [payload]}}
            text = f"Inspection notes. {payload} was written on the harbour wall. The pilots saw it at dawn."
            result = services.ingestion.run(text_request(name, title=title, text=text, metadata=metadata))
            doc_id = result.items[0]["document_id"]
            outcome = graph.index_document(doc_id)
            assert outcome.status == "done" and outcome.facts == 1, outcome
            planted.append(Planted(kind, payload, name, coll.id, doc_id, title, metadata, text))
    return planted
