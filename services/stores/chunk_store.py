"""The ``chunks`` table: every SQL statement that writes, reads or ranks chunks lives here, but for
keyword ranking (BM25), which has :mod:`services.stores.keyword_ranking` to itself.

Callers pass an open connection (so a document and its chunks share one
transaction) and get plain rows or ids back. Ranking takes a :class:`ChunkScope`
(the collections searched and the metadata filters), which becomes the same
``WHERE`` fragment for every retriever.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sqlalchemy as sa
from psycopg2.extras import execute_values
from sqlalchemy.engine import Connection, Row

from services.errors import ValidationFailed
from services.metadata_schema import check_json_shape

MARK_START, MARK_END = "\x02", "\x03"  # ts_headline's match markers (stripped from chunk text first)
_RANGE_OPS = {"gte": ">=", "gt": ">", "lte": "<=", "lt": "<", "ne": "<>"}
_INSERT = ("INSERT INTO chunks (document_id, chunk_index, text, char_start, char_end, heading_path, metadata, "
           "embedding, embedding_dim) VALUES %s")
_ROW_TEMPLATE = "(%s, %s, %s, %s, %s, %s::text[], %s::jsonb, %s::vector, %s)"


def vector_literal(vector: np.ndarray) -> str:
    """A vector as pgvector's text form (``[0.1,0.2,…]``), for ``CAST(:v AS vector)`` parameters."""
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


@dataclass(frozen=True)
class ChunkRow:
    """One chunk to insert: the values of its columns, with the embedding already in pgvector's text form."""

    document_id: int
    chunk_index: int
    text: str
    char_start: int
    char_end: int
    heading_path: list[str]
    metadata: dict[str, Any]
    embedding: str
    embedding_dim: int


@dataclass(frozen=True)
class ChunkScope:
    """Which chunks a ranking may return: those of documents in ``collection_ids`` matching ``filters``.

    ``filters`` are metadata conditions on the document: ``{"party": "Whig"}`` for
    equality, or ``{"year": {"gte": 1900, "lt": 1950}}`` with gte/gt/lte/lt/ne/in.
    """

    collection_ids: list[int]
    filters: dict[str, Any] | None = None

    def where(self) -> tuple[str, dict[str, Any]]:
        """The ``AND …`` fragment over ``chunks c JOIN documents d`` and its parameters."""
        params: dict[str, Any] = {"cids": list(self.collection_ids)}
        clause = (" AND EXISTS (SELECT 1 FROM collection_documents cd WHERE cd.document_id = c.document_id"
                  " AND cd.collection_id = ANY(:cids))" + _filter_sql(self.filters, params))
        return clause, params


def _filter_sql(filters: dict[str, Any] | None, params: dict[str, Any]) -> str:
    """Metadata filters on documents.metadata: equality, or {op: value} with gte/gt/lte/lt/ne/in."""
    if not filters:
        return ""
    if not isinstance(filters, dict):
        raise ValidationFailed("Filters must be a JSON object of field: value.")
    check_json_shape(filters, "Filters")
    try:
        json.dumps(filters, allow_nan=False)
    except (TypeError, ValueError):
        raise ValidationFailed("Filters must be plain JSON values (no NaN or infinite numbers).") from None
    clauses, equal = [], {}
    for i, (key, cond) in enumerate(filters.items()):
        if not isinstance(key, str) or not key:
            raise ValidationFailed("Filter field names must be non-empty strings.")
        if isinstance(cond, dict):
            for j, (op, value) in enumerate(cond.items()):
                pk, pv = f"fk{i}_{j}", f"fv{i}_{j}"
                params[pk] = key
                if op == "in":
                    if not isinstance(value, list):
                        raise ValidationFailed(f"Filter {key!r}: 'in' takes a list.")
                    params[pv] = json.dumps(value)
                    clauses.append(f"(d.metadata -> :{pk}) IN (SELECT jsonb_array_elements(CAST(:{pv} AS jsonb)))")
                elif op in _RANGE_OPS:
                    params[pv] = value
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        clauses.append(
                            f"(CASE WHEN jsonb_typeof(d.metadata -> :{pk}) = 'number' "
                            f"THEN (d.metadata ->> :{pk})::numeric END) {_RANGE_OPS[op]} :{pv}"
                        )
                    else:
                        params[pv] = str(value)
                        clauses.append(f"(d.metadata ->> :{pk}) {_RANGE_OPS[op]} :{pv}")
                else:
                    raise ValidationFailed(f"Filter {key!r}: unknown operator {op!r} (use gte, gt, lte, lt, ne, in).")
        else:
            equal[key] = cond
    if equal:
        params["feq"] = json.dumps(equal)
        clauses.append("d.metadata @> CAST(:feq AS jsonb)")
    return "".join(f" AND {c}" for c in clauses)


