"""Data the code derives from what is stored, filled in for rows written before the migration that needs it.

- BM25 (migration 007): chunks stored before it have no full-text vector, so keyword search cannot find them
  until :func:`services.stores.chunk_store.derive_missing` computes it (a trigger then writes their postings).
- The walk graph (migration 008): documents indexed before it have no entity mentions; they are derived from
  the facts the graph store already holds (:meth:`GraphService.derive_walk_graph`), with no extraction.

Each step works in small batches that each commit, so the work can stop at any point (a crash, a Ctrl-C)
and resume where it was: what is done is never redone, and nothing is re-ingested. The web app starts it
as a background job (``upgrade:derive``, with progress in the jobs table) once its first page is drawn;
``rag upgrade`` runs it in the foreground. One runs at a time across processes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import JobInProgress
from services.graph.service import GraphService
from services.jobs import JobReporter, JobService
from services.stores import chunk_store, walk_store

log = logging.getLogger(__name__)
JOB_KIND = "upgrade:derive"


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

    def needed(self) -> bool:
        """Whether anything is pending (cheap: two EXISTS queries)."""
        with self.engine.connect() as conn:
            if conn.execute(sa.text("SELECT EXISTS (SELECT 1 FROM chunks WHERE tsv IS NULL)")).scalar_one():
                return True
            return self.graph is not None and bool(walk_store.documents_without_walk_graph(conn, limit=1))

    def start(self, jobs: JobService) -> int | None:
        """Run :meth:`run` as a background job with progress; None when nothing is pending or another
        process runs it already."""
        if not self.needed():
            return None
        try:
            job_id = jobs.start(kind=JOB_KIND, key=JOB_KIND, collection_id=None, params={"collection": "(all)"})
        except JobInProgress:
            return None
        threading.Thread(target=self._job, args=(jobs, job_id), daemon=True, name="upgrade-derive").start()
        return job_id

    def _job(self, jobs: JobService, job_id: int) -> None:
        reporter = JobReporter(jobs, job_id)

        def progress(step: str, done: int, total: int) -> None:
            reporter.update(step=step, files_done=done, files_total=total)

        try:
            left = self.run(progress, should_stop=reporter.cancelled)
            reporter.flush()
            jobs.finish(job_id, status="done" if left.total == 0 else "cancelled")
        except Exception as exc:  # the job says why; the next start resumes
            log.exception("deriving BM25 and walk-graph data failed")
            jobs.finish(job_id, status="failed", error=f"{exc.__class__.__name__}: {exc}"[:2000])

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
