"""Re-crawl a small copy of the manual after edits and deletions; analyse a site with a sitemap index."""

from __future__ import annotations

import shutil
from pathlib import Path

from services.web.crawl import CrawlRequest
from services.web.fetch import Fetcher
from services.web.sitemap import analyze_site
from tests.services.web.conftest import crawler, loopback_resolver, web_settings

PAGES = ["sql-createindex.html", "sql-dropindex.html", "sql-reindex.html", "sql-createtable.html", "sql-droptable.html"]


def _small_site(shared_data: Path, root: Path) -> None:
    root.mkdir()
    for name in PAGES:
        shutil.copy(shared_data / "postgresql-docs" / name, root / name)
    links = "".join(f'<li><a href="{n}">{n}</a></li>' for n in PAGES)
    (root / "index.html").write_text(f"<html><head><title>Start</title></head><body><ul>{links}</ul></body></html>")


def _titles(services, collection: str) -> dict[str, int]:
    coll = services.collections.get(collection)
    return {d.title: d.id for d in services.documents.list(collection_id=coll.id, limit=100)}


def test_recrawl_updates_changed_pages_and_deletes_vanished_ones(services, collection, shared_data, site_dir,
                                                                 serve_dir):
    _small_site(shared_data, site_dir)
    base = serve_dir(site_dir)
    svc = crawler(services)
    first = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=20, max_depth=1))
    assert first.count("ingested") == 6
    before = _titles(services, collection)

    (site_dir / "sql-droptable.html").unlink()  # gone: 404, still linked from the index
    index = (site_dir / "index.html").read_text().replace('<li><a href="sql-reindex.html">sql-reindex.html</a></li>', "")
    (site_dir / "index.html").write_text(index)  # sql-reindex.html is no longer reached
    page = site_dir / "sql-dropindex.html"
    page.write_text(page.read_text().replace("<body", "<body><p>Zanzibar flamingos deprecate every index.</p>", 1)
                    .replace("DROP INDEX — remove an index", "DROP INDEX — remove an index. Zanzibar flamingos."))

    second = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=20, max_depth=1, mode="reingest"))
    assert second.status == "done"
    statuses = {p["url"].removeprefix(base + "/"): p["status"] for p in second.pages}
    assert statuses["sql-dropindex.html"] == "replaced"
    assert statuses["sql-createindex.html"] == "unchanged"
    assert statuses["sql-droptable.html"] == "deleted"
    assert sorted(u.removeprefix(base + "/") for u in second.deleted) == ["sql-droptable.html", "sql-reindex.html"]
    after = _titles(services, collection)
    assert set(before) - set(after) == {base + "/sql-droptable.html", base + "/sql-reindex.html"}
    assert after[base + "/sql-createindex.html"] == before[base + "/sql-createindex.html"]
    hits = services.search.search("Zanzibar flamingos", collections=[collection], mode="keyword").hits
    assert hits and hits[0].title == base + "/sql-dropindex.html"


def _sitemap(urls: list[str]) -> str:
    body = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>'


