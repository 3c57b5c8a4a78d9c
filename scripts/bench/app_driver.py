"""Drive the real app for the responsiveness benchmark: start/stop ``streamlit run Home.py`` on loopback,
a chromium context that aborts (and counts) every request not to 127.0.0.1, and render waits."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from scripts.bench.common import ROOT

CHROMIUM = "/usr/bin/chromium"
# Chromium's own calls home (update checks, sign-in probes) go to a closed loopback port; the app bypasses it.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--proxy-server=http://127.0.0.1:9"]
LOOPBACK = {"127.0.0.1"}
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class App:
    """One ``streamlit run Home.py`` process, as ``make run`` starts it, on 127.0.0.1."""

    def __init__(self, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port, self.log = port, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.started = 0.0

    def start(self, extra_args: Sequence[str] = ()) -> None:
        """Start the server; ``extra_args`` are more options for ``streamlit run`` (an A/B of one option)."""
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "Home.py"), "--server.port", str(self.port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
             *extra_args],
            cwd=ROOT, env={**os.environ}, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
        )

    def wait_listening(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"the app exited; log:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the app did not start; log:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None


class LoopbackGuard:
    """Aborts every browser request to a host other than 127.0.0.1 and remembers it."""

    def __init__(self) -> None:
        self.allowed = 0
        self.blocked: list[str] = []

    def attach(self, context: Any) -> None:
        context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        if urlparse(route.request.url).hostname in LOOPBACK:
            self.allowed += 1
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def watch(self, page: Any) -> None:
        page.on("websocket", self._websocket)

    def _websocket(self, ws: Any) -> None:
        if urlparse(ws.url).hostname not in LOOPBACK:  # routes do not see websockets; count them all the same
            self.blocked.append(ws.url)


def new_page(browser: Any, guard: LoopbackGuard) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    guard.attach(context)
    page = context.new_page()
    guard.watch(page)
    page.set_default_timeout(120_000)
    return context, page


def heading(page: Any, text: str) -> Any:
    return page.locator("h1", has_text=text).first


def wait_rendered(page: Any, title: str, last_element: str | None = None) -> tuple[float, float]:
    """Wait for the page's title, then for its script to finish (and ``last_element`` to show);
    returns the perf_counter times of both."""
    heading(page, title).wait_for(state="visible")
    shown = time.perf_counter()
    if last_element:
        page.get_by_text(last_element, exact=True).first.wait_for(state="visible")
    page.locator(IDLE).wait_for(state="attached")
    return shown, time.perf_counter()
