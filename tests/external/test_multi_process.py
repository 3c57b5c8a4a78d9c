"""Several processes, one truth: two app servers, `rag` and `rag mcp` over HTTP on the same external servers.

App A crawls a small site on 127.0.0.1 whose last page the test holds back, so the crawl is
certainly still running (however slow the machine) while the other processes look at it:
app B shows its live progress, `rag status` lists it, and the same crawl started from `rag`
or from MCP is refused. Once the page is released and the crawl is done, a delete through MCP
is seen by the next search in app B, app A and `rag search`.
"""

from __future__ import annotations

import concurrent.futures
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.browser import conftest as browser_suite
from tests.browser.conftest import serve_app
from tests.browser.helpers import IDLE
from tests.reliability.concurrency import error_line, finish, rag_process
from tests.services.web.conftest import serve

# Four processes start and load the model on a 2-core machine; bounded by the waits below, not by one clock.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(2400)]
browser = browser_suite.browser
ROOT = Path(__file__).resolve().parents[2]
WEB_ENV = {"RAG_FETCH_ALLOW_HOSTS": '["127.0.0.1"]', "RAG_FETCH_DELAY": "0", "RAG_FETCH_TIMEOUT": "120"}
ALPHA = "The zylophant marmalade recipe needs quorbic lemons, slow boiling and a copper pan. " * 6
BETA = "Beta pages describe the vantrel harbour ferries and their winter timetable in detail. " * 6


