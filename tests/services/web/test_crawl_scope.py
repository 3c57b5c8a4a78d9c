"""Scope before budget: a URL outside include/exclude never takes one of the max_pages places, and the
queue is visited by depth, then by include pattern (the analyzer group first), then in link order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.web.crawl import CrawlRequest
from tests.services.web.conftest import crawler
from tests.services.web.sites import serve_pages

LIBRARY = [f"/library/lib{i:02d}.html" for i in range(12)]
HOWTO = [f"/howto/h{i}.html" for i in range(4)]


def _page(title: str, links: list[str] | None = None) -> str:
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links or [])
    return (f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>The {title} page tells "
            f"how the harbour office files its {title} notes.</p><ul>{anchors}</ul></main></body></html>")


@pytest.fixture
def docs_site() -> Iterator[str]:
    """An index whose links list 12 library pages before the how-to pages (as the Python docs' index does);
    /howto/moved.html redirects into the library; each how-to page links to a deeper one."""
    pages = {"/index.html": _page("index", LIBRARY + ["/howto/moved.html"] + HOWTO)}
    pages |= {p: _page(p.rsplit("/", 1)[-1][:-5]) for p in LIBRARY}
    pages |= {p: _page(p.rsplit("/", 1)[-1][:-5], [p.replace(".html", "-deep.html")]) for p in HOWTO}
    pages |= {p.replace(".html", "-deep.html"): _page("deep " + p.rsplit("/", 1)[-1][:-5]) for p in HOWTO}
    yield from (base for base, _ in serve_pages(pages, {"/howto/moved.html": "/library/lib00.html"}))


def _paths(base: str, urls) -> list[str]:
    return [u.removeprefix(base) for u in urls]


def test_pages_outside_the_include_never_take_a_place_in_the_budget(services, collection, docs_site):
    svc = crawler(services)
    result = svc.run(CrawlRequest(collection, docs_site + "/index.html", max_pages=4, max_depth=2,
                                  include=["/howto/*"]))
    assert result.status == "done"
    assert sorted(_paths(docs_site, [p["url"] for p in result.pages])) == HOWTO  # the 4 places: how-to pages only
    assert all(p["status"] == "ingested" for p in result.pages)
    coll = services.collections.get(collection)
    assert sorted(_paths(docs_site, [d.title for d in services.documents.list(collection_id=coll.id)])) == HOWTO
    rows = {p["url"].removeprefix(docs_site): p for p in svc.state.pages(result.crawl_id, include_queued=True)}
    assert rows["/index.html"]["status"] == "followed"  # read for its links, not stored
    assert rows["/howto/moved.html"]["status"] == "redirected" and "outside the crawl" in rows["/howto/moved.html"]["reason"]
    assert not any(path.startswith("/library/") for path in rows)
    assert result.progress["fetched"] == 6  # the index, the redirect and the four pages


def test_the_queue_goes_by_depth_then_by_include_pattern_then_link_order(services, collection, docs_site):
    result = crawler(services).run(CrawlRequest(collection, docs_site + "/index.html", max_pages=7, max_depth=2,
                                                include=["/howto/*", "/library/*"]))
    visited = _paths(docs_site, [p["url"] for p in result.pages])
    # depth 1: the how-to pages (the redirect among them leads to a library page already queued), then the
    # library pages in link order; the deeper how-to pages wait for depth 2.
    assert visited == [*HOWTO, "/library/lib00.html", "/library/lib01.html", "/library/lib02.html"], visited


def test_the_start_page_is_stored_when_it_is_in_scope(services, collection, docs_site):
    result = crawler(services).run(CrawlRequest(collection, docs_site + "/index.html", max_pages=2, max_depth=1,
                                                exclude=["/library/*"]))
    # the redirect into the excluded library is not stored and takes no place
    assert _paths(docs_site, [p["url"] for p in result.pages]) == ["/index.html", "/howto/h0.html"]
