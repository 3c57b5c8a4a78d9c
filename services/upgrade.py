"""Data the code derives from what is stored, filled in for rows written before the migration that needs it.

- BM25 (migration 007): chunks stored before it have no full-text vector, so keyword search cannot find them
  until :func:`services.stores.chunk_store.derive_missing` computes it (a trigger then writes their postings).
- The walk graph (migration 008): documents indexed before it have no entity mentions; they are derived from
  the facts the graph store already holds (:meth:`GraphService.derive_walk_graph`), with no extraction.

Each step works in small batches that each commit, so the work can stop at any point (a crash, a Ctrl-C)
and resume where it was: what is done is never redone, and nothing is re-ingested.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.engine import Engine

from services.graph.service import GraphService
from services.stores import chunk_store, walk_store


@dataclass
class Pending:
    chunks_without_bm25: int
    documents_without_walk_graph: int

    @property
    def total(self) -> int:
        return self.chunks_without_bm25 + self.documents_without_walk_graph


class UpgradeService:
    def __init__(self, *, engine: Engine, graph: GraphService | None) -> None:
        self.engine = engine
        self.graph = graph

    def pending(self) -> Pending:
        with self.engine.connect() as conn:
            chunks = chunk_store.missing_count(conn)
            docs = len(walk_store.documents_without_walk_graph(conn, limit=1_000_000)) if self.graph else 0
        return Pending(chunks, docs)

    def run(self, on_progress: Callable[[str, int, int], None] | None = None, *, batch: int = 500,
            should_stop: Callable[[], bool] = lambda: False) -> Pending:
        """Derive everything pending, batch by batch; ``on_progress(step, done, total)`` after each batch."""
        start = self.pending()
        done = 0
        while not should_stop():
            with self.engine.begin() as conn:
                n = chunk_store.derive_missing(conn, batch=batch)
            if not n:
                break
            done += n
            if on_progress:
                on_progress("bm25", done, start.chunks_without_bm25)
        done = 0
        while self.graph is not None and not should_stop():
            with self.engine.connect() as conn:
                ids = walk_store.documents_without_walk_graph(conn, limit=50)
            if not ids:
                break
            for doc_id in ids:
                self.graph.derive_walk_graph(doc_id)
                done += 1
                if on_progress:
                    on_progress("walk graph", done, start.documents_without_walk_graph)
        return self.pending()
