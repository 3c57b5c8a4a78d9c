"""What the offline answer reads from PostgreSQL: texts as BM25's index terms, the question's terms' IDF,
the context documents' metadata and the stored chunk vectors.

Sentences are split into index terms by the same ``to_tsvector('english', rag_fold(...))`` as the chunks' BM25
postings, so a sentence covers a question word exactly when BM25 would have counted it; IDF is BM25's,
``ln(1 + (N - df + 0.5) / (df + 0.5))`` over the collections' own statistics. One statement per kind of read.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from services.stores import chunk_store
from services.stores.keyword_ranking import bm25_idf, statistics


def index_terms(conn: Connection, texts: list[str]) -> list[set[str]]:
    """Each text's index terms (folded, stemmed, stop words out), in the order given."""
    if not texts:
        return []
    rows = conn.execute(sa.text(
        "SELECT x.i, array(SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector('english', rag_fold(x.t)))) l) "
        "FROM unnest(CAST(:texts AS text[])) WITH ORDINALITY AS x(t, i)"), {"texts": texts}).all()
    terms = {int(i): set(lexemes) for i, lexemes in rows}
    return [terms.get(i, set()) for i in range(1, len(texts) + 1)]


def idf(conn: Connection, lexemes: set[str], collection_ids: list[int]) -> dict[str, float]:
    """BM25's IDF of each term in these collections; a term no chunk holds weighs as the rarest would."""
    if not lexemes or not collection_ids:
        return {}
    df, totals = statistics(conn, sorted(lexemes), collection_ids)
    n = max(totals[0], 1.0)
    return {lx: bm25_idf(n, df.get(lx, 0)) for lx in lexemes}


def document_metadata(conn: Connection, document_ids: list[int]) -> dict[int, dict[str, Any]]:
    if not document_ids:
        return {}
    rows = conn.execute(sa.text("SELECT id, metadata FROM documents WHERE id = ANY(:ids)"), {"ids": document_ids})
    return {int(r.id): dict(r.metadata or {}) for r in rows}


def chunk_vectors(conn: Connection, chunk_ids: list[int]) -> dict[int, np.ndarray]:
    """The stored vectors of the chunks that still exist."""
    present = [int(i) for i in conn.execute(sa.text("SELECT id FROM chunks WHERE id = ANY(:ids)"),
                                            {"ids": chunk_ids}).scalars()]
    if not present:
        return {}
    return dict(zip(present, chunk_store.vectors(conn, present), strict=True))
