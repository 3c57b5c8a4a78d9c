"""The services container: one per process, shared by the app (cached), the CLI and the MCP server.

Building it connects to PostgreSQL (every command needs it) and nothing else:
the embedding model, the graph store, spaCy and the LLM client are made on
first use, so a command that does not embed or query the graph never imports
torch, transformers, spaCy or LlamaIndex (tests/test_lazy_imports.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine

from services.authz.principal import Principal
from services.authz.scope import Scope
from services.authz.service import AccessService
from services.authz.view import ScopedServices
from services.collections import CollectionService
from services.deletion import DeletionService
from services.documents import DocumentService
from services.errors import ConfigError
from services.graph.diagrams import DiagramService
from services.graph.lookup import BestChunks, GraphLookup
from services.graph.service import GraphService, ensure_graph_indexes
from services.ingest.pipeline import IngestionService
from services.jobs import JobService
from services.long_lived import freeze_loaded
from services.retrieval.conversations import ConversationService
from services.retrieval.core import RetrievalCore
from services.retrieval.memory import MemoryService
from services.retrieval.search import SearchService
from services.settings import Settings, get_settings
from services.stores.embeddings import DeferredEmbedder, TextEmbedder, lazy_embedder
from services.stores.graph_store import GraphStore, create_graph_store, probe_graph_store
from services.stores.lazy_graph_store import LazyGraphStore
from services.stores.llm import create_llm
from services.stores.postgres import create_db_engine, postgres_health
from services.upgrade import UpgradeService

if TYPE_CHECKING:  # built on first use (Services.ask, .backup, .crawler): their imports cost what most callers never need
    from services.backup.service import BackupService
    from services.graph.curation import CurationService
    from services.retrieval.ask import AskService
    from services.web.crawl import CrawlService


@dataclass(kw_only=True)
class Services:
    """Every service of one process, built once by :func:`build_services`.

    ``graph`` and ``graph_store`` are None when the knowledge graph is turned off
    (``graph_enabled = false``); everything else is always there. The graph store
    opens, and the embedding model loads, on first use.
    """

    settings: Settings
    engine: Engine
    embedder: TextEmbedder
    collections: CollectionService
    documents: DocumentService
    deletion: DeletionService
    jobs: JobService
    ingestion: IngestionService
    search: SearchService
    diagrams: DiagramService
    conversations: ConversationService
    memory: MemoryService
    ask_factory: Callable[[], AskService]
    upgrade: UpgradeService
    lookup: GraphLookup
    graph: GraphService | None = None
    graph_store: LazyGraphStore | None = None

    @cached_property
    def access(self) -> AccessService:
        """Users, roles, tokens and the audit log (issue 32)."""
        return AccessService(engine=self.engine)

    def scope(self, who: Principal) -> Scope:
        """The services as ``who`` may use them: every operation checked (services/authz/scope.py)."""
        return Scope(self, self.access, who)

    def view(self, who: Principal) -> ScopedServices:
        """These services with the attribute names the pages use, every call checked for ``who``."""
        return ScopedServices(self, self.scope(who))

    @cached_property
    def curation(self) -> CurationService:
        """The analyst's graph edits, history and undo (:class:`ValidationFailed` when the graph is off)."""
        from services.graph.curation import CurationService

        return CurationService(graph=self.lookup.require_graph(), collections=self.collections, embedder=self.embedder)

    @cached_property
    def ask(self) -> AskService:
        """Ask's retrieval (LlamaIndex retrievers, the graph walk) is built on first use."""
        return self.ask_factory()

    # Built on first use too: their modules (archive formats, sitemaps, crawl scopes) cost ~0.2 s of imports
    # that Home, the listings and `rag status` never need.
    @cached_property
    def crawler(self) -> CrawlService:
        from services.web.crawl import CrawlService

        return CrawlService(ingestion=self.ingestion, deletion=self.deletion)

    @cached_property
    def backup(self) -> BackupService:
        from services.backup.service import BackupService

        return BackupService(settings=self.settings, engine=self.engine, embedder=self.embedder,
                             collections=self.collections, graph=self.graph)

    def health(self) -> dict[str, Any]:
        """The stores answer (the graph store is opened for it); the embedding model is not loaded for it.

        ``embedding.dimension`` is the model's, or the one its files declare while it is not loaded
        (None when neither is known: a remote model not called yet); ``embedding.loaded`` says which.
        """
        pg = postgres_health(self.engine, self.settings)
        model = self.embedder
        declared = model.declared_dim if isinstance(model, DeferredEmbedder) else None
        out: dict[str, Any] = {
            "postgres": pg.__dict__,
            "embedding": {"model": model.name, "loaded": model.ready,
                          "dimension": model.dim if model.ready else declared},
            "graph": None,
        }
        if self.graph_store is not None and self.graph_store.is_open:
            self.graph_store.ping()
            out["graph"] = {"kind": self.graph_store.kind, "location": self.graph_store.location}
        elif self.graph_store is not None:  # not opened yet: a plain query, without LlamaIndex's imports
            kind, location = probe_graph_store(self.settings)
            out["graph"] = {"kind": kind, "location": location}
        return out

    def start_loading_model(self) -> None:
        """Load the embedding model in a background thread now, instead of on first use (the web app)."""
        if isinstance(self.embedder, DeferredEmbedder):
            self.embedder.start()

    def start_upgrade(self) -> int | None:
        """Derive, in a background job, the BM25 and walk-graph data of rows stored before they existed."""
        return self.upgrade.start(self.jobs)

    def close(self) -> None:
        self.engine.dispose()
        if self.graph_store is not None:
            self.graph_store.close()


