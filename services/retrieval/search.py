"""Search: semantic (pgvector cosine), keyword (Okapi BM25 in PostgreSQL) and hybrid.

Hybrid looks two hops: the question's own ranking, semantic and BM25 (run on a second connection while the
query is embedded and the vectors searched) fused by reciprocal rank (``Σ weight / (rrf_k + rank)``), and
BM25 for the query expanded by pseudo-relevance feedback from that fusion's first two chunks
(:func:`services.stores.keyword_ranking.expanded_keyword`), which reaches the passage a second hop needs.
The two are interleaved (:func:`services.retrieval.fusion.round_robin`): a hit's score is one over its best
rank in either. The similarity threshold applies to cosine similarity: it filters semantic candidates (a
keyword match needs no threshold to count in hybrid).
"""

from __future__ import annotations

import math
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy.engine import Engine

from services.collections import Collection, CollectionService
from services.errors import ValidationFailed
from services.retrieval.fusion import ranked, round_robin, rrf
from services.retrieval.word_forms import is_form_of_query, query_bases
from services.stores import chunk_store, keyword_ranking
from services.stores.chunk_store import MARK_END, MARK_START, ChunkScope
from services.stores.embeddings import TextEmbedder

SearchMode = Literal["semantic", "keyword", "hybrid"]


def parse_search_mode(value: str) -> SearchMode:
    """A search mode from a front end's text."""
    if value == "semantic":
        return "semantic"
    if value == "keyword":
        return "keyword"
    if value == "hybrid":
        return "hybrid"
    raise ValidationFailed(f"mode must be semantic, keyword or hybrid, not {value!r}.")
MAX_QUERY_CHARS = 2_000
CANDIDATES = 50  # the depth of each list hybrid fuses
FEEDBACK_CHUNKS = 2  # pseudo-relevance feedback reads the first two chunks of the first pass
PRELOAD = 2  # hybrid loads the first fusion's best PRELOAD x limit hits during the feedback pass
MAX_LIMIT = 200


@dataclass
class SearchHit:
    chunk_id: int
    document_id: int
    title: str
    source: str
    chunk_index: int
    char_start: int
    char_end: int
    heading_path: list[str]
    text: str
    score: float
    semantic_score: float | None = None
    keyword_score: float | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    chunk_metadata: dict[str, Any] = field(default_factory=dict)  # e.g. associated_diagram_id
    segments: list[tuple[str, bool]] = field(default_factory=list)  # (text, is_match) for highlighting
    # Hybrid: the hit's rank in each list it interleaves, "question" (semantic + BM25 fused) and "widened"
    # (BM25 with feedback). Its score, 1 / the best of them, ties between lists; these say which placed it.
    list_ranks: dict[str, int] = field(default_factory=dict)


@dataclass
class SearchResponse:
    query: str
    mode: str
    hits: list[SearchHit]
    counts: dict[str, int]
    timings_ms: dict[str, float]
    notes: list[str] = field(default_factory=list)


