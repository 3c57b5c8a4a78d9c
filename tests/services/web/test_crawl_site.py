"""Crawl the PostgreSQL manual served on loopback: page limits, boilerplate removal, search, analysis."""

from __future__ import annotations

import threading

import pytest

from services.errors import JobInProgress
from services.web.crawl import CrawlRequest
from services.web.fetch import Fetcher
from services.web.sitemap import analyze_site
from tests.services.web.conftest import crawler, loopback_resolver, web_settings


def test_analyzer_groups_the_manual_by_link_discovery(services, pg_docs_site):
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        analysis = analyze_site(pg_docs_site + "/index.html", fetcher=fetcher, time_limit=20)
    assert analysis.source == "links" and analysis.total_found > 30
    assert len(analysis.urls) <= 150
    patterns = {g.pattern: g.count for g in analysis.groups}
    assert sum(patterns.values()) == analysis.total_found
    assert any(p.endswith("-*") and n > 1 for p, n in patterns.items())


def test_analyzer_stops_at_the_time_limit(services, pg_docs_site):
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        analysis = analyze_site(pg_docs_site + "/index.html", fetcher=fetcher, time_limit=0.05)
    assert analysis.stopped_early and "time limit" in analysis.reason


def test_crawl_of_fifty_pages(services, collection, pg_docs_site):
    result = crawler(services).run(CrawlRequest(collection, pg_docs_site + "/sql-createindex.html",
                                                max_pages=50, max_depth=2, include=["/sql-*"]))
    assert result.status == "done" and len(result.pages) == 50
    ingested = {p["url"] for p in result.pages if p["status"] == "ingested"}
    coll = services.collections.get(collection)
    docs = services.documents.list(collection_id=coll.id, limit=1000)
    assert {d.title for d in docs} == ingested
    assert pg_docs_site + "/sql-createindex.html" in ingested
    assert all("/sql-" in url for url in ingested)  # an analyzer group pattern works as an include filter
    assert result.progress["fetched"] == 50 and result.progress["ingested"] == len(ingested)

    doc = next(d for d in docs if d.title.endswith("/sql-createindex.html"))
    view = services.documents.get(doc.id)
    assert view.summary.metadata["title"] == "CREATE INDEX" and view.summary.metadata["url"] == doc.title
    assert view.summary.metadata["crawl_id"] == result.crawl_id and view.summary.metadata["fetched_at"]

    import sqlalchemy as sa
    with services.engine.connect() as conn:
        texts = [r[0] for r in conn.execute(sa.text(
            "SELECT c.text FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id "
            "WHERE cd.collection_id = :c"), {"c": coll.id})]
    nav = sum(1 for t in texts if "Prev" in t and "Up" in t and "Next" in t)
    assert texts and nav < 0.1 * len(texts)

    hits = services.search.search("how do I build an index concurrently", collections=[collection], mode="semantic").hits
    assert any(h.title.endswith("/sql-createindex.html") for h in hits[:3])

    again = crawler(services).run(CrawlRequest(collection, pg_docs_site + "/sql-createindex.html",
                                               max_pages=1, max_depth=0))
    assert again.pages[0]["status"] == "skipped" and "reingest" in again.pages[0]["reason"]

    state = crawler(services).pages(result.crawl_id)
    assert len(state) == 50


def test_the_same_crawl_twice_is_refused_while_it_runs(services, collection, pg_docs_site):
    svc = crawler(services, fetch_delay=0.2)
    request = CrawlRequest(collection, pg_docs_site + "/index.html", max_pages=3, max_depth=1)
    job_id = svc.submit(request)
    with pytest.raises(JobInProgress, match="already in progress"):
        svc.start(CrawlRequest(collection, pg_docs_site + "/index.html", max_pages=3, max_depth=1))
    services.jobs.request_cancel(job_id)
    done = threading.Event()
    for _ in range(200):
        if services.jobs.get(job_id).finished:
            done.set()
            break
        threading.Event().wait(0.1)
    assert done.is_set() and services.jobs.get(job_id).status in ("cancelled", "done")
