"""services/deletion.py: a delete removes a document or a collection from both stores, and a graph that fails
leaves the documents whole in PostgreSQL, visibly marked failed, with a repair that works (real stores).

The failing graph is a real one: a FalkorDB server started for the module and shut down before the delete,
so the graph client gets the connection error a dead server gives."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.deletion import DeletionService
from services.errors import NotFound, StoreUnavailable
from services.graph.service import GraphService
from services.ingest.requests import text_request
from services.stores.graph_store import create_graph_store, start_embedded_falkordb, stop_embedded_falkordb

TEXT = "Alice is the CEO of Acme. Acme is located in Berlin."


def _ingest(services, collection: str, title: str, text: str = TEXT) -> int:
    result = services.ingestion.run(text_request(collection, title=title, text=text))
    (item,) = result.items
    assert item["status"] == "ingested" and item["graph"] == "done" and item["facts"] >= 1, item
    return int(item["document_id"])


def _facts(services, document_id: int) -> int:
    rows = services.graph_store.query("MATCH ()-[r:FACT {document_id: $d}]->() RETURN count(r) AS n", {"d": document_id})
    return int(rows[0]["n"])


def _entities(services, collection_id: int) -> int:
    rows = services.graph_store.query("MATCH (e:Entity {collection_id: $c}) RETURN count(e) AS n", {"c": collection_id})
    return int(rows[0]["n"])


def _rows(services, document_id: int) -> dict[str, int]:
    """What PostgreSQL holds of a document: its row, chunks, collection links and walk-graph rows."""
    with services.engine.connect() as conn:
        return {table: int(conn.execute(sa.text(sql), {"d": document_id}).scalar_one()) for table, sql in {
            "documents": "SELECT count(*) FROM documents WHERE id = :d",
            "chunks": "SELECT count(*) FROM chunks WHERE document_id = :d",
            "links": "SELECT count(*) FROM collection_documents WHERE document_id = :d",
            "walk": "SELECT count(*) FROM entity_documents WHERE document_id = :d",
        }.items()}


def _status(services, document_id: int) -> tuple[str, str | None]:
    summary = services.documents.summaries([document_id])[document_id]
    return summary.graph_status, summary.graph_error


@pytest.fixture(scope="module")
def dead_graph(services):
    """A GraphService whose FalkorDB server answered once and has since shut down."""
    folder = Path(tempfile.mkdtemp(prefix="rag-dead-graph-"))
    socket_path = start_embedded_falkordb(folder)
    store = create_graph_store(services.settings.model_copy(update={"falkordb_url": f"unix://{socket_path}"}))
    assert stop_embedded_falkordb(folder)
    for _ in range(600):  # the server removes its pid file as it exits
        if not (folder / "falkordb" / "redis.pid").exists():
            break
        time.sleep(0.05)
    yield GraphService(engine=services.engine, store=store)
    store.close()


@pytest.fixture
def failing_deletion(services, dead_graph) -> DeletionService:
    return DeletionService(documents=services.documents, collections=services.collections, graph=dead_graph)


def test_deleting_a_document_removes_it_from_both_stores(services, collection):
    doc = _ingest(services, collection, "ceo")
    kept = _ingest(services, collection, "other", "Bob works for Initech.")
    assert _facts(services, doc) >= 1
    before = _rows(services, doc)
    assert before["documents"] == before["links"] == 1 and before["chunks"] >= 1 and before["walk"] >= 1

    services.deletion.delete_document(doc)

    assert _facts(services, doc) == 0
    assert _rows(services, doc) == {"documents": 0, "chunks": 0, "links": 0, "walk": 0}
    coll = services.collections.get(collection)
    assert services.graph.find_entities("alice", [coll.id]) == []  # no entity left without facts
    assert _facts(services, kept) >= 1 and services.graph.find_entities("initech", [coll.id])
    with pytest.raises(NotFound):
        services.deletion.delete_document(doc)


def test_deleting_a_collection_removes_its_graph_and_keeps_shared_documents(services, collection):
    coll = services.collections.get(collection)
    other = services.collections.create(name=f"{collection}-b", description="Holds a shared document.")
    only_here = _ingest(services, collection, "ceo")
    shared = _ingest(services, collection, "shared", "Bob works for Initech.")
    services.collections.link(shared, other.name)
    try:
        assert services.deletion.delete_collection(collection) == 1
        assert _entities(services, coll.id) == 0
        assert _facts(services, only_here) == 0 and _facts(services, shared) == 0  # its facts were this graph's
        assert _rows(services, only_here) == {"documents": 0, "chunks": 0, "links": 0, "walk": 0}
        assert _rows(services, shared)["chunks"] >= 1 and _rows(services, shared)["links"] == 1
        assert _status(services, shared)[0] == "pending"  # a rebuild gives it facts in its remaining collection
        with pytest.raises(NotFound):
            services.collections.get(collection)
    finally:
        services.deletion.delete_collection(other.name)


def test_a_graph_failure_leaves_the_document_whole_and_marked_with_its_repair(services, collection, failing_deletion):
    doc = _ingest(services, collection, "ceo")
    facts, rows = _facts(services, doc), _rows(services, doc)

    with pytest.raises(StoreUnavailable) as failed:
        failing_deletion.delete_document(doc)

    message = str(failed.value)
    assert f"document {doc}" in message and "Nothing was deleted from PostgreSQL" in message
    assert "Delete it again" in message and "rebuild its graph" in message
    status, error = _status(services, doc)
    assert status == "failed"
    assert "delete has not finished (the graph failed:" in error and "Delete it again to finish" in error
    assert _rows(services, doc)["chunks"] == rows["chunks"] and _rows(services, doc)["documents"] == 1
    hits = services.search.search("CEO of Acme", collections=[collection], mode="keyword").hits
    assert [h.document_id for h in hits] == [doc]  # still searchable
    assert doc in services.graph.documents_needing_graph(services.collections.get(collection).id)
    assert _facts(services, doc) == facts  # the dead graph removed nothing

    (rebuilt,) = services.graph.rebuild([doc])  # one repair: keep it, with its facts
    assert rebuilt.status == "done" and _status(services, doc) == ("done", None)
    assert _facts(services, doc) == facts and _rows(services, doc) == rows

    services.deletion.delete_document(doc)  # the other: delete again, and it finishes
    assert _facts(services, doc) == 0
    assert _rows(services, doc) == {"documents": 0, "chunks": 0, "links": 0, "walk": 0}


def test_a_graph_failure_keeps_the_collection_and_marks_its_documents(services, collection, failing_deletion):
    coll = services.collections.get(collection)
    docs = [_ingest(services, collection, "ceo"), _ingest(services, collection, "other", "Bob works for Initech.")]
    entities = _entities(services, coll.id)

    with pytest.raises(StoreUnavailable, match=f"collection {collection!r}"):
        failing_deletion.delete_collection(collection)

    assert services.collections.get(collection).document_count == 2
    assert _entities(services, coll.id) == entities
    for doc in docs:
        status, error = _status(services, doc)
        assert status == "failed" and "delete has not finished (the graph failed:" in error
    assert set(docs) <= set(services.graph.documents_needing_graph(coll.id))

    assert services.deletion.delete_collection(collection) == 2  # deleting again finishes
    assert _entities(services, coll.id) == 0
    assert all(_rows(services, d)["documents"] == 0 for d in docs)