def _site(release: threading.Event) -> type[http.server.BaseHTTPRequestHandler]:
    pages = {"/": '<a href="/alpha.html">alpha</a> <a href="/beta.html">beta</a><p>The index of a tiny site '
                  'about recipes and ferries, linking to its two pages.</p>',
             "/alpha.html": f"<h1>Alpha</h1><p>{ALPHA}</p>", "/beta.html": f"<h1>Beta</h1><p>{BETA}</p>"}

    class Site(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            body = pages.get(self.path)
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()  # no length: the page ends when the connection closes
            self.wfile.write(f"<html><head><title>{self.path}</title></head><body>".encode())
            if self.path == "/beta.html":  # held until the test has looked at the running crawl,
                while not release.wait(timeout=2):  # a space every 2 s so that no read timeout ends it
                    self.wfile.write(b" ")
                    self.wfile.flush()
            self.wfile.write(f"<main>{body}</main></body></html>".encode())

    return Site


def _wait_port(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 900  # it builds its services (the model) before it listens
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()[-3000:]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"rag mcp did not listen on {port}: {log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def team(external_servers, services, data_dir, tmp_path_factory):
    """App A and app B (two Streamlit servers) and `rag mcp --transport streamable-http`, on the external servers."""
    folder = tmp_path_factory.mktemp("team")
    os.environ.update(WEB_ENV)  # for the `rag` processes started later as well
    apps = [serve_app(data_dir, folder / f"app-{name}.log") for name in ("a", "b")]
    urls = [next(app) for app in apps]
    port = browser_suite._free_port()
    log = folder / "mcp.log"
    mcp = subprocess.Popen([sys.executable, "-m", "cli", "mcp", "--transport", "streamable-http", "--port", str(port)],
                           cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1", "RAG_DATA_DIR": str(data_dir)},
                           stdout=subprocess.DEVNULL, stderr=log.open("w"))
    try:
        _wait_port(port, mcp, log)
        yield {"a": urls[0], "b": urls[1], "mcp": f"http://127.0.0.1:{port}/mcp"}
    finally:
        mcp.terminate()
        try:
            mcp.wait(60)
        except subprocess.TimeoutExpired:
            mcp.kill()
            mcp.wait(30)
        for app in apps:
            app.close()
        for key in WEB_ENV:
            os.environ.pop(key, None)


def _mcp(server: str, tool: str, /, **arguments):
    async def call():
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    # in a thread of its own: Playwright's sync API keeps an event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, call).result()


def _wait_job(services, collection: str, done, timeout: float = 1500):
    """The collection's one job once ``done(job)`` holds (polling the jobs table, as every process sees it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = [j for j in services.jobs.recent(50) if j.params.get("collection") == collection]
        if jobs and done(jobs[0]):
            return jobs[0]
        time.sleep(0.5)
    pytest.fail(f"no job in {collection} reached the state in {timeout} s: {jobs}")


def _page(browser, url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.goto(url)
    return context, page


def _search(page, url: str, query: str) -> str:
    """Run one search on the app's Search page; return the page text once the results (or none) show."""
    page.goto(url + "/search")
    page.get_by_label("Query", exact=True).fill(query)
    page.get_by_role("button", name="Search").click()
    page.get_by_text(re.compile(r"^\d+ results in \d+ document|^No result above the threshold")).first.wait_for(timeout=240_000)
    # The count is drawn before the hits: read the page once the run that drew it has finished.
    page.locator(IDLE).wait_for(state="attached", timeout=240_000)
    return page.locator("[data-testid=stMain]").inner_text()


def test_an_ingest_in_one_app_is_seen_everywhere_and_runs_once(team, browser, services, collection):
    release = threading.Event()
    server = serve(_site(release))
    root = next(server) + "/"
    contexts = []
    try:
        ctx_a, app_a = _page(browser, team["a"] + "/ingest")
        ctx_b, app_b = _page(browser, team["b"] + "/ingest")
        contexts += [ctx_a, ctx_b]
        app_a.get_by_label("Collection", exact=True).click()
        app_a.get_by_role("option", name=collection).click()
        app_a.get_by_role("tab", name="URL").click()
        app_a.get_by_role("textbox", name="URL", exact=True).fill(root)
        app_a.get_by_role("textbox", name="URL", exact=True).press("Enter")
        app_a.get_by_role("button", name="Crawl").click()

        job = _wait_job(services, collection, lambda j: j.progress.get("ingested") == 2 or j.status != "running")
        assert job.status == "running" and job.params["url"] == root, job  # index and alpha in, beta held back
        job_id = job.id

        # App B, which started nothing, shows the crawl's live progress.
        running = app_b.get_by_text(re.compile(rf"^Job {job_id} \(ingest:url into {collection}, started elsewhere\) "
                                               r"· Working… Files 2/50 .*ingested 2,"))
        running.wait_for(timeout=600_000)

        code, out, err = finish(rag_process("ingest", "url", root, collection, "--crawl", data_dir=services.settings.data_dir))
        assert code == 4, (code, out, err)
        assert "already in progress" in error_line(code, err)
        refused = _mcp(team["mcp"], "ingest_url", url=root, collection=collection, crawl=True)
        assert refused.is_error and "already in progress" in refused.content[0].text, refused.content
        status = subprocess.run([sys.executable, "-m", "cli", "status"], cwd=ROOT, capture_output=True, text=True,
                                timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        assert status.returncode == 0, status.stderr
        assert f"running: job {job_id} ingest:url into {collection}: files 2/50, ingested 2, failed 0" in status.stdout
        assert "postgres.kind: DATABASE_URL" in status.stdout
        shared = next(line for line in status.stdout.splitlines() if line.startswith("postgres.shared_with: "))
        assert shared.count("app pid") >= 2 and "rag pid" in shared, shared  # both apps and rag mcp

        assert services.jobs.get(job_id).status == "running"

        release.set()
        job = _wait_job(services, collection, lambda j: j.status != "running")
        app_b.get_by_text("started elsewhere").wait_for(state="detached", timeout=600_000)
        assert job.status == "done" and job.progress["ingested"] == 3, job
        with services.engine.connect() as conn:
            import sqlalchemy as sa

            jobs = conn.execute(sa.text("SELECT count(*) FROM jobs WHERE params->>'collection' = :c"),
                                {"c": collection}).scalar_one()
        assert jobs == 1, "a refused request must not leave a job behind"

        # A delete through MCP is seen by the next search in app B, app A and the CLI.
        alpha_url = root + "alpha.html"
        assert alpha_url in _search(app_b, team["b"], "zylophant marmalade quorbic")
        found = _mcp(team["mcp"], "search_documents", query="zylophant marmalade quorbic", collections=[collection])
        assert not found.is_error, found.content
        [alpha_id] = {h["document_id"] for h in found.structured_content["hits"] if h["title"] == alpha_url}
        deleted = _mcp(team["mcp"], "delete_document", document_id=alpha_id)
        assert not deleted.is_error and deleted.structured_content == {"document_id": alpha_id, "deleted": True}

        assert alpha_url not in _search(app_b, team["b"], "zylophant marmalade quorbic")
        assert alpha_url not in _search(app_a, team["a"], "zylophant marmalade quorbic")
        cli = subprocess.run([sys.executable, "-m", "cli", "search", "zylophant marmalade quorbic", "--json"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        assert cli.returncode == 0, cli.stderr
        assert alpha_url not in {h["title"] for h in json.loads(cli.stdout)["hits"]}
        assert (root + "beta.html") in _search(app_a, team["a"], "vantrel harbour ferries winter timetable")
    finally:
        release.set()
        for context in contexts:
            context.close()
        server.close()
