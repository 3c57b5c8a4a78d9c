"""The entity–chunk graph in PostgreSQL (migration 008): every SQL statement on its four tables.

The graph step writes a document's entities, mentions and fact links here in one transaction
(:func:`write_document`) after its facts reach the graph store, and removes them before re-indexing
(:func:`remove_document`); chunk and document deletions cascade. The graph walk reads neighbourhoods
from here (:func:`entities_by_keys`, :func:`mentions_of_chunks`, :func:`chunks_of_entities`, :func:`links`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection


class WalkEntity(NamedTuple):
    """An entity as the walk sees it (a tuple: a walk builds thousands; as frozen dataclasses, built from rows, 8 µs each)."""

    key: str
    name: str
    type: str
    documents: int  # how many of the collection's documents name it
    chunks: int  # how many chunks name it


@dataclass(frozen=True)
class DocumentGraph:
    """What one document adds to the walk graph: entities (key → (name, type)), mentions and fact links."""

    collection_id: int
    document_id: int
    entities: dict[str, tuple[str, str]]
    mentions: set[tuple[str, int]]  # (entity key, chunk id)
    links: set[tuple[str, str, int]]  # (entity key, entity key, chunk id of the fact's sentence)


def write_document(conn: Connection, graph: DocumentGraph) -> None:
    """Add a document's entities, mentions, document links and fact links (rows in key order: no deadlocks)."""
    cid, doc = graph.collection_id, graph.document_id
    entities = sorted(graph.entities.items())
    if entities:
        conn.execute(sa.text(
            "INSERT INTO graph_entities (collection_id, key, name, type) "
            "SELECT :cid, k, n, t FROM unnest(CAST(:keys AS text[]), CAST(:names AS text[]), CAST(:types AS text[])) "
            "AS e(k, n, t) ORDER BY k ON CONFLICT (collection_id, key) DO NOTHING"),
            {"cid": cid, "keys": [k for k, _ in entities], "names": [n for _, (n, _) in entities],
             "types": [t for _, (_, t) in entities]})
        conn.execute(sa.text(
            "INSERT INTO entity_documents (collection_id, key, document_id) "
            "SELECT :cid, k, :doc FROM unnest(CAST(:keys AS text[])) k ORDER BY k ON CONFLICT DO NOTHING"),
            {"cid": cid, "doc": doc, "keys": [k for k, _ in entities]})
    mentions = sorted(graph.mentions)
    if mentions:
        conn.execute(sa.text(
            "INSERT INTO entity_mentions (collection_id, key, chunk_id, document_id) "
            "SELECT :cid, k, c, :doc FROM unnest(CAST(:keys AS text[]), CAST(:chunks AS bigint[])) AS m(k, c) "
            "ORDER BY k, c ON CONFLICT DO NOTHING"),
            {"cid": cid, "doc": doc, "keys": [k for k, _ in mentions], "chunks": [c for _, c in mentions]})
    links = sorted(graph.links)
    if links:
        conn.execute(sa.text(
            "INSERT INTO entity_links (collection_id, a, b, chunk_id) "
            "SELECT :cid, a, b, c FROM unnest(CAST(:a AS text[]), CAST(:b AS text[]), CAST(:c AS bigint[])) "
            "AS l(a, b, c) ORDER BY a, b, c ON CONFLICT DO NOTHING"),
            {"cid": cid, "a": [a for a, _, _ in links], "b": [b for _, b, _ in links], "c": [c for _, _, c in links]})


def remove_document(conn: Connection, document_id: int) -> None:
    """Remove a document's contribution, and entities no document names any more."""
    keys = list(conn.execute(sa.text(
        "DELETE FROM entity_documents WHERE document_id = :d RETURNING collection_id, key"), {"d": document_id}))
    conn.execute(sa.text("DELETE FROM entity_mentions WHERE document_id = :d"), {"d": document_id})
    conn.execute(sa.text("DELETE FROM entity_links WHERE chunk_id IN (SELECT id FROM chunks WHERE document_id = :d)"),
                 {"d": document_id})
    if keys:
        conn.execute(sa.text(
            "DELETE FROM graph_entities e USING unnest(CAST(:cids AS bigint[]), CAST(:keys AS text[])) AS g(c, k) "
            "WHERE e.collection_id = g.c AND e.key = g.k AND e.documents <= 0 AND e.chunks <= 0"),
            {"cids": [int(r.collection_id) for r in keys], "keys": [r.key for r in keys]})


def documents_without_walk_graph(conn: Connection, *, limit: int = 100) -> list[int]:
    """Documents whose graph is done but that have no part in the walk graph: stored before migration 008."""
    return [int(i) for i in conn.execute(sa.text(
        "SELECT d.id FROM documents d WHERE d.graph_status = 'done' AND d.graph_entities > 0 "
        "AND NOT EXISTS (SELECT 1 FROM entity_documents e WHERE e.document_id = d.id) ORDER BY d.id LIMIT :n"),
        {"n": limit}).scalars()]


