"""A stopped crawl keeps its queue and carries on from it: after a Cancel, and after its process was
killed with SIGKILL. Every page ends up in the collection exactly once, and pages done before the stop
are not fetched again."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.errors import ValidationFailed
from services.ingest.pipeline import IngestionService
from services.web.crawl import CrawlRequest, CrawlService
from tests.reliability.concurrency import rag_process
from tests.services.web.conftest import loopback_resolver, web_settings

PAGES = 12
TOPICS = ["lighthouses", "tides", "moorings", "pilots", "buoys", "charts", "ferries", "cranes", "docks", "nets",
          "sails", "anchors"]


@pytest.fixture
def chain_site(site_dir: Path, serve_dir) -> str:
    """index.html links to every page; each page also links to the next."""
    site_dir.mkdir()
    names = [f"page{i:02d}.html" for i in range(1, PAGES)]
    links = "".join(f'<li><a href="{n}">{n}</a></li>' for n in names)
    (site_dir / "index.html").write_text(f"<html><head><title>Harbour</title></head><body><main><p>The harbour "
                                         f"handbook has one page per topic.</p><ul>{links}</ul></main></body></html>")
    for i, name in enumerate(names, start=1):
        nxt = f'<a href="{names[i]}">next</a>' if i < len(names) else ""
        topic = TOPICS[i]
        text = " ".join(f"Chapter {i} on {topic}: the harbour board inspects the {topic} of berth {k} every "
                        f"season and writes down what it found." for k in range(8))
        (site_dir / name).write_text(f"<html><head><title>{topic}</title></head><body><main><h1>{topic}</h1>"
                                     f"<p>{text}</p>{nxt}</main></body></html>")
    return serve_dir(site_dir)


def graph_crawler(services, **overrides) -> CrawlService:
    """A CrawlService with the graph step on, as the app runs it (so an interrupted graph step is repaired)."""
    ingestion = IngestionService(settings=web_settings(services, **overrides), embedder=services.embedder,
                                 collections=services.collections, documents=services.documents,
                                 jobs=services.jobs, graph=services.graph)
    return CrawlService(ingestion=ingestion, deletion=services.deletion, resolver=loopback_resolver)


def done_pages(services, crawl_id: int) -> int:
    with services.engine.connect() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM crawl_pages WHERE crawl_id = :c AND status = 'ingested'"),
                            {"c": crawl_id}).scalar_one()


def wait_until(check, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def assert_whole_site(services, collection: str, base: str, result) -> None:
    expected = {f"{base}/index.html"} | {f"{base}/page{i:02d}.html" for i in range(1, PAGES)}
    assert result.status == "done", result.progress
    assert {p["url"] for p in result.pages} == expected
    assert len(result.pages) == PAGES  # each page once, those done before the stop included
    coll = services.collections.get(collection)
    with services.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT cd.title, d.graph_status, d.chunk_count, (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) "
            "AS chunks FROM collection_documents cd JOIN documents d ON d.id = cd.document_id "
            "WHERE cd.collection_id = :c"), {"c": coll.id}).all()
        queued = conn.execute(sa.text("SELECT count(*) FROM crawl_pages WHERE crawl_id = :c AND status = 'queued'"),
                              {"c": result.crawl_id}).scalar_one()
    assert sorted(r.title for r in rows) == sorted(expected)  # no duplicates, none missing
    assert all(r.chunk_count == r.chunks > 0 and r.graph_status == "done" for r in rows), rows
    assert queued == 0


def test_a_cancelled_crawl_resumes_from_its_queue(services, collection, chain_site):
    svc = graph_crawler(services, fetch_delay=0.3)
    job_id = svc.submit(CrawlRequest(collection, chain_site + "/index.html", max_pages=50, max_depth=2))
    crawl_id = svc.state.list(collection_id=services.collections.get(collection).id, limit=1)[0].id
    wait_until(lambda: done_pages(services, crawl_id) >= 3)
    services.jobs.request_cancel(job_id)
    wait_until(lambda: services.jobs.get(job_id).status != "running")
    assert services.jobs.get(job_id).status == "cancelled"

    info = svc.state.get(crawl_id)
    done_before = info.counts.get("ingested", 0)
    assert info.status == "cancelled" and info.resumable and 3 <= done_before < PAGES, info.counts
    assert done_before + info.counts["queued"] == PAGES, info.counts  # everything found so far is either done or queued

    result = svc.resume(crawl_id)
    assert result.crawl_id == crawl_id and result.job_id != job_id
    assert result.progress["fetched"] == PAGES - done_before  # the pages done before were not fetched again
    assert_whole_site(services, collection, chain_site, result)
    with pytest.raises(ValidationFailed, match="cannot be resumed|only a cancelled"):
        svc.resume(crawl_id)  # finished: start it again instead


@pytest.mark.slow
def test_a_crawl_killed_with_sigkill_resumes_without_duplicates(services, collection, chain_site, data_dir):
    env = {"RAG_FETCH_ALLOW_HOSTS": '["127.0.0.1"]', "RAG_FETCH_DELAY": "0.3"}
    proc = rag_process("ingest", "url", chain_site + "/index.html", collection, "--crawl", "--max-depth", "2",
                       data_dir=data_dir, env=env)
    coll = services.collections.get(collection)
    svc = graph_crawler(services)
    try:
        wait_until(lambda: bool(svc.state.list(collection_id=coll.id, limit=1)), timeout=300)
        crawl_id = svc.state.list(collection_id=coll.id, limit=1)[0].id
        wait_until(lambda: done_pages(services, crawl_id) >= 3 or proc.poll() is not None, timeout=300)
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)

    services.jobs.reap_stale()  # what the next start of the app or the CLI does
    info = svc.state.get(crawl_id)
    assert info.status == "interrupted" and info.resumable, (info.status, info.counts)
    result = svc.resume(crawl_id)
    assert_whole_site(services, collection, chain_site, result)
