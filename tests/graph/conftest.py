"""Helpers for the knowledge-graph tests: dated collections, ingest shortcuts and raw graph counts.

Everything here runs on the real stores of the session-scoped ``services``
fixture (tests/conftest.py); nothing is mocked.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from services.errors import NotFound
from services.ingest.requests import text_request

DATE_SCHEMA = {"custom": {"date": {"type": "date"}}}


def unique_name(prefix: str = "graph") -> str:
    return f"test-{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def make_collection(services) -> Iterator[Callable[..., Any]]:
    """Create collections (with a ``date`` metadata field) that are deleted after the test."""
    made: list[str] = []

    def make(description: str = "Graph test collection.") -> Any:
        name = unique_name()
        made.append(name)
        return services.collections.create(name=name, description=description, metadata_schema=DATE_SCHEMA)

    yield make
    for name in made:
        try:
            services.deletion.delete_collection(name)
        except NotFound:
            pass


@pytest.fixture
def dated(make_collection) -> Any:
    """One fresh collection with a ``date`` field; returns the Collection (``.name``, ``.id``)."""
    return make_collection()


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
