"""Restore a backup archive (see :mod:`services.backup.service`) into the configured stores.

Every check that can refuse runs before anything is written: the archive's
checksums and manifest, the embedding model, the target names. PostgreSQL rows
are then written in one transaction, which stays open while the graph is written,
so a failure anywhere leaves nothing behind: the transaction rolls back and the
graph nodes already written for the new collections are deleted. Everything gets
new ids; every reference is remapped (documents, chunks, diagram ids in chunk
metadata, crawl pages, and the facts' ids, document and chunk ids).
"""

from __future__ import annotations

import base64
import json
import logging
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DataError, IntegrityError

from services.backup import graph_edits
from services.backup.export import DOCUMENT_COLUMNS
from services.backup.format import DAMAGE, REPRODUCTION_SETTINGS, RestoreResult, member_name, open_archive, read_member
from services.collections import MAX_NAME
from services.documents import diagram_id
from services.errors import AlreadyExists, EmbeddingMismatch, StoreUnavailable, ValidationFailed, WorkbenchError
from services.graph import queries as q
from services.stores import chunk_store
from services.stores.chunk_store import ChunkRow
from services.stores.postgres import ensure_hnsw_index

log = logging.getLogger(__name__)
_DIAGRAM_ID = re.compile(r"^dgm-(\d+)-(\d+)$")
_FACT_ID = re.compile(r"^(\d+):(.+)$")
_JSONB = ("metadata", "metadata_schema", "params", "nodes", "edges")
CHUNK_BATCH = 500


@dataclass
class IdMaps:
    """Old id (in the archive) → new id (in this store), per kind of row."""

    collections: dict[int, int] = field(default_factory=dict)
    documents: dict[int, int] = field(default_factory=dict)
    chunks: dict[int, int] = field(default_factory=dict)
    crawls: dict[int, int] = field(default_factory=dict)

    def diagram(self, old: Any) -> Any:
        match = _DIAGRAM_ID.match(old) if isinstance(old, str) else None
        if not match or int(match[1]) not in self.documents:
            return old
        return diagram_id(self.documents[int(match[1])], int(match[2]))


def restore_archive(service: Any, path: str | Path, *, into_name: str | None = None) -> RestoreResult:
    archive, manifest = open_archive(path)
    with archive:
        try:
            names = _plan(service, manifest, into_name)
        except DAMAGE as exc:
            raise ValidationFailed(f"{path} has a damaged manifest ({exc.__class__.__name__}: {exc}).") from None
        ensure_hnsw_index(service.engine, service.embedder.dim)
        maps, notes = IdMaps(), _setting_notes(service, manifest)
        counts: dict[str, int] = {}
        with_graph = service.graph is not None
        try:
            with service.engine.begin() as conn:
                _write_rows(conn, archive, names, maps, counts, with_graph, (service.embedder.name, service.embedder.dim))
                _check_counts(manifest, counts, ("collections", "documents", "collection_documents", "chunks",
                                                 "diagrams", "crawls", "crawl_pages"))
                if with_graph:
                    _write_graph_or_undo(service, archive, manifest, maps, counts, notes)
                elif any(manifest["counts"][t] for t in ("entities", "facts", "diagram_nodes")):
                    notes.append("The graph is turned off here: its facts were not restored, and the documents are "
                                 "marked for a graph rebuild.")
        except IntegrityError as exc:
            if "collections_name_key" in str(exc):
                raise AlreadyExists(f"A collection named {', '.join(map(repr, names.values()))} already exists.") from None
            raise ValidationFailed(f"{path} holds rows that do not fit this database: {_first_line(exc)}") from None
        except DataError as exc:
            raise ValidationFailed(f"{path} holds rows that do not fit this database: {_first_line(exc)}") from None
        except WorkbenchError:
            raise
        except DAMAGE as exc:
            raise ValidationFailed(f"{path} is damaged ({exc.__class__.__name__}: {exc}); nothing was restored.") from None
    restored = [{"from": e["name"], "name": names[e["id"]]} for e in manifest["collections"]]
    return RestoreResult(restored, counts, with_graph, notes)


def _first_line(exc: Exception) -> str:
    return str(getattr(exc, "orig", exc)).strip().splitlines()[0]


