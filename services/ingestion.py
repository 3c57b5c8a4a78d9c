"""Ingestion: parse → chunk → embed → write, as a recorded job with live progress.

Embedding of the next document overlaps the database write of the previous one
(a writer thread behind a small queue). Each document is written in a single
transaction, so after any crash a document is either complete or absent;
re-running the same ingest then completes the set without duplicates.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from sqlalchemy.exc import IntegrityError

from services.chunking import chunk_text
from services.collections import Collection, CollectionService
from services.documents import DocumentService, NewDocument, content_hash, write_document
from services.embeddings import Embedder
from services.errors import NotFound, UnsupportedInput, ValidationFailed, WorkbenchError
from services.jobs import JobReporter, JobService, request_key
from services.metadata_schema import validate_metadata
from services.settings import Settings
from services.sources import SourceItem

log = logging.getLogger(__name__)
Mode = Literal["ingest", "reingest"]


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
    status: str
    progress: dict[str, Any]
    items: list[dict[str, Any]]

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item["status"] == status)


@dataclass
class _Prepared:
    item: SourceItem
    doc: NewDocument | None  # None: the stored document only needs its graph step again
    action: str  # ingested | replaced | repaired
    note: str = ""  # e.g. why a flowchart picture stayed a picture
    document_id: int | None = None


def link_diagrams(extra: dict[str, Any], chunks: list[Any]) -> tuple[list[Any], list[dict[str, Any]]]:
    """Tag the chunks that overlap text linked to a diagram with the diagram's index.

    The indexes become diagram ids (``dgm-<document id>-<index>``) when the document
    is written and its id is known (see ``write_document``).
    """
    diagrams = list(extra.get("diagrams") or [])
    known = {d.index for d in diagrams}
    meta: list[dict[str, Any]] = []
    for chunk in chunks:
        found = [n for s, e, n in extra.get("diagram_spans") or []
                 if n in known and s < chunk.char_end and e > chunk.char_start]
        meta.append({"diagram_indexes": list(dict.fromkeys(found))} if found else {})
    return diagrams, meta


def _lap(reporter: JobReporter, stage: str, since: float) -> float:
    """Add the time since ``since`` to the job's ``seconds_<stage>`` (where ingestion time goes); now."""
    now = time.perf_counter()
    reporter.add(**{f"seconds_{stage}": now - since})
    return now


