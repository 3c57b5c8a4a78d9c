"""Deleting a document or a collection from both stores, the graph and PostgreSQL: the one place that does it.

Every front end deletes through :class:`DeletionService`: the pages, ``rag`` and the MCP server (through the
access checks of services/authz/scope.py), a re-crawl that finds pages gone, and the LlamaIndex vector store.
The order keeps a failure visible and repairable, never silent and half-written:

1. the documents concerned are marked graph ``failed``, saying the delete has not finished and how to
   finish it, so that a process killed in the middle leaves them marked rather than quietly half-removed;
2. their graph part goes: facts, entities left without facts, diagrams, the walk graph
   (:meth:`GraphService.remove_document` / :meth:`GraphService.remove_collection`);
3. PostgreSQL's part goes in one transaction: the document with its chunks and links, or the collection
   with the documents only it holds (:func:`delete_document_rows`, :func:`delete_collection_rows`).

If step 2 fails, nothing is deleted from PostgreSQL: the documents stay whole and searchable, marked
``failed`` with the cause. Deleting again finishes the job; a graph rebuild (the Ingest page,
``rag graph rebuild``) restores their facts instead. :class:`StoreUnavailable` tells the caller so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from services.collections import CollectionService, delete_collection_rows
from services.document_graph import mark_graph_failed
from services.documents import DocumentService, delete_document_rows
from services.errors import NotFound, StoreUnavailable

if TYPE_CHECKING:
    from services.graph.service import GraphService

log = logging.getLogger(__name__)

UNFINISHED = ("Its delete has not finished{cause}: its facts may be partly gone from the graph, while its text and "
              "chunks are all still stored. Delete it again to finish, or rebuild its graph to keep it.")


class DeletionService:
    """Deletes documents and collections from the graph (when one is configured) and from PostgreSQL."""

    def __init__(self, *, documents: DocumentService, collections: CollectionService,
                 graph: GraphService | None = None) -> None:
        self.documents = documents
        self.collections = collections
        self.graph = graph
        self.engine = documents.engine

    def delete_document(self, document_id: int) -> None:
        """Delete a document from every collection: its facts (and entities left without facts), then its row,
        chunks and links in one transaction. :class:`NotFound` when there is no such document."""
        if not self.documents.summaries([document_id]):
            raise NotFound(f"No document with id {document_id}.")
        graph = self.graph
        if graph is not None:
            self._graph_part(f"document {document_id}", [document_id], lambda: graph.remove_document(document_id))
        with self.engine.begin() as conn:
            if not delete_document_rows(conn, document_id):
                raise NotFound(f"No document with id {document_id}.")

    def delete_collection(self, name: str) -> int:
        """Delete a collection, its graph and the documents only it holds; return how many documents went.

        Documents it shares with another collection stay, marked for a graph rebuild.
        """
        coll = self.collections.get(name)
        graph = self.graph
        if graph is not None:
            self._graph_part(f"collection {coll.name!r}", self.documents.ids(coll.id),
                             lambda: graph.remove_collection(coll.id))
        with self.engine.begin() as conn:
            return delete_collection_rows(conn, coll.id)

    def _graph_part(self, what: str, document_ids: list[int], remove: Callable[[], None]) -> None:
        """Mark the documents, then run ``remove``; on its failure, say why on them and raise StoreUnavailable."""
        with self.engine.begin() as conn:
            mark_graph_failed(conn, document_ids, UNFINISHED.format(cause=""))
        try:
            remove()
        except Exception as exc:
            log.exception("deleting %s from the graph failed", what)
            cause = str(exc) if isinstance(exc, StoreUnavailable) else f"{exc.__class__.__name__}: {exc}"
            try:
                with self.engine.begin() as conn:
                    mark_graph_failed(conn, document_ids, UNFINISHED.format(cause=f" (the graph failed: {cause})"))
            except Exception:  # PostgreSQL is failing too: the first mark stands
                log.exception("could not record why deleting %s stopped", what)
            raise StoreUnavailable(
                f"Could not delete {what} from the graph ({cause}). Nothing was deleted from PostgreSQL: its "
                "documents are kept, searchable, and marked graph 'failed'. Delete it again to finish, or rebuild "
                "its graph to keep it.") from exc
