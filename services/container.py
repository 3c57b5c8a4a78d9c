"""The services container: one per process, shared by the app (cached), the CLI and the MCP server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from services.collections import CollectionService
from services.db import create_db_engine, postgres_health
from services.documents import DocumentService
from services.embeddings import Embedder, create_embedder
from services.ingestion import IngestionService
from services.jobs import JobService
from services.search import SearchService
from services.settings import Settings, get_settings


@dataclass
class Services:
    settings: Settings
    engine: Engine
    embedder: Embedder
    collections: CollectionService
    documents: DocumentService
    jobs: JobService
    ingestion: IngestionService
    search: SearchService

    def health(self) -> dict[str, Any]:
        pg = postgres_health(self.engine, self.settings)
        return {
            "postgres": pg.__dict__,
            "embedding": {"model": self.embedder.name, "dimension": self.embedder.dim},
        }

    def close(self) -> None:
        self.engine.dispose()


def build_services(settings: Settings | None = None, *, embedder: Embedder | None = None) -> Services:
    """Start or connect to the stores, load the embedding model and wire the services.

    ``embedder`` lets a caller (tests, a second container in one process) share an
    already-loaded model instead of loading it again.
    """
    settings = settings or get_settings()
    engine = create_db_engine(settings)
    embedder = embedder or create_embedder(settings)
    collections = CollectionService(engine=engine, embedder=embedder)
    documents = DocumentService(engine=engine)
    jobs = JobService(engine=engine)
    jobs.reap_stale()
    ingestion = IngestionService(settings=settings, embedder=embedder, collections=collections,
                                 documents=documents, jobs=jobs)
    search = SearchService(
        engine=engine, embedder=embedder, collections=collections, ef_search=settings.hnsw_ef_search,
        rrf_k=settings.rrf_k, semantic_weight=settings.semantic_weight, keyword_weight=settings.keyword_weight,
    )
    return Services(settings, engine, embedder, collections, documents, jobs, ingestion, search)
