"""The stages one document goes through: parse → validate → dedup → chunk → embed → write → graph.

Each stage either hands its result to the next or stops the document with an
:class:`Outcome` (raised as :class:`Stop`): a refusal, a duplicate, a failure.
The pipeline (:mod:`services.ingest.pipeline`) records every outcome in one
place. Each stage reports what it is doing on the item's live entry, and adds
its time to the job's ``seconds_<stage>`` counters (where ingestion time goes).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from services.collections import Collection
from services.documents import Chunk, DocumentService, NewDocument, WriteCancelled, content_hash, write_document
from services.errors import UnsupportedInput, ValidationFailed, WorkbenchError
from services.ingest.budget import ParseCancelled, parse_budget
from services.ingest.chunking import chunk_text
from services.ingest.parsing import ParsedText
from services.ingest.reader_extras import blank_pages_note, chunk_metadata, tidy
from services.ingest.sources import SourceItem
from services.ingest.text_hygiene import clean_value
from services.jobs import JobReporter
from services.metadata_schema import validate_metadata
from services.settings import Settings
from services.stores.embeddings import TextEmbedder

if TYPE_CHECKING:
    from services.graph.service import GraphService
    from services.stores.llm import LLMClient

log = logging.getLogger(__name__)
Mode = Literal["ingest", "reingest"]
# Chunks embedded between two looks at the job's Cancel: 16 local embeddings take about 0.6 s of CPU
# (the model runs 4 texts per call whatever the step, so the step costs no speed).
EMBED_CANCEL_STEP = 16


def parse_mode(value: str) -> Mode:
    """An ingest mode from a front end's text: 'ingest' (skip duplicates) or 'reingest' (replace by title)."""
    if value == "ingest":
        return "ingest"
    if value == "reingest":
        return "reingest"
    raise ValidationFailed(f"mode must be 'ingest' or 'reingest', not {value!r}.")


@dataclass
class Outcome:
    """How one item ended: ingested, replaced, unchanged, repaired, skipped, failed or cancelled."""

    status: str
    reason: str = ""
    document_id: int | None = None
    details: dict[str, Any] = field(default_factory=dict)  # chunks, graph facts...


class Stop(Exception):
    """Raised by a stage to end an item early with ``outcome``."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome


@dataclass
class Prepared:
    """A document that has been parsed, validated, deduplicated, chunked and embedded: ready to write."""

    item: SourceItem
    slot: int  # the item's entry in the job's items
    doc: NewDocument | None  # None: the stored document only needs its graph step again
    action: str  # ingested | replaced | repaired
    note: str = ""  # e.g. why a flowchart picture stayed a picture
    document_id: int | None = None


@dataclass
class _Plan:
    """What dedup decided: a new document, a replacement of ``replace_id``, or a graph repair of ``repair_id``."""

    replace_id: int | None = None
    repair_id: int | None = None


def embedding_input(title: str, chunk: Chunk) -> str:
    """What is embedded for a chunk: its document's title and heading path give it context."""
    return f"{title}\n{' > '.join(chunk.heading_path)}\n{chunk.text}"


