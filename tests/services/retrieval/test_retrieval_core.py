"""The retrieval core that Search and Ask share (services/retrieval/core.py), on the real stores."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event

from services.retrieval.retriever import GraphAwareRetriever
from services.retrieval.stopwatch import Stopwatch

ROOT = Path(__file__).resolve().parents[3]
COLLECTION_READ = "AS chunk_count\nFROM collections c"  # CollectionService's SELECT (get and list)


@contextmanager
def collection_reads(engine) -> Iterator[list[str]]:
    """The statements that read collections (by name, id or all) while the block runs."""
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        if COLLECTION_READ in statement:
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_a_question_and_a_search_resolve_their_collections_once(services, zorbex):
    """Each request resolves its scope once (a named collection is read once), whichever lists it runs;
    the retrievers of issue 33 read them five or six times per question."""
    name, _ = zorbex
    for run in (lambda: services.ask.retriever.gather("What does the founder of Zorbex grow?", [name]),
                lambda: services.ask.ask("What does the founder of Zorbex grow?", collections=[name]),
                lambda: services.search.search("Zorbex founder", collections=[name], mode="hybrid")):
        with collection_reads(services.engine) as reads:
            run()
        assert len(reads) == 1, reads
    with collection_reads(services.engine) as reads:
        services.search.search("Zorbex founder", mode="keyword")  # no name: every collection, in one read
    assert len(reads) == 1


@pytest.mark.parametrize("threshold", [-1.0, 0.2])
def test_search_hybrid_and_ask_without_the_walk_rank_alike(services, zorbex_and_distractors, threshold):
    """Hybrid and Ask's fusion of the same three lists (no walk, no MMR) come from one core: the same chunks in
    the same order, and each chunk's semantic and keyword scores agree."""
    question = "What does the founder of Zorbex grow in summer?"
    base = services.ask.retriever
    ask = GraphAwareRetriever(core=base.core, weights=base.weights, use_mmr=False)
    hybrid = services.search.search(question, collections=[zorbex_and_distractors], mode="hybrid",
                                    threshold=threshold, limit=8).hits
    context = ask.gather(question, [zorbex_and_distractors], limit=8, threshold=threshold,
                         retrievers=("semantic", "keyword", "feedback")).chunks
    assert [c.chunk_id for c in context] == [h.chunk_id for h in hybrid] and len(hybrid) == 8
    assert [(c.semantic_score, c.keyword_score) for c in context] == [(h.semantic_score, h.keyword_score)
                                                                      for h in hybrid]
    assert all(h.list_ranks for h in hybrid) and all(c.list_ranks for c in context)


def test_asks_timings_name_each_phase(services, zorbex):
    name, _ = zorbex
    timings = services.ask.retriever.gather("Who founded Zorbex?", [name]).timings_ms
    assert {"embed_query", "semantic", "keyword", "feedback", "graph", "fuse", "rerank"} <= set(timings)
    assert all(ms >= 0 for ms in timings.values())


def test_the_stopwatch_times_blocks_and_calls():
    watch = Stopwatch()
    with watch.phase("block"):
        pass
    assert watch.call("call", lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(ValueError), watch.phase("failed"):
        raise ValueError("the phase is still timed")
    assert set(watch.ms) == {"block", "call", "failed"} and all(ms >= 0 for ms in watch.ms.values())


def test_only_the_adapter_imports_llama_index():
    """LlamaIndex stays at the edge: no other module of services/retrieval imports it, and loading Search's and
    Ask's modules does not import it (the graph store, LlamaIndex's, loads it when it opens)."""
    importers = []
    for path in sorted((ROOT / "services" / "retrieval").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] == "llama_index" for n in names):
                importers.append(path.name)
    assert sorted(set(importers)) == ["llamaindex_adapter.py"]
    code = ("import sys, services.retrieval.ask, services.retrieval.search, services.retrieval.retriever; "
            "print(sorted(m for m in sys.modules if m.startswith('llama_index'))[:3])")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr[-2000:] + done.stdout
