"""The services container as one principal may use it, with the same attribute and method names the app's
pages already call (``svc.collections.list()``, ``svc.search.search(...)``…): each call goes through the
:class:`~services.authz.scope.Scope`, so a page that forgets a check, or a forged request, is still refused.

Only what is listed here exists on the view; anything else raises AttributeError rather than reaching the
unchecked service. The web app uses it once users exist (components/resources.py).
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

from services.authz.scope import Scope
from services.errors import Forbidden

if TYPE_CHECKING:
    from services.container import Services


class _Part:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def _names(self, collection_ids: list[int], need: str = "viewer") -> list[int]:
        """The ids, each one ``who`` holds ``need`` in; Forbidden otherwise."""
        for cid in collection_ids:
            coll = self.scope.services.collections.get(cid)
            self.scope.collection(coll.name, need)  # type: ignore[arg-type]  # need: a role name
        return collection_ids


class Collections(_Part):
    def list(self) -> Any:
        return self.scope.collections()

    def get(self, name_or_id: str | int, conn: Any = None) -> Any:
        if isinstance(name_or_id, int):
            self._names([name_or_id])
            return self.scope.services.collections.get(name_or_id)
        return self.scope.collection(name_or_id)

    def create(self, *, name: str, description: str, metadata_schema: Any = None) -> Any:
        return self.scope.create_collection(name=name, description=description, metadata_schema=metadata_schema)

    def update_description(self, name: str, description: str) -> Any:
        return self.scope.update_description(name, description)

    def add_schema_fields(self, name: str, fields: Any) -> Any:
        return self.scope.editing(name, "collection.schema").add_schema_fields(name, fields)

    def make_field_optional(self, name: str, field_name: str) -> Any:
        return self.scope.editing(name, "collection.schema").make_field_optional(name, field_name)

    def drop_schema_field(self, name: str, field_name: str) -> Any:
        return self.scope.editing(name, "collection.schema").drop_schema_field(name, field_name)

    def field_usage(self, name: str) -> dict[str, int]:
        return self.scope.services.collections.field_usage(self.scope.collection(name).name)

    def link(self, document_id: int, collection: str) -> Any:
        return self.scope.link(document_id, collection)


class Documents(_Part):
    def list(self, *, collection_id: int | None = None, **kw: Any) -> Any:
        name = self.scope.services.collections.get(self._names([collection_id])[0]).name if collection_id else None
        return self.scope.documents(name, **kw)

    def get(self, document_id: int, *, with_chunks: bool = True) -> Any:
        return self.scope.document(document_id, with_chunks=with_chunks)

    def summaries(self, document_ids: builtins.list[int]) -> dict[int, Any]:
        out = {}
        for doc in document_ids:
            try:
                out[doc] = self.scope.document(doc, with_chunks=False).summary
            except Forbidden:
                continue
        return out

    def graph_status_counts(self, collection_id: int) -> dict[str, int]:
        return self.scope.services.documents.graph_status_counts(self._names([collection_id])[0])

    def update_metadata(self, document_id: int, changes: dict[str, Any], **kw: Any) -> Any:
        return self.scope.update_metadata(document_id, changes, **kw)


class Deletion(_Part):
    """Deleting a document needs the editor role in every collection that holds it; a collection, its owner's."""

    def delete_document(self, document_id: int) -> None:
        self.scope.delete_document(document_id)

    def delete_collection(self, name: str) -> int:
        return self.scope.delete_collection(name)


class Search(_Part):
    def search(self, query: str, *, collections: list[str] | None = None, **kw: Any) -> Any:
        return self.scope.search(query, collections=collections, **kw)


class Ask(_Part):
    def ask(self, question: str, **kw: Any) -> Any:
        return self.scope.ask(question, **kw)


class Ingestion(_Part):
    def submit(self, request: Any) -> int:
        return int(self.scope.ingest(request))

    def submit_graph_rebuild(self, collection: str, document_ids: list[int] | None = None, *, wait: bool = False) -> int:
        return self.scope.rebuild_graph(collection, document_ids, wait=wait)


class Crawler(_Part):
    def run(self, request: Any, **kw: Any) -> Any:
        return self.scope.crawl(request)

    def submit(self, request: Any) -> int:
        return int(self.scope.crawl(request, wait=False))

    def submit_resume(self, crawl_id: int) -> int:
        return int(self.scope.resume_crawl(crawl_id, wait=False))

    def analyze(self, url: str, **kw: Any) -> Any:
        return self.scope.services.crawler.analyze(url, **kw)

    @property
    def state(self) -> CrawlState:
        return CrawlState(self.scope)


