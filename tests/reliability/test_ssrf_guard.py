"""The SSRF guard on URLs a user or a redirect supplies, decided without sending a packet anywhere.

Decisions use a resolver that only parses numeric addresses (``AI_NUMERICHOST``:
no DNS query) or a fixed table. The redirect tests run a server on 127.0.0.1, and a
fixture makes any connection to a non-loopback address fail the test outright, so
even a broken guard could not reach the outside.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.settings import Settings
from services.web.fetch import Fetcher
from services.web.url_safety import UnsafeURL, check_url

NAMES = {"localhost": ["127.0.0.1", "::1"], "metadata.example": ["169.254.169.254"],
         "rebind.example": ["93.184.216.34", "10.1.2.3"], "public.example": ["93.184.216.34"]}


def numeric_or_table(host: str) -> list[str]:
    """Like the OS resolver for numeric spellings (127.1, 0x7f000001, 2130706433...), a table for names."""
    if host in NAMES:
        return NAMES[host]
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    return list(dict.fromkeys(str(i[4][0]) for i in infos))


@pytest.mark.parametrize("url", [
    "http://2130706433/", "http://0x7f000001/", "http://017700000001/", "http://127.1/", "http://0/",
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:a9fe:a9fe]/latest/meta-data/", "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://evil.example@127.0.0.1/", "http://127.0.0.1:80#@public.example/", "HTTP://LOCALHOST./admin",
    "http://[fe80::1%25eth0]/", "http://100.64.0.1/", "http://198.18.0.1/", "http://[fc00::1]/", "http://[::]/",
    "http://rebind.example/", "http://metadata.example:8080/",
], ids=["decimal", "hex", "octal", "short-form", "zero", "v4-mapped-loopback", "v4-mapped-metadata",
        "v4-mapped-long", "userinfo", "fragment-trick", "localhost-dot", "link-local-zone", "cgnat", "benchmark",
        "ula", "v6-unspecified", "one-bad-address", "metadata-port"])
def test_disguised_internal_addresses_are_refused(url):
    with pytest.raises(UnsafeURL, match="Refusing to fetch"):
        check_url(url, resolver=numeric_or_table, allowed=[])


@pytest.mark.parametrize("url", [
    "gopher://127.0.0.1:6379/_INFO", "dict://127.0.0.1:11211/stat", "file:///etc/passwd", "http:///no-host",
    "http://public.example:99999/",
], ids=["gopher", "dict", "file", "no-host", "bad-port"])
def test_other_schemes_and_malformed_urls_are_refused(url):
    with pytest.raises(UnsafeURL):
        check_url(url, resolver=numeric_or_table, allowed=[])


def test_a_public_address_is_allowed_without_connecting():
    assert check_url("http://public.example/page", resolver=numeric_or_table, allowed=[]) == ["93.184.216.34"]
    assert check_url("http://93.184.216.34/", resolver=numeric_or_table, allowed=[]) == ["93.184.216.34"]


@pytest.fixture
def loopback_only(monkeypatch) -> None:
    """Fail the test at once if anything tries to connect to an address that is not loopback."""
    real_connect = socket.socket.connect

    def connect(self, address):  # type: ignore[no-untyped-def]
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not ipaddress.ip_address(host).is_loopback:
            raise AssertionError(f"a connection to {address} was attempted")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)


@pytest.fixture
def redirector(loopback_only) -> Iterator[tuple[str, dict[str, str]]]:
    """A loopback server that answers every GET with a 302 to ``target["location"]``."""
    target = {"location": "/"}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(302)
            self.send_header("Location", target["location"])
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", target
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("location", "reason"), [
    ("http://169.254.169.254/latest/meta-data/", "cloud metadata"),
    ("http://metadata.example/", "cloud metadata"),
    ("http://10.0.0.7/admin", "private-network"),
    ("http://[::ffff:10.0.0.7]/", "private-network"),
    ("file:///etc/passwd", "Only http and https"),
    ("gopher://127.0.0.1:6379/_FLUSHALL", "Only http and https"),
    ("http://public.example:99999/", "invalid port"),
], ids=["metadata-ip", "metadata-name", "private", "mapped-private", "file", "gopher", "bad-port"])
def test_a_redirect_to_a_forbidden_target_is_a_reason_not_a_request(redirector, location, reason):
    base, target = redirector
    target["location"] = location
    settings = Settings(fetch_allow_hosts=["127.0.0.1"], fetch_delay=0, fetch_timeout=5)
    with Fetcher(settings=settings, resolver=numeric_or_table) as fetcher:
        result = fetcher.fetch(f"{base}/start", robots=False)
    assert not result.ok and reason in (result.reason or ""), result