# -- writing ------------------------------------------------------------------------------
def insert_chunks(conn: Connection, rows: Sequence[ChunkRow], *, returning: bool = False) -> list[tuple[int, int, int]]:
    """Insert chunks in the caller's transaction; with ``returning``, (document_id, chunk_index, id) per row."""
    if not rows:
        return []
    values = [(r.document_id, r.chunk_index, r.text, r.char_start, r.char_end, list(r.heading_path),
               json.dumps(r.metadata), r.embedding, r.embedding_dim) for r in rows]
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    sql = _INSERT + (" RETURNING document_id, chunk_index, id" if returning else "")
    created = execute_values(cursor, sql, values, template=_ROW_TEMPLATE, page_size=200, fetch=returning)
    return [(int(d), int(i), int(c)) for d, i, c in created] if returning else []


def delete_document_chunks(conn: Connection, document_id: int) -> None:
    conn.execute(sa.text("DELETE FROM chunks WHERE document_id = :id"), {"id": document_id})


# -- reading a document's chunks ------------------------------------------------------------
def chunk_starts(conn: Connection, document_id: int) -> list[tuple[int, int]]:
    """(chunk id, char_start) of a document's chunks in text order."""
    rows = conn.execute(sa.text("SELECT id, char_start FROM chunks WHERE document_id = :id ORDER BY char_start"),
                        {"id": document_id}).all()
    return [(int(r.id), int(r.char_start)) for r in rows]


def document_chunks(conn: Connection, document_id: int) -> list[Row[Any]]:
    """A document's chunks (id, chunk_index, text, char_start, char_end, heading_path, metadata) in order."""
    return list(conn.execute(sa.text(
        "SELECT id, chunk_index, text, char_start, char_end, heading_path, metadata FROM chunks "
        "WHERE document_id = :id ORDER BY chunk_index"), {"id": document_id}))


def embedding_dims(conn: Connection, document_id: int) -> list[int]:
    """The distinct vector sizes a document's chunks were embedded with."""
    return [int(d) for d in conn.execute(
        sa.text("SELECT DISTINCT embedding_dim FROM chunks WHERE document_id = :d"), {"d": document_id}).scalars()]


EXPORT_SQL = ("SELECT id, document_id, chunk_index, text, char_start, char_end, heading_path, metadata, "
              "embedding::text AS embedding, embedding_dim FROM chunks "
              "WHERE document_id IN {documents} ORDER BY document_id, chunk_index")


# -- ranking --------------------------------------------------------------------------------
def semantic(conn: Connection, vector: np.ndarray, scope: ChunkScope, *, depth: int, threshold: float,
             ef_search: int) -> dict[int, float]:
    """The ``depth`` nearest chunks by cosine similarity (HNSW, iterative scan), at or above ``threshold``."""
    dim = int(vector.shape[0])
    where, params = scope.where()
    # Both transaction-local (like SET LOCAL), in one round trip.
    conn.execute(sa.text("SELECT set_config('hnsw.ef_search', :ef, true), "
                         "set_config('hnsw.iterative_scan', 'relaxed_order', true)"),
                 {"ef": str(int(max(ef_search, depth)))})
    rows = conn.execute(
        sa.text(
            f"SELECT c.id, 1 - (c.embedding::vector({dim}) <=> CAST(:q AS vector({dim}))) AS sim "
            f"FROM chunks c JOIN documents d ON d.id = c.document_id "
            f"WHERE c.embedding_dim = {dim}{where} "
            f"ORDER BY c.embedding::vector({dim}) <=> CAST(:q AS vector({dim})) LIMIT :depth"
        ),
        {**params, "q": vector_literal(vector), "depth": depth},
    ).all()
    return {int(r.id): float(r.sim) for r in rows if r.sim >= threshold}