@dataclass
class DocumentStages:
    settings: Settings
    engine: Engine
    embedder: TextEmbedder
    documents: DocumentService
    graph: GraphService | None = None
    llm: LLMClient | None = None  # reads flowchart pictures when configured

    # -- before the write (the preparing thread) ---------------------------------------------
    def prepare(self, item: SourceItem, slot: int, coll: Collection, mode: Mode, reporter: JobReporter) -> Prepared:
        """Run the stages up to the write; raises :class:`Stop` when the item ends early."""
        if item.skip_reason:
            raise Stop(Outcome("skipped", item.skip_reason))
        clock = time.perf_counter()
        parsed = tidy(self.parse(item, slot, reporter))
        metadata = self.validate(item, coll, parsed)
        text = parsed.text
        plan = self.dedup(item, coll, mode, text)
        if plan.repair_id is not None:
            return Prepared(item, slot, None, "repaired", document_id=plan.repair_id)
        clock = _lap(reporter, "parse", clock)
        chunks = chunk_text(text, size=self.settings.chunk_size, overlap=self.settings.chunk_overlap)
        reporter.add(chunks_total=len(chunks))
        reporter.update_item(slot, chunks_total=len(chunks))
        clock = _lap(reporter, "chunk", clock)
        embeddings = self.embed(item, chunks, slot, reporter)
        _lap(reporter, "embed", clock)
        diagrams, chunk_meta = chunk_metadata(parsed.extra, chunks)
        notes = [n for n in self._read_pictures(diagrams) if n]
        warnings = parsed.extra.get("warnings")
        notes += [f"Read without a damaged part: {w}." for w in warnings] if isinstance(warnings, list) else []
        notes += [blank_pages_note(parsed.extra)]
        notes = [n for n in notes if n]
        doc = NewDocument(coll.id, item.title, item.source, item.source_type, text, metadata, chunks, embeddings,
                          plan.replace_id, graph_status="pending" if self.graph is not None else "disabled",
                          chunk_metadata=chunk_meta, diagrams=diagrams)
        return Prepared(item, slot, doc, "replaced" if plan.replace_id else "ingested", "; ".join(notes))

    def parse(self, item: SourceItem, slot: int, reporter: JobReporter) -> ParsedText:
        """The item's text; an unreadable, empty or refused file fails with the reader's reason.

        The reason leaves out the file's name (the item's title already names it). The
        reader polls the job's Cancel and keeps to the parse_seconds budget.
        """
        reporter.update_item(slot, status="parsing")
        reporter.flush()  # a long read shows as such (the reader itself reports nothing until it ends)
        try:
            def ocr_progress(done: int, total: int) -> None:
                reporter.update_item(slot, status="ocr", ocr_pages_done=done, ocr_pages_total=total)

            with parse_budget(self.settings.parse_seconds, cancelled=reporter.cancelled, progress=ocr_progress):
                return item.load()
        except UnsupportedInput as exc:
            raise Stop(Outcome("failed", exc.reason)) from None
        except ParseCancelled:
            raise Stop(Outcome("cancelled", "The job was cancelled while this file was being read.")) from None

    def validate(self, item: SourceItem, coll: Collection, parsed: ParsedText) -> dict[str, Any]:
        """The item's metadata checked (and typed) against the collection's schema."""
        try:
            metadata = validate_metadata(coll.metadata_schema, item.metadata)  # a user's NUL is refused, not cleaned
        except ValidationFailed as exc:
            raise Stop(Outcome("failed", str(exc))) from None
        if parsed.title_hint and "title" not in metadata:
            metadata = {**metadata, "source_title": parsed.title_hint}
        author = clean_value(parsed.extra.get("author"))
        if isinstance(author, str) and author and "author" not in metadata:
            metadata = {**metadata, "source_author": author}
        return metadata

    def dedup(self, item: SourceItem, coll: Collection, mode: Mode, text: str) -> _Plan:
        """Compare with what the collection holds under the same title or the same content."""
        digest = content_hash(text)
        with self.engine.connect() as conn:
            found = self.documents.find_in_collection(conn, coll.id, title=item.title, hash_=digest)
        by_title, by_hash = found["by_title"], found["by_hash"]
        if by_hash is not None and (by_title is None or by_hash.document_id != by_title.document_id):
            raise Stop(Outcome("skipped", f"Identical content is already in this collection as {by_hash.title!r}."))
        if by_title is None:
            return _Plan()
        unfinished_graph = by_title.content_hash == digest and by_title.graph_status == "failed"
        if mode == "ingest" and not unfinished_graph:
            raise Stop(Outcome("skipped", f"A document titled {item.title!r} is already in this collection; "
                                          "use mode 'reingest' to replace it."))
        if unfinished_graph and self.graph is not None:
            return _Plan(repair_id=by_title.document_id)
        if by_title.content_hash == digest:
            raise Stop(Outcome("unchanged", "Same content as the stored version.", by_title.document_id))
        return _Plan(replace_id=by_title.document_id)

    def embed(self, item: SourceItem, chunks: list[Chunk], slot: int, reporter: JobReporter) -> np.ndarray:
        """Embed the chunks in the embedder's batches, counting each batch on the job and the item."""
        reporter.update_item(slot, status="embedding", chunks_embedded=0)
        inputs = [embedding_input(item.title, c) for c in chunks]
        vectors, done = [], 0
        step = min(self.embedder.batch_size, EMBED_CANCEL_STEP)  # Cancel is checked between steps
        for start in range(0, len(inputs), step):
            if start and reporter.cancelled():
                raise Stop(Outcome("cancelled", "The job was cancelled while this file was being embedded."))
            batch = inputs[start : start + step]
            vectors.append(self.embedder.embed_texts(batch, background=True))
            done += len(batch)
            reporter.add(chunks_embedded=len(batch))
            reporter.update_item(slot, chunks_embedded=done)
        return np.vstack(vectors) if vectors else np.zeros((0, self.embedder.dim), dtype=np.float32)

    def _read_pictures(self, diagrams: list[Any]) -> list[str | None]:
        """With a vision-capable LLM configured, turn flowchart pictures into graphs."""
        if self.llm is None:
            return []
        from services.ingest.vision import read_picture

        return [read_picture(d, self.llm) for d in diagrams if d.representation == "image"]

    # -- the write (the writer thread) ---------------------------------------------------------
    def write(self, prepared: Prepared, reporter: JobReporter) -> Outcome:
        """Store the document in one transaction, then run its graph step; the item's outcome."""
        doc = prepared.doc
        try:
            if doc is None:  # repair: the chunks are stored, the graph step failed or was interrupted
                doc_id, chunks = int(prepared.document_id or 0), 0
            else:
                reporter.update_item(prepared.slot, status="writing")
                clock = time.perf_counter()
                with self.engine.begin() as conn:
                    doc_id = write_document(conn, doc, cancelled=reporter.cancelled)
                _lap(reporter, "postgres_write", clock)
                chunks = len(doc.chunks)
                reporter.add(chunks_written=chunks)
            graph = self.graph_step(doc_id, prepared.slot, reporter)
        except WriteCancelled:  # the transaction rolled back: nothing of this document was kept
            return Outcome("cancelled", "The job was cancelled while this file was being stored; nothing of it was kept.")
        except IntegrityError as exc:
            constraint = getattr(getattr(exc.orig, "diag", None), "constraint_name", "") or ""
            if constraint.startswith("collection_documents"):
                return Outcome("skipped", "Another ingest stored the same title or content in this collection first.")
            log.exception("writing %s failed", prepared.item.title)
            return Outcome("failed", f"Could not be stored: {exc.orig}".strip()[:500])
        except WorkbenchError as exc:
            return Outcome("failed", str(exc))
        except Exception as exc:
            log.exception("writing %s failed", prepared.item.title)
            return Outcome("failed", f"Could not be stored: {exc.__class__.__name__}: {exc}")
        if graph.pop("cancelled", False):
            return Outcome("cancelled", "Stored and searchable, but the job was cancelled before its graph step "
                                        "finished (no facts stored); ingest the file again to finish it.",
                           doc_id, {"chunks": chunks, **graph})
        reason = "; ".join(r for r in (prepared.note, graph.pop("error", "")) if r)
        if doc is None and not reason:
            reason = "Already stored; its unfinished graph step was completed."
        return Outcome(prepared.action, reason, doc_id, {"chunks": chunks, **graph})

    def graph_step(self, doc_id: int, slot: int, reporter: JobReporter) -> dict[str, Any]:
        """Extract the document's facts; a failure leaves it searchable and marked 'graph failed'."""
        if self.graph is None:
            return {}
        reporter.update_item(slot, status="graph")
        reporter.flush()
        result = self.graph.index_document(doc_id, cancelled=reporter.cancelled)
        if result.status == "cancelled":
            return {"graph": "failed", "cancelled": True}
        if result.status != "done":
            reporter.add(graph_failed=1)
            return {"graph": "failed", "error": f"Searchable, but the graph step failed: {result.error}"}
        reporter.add(graph_facts=result.facts, graph_entities=result.entities)
        reporter.add(seconds_graph_extract=result.extract_seconds, seconds_graph_write=result.write_seconds)
        return {"graph": "done", "facts": result.facts, "entities": result.entities}


def _lap(reporter: JobReporter, stage: str, since: float) -> float:
    """Add the time since ``since`` to the job's ``seconds_<stage>``; returns now."""
    now = time.perf_counter()
    reporter.add(**{f"seconds_{stage}": now - since})
    return now
