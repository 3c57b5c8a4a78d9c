"""Duplicate concurrent requests are refused: the same ingest, graph rebuild or crawl started twice at once
runs once (the other gets JobInProgress, or exit code 4 from `rag`), and two different ingests racing to
store the same title or content end with one document, the loser skipped with a clear reason."""

from __future__ import annotations

import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.documents import content_hash
from services.errors import JobInProgress
from services.ingest.requests import directory_request, files_request, text_request
from services.web.crawl import CrawlRequest
from tests.reliability.concurrency import assert_whole, error_line, finish, race, rag_process, stored, wait_for_job
from tests.services.web.conftest import crawler, serve_directory
from tests.utils.ingest import sql

SMALL = ("1790_george_washington_n.txt", "1799_john_adams_f.txt", "1800_john_adams_f.txt")
LOSING_REASONS = ("is already in this collection; use mode 'reingest' to replace it",
                  "Identical content is already in this collection",
                  "Another ingest stored the same title or content in this collection first")


@pytest.fixture(scope="module")
def small_addresses(services, shared_data) -> Iterator[tuple[str, dict[str, bytes]]]:
    """Three short State of the Union addresses, ingested once by the racing test below."""
    name = f"dup-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Concurrency: duplicate requests.")
    yield name, {f: (shared_data / "sotu" / f).read_bytes() for f in SMALL}
    services.deletion.delete_collection(name)


def _refused(outcomes: list, what: str) -> list:
    """The outcomes that are not the single winner; each must be JobInProgress naming ``what``."""
    winners = [value for kind, value in outcomes if kind == "ok"]
    losers = [value for kind, value in outcomes if kind == "error"]
    assert len(winners) == 1, outcomes
    assert all(isinstance(e, JobInProgress) for e in losers), losers
    assert all(f"The same {what} is already in progress" in str(e) for e in losers), losers
    return winners


def test_the_same_ingest_four_times_at_once_runs_once(services, small_addresses):
    name, files = small_addresses
    outcomes = race(*[lambda: services.ingestion.run(files_request(name, list(files.items()),
                                                                   settings=services.settings))] * 4)
    [result] = _refused(outcomes, "ingestion")
    assert result.status == "done" and result.count("ingested") == 3, result.items
    assert_whole(services, name, {f: data.decode() for f, data in files.items()})


def test_the_same_graph_rebuild_twice_at_once_runs_once(services, small_addresses):
    name, files = small_addresses
    if len(stored(services, name)) != len(files):
        services.ingestion.run(files_request(name, list(files.items()), settings=services.settings))
    before = {r.title: r.id for r in stored(services, name)}
    outcomes = race(*[lambda: services.ingestion.submit_graph_rebuild(name, wait=True)] * 2)
    [job_id] = _refused(outcomes, "graph rebuild")
    job = services.jobs.get(job_id)
    assert job.status == "done" and job.progress["files_done"] == 3 and job.progress["graph_failed"] == 0
    assert {r.title: r.id for r in stored(services, name)} == before
    assert_whole(services, name, {f: data.decode() for f, data in files.items()})


def test_in_process_ingest_and_the_same_cli_ingest(services, collection, shared_data, tmp_path, data_dir):
    """The app (here: this process) runs a directory ingest; `rag ingest directory` of the same folder exits 4.

    The in-process ingest is held inside its first file's parse step until the CLI has answered, so the
    overlap is certain however slow the machine is (no race with the clock).
    """
    folder = tmp_path / "addresses"
    folder.mkdir()
    for path in sorted((shared_data / "sotu").glob("18[0-4]*.txt"))[:12]:
        shutil.copy(path, folder / path.name)
    request = directory_request(collection, str(folder), settings=services.settings)
    entered, release = threading.Event(), threading.Event()
    first_load = request.items[0].load

    def held_load():
        entered.set()
        assert release.wait(timeout=600), "the test never released the first file"
        return first_load()

    request.items[0].load = held_load
    job_id = services.ingestion.submit(request)
    try:
        assert entered.wait(timeout=600), "the in-process ingest never reached its first file"
        code, out, err = finish(rag_process("ingest", "directory", collection, folder, data_dir=data_dir))
        still_running = services.jobs.get(job_id).status == "running"
    finally:
        services.jobs.request_cancel(job_id)
        release.set()
        job = wait_for_job(services, job_id, timeout=600)
    assert still_running
    assert code == 4, (code, out, err)
    assert "The same ingestion is already in progress" in error_line(code, err)
    assert job.status in ("cancelled", "done") and job.error is None
    assert sql(services, "SELECT count(*) FROM jobs WHERE params->>'collection' = :c", c=collection)[0][0] == 1
    kept = {i["title"] for i in job.items if i["status"] == "ingested"}
    assert {r.title for r in stored(services, collection)} == kept
    assert_whole(services, collection, {t: (folder / t).read_text(encoding="utf-8") for t in kept})