class CrawlState(_Part):
    def list(self, *, collection_id: int, limit: int = 10) -> Any:
        return self.scope.services.crawler.state.list(collection_id=self._names([collection_id], "editor")[0],
                                                      limit=limit)


class GraphReads(_Part):
    """The graph reads the pages make, each on collections ``who`` may read."""

    def find_entities(self, text: str, collection_ids: list[int], limit: int = 20) -> Any:
        return self._graph().find_entities(text, self._names(collection_ids), limit)

    def entities_for_chunks(self, chunk_scores: dict[int, float], collection_ids: list[int], limit: int = 20) -> Any:
        return self._graph().entities_for_chunks(chunk_scores, self._names(collection_ids), limit)

    def neighbourhood(self, collection_id: int, key: str, **kw: Any) -> Any:
        return self._graph().neighbourhood(self._names([collection_id])[0], key, **kw)

    def facts_of_entity(self, key: str, collection_ids: list[int], **kw: Any) -> Any:
        return self._graph().facts_of_entity(key, self._names(collection_ids), **kw)

    def facts_between(self, collection_id: int, a: str, b: str, **kw: Any) -> Any:
        return self._graph().facts_between(self._names([collection_id])[0], a, b, **kw)

    def paths(self, collection_id: int, a: str, b: str, **kw: Any) -> Any:
        return self._graph().paths(self._names([collection_id])[0], a, b, **kw)

    def document_frequencies(self, collection_id: int, keys: list[str]) -> Any:
        return self._graph().document_frequencies(self._names([collection_id])[0], keys)

    def counts(self, collection_ids: list[int]) -> Any:
        return self._graph().counts(self._names(collection_ids))

    def relation_types(self, collection_ids: list[int], limit: int = 100) -> Any:
        return self._graph().relation_types(self._names(collection_ids), limit)

    def stamp(self, collection_id: int) -> str:
        """The graph's version (the Graph page's cache key): checked first, so a cached overview of a
        collection is only reached by someone who may read it."""
        return str(self._graph().stamp(self._names([collection_id])[0]))

    def _graph(self) -> Any:
        return self.scope.services.lookup.require_graph()


class Lookup(_Part):
    """The graph questions asked by name that the pages make, on collections ``who`` may read."""

    def entities_matching(self, text: str, collection: str, **kw: Any) -> Any:
        return self.scope.entities_matching(text, collection, **kw)


class Jobs(_Part):
    """Jobs of collections ``who`` may read (and the store-wide ones); cancelling needs the editor role."""

    def recent(self, limit: int = 10) -> Any:
        ids = self.scope.access.readable_ids(self.scope.who)
        return [j for j in self.scope.services.jobs.recent(limit) if ids is None or j.collection_id in ids
                or j.collection_id is None]

    def get(self, job_id: int) -> Any:
        job = self.scope.services.jobs.get(job_id)
        if job.collection_id is not None:
            self._names([job.collection_id])
        return job

    def request_cancel(self, job_id: int) -> None:
        job = self.scope.services.jobs.get(job_id)
        if job.collection_id is not None:
            self._names([job.collection_id], "editor")
        self.scope.services.jobs.request_cancel(job_id)


class Diagrams(_Part):
    def get(self, diagram_id: str) -> Any:
        return self.scope.diagram(diagram_id)


class ScopedServices:
    """What the pages see of :class:`~services.container.Services` for one principal."""

    def __init__(self, services: Services, scope: Scope) -> None:
        self._services = services
        self.scope = scope
        self.who = scope.who
        self.settings = services.settings
        self.engine = services.engine
        self.diagrams = Diagrams(scope) if services.diagrams is not None else None
        self.collections = Collections(scope)
        self.documents = Documents(scope)
        self.deletion = Deletion(scope)
        self.search = Search(scope)
        self.ask = Ask(scope)
        self.ingestion = Ingestion(scope)
        self.crawler = Crawler(scope)
        self.jobs = Jobs(scope)
        self.graph = GraphReads(scope) if services.graph is not None else None
        self.lookup = Lookup(scope)

    @property
    def conversations(self) -> Any:
        return self.scope.conversations()

    @property
    def memory(self) -> Any:
        return self.scope.memory()

    @property
    def curation(self) -> Any:
        return self.scope.curation()

    def role(self, collection: str) -> str | None:
        """``who``'s role in a collection (owner for admins), for pages deciding which controls to draw."""
        return self.scope.my_role(collection)

    def audit(self, limit: int = 200) -> builtins.list[dict[str, Any]]:
        """The audit log, newest first: an admin's read (Forbidden for anyone else)."""
        return self.scope.access.audit(by=self.who, limit=limit)

    def health(self) -> dict[str, Any]:
        return self._services.health()

    def start_loading_model(self) -> None:
        self._services.start_loading_model()
