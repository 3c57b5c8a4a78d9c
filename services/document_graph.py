"""A document as the graph step reads and marks it: its text and first collection, its graph status, and the
documents whose graph step is pending or failed. services/graph calls these and has no SQL on ``documents``;
services/deletion.py marks a document whose delete did not finish."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection


@dataclass(frozen=True)
class GraphSource:
    """A document as the graph step reads it: text, metadata and the first collection that holds it."""

    id: int
    title: str
    content: str
    metadata: dict[str, Any]
    collection_id: int | None


def graph_source(conn: Connection, document_id: int) -> GraphSource | None:
    """The document the graph step indexes, or None when it has gone."""
    row = conn.execute(sa.text(
        "SELECT d.id, d.title, d.content, d.metadata, "
        "(SELECT min(collection_id) FROM collection_documents WHERE document_id = d.id) AS cid "
        "FROM documents d WHERE d.id = :id"), {"id": document_id}).first()
    return None if row is None else GraphSource(row.id, row.title, row.content, row.metadata, row.cid)


def set_graph_status(conn: Connection, document_id: int, status: str, *, entities: int = 0, facts: int = 0,
                     error: str | None = None) -> None:
    """Record how the document's graph step ended (done, failed, pending) and what it wrote."""
    conn.execute(
        sa.text("UPDATE documents SET graph_status = :s, graph_error = :e, graph_entities = :n, "
                "graph_facts = :f, graph_updated_at = now() WHERE id = :id"),
        {"s": status, "e": error, "n": entities, "f": facts, "id": document_id},
    )


def needing_graph(conn: Connection, collection_id: int | None = None) -> builtins.list[int]:
    """Ids of the documents whose graph step is pending or failed, in one collection or in all."""
    sql = "SELECT d.id FROM documents d WHERE d.graph_status IN ('pending', 'failed')"
    params: dict[str, Any] = {}
    if collection_id is not None:
        sql += " AND EXISTS (SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id AND cd.collection_id = :c)"
        params["c"] = collection_id
    return builtins.list(conn.execute(sa.text(sql + " ORDER BY d.id"), params).scalars())


def mark_graph_failed(conn: Connection, document_ids: builtins.list[int], error: str) -> None:
    """Mark these documents' graph step failed, saying ``error`` (what happened and how to repair it), where
    they have a graph part; those whose graph is off or never built (disabled, none) are left as they are."""
    conn.execute(
        sa.text("UPDATE documents SET graph_status = 'failed', graph_error = :e, graph_updated_at = now() "
                "WHERE id = ANY(:ids) AND graph_status NOT IN ('disabled', 'none')"),
        {"e": error[:2000], "ids": builtins.list(document_ids)},
    )
