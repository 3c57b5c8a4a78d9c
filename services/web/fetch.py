"""Fetch web pages safely: SSRF checks per hop and at connect time, size caps, robots.txt, politeness.

Every failure is a result with a reason (never an exception), so a crawl reports
the page and goes on. Redirects are followed by hand (at most ``MAX_REDIRECTS``)
so each hop's URL is checked; the connection itself goes through a network
backend that resolves the host with the same resolver, checks every address and
connects to the checked address (no second DNS lookup to rebind).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx
from protego import Protego

from services.errors import ValidationFailed
from services.ingest.parsing import SUPPORTED_SUFFIXES
from services.settings import Settings
from services.web.url_safety import Resolver, UnsafeURL, canonical_url, check_ip, check_url, system_resolver

MAX_REDIRECTS = 5
PAGE_TYPES = (
    "text/html", "application/xhtml+xml", "text/plain", "text/markdown", "text/x-markdown", "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
)


@dataclass
class FetchResult:
    url: str  # as asked (canonical)
    final_url: str  # after redirects (canonical)
    status: int | None  # HTTP status, None when no response arrived
    content_type: str = ""
    body: bytes = b""
    reason: str | None = None  # why the page was not usable; None when ok

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def gone(self) -> bool:
        """The server says the page does not exist (a re-crawl deletes its document)."""
        return self.status in (404, 410)


class _GuardedBackend(httpcore.SyncBackend):
    """Resolve with the injected resolver, refuse forbidden addresses, connect to the checked one."""

    def __init__(self, resolver: Resolver, allowed: list[str]) -> None:
        self.resolver = resolver
        self.allowed = allowed

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> httpcore.NetworkStream:
        try:
            addresses = check_url(f"http://{host}/", resolver=self.resolver, allowed=self.allowed)
            for address in addresses:
                check_ip(host, address, self.allowed)
        except UnsafeURL as exc:
            raise httpcore.ConnectError(str(exc)) from None
        error: Exception | None = None
        for address in addresses:
            try:
                return super().connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                           socket_options=socket_options)
            except httpcore.ConnectError as exc:
                error = exc
        raise error or httpcore.ConnectError(f"Could not connect to {host}.")


class Fetcher:
    """One per crawl or analysis; thread-safe. Close it (or use ``with``) to release connections."""

    def __init__(self, *, settings: Settings, resolver: Resolver | None = None) -> None:
        self.settings = settings
        self.resolver = resolver or system_resolver
        self.allowed = list(settings.fetch_allow_hosts)
        transport = httpx.HTTPTransport()
        transport._pool = httpcore.ConnectionPool(network_backend=_GuardedBackend(self.resolver, self.allowed))
        self.client = httpx.Client(
            transport=transport, trust_env=False, follow_redirects=False,
            timeout=httpx.Timeout(settings.fetch_timeout), headers={"User-Agent": settings.fetch_user_agent},
        )
        self._robots: dict[str, Protego] = {}
        self._last: dict[str, float] = {}
        self._slots: dict[str, threading.Semaphore] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.client.close()

    # -- public ---------------------------------------------------------------------------
    def fetch(self, url: str, *, types: tuple[str, ...] = PAGE_TYPES, robots: bool = True,
              timeout: float | None = None, polite: bool = True) -> FetchResult:
        """GET ``url``; the result carries the body, or a reason when it cannot be used.

        ``polite=False`` skips the per-host delay (a rendered page's own scripts and data, fetched
        for one page view); the per-host concurrency limit still applies.
        """
        try:
            current = canonical_url(url)
        except ValidationFailed as exc:
            return FetchResult(url, url, None, reason=str(exc))
        first, seen = current, {current}
        for _hop in range(MAX_REDIRECTS + 1):
            try:
                check_url(current, resolver=self.resolver, allowed=self.allowed)
            except UnsafeURL as exc:
                return FetchResult(first, current, None, reason=str(exc))
            if robots and self.settings.fetch_respect_robots and not self.robots_allow(current):
                return FetchResult(first, current, None, reason="Disallowed by the site's robots.txt.")
            result = self._get(first, current, types, timeout, polite)
            if not isinstance(result, str):
                return result
            try:
                nxt = canonical_url(urljoin(current, result)) if result else ""
            except UnsafeURL as exc:  # e.g. a redirect to file:// or gopher://
                return FetchResult(first, current, None, reason=f"Redirected to a URL that cannot be fetched: {exc}")
            if not nxt or nxt in seen:
                return FetchResult(first, current, None, reason=f"Redirect loop at {current}.")
            seen.add(nxt)
            current = nxt
        return FetchResult(first, current, None, reason=f"More than {MAX_REDIRECTS} redirects.")

    def robots_allow(self, url: str) -> bool:
        return bool(self.robots_for(url).can_fetch(url, self.settings.fetch_user_agent))

    def robots_for(self, url: str) -> Protego:
        """The origin's robots.txt, read by Protego (RFC 9309: ``*`` and ``$`` wildcards, longest match wins);
        none, or one that cannot be read, allows everything."""
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        with self._lock:
            cached = self._robots.get(origin)
        if cached is not None:
            return cached
        got = self.fetch(origin + "/robots.txt", types=(), robots=False)
        text = got.body.decode("utf-8", errors="replace") if got.ok and got.status == 200 else ""
        parser = Protego.parse(text)
        with self._lock:
            self._robots[origin] = parser
        return parser

    # -- internals ------------------------------------------------------------------------
    def _get(self, first: str, url: str, types: tuple[str, ...], timeout: float | None,
             polite: bool = True) -> FetchResult | str:
        """One request: a final result, or the Location of a redirect as a string."""
        host = urlsplit(url).netloc
        with self._lock:
            slot = self._slots.setdefault(host, threading.Semaphore(self.settings.fetch_per_host_concurrency))
        with slot:
            if polite:
                self._wait_turn(host)
            try:
                return self._stream(first, url, types, timeout)
            except httpx.TimeoutException:
                return FetchResult(first, url, None, reason=f"Timed out after {timeout or self.settings.fetch_timeout:g} s.")
            except httpx.HTTPError as exc:
                return FetchResult(first, url, None, reason=f"Could not fetch: {exc}"[:500])

    def _wait_turn(self, host: str) -> None:
        delay = self.settings.fetch_delay
        with self._lock:
            now = time.monotonic()
            start = max(now, self._last.get(host, 0.0) + delay)
            self._last[host] = start
        if start > now:
            time.sleep(start - now)

    def _stream(self, first: str, url: str, types: tuple[str, ...], timeout: float | None) -> FetchResult | str:
        cap = self.settings.fetch_max_bytes
        kwargs: dict[str, Any] = {"timeout": httpx.Timeout(timeout)} if timeout else {}
        with self.client.stream("GET", url, **kwargs) as resp:
            ctype = resp.headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if resp.is_redirect:
                return str(resp.headers.get("location", ""))
            if resp.status_code >= 400:
                return FetchResult(first, url, resp.status_code, ctype, reason=f"HTTP {resp.status_code}.")
            if types and ctype not in types and not _by_suffix(url, ctype):
                return FetchResult(first, url, resp.status_code, ctype,
                                   reason=f"Unsupported content type {ctype or '(none)'}.")
            declared = resp.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > cap:
                return FetchResult(first, url, resp.status_code, ctype,
                                   reason=f"Larger than the {cap:,}-byte limit (fetch_max_bytes).")
            body = bytearray()
            for piece in resp.iter_bytes():
                body.extend(piece)
                if len(body) > cap:
                    return FetchResult(first, url, resp.status_code, ctype,
                                       reason=f"Larger than the {cap:,}-byte limit (fetch_max_bytes); stopped reading.")
            return FetchResult(first, url, resp.status_code, ctype, bytes(body))


def _by_suffix(url: str, ctype: str) -> bool:
    """A generic content type (octet-stream, none) is accepted when the path's suffix is one the ingester reads."""
    path = urlsplit(url).path.lower()
    return ctype in ("", "application/octet-stream", "binary/octet-stream") and path.endswith(SUPPORTED_SUFFIXES)
