"""Statements that find facts by an indexed property of the fact start from that index (FalkorDB's plans).

With labelled ends (``(a:Entity)-[r:FACT {document_id: …}]->(b:Entity)``) FalkorDB scanned every entity and
probed the fact index from each: 260 ms a statement on the 233 State of the Union addresses' graph, run
for every document ingested, deleted or shown (services/graph/queries.py).
"""

from __future__ import annotations

import pytest
from falkordb import FalkorDB

from services.graph import queries as q
from services.stores.graph_store import GRAPH_NAME, _falkordb_target

BY_FACT_PROPERTY = {
    "DOCUMENT_FACT_SLOTS": {"document_id": 1},
    "DOCUMENT_ENTITY_KEYS": {"document_id": 1},
    "DOCUMENT_FACT_LINKS": {"document_id": 1},
    "DELETE_DOCUMENT_FACTS": {"document_id": 1},
    "ENTITIES_FROM_CHUNKS": {"chunk_ids": [1, 2]},
    "FACTS_BY_IDS": {"ids": ["a", "b"]},
    "FACT_IDS": {"collection_id": 1, "ids": ["a", "b"]},
}


@pytest.mark.parametrize("name", sorted(BY_FACT_PROPERTY))
def test_facts_found_by_their_own_properties_start_from_the_fact_index(services, name):
    if services.settings.neo4j_uri:
        pytest.skip("FalkorDB's plans")
    services.graph_store.ping()  # opens the store, which creates the indexes
    _, _, url = _falkordb_target(services.settings)
    client = FalkorDB.from_url(url)
    try:
        plan = str(client.select_graph(GRAPH_NAME).explain(getattr(q, name), BY_FACT_PROPERTY[name]))
    finally:
        client.connection.close()
    assert "Edge By Index Scan" in plan and "Node By Label Scan" not in plan, plan
