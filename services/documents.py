"""Source documents and their chunks: write (atomically), list, view, update metadata; PostgreSQL's part of a delete."""

from __future__ import annotations

import builtins
import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from services.errors import EditConflict, NotFound, ValidationFailed
from services.metadata_schema import validate_metadata
from services.stores import chunk_store
from services.stores.chunk_store import ChunkRow, vector_literal


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def metadata_etag(metadata: dict[str, Any]) -> str:
    """A short fingerprint of a document's metadata: pass it back to change it only if nobody else has."""
    blob = json.dumps(metadata, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class DocumentSummary:
    id: int
    title: str
    source: str
    source_type: str
    metadata: dict[str, Any]
    status: str
    version: int
    chunk_count: int
    char_count: int
    collections: builtins.list[str]
    updated_at: dt.datetime
    graph_status: str = "none"
    graph_error: str | None = None
    graph_entities: int = 0
    graph_facts: int = 0
    metadata_etag: str = ""  # see metadata_etag(); update_metadata(expected_etag=...) checks it


@dataclass(frozen=True)
class ChunkView:
    id: int
    chunk_index: int
    text: str
    char_start: int
    char_end: int
    heading_path: builtins.list[str]
    metadata: dict[str, Any] = field(default_factory=dict)  # e.g. pages (a PDF's; services/page_ref.py)


@dataclass(frozen=True)
class DocumentView:
    summary: DocumentSummary
    content: str
    chunks: builtins.list[ChunkView] = field(default_factory=list)


@dataclass(frozen=True)
class Chunk:
    """A piece of a document: its text, exact character span and the headings above it."""

    index: int
    text: str
    char_start: int
    char_end: int
    heading_path: tuple[str, ...]


@dataclass(frozen=True)
class NewDocument:
    """A parsed, chunked and embedded document ready to be written in one transaction."""

    collection_id: int
    title: str
    source: str
    source_type: str
    content: str
    metadata: dict[str, Any]
    chunks: builtins.list[Chunk]
    embeddings: np.ndarray
    replace_document_id: int | None = None
    graph_status: str = "pending"  # "disabled" when no graph is configured
    chunk_metadata: builtins.list[dict[str, Any]] = field(default_factory=list)
    diagrams: builtins.list[Any] = field(default_factory=list)  # services.ingest.docx_diagrams.Diagram, ids set

    @property
    def hash(self) -> str:
        return content_hash(self.content)



def diagram_id(document_id: int, index: int) -> str:
    return f"dgm-{document_id}-{index}"


def _chunk_metadata(document_id: int, meta: dict[str, Any]) -> dict[str, Any]:
    """Turn the chunker's diagram indexes into ids: associated_diagram_id (the first) and diagram_ids."""
    out = {k: v for k, v in meta.items() if k != "diagram_indexes"}
    ids = [diagram_id(document_id, n) for n in meta.get("diagram_indexes", [])]
    if ids:
        out.update(associated_diagram_id=ids[0], diagram_ids=ids)
    return out


WRITE_BATCH = 256  # chunks inserted between two looks at ``cancelled``


class WriteCancelled(Exception):
    """Raised inside the caller's transaction when ``cancelled`` says yes; rolling back keeps nothing."""


def write_document(conn: Connection, doc: NewDocument, *, cancelled: Callable[[], bool] | None = None) -> int:
    """Insert or replace a document and all its chunks inside the caller's transaction.

    Either everything is written or, on any error, the transaction rolls back
    and nothing is. ``cancelled`` is asked between batches of chunks and raises
    :class:`WriteCancelled` (a job's Cancel during a long write). Returns the document id.
    """
    params = {
        "title": doc.title, "source": doc.source, "stype": doc.source_type, "content": doc.content,
        "hash": doc.hash, "meta": json.dumps(doc.metadata), "n": len(doc.chunks), "gs": doc.graph_status,
    }
    if doc.replace_document_id is not None:
        doc_id = doc.replace_document_id
        found = conn.execute(sa.text("SELECT id FROM documents WHERE id = :id FOR UPDATE"), {"id": doc_id}).first()
        if found is None:
            raise NotFound(f"Document {doc_id} was deleted while it was being re-ingested.")
        conn.execute(
            sa.text(
                "UPDATE documents SET content = :content, content_hash = :hash, source = :source, "
                "source_type = :stype, metadata = metadata || CAST(:meta AS jsonb), chunk_count = :n, "
                "version = version + 1, status = 'ready', error = NULL, graph_status = :gs, graph_error = NULL, "
                "updated_at = now() WHERE id = :id"
            ),
            {**params, "id": doc_id},
        )
        chunk_store.delete_document_chunks(conn, doc_id)
        conn.execute(
            sa.text("UPDATE collection_documents SET content_hash = :hash, title = :title WHERE document_id = :id"),
            {**params, "id": doc_id},
        )
    else:
        doc_id = conn.execute(
            sa.text(
                "INSERT INTO documents (title, source, source_type, content, content_hash, metadata, chunk_count, graph_status) "
                "VALUES (:title, :source, :stype, :content, :hash, CAST(:meta AS jsonb), :n, :gs) RETURNING id"
            ),
            params,
        ).scalar_one()
        conn.execute(
            sa.text(
                "INSERT INTO collection_documents (collection_id, document_id, title, content_hash) "
                "VALUES (:c, :d, :title, :hash)"
            ),
            {"c": doc.collection_id, "d": doc_id, "title": doc.title, "hash": doc.hash},
        )
    conn.execute(sa.text("DELETE FROM diagrams WHERE document_id = :id"), {"id": doc_id})
    for diagram in doc.diagrams:
        diagram.id = diagram_id(doc_id, diagram.index)
        conn.execute(
            sa.text("INSERT INTO diagrams (diagram_id, document_id, idx, representation, layout, nodes, edges, image, "
                    "image_type) VALUES (:did, :doc, :idx, :rep, :layout, CAST(:nodes AS jsonb), CAST(:edges AS jsonb), "
                    ":image, :itype)"),
            {"did": diagram.id, "doc": doc_id, "idx": diagram.index, "rep": diagram.representation,
             "layout": diagram.layout, "image": diagram.image, "itype": diagram.image_type,
             "nodes": json.dumps([{"id": n.id, "text": n.text, "kind": n.kind} for n in diagram.nodes]),
             "edges": json.dumps([{"source": e.source, "target": e.target, "label": e.label} for e in diagram.edges])},
        )
    dim = int(doc.embeddings.shape[1]) if len(doc.chunks) else 0
    for start in range(0, len(doc.chunks), WRITE_BATCH):
        if start and cancelled is not None and cancelled():
            raise WriteCancelled()
        chunk_store.insert_chunks(conn, [
            ChunkRow(doc_id, c.index, c.text, c.char_start, c.char_end, list(c.heading_path),
                     _chunk_metadata(doc_id, doc.chunk_metadata[i] if i < len(doc.chunk_metadata) else {}),
                     vector_literal(doc.embeddings[i]), dim)
            for i, c in enumerate(doc.chunks[start : start + WRITE_BATCH], start)
        ])
    return int(doc_id)



_SUMMARY = """
SELECT d.id, d.title, d.source, d.source_type, d.metadata, d.status, d.version, d.chunk_count,
       d.graph_status, d.graph_error, d.graph_entities, d.graph_facts,
       length(d.content) AS char_count, d.updated_at,
       array(SELECT c.name FROM collection_documents cd JOIN collections c ON c.id = cd.collection_id
             WHERE cd.document_id = d.id ORDER BY c.name) AS collections
FROM documents d
"""


def _summary(row: Any) -> DocumentSummary:
    m = row._mapping
    return DocumentSummary(
        id=m["id"], title=m["title"], source=m["source"], source_type=m["source_type"], metadata=m["metadata"],
        status=m["status"], version=m["version"], chunk_count=m["chunk_count"], char_count=m["char_count"],
        collections=list(m["collections"]), updated_at=m["updated_at"], graph_status=m["graph_status"],
        graph_error=m["graph_error"], graph_entities=m["graph_entities"], graph_facts=m["graph_facts"],
        metadata_etag=metadata_etag(m["metadata"]),
    )


def delete_document_rows(conn: Connection, document_id: int) -> bool:
    """PostgreSQL's part of deleting a document, inside the caller's transaction: the row, and with it (they
    cascade) its chunks, collection links, diagrams and walk-graph rows. False when it was not there.

    The graph's part comes first and is not here: services/deletion.py deletes from both stores.
    """
    gone = conn.execute(sa.text("DELETE FROM documents WHERE id = :id RETURNING id"), {"id": document_id}).first()
    return gone is not None


class DocumentService:
    """Documents in PostgreSQL. Deleting one touches the graph as well: that is services/deletion.py's."""

    def __init__(self, *, engine: Engine) -> None:
        self.engine = engine

    def list(
        self, *, collection_id: int | None = None, title_contains: str = "",
        metadata_filter: dict[str, Any] | None = None, graph_status: tuple[str, ...] = (),
        limit: int = 100, offset: int = 0,
    ) -> builtins.list[DocumentSummary]:
        clauses: builtins.list[str] = []
        params: dict[str, Any] = {"limit": max(1, min(int(limit), 1000)), "offset": max(0, int(offset))}
        if collection_id is not None:
            clauses.append("EXISTS (SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id AND cd.collection_id = :cid)")
            params["cid"] = collection_id
        if title_contains.strip():
            clauses.append("d.title ILIKE :title ESCAPE '\\'")
            escaped = title_contains.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            params["title"] = f"%{escaped}%"
        if graph_status:
            clauses.append("d.graph_status = ANY(:gs)")
            params["gs"] = list(graph_status)
        if metadata_filter:
            clauses.append("d.metadata @> CAST(:mf AS jsonb)")
            params["mf"] = json.dumps(metadata_filter)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(f"{_SUMMARY} {where} ORDER BY d.title LIMIT :limit OFFSET :offset"), params)
            return [_summary(r) for r in rows]

    def summaries(self, document_ids: builtins.list[int]) -> dict[int, DocumentSummary]:
        """Summaries (title, metadata…) of these documents by id; ids that do not exist are left out."""
        if not document_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(_SUMMARY + " WHERE d.id = ANY(:ids)"), {"ids": builtins.list(document_ids)})
            return {s.id: s for s in map(_summary, rows)}

    def ids(self, collection_id: int) -> builtins.list[int]:
        """Every document id of a collection, oldest first (no page limit, unlike :meth:`list`)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT document_id FROM collection_documents WHERE collection_id = :cid "
                                        "ORDER BY document_id"), {"cid": collection_id})
            return [int(r[0]) for r in rows]

    def graph_status_counts(self, collection_id: int) -> dict[str, int]:
        """How many of a collection's documents have each graph status (done, pending, failed, none)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT d.graph_status, count(*) FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
                "WHERE cd.collection_id = :cid GROUP BY d.graph_status"), {"cid": collection_id})
            return {str(r[0]): int(r[1]) for r in rows}

    def get(self, document_id: int, *, with_chunks: bool = True) -> DocumentView:
        with self.engine.connect() as conn:
            row = conn.execute(sa.text(_SUMMARY + " WHERE d.id = :id"), {"id": document_id}).first()
            if row is None:
                raise NotFound(f"No document with id {document_id}.")
            content = conn.execute(sa.text("SELECT content FROM documents WHERE id = :id"), {"id": document_id}).scalar_one()
            chunks = []
            if with_chunks:
                chunks = [ChunkView(r.id, r.chunk_index, r.text, r.char_start, r.char_end, list(r.heading_path),
                                    dict(r.metadata or {}))
                          for r in chunk_store.document_chunks(conn, document_id)]
        return DocumentView(_summary(row), content, chunks)

    def update_metadata(
        self, document_id: int, changes: dict[str, Any], *, remove: builtins.list[str] | None = None,
        replace: bool = False, expected_etag: str | None = None,
    ) -> DocumentSummary:
        """Change a document's metadata in one transaction and return the new summary.

        By default ``changes`` is merged into the stored metadata and the ``remove``
        keys are dropped. The row is locked (``FOR UPDATE``) from the read to the
        write, and the result is validated against every collection the document
        belongs to inside that transaction, so concurrent updates of different keys
        never lose one another. ``replace=True`` makes ``changes`` the whole new
        metadata. ``expected_etag`` (a summary's ``metadata_etag``) refuses the
        change with :class:`EditConflict` when the metadata changed since that
        summary was read: an editor's full copy would otherwise silently undo
        someone else's edit.
        """
        if not isinstance(changes, dict):
            raise ValidationFailed("Metadata changes must be a JSON object.")
        if replace and remove:
            raise ValidationFailed("Give either the whole new metadata (replace) or keys to remove, not both.")
        with self.engine.begin() as conn:
            row = conn.execute(sa.text("SELECT metadata FROM documents WHERE id = :id FOR UPDATE"), {"id": document_id}).first()
            if row is None:
                raise NotFound(f"No document with id {document_id}.")
            if expected_etag is not None and metadata_etag(row.metadata) != expected_etag:
                raise EditConflict(
                    f"The metadata of document {document_id} was changed by someone else since you opened it; "
                    "nothing was saved. Reload it to see the current values, then make your change again."
                )
            merged = dict(changes) if replace else {**row.metadata, **changes}
            for key in remove or ():
                merged.pop(key, None)
            schemas = conn.execute(
                sa.text(
                    "SELECT c.metadata_schema FROM collections c JOIN collection_documents cd "
                    "ON cd.collection_id = c.id WHERE cd.document_id = :id"
                ),
                {"id": document_id},
            ).scalars().all()
            for schema in schemas:
                merged = validate_metadata(schema, merged)
            conn.execute(
                sa.text("UPDATE documents SET metadata = CAST(:m AS jsonb), updated_at = now() WHERE id = :id"),
                {"m": json.dumps(merged), "id": document_id},
            )
        return self.get(document_id, with_chunks=False).summary

    def find_in_collection(self, conn: Connection, collection_id: int, *, title: str, hash_: str) -> dict[str, Any]:
        """Which document in the collection has this title, and which has this content (for dedup)."""
        rows = conn.execute(
            sa.text(
                "SELECT cd.document_id, cd.title, cd.content_hash, d.graph_status "
                "FROM collection_documents cd JOIN documents d ON d.id = cd.document_id "
                "WHERE cd.collection_id = :c AND (cd.title = :t OR cd.content_hash = :h)"
            ),
            {"c": collection_id, "t": title, "h": hash_},
        ).all()
        out: dict[str, Any] = {"by_title": None, "by_hash": None}
        for r in rows:
            if r.title == title:
                out["by_title"] = r
            if r.content_hash == hash_:
                out["by_hash"] = r
        return out
