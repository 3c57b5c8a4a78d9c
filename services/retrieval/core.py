"""The retrieval core: the rankings Search and Ask both run, on a scope resolved once per request.

One :meth:`RetrievalCore.rank` call computes the lists a request asks for, each as chunk id → score:

1. ``semantic`` (the query's embedding against pgvector's HNSW index, at or above the threshold) on the
   request's connection, while ``keyword`` (Okapi BM25 in PostgreSQL) runs on a second one;
2. the **first hop**, semantic and BM25 fused by weighted reciprocal rank (:meth:`RetrievalCore.first_hop`),
   whose best two chunks feed both lists that look one hop further:
3. ``feedback`` (BM25 for the query expanded by pseudo-relevance feedback from those chunks' words, reusing
   the first BM25 pass's work through one ``BM25Memo``) on the request's connection, while ``graph`` (the
   walk of services/retrieval/graph_walk.py, seeded by the query's entities, those two chunks' named entities
   and the semantic hits) runs on a second one, with the facts of the entities it started from.

How the lists are fused is the caller's (Search interleaves the first hop with the feedback list; Ask adds
the walk and reranks), and :meth:`RetrievalCore.chunks` loads the chosen ids as :class:`RankedChunk`, the
one result type. Each phase is timed on the request's :class:`Stopwatch`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection, Engine

from services.collections import CollectionService
from services.errors import ValidationFailed
from services.retrieval.collection_scope import CollectionScope, resolve_scope
from services.retrieval.fusion import ranked, rrf
from services.retrieval.ranked_chunk import RankedChunk, ranked_chunks
from services.retrieval.stopwatch import Stopwatch
from services.stores import chunk_store, keyword_ranking
from services.stores.chunk_store import ChunkScope
from services.stores.embeddings import TextEmbedder

if TYPE_CHECKING:
    from services.graph.model import Fact
    from services.graph.service import GraphService
    from services.retrieval.graph_walk import GraphWalk

MAX_QUERY_CHARS = 2_000
FEEDBACK_CHUNKS = 2  # pseudo-relevance feedback (words and the walk's entity seeds) reads the first hop's best two
LISTS = ("semantic", "keyword", "feedback", "graph")


def clean_query(query: str) -> str:
    """The query as every list reads it; :class:`ValidationFailed` for an empty or an over-long one."""
    query = (query or "").replace("\x00", " ").strip()  # PostgreSQL text cannot hold NUL
    if not query:
        raise ValidationFailed("Type something to search for.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationFailed(f"A query is at most {MAX_QUERY_CHARS} characters.")
    return query


@dataclass
class Rankings:
    """One request's lists (chunk id → score, each in its own order: :func:`ranked`) and what came with them."""

    semantic: dict[int, float] = field(default_factory=dict)  # cosine similarity
    keyword: dict[int, float] = field(default_factory=dict)  # BM25
    feedback: dict[int, float] = field(default_factory=dict)  # BM25 with pseudo-relevance feedback
    graph: dict[int, float] = field(default_factory=dict)  # the walk's probability mass, its best ``depth``
    first_hop: list[int] = field(default_factory=list)  # semantic + keyword by weighted RRF, best first
    facts: list[Fact] = field(default_factory=list)  # of the entities the walk started from
    entities: list[str] = field(default_factory=list)  # the query's entity keys (else those the facts are of)
    rows: dict[int, Any] = field(default_factory=dict)  # chunks loaded beside the feedback pass (``preload``)
    watch: Stopwatch = field(default_factory=Stopwatch)

    def order(self, name: str) -> list[int]:
        scores: dict[int, float] = getattr(self, name)
        return ranked(scores)


