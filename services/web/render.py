"""Optional JavaScript rendering of fetched HTML pages, in the system chromium through Playwright.

The browser itself never touches the network. Every request a page makes is
intercepted: the page's own HTML is the one the Fetcher already fetched (SSRF-checked,
size-capped), and the scripts, data and frames it asks for are fetched by the same
guarded Fetcher and handed back to the browser, so one guard decides every address.
Images, fonts, styles and media are not fetched (the text does not need them),
only GET is served, WebSockets are never connected and the page may not navigate
away. Everything else chromium would send on its own (update checks, sign-in
probes) goes to a proxy on a closed loopback port and dies there.
Playwright's sync API lives in one worker thread owned by the renderer, so it works
from the UI's background threads, the CLI and the MCP server's event loop alike.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.errors import ConfigError
from services.settings import Settings
from services.web.fetch import Fetcher
from services.web.url_safety import canonical_url

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DEAD_PROXY = "http://127.0.0.1:9"  # nothing listens there: chromium's own traffic fails on the machine
NOT_NEEDED = {"image", "media", "font", "stylesheet", "manifest", "texttrack", "ping", "beacon", "eventsource",
              "websocket", "cspviolationreport"}
SETTLE_MS = 3000  # after the DOM is parsed, wait at most this long for "load", then for the network to go idle


class RenderFailed(Exception):
    """The page could not be rendered; the message is the per-page reason."""


@dataclass
class Rendered:
    html: bytes
    blocked: list[str] = field(default_factory=list)  # URLs the page asked for and did not get
    reasons: dict[str, str] = field(default_factory=dict)  # URL -> why


def chromium_path(settings: Settings) -> str:
    if settings.chromium_path:
        if not Path(settings.chromium_path).is_file():
            raise ConfigError(f"chromium_path {settings.chromium_path} is not a file: JavaScript rendering needs chromium.")
        return settings.chromium_path
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise ConfigError("JavaScript rendering needs chromium: install Debian's chromium package "
                          "(apt-get install chromium) or set chromium_path.")
    return path


class Renderer:
    """One headless chromium for a crawl; ``render`` turns fetched HTML into the DOM after its scripts ran."""

    def __init__(self, settings: Settings, fetcher: Fetcher) -> None:
        self.settings = settings
        self.fetcher = fetcher
        self._executable = chromium_path(settings)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        self._playwright: Any = None
        self._browser: Any = None

    def __enter__(self) -> Renderer:
        try:
            self._pool.submit(self._start).result()
        except Exception:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=self._executable, args=LAUNCH_ARGS, proxy={"server": DEAD_PROXY})
        except Exception as exc:
            raise ConfigError(f"chromium could not be started for JavaScript rendering: {exc}".splitlines()[0]) from exc

    def close(self) -> None:
        def stop() -> None:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()
            self._browser = self._playwright = None

        try:
            self._pool.submit(stop).result(timeout=30)
        except Exception:  # closing must not hide the crawl's own result
            pass
        self._pool.shutdown(wait=False)

    def render(self, url: str, html: bytes, content_type: str = "text/html") -> Rendered:
        """The page's HTML after its scripts ran; raises RenderFailed with a reason."""
        return self._pool.submit(self._render, url, html, content_type).result()

    def _handle(self, r: Any, page: Any, url: str, html: bytes, content_type: str, out: Rendered) -> None:
        """Answer one request of the page (Playwright's Route): from the fetched HTML, the Fetcher, or not at all."""
        request = r.request

        def refuse(reason: str) -> None:
            out.blocked.append(request.url)
            out.reasons[request.url] = reason

        if request.is_navigation_request() and request.frame == page.main_frame:
            if canonical_url(request.url) == canonical_url(url):
                r.fulfill(status=200, body=html, content_type=content_type)
            else:  # a script sending the page elsewhere: 204 keeps the fetched page in place
                refuse("The page tried to navigate away.")
                r.fulfill(status=204, body=b"")
        elif request.resource_type in NOT_NEEDED:
            r.abort()
        elif request.method != "GET" or not request.url.startswith(("http://", "https://")):
            refuse(f"Only GET over http(s) is served ({request.method}).")
            r.abort()
        else:
            got = self.fetcher.fetch(request.url, types=(), robots=False, polite=False)
            if got.status is None or (not got.ok and got.status < 400):
                refuse(got.reason or "Not fetched.")
                r.abort()
            else:
                r.fulfill(status=got.status, body=got.body if got.ok else b"",
                          content_type=got.content_type or "application/octet-stream")

    def _render(self, url: str, html: bytes, content_type: str) -> Rendered:
        from playwright.sync_api import Error as PlaywrightError

        out = Rendered(b"")
        context = self._browser.new_context(user_agent=self.settings.fetch_user_agent, service_workers="block",
                                            accept_downloads=False)
        try:
            page = context.new_page()
            context.route("**/*", lambda r: self._handle(r, page, url, html, content_type, out))
            context.route_web_socket("**/*", lambda ws: ws.close())  # never connected to a server
            timeout_ms = max(20.0, 2 * self.settings.fetch_timeout) * 1000  # a whole page view, not one request
            page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
            for state in ("load", "networkidle"):  # late content; a refused navigation can cancel "load"
                try:
                    page.wait_for_load_state(state, timeout=SETTLE_MS)
                except PlaywrightError:
                    pass  # still busy (polling, long requests): take the DOM as it is
            out.html = page.content().encode("utf-8")
        except PlaywrightError as exc:
            raise RenderFailed(f"JavaScript rendering failed: {str(exc).splitlines()[0]}") from None
        finally:
            context.close()
        if len(out.html) > self.settings.fetch_max_bytes:
            raise RenderFailed(f"The rendered page is larger than the {self.settings.fetch_max_bytes:,}-byte limit.")
        return out
