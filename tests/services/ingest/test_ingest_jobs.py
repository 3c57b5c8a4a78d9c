"""Ingestion jobs on the real stores: one job per request key, reaping dead owners, background runs,
cancel and retry of the failed files."""

from __future__ import annotations

import os
import uuid

import pytest
import sqlalchemy as sa

from services.errors import JobInProgress, ValidationFailed
from services.ingest.requests import directory_request, files_request, retry_request, text_request
from tests.utils.ingest import (
    YEAR_REQUIRED,
    chunk_texts,
    doc_id,
    only_item,
    titles_in,
    wait_for_job,
)


def _key() -> str:
    return f"test-key-{uuid.uuid4().hex}"


def test_same_job_key_is_refused_until_finished(services):
    key = _key()
    first = services.jobs.start(kind="test", key=key, collection_id=None, params={"n": 1})
    try:
        with pytest.raises(JobInProgress, match="already in progress"):
            services.jobs.start(kind="test", key=key, collection_id=None, params={"n": 2})
        other = services.jobs.start(kind="test", key=_key(), collection_id=None, params={})
        services.jobs.finish(other, status="done")
    finally:
        services.jobs.finish(first, status="done")
    again = services.jobs.start(kind="test", key=key, collection_id=None, params={"n": 3})
    services.jobs.finish(again, status="failed", error="boom")
    assert again != first
    assert services.jobs.get(first).status == "done"
    job = services.jobs.get(again)
    assert (job.status, job.error, job.params) == ("failed", "boom", {"n": 3})


def _set_job(services, job_id: int, assignments: str, **params) -> None:
    with services.engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE jobs SET {assignments} WHERE id = :id"), {"id": job_id, **params})


def test_job_of_a_dead_process_is_reaped(services):
    key = _key()
    job_id = services.jobs.start(kind="test", key=key, collection_id=None, params={})
    dead_pid = 2**22 + 12345  # above Linux's maximum pid, so no such process
    with pytest.raises(ProcessLookupError):
        os.kill(dead_pid, 0)
    _set_job(services, job_id, "owner_pid = :pid", pid=dead_pid)
    assert services.jobs.reap_stale() >= 1
    job = services.jobs.get(job_id)
    assert job.status == "interrupted"
    assert job.finished_at is not None and "stopped before it finished" in job.error
    # The request key is free again.
    again = services.jobs.start(kind="test", key=key, collection_id=None, params={})
    services.jobs.finish(again, status="done")


def test_live_and_foreign_jobs_are_not_reaped_but_silent_ones_are(services):
    mine = services.jobs.start(kind="test", key=_key(), collection_id=None, params={})
    foreign = services.jobs.start(kind="test", key=_key(), collection_id=None, params={})
    silent = services.jobs.start(kind="test", key=_key(), collection_id=None, params={})
    try:
        _set_job(services, foreign, "owner_host = 'another-host', owner_pid = :pid", pid=2**22 + 12345)
        _set_job(services, silent, "owner_host = 'another-host', heartbeat_at = now() - interval '10 minutes'")
        services.jobs.reap_stale()
        assert services.jobs.get(mine).status == "running"
        assert services.jobs.get(foreign).status == "running"
        assert services.jobs.get(silent).status == "interrupted"
    finally:
        for job_id in (mine, foreign, silent):
            if services.jobs.get(job_id).status == "running":
                services.jobs.finish(job_id, status="done")


def test_submit_runs_in_the_background_until_done(services, collection):
    job_id = services.ingestion.submit(text_request(collection, title="Foxes", text="Foxes hunt at dusk."))
    assert isinstance(job_id, int)
    job = wait_for_job(services, job_id, timeout=60)
    assert job.status == "done"
    assert job.kind == "ingest:text"
    assert job.params["collection"] == collection
    assert job.progress["ingested"] == 1 and job.progress["files_done"] == 1
    assert [i["status"] for i in job.items] == ["ingested"]
    assert chunk_texts(services, doc_id(services, collection, "Foxes")) == ["Foxes hunt at dusk."]
    assert job.id in [j.id for j in services.jobs.recent(50)]


def _docs(n: int) -> list[tuple[str, bytes]]:
    files = []
    for i in range(n):
        body, s = "", 0
        while len(body) < 1900:
            body += f"Document {i} sentence {s} describes item {i * 100 + s} in some detail. "
            s += 1
        files.append((f"doc{i:02d}.txt", body.strip().encode()))
    return files


def test_same_request_while_running_is_refused_then_cancel(services, collection):
    files = _docs(40)
    assert all(1900 <= len(data) <= 2000 for _, data in files)
    job_id = services.ingestion.submit(files_request(collection, files, settings=services.settings))
    try:
        with pytest.raises(JobInProgress):
            services.ingestion.submit(files_request(collection, files, settings=services.settings))
        with pytest.raises(JobInProgress):
            services.ingestion.run(files_request(collection, files, settings=services.settings))
        assert services.jobs.get(job_id).status == "running"
    finally:
        services.jobs.request_cancel(job_id)
        job = wait_for_job(services, job_id, timeout=120)
    assert job.status in ("cancelled", "done")
    assert job.cancel_requested is True
    stored = [i for i in job.items if i["status"] == "ingested"]
    assert len(stored) == job.progress["ingested"]
    if job.status == "cancelled":
        assert len(stored) < 40
    # Every stored document is complete; nothing else exists.
    assert titles_in(services, collection) == {i["title"] for i in stored}
    for item in stored:
        assert len(chunk_texts(services, item["document_id"])) == item["chunks"] >= 2

    # Ingesting again completes the set without duplicates (kept short: a prefix of the same files).
    rerun = services.ingestion.run(files_request(collection, files[:3], settings=services.settings))
    statuses = {i["title"]: i["status"] for i in rerun.items}
    stored_titles = {i["title"] for i in stored}
    assert rerun.status == "done"
    assert statuses == {name: ("skipped" if name in stored_titles else "ingested") for name, _ in files[:3]}
    assert titles_in(services, collection) == stored_titles | {name for name, _ in files[:3]}


# -- acceptance: State of the Union addresses ---------------------------------------------------


# -- retrying the failed files of a job ---------------------------------------------------------


def test_retry_runs_only_the_failed_files_with_the_metadata_that_was_missing(services, tmp_path):
    name = f"test-retry-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Retry.", metadata_schema=YEAR_REQUIRED)
    try:
        (tmp_path / "dated.txt").write_text("A dated memo about canal tolls.", encoding="utf-8")
        (tmp_path / "undated.txt").write_text("An undated memo about lighthouse keepers.", encoding="utf-8")
        (tmp_path / "metadata.csv").write_text("file,year\ndated.txt,1901\n", encoding="utf-8")
        request = directory_request(name, str(tmp_path), settings=services.settings, include=["*.txt"])
        first = services.ingestion.run(request)
        assert first.status == "partial"
        assert {i["title"]: i["status"] for i in first.items} == {"dated.txt": "ingested", "undated.txt": "failed"}

        retry = retry_request(request, first.items, metadata={"year": 1902})
        assert [i.title for i in retry.items] == ["undated.txt"]
        second = services.ingestion.run(retry)
        assert second.status == "done" and only_item(second)["status"] == "ingested"
        stored = services.documents.get(only_item(second)["document_id"]).summary
        assert stored.metadata["year"] == 1902
        with pytest.raises(ValidationFailed, match="nothing to retry"):
            retry_request(retry, second.items)
    finally:
        services.deletion.delete_collection(name)
