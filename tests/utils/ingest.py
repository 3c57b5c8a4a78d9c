"""Small helpers for service tests: ingest text, and look rows up with plain SQL."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from services.ingest.pipeline import IngestResult
from services.ingest.requests import text_request

YEAR_REQUIRED = {"custom": {"year": {"type": "integer", "required": True}}}  # a schema with one required field


def ingest_text(services: Any, collection: str, title: str, text: str,
                metadata: dict[str, Any] | None = None, mode: str = "ingest") -> IngestResult:
    """Ingest one text synchronously and return the finished job's result."""
    return services.ingestion.run(text_request(collection, title=title, text=text, metadata=metadata, mode=mode))


def only_item(result: IngestResult) -> dict[str, Any]:
    assert len(result.items) == 1, result.items
    return result.items[0]


def sql(services: Any, query: str, **params: Any) -> list[Any]:
    with services.engine.begin() as conn:
        return conn.execute(sa.text(query), params).all()


def scalar(services: Any, query: str, **params: Any) -> Any:
    with services.engine.begin() as conn:
        return conn.execute(sa.text(query), params).scalar()


def collection_id(services: Any, collection: str) -> int:
    return services.collections.get(collection).id


def doc_id(services: Any, collection: str, title: str) -> int | None:
    """The id of the document titled ``title`` in ``collection``, or None."""
    return scalar(
        services,
        "SELECT cd.document_id FROM collection_documents cd JOIN collections c ON c.id = cd.collection_id "
        "WHERE c.name = :c AND cd.title = :t",
        c=collection, t=title,
    )


def titles_in(services: Any, collection: str) -> set[str]:
    rows = sql(
        services,
        "SELECT d.title FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
        "JOIN collections c ON c.id = cd.collection_id WHERE c.name = :c",
        c=collection,
    )
    return {r.title for r in rows}


def chunk_texts(services: Any, document_id: int) -> list[str]:
    rows = sql(services, "SELECT text FROM chunks WHERE document_id = :d ORDER BY chunk_index", d=document_id)
    return [r.text for r in rows]


def wait_for_job(services: Any, job_id: int, timeout: float = 120.0) -> Any:
    """Poll until the job leaves 'running'; fail the test if it does not within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        job = services.jobs.get(job_id)
        if job.status != "running":
            return job
        if time.monotonic() > deadline:
            raise AssertionError(f"job {job_id} still running after {timeout}s: {job.progress}")
        time.sleep(0.1)
