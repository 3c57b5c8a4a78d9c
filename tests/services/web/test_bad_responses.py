"""Misbehaving pages each get a reason, and the crawl goes on past them."""

from __future__ import annotations

from services.web.crawl import CrawlRequest
from services.web.fetch import Fetcher
from tests.services.web.conftest import crawler, loopback_resolver, web_settings


def test_each_bad_response_has_a_reason(services, bad_site):
    settings = web_settings(services, fetch_timeout=1.0, fetch_max_bytes=100_000)
    with Fetcher(settings=settings, resolver=loopback_resolver) as fetcher:
        results = {p: fetcher.fetch(bad_site + p) for p in ("/404", "/500", "/slow", "/big", "/loop-a", "/good")}
    assert results["/404"].gone and "404" in results["/404"].reason
    assert "500" in results["/500"].reason
    assert "Timed out" in results["/slow"].reason
    assert "limit" in results["/big"].reason
    assert "Redirect loop" in results["/loop-a"].reason
    assert results["/good"].ok and results["/good"].status == 200


def test_crawl_goes_on_past_bad_pages(services, collection, bad_site):
    result = crawler(services, fetch_timeout=1.0, fetch_max_bytes=100_000).run(
        CrawlRequest(collection, bad_site + "/", max_depth=1))
    assert result.status == "partial"  # the good page was stored, others failed
    by_path = {p["url"].removeprefix(bad_site): p for p in result.pages}
    assert by_path["/good"]["status"] == "ingested"
    assert by_path["/404"]["status"] == "gone"
    assert by_path["/500"]["status"] == "failed" and "500" in by_path["/500"]["reason"]
    assert "Timed out" in by_path["/slow"]["reason"]
    assert "binary" in by_path["/binary"]["reason"] and by_path["/binary"]["status"] == "failed"
    assert "limit" in by_path["/big"]["reason"]
    assert "Redirect loop" in by_path["/loop-a"]["reason"]
    docs = services.documents.list(collection_id=services.collections.get(collection).id)
    assert {d.title for d in docs} <= {bad_site + "/", bad_site + "/good"}
