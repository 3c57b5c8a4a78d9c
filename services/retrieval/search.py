"""Search: semantic (pgvector cosine), keyword (Okapi BM25 in PostgreSQL) and hybrid, on the retrieval core.

Each mode is lists of the core (services/retrieval/core.py): semantic, keyword, or for hybrid both, their
fusion by reciprocal rank (the first hop) and BM25 expanded by pseudo-relevance feedback from that fusion's
first two chunks, which reaches the passage a second hop needs. Hybrid interleaves the first hop with the
feedback list (:func:`services.retrieval.fusion.round_robin`): a hit's score is one over its best rank in
either. The similarity threshold applies to cosine similarity: it filters semantic candidates (a keyword
match needs no threshold to count in hybrid). Hits are the core's :class:`RankedChunk`, with the query's
words marked.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from services.errors import ValidationFailed
from services.retrieval.core import MAX_QUERY_CHARS as MAX_QUERY_CHARS
from services.retrieval.core import Rankings, RetrievalCore, clean_query
from services.retrieval.fusion import round_robin
from services.retrieval.ranked_chunk import RankedChunk
from services.retrieval.word_forms import is_form_of_query, query_bases
from services.stores.chunk_store import MARK_END, MARK_START

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


CANDIDATES = 50  # the depth of each list hybrid fuses
PRELOAD = 2  # hybrid loads the first fusion's best PRELOAD x limit hits during the feedback pass
MAX_LIMIT = 200
LISTS = {"semantic": ("semantic",), "keyword": ("keyword",), "hybrid": ("semantic", "keyword", "feedback")}


@dataclass
class SearchResponse:
    query: str
    mode: str
    hits: list[RankedChunk]
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
    def __init__(self, *, core: RetrievalCore) -> None:
        self.core = core

    @property
    def ef_search(self) -> int:
        return self.core.ef_search

    @ef_search.setter
    def ef_search(self, value: int) -> None:  # the benchmark's sweep
        self.core.ef_search = value

    @property
    def rrf_k(self) -> int:
        return self.core.rrf_k

    @property
    def weights(self) -> dict[str, float]:
        return self.core.weights

    def search(self, query: str, *, collections: list[str] | None = None, mode: SearchMode = "hybrid",
               threshold: float = 0.35, limit: int = 10, filters: dict[str, Any] | None = None,
               feedback: list[int] | None = None, highlight: bool = True) -> SearchResponse:
        """``feedback`` (keyword mode): chunk ids, best first, whose words expand the query (see
        :func:`services.stores.keyword_ranking.expanded_keyword`). Without ``highlight`` the hits' segments are
        their plain text (ts_headline's cost skipped)."""
        query = clean_query(query)
        if mode not in LISTS:
            raise ValidationFailed("mode must be semantic, keyword or hybrid.")
        notes: list[str] = []
        limit, threshold = clamp_limit_and_threshold(limit, threshold, notes)
        scope = self.core.scope(collections, vectors=mode != "keyword", filters=filters)
        scope = scope if mode == "keyword" else scope.embedded_only()
        notes += scope.notes
        if not scope.ids:
            return SearchResponse(query, mode, [], {}, {}, notes + ["No collection to search."])
        scope.chunks().where()  # a malformed filter is refused before anything runs
        # Hybrid fuses each list's first CANDIDATES chunks whatever the page size, so a longer page never
        # reorders the first results (deeper lists let chunks that are mediocre in every list rise).
        depth = limit if mode != "hybrid" else max(limit, CANDIDATES)
        with self.core.engine.begin() as conn:
            found = self.core.rank(conn, query, scope, lists=LISTS[mode], depth=depth, threshold=threshold,
                                   preload=PRELOAD * limit if mode == "hybrid" else 0, highlight=highlight,
                                   widen_from=feedback if mode == "keyword" else None)
            with found.watch.phase("fuse_and_load"):
                lists = {"question": found.first_hop, "widened": found.order("feedback")} if mode == "hybrid" else {}
                hits = self.core.chunks(conn, found, _ordered(found, mode)[:limit], query, highlight=highlight,
                                        lists=lists, mark=lambda marked: _segments(marked, query))
        counts = {"semantic": len(found.semantic), "keyword": len(found.keyword), "returned": len(hits)}
        if mode == "hybrid":
            counts["feedback"] = len(found.feedback)
        return SearchResponse(query, mode, hits, counts, found.watch.ms, notes)


def _ordered(found: Rankings, mode: str) -> list[tuple[int, float]]:
    """(id, score), best first: hybrid interleaves the first hop with the feedback list; a mode's own list else."""
    if mode == "hybrid":
        order, scores = round_robin([found.first_hop, found.order("feedback")])
        return [(c, scores[c]) for c in order]
    scores = found.semantic if mode == "semantic" else found.keyword
    return [(c, scores[c]) for c in found.order(mode)]