class RetrievalCore:
    def __init__(self, *, engine: Engine, embedder: TextEmbedder, collections: CollectionService, ef_search: int = 200,
                 rrf_k: int = 60, semantic_weight: float = 1.0, keyword_weight: float = 1.0) -> None:
        self.engine = engine
        self.embedder = embedder
        self.collections = collections
        self.ef_search = ef_search
        self.rrf_k = rrf_k
        self.weights = {"semantic": semantic_weight, "keyword": keyword_weight}
        self.walk: GraphWalk | None = None
        self.graph: GraphService | None = None

    def with_graph(self, walk: GraphWalk | None, graph: GraphService | None) -> RetrievalCore:
        """The same core that can also walk the graph (Ask's), and read the facts of the walk's seeds."""
        core = copy.copy(self)
        core.walk, core.graph = walk, graph
        return core

    def scope(self, names: list[str] | None, *, vectors: bool, filters: dict[str, Any] | None = None) -> CollectionScope:
        return resolve_scope(self.collections, self.embedder, names, vectors=vectors, filters=filters)

    def first_hop(self, semantic: list[int], keyword: list[int]) -> list[int]:
        """The question's own ranking: semantic and BM25 (ids, best first) fused by weighted reciprocal rank."""
        return ranked(rrf([(semantic, self.weights["semantic"]), (keyword, self.weights["keyword"])], self.rrf_k))

    def rank(self, conn: Connection, query: str, scope: CollectionScope, *, lists: Collection[str], depth: int,
             threshold: float, extra_entities: list[str] | None = None, preload: int = 0, highlight: bool = False,
             on_walk: Callable[[], None] | None = None, widen_from: list[int] | None = None) -> Rankings:
        """The ``lists`` (of :data:`LISTS`) for ``query``, ``depth`` deep, on ``scope``. ``feedback`` runs when
        ``keyword`` found something, ``graph`` when the core walks (:meth:`with_graph`); ``on_walk`` is called as
        the walk starts. ``preload``: load the first hop's best that many chunks (``highlight``ed) while the
        feedback pass runs. ``widen_from`` (``keyword`` without ``semantic``): chunk ids, best first, whose words
        expand the query (:func:`services.stores.keyword_ranking.expanded_keyword`)."""
        out = Rankings()
        watch, memo = out.watch, keyword_ranking.BM25Memo()
        beside = "semantic" in lists and "keyword" in lists  # BM25 on a second connection while the query embeds
        with ThreadPoolExecutor(max_workers=2) as pool:
            # The first hop: semantic here, BM25 beside it; their fusion.
            keyword_run = pool.submit(watch.call, "keyword", self._keyword, query, scope.chunks(), depth, memo) \
                if beside else None
            if "semantic" in lists:
                with watch.phase("embed_query"):
                    vector = self.embedder.embed_query(query)
                with watch.phase("semantic"):
                    out.semantic = chunk_store.semantic(conn, vector, scope.embedded_chunks(), depth=depth,
                                                        threshold=threshold, ef_search=self.ef_search)
            if keyword_run is not None:
                out.keyword = keyword_run.result()
            elif "keyword" in lists and widen_from:
                with watch.phase("keyword"):
                    out.keyword = keyword_ranking.expanded_keyword(conn, query, widen_from, scope.chunks(), depth=depth,
                                                                   memo=memo)
            elif "keyword" in lists:
                with watch.phase("keyword"):
                    out.keyword = keyword_ranking.keyword(conn, query, scope.chunks(), depth=depth, memo=memo)
            out.first_hop = self.first_hop(out.order("semantic"), out.order("keyword"))
            # One hop further, from the first hop's best chunks: BM25 with feedback here, the walk beside it.
            seeds = out.first_hop[:FEEDBACK_CHUNKS]
            widen = "feedback" in lists and bool(out.keyword)
            loading = pool.submit(self._load, out.first_hop[:preload], query, highlight) if preload and widen else None
            if on_walk is not None and "graph" in lists:
                on_walk()
            walking: Future[None] | None = None
            if "graph" in lists and self.walk is not None and scope.ids:
                walking = pool.submit(watch.call, "graph", self._walk, out, query, scope, seeds, extra_entities or [],
                                      depth)
            if widen:
                with watch.phase("feedback"):
                    out.feedback = keyword_ranking.expanded_keyword(conn, query, seeds, scope.chunks(), depth=depth,
                                                                    memo=memo)
            if walking is not None:
                walking.result()
            if loading is not None:
                out.rows = loading.result()
        return out

    def chunks(self, conn: Connection, rankings: Rankings, scores: list[tuple[int, float]], query: str, *,
               highlight: bool = False, lists: dict[str, list[int]] | None = None,
               mark: Callable[[str], list[tuple[str, bool]]] | None = None) -> list[RankedChunk]:
        """The chosen (id, score) pairs, best first, loaded as ranked chunks (rows ``rank`` preloaded are reused);
        ``mark`` cuts a chunk's text, with the query's words ``highlight``ed, into its segments."""
        rows = dict(rankings.rows)
        rows.update(chunk_store.load_hits(conn, [c for c, _ in scores if c not in rows], query, highlight=highlight))
        return ranked_chunks(rows, scores, semantic=rankings.semantic, keyword=rankings.keyword, lists=lists or {},
                             mark=mark)

    def _keyword(self, query: str, chunks: ChunkScope, depth: int,
                 memo: keyword_ranking.BM25Memo) -> dict[int, float]:
        """BM25 for ``query`` on a connection of its own (keeping what it read in ``memo``)."""
        with self.engine.connect() as conn:
            return keyword_ranking.keyword(conn, query, chunks, depth=depth, memo=memo)

    def _load(self, ids: list[int], query: str, highlight: bool) -> dict[int, Any]:
        """Chunk rows by id, on a connection of their own."""
        with self.engine.connect() as conn:
            return chunk_store.load_hits(conn, ids, query, highlight=highlight)

    def _walk(self, out: Rankings, query: str, scope: CollectionScope, seeds: list[int], extra: list[str],
              depth: int) -> None:
        """The walk's best ``depth`` chunks (seeded by the query's entities, the previous turn's ``extra``, those
        the first hop's best chunks name, and the semantic hits), and the facts of the entities it started
        from: the query's, else (none named) those of the best semantic hits."""
        assert self.walk is not None
        cids, semantic = scope.ids, {c: out.semantic[c] for c in out.order("semantic")}
        result = self.walk.walk(query, cids, dense=semantic, extra_keys=extra, feedback=seeds)
        asked = [e.key for e in result.seeds]
        keys = asked + [e.key for e in result.feedback]
        facts: dict[str, Fact] = {}
        if self.graph is not None:
            if not keys and semantic:
                best = {c: semantic[c] for c in list(semantic)[:5]}
                keys = [e.key for e in self.graph.entities_for_chunks(best, cids, limit=5)]
            for key in keys[:8]:
                for fact in self.graph.facts_of_entity(key, cids, limit=60):
                    facts.setdefault(fact.id, fact)
        out.graph = {c: result.scores[c] for c in ranked(result.scores)[:depth]}
        out.facts, out.entities = list(facts.values()), asked or keys
