"""The services container: one per process, shared by the app (cached), the CLI and the MCP server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from services.backup.service import BackupService
from services.collections import CollectionService
from services.documents import DocumentService
from services.errors import ConfigError
from services.graph.diagrams import DiagramService
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.extraction_llm import LLMTemporalExtractor
from services.graph.lookup import GraphLookup
from services.graph.service import GraphService
from services.ingest.pipeline import IngestionService
from services.jobs import JobService
from services.retrieval.ask import AskService
from services.retrieval.conversations import ConversationService
from services.retrieval.graph_walk import GraphWalk
from services.retrieval.memory import MemoryService
from services.retrieval.retriever import GraphAwareRetriever
from services.retrieval.search import SearchService
from services.settings import Settings, get_settings
from services.stores.embeddings import DeferredEmbedder, TextEmbedder, embedder_name, load_in_background
from services.stores.graph_store import GraphStore, create_graph_store
from services.stores.llm import create_llm
from services.stores.postgres import create_db_engine, postgres_health
from services.web.crawl import CrawlService


@dataclass(kw_only=True)
class Services:
    """Every service of one process, built once by :func:`build_services`.

    ``graph`` and ``graph_store`` are None when the knowledge graph is turned off
    (``graph_enabled = false``); everything else is always there.
    """

    settings: Settings
    engine: Engine
    embedder: TextEmbedder
    collections: CollectionService
    documents: DocumentService
    jobs: JobService
    ingestion: IngestionService
    crawler: CrawlService
    search: SearchService
    diagrams: DiagramService
    conversations: ConversationService
    memory: MemoryService
    ask: AskService
    backup: BackupService
    lookup: GraphLookup
    graph: GraphService | None = None
    graph_store: GraphStore | None = None

    def health(self) -> dict[str, Any]:
        pg = postgres_health(self.engine, self.settings)
        out: dict[str, Any] = {
            "postgres": pg.__dict__,
            "embedding": {"model": self.embedder.name,
                          "dimension": self.embedder.dim if self.embedder.ready else None},  # None: still loading
            "graph": None,
        }
        if self.graph_store is not None:
            self.graph_store.ping()
            out["graph"] = {"kind": self.graph_store.kind, "location": self.graph_store.location}
        return out

    def close(self) -> None:
        self.engine.dispose()
        if self.graph_store is not None:
            self.graph_store.close()


def create_extractor(settings: Settings) -> Any:
    """The configured extractor: the LLM one when an LLM is configured (mode auto or llm), else spaCy."""
    if settings.extraction_mode == "llm" or (settings.extraction_mode == "auto" and settings.llm_configured):
        llm = create_llm(settings)
        if llm is None:
            raise ConfigError("extraction_mode is 'llm' but no LLM is configured (OPENAI_API_KEY / OPENAI_BASE_URL).")
        return LLMTemporalExtractor(llm)
    return SpacyTemporalExtractor(model_name=settings.spacy_model)


def build_services(settings: Settings | None = None, *, embedder: TextEmbedder | None = None,
                   defer_model: bool = False) -> Services:
    """Start or connect to the stores, load the embedding model and wire the services.

    ``embedder`` lets a caller (tests, a second container in one process) share an
    already-loaded model instead of loading it again. ``defer_model`` (the web app)
    returns as soon as the stores are up while the model finishes loading in the
    background; the first call that needs it waits for it, and a failure to load it
    surfaces there.
    """
    settings = settings or get_settings()
    # The model loads (seconds of CPU) in a thread while the stores start (mostly waiting on their processes).
    loading = None if embedder is not None else load_in_background(settings)
    engine = create_db_engine(settings)
    graph_store, graph = None, None
    if settings.graph_enabled:
        graph_store = create_graph_store(settings)
        graph = GraphService(engine=engine, store=graph_store, batch_size=settings.graph_batch_size,
                             extractor=create_extractor(settings))
        graph.ensure_indexes()
    if loading is not None:
        embedder = DeferredEmbedder(embedder_name(settings), loading) if defer_model else loading.result()
    assert embedder is not None
    collections = CollectionService(engine=engine, embedder=embedder, graph=graph)
    documents = DocumentService(engine=engine, graph=graph)
    jobs = JobService(engine=engine)
    jobs.reap_stale()
    ingestion = IngestionService(settings=settings, embedder=embedder, collections=collections,
                                 documents=documents, jobs=jobs, graph=graph, llm=create_llm(settings))
    search = SearchService(
        engine=engine, embedder=embedder, collections=collections, ef_search=settings.hnsw_ef_search,
        rrf_k=settings.rrf_k, semantic_weight=settings.semantic_weight, keyword_weight=settings.keyword_weight,
    )
    diagrams = DiagramService(engine=engine, graph=graph)
    conversations = ConversationService(engine=engine)
    memory = MemoryService(engine=engine, embedder=embedder)
    walk = GraphWalk(engine=engine) if graph is not None else None
    retriever = GraphAwareRetriever(search=search, collections=collections, graph=graph, walk=walk,
                                    llm=create_llm(settings), rrf_k=settings.ask_rrf_k,
                                    weights={"semantic": settings.semantic_weight, "keyword": settings.keyword_weight,
                                             "feedback": settings.keyword_weight, "graph": settings.graph_weight})
    ask = AskService(settings=settings, retriever=retriever, conversations=conversations, memory=memory,
                     embedder=embedder, llm=create_llm(settings), diagrams=diagrams)
    backup = BackupService(settings=settings, engine=engine, embedder=embedder, collections=collections, graph=graph)
    return Services(settings=settings, engine=engine, embedder=embedder, collections=collections, documents=documents,
                    jobs=jobs, ingestion=ingestion, crawler=CrawlService(ingestion=ingestion), search=search,
                    diagrams=diagrams, conversations=conversations, memory=memory, ask=ask, backup=backup,
                    lookup=GraphLookup(graph, collections), graph=graph, graph_store=graph_store)
