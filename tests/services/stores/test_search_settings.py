"""The HNSW settings a semantic search runs with: ef_search (at least the depth asked for) and iterative
scans, set for that search's transaction only."""

from __future__ import annotations

import numpy as np
import sqlalchemy as sa

from services.stores import chunk_store
from services.stores.chunk_store import ChunkScope


def _show(conn, name: str) -> str:
    return conn.execute(sa.text(f"SHOW {name}")).scalar_one()


def test_semantic_step_sets_ef_search_and_iterative_scan_for_its_transaction_only(services):
    search = services.search
    vector = services.embedder.embed_query("a quiet harbour at dawn")
    scope = ChunkScope([c.id for c in services.collections.list()])
    with services.engine.connect() as conn:
        before = (_show(conn, "hnsw.ef_search"), _show(conn, "hnsw.iterative_scan"))
        conn.rollback()  # end the transaction SHOW began
        with conn.begin():
            chunk_store.semantic(conn, vector, scope, depth=10, threshold=-1.0, ef_search=search.ef_search)
            assert _show(conn, "hnsw.ef_search") == str(search.ef_search)
            assert _show(conn, "hnsw.iterative_scan") == "relaxed_order"
        with conn.begin():
            chunk_store.semantic(conn, np.asarray(vector), scope, depth=search.ef_search + 150, threshold=-1.0,
                                 ef_search=search.ef_search)
            assert _show(conn, "hnsw.ef_search") == str(search.ef_search + 150)  # never below the depth
        assert (_show(conn, "hnsw.ef_search"), _show(conn, "hnsw.iterative_scan")) == before  # local to each
