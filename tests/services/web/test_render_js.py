"""JavaScript rendering of crawled pages in Debian's chromium: content and links made by scripts are
ingested, and the page's own requests pass the SSRF guard.

Every page and script here is on 127.0.0.1. The page also tries to load a script from 169.254.169.254,
a frame from 10.0.0.1 and to navigate to 10.0.0.2: the renderer serves page requests only through the
guarded Fetcher, which refuses them. The browser's own connections all go to a proxy on a closed
loopback port; the last test checks that net by breaking the request handler on purpose.
"""

from __future__ import annotations

import http.server
import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa

from services.errors import ConfigError
from services.web.crawl import CrawlRequest
from services.web.fetch import Fetcher
from services.web.render import Renderer
from tests.services.web.conftest import crawler, loopback_resolver, serve, web_settings

pytestmark = pytest.mark.skipif(not shutil.which("chromium"), reason="Debian chromium is not installed (make test installs it)")

INDEX = """<!doctype html><html><head><title>Harbour app</title><script src="/app.js" defer></script></head>
<body><main id="app">Loading…</main>
<img src="http://10.0.0.1/pixel.png" alt="">
<script src="http://169.254.169.254/latest/meta-data.js"></script>
<iframe src="http://10.0.0.1/frame.html"></iframe>
</body></html>"""
APP_JS = """
const app = document.getElementById('app');
app.innerHTML = '<h1>Harbour log</h1><p>The harbour master records every ship that enters the bay at dawn, '
  + 'with its cargo and its crew.</p><p><a href="/second.html">Tide tables</a></p>';
fetch('/data.json').then(r => r.json()).then(d => {
  const p = document.createElement('p'); p.textContent = d.note; app.appendChild(p);
  setTimeout(() => { window.location.href = 'http://10.0.0.2/elsewhere'; }, 10);
});
"""
DATA = '{"note": "Fog signals sound every thirty seconds when visibility drops below a mile."}'
SECOND = ("<html><head><title>Tide tables</title></head><body><main><p>The tide tables list high and low water "
          "for every mooring in the harbour, a year ahead.</p></main></body></html>")

REFUSED = {"http://10.0.0.1/frame.html", "http://169.254.169.254/latest/meta-data.js", "http://10.0.0.2/elsewhere"}


@pytest.fixture
def js_site(site_dir: Path, serve_dir) -> str:
    site_dir.mkdir()
    for name, text in {"index.html": INDEX, "app.js": APP_JS, "data.json": DATA, "second.html": SECOND}.items():
        (site_dir / name).write_text(text, encoding="utf-8")
    return serve_dir(site_dir)


def _content(services, collection: str, url: str) -> str:
    coll = services.collections.get(collection)
    with services.engine.connect() as conn:
        return conn.execute(sa.text("SELECT d.content FROM documents d JOIN collection_documents cd "
                                    "ON cd.document_id = d.id WHERE cd.collection_id = :c AND cd.title = :t"),
                            {"c": coll.id, "t": url}).scalar_one()


def test_renderer_runs_the_scripts_and_refuses_requests_the_guard_forbids(services, js_site):
    settings = web_settings(services)
    with Fetcher(settings=settings, resolver=loopback_resolver) as fetcher, Renderer(settings, fetcher) as renderer:
        rendered = renderer.render(js_site + "/index.html", INDEX.encode())
    html = rendered.html.decode()
    assert "harbour master records every ship" in html and "Fog signals sound" in html
    assert "Harbour app" in html  # still our page: the script's navigation to 10.0.0.2 did not happen
    assert REFUSED <= set(rendered.blocked), rendered.blocked
    assert "private-network address" in rendered.reasons["http://10.0.0.1/frame.html"], rendered.reasons
    assert "metadata address" in rendered.reasons["http://169.254.169.254/latest/meta-data.js"], rendered.reasons


def test_crawl_with_rendering_ingests_script_made_text_and_follows_script_made_links(services, collection, js_site):
    svc = crawler(services)
    result = svc.run(CrawlRequest(collection, js_site + "/index.html", max_pages=5, max_depth=1, render_js=True))
    assert result.status == "done", result.progress
    status = {p["url"]: p["status"] for p in result.pages}
    assert status == {js_site + "/index.html": "ingested", js_site + "/second.html": "ingested"}, result.pages
    text = _content(services, collection, js_site + "/index.html")
    assert "harbour master records every ship" in text and "Fog signals sound every thirty seconds" in text
    assert "Loading…" not in text
    assert result.progress["render_blocked"] >= len(REFUSED)
    hits = services.search.search("who keeps a record of the ships entering the bay", collections=[collection]).hits
    assert hits and hits[0].title == js_site + "/index.html"


def test_without_rendering_the_script_made_content_is_absent(services, collection, js_site):
    result = crawler(services).run(CrawlRequest(collection, js_site + "/index.html", max_pages=5, max_depth=1))
    assert [p["url"] for p in result.pages] == [js_site + "/index.html"]  # no link exists before the script runs
    assert "harbour master" not in _content(services, collection, js_site + "/index.html")


def test_rendering_without_chromium_is_refused_before_a_job_starts(services, collection, js_site):
    svc = crawler(services, chromium_path="/nonexistent/chromium")
    count = sa.text("SELECT count(*) FROM jobs")
    with services.engine.connect() as conn:
        before = conn.execute(count).scalar_one()
    with pytest.raises(ConfigError, match="chromium"):
        svc.run(CrawlRequest(collection, js_site + "/index.html", render_js=True))
    with services.engine.connect() as conn:
        assert conn.execute(count).scalar_one() == before


def test_with_the_request_handler_broken_nothing_leaves_the_machine(services, js_site, monkeypatch):
    """The second net: if the handler let the page's requests through to the browser's own network stack,
    they would reach the closed-port proxy on loopback (here a recorder answering 502), never 10.0.0.1."""
    seen: list[str] = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            seen.append(self.path)  # a proxy request carries the absolute URL
            self.send_response(502)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_CONNECT = do_GET

    def broken(self, r, page, url, html, content_type, out) -> None:
        if r.request.url == url:
            r.fulfill(status=200, body=html, content_type=content_type)
        else:
            r.continue_()  # what a broken guard would do: let the browser fetch it itself

    proxy = serve(Recorder)
    monkeypatch.setattr("services.web.render.DEAD_PROXY", next(proxy))
    monkeypatch.setattr(Renderer, "_handle", broken)
    settings = web_settings(services)
    try:
        with Fetcher(settings=settings, resolver=loopback_resolver) as fetcher, Renderer(settings, fetcher) as renderer:
            renderer.render(js_site + "/index.html", INDEX.encode())
    finally:
        proxy.close()
    assert {"http://10.0.0.1/pixel.png", "http://169.254.169.254/latest/meta-data.js"} <= set(seen), seen
