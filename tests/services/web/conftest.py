"""Web-ingestion fixtures: static sites and misbehaving endpoints on 127.0.0.1 only.

Nothing here resolves a real hostname: the fetcher gets ``loopback_resolver``,
which knows only ``localhost``-style test names and refuses everything else, and
the settings allow 127.0.0.1 alone.
"""

from __future__ import annotations

import dataclasses
import functools
import http.server
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from services.ingest.pipeline import IngestionService
from services.settings import Settings
from services.web.crawl import CrawlService
from tests.conftest import without_shared_data


def loopback_resolver(host: str) -> list[str]:
    """Test names resolve to loopback; anything else is an error (never real DNS)."""
    if host in ("127.0.0.1", "localhost", "site.test"):
        return ["127.0.0.1"]
    raise OSError(f"test resolver: unknown host {host}")


def web_settings(services, **overrides) -> Settings:
    """The session's settings with loopback allowed and no politeness delay."""
    values = {"fetch_allow_hosts": ["127.0.0.1"], "fetch_delay": 0.0, "fetch_timeout": 5.0, **overrides}
    return services.settings.model_copy(update=values)


@pytest.fixture
def web_services(services):
    """The session's services with web settings, handed to the CLI and MCP through the documented hook."""
    from cli import context

    settings = web_settings(services)
    ingestion = IngestionService(settings=settings, embedder=services.embedder, collections=services.collections,
                                 documents=services.documents, jobs=services.jobs, graph=None)
    svc = dataclasses.replace(services, settings=settings, ingestion=ingestion)  # its crawler: built from this ingestion
    context.set_services(svc)
    yield svc
    context.set_services(None)


def crawler(services, **overrides) -> CrawlService:
    """A CrawlService on the real stores, without the graph step (faster; facts are tested elsewhere)."""
    ingestion = IngestionService(settings=web_settings(services, **overrides), embedder=services.embedder,
                                 collections=services.collections, documents=services.documents,
                                 jobs=services.jobs, graph=None)
    return CrawlService(ingestion=ingestion, deletion=services.deletion, resolver=loopback_resolver)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output clean
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the fetcher stopped reading (size cap, cancel)
            pass


def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def serve_directory(root: Path) -> Iterator[str]:
    yield from serve(functools.partial(_Quiet, directory=str(root)))  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def pg_docs_site(shared_data: Path) -> Iterator[str]:
    root = shared_data / "postgresql-docs"
    if not root.is_dir():
        without_shared_data("the PostgreSQL manual (postgresql-docs)")
    yield from serve_directory(root)


@pytest.fixture
def site_dir(tmp_path: Path) -> Path:
    return tmp_path / "site"


@pytest.fixture
def serve_dir() -> Iterator[Callable[[Path], str]]:
    """``serve_dir(path)`` serves a directory on loopback until the test ends."""
    gens = []

    def start(root: Path) -> str:
        gen = serve_directory(root)
        gens.append(gen)
        return next(gen)

    yield start
    for gen in gens:
        gen.close()


class _Bad(http.server.BaseHTTPRequestHandler):
    """Endpoints that misbehave: /404, /500, /slow, /binary, /big, /loop-a <-> /loop-b; / links to all."""

    def log_message(self, *args) -> None:
        pass

    def _send(self, code: int, body: bytes, ctype: str = "text/html", headers: dict | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body is not None:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self) -> None:
        path = self.path
        if path == "/":
            links = "".join(f'<a href="{p}">{p}</a> ' for p in
                            ("/404", "/500", "/slow", "/binary", "/big", "/loop-a", "/good"))
            self._send(200, f"<html><head><title>Index</title></head><body><p>{links}</p></body></html>".encode())
        elif path == "/good":
            text = "<p>The good page explains how the lighthouse keeper trims the wick every evening.</p>" * 3
            self._send(200, f"<html><head><title>Good</title></head><body><main>{text}</main></body></html>".encode())
        elif path == "/500":
            self._send(500, b"oops")
        elif path == "/slow":
            time.sleep(2.5)
            self._send(200, b"<html><body>late</body></html>")
        elif path == "/binary":
            self._send(200, bytes(range(256)) * 64)
        elif path == "/big":
            self._send(200, b"<html><body>" + b"x" * 300_000 + b"</body></html>")
        elif path in ("/loop-a", "/loop-b"):
            target = "/loop-b" if path == "/loop-a" else "/loop-a"
            self._send(302, b"", headers={"Location": target})
        else:
            self._send(404, b"not here")


@pytest.fixture(scope="session")
def bad_site() -> Iterator[str]:
    yield from serve(_Bad)
