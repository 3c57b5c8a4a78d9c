"""`rag ingest url --crawl` on a terminal: a live progress line, and Ctrl-C (a real SIGINT to a real `rag`
process) leaves the crawl cancelled with its queue, so `rag ingest resume` carries it on. Off a terminal,
nothing but the result is printed."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from services.web.crawl import CrawlRequest
from services.web.fetch import Fetcher
from tests.reliability.concurrency import ROOT
from tests.services.web.conftest import crawler
from tests.services.web.sites import serve_pages
from tests.services.web.test_front_ends import rag

TOPICS = ["lighthouses", "tides", "moorings", "pilots", "buoys", "charts", "ferries", "cranes"]
GATED = "/p04.html"  # the crawl is stopped while it waits for this page


def _pages() -> dict[str, str]:
    names = [f"/p{i:02d}.html" for i in range(len(TOPICS))]
    links = "".join(f'<li><a href="{n}">{n}</a></li>' for n in names)
    pages = {"/index.html": f"<html><head><title>Harbour</title></head><body><main><p>The harbour handbook has one "
                            f"page per topic.</p><ul>{links}</ul></main></body></html>"}
    for name, topic in zip(names, TOPICS):
        pages[name] = (f"<html><head><title>{topic}</title></head><body><main><h1>{topic}</h1><p>The harbour board "
                       f"inspects the {topic} every season and writes down what it found.</p></main></body></html>")
    return pages


@pytest.fixture
def gated_site() -> Iterator[tuple[str, type]]:
    yield from serve_pages(_pages(), gate_path=GATED)


def _read_all(fd: int, into: list[bytes]) -> None:
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: the terminal's other side closed
            return
        if not data:
            return
        into.append(data)


@pytest.mark.slow
def test_ctrl_c_on_a_terminal_leaves_the_crawl_cancelled_and_resumable(services, collection, data_dir, gated_site):
    base, handler = gated_site
    leader, follower = pty.openpty()
    env = {**os.environ, "RAG_DATA_DIR": str(data_dir), "HF_HUB_OFFLINE": "1", "RAG_FETCH_ALLOW_HOSTS": '["127.0.0.1"]',
           "RAG_FETCH_DELAY": "0", "RAG_GRAPH_ENABLED": "false"}
    proc = subprocess.Popen([sys.executable, "-m", "cli", "ingest", "url", base + "/index.html", collection, "--crawl",
                             "--max-depth", "1"], cwd=ROOT, env=env, stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    output: list[bytes] = []
    reader = threading.Thread(target=_read_all, args=(leader, output), daemon=True)
    reader.start()
    try:
        assert handler.requested.wait(500), b"".join(output).decode(errors="replace")  # index and p00-p03 are stored
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGINT)  # what Ctrl-C sends
        code = proc.wait(180)
    finally:
        handler.gate.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        reader.join(30)
        os.close(leader)
    text = b"".join(output).decode(errors="replace")

    coll = services.collections.get(collection)
    svc = crawler(services)
    info = svc.state.list(collection_id=coll.id, limit=1)[0]
    assert info.status == "cancelled" and info.resumable, (info.status, info.counts, text)
    assert info.counts == {"ingested": 5, "queued": 4}, info.counts  # p04 was being fetched: it stays queued
    assert services.jobs.get(info.job_id).status == "cancelled"
    assert code == 130, text
    assert "\rCrawling: 1 fetched, 1 stored, 0 skipped, 0 failed" in text  # the live line, redrawn in place
    assert "5 stored" in text and f"rag ingest resume {info.id}" in text and "Traceback" not in text

    result = svc.resume(info.id)
    assert result.status == "done" and result.progress["fetched"] == 4  # only what was left
    with services.engine.connect() as conn:
        titles = conn.execute(sa.text("SELECT title FROM collection_documents WHERE collection_id = :c"),
                              {"c": coll.id}).scalars().all()
    assert sorted(titles) == sorted(base + p for p in _pages())  # every page once


def test_off_a_terminal_only_the_result_is_printed(web_services, collection, gated_site):
    base, handler = gated_site
    handler.gate.set()
    out = rag("ingest", "url", base + "/index.html", collection, "--crawl", "--max-pages", "2", "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["status"] == "done" and "Crawling" not in out.stderr
    again = rag("ingest", "url", base + "/p05.html", collection, "--crawl", "--max-pages", "1")
    assert again.exit_code == 0 and "Crawling" not in again.output and again.stdout.startswith("Crawl ")


def test_a_crawl_interrupted_in_process_is_cancelled_not_done(services, collection, gated_site, monkeypatch):
    """The service side of Ctrl-C: a KeyboardInterrupt inside the crawl ends it cancelled, queue kept."""
    base, handler = gated_site
    handler.gate.set()
    svc = crawler(services)
    calls = {"n": 0}
    real_fetch = svc.ingestion.ingest_item

    def interrupt_on_third(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_fetch(*args, **kwargs)

    monkeypatch.setattr(svc.ingestion, "ingest_item", interrupt_on_third)
    with pytest.raises(KeyboardInterrupt) as stopped:
        svc.run(CrawlRequest(collection, base + "/index.html", max_pages=50, max_depth=1))
    result = stopped.value.result  # type: ignore[attr-defined]
    assert result.status == "cancelled" and len(result.pages) == 2
    info = svc.state.get(result.crawl_id)
    assert info.status == "cancelled" and info.counts["queued"] == 7 and info.resumable


def test_a_stop_flag_set_while_a_page_is_fetched_ends_the_crawl_like_ctrl_c(services, collection, gated_site):
    """Python drops a KeyboardInterrupt raised inside a finalizer, so the CLI's SIGINT handler also sets a
    flag: the crawl stops after the page in flight, which stays queued, even if no exception arrives."""
    base, handler = gated_site
    handler.gate.set()
    svc = crawler(services)
    stop = threading.Event()
    real_fetch = Fetcher.fetch

    def fetch_then_flag(self, url, *args, **kwargs):
        got = real_fetch(self, url, *args, **kwargs)
        if url.endswith(GATED):
            stop.set()  # Ctrl-C while this page was on its way, its KeyboardInterrupt lost
        return got

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Fetcher, "fetch", fetch_then_flag)
        with pytest.raises(KeyboardInterrupt) as stopped:
            svc.run(CrawlRequest(collection, base + "/index.html", max_pages=50, max_depth=1), interrupted=stop.is_set)
    result = stopped.value.result  # type: ignore[attr-defined]
    info = svc.state.get(result.crawl_id)
    assert result.status == "cancelled" and info.status == "cancelled" and info.resumable
    assert info.counts == {"ingested": 5, "queued": 4}, info.counts  # index, p00-p03; p04 (fetched) stays queued
    assert svc.resume(info.id).progress["fetched"] == 4
