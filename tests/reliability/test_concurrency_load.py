"""Search and Ask keep answering, correctly, while a 1,000-chunk ingest runs in the same process.

Latencies are measured idle and under the load and printed (``pytest -s``); with
RAG_RECORD_FIGURES=1 they are written to docs/bench/concurrency.json. No speed is
asserted: this machine is shared. What is asserted: every call returned the right
document, none raised, and the calls really overlapped the ingest.
"""

from __future__ import annotations

import os
import platform
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from services.ingest.chunking import chunk_text
from services.ingest.requests import files_request, text_request
from tests.reliability.concurrency import percentiles, record_figures, wait_for_job

pytestmark = pytest.mark.slow

MIN_CHUNKS = 1000
MAX_LOAD_ROUNDS = 12  # each round: every search query twice (semantic, hybrid) and every question once

NOTES = {
    "Lighthouse keeping": "The keeper climbs the tower at dusk, trims the wick and winds the clockwork that turns "
                          "the lens. In fog he sounds the horn every thirty seconds so ships keep off the rocks.",
    "Beekeeping": "A healthy hive needs a laying queen, capped brood and stores of honey before winter. The "
                  "beekeeper inspects the frames every week in spring and adds a super when the colony grows.",
    "Sourdough baking": "A sourdough starter is flour and water fermented by wild yeast and lactic bacteria. Feed "
                        "it daily; the dough rises slowly overnight and bakes into a loaf with an open crumb.",
    "Glacier formation": "Glaciers form where more snow falls in winter than melts in summer. The snow compacts "
                         "into firn and then into dense blue ice that flows downhill under its own weight.",
    "Chess openings": "The Sicilian Defence answers the king's pawn with the c-pawn, fighting for the centre from "
                      "the flank. White often plays the Open Sicilian, trading the d-pawn for Black's c-pawn.",
    "Tidal energy": "Tidal power stations turn the rise and fall of the sea into electricity. A barrage holds "
                    "water behind a dam at high tide and releases it through turbines as the tide goes out.",
}
SEARCHES = [
    ("how are ships warned away from the rocks in fog", "Lighthouse keeping"),
    ("what does a bee colony need to survive the cold season", "Beekeeping"),
    ("wild yeast bread that rises overnight", "Sourdough baking"),
    ("how does snow turn into moving ice", "Glacier formation"),
    ("Black replies to e4 with the c-pawn", "Chess openings"),
    ("generating electricity from the rise and fall of the sea", "Tidal energy"),
]
QUESTIONS = [
    ("What does the lighthouse keeper do in fog?", "Lighthouse keeping"),
    ("What does a hive need before winter?", "Beekeeping"),
    ("How is a sourdough starter made?", "Sourdough baking"),
    ("How do glaciers form?", "Glacier formation"),
]


@pytest.fixture(scope="module")
def notes(services) -> Iterator[str]:
    """A small collection to query: six short notes on unrelated topics, graph included."""
    name = f"load-notes-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Concurrency: queried while a big ingest runs.")
    for title, text in NOTES.items():
        result = services.ingestion.run(text_request(name, title=title, text=text))
        assert result.count("ingested") == 1, result.items
    yield name
    services.deletion.delete_collection(name)


def big_ingest_files(services, shared_data) -> list[tuple[str, bytes]]:
    """State of the Union addresses, in date order, until they make at least MIN_CHUNKS chunks."""
    settings = services.settings
    files, chunks = [], 0
    for path in sorted((shared_data / "sotu").glob("*.txt")):
        data = path.read_bytes()
        files.append((path.name, data))
        chunks += len(chunk_text(data.decode("utf-8"), size=settings.chunk_size, overlap=settings.chunk_overlap))
        if chunks >= MIN_CHUNKS:
            return files
    pytest.skip("the sotu corpus is too small for a 1,000-chunk ingest")


