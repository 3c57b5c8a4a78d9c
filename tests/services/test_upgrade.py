"""Rows written before the BM25 and walk-graph migrations get their derived data, resumably, without re-ingesting."""

from __future__ import annotations

import sqlalchemy as sa

from services.ingest.requests import text_request
from services.upgrade import UpgradeService


def _as_before_the_migrations(services, document_id: int) -> None:
    """What migrations 007 and 008 leave for a document they find: no tsv, no postings, no walk graph."""
    with services.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM chunk_terms WHERE chunk_id IN (SELECT id FROM chunks WHERE document_id = :d)"),
                     {"d": document_id})
        conn.execute(sa.text("ALTER TABLE chunks DISABLE TRIGGER chunks_postings_update"))
        conn.execute(sa.text("UPDATE chunks SET tsv = NULL WHERE document_id = :d"), {"d": document_id})
        conn.execute(sa.text("ALTER TABLE chunks ENABLE TRIGGER chunks_postings_update"))
        conn.execute(sa.text("DELETE FROM entity_mentions WHERE document_id = :d"), {"d": document_id})
        conn.execute(sa.text("DELETE FROM entity_documents WHERE document_id = :d"), {"d": document_id})


def test_upgrade_derives_bm25_and_the_walk_graph_and_resumes(services, collection):
    ids = [services.ingestion.run(text_request(collection, title=f"Voyage {i}", text=text)).items[0]["document_id"]
           for i, text in enumerate(["Captain Nemo commands the Nautilus near Vigo Bay.",
                                     "Ned Land, a sailor from Quebec, throws a harpoon at the narwhal.",
                                     "Professor Aronnax studied the coral reefs near Vanikoro."])]
    for doc in ids:
        _as_before_the_migrations(services, doc)
    upgrade = UpgradeService(engine=services.engine, graph=services.graph)
    before = upgrade.pending()
    assert before.chunks_without_bm25 >= 3 and before.documents_without_walk_graph >= 3
    assert not services.search.search("harpoon narwhal", collections=[collection], mode="keyword").hits
    calls = []
    stopped = upgrade.run(lambda step, done, total: calls.append((step, done, total)), batch=1,
                          should_stop=lambda: len(calls) >= 2)  # interrupted after two batches
    assert 0 < stopped.total < before.total
    after = upgrade.run(lambda step, done, total: calls.append((step, done, total)), batch=1)
    assert after.total == 0 and {s for s, _, _ in calls} == {"bm25", "walk graph"}
    assert [h.title for h in services.search.search("harpoon narwhal", collections=[collection], mode="keyword").hits] \
        == ["Voyage 1"]
    cid = services.collections.get(collection).id
    seeds = [e.key for e in services.ask.retriever.walk.walk("Who commands the Nautilus?", [cid]).seeds]
    assert "nautilus" in seeds


def test_the_app_starts_the_upgrade_as_one_background_job(services, collection):
    doc = services.ingestion.run(text_request(collection, title="Atlantis", text="The Nautilus visits sunken Atlantis."))
    _as_before_the_migrations(services, doc.items[0]["document_id"])
    assert services.upgrade.needed()
    job_id = services.start_upgrade()
    assert job_id is not None
    assert services.start_upgrade() is None  # running already (or finished): never a second job
    import time

    deadline = time.monotonic() + 300  # a bound for a loaded machine, not a speed target
    while services.jobs.get(job_id).status == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    job = services.jobs.get(job_id)
    assert job.status == "done" and job.kind == "upgrade:derive", job
    assert not services.upgrade.needed() and services.start_upgrade() is None
    assert [h.title for h in services.search.search("sunken Atlantis", collections=[collection], mode="keyword").hits] \
        == ["Atlantis"]