def matching_every_word(conn: Connection, ids: list[int], query: str) -> set[int]:
    """The chunks among ``ids`` that hold every word of ``query`` (stop words aside)."""
    if not ids:
        return set()
    return {int(i) for i in conn.execute(sa.text(
        "SELECT id FROM chunks WHERE id = ANY(:ids) AND tsv @@ plainto_tsquery('english', rag_fold(:q))"),
        {"ids": ids, "q": query}).scalars()}


def derive_missing(conn: Connection, *, batch: int = 500) -> int:
    """Compute the full-text vector (and so, by trigger, the BM25 postings) of up to ``batch`` chunks that lack
    one: chunks stored before the BM25 migration. Returns how many were done; 0 when none is left."""
    return len(conn.execute(sa.text(
        "UPDATE chunks c SET tsv = rag_chunk_tsv(d.title, c.heading_path, c.text) FROM documents d "
        "WHERE d.id = c.document_id AND c.id IN (SELECT id FROM chunks WHERE tsv IS NULL ORDER BY id LIMIT :n) "
        "RETURNING c.id"), {"n": batch}).all())


def missing_count(conn: Connection) -> int:
    """How many chunks still lack their full-text vector (and so cannot be found by keyword yet)."""
    return int(conn.execute(sa.text("SELECT count(*) FROM chunks WHERE tsv IS NULL")).scalar_one())


# -- loading ranked chunks -----------------------------------------------------------------
def load_hits(conn: Connection, ids: list[int], query: str, *, highlight: bool = True) -> dict[int, Row[Any]]:
    """Ranked chunks with their document's title, source and metadata, and (with ``highlight``) the query's
    words marked; without, ``marked`` is the plain text (ts_headline costs ~0.5 ms a chunk)."""
    if not ids:
        return {}
    marked = ("ts_headline('english', replace(replace(c.text, chr(2), ''), chr(3), ''), "
              "  coalesce(NULLIF(replace((websearch_to_tsquery('english', :query) || "
              "                          websearch_to_tsquery('english', rag_fold(:query)))::text, ' & ', ' | '), '')::tsquery,"
              "           ''::tsquery), 'HighlightAll=true, StartSel=\x02, StopSel=\x03')"
              if highlight else "replace(replace(c.text, chr(2), ''), chr(3), '')")
    rows = conn.execute(
        sa.text(
            "SELECT c.id, c.document_id, d.title, d.source, c.chunk_index, c.char_start, c.char_end, "
            f"c.heading_path, c.text, d.metadata, c.metadata AS chunk_metadata, {marked} AS marked "
            "FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(:ids)"
        ),
        {"ids": ids, "query": query},
    ).all()
    return {int(r.id): r for r in rows}


def load_context(conn: Connection, ids: list[int]) -> dict[int, Row[Any]]:
    """Chunks (id, document_id, title, chunk_index, text, metadata) for an answer's context."""
    if not ids:
        return {}
    return {int(r.id): r for r in conn.execute(
        sa.text("SELECT c.id, c.document_id, d.title, c.chunk_index, c.text, c.metadata FROM chunks c "
                "JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(:ids)"), {"ids": ids})}


def vectors(conn: Connection, ids: list[int]) -> np.ndarray:
    """The stored embeddings of ``ids``, in that order (every id must exist)."""
    rows = {r.id: r.e for r in conn.execute(sa.text("SELECT id, embedding::text AS e FROM chunks WHERE id = ANY(:ids)"),
                                            {"ids": ids})}
    return np.asarray([json.loads(rows[i]) for i in ids], dtype=np.float32)
