"""Small websites written by the tests: Sphinx-style documentation pages (the shape of docs.python.org)
and a page-by-page HTTP server with redirects and a gate that holds one page until the test lets it go."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

from tests.services.web.conftest import serve

# Text that only the site's chrome carries: a chunk holding any of it is boilerplate.
SPHINX_CHROME = ("Quick search", "Previous topic", "Next topic", "Report a Bug", "Show Source", "Theme Auto Light",
                 "Copyright 2001-2023 Python Software Foundation", "Table of Contents")


def sphinx_page(title: str, topic: str, *, links: list[str] | None = None) -> str:
    """A documentation page shaped like Python's (Sphinx): navigation, sidebars and footer around a
    ``role="main"`` body with permalinks (¶), code with ``#`` comments, an API entry list, a table,
    an admonition, a footnote and a horizontal rule."""
    nav_links = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links or [])
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} — Docs</title>
<script>var DOCUMENTATION_OPTIONS = {{}};</script><style>body {{ color: #222 }}</style></head><body>
<div class="mobile-nav"><nav class="nav-content" role="navigation"><form role="search" class="search">
<input type="text" name="q" aria-label="Quick search"/></form></nav>
<div class="menu-wrapper"><nav class="menu" role="navigation" aria-label="main navigation">
<h3>Table of Contents</h3><ul><li>Theme Auto Light</li></ul></nav></div></div>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3>
<ul><li><a href="index.html">index</a></li><li>Previous topic</li><li>Next topic</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper">
<div class="body" role="main">
<section id="{topic}-section"><h1>{title}<a class="headerlink" href="#{topic}-section" title="Permalink">¶</a></h1>
<p>The {topic} module keeps a ledger of harbour {topic} and explains how the keepers read it each morning.</p>
<nav class="contents local" id="contents"><p class="topic-title">Contents</p>
<ul><li><a href="#usage">Usage</a></li><li><a href="#reference">Reference</a></li></ul></nav>
<section id="usage"><h2>Usage<a class="headerlink" href="#usage">¶</a></h2>
<p>Sort the {topic} by weight before the tide turns:</p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="c1"># sort the {topic} by weight</span>
<span class="n">ledger</span> <span class="o">=</span> <span class="nb">sorted</span>(<span class="n">items</span>)
<span class="c1"># keep the heaviest {topic} first</span>
<span class="n">ledger</span><span class="o">.</span><span class="n">reverse</span><span class="p">()</span>
</pre></div></div>
<div class="admonition note"><p class="admonition-title">Note</p>
<p>The ledger of {topic} is rewritten at dawn<a class="footnote-reference brackets" href="#f1">1</a>.</p></div>
<hr class="docutils"/>
<table class="docutils align-default"><thead><tr><th class="head"><p>Name</p></th><th class="head"><p>Meaning</p></th>
</tr></thead><tbody><tr><td><p><code class="docutils literal"><span class="pre">weigh()</span></code></p></td>
<td><p>Weigh the {topic} on the quay | in kilograms</p></td></tr>
<tr><td><p><code>count()</code></p></td><td><p>Count every {topic} in the ledger</p></td></tr></tbody></table>
</section>
<section id="reference"><h2>Reference<a class="headerlink" href="#reference">¶</a></h2>
<dl class="py function"><dt class="sig sig-object py" id="{topic}.weigh">
<span class="sig-prename">{topic}.</span><span class="sig-name">weigh</span>(<em>item</em>)<a class="headerlink"
href="#{topic}.weigh">¶</a></dt>
<dd><p>Return the weight of one of the {topic}, rounded to the nearest gram.</p></dd></dl>
<dl class="py function"><dt class="sig sig-object py" id="{topic}.count">
<span class="sig-name">count</span>()<a class="headerlink" href="#{topic}.count">¶</a></dt>
<dd><p>Return how many {topic} the ledger holds; the harbour master checks this number weekly.</p></dd></dl>
<aside class="footnote brackets" id="f1" role="note"><span class="label">1</span>
<p>Dawn is when the first ferry of the {topic} season leaves.</p></aside>
</section></section>
<ul>{nav_links}</ul>
</div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation"><div class="sphinxsidebarwrapper">
<h4>Previous topic</h4><h4>Next topic</h4><h3>This Page</h3><ul class="this-page-menu"><li>Report a Bug</li>
<li>Show Source</li></ul></div></div></div>
<div class="footer">Copyright 2001-2023 Python Software Foundation. Last updated on Mar 1.</div>
</body></html>"""


class PageServer(http.server.BaseHTTPRequestHandler):
    """Serves ``pages`` (path -> HTML) and ``redirects`` (path -> path); a request for ``gate_path``
    waits until ``gate`` is set (``requested`` is set when it arrives)."""

    pages: dict[str, str] = {}
    redirects: dict[str, str] = {}
    gate_path: str | None = None
    gate = threading.Event()
    requested = threading.Event()

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == self.gate_path:
            self.requested.set()
            self.gate.wait(120)
        if path in self.redirects:
            self.send_response(301)
            self.send_header("Location", self.redirects[path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = self.pages.get(path)
        code = 200 if body is not None else 404
        data = (body if body is not None else "not here").encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client went away (Ctrl-C)
            pass


def serve_pages(pages: dict[str, str], redirects: dict[str, str] | None = None,
                gate_path: str | None = None) -> Iterator[tuple[str, type[PageServer]]]:
    """Serve the pages on loopback; yields (base URL, the handler class with its gate)."""
    handler = type("Pages", (PageServer,), {"pages": pages, "redirects": redirects or {}, "gate_path": gate_path,
                                            "gate": threading.Event(), "requested": threading.Event()})
    for base in serve(handler):
        try:
            yield base, handler
        finally:
            handler.gate.set()  # let a held request finish before the server stops