def _plan(service: Any, manifest: dict[str, Any], into_name: str | None) -> dict[int, str]:
    """Old collection id → the name to restore it as; refuse a model mismatch or a taken name."""
    entries = manifest["collections"]
    if into_name is not None and len(entries) != 1:
        raise ValidationFailed(f"A new name applies to one collection; this archive holds {len(entries)}.")
    names = {int(e["id"]): (into_name if into_name is not None else e["name"]).strip() for e in entries}
    for name in names.values():
        if not name or len(name) > MAX_NAME or any(ord(ch) < 32 for ch in name):
            raise ValidationFailed(f"{name!r} is not a valid collection name (1–{MAX_NAME} printable characters).")
    model, dim = service.embedder.name, service.embedder.dim
    for e in entries:
        if (e["embedding_model"], int(e["embedding_dim"])) != (model, dim):
            raise EmbeddingMismatch(
                f"Collection {e['name']!r} in the archive was embedded with {e['embedding_model']} "
                f"({e['embedding_dim']}-d), but the configured model is {model} ({dim}-d). "
                "Configure that model to restore it; its vectors cannot be mixed with this model's."
            )
    with service.engine.connect() as conn:
        taken = conn.execute(sa.text("SELECT name FROM collections WHERE name = ANY(:n)"),
                             {"n": list(names.values())}).scalars().all()
    if taken:
        raise AlreadyExists(f"A collection named {taken[0]!r} already exists; restore under another name.")
    return names


def _setting_notes(service: Any, manifest: dict[str, Any]) -> list[str]:
    ours, theirs = service.settings.model_dump(), manifest.get("settings") or {}
    return [f"Setting {name} is {ours[name]!r} here but was {theirs[name]!r} where the backup was made."
            for name in REPRODUCTION_SETTINGS if name in theirs and theirs[name] != ours[name]]


def _jsonb(row: dict[str, Any]) -> dict[str, Any]:
    return {k: (json.dumps(v) if k in _JSONB else v) for k, v in row.items()}


def _write_rows(conn: Connection, archive: zipfile.ZipFile, names: dict[int, str], maps: IdMaps,
                counts: dict[str, int], with_graph: bool, model: tuple[str, int]) -> None:
    def each(table: str) -> Any:
        counts[table] = 0
        for row in read_member(archive, table):
            counts[table] += 1
            yield row

    for row in each("collections"):
        if (row["embedding_model"], row["embedding_dim"]) != model:
            raise ValidationFailed(f"The archive's rows for {row['name']!r} disagree with its manifest about the model.")
        maps.collections[row["id"]] = conn.execute(sa.text(
            "INSERT INTO collections (name, description, metadata_schema, embedding_model, embedding_dim, created_at, "
            "updated_at) VALUES (:name, :description, CAST(:metadata_schema AS jsonb), :embedding_model, "
            ":embedding_dim, :created_at, :updated_at) RETURNING id"), {**_jsonb(row), "name": names[row["id"]]},
        ).scalar_one()
    columns = [c for c in DOCUMENT_COLUMNS if c != "id"]
    values = ", ".join("CAST(:metadata AS jsonb)" if c == "metadata" else f":{c}" for c in columns)
    insert_document = sa.text(f"INSERT INTO documents ({', '.join(columns)}) VALUES ({values}) RETURNING id")
    for row in each("documents"):
        if not with_graph and row["graph_status"] not in ("none", "disabled"):
            row["graph_status"] = "pending"
        maps.documents[row["id"]] = conn.execute(insert_document, _jsonb(row)).scalar_one()
    for row in each("collection_documents"):
        conn.execute(sa.text(
            "INSERT INTO collection_documents (collection_id, document_id, title, content_hash, linked_at) "
            "VALUES (:c, :d, :title, :content_hash, :linked_at)"),
            {**row, "c": maps.collections[row["collection_id"]], "d": maps.documents[row["document_id"]]})
    batch: list[dict[str, Any]] = []
    for row in each("chunks"):
        if row["embedding_dim"] != model[1]:
            raise ValidationFailed(f"A chunk in the archive has a {row['embedding_dim']}-d vector; {model[1]}-d expected.")
        batch.append(row)
        if len(batch) >= CHUNK_BATCH:
            _insert_chunks(conn, batch, maps)
            batch = []
    _insert_chunks(conn, batch, maps)
    for row in each("diagrams"):
        image = base64.b64decode(row["image"]) if row["image"] is not None else None
        conn.execute(sa.text(
            "INSERT INTO diagrams (diagram_id, document_id, idx, representation, layout, nodes, edges, image, image_type) "
            "VALUES (:did, :doc, :idx, :representation, :layout, CAST(:nodes AS jsonb), CAST(:edges AS jsonb), :img, "
            ":image_type)"),
            {**_jsonb(row), "did": maps.diagram(row["diagram_id"]), "doc": maps.documents[row["document_id"]],
             "img": image})
    for row in each("crawls"):
        maps.crawls[row["id"]] = conn.execute(sa.text(
            "INSERT INTO crawls (collection_id, root_url, mode, params, status, started_at, finished_at) VALUES "
            "(:c, :root_url, :mode, CAST(:params AS jsonb), :st, :started_at, :finished_at) RETURNING id"),
            {**_jsonb(row), "c": maps.collections[row["collection_id"]],
             "st": "interrupted" if row["status"] == "running" else row["status"]},
        ).scalar_one()
    for row in each("crawl_pages"):
        conn.execute(sa.text(
            "INSERT INTO crawl_pages (crawl_id, url, status, reason, document_id, depth, fetched_at) "
            "VALUES (:c, :url, :status, :reason, :d, :depth, :fetched_at)"),
            {**row, "c": maps.crawls[row["crawl_id"]], "d": maps.documents.get(row["document_id"])})
    optional = set(archive.namelist())  # archives written before the edit log have neither member
    edits = each("graph_edits") if member_name("graph_edits") in optional else iter(())
    decisions = each("graph_suggestion_decisions") if member_name("graph_suggestion_decisions") in optional else iter(())
    graph_edits.restore_rows(conn, edits, decisions, maps.collections, maps.documents, maps.chunks)


