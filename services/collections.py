"""Collections: a name, a required description, a metadata schema and the embedding model it was built with."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from services.errors import AlreadyExists, EmbeddingMismatch, NotFound, ValidationFailed
from services.metadata_schema import drop_field, make_optional, merge_schema, normalise_schema, validate_metadata
from services.stores import chunk_store
from services.stores.embeddings import TextEmbedder
from services.stores.postgres import ensure_hnsw_index

MAX_NAME = 100
MAX_DESCRIPTION = 2_000


@dataclass(frozen=True)
class Collection:
    id: int
    name: str
    description: str
    metadata_schema: dict[str, Any]
    embedding_model: str
    embedding_dim: int
    created_at: dt.datetime
    document_count: int = 0
    chunk_count: int = 0


_SELECT = """
SELECT c.*,
       (SELECT count(*) FROM collection_documents cd WHERE cd.collection_id = c.id) AS document_count,
       (SELECT coalesce(sum(d.chunk_count), 0) FROM collection_documents cd
          JOIN documents d ON d.id = cd.document_id WHERE cd.collection_id = c.id) AS chunk_count
FROM collections c
"""


def _row(row: Any) -> Collection:
    m = row._mapping
    return Collection(
        id=m["id"], name=m["name"], description=m["description"],
        metadata_schema=m["metadata_schema"], embedding_model=m["embedding_model"],
        embedding_dim=m["embedding_dim"], created_at=m["created_at"],
        document_count=int(m["document_count"]), chunk_count=int(m["chunk_count"]),
    )


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("A collection needs a name.")
    if len(name) > MAX_NAME:
        raise ValidationFailed(f"A collection name is at most {MAX_NAME} characters.")
    if any(ord(ch) < 32 for ch in name):
        raise ValidationFailed("A collection name cannot contain control characters.")
    return name


def _clean_description(description: str) -> str:
    description = (description or "").strip()
    if not description:
        raise ValidationFailed("A collection needs a description: say what it holds and what it is for.")
    if len(description) > MAX_DESCRIPTION:
        raise ValidationFailed(f"A description is at most {MAX_DESCRIPTION} characters.")
    return description


def delete_collection_rows(conn: Connection, collection_id: int) -> int:
    """PostgreSQL's part of deleting a collection, inside the caller's transaction; how many documents went.

    The documents only it holds go with it (their chunks cascade); those it shares with another collection
    stay, marked for a graph rebuild (their facts were in this collection's graph). The graph's part comes
    first and is not here: services/deletion.py deletes from both stores.
    """
    conn.execute(
        sa.text("UPDATE documents SET graph_status = 'pending' WHERE graph_status <> 'disabled' AND id IN "
                "(SELECT document_id FROM collection_documents WHERE collection_id = :id)"),
        {"id": collection_id},
    )
    doomed = conn.execute(
        sa.text(
            "SELECT cd.document_id FROM collection_documents cd WHERE cd.collection_id = :id "
            "AND NOT EXISTS (SELECT 1 FROM collection_documents o "
            "WHERE o.document_id = cd.document_id AND o.collection_id <> :id)"
        ),
        {"id": collection_id},
    ).scalars().all()
    conn.execute(sa.text("DELETE FROM collections WHERE id = :id"), {"id": collection_id})
    if doomed:
        conn.execute(sa.text("DELETE FROM documents WHERE id = ANY(:ids)"), {"ids": list(doomed)})
    return len(doomed)


class CollectionService:
    def __init__(self, *, engine: Engine, embedder: TextEmbedder) -> None:
        self.engine = engine
        self.embedder = embedder

    def create(self, *, name: str, description: str, metadata_schema: Any = None) -> Collection:
        """Create a collection bound to the configured embedding model."""
        name, description = _clean_name(name), _clean_description(description)
        schema = normalise_schema(metadata_schema)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    sa.text(
                        "INSERT INTO collections (name, description, metadata_schema, embedding_model, embedding_dim) "
                        "VALUES (:n, :d, CAST(:s AS jsonb), :m, :dim)"
                    ),
                    {"n": name, "d": description, "s": json.dumps(schema),
                     "m": self.embedder.name, "dim": self.embedder.dim},
                )
        except IntegrityError:
            raise AlreadyExists(f"A collection named {name!r} already exists.") from None
        ensure_hnsw_index(self.engine, self.embedder.dim)
        return self.get(name)

    def list(self) -> list[Collection]:
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(sa.text(_SELECT + " ORDER BY c.name"))]

    def get(self, name_or_id: str | int, conn: Connection | None = None) -> Collection:
        where = "WHERE c.id = :k" if isinstance(name_or_id, int) else "WHERE c.name = :k"
        key = name_or_id if isinstance(name_or_id, int) else str(name_or_id).strip()
        if conn is None:
            with self.engine.connect() as own:
                row = own.execute(sa.text(_SELECT + where), {"k": key}).first()
        else:
            row = conn.execute(sa.text(_SELECT + where), {"k": key}).first()
        if row is None:
            raise NotFound(f"No collection named {name_or_id!r}.")
        return _row(row)

    def update_description(self, name: str, description: str) -> Collection:
        description = _clean_description(description)
        with self.engine.begin() as conn:
            coll = self.get(name, conn)
            conn.execute(
                sa.text("UPDATE collections SET description = :d, updated_at = now() WHERE id = :id"),
                {"d": description, "id": coll.id},
            )
        return self.get(coll.id)

    def add_schema_fields(self, name: str, fields: Any) -> Collection:
        """Add metadata fields. Schemas only grow; see :func:`merge_schema` for the rules."""
        with self.engine.begin() as conn:
            row = _lock_schema(conn, name)
            count = conn.execute(
                sa.text("SELECT count(*) FROM collection_documents WHERE collection_id = :id"), {"id": row.id}
            ).scalar_one()
            merged = merge_schema(row.metadata_schema, fields, collection_is_empty=count == 0)
            conn.execute(
                sa.text("UPDATE collections SET metadata_schema = CAST(:s AS jsonb), updated_at = now() WHERE id = :id"),
                {"s": json.dumps(merged), "id": row.id},
            )
        return self.get(row.id)

    def field_usage(self, name: str) -> dict[str, int]:
        """For each schema field, how many of the collection's documents have a value for it."""
        coll = self.get(name)
        fields = list(coll.metadata_schema.get("custom", {}))
        if not fields:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT f, count(d.id) FROM unnest(CAST(:fields AS text[])) AS f "
                "LEFT JOIN collection_documents cd ON cd.collection_id = :id "
                "LEFT JOIN documents d ON d.id = cd.document_id AND d.metadata ? f "
                "AND d.metadata ->> f IS NOT NULL GROUP BY f"), {"fields": fields, "id": coll.id})
            found = {str(r[0]): int(r[1]) for r in rows}
        return {f: found.get(f, 0) for f in fields}

    def make_field_optional(self, name: str, field_name: str) -> Collection:
        """Stop requiring a metadata field (stored documents all satisfy the weaker schema)."""
        return self._change_schema(name, lambda schema, _used: make_optional(schema, field_name))

    def drop_schema_field(self, name: str, field_name: str) -> Collection:
        """Remove a metadata field that no document of the collection has a value for."""
        return self._change_schema(name, lambda schema, used: drop_field(
            schema, field_name, documents_using=used(field_name)))

    def _change_schema(self, name: str, change: Any) -> Collection:
        """Apply ``change(schema, documents_using)`` with the collection row locked (two schema changes
        never interleave). A document stored meanwhile with the field keeps it: fields outside a schema
        are allowed."""
        with self.engine.begin() as conn:
            row = _lock_schema(conn, name)

            def using(field_name: str) -> int:
                return int(conn.execute(sa.text(
                    "SELECT count(*) FROM collection_documents cd JOIN documents d ON d.id = cd.document_id "
                    "WHERE cd.collection_id = :id AND d.metadata ? :f AND d.metadata ->> :f IS NOT NULL"),
                    {"id": row.id, "f": field_name}).scalar_one())

            schema = change(row.metadata_schema, using)
            conn.execute(
                sa.text("UPDATE collections SET metadata_schema = CAST(:s AS jsonb), updated_at = now() WHERE id = :id"),
                {"s": json.dumps(schema), "id": row.id},
            )
        return self.get(row.id)

    def rebind_embedding_model(self, name: str) -> Collection:
        """Switch an *empty* collection to the configured model; refused once it holds documents."""
        coll = self.get(name)
        if coll.document_count:
            raise EmbeddingMismatch(
                f"Collection {name!r} holds {coll.document_count} documents embedded with "
                f"{coll.embedding_model} ({coll.embedding_dim}-d); its model cannot change. "
                "Create a new collection for the new model."
            )
        with self.engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE collections SET embedding_model = :m, embedding_dim = :d, updated_at = now() WHERE id = :id"),
                {"m": self.embedder.name, "d": self.embedder.dim, "id": coll.id},
            )
        ensure_hnsw_index(self.engine, self.embedder.dim)
        return self.get(coll.id)

    def link(self, document_id: int, collection: str) -> Collection:
        """Add an existing document to another collection, without re-embedding it.

        The document keeps its chunks, so the target must use the model they were
        embedded with; its metadata must satisfy the target's schema. A document
        already linked, or a clash with the target's unique title or content, is
        refused with :class:`AlreadyExists`. Facts stay in the graph of the
        collection that extracted them.
        """
        with self.engine.begin() as conn:
            coll = self.get(collection, conn)
            doc = conn.execute(
                sa.text("SELECT id, title, content_hash, metadata FROM documents WHERE id = :id FOR SHARE"),
                {"id": document_id},
            ).first()
            if doc is None:
                raise NotFound(f"No document with id {document_id}.")
            if conn.execute(
                sa.text("SELECT 1 FROM collection_documents WHERE collection_id = :c AND document_id = :d"),
                {"c": coll.id, "d": doc.id},
            ).first():
                raise AlreadyExists(f"Document {doc.id} is already in collection {coll.name!r}.")
            models = conn.execute(
                sa.text("SELECT DISTINCT c.embedding_model, c.embedding_dim FROM collections c JOIN collection_documents cd "
                        "ON cd.collection_id = c.id WHERE cd.document_id = :d"),
                {"d": doc.id},
            ).all()
            dims = chunk_store.embedding_dims(conn, doc.id)
            if any((m.embedding_model, m.embedding_dim) != (coll.embedding_model, coll.embedding_dim) for m in models) or any(
                d != coll.embedding_dim for d in dims
            ):
                built = ", ".join(f"{m.embedding_model} ({m.embedding_dim}-d)" for m in models) or f"{dims[0]}-d vectors"
                raise EmbeddingMismatch(
                    f"Document {doc.id} was embedded with {built}, but collection {coll.name!r} uses "
                    f"{coll.embedding_model} ({coll.embedding_dim}-d); ingest it into that collection instead."
                )
            validate_metadata(coll.metadata_schema, doc.metadata)
            try:
                with conn.begin_nested():
                    conn.execute(
                        sa.text("INSERT INTO collection_documents (collection_id, document_id, title, content_hash) "
                                "VALUES (:c, :d, :t, :h)"),
                        {"c": coll.id, "d": doc.id, "t": doc.title, "h": doc.content_hash},
                    )
            except IntegrityError:
                raise AlreadyExists(
                    f"Collection {coll.name!r} already holds a document titled {doc.title!r} or with identical content."
                ) from None
        return self.get(coll.id)

    def check_model(self, coll: Collection) -> None:
        """Refuse to mix embedding models inside a collection."""
        if coll.embedding_model != self.embedder.name or coll.embedding_dim != self.embedder.dim:
            raise EmbeddingMismatch(
                f"Collection {coll.name!r} was built with {coll.embedding_model} ({coll.embedding_dim}-d), "
                f"but the configured model is {self.embedder.name} ({self.embedder.dim}-d). "
                "Switch the setting back, or use a collection made with this model."
            )


def _lock_schema(conn: Any, name: str) -> Any:
    """The collection's (id, metadata_schema) row, locked until the transaction ends."""
    row = conn.execute(
        sa.text("SELECT id, metadata_schema FROM collections WHERE name = :n FOR UPDATE"), {"n": name}
    ).first()
    if row is None:
        raise NotFound(f"No collection named {name!r}.")
    return row