def test_analyzer_reads_a_sitemap_index_with_nested_sitemaps(services, site_dir, serve_dir):
    site_dir.mkdir()
    (site_dir / "docs").mkdir()
    (site_dir / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    base = serve_dir(site_dir)
    docs = [f"{base}/docs/page-{i}.html" for i in range(40)]
    blog = [f"{base}/blog/2024/post-{i}.html?utm_source=feed" for i in range(12)]
    (site_dir / "sitemap-docs.xml").write_text(_sitemap(docs))
    (site_dir / "sitemap-blog.xml").write_text(_sitemap(blog))
    (site_dir / "sitemap.xml").write_text(
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{base}/sitemap-docs.xml</loc></sitemap><sitemap><loc>{base}/sitemap-blog.xml</loc></sitemap>"
        "</sitemapindex>")
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        analysis = analyze_site(base + "/", fetcher=fetcher, time_limit=20)
    assert analysis.source == "sitemap" and analysis.total_found == 52
    assert {(g.pattern, g.count) for g in analysis.groups} == {("/docs/*", 40), ("/blog/*", 12)}
    assert all("utm_" not in u for u in analysis.urls)
    assert not analysis.stopped_early
    assert len(analysis.sitemaps) == 3


def test_robots_sitemap_lines_are_followed(services, site_dir, serve_dir):
    site_dir.mkdir()
    base = serve_dir(site_dir)
    (site_dir / "robots.txt").write_text(f"User-agent: *\nSitemap: {base}/maps/main.xml\n")
    (site_dir / "maps").mkdir()
    (site_dir / "maps" / "main.xml").write_text(_sitemap([f"{base}/guide/a.html", f"{base}/guide/b.html"]))
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        analysis = analyze_site(base + "/", fetcher=fetcher, time_limit=20)
    assert analysis.source == "sitemap" and analysis.total_found == 2
    assert analysis.groups[0].pattern == "/guide/*"


def test_robots_txt_is_respected_unless_turned_off(services, site_dir, serve_dir):
    site_dir.mkdir()
    (site_dir / "private").mkdir()
    (site_dir / "private" / "page.html").write_text("<html><body><p>Hidden.</p></body></html>")
    (site_dir / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    base = serve_dir(site_dir)
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        refused = fetcher.fetch(base + "/private/page.html")
    assert not refused.ok and "robots.txt" in refused.reason
    with Fetcher(settings=web_settings(services, fetch_respect_robots=False), resolver=loopback_resolver) as fetcher:
        assert fetcher.fetch(base + "/private/page.html").ok


def test_robots_txt_wildcards_follow_rfc_9309(services, site_dir, serve_dir):
    """``*`` matches any run of characters and ``$`` anchors the end; the longest matching rule wins."""
    site_dir.mkdir()
    for folder in ("docs", "private-2024", "private-ok"):
        (site_dir / folder).mkdir()
    for path in ("docs/guide.pdf", "docs/guide.pdf.html", "docs/page.html", "private-2024/secret.html",
                 "private-ok/secret.html"):
        (site_dir / path).write_text("<html><body><p>Some text.</p></body></html>")
    (site_dir / "robots.txt").write_text("User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*/secret\n"
                                         "Allow: /private-ok/secret\n")
    base = serve_dir(site_dir)
    with Fetcher(settings=web_settings(services), resolver=loopback_resolver) as fetcher:
        allowed = {p: fetcher.robots_allow(f"{base}/{p}") for p in ("docs/guide.pdf", "docs/guide.pdf.html",
                   "docs/page.html", "private-2024/secret.html", "private-ok/secret.html")}
        refused = fetcher.fetch(base + "/private-2024/secret.html")
    assert allowed == {"docs/guide.pdf": False, "docs/guide.pdf.html": True, "docs/page.html": True,
                       "private-2024/secret.html": False, "private-ok/secret.html": True}
    assert not refused.ok and "robots.txt" in refused.reason


def _write_index(root: Path, links: list[str]) -> None:
    items = "".join(f'<li><a href="{n}">{n}</a></li>' for n in links)
    (root / "index.html").write_text(f"<html><head><title>Start</title></head><body><main><p>The harbour office "
                                     f"index lists its notes.</p><ul>{items}</ul></main></body></html>")


def test_a_narrower_recrawl_deletes_nothing_it_merely_did_not_visit(services, collection, site_dir, serve_dir):
    names = ["a.html", "b.html", "c.html", "guide/d.html", "guide/e.html"]
    (site_dir / "guide").mkdir(parents=True)
    for name in names:
        (site_dir / name).write_text(f"<html><head><title>{name}</title></head><body><main><p>Note {name} records "
                                     f"which berth the {name} ferry uses on Sundays.</p></main></body></html>")
    _write_index(site_dir, names)
    base = serve_dir(site_dir)
    svc = crawler(services)
    everything = {f"{base}/{n}" for n in ["index.html", *names]}
    first = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=20, max_depth=1))
    assert first.count("ingested") == 6

    narrow = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=20, max_depth=1, mode="reingest",
                                  include=["/guide/*"]))  # a narrower include
    assert narrow.status == "done" and narrow.deleted == []
    assert {p["url"] for p in narrow.pages} == {f"{base}/guide/d.html", f"{base}/guide/e.html"}
    assert set(narrow.not_visited) == everything - {f"{base}/guide/d.html", f"{base}/guide/e.html"}
    assert "4 not visited this time (kept)" in narrow.summary()
    assert set(_titles(services, collection)) == everything

    (site_dir / "b.html").unlink()  # now 404, but this crawl's budget ends before it
    fewer = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=2, max_depth=1, mode="reingest"))
    assert fewer.status == "done" and fewer.deleted == [] and len(fewer.pages) == 2  # a smaller max_pages
    assert set(_titles(services, collection)) == everything

    _write_index(site_dir, ["a.html", "b.html", "guide/d.html", "guide/e.html"])  # c.html no longer linked
    whole = svc.run(CrawlRequest(collection, base + "/index.html", max_pages=20, max_depth=1, mode="reingest"))
    # the same scope as the first crawl, covered completely: b answers 404, c is not reached any more
    assert sorted(whole.deleted) == [f"{base}/b.html", f"{base}/c.html"], whole.summary()
    reasons = {p["url"]: p["reason"] for p in whole.pages if p["status"] == "deleted"}
    assert "404/410" in reasons[f"{base}/b.html"] and "no longer reaches" in reasons[f"{base}/c.html"]
    assert set(_titles(services, collection)) == everything - {f"{base}/b.html", f"{base}/c.html"}