def create_extractor(settings: Settings) -> Any:
    """The configured extractor: the LLM one when an LLM is configured (mode auto or llm), else spaCy."""
    if settings.extraction_mode == "llm" or (settings.extraction_mode == "auto" and settings.llm_configured):
        from services.graph.extraction_llm import LLMTemporalExtractor

        llm = create_llm(settings)
        if llm is None:
            raise ConfigError("extraction_mode is 'llm' but no LLM is configured (OPENAI_API_KEY / OPENAI_BASE_URL).")
        return LLMTemporalExtractor(llm)
    from services.graph.extraction import SpacyTemporalExtractor

    return SpacyTemporalExtractor(model_name=settings.spacy_model)


def open_graph_store(settings: Settings) -> GraphStore:
    """Start or connect to the configured graph store and create its indexes (the lazy store's first use)."""
    store = create_graph_store(settings)
    try:
        ensure_graph_indexes(store)
    except BaseException:
        store.close()
        raise
    return store


def build_services(settings: Settings | None = None, *, embedder: TextEmbedder | None = None) -> Services:
    """Connect to PostgreSQL and wire the services; the model and the graph store wait for their first use.

    ``embedder`` lets a caller (tests, a second container in one process) share an
    already-loaded model instead of loading it again. Otherwise the model loads on
    first use, or in the background from :meth:`Services.start_loading_model`
    (the web app, once its first page is drawn); a call that needs it waits for
    it, and a failure to load it surfaces there.
    """
    settings = settings or get_settings()
    engine = create_db_engine(settings)
    graph_store, graph = None, None
    if settings.graph_enabled:
        graph_store = LazyGraphStore(lambda: open_graph_store(settings))
        graph = GraphService(engine=engine, store=graph_store, batch_size=settings.graph_batch_size,
                             extractor_factory=lambda: create_extractor(settings))
    embedder = embedder or lazy_embedder(settings)
    collections = CollectionService(engine=engine, embedder=embedder)
    documents = DocumentService(engine=engine)
    jobs = JobService(engine=engine)
    jobs.reap_stale()
    ingestion = IngestionService(settings=settings, embedder=embedder, collections=collections,
                                 documents=documents, jobs=jobs, graph=graph, llm=create_llm(settings))
    search = SearchService(core=RetrievalCore(
        engine=engine, embedder=embedder, collections=collections, ef_search=settings.hnsw_ef_search,
        rrf_k=settings.rrf_k, semantic_weight=settings.semantic_weight, keyword_weight=settings.keyword_weight,
    ))
    diagrams = DiagramService(engine=engine, graph=graph)
    conversations = ConversationService(engine=engine)
    memory = MemoryService(engine=engine, embedder=embedder)

    def build_ask() -> AskService:
        from services.retrieval.ask import AskService
        from services.retrieval.graph_walk import GraphWalk
        from services.retrieval.retriever import GraphAwareRetriever

        walk = GraphWalk(engine=engine) if graph is not None else None
        retriever = GraphAwareRetriever(core=search.core.with_graph(walk, graph),
                                        llm=create_llm(settings), rrf_k=settings.ask_rrf_k, fusion=settings.ask_fusion,
                                        weights={"semantic": settings.semantic_weight,
                                                 "keyword": settings.keyword_weight, "feedback": settings.keyword_weight,
                                                 "graph": settings.graph_weight})
        ask = AskService(settings=settings, retriever=retriever, conversations=conversations, memory=memory,
                         embedder=embedder, llm=create_llm(settings), diagrams=diagrams)
        freeze_loaded()  # Ask's modules
        return ask

    freeze_loaded()  # the front end's and the stores' modules, loaded by now
    return Services(settings=settings, engine=engine, embedder=embedder, collections=collections, documents=documents,
                    deletion=DeletionService(documents=documents, collections=collections, graph=graph),
                    jobs=jobs, ingestion=ingestion, search=search,
                    diagrams=diagrams, conversations=conversations, memory=memory, ask_factory=build_ask,
                    upgrade=UpgradeService(engine=engine, graph=graph),
                    lookup=GraphLookup(graph, collections, best_chunks=_best_chunks(search)), graph=graph,
                    graph_store=graph_store)


def _best_chunks(search: SearchService) -> BestChunks:
    """GraphLookup's search by meaning: a collection's 20 chunks nearest a text (similarity 0.2 at least)."""
    def best(text: str, collection: str) -> dict[int, float]:
        hits = search.search(text, collections=[collection], mode="semantic", limit=20, threshold=0.2).hits
        return {h.chunk_id: h.score for h in hits}

    return best
