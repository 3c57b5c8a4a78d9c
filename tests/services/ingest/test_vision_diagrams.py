"""Flowchart pictures read by a vision model over the real OpenAI protocol (a local server on 127.0.0.1)."""

from __future__ import annotations

import json

import pytest

from services.ingest.pipeline import IngestionService
from services.ingest.requests import files_request
from services.settings import Settings
from services.stores.llm import LLMClient
from tests.utils.fake_openai import FakeOpenAI

READING = {"nodes": [{"id": "a", "text": "Vendor request received", "kind": "start_end"},
                     {"id": "b", "text": "Sanctions check clear?", "kind": "decision"},
                     {"id": "c", "text": "Create vendor record", "kind": "process"}],
           "edges": [{"source": "a", "target": "b", "label": None}, {"source": "b", "target": "c", "label": "Yes"}]}


def _vision_ingest(services, base_url, name, data):
    llm = LLMClient(Settings(openai_base_url=base_url, llm_model="fake-vision"))
    ingestion = IngestionService(settings=services.settings, embedder=services.embedder,
                                 collections=services.collections, documents=services.documents,
                                 jobs=services.jobs, graph=services.graph, llm=llm)
    return ingestion.run(files_request(name, [("vendor.docx", data)], settings=services.settings))


@pytest.fixture
def vendor(shared_data):
    return (shared_data / "flowchart-docx" / "vendor-onboarding-checklist.docx").read_bytes()


def test_picture_becomes_a_graph_when_the_reading_validates(services, collection, vendor):
    seen = []

    def model(messages, request):
        seen.append(messages[-1]["content"])
        return json.dumps(READING)

    with FakeOpenAI(model) as server:
        item = _vision_ingest(services, server.base_url, collection, vendor).items[0]
    assert item["status"] == "ingested" and not item["reason"], item
    parts = seen[0]
    assert parts[1]["type"] == "image_url" and parts[1]["image_url"]["url"].startswith("data:image/png;base64,iVBOR")
    [diagram_id] = services.diagrams.for_document(item["document_id"])
    view = services.diagrams.get(diagram_id)
    assert view.representation == "image" and view.image
    assert '{"Sanctions check clear?"}' in view.mermaid and '-->|"Yes"|' in view.mermaid
    nodes, edges = services.graph.diagram(diagram_id)
    assert len(nodes) == 3 and len(edges) == 2


def test_invalid_reading_keeps_the_picture_and_says_why(services, collection, vendor):
    broken = {"nodes": [{"id": "a", "text": "Start"}], "edges": [{"source": "a", "target": "ghost"}]}
    with FakeOpenAI(lambda messages, request: json.dumps(broken)) as server:
        item = _vision_ingest(services, server.base_url, collection, vendor).items[0]
    assert item["status"] == "ingested" and "unknown nodes" in item["reason"]
    [diagram_id] = services.diagrams.for_document(item["document_id"])
    view = services.diagrams.get(diagram_id)
    assert view.nodes == [] and view.mermaid is None and view.image[:4] == b"\x89PNG"


def test_without_a_model_the_picture_stays_a_picture(services, collection, vendor):
    item = services.ingestion.run(files_request(collection, [("vendor.docx", vendor)], settings=services.settings)).items[0]
    [diagram_id] = services.diagrams.for_document(item["document_id"])
    assert services.diagrams.get(diagram_id).mermaid is None
