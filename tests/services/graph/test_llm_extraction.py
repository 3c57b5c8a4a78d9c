"""LLM extraction against a local OpenAI-compatible server (real HTTP protocol, 127.0.0.1 only).

The fake model is a small rule-based responder: it reads the text it is sent and
answers the JSON the system prompt asks for, so the whole client → HTTP → parse →
validate → graph path runs for real.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest

from services.graph.extraction_llm import LLMTemporalExtractor
from services.graph.service import GraphService
from services.ingest.requests import text_request
from services.settings import Settings
from services.stores.llm import LLMClient, LLMError
from tests.utils.fake_openai import FakeOpenAI

LEADS = re.compile(r"(?P<who>[A-Z][a-z]+) leads (?P<org>[A-Z][a-z]+)(?: since (?P<year>\d{4}))?\.")


def rule_based_model(messages, request):
    text = messages[-1]["content"].split("Text:\n", 1)[1]
    entities, relations = [], []
    for m in LEADS.finditer(text):
        entities += [{"name": m["who"], "type": "PERSON"}, {"name": m["org"], "type": "ORG"}]
        relations.append({"subject": m["who"], "relation": "leads", "object": m["org"], "sentence": m.group(0),
                          "date": f"{m['year']}-01-01" if m["year"] else None, "exclusive": "object"})
    relations.append({"subject": "Nobody", "relation": "haunts", "object": "Acme", "sentence": "", "date": None})
    return json.dumps({"entities": entities, "relations": relations})


@pytest.fixture
def fake_llm():
    with FakeOpenAI(rule_based_model) as server:
        yield server


@pytest.fixture
def llm_graph(services, fake_llm):
    settings = Settings(openai_base_url=fake_llm.base_url, llm_model="fake-model", data_dir=services.settings.data_dir)
    return GraphService(engine=services.engine, store=services.graph_store,
                        extractor=LLMTemporalExtractor(LLMClient(settings)))


@pytest.fixture
def dated(services):
    name = f"llm-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="LLM extraction test.")
    yield name
    services.deletion.delete_collection(name)


def test_llm_facts_with_exclusivity_supersede(services, llm_graph, fake_llm, dated):
    ids = []
    for who, year in (("Dana", 2010), ("Eli", 2015)):
        result = services.ingestion.run(text_request(dated, title=f"{who}", text=f"{who} leads Globex since {year}."))
        ids.append(result.items[0]["document_id"])
    outcomes = llm_graph.rebuild(ids)
    assert [o.status for o in outcomes] == ["done", "done"]
    assert all(o.facts == 1 for o in outcomes)  # the fact about an unlisted entity was dropped

    body = fake_llm.requests[-1]["body"]
    assert body["response_format"] == {"type": "json_object"} and body["model"] == "fake-model"
    assert "exclusive" in body["messages"][0]["content"]

    cid = services.collections.get(dated).id
    facts = {f.source: f for f in services.graph.facts_of_entity("globex", [cid]) if f.relation == "leads"}
    assert set(facts) == {"Dana", "Eli"}
    # "leads" is not a built-in single-valued relation: only the model's exclusivity makes Eli supersede Dana.
    assert facts["Dana"].status == "superseded" and facts["Dana"].valid_until == "2015-01-01"
    assert facts["Eli"].status == "current" and facts["Eli"].valid_from == "2015-01-01"
    assert facts["Dana"].date_source == "text"


def test_llm_facts_go_through_the_same_vocabulary_dating_and_resolution(services, dated):
    """The model's own labels map to the vocabulary ("is located at" → located_in), its dates are the clause's
    (a start and an end), and its names resolve like the offline extractor's (a short form to the full name)."""
    def model(messages, request):
        return json.dumps({"entities": [{"name": "John Smith", "type": "PERSON"}, {"name": "Smith", "type": "PERSON"},
                                        {"name": "Arsenal", "type": "ORG"}, {"name": "London", "type": "GPE"}],
                           "relations": [
                               {"subject": "Arsenal", "relation": "is located at", "object": "London",
                                "sentence": "Arsenal is located at London.", "date": None},
                               {"subject": "Smith", "relation": "played_for", "object": "Arsenal",
                                "sentence": "Smith played for Arsenal from 1990 to 1995.", "date": "1990-01-01",
                                "until": "1995-01-01"},
                               {"subject": "John Smith", "relation": "was born in", "object": "London",
                                "sentence": "John Smith was born in London.", "date": None}]})

    with FakeOpenAI(model) as server:
        settings = Settings(openai_base_url=server.base_url, llm_model="fake-model")
        graph = GraphService(engine=services.engine, store=services.graph_store,
                             extractor=LLMTemporalExtractor(LLMClient(settings)))
        text = "John Smith was born in London. Smith played for Arsenal from 1990 to 1995. Arsenal is located at London."
        doc_id = services.ingestion.run(text_request(dated, title="John Smith", text=text)).items[0]["document_id"]
        assert graph.index_document(doc_id).status == "done"
        assert "located_in" in server.requests[-1]["body"]["messages"][0]["content"]  # the vocabulary is offered
    cid = services.collections.get(dated).id
    facts = {(f.source_key, f.relation, f.target_key): f for f in services.graph.facts_of_entity("arsenal", [cid])}
    assert set(facts) == {("arsenal", "located_in", "london"), ("john smith", "played_for", "arsenal")}
    played = facts[("john smith", "played_for", "arsenal")]
    assert (played.valid_from, played.valid_until, played.status) == ("1990-01-01", "1995-01-01", "superseded")
    assert facts[("arsenal", "located_in", "london")].raw == "is located at"
    assert [e.key for e in services.graph.find_entities("smith", [cid])] == ["john smith"]


def test_invalid_json_marks_graph_failed_and_keeps_document(services, dated):
    with FakeOpenAI(lambda messages, request: "Sure! Here are the entities: Acme") as server:
        settings = Settings(openai_base_url=server.base_url, llm_model="fake-model")
        broken = GraphService(engine=services.engine, store=services.graph_store,
                              extractor=LLMTemporalExtractor(LLMClient(settings)))
        doc_id = services.ingestion.run(text_request(dated, title="x", text="Fay leads Initech.")).items[0]["document_id"]
        outcome = broken.index_document(doc_id)
    assert outcome.status == "failed" and "valid JSON" in outcome.error
    summary = services.documents.get(doc_id, with_chunks=False).summary
    assert summary.graph_status == "failed" and "valid JSON" in summary.graph_error
    assert services.search.search("Initech", collections=[dated], mode="keyword").hits  # still searchable
    assert services.graph.rebuild([doc_id])[0].status == "done"  # the repair path


def test_client_reports_unreachable_endpoint():
    settings = Settings(openai_base_url="http://127.0.0.1:9/v1", llm_timeout=2)
    with pytest.raises(LLMError, match="request failed"):
        LLMClient(settings).json_chat("system", "user")


def test_fake_server_streams_like_the_real_protocol():
    from openai import OpenAI

    with FakeOpenAI(lambda messages, request: "streamed answer text") as server:
        client = OpenAI(base_url=server.base_url, api_key="x")
        chunks = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True)
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "streamed answer text"