class Calls:
    """Runs the search and Ask calls, checks each answer and records its latency and whether the load was on."""

    def __init__(self, services: Any, collection: str, loaded: Callable[[], bool]) -> None:
        self.services, self.collection, self.loaded = services, collection, loaded
        self.samples: dict[str, list[float]] = {"search_semantic": [], "search_hybrid": [], "ask": []}
        self.during_load: list[bool] = []

    def _timed(self, kind: str, call: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        result = call()
        self.samples[kind].append(time.perf_counter() - started)
        self.during_load.append(self.loaded())
        return result

    def search(self, mode: str, query: str, expected: str) -> None:
        self.services.embedder._query_cache.clear()  # time a new query, not the UI's repeat-query cache
        response = self._timed(f"search_{mode}", lambda: self.services.search.search(
            query, collections=[self.collection], mode=mode, limit=5))
        assert response.hits and response.hits[0].title == expected, (mode, query, [h.title for h in response.hits])

    def ask(self, question: str, expected: str) -> None:
        result = self._timed("ask", lambda: self.services.ask.ask(question, collections=[self.collection]))
        assert result.answer.mode == "extracted", result.answer
        assert result.context and result.context[0].title == expected, [c.title for c in result.context]
        cited = {c.chunk_id: c.title for c in result.context}
        assert result.answer.citations and all(cid in cited for cid in result.answer.citations.values())
        assert expected in {cited[cid] for cid in result.answer.citations.values()}, result.answer

    def round(self) -> None:
        for query, expected in SEARCHES:
            self.search("semantic", query, expected)
            self.search("hybrid", query, expected)
        for question, expected in QUESTIONS:
            self.ask(question, expected)

    def figures(self) -> dict[str, Any]:
        return {kind: percentiles(values) for kind, values in self.samples.items()}


def test_search_and_ask_answer_during_a_1000_chunk_ingest(services, notes, collection, shared_data):
    assert services.ask.llm is None, "this test measures the offline (extractive) Ask path"
    idle = Calls(services, notes, loaded=lambda: False)
    idle.round()  # warm up the model, the caches and the connection pool; not counted
    idle = Calls(services, notes, loaded=lambda: False)
    for _ in range(3):
        idle.round()

    files = big_ingest_files(services, shared_data)
    job_id = services.ingestion.submit(files_request(collection, files, settings=services.settings))
    finished = threading.Event()

    def watch() -> None:
        while services.jobs.get(job_id).status == "running":
            time.sleep(0.2)
        finished.set()

    threading.Thread(target=watch, daemon=True).start()
    load = Calls(services, notes, loaded=lambda: not finished.is_set())
    started = time.perf_counter()
    rounds = 0
    while not finished.is_set() and rounds < MAX_LOAD_ROUNDS:
        load.round()
        rounds += 1
    calls_seconds = time.perf_counter() - started
    job = wait_for_job(services, job_id, timeout=900)

    assert job.status == "done" and job.error is None, (job.status, job.error)
    assert job.progress["ingested"] == len(files) and job.progress["failed"] == 0, job.items
    assert job.progress["chunks_written"] >= MIN_CHUNKS, job.progress
    overlapped = sum(load.during_load) / len(load.during_load)
    assert rounds >= 3 and overlapped >= 0.8, (rounds, overlapped)

    figures = {
        "what": "Search (semantic, hybrid) and offline Ask latency on a 6-document collection, idle and while a "
                "State of the Union ingest (embedding + graph) runs in the same process",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "ingest": {"files": len(files), "chunks": job.progress["chunks_written"],
                   "seconds": round((job.finished_at - job.started_at).total_seconds(), 1)},
        "idle": idle.figures(),
        "during_ingest": load.figures(),
        "calls_during_ingest_share": round(overlapped, 3),
        "load_phase_seconds": round(calls_seconds, 1),
    }
    path = record_figures("concurrency", figures)
    print("\ningest progress:", {k: v for k, v in job.progress.items() if k.startswith("seconds")})
    print("\nconcurrency figures:", figures, f"(written to {path})" if path else "")
