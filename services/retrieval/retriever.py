"""Ask's retrieval: semantic and BM25 in parallel, BM25 with feedback, the graph walk, fused, then reranked.

1. :class:`SemanticRetriever` and :class:`KeywordRetriever` run in parallel; their fusion by reciprocal rank
   is the first hop.
2. The first hop's best two chunks feed the two lists that look a hop further, run in parallel: BM25 again
   for the question expanded by pseudo-relevance feedback from their words (the ``feedback`` list), and the
   graph walk, seeded by the question's entities, by the named entities those chunks name and by the
   semantic hits (the bridge entity a second hop needs is often named in the passage that answers the first).
3. The lists are fused by hop (``fusion="hops"``, the default): the question's own ranking (semantic + BM25 by
   reciprocal rank, where agreement is evidence: :meth:`SearchService.first_hop`, Search's) is interleaved with the two lists that look
   a hop further, the feedback list and the graph walk (:func:`services.retrieval.fusion.round_robin`), so
   the walk's second hop is not buried by lists that cannot reach it. ``fusion="rrf"`` is the weighted
   reciprocal-rank fusion of all four (k and the walk's weight in settings); chosen between on the first half
   of hotpotqa-100 (docs/evaluation.md).
4. With an LLM configured, it reranks the fused candidates (:class:`LLMReranker`). Offline, MMR
   (:class:`MMRPostprocessor`) at lambda 0.95 demotes near-duplicate passages (overlapping chunks, a text
   stored twice); at 0.7 it cost 0.05 recall@5 on hotpotqa-100, at 0.95 nothing.

Every phase is timed for Ask's diagnostics. The class is a LlamaIndex ``BaseRetriever`` too: ``retrieve(str)``
returns the final ``NodeWithScore`` list over every collection.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle

from services.graph.model import Fact
from services.retrieval.fusion import ranked, relative_score_fusion, round_robin, rrf
from services.retrieval.graph_walk import GraphWalk
from services.retrieval.postprocessors import LLMReranker, MMRPostprocessor
from services.retrieval.retrievers import (
    GraphWalkRetriever,
    KeywordRetriever,
    SemanticRetriever,
    chunk_id,
    load_nodes,
)
from services.retrieval.search import SearchService
from services.stores import chunk_store, keyword_ranking

if TYPE_CHECKING:
    from services.collections import CollectionService
    from services.graph.service import GraphService
    from services.stores.llm import LLMClient

RETRIEVERS = ("semantic", "keyword", "feedback", "graph")
FUSIONS = ("hops", "rrf", "relative")
FIRST_HOP = ("semantic", "keyword")  # the question's own ranking; the others look one hop further
# For fusion="rrf" (all four lists summed): k and the walk's weight were chosen on hotpotqa-100's first 50
# questions and checked on the other 50 (docs/evaluation.md). The walk is the only list that can reach a
# passage sharing no words and little meaning with the question (the second hop), so it weighs as much as
# the other three together; a small k lets the first ranks of each list decide.
DEFAULT_WEIGHTS = {"semantic": 1.0, "keyword": 1.0, "feedback": 1.0, "graph": 3.0}
DEFAULT_RRF_K = 10
FEEDBACK_CHUNKS = 2


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
    entities: list[str]  # entity keys the graph walk started from
    counts: dict[str, int]
    timings_ms: dict[str, float]
    best_similarity: float | None
    strict_keyword_hits: int
    reranked_by: str = "none"
    keyword_evidence: tuple[int, float] = (0, 0.0)  # the best keyword hit: query words held, their IDF share


class GraphAwareRetriever(BaseRetriever):
    def __init__(self, *, search: SearchService, collections: CollectionService, graph: GraphService | None = None,
                 walk: GraphWalk | None = None, llm: LLMClient | None = None, weights: dict[str, float] | None = None,
                 fusion: str = "hops", depth: int = 50, rrf_k: int = DEFAULT_RRF_K, mmr_lambda: float = 0.95,
                 use_mmr: bool = True, rerank_candidates: int = 20) -> None:
        super().__init__()
        if fusion not in FUSIONS:
            raise ValueError(f"fusion must be one of {FUSIONS}, not {fusion!r}")
        self.search = search
        self.collections = collections
        self.graph = graph
        self.walk = walk
        self.llm = llm
        self.weights = dict(weights or DEFAULT_WEIGHTS)
        self.fusion = fusion
        self.depth = depth
        self.rrf_k = rrf_k
        self.mmr_lambda = mmr_lambda
        self.use_mmr = use_mmr
        self.rerank_candidates = rerank_candidates

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        result = self.gather(query_bundle.query_str, threshold=-1.0)
        return [NodeWithScore(node=load_nodes(self.search, [c.chunk_id], {c.chunk_id: c.score}, "fused")[0].node,
                              score=c.score) for c in result.chunks]

    def gather(self, query: str, collections: list[str] | None = None, *, limit: int = 6, threshold: float = 0.35,
               extra_entities: list[str] | None = None, retrievers: tuple[str, ...] = RETRIEVERS,
               on_phase: Callable[[str], None] | None = None) -> Retrieval:
        """The context for ``query``: fused, reranked chunks, the seed entities' facts, counts and timings.
        ``on_phase("walking the graph")`` is called when the walk starts (Ask's progress display)."""
        timings: dict[str, float] = {}
        scope = collections or None
        cids = [c.id for c in (self.collections.list() if scope is None else [self.collections.get(n) for n in scope])]
        semantic_r = SemanticRetriever(self.search, collections=scope, limit=self.depth, threshold=threshold)
        memo = keyword_ranking.BM25Memo()  # the feedback pass reuses the keyword pass's work
        keyword_r = KeywordRetriever(self.search, collections=scope, limit=self.depth, memo=memo)
        bundle = QueryBundle(query)

        def timed(name: str, fn: Any, *args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args)
            finally:
                timings[name] = (time.perf_counter() - t0) * 1000

        with ThreadPoolExecutor(max_workers=2) as pool:
            sem_f = pool.submit(timed, "semantic", semantic_r.retrieve, bundle)
            kw_f = pool.submit(timed, "keyword", keyword_r.retrieve, bundle) if "keyword" in retrievers else None
            semantic = sem_f.result()
            keyword = kw_f.result() if kw_f else []
            # The first hop's best chunks feed both lists that look further: their words expand the question
            # for BM25, their named entities seed the walk (the bridge entity a second hop needs).
            first = self.search.first_hop([chunk_id(n) for n in semantic],
                                          [chunk_id(n) for n in keyword])[:FEEDBACK_CHUNKS]
            if on_phase is not None and "graph" in retrievers:
                on_phase("walking the graph")
            graph_f = pool.submit(timed, "graph", self._walk, query, semantic, first, cids, extra_entities or [], scope) \
                if "graph" in retrievers else None
            feedback: list[NodeWithScore] = []
            if "feedback" in retrievers and keyword:
                feedback = timed("feedback", KeywordRetriever(self.search, collections=scope, limit=self.depth,
                                                              feedback=first, memo=memo).retrieve, bundle)
            graph_nodes, facts, entity_keys = graph_f.result() if graph_f else ([], [], [])
        lists = {"semantic": semantic if "semantic" in retrievers else [], "keyword": keyword, "feedback": feedback,
                 "graph": graph_nodes}
        t0 = time.perf_counter()
        candidates = self._fuse(lists)
        timings["fuse"] = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        final, reranked_by = self._rerank(candidates, query, limit)
        timings["rerank"] = (time.perf_counter() - t0) * 1000
        ranks = {name: {chunk_id(n): i for i, n in enumerate(nodes, start=1)} for name, nodes in lists.items()}
        chunks = [self._context(n, ranks) for n in final]
        best = max((float(n.node.metadata.get("semantic_score") or n.score or 0.0) for n in semantic), default=None)
        counts = {"semantic": len(lists["semantic"]), "keyword": len(keyword), "feedback": len(feedback),
                  "graph": len(graph_nodes),
                  "fused": len(candidates), "returned": len(chunks)}
        with self.search.engine.connect() as conn:  # chunks with every word: relevant whatever their similarity
            strict = len(chunk_store.matching_every_word(conn, [chunk_id(n) for n in keyword], query))
            evidence = keyword_ranking.keyword_evidence(conn, chunk_id(keyword[0]), query, cids) \
                if keyword else (0, 0.0)
        return Retrieval(chunks, facts, entity_keys, counts, timings, best, strict, reranked_by, evidence)

    def _walk(self, query: str, semantic: list[NodeWithScore], feedback: list[int], cids: list[int], extra: list[str],
              scope: list[str] | None) -> tuple[list[NodeWithScore], list[Fact], list[str]]:
        """The walk's top chunks (seeded by the question's entities, the previous turn's, those the first hop's
        best chunks name and the semantic hits), the facts of the entities it started from, for the answer,
        and the question's entity keys."""
        if self.walk is None or not cids:
            return [], [], []
        retriever = GraphWalkRetriever(self.walk, SemanticRetriever(self.search, collections=scope), self.collections,
                                       scope=scope, limit=self.depth)
        result = retriever.walk_from(query, semantic, extra, feedback)
        asked = [e.key for e in result.seeds]
        keys = asked + [e.key for e in result.feedback]
        facts: dict[str, Fact] = {}
        if self.graph is not None:
            if not keys and semantic:  # no entity named: those of the best passages, for the answer's facts
                top = {chunk_id(n): n.score or 0.0 for n in semantic[:5]}
                keys = [e.key for e in self.graph.entities_for_chunks(top, cids, limit=5)]
            for key in keys[:8]:
                for fact in self.graph.facts_of_entity(key, cids, limit=60):
                    facts.setdefault(fact.id, fact)
        top_ids = ranked(result.scores)[: self.depth]
        return load_nodes(self.search, top_ids, result.scores, "graph"), list(facts.values()), asked or keys

    def _fuse(self, lists: dict[str, list[NodeWithScore]]) -> list[NodeWithScore]:
        """The fused candidates, best first, each node once with its fused score."""
        nodes = {chunk_id(n): n for ns in lists.values() for n in reversed(ns)}
        ids = {name: [chunk_id(n) for n in ns] for name, ns in lists.items() if ns}
        if self.fusion == "hops":  # a list weighted 0 is left out, as in the sums
            further = [ids[name] for name in RETRIEVERS
                       if name in ids and name not in FIRST_HOP and self.weights.get(name, 0.0) > 0]
            first = self.search.first_hop(ids.get("semantic", []), ids.get("keyword", []))
            order, fused = round_robin([h for h in [first, *further] if h])
            return [NodeWithScore(node=nodes[c].node, score=fused[c]) for c in order]
        if self.fusion == "rrf":
            fused = rrf([(ns, self.weights.get(name, 0.0)) for name, ns in ids.items()], self.rrf_k)
        else:
            fused = relative_score_fusion({name: {chunk_id(n): n.score or 0.0 for n in ns}
                                           for name, ns in lists.items() if ns}, self.weights)
        return [NodeWithScore(node=nodes[c].node, score=fused[c]) for c in ranked(fused)]

    def _rerank(self, candidates: list[NodeWithScore], query: str, limit: int) -> tuple[list[NodeWithScore], str]:
        bundle = QueryBundle(query)
        pool = candidates[: max(self.rerank_candidates, limit)]
        if self.llm is not None:
            return LLMReranker(self.llm, top_n=limit).postprocess_nodes(pool, query_bundle=bundle), "llm"
        if self.use_mmr and len(pool) > limit:
            mmr = MMRPostprocessor(self.search.embedder, self._vectors, top_n=limit, lam=self.mmr_lambda)
            return mmr.postprocess_nodes(pool[: max(limit * 3, limit)], query_bundle=bundle), "mmr"
        return pool[:limit], "none"

    def _vectors(self, ids: list[int]) -> Any:
        with self.search.engine.connect() as conn:
            return chunk_store.vectors(conn, ids)

    @staticmethod
    def _context(node: NodeWithScore, ranks: dict[str, dict[int, int]]) -> ContextChunk:
        meta = node.node.metadata
        cid = chunk_id(node)
        return ContextChunk(cid, int(meta["document_id"]), str(meta["title"]), int(meta["chunk_index"]),
                            node.node.get_content(), float(node.score or 0.0),
                            {name: r[cid] for name, r in ranks.items() if cid in r}, dict(meta.get("chunk_metadata") or {}))
