"""A real app server on 127.0.0.1 and headless Debian chromium driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
# Chromium still calls home on its own (update.googleapis.com, accounts.google.com) despite the flags:
# those requests go to a proxy on a closed loopback port and fail there; loopback (the app) bypasses it.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--proxy-server=http://127.0.0.1:9",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_app(data_dir: Path, log: Path, **env: str) -> Iterator[str]:
    """Run ``streamlit run Home.py`` on a free loopback port on the test data folder; yields its URL."""
    port = _free_port()
    full_env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "Home.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=full_env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail(f"the app did not start; log:\n{log.read_text()[-3000:]}")
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def app_url(services, data_dir, tmp_path_factory):
    """The app on the session's data folder (sharing its running embedded stores)."""
    yield from serve_app(data_dir, tmp_path_factory.mktemp("app") / "streamlit.log")


@pytest.fixture(scope="module")
def browser():
    """Per module: Playwright's sync API keeps an event loop in the main thread while it runs,
    which would break later tests that start their own asyncio loop (the MCP tests)."""
    if not shutil.which(CHROMIUM):
        pytest.fail("Debian chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    # Generous: a wait ends as soon as its element shows, and a loaded 2-core machine (the app's first
    # render while the model loads in its background thread) must not fail a test.
    pg.set_default_timeout(180_000)
    yield pg
    context.close()