def _insert_chunks(conn: Connection, batch: list[dict[str, Any]], maps: IdMaps) -> None:
    """Insert chunks with their stored vectors, and record each one's new id."""
    if not batch:
        return
    old_ids, rows = {}, []
    for row in batch:
        doc = maps.documents[row["document_id"]]
        meta = dict(row["metadata"])
        if "associated_diagram_id" in meta:
            meta["associated_diagram_id"] = maps.diagram(meta["associated_diagram_id"])
        if isinstance(meta.get("diagram_ids"), list):
            meta["diagram_ids"] = [maps.diagram(d) for d in meta["diagram_ids"]]
        old_ids[(doc, int(row["chunk_index"]))] = row["id"]
        rows.append(ChunkRow(doc, row["chunk_index"], row["text"], row["char_start"], row["char_end"],
                             list(row["heading_path"]), meta, row["embedding"], row["embedding_dim"]))
    for doc, index, new_id in chunk_store.insert_chunks(conn, rows, returning=True):
        maps.chunks[old_ids[(doc, index)]] = new_id


def _write_graph_or_undo(service: Any, archive: zipfile.ZipFile, manifest: dict[str, Any], maps: IdMaps,
                         counts: dict[str, int], notes: list[str]) -> None:
    """Write the graph; on any failure delete what was written for the new collections, then raise."""
    try:
        _write_graph(service, archive, maps, counts, notes)
        _check_counts(manifest, counts, ("entities", "facts", "diagram_nodes", "diagram_edges"))
    except Exception as exc:
        for cid in maps.collections.values():
            try:
                service.graph.remove_collection(cid)
            except Exception:  # the graph is failing already; the ids are never reused
                log.exception("could not remove the partly restored graph of collection %s", cid)
        if isinstance(exc, (WorkbenchError, *DAMAGE)) and not isinstance(exc, StoreUnavailable):
            raise
        raise StoreUnavailable(f"Restoring the graph failed, so nothing was restored: {exc}") from exc


def _write_graph(service: Any, archive: zipfile.ZipFile, maps: IdMaps, counts: dict[str, int],
                 notes: list[str]) -> None:
    store, size = service.graph.store, service.graph.batch_size
    skipped = 0

    def fact(row: dict[str, Any]) -> dict[str, Any] | None:
        nonlocal skipped
        if row.get("document_id") is None and row.get("added_by"):
            return row  # a fact an analyst added: no document to remap
        match = _FACT_ID.match(str(row["id"]))
        doc = maps.documents.get(row["document_id"])
        if doc is None or not match:
            skipped += 1  # a fact about a document outside the archive cannot be placed
            return None
        return {**row, "id": f"{doc}:{match[2]}", "document_id": doc, "chunk_id": maps.chunks.get(row["chunk_id"])}

    def on_document(row: dict[str, Any]) -> dict[str, Any]:
        return {**row, "diagram_id": maps.diagram(row["diagram_id"]), "document_id": maps.documents[row["document_id"]]}

    def write(statement: str, batch: list[dict[str, Any]]) -> None:
        if statement is q.RESTORE_FACTS:  # every fact is checked to be there (a fact needs both its entities)
            service.graph.write_facts(statement, batch)
        else:
            store.query(statement, {"rows": batch})

    plan = (("entities", q.MERGE_ENTITIES, lambda r: r), ("facts", q.RESTORE_FACTS, fact),
            ("diagram_nodes", q.CREATE_DIAGRAM_NODES, on_document), ("diagram_edges", q.CREATE_DIAGRAM_EDGES, on_document))
    for table, statement, remap in plan:
        counts[table], batch = 0, []
        for row in read_member(archive, table):
            counts[table] += 1
            new = remap({**row, "collection_id": maps.collections[row["collection_id"]]})
            if new is not None:
                batch.append(new)
            if len(batch) >= size:
                write(statement, batch)
                batch = []
        if batch:
            write(statement, batch)
    if skipped:
        notes.append(f"{skipped} facts named documents outside the archive and were left out.")


def _check_counts(manifest: dict[str, Any], counts: dict[str, int], tables: tuple[str, ...]) -> None:
    for table in tables:
        if counts.get(table) != manifest["counts"][table]:
            raise ValidationFailed(
                f"The archive's {table} member holds {counts.get(table)} rows, but its manifest says "
                f"{manifest['counts'][table]}; it is incomplete or was altered. Nothing was restored."
            )
