"""Graph export on the real stores: GraphML read by networkx and lxml, neo4j-admin CSV headers, and a JSON export
that an import into an empty collection gives back with the same counts (services/graph/export.py)."""

from __future__ import annotations

import csv
import io
import json

import networkx as nx
import pytest
from lxml import etree

from services.errors import ValidationFailed
from tests.utils.graph import ingest

TEXT = ("Alice Smith founded Acme Corporation in 1990. Alice Smith lives in Paris. Bob Jones married Alice Smith "
        "in 1995. Acme Corporation acquired Beta Industries in 2005.")
WHO = "tester"


@pytest.fixture
def graph_coll(services, dated):
    ingest(services, dated.name, "one", TEXT)
    services.curation.merge(dated.name, ["Alice Smith", "Bob Jones"], author=WHO)  # a self-loop and aliases
    services.curation.add_fact(dated.name, "Paris", "capital of", "France", note="Added <by> hand & checked",
                               author=WHO)
    counts = services.graph.counts([dated.id])
    assert counts["entities"] >= 4 and counts["facts"] >= 4
    return dated, counts


def test_graphml_parses_with_standard_readers_and_holds_every_entity_and_fact(services, graph_coll):
    coll, counts = graph_coll
    ((name, content),) = services.curation.export(coll.name, "graphml").items()
    assert name.endswith(".graphml")
    graph = nx.read_graphml(io.BytesIO(content))
    assert graph.is_directed()
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (counts["entities"], counts["facts"])
    assert graph.nodes["alice smith"]["name"] == "Alice Smith" and "Bob Jones" in graph.nodes["alice smith"]["aliases"]
    edges = [d for _, _, d in graph.edges(data=True)]
    added = next(d for d in edges if d.get("added_by") == WHO)
    assert (added["relation"], added["note"]) == ("capital_of", "Added <by> hand & checked")
    founded = next(d for d in edges if d["relation"] == "founded")
    assert founded["valid_from"] == "1990-01-01" and founded["document_id"] and founded["sentence"].startswith("Alice")
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    tree = etree.fromstring(content)
    assert len(tree.findall(".//g:node", ns)) == counts["entities"]
    assert len(tree.findall(".//g:edge", ns)) == counts["facts"]


def test_csv_follows_the_neo4j_admin_import_headers(services, graph_coll):
    coll, counts = graph_coll
    files = services.curation.export(coll.name, "csv")
    assert set(files) == {"nodes.csv", "relationships.csv"}
    nodes = list(csv.reader(io.StringIO(files["nodes.csv"].decode())))
    rels = list(csv.reader(io.StringIO(files["relationships.csv"].decode())))
    assert nodes[0] == ["key:ID", "name", "type", "aliases:string[]", ":LABEL"]
    assert rels[0][:4] == [":START_ID", ":END_ID", ":TYPE", "id"] and "document_id:long" in rels[0]
    assert (len(nodes) - 1, len(rels) - 1) == (counts["entities"], counts["facts"])
    keys = {row[0] for row in nodes[1:]}
    assert all(row[0] in keys and row[1] in keys and row[2] == "FACT" for row in rels[1:])


def test_json_round_trips_into_an_empty_collection(services, graph_coll, make_collection):
    coll, counts = graph_coll
    ((_, content),) = services.curation.export(coll.name, "json").items()
    empty = make_collection()
    assert services.curation.import_json(empty.name, content) == counts
    assert services.graph.counts([empty.id]) == counts
    ((_, again),) = services.curation.export(empty.name, "json").items()
    first, second = json.loads(content), json.loads(again)
    assert first["entities"] == second["entities"] and first["facts"] == second["facts"]
    with pytest.raises(ValidationFailed, match="already has a graph"):
        services.curation.import_json(empty.name, content)
    with pytest.raises(ValidationFailed, match="Not a graph export"):
        services.curation.import_json(make_collection().name, b'{"entities": []}')
    with pytest.raises(ValidationFailed, match="Unknown export format"):
        services.curation.export(coll.name, "xlsx")
