"""``rag graph`` edits on a small real graph: each command's --json, history and undo, export files, clear errors
for unknown and ambiguous names (exit codes, one Error: line, no traceback)."""

from __future__ import annotations

import json
import uuid

import networkx as nx
import pytest

from services.errors import NotFound
from services.ingest.requests import text_request
from tests.cli.conftest import assert_error, ok_json

TEXT = ("Alice Smith founded Acme Corporation in 1990. Alice Smith lives in Paris. Acme Corp acquired Beta Industries "
        "in 2005. Carol White is the CEO of Beta Industries. A. Smith visited Berlin in 2001.")


@pytest.fixture
def kg(services):
    name = f"test-cli-edit-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="CLI graph edit test.")
    result = services.ingestion.run(text_request(name, title="one", text=TEXT))
    assert result.items[0].get("graph") == "done", result.items
    yield name
    for coll in (name, name + "-copy"):
        try:
            services.deletion.delete_collection(coll)
        except NotFound:
            pass


def test_edit_commands_history_and_undo(rag, kg):
    merged = ok_json(rag("graph", "merge", "Acme Corporation", "Acme Corp", "-c", kg, "--author", "ana", "--json"))
    assert (merged["kind"], merged["author"], merged["status"]) == ("merge", "ana", "applied")
    assert ok_json(rag("graph", "rename", "Paris", "Paris, France", "-c", kg, "--json"))["kind"] == "rename"
    assert ok_json(rag("graph", "retype", "Beta Industries", "product", "-c", kg, "--json"))["params"]["type"] == "PRODUCT"
    added = ok_json(rag("graph", "add-fact", "Carol White", "born in", "Lyon", "-c", kg, "--from", "1970",
                        "--note", "biography", "--json"))
    fact_id = added["params"]["fact"]["id"]
    facts = ok_json(rag("graph", "relationships", "Carol White", "-c", kg, "--json"))["facts"]
    assert fact_id in {f["id"] for f in facts}
    ceo = next(f for f in facts if f["relation"] == "ceo_of")
    assert ok_json(rag("graph", "delete-fact", ceo["id"], "-c", kg, "--json"))["kind"] == "delete_fact"
    split = ok_json(rag("graph", "split", "Alice Smith", "Alice Smith (Paris)", "-c", kg, "--fact",
                        next(f["id"] for f in ok_json(rag("graph", "relationships", "Alice Smith", "-c", kg, "--json"))
                             ["facts"] if f["relation"] == "lives_in"), "--json"))
    assert split["kind"] == "split"
    assert ok_json(rag("graph", "delete-entity", "Berlin", "-c", kg, "--json"))["kind"] == "delete_entity"
    history = ok_json(rag("graph", "history", "-c", kg, "--json"))
    assert [e["kind"] for e in history] == ["delete_entity", "split", "delete_fact", "add_fact", "retype", "rename",
                                            "merge"]
    human = rag("graph", "history", "-c", kg)
    assert human.exit_code == 0 and "ana" in human.output and "merged" in human.output
    assert ok_json(rag("graph", "undo", "-c", kg, "--json"))["kind"] == "delete_entity"
    assert ok_json(rag("graph", "undo", "-c", kg, "--json"))["kind"] == "split"
    assert [e["status"] for e in ok_json(rag("graph", "history", "-c", kg, "--json"))][:3] == ["undone", "undone",
                                                                                             "applied"]
    assert ok_json(rag("graph", "relationships", "Berlin", "-c", kg, "--json"))["facts"]


def test_errors_name_the_candidates(rag, kg):
    assert_error(rag("graph", "merge", "Nobody Here", "Alice Smith", "-c", kg), 3, "No entity named 'Nobody Here'")
    assert_error(rag("graph", "merge", "Alice Smith", "-c", kg), 2, "at least two")
    assert_error(rag("graph", "undo", "-c", kg), 3, "no edit to undo")
    assert_error(rag("graph", "delete-fact", "nope", "-c", kg), 3, "No fact with id")
    ok_json(rag("graph", "split", "Alice Smith", "Alice Smith", "-c", kg, "--fact",
                ok_json(rag("graph", "relationships", "Alice Smith", "-c", kg, "--json"))["facts"][0]["id"], "--json"))
    line = assert_error(rag("graph", "rename", "Alice Smith", "Alicia", "-c", kg), 2, "names 2 entities")
    assert "alice smith#split" in line and "key alice smith," in line


def test_suggestions_decide_and_export(rag, kg, tmp_path):
    found = ok_json(rag("graph", "suggestions", "-c", kg, "--json"))
    pair = next(s for s in found if {s["key_a"], s["key_b"]} == {"acme corp", "acme corporation"})
    assert pair["evidence"]
    out = ok_json(rag("graph", "decide", "acme corp", "acme corporation", "accept", "-c", kg, "--json"))
    assert out["edit"]["kind"] == "merge"
    graphml = tmp_path / "g.graphml"
    data = ok_json(rag("graph", "export", "-c", kg, "--format", "graphml", "-o", graphml, "--json"))
    graph = nx.read_graphml(graphml)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (data["entities"], data["facts"])
    csv_dir = tmp_path / "csv"
    data = ok_json(rag("graph", "export", "-c", kg, "--format", "csv", "-o", csv_dir, "--json"))
    assert sorted(p.name for p in csv_dir.iterdir()) == ["nodes.csv", "relationships.csv"]
    assert (csv_dir / "nodes.csv").read_text().startswith("key:ID,name,type,aliases:string[],:LABEL")
    js = tmp_path / "g.json"
    ok_json(rag("graph", "export", "-c", kg, "--format", "json", "-o", js, "--json"))
    assert len(json.loads(js.read_text())["facts"]) == data["facts"]
    ok_json(rag("collection", "create", kg + "-copy", "--description", "copy", "--json"))
    counts = ok_json(rag("graph", "import", js, "-c", kg + "-copy", "--json"))
    assert counts == {"entities": data["entities"], "facts": data["facts"]}
    assert_error(rag("graph", "import", js, "-c", kg + "-copy"), 2, "already has a graph")
