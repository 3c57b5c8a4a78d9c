"""Ingestion as a recorded job: each item goes through the stages of :mod:`services.ingest.stages`.

The preparing thread runs parse → validate → dedup → chunk → embed for one item
while a writer thread stores the previous one (write → graph), so embedding
overlaps the database write. Each document is written in a single transaction,
so after any crash a document is either complete or absent; re-running the
same ingest then completes the set without duplicates.

Every item has a live entry in the job (queued, parsing, embedding n/m chunks,
writing, graph, then its outcome with a reason), and :meth:`IngestionService._finish`
is the one place an outcome is recorded. The job ends ``done``, ``partial`` (some
items failed, others were stored), ``failed`` (items failed and none was stored),
``cancelled``, or ``failed`` with an error when the job itself broke.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from services.collections import Collection, CollectionService
from services.documents import DocumentService
from services.errors import ValidationFailed
from services.ingest.sources import SourceItem
from services.ingest.stages import DocumentStages, Mode, Outcome, Prepared, Stop
from services.jobs import JobReporter, JobService, outcome_status, request_key
from services.settings import Settings
from services.stores.embeddings import TextEmbedder

if TYPE_CHECKING:
    from services.graph.service import GraphService
    from services.stores.llm import LLMClient

log = logging.getLogger(__name__)
ITEM_OUTCOMES = ("ingested", "replaced", "unchanged", "repaired", "skipped", "failed")
_COUNTED = {*ITEM_OUTCOMES, "cancelled"}
ProgressCallback = Callable[[dict[str, Any]], None]


@dataclass
class IngestRequest:
    collection: str
    kind: str  # text | files | directory
    mode: Mode
    items: list[SourceItem]
    key_parts: dict[str, Any] = field(default_factory=dict)


@dataclass
class IngestResult:
    job_id: int
    status: str  # done | partial | failed | cancelled
    progress: dict[str, Any]
    items: list[dict[str, Any]]
    error: str | None = None  # the job itself broke (a bug), not an item

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item["status"] == status)

    def summary(self) -> str:
        """One line: the job, its status, items per outcome, chunks and graph facts."""
        counts = ", ".join(f"{self.count(c)} {c}" for c in ITEM_OUTCOMES)
        facts = self.progress.get("graph_facts")
        graph = f"; graph: {facts} facts" if facts else ""
        return f"Job {self.job_id} {self.status}: {counts}; {self.progress.get('chunks_written', 0)} chunks{graph}."


class IngestionService:
    def __init__(
        self, *, settings: Settings, embedder: TextEmbedder, collections: CollectionService,
        documents: DocumentService, jobs: JobService, graph: GraphService | None = None,
        llm: LLMClient | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.collections = collections
        self.documents = documents
        self.jobs = jobs
        self.engine = collections.engine
        self.stages = DocumentStages(settings=settings, engine=self.engine, embedder=embedder, documents=documents,
                                     graph=graph, llm=llm)

    @property
    def graph(self) -> GraphService | None:
        """The graph service the graph stage writes to; None when the graph is off."""
        return self.stages.graph

    @graph.setter
    def graph(self, graph: GraphService | None) -> None:
        self.stages.graph = graph

    # -- entry points -------------------------------------------------------------------
    def start(self, request: IngestRequest) -> tuple[int, Collection]:
        """Check the request and record its job; raises if the same request already runs."""
        if request.mode not in ("ingest", "reingest"):
            raise ValidationFailed("mode must be 'ingest' or 'reingest'.")
        if not request.items:
            raise ValidationFailed("Nothing to ingest: no files matched.")
        coll = self.collections.get(request.collection)
        self.collections.check_model(coll)
        key = request_key(request.kind, coll.id, mode=request.mode, **request.key_parts)
        params = {"collection": coll.name, "mode": request.mode, "kind": request.kind,
                  "files": len(request.items), **{k: v for k, v in request.key_parts.items() if k != "hashes"}}
        job_id = self.jobs.start(kind=f"ingest:{request.kind}", key=key, collection_id=coll.id, params=params)
        return job_id, coll

    def run(self, request: IngestRequest, on_progress: Callable[[dict[str, Any]], None] | None = None) -> IngestResult:
        """Ingest synchronously (CLI, tests); returns when the job has finished."""
        job_id, coll = self.start(request)
        return self.execute(job_id, coll, request, on_progress)

    def submit(self, request: IngestRequest) -> int:
        """Ingest in a background thread (the UI polls the job); returns the job id at once."""
        job_id, coll = self.start(request)
        thread = threading.Thread(
            target=self.execute, args=(job_id, coll, request), name=f"ingest-job-{job_id}", daemon=True
        )
        thread.start()
        return job_id

    def submit_graph_rebuild(self, collection: str, document_ids: list[int] | None = None, *,
                             wait: bool = False) -> int:
        """Re-extract the graph for some documents, or every document of a collection, as a job."""
        if self.graph is None:
            raise ValidationFailed("The knowledge graph is turned off (graph_enabled = false).")
        coll = self.collections.get(collection)
        held = self.documents.ids(coll.id)
        if document_ids is None:
            document_ids = held
        outside = sorted(set(document_ids) - set(held))
        if outside:
            raise ValidationFailed(f"Collection {coll.name!r} has no document with id {', '.join(map(str, outside))}.")
        if not document_ids:
            raise ValidationFailed(f"Collection {coll.name!r} has no documents.")
        key = request_key("graph-rebuild", coll.id, documents=sorted(document_ids))
        job_id = self.jobs.start(kind="graph:rebuild", key=key, collection_id=coll.id,
                                 params={"collection": coll.name, "documents": len(document_ids)})
        if wait:
            self._rebuild(job_id, document_ids)
        else:
            threading.Thread(target=self._rebuild, args=(job_id, document_ids), daemon=True,
                             name=f"graph-rebuild-{job_id}").start()
        return job_id

    def _rebuild(self, job_id: int, document_ids: list[int]) -> None:
        reporter = JobReporter(self.jobs, job_id)
        reporter.update(files_total=len(document_ids), files_done=0, graph_facts=0, graph_entities=0, graph_failed=0)
        status, error = "", None
        graph = self.graph
        assert graph is not None  # submit_graph_rebuild refuses when the graph is off
        try:
            for doc_id in document_ids:
                if reporter.cancelled():
                    status = "cancelled"
                    break
                result = graph.index_document(doc_id, cancelled=reporter.cancelled)
                if result.status == "cancelled":
                    status = "cancelled"
                    break
                if result.status == "done":
                    reporter.add(files_done=1, graph_facts=result.facts, graph_entities=result.entities, ingested=1)
                else:
                    reporter.add(files_done=1, graph_failed=1, failed=1)
                    reporter.item(title=str(doc_id), source="graph", status="failed", reason=result.error or "")
        except Exception as exc:
            log.exception("graph rebuild job %s crashed", job_id)
            status, error = "failed", f"Unexpected error: {exc.__class__.__name__}: {exc}"
        finally:
            failed, done = reporter.progress.get("failed", 0), reporter.progress.get("ingested", 0)
            status = status or ("done" if not failed else "partial" if done else "failed")
            reporter.flush()
            self.jobs.finish(job_id, status=status, error=error)

    # -- the pipeline -------------------------------------------------------------------
    def execute(self, job_id: int, coll: Collection, request: IngestRequest,
                on_progress: ProgressCallback | None = None) -> IngestResult:
        reporter = JobReporter(self.jobs, job_id)
        reporter.update(files_total=len(request.items), files_done=0, chunks_total=0, chunks_embedded=0,
                        chunks_written=0, ingested=0, replaced=0, unchanged=0, repaired=0, skipped=0, failed=0,
                        graph_facts=0, graph_entities=0, graph_failed=0)
        slots = [reporter.item(title=i.title, source=i.source, status="queued", reason="") for i in request.items]
        pending: queue.Queue[Prepared | None] = queue.Queue(maxsize=2)
        writer = threading.Thread(target=self._writer, args=(pending, reporter, on_progress), daemon=True)
        writer.start()
        status, error = "", None
        try:
            for slot, item in zip(slots, request.items):
                if reporter.cancelled():
                    status = "cancelled"
                    break
                prepared = self._prepare(item, slot, coll, request.mode, reporter)
                if prepared is not None:
                    pending.put(prepared)
                elif on_progress:
                    on_progress(dict(reporter.progress))
        except Exception as exc:  # an unexpected bug: record it rather than leave the job "running"
            log.exception("ingest job %s crashed", job_id)
            status, error = "failed", f"Unexpected error: {exc.__class__.__name__}: {exc}"
        finally:
            pending.put(None)
            writer.join()
            for slot in slots:  # never reached: cancelled, or the job broke first
                if reporter.items[slot]["status"] == "queued":
                    reporter.update_item(slot, status="cancelled", reason="Not reached: the job stopped first.")
            if any(i["status"] == "cancelled" for i in reporter.items) and not status:
                status = "cancelled"
            status = status or outcome_status(reporter.items)
            reporter.flush()
            self.jobs.finish(job_id, status=status, error=error)
        return IngestResult(job_id, status, dict(reporter.progress), list(reporter.items), error)

    def _prepare(self, item: SourceItem, slot: int, coll: Collection, mode: Mode, reporter: JobReporter,
                 *, inline: bool = False) -> Prepared | None:
        """Prepare one item for the writer; None when it ended before the write (its outcome is recorded)."""
        started = time.monotonic()
        reporter.update_item(slot, started_at=time.time())
        try:
            return self.stages.prepare(item, slot, coll, mode, reporter)
        except Stop as stop:
            self._finish(reporter, slot, stop.outcome, started, one_file=not inline)
            return None

    def _writer(self, pending: queue.Queue[Prepared | None], reporter: JobReporter,
                on_progress: ProgressCallback | None) -> None:
        while (prepared := pending.get()) is not None:
            started = time.monotonic()
            if reporter.cancelled():  # prepared, but not stored: Cancel must not wait for the queue's writes
                outcome = Outcome("cancelled", "The job was cancelled before this file was stored.")
            else:
                outcome = self.stages.write(prepared, reporter)
            self._finish(reporter, prepared.slot, outcome, started)
            if on_progress:
                on_progress(dict(reporter.progress))

    @staticmethod
    def _finish(reporter: JobReporter, slot: int, outcome: Outcome, started: float, *, one_file: bool = True) -> None:
        """The one place an item's outcome is recorded: its entry, and the job's counters. Its seconds run from
        when the file started (``started_at``, which the live table counts from), not from ``started``, the
        last stage's start: a stored file's time must not shrink to its write."""
        began = reporter.items[slot].get("started_at")
        seconds = time.time() - float(began) if began else time.monotonic() - started
        reporter.update_item(slot, status=outcome.status, reason=outcome.reason, document_id=outcome.document_id,
                             seconds=round(max(0.0, seconds), 3), **outcome.details)
        counter = outcome.status if outcome.status in _COUNTED else "skipped"
        reporter.add(**{counter: 1}, **({"files_done": 1} if one_file else {}))

    def ingest_item(self, item: SourceItem, coll: Collection, mode: Mode, reporter: JobReporter) -> dict[str, Any]:
        """Prepare and store one item synchronously within a caller's job (the web crawler's path).

        Returns the item's entry (status, reason, document_id...) as recorded in ``reporter.items``.
        """
        slot = reporter.item(title=item.title, source=item.source, status="queued", reason="")
        started = time.monotonic()
        prepared = self._prepare(item, slot, coll, mode, reporter, inline=True)
        if prepared is not None:  # the crawler counts its pages itself
            self._finish(reporter, slot, self.stages.write(prepared, reporter), started, one_file=False)
        return dict(reporter.items[slot])
