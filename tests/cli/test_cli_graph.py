"""``rag graph`` on a small real graph: relationships, temporal windows, neighbourhood, paths, Mermaid."""

from __future__ import annotations

import uuid

import pytest

from services.errors import NotFound
from services.ingest.requests import text_request
from tests.cli.conftest import assert_error, ok_json

DOCS = {
    "chain": "Alice works for Acme. Acme is located in Berlin. Berlin is the capital of Germany.",
    "ceos": "Dana was the CEO of Acme in 2019. Erin became CEO of Acme in 2021.",
}


@pytest.fixture(scope="module")
def kg(services):
    if services.graph is None:
        pytest.skip("the graph is turned off")
    name = f"test-cli-graph-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="CLI graph test.",
                                metadata_schema={"custom": {"date": {"type": "date"}}})
    for title, text in DOCS.items():
        result = services.ingestion.run(text_request(name, title=title, text=text, metadata={"date": "2022-01-01"}))
        assert result.items[0].get("graph") == "done", result.items
    yield name
    try:
        services.deletion.delete_collection(name)
    except NotFound:
        pass


def _triples(facts):
    return {(f["source_key"], f["relation"], f["target_key"]) for f in facts}


def test_relationships(rag, kg):
    data = ok_json(rag("graph", "relationships", "acme", "-c", kg, "--json"))
    assert data["entity"]["key"] == "acme" and data["entity"]["name"] == "Acme"
    assert {("alice", "worked_for", "acme"), ("dana", "ceo_of", "acme"), ("erin", "ceo_of", "acme")} <= _triples(data["facts"])
    fact = next(f for f in data["facts"] if f["source_key"] == "dana")
    assert fact["status"] == "superseded" and fact["valid_from"].startswith("2019") and fact["valid_until"].startswith("2021")
    assert {"id", "sentence", "document_id", "chunk_id", "collection_id"} <= set(fact)
    human = rag("graph", "relationships", "Acme", "-c", kg)
    assert human.exit_code == 0 and "[superseded]" in human.stdout and "Dana —ceo_of→ Acme" in human.stdout
    assert_error(rag("graph", "relationships", "zebulon", "-c", kg), 3, "No entity matching 'zebulon'")
    assert_error(rag("graph", "relationships", "acme", "-c", "no-such-collection-here"), 3, "No collection")


def test_temporal_window(rag, kg):
    data = ok_json(rag("graph", "temporal", "acme", "-c", kg, "--from", "2019", "--until", "2019-12", "--json"))
    assert (data["from"], data["until"]) == ("2019-01-01", "2019-12-31")
    ceos = {f["source_key"] for f in data["facts"] if f["relation"] == "ceo_of"}
    assert ceos == {"dana"}
    later = ok_json(rag("graph", "temporal", "acme", "-c", kg, "--from", "2023", "--json"))
    assert {f["source_key"] for f in later["facts"] if f["relation"] == "ceo_of"} == {"erin"}
    assert_error(rag("graph", "temporal", "acme", "--from", "last year"), 2, "is not a date")
    assert_error(rag("graph", "temporal", "acme", "--from", "2020", "--until", "2019"), 2, "after it ends")


def test_neighbourhood_paths_and_mermaid(rag, kg):
    hood = ok_json(rag("graph", "neighbourhood", "alice", "-c", kg, "--depth", "2", "--json"))
    assert {"alice", "acme", "berlin", "dana", "erin"} <= set(hood["nodes"])
    current = ok_json(rag("graph", "neighbourhood", "acme", "-c", kg, "--status", "current", "--json"))
    assert "dana" not in {f["source_key"] for f in current["facts"]}

    paths = ok_json(rag("graph", "paths", "alice", "germany", "-c", kg, "--json"))
    assert paths["from"]["key"] == "alice" and paths["to"]["key"] == "germany"
    assert [[f["target_key"] for f in p] for p in paths["paths"]] == [["acme", "berlin", "germany"]]
    assert "Path 1:" in rag("graph", "paths", "alice", "germany", "-c", kg).stdout
    assert_error(rag("graph", "paths", "alice", "germany"), 2, "")  # --collection is required (usage error)

    text = rag("graph", "mermaid", "acme", "-c", kg, "--direction", "TD")
    assert text.exit_code == 0 and text.stdout.startswith("flowchart TD\n") and 'ceo of' in text.stdout
    as_json = ok_json(rag("graph", "mermaid", "acme", "-c", kg, "--json"))
    assert as_json["mermaid"].startswith("flowchart LR") and as_json["entity"]["key"] == "acme"


def test_rebuild_extracts_the_collection_again(rag, kg, services):
    cid = services.collections.get(kg).id
    before = services.graph.counts([cid])
    data = ok_json(rag("graph", "rebuild", "-c", kg, "--json"))
    assert (data["status"], data["documents"], data["failed"]) == ("done", len(DOCS), 0)
    assert data["facts"] == before["facts"] and services.graph.counts([cid]) == before  # idempotent
    assert_error(rag("graph", "rebuild", "-c", "no-such-collection"), 3, "no-such-collection")
    assert_error(rag("graph", "rebuild", "-c", kg, "--document", "999999999"), 2, "999999999")  # not in it


def test_an_ambiguous_name_lists_the_candidates(rag, services):
    name = f"test-cli-homonyms-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Homonyms.")
    try:
        for title, text in (("Barcelona", "Barcelona is a city in Spain."),
                            ("Barcelona (football club)", "Barcelona is a football club. It won the Copa del Rey.")):
            services.ingestion.run(text_request(name, title=title, text=text))
        line = assert_error(rag("graph", "relationships", "Barcelona", "-c", name), 2, "barcelona#org")
        assert "key barcelona," in line  # both candidates are listed
        assert ok_json(rag("graph", "relationships", "barcelona#org", "-c", name, "--json"))["entity"]["type"] == "ORG"
    finally:
        services.deletion.delete_collection(name)
