"""Search: semantic (pgvector cosine), keyword (PostgreSQL full text) and hybrid (weighted RRF).

Hybrid is a real fusion: both retrievers return ranked candidates and each
chunk's fused score is ``Σ weight / (rrf_k + rank)`` over the lists it appears
in. The similarity threshold applies to cosine similarity: it filters semantic
candidates (a keyword match needs no threshold to count in hybrid).
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.collections import Collection, CollectionService
from services.embeddings import Embedder, vector_literal
from services.errors import ValidationFailed
from services.metadata_schema import check_json_shape

SearchMode = Literal["semantic", "keyword", "hybrid"]
MAX_QUERY_CHARS = 2_000
MAX_LIMIT = 200
_MARK_START, _MARK_END = "\x02", "\x03"
_RANGE_OPS = {"gte": ">=", "gt": ">", "lte": "<=", "lt": "<", "ne": "<>"}


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


@dataclass
class SearchResponse:
    query: str
    mode: str
    hits: list[SearchHit]
    counts: dict[str, int]
    timings_ms: dict[str, float]
    notes: list[str] = field(default_factory=list)


def _filter_sql(filters: dict[str, Any] | None, params: dict[str, Any]) -> str:
    """Metadata filters on documents.metadata: equality, or {op: value} with gte/gt/lte/lt/ne/in."""
    if not filters:
        return ""
    if not isinstance(filters, dict):
        raise ValidationFailed("Filters must be a JSON object of field: value.")
    check_json_shape(filters, "Filters")
    try:
        json.dumps(filters, allow_nan=False)
    except (TypeError, ValueError):
        raise ValidationFailed("Filters must be plain JSON values (no NaN or infinite numbers).") from None
    clauses, equal = [], {}
    for i, (key, cond) in enumerate(filters.items()):
        if not isinstance(key, str) or not key:
            raise ValidationFailed("Filter field names must be non-empty strings.")
        if isinstance(cond, dict):
            for j, (op, value) in enumerate(cond.items()):
                pk, pv = f"fk{i}_{j}", f"fv{i}_{j}"
                params[pk] = key
                if op == "in":
                    if not isinstance(value, list):
                        raise ValidationFailed(f"Filter {key!r}: 'in' takes a list.")
                    params[pv] = json.dumps(value)
                    clauses.append(f"(d.metadata -> :{pk}) IN (SELECT jsonb_array_elements(CAST(:{pv} AS jsonb)))")
                elif op in _RANGE_OPS:
                    params[pv] = value
                    if isinstance(value, (int, float)) and not isinstance(value, bool):
                        clauses.append(
                            f"(CASE WHEN jsonb_typeof(d.metadata -> :{pk}) = 'number' "
                            f"THEN (d.metadata ->> :{pk})::numeric END) {_RANGE_OPS[op]} :{pv}"
                        )
                    else:
                        params[pv] = str(value)
                        clauses.append(f"(d.metadata ->> :{pk}) {_RANGE_OPS[op]} :{pv}")
                else:
                    raise ValidationFailed(f"Filter {key!r}: unknown operator {op!r} (use gte, gt, lte, lt, ne, in).")
        else:
            equal[key] = cond
    if equal:
        params["feq"] = json.dumps(equal)
        clauses.append("d.metadata @> CAST(:feq AS jsonb)")
    return "".join(f" AND {c}" for c in clauses)


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


def _rrf(ranked_lists: list[tuple[list[int], float]], k: int) -> dict[int, float]:
    """Weighted reciprocal-rank fusion of lists of ids (best first)."""
    fused: dict[int, float] = {}
    for ids, weight in ranked_lists:
        for rank, chunk_id in enumerate(ids, start=1):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + weight / (k + rank)
    return fused


COMMON_WORD_CHUNKS = 300  # a word in more chunks than this is too common to rank an any-word match by
FALLBACK_WORDS = 3


def _fallback_lexemes(conn: Any, words: list[str]) -> list[str]:
    """The stemmed words the any-word fallback matches: the query's rarest words that occur at all.

    Ranking every chunk that holds any word of a long question ("How many times was the politician
    who…") took ~1 s at 100k chunks. PostgreSQL's column statistics say how many chunks hold each
    common word; words in more than COMMON_WORD_CHUNKS chunks are left out, and of the rest the
    FALLBACK_WORDS rarest that occur are kept. Below that many chunks (or before the first ANALYZE)
    every word is kept, as before.
    """
    lexemes = conn.execute(sa.text("SELECT tsvector_to_array(to_tsvector('english', :t))"),
                           {"t": " ".join(words)}).scalar_one()
    stats = conn.execute(sa.text(
        "SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs, c.reltuples "
        "FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename AND c.relnamespace = s.schemaname::regnamespace "
        "WHERE s.tablename = 'chunks' AND s.attname = 'tsv' AND s.schemaname = current_schema()")).first()
    if stats is None or stats.elems is None or stats.reltuples <= COMMON_WORD_CHUNKS or len(lexemes) <= 1:
        return lexemes
    holding = {e: f * stats.reltuples for e, f in zip(stats.elems, stats.freqs)}
    rare = [lx for lx in lexemes if holding.get(lx, 0) <= COMMON_WORD_CHUNKS]
    unlisted = [lx for lx in rare if lx not in holding]
    present = set(conn.execute(sa.text(  # a word the statistics do not list may be rare, or absent
        "SELECT l FROM unnest(CAST(:ls AS text[])) l WHERE EXISTS "
        "(SELECT 1 FROM chunks WHERE tsv @@ quote_literal(l)::tsquery)"), {"ls": unlisted}).scalars()) if unlisted else set()
    rare = [lx for lx in rare if lx in holding or lx in present]
    listed = [lx for lx in lexemes if lx in holding]
    if not rare:  # only common (or absent) words: the least common one
        return [min(listed, key=holding.__getitem__)] if listed else lexemes
    return sorted(rare, key=lambda lx: holding.get(lx, 0))[:FALLBACK_WORDS]


def _segments(marked: str) -> list[tuple[str, bool]]:
    out, pos = [], 0
    for m in re.finditer(f"{_MARK_START}(.*?){_MARK_END}", marked, flags=re.S):
        if m.start() > pos:
            out.append((marked[pos : m.start()], False))
        out.append((m.group(1), True))
        pos = m.end()
    if pos < len(marked):
        out.append((marked[pos:], False))
    return out


class SearchService:
    def __init__(self, *, engine: Engine, embedder: Embedder, collections: CollectionService,
                 ef_search: int = 200, rrf_k: int = 60, semantic_weight: float = 0.6, keyword_weight: float = 0.3) -> None:
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

    def search(
        self, query: str, *, collections: list[str] | None = None, mode: SearchMode = "hybrid",
        threshold: float = 0.35, limit: int = 10, filters: dict[str, Any] | None = None,
    ) -> SearchResponse:
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
        params: dict[str, Any] = {"cids": [c.id for c in scope]}
        where = (
            " AND EXISTS (SELECT 1 FROM collection_documents cd WHERE cd.document_id = c.document_id"
            " AND cd.collection_id = ANY(:cids))" + _filter_sql(filters, params)
        )
        depth = limit if mode != "hybrid" else max(limit * 4, 40)
        semantic: dict[int, float] = {}
        keyword: dict[int, float] = {}
        with self.engine.begin() as conn:
            if mode in ("semantic", "hybrid"):
                t0 = time.perf_counter()
                vector = self.embedder.embed_query(query)
                timings["embed_query"] = (time.perf_counter() - t0) * 1000
                t0 = time.perf_counter()
                semantic = self._semantic(conn, vector, where, params, depth, threshold)
                timings["semantic"] = (time.perf_counter() - t0) * 1000
            if mode in ("keyword", "hybrid"):
                t0 = time.perf_counter()
                keyword, fallback = self._keyword(conn, query, where, params, depth)
                timings["keyword"] = (time.perf_counter() - t0) * 1000
                if fallback:
                    notes.append("No chunk had every query word; keyword results match any of them.")
            t0 = time.perf_counter()
            if mode == "semantic":
                scores = semantic
            elif mode == "keyword":
                scores = keyword
            else:
                ordered = lambda d: sorted(d, key=d.get, reverse=True)  # noqa: E731
                fused = _rrf([(ordered(semantic), self.weights["semantic"]),
                              (ordered(keyword), self.weights["keyword"])], self.rrf_k)
                # Scale so that 1.0 means "ranked first by both retrievers".
                best = sum(self.weights.values()) / (self.rrf_k + 1) or 1.0
                scores = {cid: score / best for cid, score in fused.items()}
            top = sorted(scores, key=scores.get, reverse=True)[:limit]
            hits = self._load(conn, top, query, scores, semantic, keyword)
            timings["fuse_and_load"] = (time.perf_counter() - t0) * 1000
        counts = {"semantic": len(semantic), "keyword": len(keyword), "returned": len(hits)}
        return SearchResponse(query, mode, hits, counts, timings, notes)

    def _semantic(self, conn: Any, vector: Any, where: str, params: dict[str, Any], depth: int,
                  threshold: float) -> dict[int, float]:
        dim = int(self.embedder.dim)
        # Both transaction-local (like SET LOCAL), in one round trip.
        conn.execute(sa.text("SELECT set_config('hnsw.ef_search', :ef, true), "
                             "set_config('hnsw.iterative_scan', 'relaxed_order', true)"),
                     {"ef": str(int(max(self.ef_search, depth)))})
        rows = conn.execute(
            sa.text(
                f"SELECT c.id, 1 - (c.embedding::vector({dim}) <=> CAST(:q AS vector({dim}))) AS sim "
                f"FROM chunks c JOIN documents d ON d.id = c.document_id "
                f"WHERE c.embedding_dim = {dim}{where} "
                f"ORDER BY c.embedding::vector({dim}) <=> CAST(:q AS vector({dim})) LIMIT :depth"
            ),
            {**params, "q": vector_literal(vector), "depth": depth},
        ).all()
        return {r.id: float(r.sim) for r in rows if r.sim >= threshold}

    def _keyword(self, conn: Any, query: str, where: str, params: dict[str, Any],
                 depth: int) -> tuple[dict[int, float], bool]:
        sql = (
            "SELECT c.id, ts_rank_cd(c.tsv, q.q) AS rank FROM chunks c JOIN documents d ON d.id = c.document_id, "
            "(SELECT {tsq} AS q) q WHERE q.q IS NOT NULL AND c.tsv @@ q.q{where} ORDER BY rank DESC, c.id LIMIT :depth"
        )
        strict = "websearch_to_tsquery('english', :query)"
        # Fallback: any of the query's words, leaving out those the user excluded with "-word".
        positive = [w for w in re.findall(r"(?:^|(?<=\s))(-?)([A-Za-z0-9]+)", query) if not w[0]]
        loose = "to_tsquery('simple', :orq)"  # already stemmed
        args = {**params, "query": query, "depth": depth}
        rows = conn.execute(sa.text(sql.format(tsq=strict, where=where)), args).all()
        fallback = False
        lexemes = _fallback_lexemes(conn, [w[1] for w in positive]) if not rows and positive else []
        if lexemes:  # none when every word is a stop word
            args["orq"] = " | ".join(f"'{lexeme}'" for lexeme in lexemes)
            rows = conn.execute(sa.text(sql.format(tsq=loose, where=where)), args).all()
            fallback = bool(rows)
        return {r.id: float(r.rank) for r in rows}, fallback

    def _load(self, conn: Any, ids: list[int], query: str, scores: dict[int, float],
              semantic: dict[int, float], keyword: dict[int, float]) -> list[SearchHit]:
        if not ids:
            return []
        rows = conn.execute(
            sa.text(
                "SELECT c.id, c.document_id, d.title, d.source, c.chunk_index, c.char_start, c.char_end, "
                "c.heading_path, c.text, d.metadata, c.metadata AS chunk_metadata, "
                "ts_headline('english', replace(replace(c.text, chr(2), ''), chr(3), ''), "
                "  coalesce(NULLIF(replace(websearch_to_tsquery('english', :query)::text, ' & ', ' | '), '')::tsquery,"
                "           ''::tsquery), 'HighlightAll=true, StartSel=\x02, StopSel=\x03') AS marked "
                "FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(:ids)"
            ),
            {"ids": ids, "query": query},
        ).all()
        by_id = {r.id: r for r in rows}
        hits = []
        for chunk_id in ids:
            r = by_id.get(chunk_id)
            if r is None:  # deleted between ranking and loading
                continue
            hits.append(SearchHit(
                chunk_id=r.id, document_id=r.document_id, title=r.title, source=r.source,
                chunk_index=r.chunk_index, char_start=r.char_start, char_end=r.char_end,
                heading_path=list(r.heading_path), text=r.text, score=scores[chunk_id],
                semantic_score=semantic.get(chunk_id), keyword_score=keyword.get(chunk_id),
                metadata=r.metadata, chunk_metadata=r.chunk_metadata or {}, segments=_segments(r.marked),
            ))
        return hits
