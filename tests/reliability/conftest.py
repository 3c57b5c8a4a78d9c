"""Fixtures for the reliability suite: a collection with a schema, and the "nothing left behind" check."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

SCHEMA = {"custom": {
    "year": {"type": "integer", "required": True},
    "published": {"type": "date"},
    "reviewed": {"type": "boolean"},
    "tags": {"type": "list"},
    "score": {"type": "number"},
}}


@pytest.fixture
def schema_collection(services) -> Iterator[str]:
    """A fresh collection whose schema requires an integer ``year`` and types four more fields."""
    name = f"schema-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Reliability: a typed schema.", metadata_schema=SCHEMA)
    yield name
    services.deletion.delete_collection(name)


@pytest.fixture
def since(services) -> dt.datetime:
    """The database clock at the start of the test, to find rows the test created."""
    with services.engine.connect() as conn:
        return conn.execute(sa.text("SELECT now()")).scalar_one()


@pytest.fixture(scope="package")
def planted(services):
    """Every payload of ``injection.py`` as a collection, document and graph facts; removed afterwards."""
    from tests.reliability.injection import plant

    with services.engine.connect() as conn:
        chunks_before = conn.execute(sa.text("SELECT count(*) FROM chunks")).scalar_one()
    items = {p.kind: p for p in plant(services)}
    yield items
    for item in items.values():
        services.deletion.delete_collection(item.collection)
    with services.engine.connect() as conn:  # the payloads dropped no table and deleted nothing else
        assert conn.execute(sa.text("SELECT count(*) FROM chunks")).scalar_one() == chunks_before


def assert_nothing_stored(services: Any, collection: str, titles: Iterable[str], since: dt.datetime) -> None:
    """No document, chunk, diagram or graph fact exists for the refused input, and no orphan row appeared."""
    cid = services.collections.get(collection).id
    with services.engine.connect() as conn:
        def count(query: str, **params: Any) -> int:
            return int(conn.execute(sa.text(query), params).scalar_one())

        assert count("SELECT count(*) FROM collection_documents WHERE collection_id = :c", c=cid) == 0
        assert count("SELECT count(*) FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id "
                     "WHERE cd.collection_id = :c", c=cid) == 0
        for title in titles:
            assert count("SELECT count(*) FROM documents WHERE title = :t", t=title) == 0, title
        assert count("SELECT count(*) FROM documents d WHERE d.created_at >= :s AND NOT EXISTS "
                     "(SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id)", s=since) == 0
        assert count("SELECT count(*) FROM diagrams g JOIN documents d ON d.id = g.document_id "
                     "WHERE d.created_at >= :s AND NOT EXISTS "
                     "(SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id)", s=since) == 0
    if services.graph is not None:
        assert services.graph.counts([cid]) == {"entities": 0, "facts": 0}
        rows = services.graph_store.query("MATCH (n:DiagramNode {collection_id: $c}) RETURN count(n) AS n", {"c": cid})
        assert rows[0]["n"] == 0


def stored_document(services: Any, collection: str, title: str) -> Any:
    """The row of the document titled ``title`` in ``collection`` (asserting there is exactly one)."""
    with services.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT d.* FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
            "JOIN collections c ON c.id = cd.collection_id WHERE c.name = :c AND cd.title = :t"),
            {"c": collection, "t": title}).all()
    assert len(rows) == 1, rows
    return rows[0]