def finite_number(value: Any, what: str) -> float:
    """A finite number from a number or numeric string; :class:`ValidationFailed` for anything else."""
    if isinstance(value, bool):
        raise ValidationFailed(f"{what} must be a number, got {value!r}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValidationFailed(f"{what} must be a number, got {value!r}.") from None
    if not math.isfinite(number):
        raise ValidationFailed(f"{what} must be a finite number, got {value!r}.")
    return number


def clamp_limit_and_threshold(limit: Any, threshold: Any, notes: list[str]) -> tuple[int, float]:
    """Clamp ``limit`` to 1–MAX_LIMIT and ``threshold`` to [-1, 1], saying so in ``notes`` when changed.

    The CLI and MCP refuse out-of-range values at their edge and the page's widgets
    cannot produce them; this is the service's own guarantee for any other caller.
    """
    raw_limit = finite_number(limit, "limit")
    clamped_limit = max(1, min(int(raw_limit), MAX_LIMIT))
    if clamped_limit != raw_limit:
        notes.append(f"limit {limit!r} is outside 1–{MAX_LIMIT}; {clamped_limit} was used.")
    raw_threshold = finite_number(threshold, "threshold")
    clamped_threshold = max(-1.0, min(raw_threshold, 1.0))
    if clamped_threshold != raw_threshold:
        notes.append(f"threshold {threshold!r} is outside -1 to 1; {clamped_threshold:g} was used.")
    return clamped_limit, clamped_threshold


def _segments(marked: str, query: str) -> list[tuple[str, bool]]:
    """(text, is_match) pieces of a chunk that ts_headline marked: a marked word that only shares the query
    word's stem ("important" for "imports") is left unmarked (:mod:`services.retrieval.word_forms`)."""
    bases = query_bases(query)
    out: list[tuple[str, bool]] = []

    def add(text: str, is_match: bool) -> None:
        if out and not is_match and not out[-1][1]:
            out[-1] = (out[-1][0] + text, False)
        elif text:
            out.append((text, is_match))

    pos = 0
    for m in re.finditer(f"{MARK_START}(.*?){MARK_END}", marked, flags=re.S):
        add(marked[pos : m.start()], False)
        add(m.group(1), is_form_of_query(m.group(1), bases))
        pos = m.end()
    add(marked[pos:], False)
    return out


class SearchService:
    def __init__(self, *, engine: Engine, embedder: TextEmbedder, collections: CollectionService,
                 ef_search: int = 200, rrf_k: int = 60, semantic_weight: float = 1.0, keyword_weight: float = 1.0) -> None:
        self.engine = engine
        self.embedder = embedder
        self.collections = collections
        self.ef_search = ef_search
        self.rrf_k = rrf_k
        self.weights = {"semantic": semantic_weight, "keyword": keyword_weight}

    def _scope(self, names: list[str] | None, mode: str, notes: list[str]) -> list[Collection]:
        chosen = [self.collections.get(n) for n in names] if names else self.collections.list()
        if mode == "keyword":
            return chosen
        usable = []
        for coll in chosen:
            if names:
                self.collections.check_model(coll)  # explicit scope: mismatch is an error
            if coll.embedding_model == self.embedder.name and coll.embedding_dim == self.embedder.dim:
                usable.append(coll)
            else:
                notes.append(f"Skipped {coll.name!r}: built with {coll.embedding_model}, not the configured model.")
        return usable

    def first_hop(self, semantic: list[int], keyword: list[int]) -> list[int]:
        """The question's own ranking: semantic and BM25 (ids, best first) fused by weighted reciprocal rank.
        Hybrid and Ask interleave it with the lists that look a hop further, whose feedback is its first chunks."""
        return ranked(rrf([(semantic, self.weights["semantic"]), (keyword, self.weights["keyword"])], self.rrf_k))

    def _keyword(self, query: str, chunks: ChunkScope, depth: int,
                 memo: keyword_ranking.BM25Memo) -> tuple[dict[int, float], float]:
        """BM25 for ``query`` on a connection of its own (keeping what it read in ``memo``), and its milliseconds."""
        t0 = time.perf_counter()
        with self.engine.connect() as conn:
            found = keyword_ranking.keyword(conn, query, chunks, depth=depth, memo=memo)
            return found, (time.perf_counter() - t0) * 1000

    def _load(self, ids: list[int], query: str, highlight: bool) -> dict[int, Any]:
        """Hits by id, on a connection of their own."""
        with self.engine.connect() as conn:
            return chunk_store.load_hits(conn, ids, query, highlight=highlight)

    def search(
        self, query: str, *, collections: list[str] | None = None, mode: SearchMode = "hybrid",
        threshold: float = 0.35, limit: int = 10, filters: dict[str, Any] | None = None,
        feedback: list[int] | None = None, highlight: bool = True, memo: keyword_ranking.BM25Memo | None = None,
    ) -> SearchResponse:
        """``feedback`` (keyword mode): chunk ids, best first, whose words expand the query (see
        :func:`services.stores.keyword_ranking.expanded_keyword`). Without ``highlight`` the hits' segments are
        their plain text (Ask's retrievers, which show no highlights, skip ts_headline's cost). ``memo`` carries
        a keyword pass's work to the feedback pass of the same question (hybrid makes its own)."""
        query = (query or "").replace("\x00", " ").strip()  # PostgreSQL text cannot hold NUL
        if not query:
            raise ValidationFailed("Type something to search for.")
        if len(query) > MAX_QUERY_CHARS:
            raise ValidationFailed(f"A query is at most {MAX_QUERY_CHARS} characters.")
        if mode not in ("semantic", "keyword", "hybrid"):
            raise ValidationFailed("mode must be semantic, keyword or hybrid.")
        notes: list[str] = []
        limit, threshold = clamp_limit_and_threshold(limit, threshold, notes)
        timings: dict[str, float] = {}
        scope = self._scope(collections, mode, notes)
        if not scope:
            return SearchResponse(query, mode, [], {}, timings, notes + ["No collection to search."])
        chunks = ChunkScope([c.id for c in scope], filters)
        chunks.where()  # a malformed filter is refused before anything runs
        # Hybrid fuses each list's first CANDIDATES chunks whatever the page size, so a longer page never
        # reorders the first results (deeper lists let chunks that are mediocre in every list rise).
        depth = limit if mode != "hybrid" else max(limit, CANDIDATES)
        semantic: dict[int, float] = {}
        keyword: dict[int, float] = {}
        with self.engine.begin() as conn, ThreadPoolExecutor(max_workers=1) as pool:
            # Hybrid: BM25 runs on a second connection while the query is embedded and the vectors searched.
            # The feedback pass reuses what the first pass read and scored (the question's own words).
            memo = memo if memo is not None else keyword_ranking.BM25Memo()
            keyword_run = pool.submit(self._keyword, query, chunks, depth, memo) if mode == "hybrid" else None
            if mode in ("semantic", "hybrid"):
                t0 = time.perf_counter()
                vector = self.embedder.embed_query(query)
                timings["embed_query"] = (time.perf_counter() - t0) * 1000
                t0 = time.perf_counter()
                semantic = chunk_store.semantic(conn, vector, chunks, depth=depth, threshold=threshold,
                                                   ef_search=self.ef_search)
                timings["semantic"] = (time.perf_counter() - t0) * 1000
            if keyword_run is not None:
                keyword, timings["keyword"] = keyword_run.result()
            elif mode == "keyword":
                t0 = time.perf_counter()
                keyword = (keyword_ranking.expanded_keyword(conn, query, feedback, chunks, depth=depth, memo=memo)
                           if feedback else keyword_ranking.keyword(conn, query, chunks, depth=depth, memo=memo))
                timings["keyword"] = (time.perf_counter() - t0) * 1000
            expanded: dict[int, float] = {}
            loading: Future[dict[int, Any]] | None = None
            first = self.first_hop(ranked(semantic), ranked(keyword)) if mode == "hybrid" else []
            if mode == "hybrid" and keyword:
                t0 = time.perf_counter()
                # Half the hits or more are among this fusion's best: load those while the feedback pass runs.
                loading = pool.submit(self._load, first[:PRELOAD * limit], query, highlight)
                expanded = keyword_ranking.expanded_keyword(conn, query, first[:FEEDBACK_CHUNKS], chunks, depth=depth,
                                                        memo=memo)
                timings["feedback"] = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            if mode == "hybrid":
                order, scores = round_robin([first, ranked(expanded)])
            else:
                scores = semantic if mode == "semantic" else keyword
                order = ranked(scores)
            top = order[:limit]
            rows = loading.result() if loading is not None else {}
            rows.update(chunk_store.load_hits(conn, [c for c in top if c not in rows], query, highlight=highlight))
            hits = _hits(rows, top, scores, semantic, keyword, query)
            if mode == "hybrid":
                _add_list_ranks(hits, {"question": first, "widened": ranked(expanded)})
            timings["fuse_and_load"] = (time.perf_counter() - t0) * 1000
        counts = {"semantic": len(semantic), "keyword": len(keyword), "returned": len(hits)}
        if mode == "hybrid":
            counts["feedback"] = len(expanded)
        return SearchResponse(query, mode, hits, counts, timings, notes)


def _hits(rows: dict[int, Any], ids: list[int], scores: dict[int, float], semantic: dict[int, float],
          keyword: dict[int, float], query: str) -> list[SearchHit]:
    """Search hits in ranking order (a chunk deleted between ranking and loading is left out)."""
    hits = []
    for chunk_id in ids:
        r = rows.get(chunk_id)
        if r is None:
            continue
        hits.append(SearchHit(
            chunk_id=r.id, document_id=r.document_id, title=r.title, source=r.source,
            chunk_index=r.chunk_index, char_start=r.char_start, char_end=r.char_end,
            heading_path=list(r.heading_path), text=r.text, score=scores[chunk_id],
            semantic_score=semantic.get(chunk_id), keyword_score=keyword.get(chunk_id),
            metadata=r.metadata, chunk_metadata=r.chunk_metadata or {}, segments=_segments(r.marked, query),
        ))
    return hits


def _add_list_ranks(hits: list[SearchHit], lists: dict[str, list[int]]) -> None:
    positions = {name: {cid: rank for rank, cid in enumerate(ids, start=1)} for name, ids in lists.items()}
    for hit in hits:
        hit.list_ranks = {name: at[hit.chunk_id] for name, at in positions.items() if hit.chunk_id in at}
