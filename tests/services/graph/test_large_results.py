"""Graph results of any size come back whole: a list value of 128+ items, and deleting a document with that many entities.

LlamaIndex's property-graph stores "sanitize" query output by default, silently dropping any list of
128 or more items; the document-delete path reads a document's entity keys as one such list.
"""

from __future__ import annotations

import random

from services.graph import queries as q
from tests.utils.graph import entity_count, facts_of_document


def test_a_long_list_value_is_returned_whole(services):
    rows = services.graph_store.query("UNWIND [1] AS one RETURN range(1, 300) AS xs")
    assert rows[0]["xs"] == list(range(1, 301))


def test_deleting_a_document_with_many_entities_removes_its_orphans(services, dated):
    doc = 900_000_000 + random.randrange(1_000_000)  # graph-only document id; no row needed for the graph step
    keys = [f"entity {i}" for i in range(200)]
    services.graph._batched(q.MERGE_ENTITIES, [
        {"collection_id": dated.id, "key": k, "name": k.title(), "type": "ORG"} for k in keys])
    services.graph._batched(q.CREATE_FACTS, [
        {"id": f"{doc}:{i}", "collection_id": dated.id, "source": keys[i], "target": keys[(i + 1) % len(keys)],
         "relation": "partner_of", "document_id": doc, "chunk_id": None, "sentence": f"Fact {i}.",
         "valid_from": "2020-01-01", "date_source": "sentence", "exclusive": None} for i in range(len(keys))])
    assert entity_count(services, dated.id) == 200 and facts_of_document(services, doc) == 200

    services.graph.remove_document(doc)

    assert facts_of_document(services, doc) == 0
    assert entity_count(services, dated.id) == 0
