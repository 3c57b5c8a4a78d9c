"""Rebuild-all covers every document of a collection, past the 1,000 rows a document page can list."""

from __future__ import annotations

import hashlib

import sqlalchemy as sa

N = 1_001


def _add_bare_documents(services, collection_id: int, n: int) -> None:
    """Rows written straight into the real Postgres (no chunks), so the test needs no 1,001 embeddings."""
    rows = []
    for i in range(n):
        text = f"Note {i}."
        rows.append({"title": f"note-{i:04d}", "content": text, "hash": hashlib.sha256(text.encode()).hexdigest()})
    with services.engine.begin() as conn:
        ids = [conn.execute(sa.text("INSERT INTO documents (title, content, content_hash) VALUES (:title, :content, :hash) "
                                    "RETURNING id"), r).scalar_one() for r in rows]
        conn.execute(sa.text("INSERT INTO collection_documents (collection_id, document_id, title, content_hash) "
                             "VALUES (:cid, :did, :title, :hash)"),
                     [{"cid": collection_id, "did": i, "title": r["title"], "hash": r["hash"]} for i, r in zip(ids, rows)])


def test_rebuild_all_and_status_counts_cover_more_than_a_page(services, dated):
    _add_bare_documents(services, dated.id, N)
    assert len(services.documents.list(collection_id=dated.id, limit=10**9)) == 1000  # one page at most
    assert len(services.documents.ids(dated.id)) == N
    assert services.documents.graph_status_counts(dated.id) == {"none": N}
    assert len(services.documents.list(collection_id=dated.id, graph_status=("none",), limit=5)) == 5

    job_id = services.ingestion.submit_graph_rebuild(dated.name, wait=True)
    job = services.jobs.get(job_id)
    assert job.status == "done", job
    assert job.progress["files_total"] == N and job.progress["files_done"] == N, job.progress
    assert services.documents.graph_status_counts(dated.id) == {"done": N}
    assert services.documents.list(collection_id=dated.id, graph_status=("none", "pending", "failed")) == []