def document_count(conn: Connection, collection_ids: list[int]) -> int:
    """How many documents of the collections have entities in the walk graph."""
    return int(conn.execute(sa.text(  # one index probe per document, not a scan of every entity's row
        "SELECT count(DISTINCT cd.document_id) FROM collection_documents cd WHERE cd.collection_id = ANY(:cids) "
        "AND EXISTS (SELECT 1 FROM entity_documents e WHERE e.document_id = cd.document_id "
        "AND e.collection_id = cd.collection_id)"), {"cids": collection_ids}).scalar_one())


def entities_by_keys(conn: Connection, collection_ids: list[int], keys: Iterable[str]) -> list[WalkEntity]:
    """The entities with these keys (compared accent-folded), summed over the collections."""
    wanted = sorted(set(keys))
    if not wanted:
        return []
    rows = conn.execute(sa.text(
        "SELECT min(key) AS key, min(name) AS name, min(type) AS type, sum(documents) AS documents, "
        "sum(chunks) AS chunks FROM graph_entities "
        "WHERE collection_id = ANY(:cids) AND rag_fold(key) = ANY(ARRAY(SELECT rag_fold(k) FROM unnest(CAST(:keys AS text[])) k)) "
        "GROUP BY rag_fold(key)"), {"cids": collection_ids, "keys": wanted})
    return [WalkEntity(r.key, r.name, r.type, int(r.documents), int(r.chunks)) for r in rows]


def mentions_of_chunks(conn: Connection, chunk_ids: list[int], *, max_chunks: int | None = None,
                       keep: Iterable[str] = ()) -> list[tuple[int, WalkEntity]]:
    """(chunk id, entity) for every entity these chunks name; with ``max_chunks``, only entities named by at
    most that many chunks, or in ``keep``."""
    if not chunk_ids:
        return []
    # Each mention's entity by a key probe (LATERAL ... LIMIT 1, which the planner cannot flatten). Joined
    # plainly, the planner hashed every entity of the collection for a few hundred mentions: 78k entity
    # rows and 50 ms on the 233 addresses, for 2 ms of probes (docs/bench/findings.md, 2026-11-25).
    rows = conn.execute(sa.text(
        "SELECT m.chunk_id, e.key, e.name, e.type, e.documents, e.chunks FROM entity_mentions m "
        "CROSS JOIN LATERAL (SELECT g.key, g.name, g.type, g.documents, g.chunks FROM graph_entities g "
        "  WHERE g.collection_id = m.collection_id AND g.key = m.key LIMIT 1) e "
        "WHERE m.chunk_id = ANY(:ids) AND (CAST(:most AS bigint) IS NULL OR e.chunks <= :most "
        "  OR e.key = ANY(CAST(:keep AS text[])))"),
        {"ids": chunk_ids, "most": max_chunks, "keep": sorted(set(keep))})
    entities: dict[str, WalkEntity] = {}
    out = []
    for chunk, key, name, type_, documents, chunks in rows:
        entity = entities.get(key)
        if entity is None:
            entity = entities[key] = WalkEntity(key, name, type_, int(documents), int(chunks))
        out.append((int(chunk), entity))
    return out


def chunks_of_entities(conn: Connection, collection_ids: list[int], keys: list[str]) -> list[tuple[str, int]]:
    """(entity key, chunk id) for every chunk that names one of these entities."""
    if not keys:
        return []
    # The keys as a table, not an ANY(array) literal: a walk passes thousands, and planning estimated each
    # element's selectivity (12 ms for 1,600 keys in links() below, against 1.4 ms to run the query).
    rows = conn.execute(sa.text(
        "WITH k AS MATERIALIZED (SELECT DISTINCT unnest(CAST(:keys AS text[])) AS key) "
        "SELECT m.key, m.chunk_id FROM k JOIN entity_mentions m ON m.collection_id = ANY(:cids) AND m.key = k.key"),
        {"cids": collection_ids, "keys": keys})
    return [(key, int(chunk)) for key, chunk in rows]


def links(conn: Connection, collection_ids: list[int], keys: list[str]) -> list[tuple[str, str]]:
    """Fact links among these entities (each fact once, in either direction)."""
    if not keys:
        return []
    rows = conn.execute(sa.text(
        "WITH k AS MATERIALIZED (SELECT DISTINCT unnest(CAST(:keys AS text[])) AS key) "
        "SELECT l.a, l.b FROM k JOIN entity_links l ON l.collection_id = ANY(:cids) AND l.a = k.key "
        "JOIN k AS kb ON kb.key = l.b"),
        {"cids": collection_ids, "keys": keys})
    return [(a, b) for a, b in rows]
