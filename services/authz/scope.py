"""One principal's view of the services: every operation checks its right here first, for the app, the CLI
and the MCP server alike, and a refused one raises :class:`Forbidden` before anything is read or changed.

A user reads only the collections they hold a role in (or, anonymous, those open to visitors): listings,
search, Ask (its retrieval, graph walk and facts run on those collections only), graph reads, timelines,
documents by id, graph and backup exports. Writes need the editor role, deleting a collection and granting
access the owner role; restores and whole-store exports an admin. Conversations and memory facts are the
principal's own. Writes are recorded in the audit log. Roles are read from the database at each call,
nothing is cached between principals.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from services.authz.principal import Need, Principal, role_allows
from services.authz.service import AccessService
from services.errors import Forbidden, NotFound

if TYPE_CHECKING:
    from services.backup.format import BackupResult, RestoreResult
    from services.collections import Collection, CollectionService
    from services.container import Services
    from services.documents import DocumentSummary, DocumentView
    from services.graph.diagrams import DiagramView
    from services.graph.edit_log import GraphEdit
    from services.ingest.pipeline import IngestRequest
    from services.retrieval.ask import AskResult
    from services.retrieval.conversations import ConversationService
    from services.retrieval.memory import MemoryService
    from services.retrieval.search import SearchResponse

GRAPH_EDITS = frozenset({"merge", "rename", "retype", "split", "delete_entity", "delete_fact", "add_fact", "undo",
                         "decide", "import_json"})


class Scope:
    def __init__(self, services: Services, access: AccessService, who: Principal) -> None:
        self.services, self.access, self.who = services, access, who

    # -- checks ----------------------------------------------------------------------------------------
    def collection(self, name: str, need: Need = "viewer", what: str = "read") -> Collection:
        """The named collection when ``who`` holds ``need`` in it; one refusal for "absent" and "not yours"
        (a user learns nothing of collections they may not read)."""
        try:
            coll = self.services.collections.get(name)
        except NotFound:
            if self.who.unrestricted:
                raise
            coll = None
        role = self.access.role(self.who, coll.id) if coll is not None else None
        if coll is None or role is None:
            raise Forbidden(f"{self.who.name} may not {what} {name!r}: no such collection, or not one they may read.")
        if not role_allows(role, need):
            raise Forbidden(f"{self.who.name} may not {what} {name!r}: it needs the {need} role (they are {role}).")
        return coll

    def readable(self, names: list[str] | None) -> list[str] | None:
        """The collections a multi-collection read runs on: the named ones (each checked) or every readable
        one; None (every collection) only for the operator and admins."""
        if names:
            return [self.collection(n).name for n in names]
        ids = self.access.readable_ids(self.who)
        if ids is None:
            return None
        found = [c.name for c in self.services.collections.list() if c.id in ids]
        if not found:
            raise Forbidden(f"{self.who.name} may read no collection.")
        return found

    def _document(self, document_id: int, need: Need, what: str) -> DocumentSummary:
        """A document's summary when ``who`` may read it (any of its collections) and, for a write, holds
        ``need`` in every collection it belongs to (deleting it takes it from each)."""
        summary = self.services.documents.summaries([document_id]).get(document_id)
        roles = self.access.roles(self.who)
        if summary is None or roles is None:
            if summary is None:
                raise (NotFound if self.who.unrestricted else Forbidden)(f"No document {document_id} you may read.")
            return summary
        by_name = {c.name: roles.get(c.id) for c in self.services.collections.list() if c.name in summary.collections}
        if not any(by_name.values()):
            raise Forbidden(f"No document {document_id} you may read.")
        if need != "viewer" and not all(role_allows(r, need) for r in by_name.values()):
            raise Forbidden(f"{self.who.name} may not {what} document {document_id}: it needs the {need} role "
                            "in every collection that holds it.")
        return dataclasses.replace(summary, collections=[n for n, r in by_name.items() if r])

    def _audit(self, action: str, target: str, **detail: Any) -> None:
        self.access.record(self.who, action, target, detail)

    # -- collections -----------------------------------------------------------------------------------
    def collections(self) -> list[Collection]:
        ids = self.access.readable_ids(self.who)
        return [c for c in self.services.collections.list() if ids is None or c.id in ids]

    def my_role(self, collection: str) -> str | None:
        try:
            return self.access.role(self.who, self.services.collections.get(collection).id)
        except NotFound:
            return None

    def create_collection(self, *, name: str, description: str, metadata_schema: Any = None) -> Collection:
        """Any signed-in user may create a collection; they become its owner. Anonymous visitors may not."""
        if self.who.kind == "anonymous":
            raise Forbidden("Anonymous visitors may not create collections.")
        coll = self.services.collections.create(name=name, description=description, metadata_schema=metadata_schema)
        if not self.who.unrestricted:
            self.access.grant(self.who.name, coll.name, "owner", by=Principal.operator())
        self._audit("collection.create", coll.name)
        return coll

    def update_description(self, name: str, description: str) -> Collection:
        self.collection(name, "editor", "edit")
        coll = self.services.collections.update_description(name, description)
        self._audit("collection.edit", name)
        return coll

    def delete_collection(self, name: str) -> int:
        self.collection(name, "owner", "delete")
        gone = self.services.deletion.delete_collection(name)
        self._audit("collection.delete", name, documents=gone)
        return gone

    def grant(self, user: str, collection: str, role: str) -> None:
        self.access.grant(user, collection, role, by=self.who)

    def revoke(self, user: str, collection: str) -> bool:
        return self.access.revoke(user, collection, by=self.who)

    # -- reads -----------------------------------------------------------------------------------------
    def search(self, query: str, *, collections: list[str] | None = None, **kw: Any) -> SearchResponse:
        return self.services.search.search(query, collections=self.readable(collections), **kw)

    def ask(self, question: str, *, collections: list[str] | None = None, conversation_id: int | None = None,
            **kw: Any) -> AskResult:
        """Ask over readable collections only, in ``who``'s own conversation, with ``who``'s own memory."""
        scope = self.readable(collections)
        if conversation_id is not None:
            self.conversations().get(conversation_id)  # NotFound for another's
        ask = self.services.ask.of(conversations=self.conversations(), memory=self.memory())
        return ask.ask(question, collections=scope, conversation_id=conversation_id, **kw)

    def documents(self, collection: str | None, **kw: Any) -> list[DocumentSummary]:
        """Documents of one collection, or (None) of every readable one; each lists only readable collections.
        (Across collections a user's page may hold fewer than ``limit`` rows: others' are left out.)"""
        cid = self.collection(collection).id if collection else None
        ids = self.access.readable_ids(self.who)
        docs = self.services.documents.list(collection_id=cid, **kw)
        if ids is None:
            return docs
        names = {c.name for c in self.services.collections.list() if c.id in ids}
        return [dataclasses.replace(d, collections=[n for n in d.collections if n in names])
                for d in docs if names.intersection(d.collections)]

    def document(self, document_id: int, *, with_chunks: bool = True) -> DocumentView:
        summary = self._document(document_id, "viewer", "read")
        view = self.services.documents.get(document_id, with_chunks=with_chunks)
        return dataclasses.replace(view, summary=summary)

    def diagram(self, diagram_id: str) -> DiagramView:
        """A flowchart by id when ``who`` may read its document (a ``?diagram=`` link is no way around it)."""
        diagrams = self.services.diagrams
        try:
            if diagrams is None:
                raise NotFound(f"No diagram {diagram_id!r}.")
            view = diagrams.get(diagram_id)
        except NotFound:
            if self.who.unrestricted:
                raise
            raise Forbidden(f"No diagram {diagram_id!r} you may read.") from None
        self._document(view.document_id, "viewer", "read")
        return view

    def relationships(self, entity: str, collections: list[str] | None = None, limit: int = 200) -> dict[str, Any]:
        return self.services.lookup.relationships(entity, self.readable(collections), limit=limit)

    def temporal(self, entity: str, start: str | None, end: str | None, collections: list[str] | None = None,
                 limit: int = 500) -> dict[str, Any]:
        return self.services.lookup.temporal(entity, start, end, self.readable(collections), limit=limit)

    def entities_matching(self, text: str, collection: str, **kw: Any) -> list[Any]:
        """The Graph and Timeline pages' entity search, by name or by meaning, in a collection ``who`` may read."""
        return self.services.lookup.entities_matching(text, self.collection(collection).name, **kw)

    def neighbourhood(self, collection: str, entity: str, **kw: Any) -> Any:
        return self.services.lookup.neighbourhood(self.collection(collection).name, entity, **kw)

    def paths(self, collection: str, a: str, b: str, **kw: Any) -> dict[str, Any]:
        return self.services.lookup.paths(self.collection(collection).name, a, b, **kw)

    def timeline(self, collection: str, entity_key: str, **kw: Any) -> list[Any]:
        """Facts of one entity in one collection over time (the Timeline page's read)."""
        coll = self.collection(collection)
        return self.services.lookup.require_graph().facts_of_entity(entity_key, [coll.id], **kw)

    def graph_export(self, collection: str, fmt: str) -> dict[str, bytes]:
        return self.services.curation.export(self.collection(collection, what="export").name, fmt)

    def edit_history(self, collection: str, limit: int = 100) -> list[GraphEdit]:
        return self.services.curation.history(self.collection(collection).name, limit)

    # -- writes ----------------------------------------------------------------------------------------
    def ingest(self, request: IngestRequest, *, wait: bool = False,
               on_progress: Callable[[dict[str, Any]], None] | None = None) -> Any:
        """Run (``wait``, an IngestResult) or submit (a job id) an ingest: the editor's right in the collection."""
        self.collection(request.collection, "editor", "ingest into")
        self._audit(f"document.{request.mode}", request.collection, kind=request.kind, files=len(request.items))
        if wait:
            return self.services.ingestion.run(request, on_progress)
        return self.services.ingestion.submit(request)

    def rebuild_graph(self, collection: str, document_ids: list[int] | None = None, *, wait: bool = False) -> int:
        self.collection(collection, "editor", "rebuild the graph of")  # the ids must be in it (the service checks)
        self._audit("graph.rebuild", collection, documents=document_ids)
        return self.services.ingestion.submit_graph_rebuild(collection, document_ids, wait=wait)

    def editing(self, collection: str, what: str = "collection.edit") -> CollectionService:
        """The collection service, once ``who`` is found an editor of ``collection`` (description and schema
        changes); the change is recorded in the audit log."""
        self.collection(collection, "editor", "edit")
        self._audit(what, collection)
        return self.services.collections

    def link(self, document_id: int, collection: str) -> Collection:
        self._document(document_id, "viewer", "read")
        self.collection(collection, "editor", "add documents to")
        coll = self.services.collections.link(document_id, collection)
        self._audit("document.link", collection, document_id=document_id)
        return coll

    def crawl(self, request: Any, *, wait: bool = True) -> Any:
        """A web ingest (services.web.crawl.CrawlRequest) into a collection ``who`` edits: run to its end
        (``wait``) or submitted as a background job (its id)."""
        self.collection(request.collection, "editor", "ingest into")
        self._audit("document.crawl", request.collection, url=request.url, mode=request.mode)
        return self.services.crawler.run(request) if wait else self.services.crawler.submit(request)

    def resume_crawl(self, crawl_id: int, *, wait: bool = True) -> Any:
        with self.services.engine.connect() as conn:
            name = conn.execute(sa.text("SELECT c.name FROM crawls cr JOIN collections c ON c.id = cr.collection_id "
                                        "WHERE cr.id = :id"), {"id": crawl_id}).scalar_one_or_none()
        if name is None and not self.who.unrestricted:
            raise Forbidden(f"No crawl {crawl_id} you may resume.")
        if name is not None:
            self.collection(name, "editor", "ingest into")
            self._audit("document.crawl", name, crawl_id=crawl_id)
        if wait:
            return self.services.crawler.resume(crawl_id)
        return self.services.crawler.submit_resume(crawl_id)

    def curation(self) -> ScopedCuration:
        return ScopedCuration(self)

    def update_metadata(self, document_id: int, changes: dict[str, Any], **kw: Any) -> DocumentSummary:
        self._document(document_id, "editor", "edit")
        out = self.services.documents.update_metadata(document_id, changes, **kw)
        self._audit("document.metadata", str(document_id), keys=sorted(changes))
        return out

    def delete_document(self, document_id: int) -> None:
        summary = self._document(document_id, "editor", "delete")
        self.services.deletion.delete_document(document_id)
        self._audit("document.delete", str(document_id), title=summary.title)

    def graph_edit(self, kind: str, collection: str, *args: Any, **kw: Any) -> Any:
        """One of the curation edits (:data:`GRAPH_EDITS`), as ``who``: the editor's right."""
        if kind not in GRAPH_EDITS:
            raise ValueError(f"not a graph edit: {kind}")
        self.collection(collection, "editor", "edit the graph of")
        if kind != "import_json" and (self.who.kind != "operator" or "author" not in kw):
            kw["author"] = self.who.name  # a user's edits carry their name, whatever author they give
        out = getattr(self.services.curation, kind)(collection, *args, **kw)
        self._audit(f"graph.{kind}", collection, args=[str(a)[:200] for a in args])
        return out

    # -- backups ---------------------------------------------------------------------------------------
    def export(self, collection: str | None, out: str | Path | None = None, *,
               all_collections: bool = False) -> BackupResult:
        if all_collections or collection is None:
            self.access.require_admin(self.who, "back up every collection")
        else:
            self.collection(collection, what="back up")
        result = self.services.backup.export(collection, out, all_collections=all_collections)
        self._audit("backup", collection or "(all)")
        return result

    def restore(self, archive: str | Path, *, into_name: str | None = None) -> RestoreResult:
        self.access.require_admin(self.who, "restore a backup")
        result = self.services.backup.restore(archive, into_name=into_name)
        self._audit("restore", into_name or str(archive))
        return result

    # -- personal --------------------------------------------------------------------------------------
    def conversations(self) -> ConversationService:
        return self.services.conversations.of(self.who.owner_key)

    def memory(self) -> MemoryService:
        return self.services.memory.of(self.who.owner_key)


class ScopedCuration:
    """The curation service's methods as ``scope.who`` may call them: edits need the editor role (and are
    audited), reads (suggestions, history, export) the viewer role."""

    READS = frozenset({"suggestions", "history", "export"})

    def __init__(self, scope: Scope) -> None:
        self._scope = scope

    def __getattr__(self, name: str) -> Callable[..., Any]:
        scope = self._scope
        if name in GRAPH_EDITS:
            return lambda collection, *args, **kw: scope.graph_edit(name, collection, *args, **kw)
        if name == "merge_keys":  # the Graph page merges by collection id
            def merge_keys(collection_id: int, keys: list[str], **kw: Any) -> Any:
                coll = scope.services.collections.get(collection_id)
                scope.collection(coll.name, "editor", "edit the graph of")
                kw["author"] = scope.who.name
                scope._audit("graph.merge", coll.name, args=keys[:20])
                return scope.services.curation.merge_keys(collection_id, keys, **kw)
            return merge_keys
        if name in self.READS:
            def read(collection: str, *args: Any, **kw: Any) -> Any:
                scope.collection(collection)
                return getattr(scope.services.curation, name)(collection, *args, **kw)
            return read
        raise AttributeError(name)
