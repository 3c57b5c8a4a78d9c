"""Ask's retrieval: the core's four lists, fused, reranked and loaded as the answer's context.

1. The retrieval core (services/retrieval/core.py) ranks, on the question's scope resolved once: semantic and
   BM25 in parallel, their fusion by reciprocal rank (the first hop), then BM25 with feedback from the first
   hop's best two chunks beside the graph walk, seeded by the question's entities, by the named entities those
   chunks name and by the semantic hits (the bridge entity a second hop needs is often named in the passage
   that answers the first).
2. The lists are fused by hop (``fusion="hops"``, the default): the question's own ranking (semantic + BM25 by
   reciprocal rank, where agreement is evidence: :meth:`RetrievalCore.first_hop`, Search's) is interleaved with
   the two lists that look a hop further, the feedback list and the graph walk
   (:func:`services.retrieval.fusion.round_robin`), so the walk's second hop is not buried by lists that cannot
   reach it. ``fusion="rrf"`` is the weighted reciprocal-rank fusion of all four (k and the walk's weight in
   settings); chosen between on the first half of hotpotqa-100 (docs/evaluation.md).
3. With an LLM configured, it reranks the fused candidates (:func:`services.retrieval.rerank.llm_rerank`).
   Offline, MMR (:func:`services.retrieval.fusion.mmr`) at lambda 0.95 demotes near-duplicate passages
   (overlapping chunks, a text stored twice); at 0.7 it cost 0.05 recall@5 on hotpotqa-100, at 0.95 nothing.
4. Only the chunks it returns (or, for the LLM, the candidates it reads) are loaded, as :class:`RankedChunk`.

Every phase is timed for Ask's diagnostics. LlamaIndex sees it as a ``BaseRetriever`` through
services/retrieval/llamaindex_adapter.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection

from services.retrieval.core import LISTS, Rankings, RetrievalCore, clean_query
from services.retrieval.fusion import mmr, ranked, relative_score_fusion, round_robin, rrf
from services.retrieval.ranked_chunk import RankedChunk
from services.retrieval.rerank import llm_rerank
from services.stores import chunk_store, keyword_ranking

if TYPE_CHECKING:
    from services.graph.model import Fact
    from services.graph.service import GraphService
    from services.retrieval.graph_walk import GraphWalk
    from services.stores.llm import LLMClient

RETRIEVERS = LISTS
FUSIONS = ("hops", "rrf", "relative")
FIRST_HOP = ("semantic", "keyword")  # the question's own ranking; the others look one hop further
# For fusion="rrf" (all four lists summed): k and the walk's weight were chosen on hotpotqa-100's first 50
# questions and checked on the other 50 (docs/evaluation.md). The walk is the only list that can reach a
# passage sharing no words and little meaning with the question (the second hop), so it weighs as much as
# the other three together; a small k lets the first ranks of each list decide.
DEFAULT_WEIGHTS = {"semantic": 1.0, "keyword": 1.0, "feedback": 1.0, "graph": 3.0}
DEFAULT_RRF_K = 10


@dataclass
class Retrieval:
    chunks: list[RankedChunk]  # list_ranks: each retriever's rank of the chunk
    facts: list[Fact]
    entities: list[str]  # entity keys the graph walk started from
    counts: dict[str, int]
    timings_ms: dict[str, float]
    best_similarity: float | None
    strict_keyword_hits: int
    reranked_by: str = "none"
    keyword_evidence: tuple[int, float] = (0, 0.0)  # the best keyword hit: query words held, their IDF share
    collection_ids: list[int] = field(default_factory=list)  # the scope it read, for the answer to read too


class GraphAwareRetriever:
    def __init__(self, *, core: RetrievalCore, llm: LLMClient | None = None, weights: dict[str, float] | None = None,
                 fusion: str = "hops", depth: int = 50, rrf_k: int = DEFAULT_RRF_K, mmr_lambda: float = 0.95,
                 use_mmr: bool = True, rerank_candidates: int = 20) -> None:
        if fusion not in FUSIONS:
            raise ValueError(f"fusion must be one of {FUSIONS}, not {fusion!r}")
        self.core = core
        self.llm = llm
        self.weights = dict(weights or DEFAULT_WEIGHTS)
        self.fusion = fusion
        self.depth = depth
        self.rrf_k = rrf_k
        self.mmr_lambda = mmr_lambda
        self.use_mmr = use_mmr
        self.rerank_candidates = rerank_candidates

    @property
    def walk(self) -> GraphWalk | None:
        return self.core.walk

    @property
    def graph(self) -> GraphService | None:
        return self.core.graph

    def gather(self, query: str, collections: list[str] | None = None, *, limit: int = 6, threshold: float = 0.35,
               extra_entities: list[str] | None = None, retrievers: tuple[str, ...] = RETRIEVERS,
               on_phase: Callable[[str], None] | None = None) -> Retrieval:
        """The context for ``query``: fused, reranked chunks, the seed entities' facts, counts and timings.
        ``on_phase("walking the graph")`` is called when the walk starts (Ask's progress display). The semantic
        list always runs: it seeds the walk and the feedback, and says how close the best passage is."""
        query = clean_query(query)
        scope = self.core.scope(collections or None, vectors=True)
        with self.core.engine.connect() as conn:
            found = self.core.rank(conn, query, scope, lists={"semantic", *retrievers}, depth=self.depth,
                                   threshold=threshold, extra_entities=extra_entities,
                                   on_walk=(lambda: on_phase("walking the graph")) if on_phase else None)
            watch = found.watch
            lists = {name: found.order(name) for name in RETRIEVERS if name in retrievers}
            with watch.phase("fuse"):
                order, fused = self.fuse(lists, {name: getattr(found, name) for name in lists})
            with watch.phase("rerank"):
                chunks, reranked_by = self._rerank(conn, found, query, order, fused, limit, lists)
            with watch.phase("keyword_evidence"):  # chunks with every word: relevant whatever their similarity
                keyword = lists.get("keyword", [])
                strict = len(chunk_store.matching_every_word(conn, keyword, query))
                evidence = keyword_ranking.keyword_evidence(conn, keyword[0], query, scope.ids) if keyword else (0, 0.0)
        counts = {name: len(lists.get(name, [])) for name in RETRIEVERS} | {"fused": len(order), "returned": len(chunks)}
        best = max(found.semantic.values(), default=None)
        return Retrieval(chunks, found.facts, found.entities, counts, watch.ms, best, strict, reranked_by, evidence,
                         scope.ids)

    def fuse(self, lists: dict[str, list[int]],
             scores: dict[str, dict[int, float]] | None = None) -> tuple[list[int], dict[int, float]]:
        """The fused candidates, best first, and their fused scores, from each list's ids (best first);
        ``scores``, each list's own, for ``fusion="relative"``."""
        ids = {name: found for name, found in lists.items() if found}
        if self.fusion == "hops":  # a list weighted 0 is left out, as in the sums
            further = [ids[name] for name in RETRIEVERS
                       if name in ids and name not in FIRST_HOP and self.weights.get(name, 0.0) > 0]
            first = self.core.first_hop(ids.get("semantic", []), ids.get("keyword", []))
            return round_robin([h for h in [first, *further] if h])
        if self.fusion == "rrf":
            fused = rrf([(found, self.weights.get(name, 0.0)) for name, found in ids.items()], self.rrf_k)
        else:
            fused = relative_score_fusion({name: (scores or {})[name] for name in ids}, self.weights)
        return ranked(fused), fused

    def _rerank(self, conn: Connection, found: Rankings, query: str, order: list[int], fused: dict[int, float],
                limit: int, lists: dict[str, list[int]]) -> tuple[list[RankedChunk], str]:
        """The ``limit`` chunks of the context, loaded, and what reranked them: the LLM (it reads the fused top
        ``rerank_candidates``), MMR over the top ``3 x limit``'s stored vectors, or nothing."""
        pool = order[: max(self.rerank_candidates, limit)]

        def load(ids: list[int]) -> list[RankedChunk]:
            return self.core.chunks(conn, found, [(c, fused[c]) for c in ids], query, lists=lists)

        if self.llm is not None:
            candidates = load(pool)
            picked = llm_rerank(self.llm, query, [(c.title, c.text) for c in candidates], limit)
            for i, relevance in picked:
                candidates[i].score = candidates[i].score if relevance is None else relevance
            return [candidates[i] for i, _ in picked], "llm"
        if self.use_mmr and len(pool) > limit:
            candidates_ids = pool[: limit * 3]
            vectors = chunk_store.vectors(conn, candidates_ids)
            chosen = mmr(self.core.embedder.embed_query(query), vectors, [fused[c] for c in candidates_ids], limit,
                         self.mmr_lambda)
            return load([candidates_ids[i] for i in chosen]), "mmr"
        return load(pool[:limit]), "none"