class IngestionService:
    def __init__(
        self, *, settings: Settings, embedder: Embedder, collections: CollectionService,
        documents: DocumentService, jobs: JobService, graph: Any | None = None, llm: Any | None = None,
    ) -> None:
        self.llm = llm  # services.llm.LLMClient: reads flowchart pictures when configured
        self.graph = graph  # services.graph.GraphService, or None when the graph is off
        self.settings = settings
        self.embedder = embedder
        self.collections = collections
        self.documents = documents
        self.jobs = jobs
        self.engine = collections.engine

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
        if document_ids is None:
            document_ids = self.documents.ids(coll.id)
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
        status, error = "done", None
        try:
            for doc_id in document_ids:
                if reporter.cancelled():
                    status = "cancelled"
                    break
                result = self.graph.index_document(doc_id)  # type: ignore[union-attr]
                if result.status == "done":
                    reporter.add(files_done=1, graph_facts=result.facts, graph_entities=result.entities, ingested=1)
                else:
                    reporter.add(files_done=1, graph_failed=1, failed=1)
                    reporter.item(title=str(doc_id), source="graph", status="failed", reason=result.error or "")
        except Exception as exc:
            log.exception("graph rebuild job %s crashed", job_id)
            status, error = "failed", f"Unexpected error: {exc.__class__.__name__}: {exc}"
        finally:
            reporter.flush()
            self.jobs.finish(job_id, status=status, error=error)

    # -- the pipeline -------------------------------------------------------------------
    def execute(
        self, job_id: int, coll: Collection, request: IngestRequest,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
    ) -> IngestResult:
        reporter = JobReporter(self.jobs, job_id)
        reporter.update(files_total=len(request.items), files_done=0, chunks_total=0, chunks_embedded=0,
                        chunks_written=0, ingested=0, replaced=0, unchanged=0, repaired=0, skipped=0, failed=0,
                        graph_facts=0, graph_entities=0, graph_failed=0)
        pending: queue.Queue[_Prepared | None] = queue.Queue(maxsize=2)
        writer = threading.Thread(target=self._writer, args=(pending, reporter, on_progress), daemon=True)
        writer.start()
        status, error = "done", None
        try:
            for item in request.items:
                if reporter.cancelled():
                    status = "cancelled"
                    break
                prepared = self._prepare(item, coll, request.mode, reporter)
                if prepared is not None:
                    pending.put(prepared)
                else:
                    reporter.add(files_done=1)
                if on_progress:
                    on_progress(dict(reporter.progress))
        except Exception as exc:  # an unexpected bug: record it rather than leave the job "running"
            log.exception("ingest job %s crashed", job_id)
            status, error = "failed", f"Unexpected error: {exc.__class__.__name__}: {exc}"
        finally:
            pending.put(None)
            writer.join()
            reporter.flush()
            self.jobs.finish(job_id, status=status, error=error)
        return IngestResult(job_id, status, dict(reporter.progress), list(reporter.items))

    def _record(self, reporter: JobReporter, item: SourceItem, status: str, reason: str = "", **extra: Any) -> None:
        reporter.item(title=item.title, source=item.source, status=status, reason=reason, **extra)
        counter = status if status in ("ingested", "replaced", "unchanged", "repaired", "failed") else "skipped"
        reporter.add(**{counter: 1})

    def _prepare(self, item: SourceItem, coll: Collection, mode: Mode, reporter: JobReporter) -> _Prepared | None:
        """Parse, validate, dedup-check, chunk and embed one item; None if it was skipped."""
        if item.skip_reason:
            self._record(reporter, item, "skipped", item.skip_reason)
            return None
        clock = time.perf_counter()
        try:
            parsed = item.load()
            metadata = validate_metadata(coll.metadata_schema, item.metadata)
        except UnsupportedInput as exc:
            self._record(reporter, item, "skipped", str(exc))
            return None
        except ValidationFailed as exc:
            self._record(reporter, item, "failed", f"{item.title}: {exc}")
            return None
        text = parsed.text.replace("\x00", "")
        digest = content_hash(text)
        with self.engine.connect() as conn:
            found = self.documents.find_in_collection(conn, coll.id, title=item.title, hash_=digest)
        by_title, by_hash = found["by_title"], found["by_hash"]
        replace_id = None
        if by_hash is not None and (by_title is None or by_hash.document_id != by_title.document_id):
            self._record(reporter, item, "skipped", f"Identical content is already in this collection as {by_hash.title!r}.")
            return None
        if by_title is not None:
            if mode == "ingest" and not (by_title.content_hash == digest and by_title.graph_status == "failed"):
                self._record(reporter, item, "skipped",
                             f"A document titled {item.title!r} is already in this collection; use mode 'reingest' to replace it.")
                return None
            if by_title.content_hash == digest and self.graph is not None and by_title.graph_status == "failed":
                return _Prepared(item, None, "repaired", document_id=by_title.document_id)
            if by_title.content_hash == digest:
                self._record(reporter, item, "unchanged", "Same content as the stored version.", document_id=by_title.document_id)
                return None
            replace_id = by_title.document_id
        clock = _lap(reporter, "parse", clock)
        chunks = chunk_text(text, size=self.settings.chunk_size, overlap=self.settings.chunk_overlap)
        reporter.add(chunks_total=len(chunks))
        clock = _lap(reporter, "chunk", clock)
        inputs = [f"{item.title}\n{' > '.join(c.heading_path)}\n{c.text}" for c in chunks]
        vectors = []
        step = self.embedder.batch_size
        for start in range(0, len(inputs), step):
            vectors.append(self.embedder.embed_texts(inputs[start : start + step], background=True))
            reporter.add(chunks_embedded=len(inputs[start : start + step]))
        embeddings = np.vstack(vectors) if vectors else np.zeros((0, self.embedder.dim), dtype=np.float32)
        _lap(reporter, "embed", clock)
        if parsed.title_hint and "title" not in metadata:
            metadata = {**metadata, "source_title": parsed.title_hint}
        diagrams, chunk_meta = link_diagrams(parsed.extra, chunks)
        notes = [n for n in (self._read_pictures(diagrams)) if n]
        doc = NewDocument(coll.id, item.title, item.source, item.source_type, text, metadata, chunks, embeddings,
                          replace_id, graph_status="pending" if self.graph is not None else "disabled",
                          chunk_metadata=chunk_meta, diagrams=diagrams)
        return _Prepared(item, doc, "replaced" if replace_id else "ingested", "; ".join(notes))

    def _read_pictures(self, diagrams: list[Any]) -> list[str | None]:
        """With a vision-capable LLM configured, turn flowchart pictures into graphs."""
        if self.llm is None:
            return []
        from services.vision_diagrams import read_picture

        return [read_picture(d, self.llm) for d in diagrams if d.representation == "image"]

    def _graph_phase(self, doc_id: int, reporter: JobReporter) -> dict[str, Any]:
        """Extract the document's facts; a failure leaves it searchable and marked 'graph failed'."""
        if self.graph is None:
            return {}
        result = self.graph.index_document(doc_id)
        if result.status != "done":
            reporter.add(graph_failed=1)
            return {"graph": "failed", "error": f"Searchable, but the graph step failed: {result.error}"}
        reporter.add(graph_facts=result.facts, graph_entities=result.entities)
        reporter.add(seconds_graph_extract=result.extract_seconds, seconds_graph_write=result.write_seconds)
        return {"graph": "done", "facts": result.facts, "entities": result.entities}

    def _writer(
        self, pending: queue.Queue[_Prepared | None], reporter: JobReporter,
        on_progress: Callable[[dict[str, Any]], None] | None,
    ) -> None:
        while (prepared := pending.get()) is not None:
            self._write(prepared, reporter)
            reporter.add(files_done=1)
            if on_progress:
                on_progress(dict(reporter.progress))

    def ingest_item(self, item: SourceItem, coll: Collection, mode: Mode, reporter: JobReporter) -> dict[str, Any]:
        """Prepare and store one item synchronously within a caller's job (the web crawler's path).

        Returns the item's record (status, reason, document_id...) as added to ``reporter.items``.
        """
        before = len(reporter.items)
        prepared = self._prepare(item, coll, mode, reporter)
        if prepared is not None:
            self._write(prepared, reporter)
        return reporter.items[before] if len(reporter.items) > before else {"status": "failed", "reason": "not recorded"}

    def _write(self, prepared: _Prepared, reporter: JobReporter) -> None:
        item, doc = prepared.item, prepared.doc
        try:
            if doc is None:  # repair: the chunks are stored, the graph step failed or was interrupted
                doc_id, chunks = int(prepared.document_id or 0), 0
            else:
                clock = time.perf_counter()
                with self.engine.begin() as conn:
                    doc_id = write_document(conn, doc)
                _lap(reporter, "postgres_write", clock)
                chunks = len(doc.chunks)
                reporter.add(chunks_written=chunks)
            graph = self._graph_phase(doc_id, reporter)
            reason = "; ".join(r for r in (prepared.note, graph.get("error", "")) if r)
            if doc is None and not reason:
                reason = "Already stored; its unfinished graph step was completed."
            self._record(reporter, item, prepared.action, reason, document_id=doc_id, chunks=chunks, **graph)
        except IntegrityError as exc:
            constraint = getattr(getattr(exc.orig, "diag", None), "constraint_name", "") or ""
            if constraint.startswith("collection_documents"):
                self._record(reporter, item, "skipped",
                             "Another ingest stored the same title or content in this collection first.")
            else:
                log.exception("writing %s failed", item.title)
                self._record(reporter, item, "failed", f"Could not be stored: {exc.orig}".strip()[:500])
        except (NotFound, WorkbenchError) as exc:
            self._record(reporter, item, "failed", str(exc))
        except Exception as exc:
            log.exception("writing %s failed", item.title)
            self._record(reporter, item, "failed", f"Could not be stored: {exc.__class__.__name__}: {exc}")