def test_the_same_crawl_three_times_at_once_runs_once(services, collection, tmp_path: Path):
    site = tmp_path / "site"
    site.mkdir()
    topics = ("tides", "lighthouses", "harbours", "buoys")
    links = "".join(f'<a href="/{t}.html">{t}</a> ' for t in topics)
    (site / "index.html").write_text(f"<html><head><title>Coast</title></head><body><main><p>The coast guide: "
                                     f"{links}</p></main></body></html>", encoding="utf-8")
    for t in topics:
        body = f"<p>This page of the coast guide explains {t} in plain words for new sailors.</p>" * 4
        (site / f"{t}.html").write_text(f"<html><head><title>{t}</title></head><body><main>{body}</main></body>"
                                        "</html>", encoding="utf-8")
    server = serve_directory(site)
    root = next(server)
    try:
        svc = crawler(services, fetch_delay=0.3)
        outcomes = race(*[lambda: svc.run(CrawlRequest(collection, root + "/index.html", max_pages=5,
                                                       max_depth=1))] * 3)
    finally:
        server.close()
    [result] = _refused(outcomes, "crawl")
    assert result.status == "done" and result.count("ingested") == 5, result.pages
    rows = stored(services, collection)
    assert len(rows) == 5 and len({r.title for r in rows}) == 5


@pytest.mark.parametrize("clash", ["title", "content"])
def test_two_ingests_storing_the_same_document_at_once(services, collection, clash):
    """Three different requests race to store one title (or one text): one document, two clear skips."""
    with services.engine.connect() as conn:
        since = conn.execute(sa.text("SELECT now()")).scalar_one()
    reasons = []
    for round_ in range(3):
        title = f"Tide table {round_}"
        texts = [f"High water at the harbour mouth is at {6 + i}:{15 * round_:02d} on the first day of "
                 f"the month, version {i}." for i in range(3)]
        if clash == "title":
            wanted = [(title, text) for text in texts]
        else:
            wanted = [(f"{title} copy {i}", texts[0]) for i in range(3)]
        outcomes = race(*[lambda t=t, x=x: services.ingestion.run(text_request(collection, title=t, text=x))
                          for t, x in wanted])
        assert all(kind == "ok" and value.status == "done" for kind, value in outcomes), outcomes
        items = [value.items[0] for _, value in outcomes]
        statuses = [i["status"] for i in items]
        assert statuses.count("ingested") == 1 and statuses.count("skipped") == 2, items
        won = statuses.index("ingested")
        losers = [i for i in items if i["status"] == "skipped"]
        assert all(any(r in i["reason"] for r in LOSING_REASONS) for i in losers), losers
        reasons += [i["reason"].split(":")[0][:60] for i in losers]
        rows = [r for r in stored(services, collection) if r.title.startswith(title)]
        assert len(rows) == 1 and rows[0].id == items[won]["document_id"], rows
        assert (rows[0].title, rows[0].content_hash) == (wanted[won][0], content_hash(wanted[won][1]))
        assert rows[0].chunks == rows[0].chunk_count == 1
    orphans = sql(services, "SELECT count(*) FROM documents d WHERE d.created_at >= :s AND NOT EXISTS "
                            "(SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id)", s=since)
    assert orphans[0][0] == 0
    print(f"\n{clash} clashes, the losers' reasons: {sorted(set(reasons))}")
