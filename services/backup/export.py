"""Export collections to a backup archive (the format is described in :mod:`services.backup.service`).

PostgreSQL rows are read in one repeatable-read transaction (a consistent
snapshot) through server-side cursors, and the graph in pages, so a large
collection is never held in memory. The archive is written beside its target
and renamed into place only when complete.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import re
import zipfile
from collections.abc import Iterator
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from services.backup import graph_edits
from services.backup.format import FORMAT, FORMAT_VERSION, MANIFEST, REPRODUCTION_SETTINGS, BackupResult, write_member
from services.errors import NotFound, ValidationFailed
from services.graph import queries as q
from services.stores import chunk_store

DOCUMENT_COLUMNS = ("id", "title", "source", "source_type", "content", "content_hash", "metadata", "status", "error",
                    "version", "chunk_count", "created_at", "updated_at", "graph_status", "graph_error",
                    "graph_entities", "graph_facts", "graph_updated_at")
_IN_SCOPE = "(SELECT document_id FROM collection_documents WHERE collection_id = ANY(:cids))"
_QUERIES = {
    "collections": "SELECT id, name, description, metadata_schema, embedding_model, embedding_dim, created_at, "
                   "updated_at FROM collections WHERE id = ANY(:cids) ORDER BY id",
    "documents": f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents WHERE id IN {_IN_SCOPE} ORDER BY id",
    "collection_documents": "SELECT collection_id, document_id, title, content_hash, linked_at FROM collection_documents "
                            "WHERE collection_id = ANY(:cids) ORDER BY collection_id, document_id",
    "chunks": chunk_store.EXPORT_SQL.format(documents=_IN_SCOPE),
    "diagrams": "SELECT diagram_id, document_id, idx, representation, layout, nodes, edges, image, image_type "
                f"FROM diagrams WHERE document_id IN {_IN_SCOPE} ORDER BY document_id, idx",
    "crawls": "SELECT id, collection_id, root_url, mode, params, status, started_at, finished_at FROM crawls "
              "WHERE collection_id = ANY(:cids) ORDER BY id",
    "crawl_pages": "SELECT p.crawl_id, p.url, p.status, p.reason, p.document_id, p.depth, p.fetched_at "
                   "FROM crawl_pages p JOIN crawls c ON c.id = p.crawl_id WHERE c.collection_id = ANY(:cids) "
                   "ORDER BY p.crawl_id, p.url",
    "graph_edits": graph_edits.EXPORT_EDITS,
    "graph_suggestion_decisions": graph_edits.EXPORT_DECISIONS,
}
_GRAPH_QUERIES = {"entities": q.EXPORT_ENTITIES, "facts": q.EXPORT_FACTS,
                  "diagram_nodes": q.EXPORT_DIAGRAM_NODES, "diagram_edges": q.EXPORT_DIAGRAM_EDGES}
GRAPH_PAGE = 2_000


def app_version() -> str:
    try:
        return importlib_metadata.version("rag-memory-workbench")
    except importlib_metadata.PackageNotFoundError:
        return "unknown"


def default_path(names: list[str]) -> Path:
    stem = names[0] if len(names) == 1 else "all-collections"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-.") or "collection"
    return Path(f"{stem}-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M%S}.ragbackup.zip")


def _rows(conn: Connection, table: str, cids: list[int]) -> Iterator[dict[str, Any]]:
    result = conn.execute(sa.text(_QUERIES[table]), {"cids": cids},
                          execution_options={"stream_results": True, "yield_per": 500})
    for row in result:
        out = dict(row._mapping)
        if table == "diagrams" and out["image"] is not None:
            out["image"] = base64.b64encode(bytes(out["image"])).decode("ascii")
        if table == "chunks":
            out["heading_path"] = list(out["heading_path"])
        yield out


def _graph_rows(graph: Any, table: str, cids: list[int]) -> Iterator[dict[str, Any]]:
    for cid in cids:
        skip = 0
        while True:
            page = graph.store.query(_GRAPH_QUERIES[table], {"collection_id": cid, "skip": skip, "limit": GRAPH_PAGE})
            for row in page:
                yield {"collection_id": cid, **row}
            if len(page) < GRAPH_PAGE:
                break
            skip += GRAPH_PAGE


def _select(service: Any, collection: str | None, all_collections: bool) -> list[Any]:
    if all_collections:
        if collection:
            raise ValidationFailed("Name one collection, or ask for all of them; not both.")
        chosen: list[Any] = service.collections.list()
        if not chosen:
            raise NotFound("There are no collections to back up.")
        return chosen
    if not (collection or "").strip():
        raise ValidationFailed("Name the collection to back up (or ask for all of them).")
    return [service.collections.get(collection)]


def export_archive(service: Any, collection: str | None, out: str | Path | None, *,
                   all_collections: bool = False) -> BackupResult:
    chosen = _select(service, collection, all_collections)
    cids, names = [c.id for c in chosen], [c.name for c in chosen]
    path = Path(out).expanduser() if out else default_path(names)
    if path.is_dir():
        path = path / default_path(names)
    if not path.parent.is_dir():
        raise ValidationFailed(f"The folder {path.parent} does not exist.")
    partial = path.with_name(path.name + ".partial")
    counts: dict[str, int] = {}
    try:
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
            with service.engine.connect() as conn:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
                with conn.begin():
                    for table in _QUERIES:
                        counts[table] = write_member(archive, table, _rows(conn, table, cids))
            for table in _GRAPH_QUERIES:
                rows = _graph_rows(service.graph, table, cids) if service.graph is not None else iter(())
                counts[table] = write_member(archive, table, rows)
            manifest = _manifest(service, chosen, counts)
            archive.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False, default=str))
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return BackupResult(str(path.resolve()), names, counts, path.stat().st_size)


def _manifest(service: Any, chosen: list[Any], counts: dict[str, int]) -> dict[str, Any]:
    settings = service.settings.model_dump()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": app_version(),
        "created_at": dt.datetime.now(dt.UTC).isoformat(),
        "embedding": {"model": service.embedder.name, "dim": service.embedder.dim},
        "settings": {name: settings[name] for name in REPRODUCTION_SETTINGS},
        "graph": service.graph is not None,
        "collections": [
            {"id": c.id, "name": c.name, "embedding_model": c.embedding_model, "embedding_dim": c.embedding_dim,
             "documents": c.document_count, "chunks": c.chunk_count}
            for c in chosen
        ],
        "counts": counts,
    }
