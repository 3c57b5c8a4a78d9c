"""Helpers for the knowledge-graph tests: ingest shortcuts and raw graph counts (the ``make_collection`` and
``dated`` fixtures are in tests/services/conftest.py).

Everything here runs on the real stores of the session-scoped ``services``
fixture (tests/conftest.py); nothing is mocked.
"""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa

from services.ingest.requests import text_request

DATE_SCHEMA = {"custom": {"date": {"type": "date"}}}


def unique_name(prefix: str = "graph") -> str:
    return f"test-{prefix}-{uuid.uuid4().hex[:10]}"


def ingest(services: Any, collection: str, title: str, text: str, metadata: dict[str, Any] | None = None,
           mode: str = "ingest") -> dict[str, Any]:
    """Ingest one text synchronously; return its single result item (with document_id, graph, facts)."""
    result = services.ingestion.run(text_request(collection, title=title, text=text, metadata=metadata, mode=mode))
    assert result.status == "done", result
    assert len(result.items) == 1, result.items
    item = result.items[0]
    assert item["status"] in ("ingested", "replaced"), item
    return item


def graph_count(services: Any, cypher: str, **params: Any) -> int:
    rows = services.graph_store.query(cypher, params)
    return int(rows[0]["n"]) if rows else 0


def facts_of_document(services: Any, document_id: int) -> int:
    return graph_count(services, "MATCH ()-[r:FACT {document_id: $d}]->() RETURN count(r) AS n", d=document_id)


def entity_count(services: Any, collection_id: int, key: str | None = None) -> int:
    if key is None:
        return graph_count(services, "MATCH (e:Entity {collection_id: $c}) RETURN count(e) AS n", c=collection_id)
    return graph_count(services, "MATCH (e:Entity {collection_id: $c, key: $k}) RETURN count(e) AS n",
                       c=collection_id, k=key)


def document_row(services: Any, document_id: int) -> Any:
    with services.engine.connect() as conn:
        return conn.execute(
            sa.text("SELECT graph_status, graph_error, graph_entities, graph_facts FROM documents WHERE id = :id"),
            {"id": document_id},
        ).first()
