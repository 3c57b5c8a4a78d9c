"""Keyword ranking: Okapi BM25 (BM25F over title, heading path and text) inside PostgreSQL.

Term statistics are the collections' own (``term_stats``, ``bm25_totals``), kept exact by triggers. Without
metadata filters, phrases or excluded words the postings are read packed from ``bm25_blocks`` and scored
with numpy (:mod:`services.stores.bm25_blocks`); otherwise row by row over ``chunk_terms``. The second,
pseudo-relevance-feedback pass (:func:`expanded_keyword`) can reuse the first pass's work (:class:`BM25Memo`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from services.stores import bm25_blocks
from services.stores.chunk_store import ChunkScope


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 with field weights (BM25F): a term in the title counts ``title`` times, in a heading ``heading``.

    k1 and b are Robertson's usual values; the field weights are the ones chosen on the first half of
    hotpotqa-100 (docs/evaluation.md).
    """

    k1: float = 1.2
    b: float = 0.75
    title: float = 2.0
    heading: float = 1.5


@dataclass(frozen=True)
class KeywordQuery:
    """A websearch-style query: words ranked by BM25; "quoted phrases" must match; -words must not."""

    words: str  # every positive word, phrases included, for ranking
    phrases: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()


@dataclass
class BM25Memo:
    """What one search's first BM25 pass found, for its feedback pass to reuse rather than redo: the query's
    index terms, the packed rows read (by collection ids and lexeme), and the scores of the pass's words at
    weight 1 (by collection ids and lexemes). BM25 is a sum over words, so the feedback pass, which weighs
    the question's words alike, adds that sum times their weight to the scores of its expansion words."""

    lexemes: dict[str, tuple[KeywordQuery, list[str]]] = dataclasses.field(default_factory=dict)
    blocks: dict[tuple[tuple[int, ...], str], Any] = dataclasses.field(default_factory=dict)
    scores: dict[tuple[tuple[int, ...], tuple[str, ...]], bm25_blocks.Scores] = dataclasses.field(default_factory=dict)


_QUOTED = re.compile(r'(-?)"([^"]*)"')
_EXCLUDED = re.compile(r"(?:^|(?<=\s))-(\S+)")


def parse_keyword_query(query: str) -> KeywordQuery:
    """Split websearch syntax (PostgreSQL's ``websearch_to_tsquery`` rules: quotes, ``-word``, ``or``)."""
    phrases: list[str] = []
    excluded: list[str] = []

    def quoted(m: re.Match[str]) -> str:
        (excluded if m.group(1) else phrases).append(m.group(2))
        return " " if m.group(1) else f" {m.group(2)} "

    rest = _QUOTED.sub(quoted, query)
    excluded += _EXCLUDED.findall(rest)
    words = _EXCLUDED.sub(" ", rest)
    return KeywordQuery(" ".join(words.split()), tuple(p for p in phrases if p.strip()),
                        tuple(x for x in excluded if x.strip()))


def statistics(conn: Connection, lexemes: list[str], cids: list[int]) -> tuple[dict[str, int], tuple[float, ...]]:
    """Per lexeme, how many chunks of the collections hold it; and (chunks, summed title, heading, text length).
    One statement: it runs two or three times in every keyword search."""
    row = conn.execute(sa.text(
        "SELECT coalesce(sum(chunks), 0), coalesce(sum(len_title), 0), coalesce(sum(len_heading), 0), "
        "  coalesce(sum(len_text), 0), "
        "  (SELECT json_object_agg(lexeme, df) FROM (SELECT lexeme, sum(df) AS df FROM term_stats "
        "   WHERE collection_id = ANY(:cids) AND lexeme = ANY(:lx) GROUP BY lexeme) s) "
        "FROM bm25_totals WHERE collection_id = ANY(:cids)"), {"cids": cids, "lx": lexemes}).one()
    return {lx: int(df) for lx, df in (row[4] or {}).items()}, tuple(float(v) for v in row[:4])


def query_lexemes(conn: Connection, query: str) -> tuple[KeywordQuery, list[str]]:
    """The parsed query and its words as index terms (folded, stemmed, stop words out), excluded words removed."""
    parsed = parse_keyword_query(query)
    lexemes = list(conn.execute(sa.text(
        "SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector('english', rag_fold(:t)))) l ORDER BY l"),
        {"t": parsed.words}).scalars())
    if parsed.excluded:
        gone = set(conn.execute(sa.text(
            "SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector('english', rag_fold(:t)))) l"),
            {"t": " ".join(parsed.excluded)}).scalars())
        lexemes = [lx for lx in lexemes if lx not in gone]
    return parsed, lexemes


def bm25_idf(n: float, df: float) -> float:
    """BM25's IDF of a term in ``df`` of ``n`` chunks: ``ln(1 + (N - df + 0.5) / (df + 0.5))``."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def keyword_evidence(conn: Connection, chunk_id: int, query: str, cids: list[int]) -> tuple[int, float]:
    """How well one chunk holds the query's content words, whatever the language: (content words it holds,
    their share of the IDF weight of the content words the collections hold). A content word is in at most
    half the chunks (German "der", "ist" are not, though English stop-word lists leave them in); words the
    collections never hold weigh nothing, so a German question about an English text ("Was besagt der Satz
    von Heine-Borel?") is judged by "Heine" and "Borel"."""
    _, lexemes = query_lexemes(conn, query)
    if not lexemes:
        return 0, 0.0
    df, (n, *_) = statistics(conn, lexemes, cids)
    known = {lx: bm25_idf(n, df[lx]) for lx in lexemes if 0 < df.get(lx, 0) <= n / 2}
    if not known:
        return 0, 0.0
    held = set(conn.execute(sa.text(
        "SELECT l FROM chunks, unnest(tsvector_to_array(tsv)) l WHERE id = :id AND l = ANY(:lx)"),
        {"id": chunk_id, "lx": list(known)}).scalars())
    return len(held), sum(known[lx] for lx in held) / sum(known.values())


def keyword(conn: Connection, query: str, scope: ChunkScope, *, depth: int, bm25: BM25 = BM25(),
            memo: BM25Memo | None = None) -> dict[int, float]:
    """The ``depth`` chunks that rank highest by BM25 for the query's words, within ``scope``.

    Term statistics are the collections' own (``term_stats``, ``bm25_totals``), kept exact by triggers, so
    the same data and query always give the same ranking. IDF is ``ln(1 + (N - df + 0.5) / (df + 0.5))``.
    """
    parsed, lexemes = _lexemes(conn, query, memo)
    return _bm25(conn, {lx: 1.0 for lx in lexemes}, parsed, scope, depth=depth, bm25=bm25, memo=memo)


def _lexemes(conn: Connection, query: str, memo: BM25Memo | None) -> tuple[KeywordQuery, list[str]]:
    if memo is None:
        return query_lexemes(conn, query)
    if query not in memo.lexemes:
        memo.lexemes[query] = query_lexemes(conn, query)
    parsed, lexemes = memo.lexemes[query]
    return parsed, list(lexemes)


def expanded_keyword(conn: Connection, query: str, feedback: list[int], scope: ChunkScope, *, depth: int,
                     terms: int = 10, share: float = 0.5, bm25: BM25 = BM25(),
                     memo: BM25Memo | None = None) -> dict[int, float]:
    """BM25 for the query expanded by pseudo-relevance feedback (RM3, Lavrenko & Croft; Abdul-Jaleel et al. 2004).

    The ``terms`` words that best characterise the ``feedback`` chunks (the first results of a first pass,
    best first) join the query: a word's weight is the sum over feedback chunks of ``1/rank x tf/length x idf``,
    and the expansion words together weigh ``share`` of the query, the original words the rest. A multi-hop
    question names its first hop; the passage that answers it names the bridge entity the second hop needs.
    Excluded words stay excluded; quoted phrases rank as words but are not required (the passage a second
    hop needs rarely holds the first hop's phrase).
    """
    parsed, lexemes = _lexemes(conn, query, memo)
    if not lexemes or not feedback or not scope.collection_ids:
        return {}
    cids = list(scope.collection_ids)
    rows = conn.execute(sa.text(
        "SELECT t.chunk_id, t.lexeme, sum(t.tf_title * :wt + t.tf_heading * :wh + t.tf_text) AS tf, "
        "  (SELECT sum(s.df) FROM term_stats s WHERE s.collection_id = ANY(:cids) AND s.lexeme = t.lexeme) AS df, "
        "  (SELECT sum(b.chunks) FROM bm25_totals b WHERE b.collection_id = ANY(:cids)) AS n "
        "FROM chunk_terms t WHERE t.collection_id = ANY(:cids) AND t.chunk_id = ANY(:ids) AND t.lexeme <> '' "
        "GROUP BY t.chunk_id, t.lexeme"),
        {"cids": cids, "ids": feedback, "wt": bm25.title, "wh": bm25.heading}).all()
    n = float(rows[0].n) if rows else 0.0
    length: dict[int, float] = {}
    for r in rows:
        length[r.chunk_id] = length.get(r.chunk_id, 0.0) + float(r.tf)
    rank_of = {chunk: i for i, chunk in enumerate(feedback, start=1)}
    original = set(lexemes)
    weight: dict[str, float] = {}
    for r in rows:
        if r.lexeme in original or not r.df:
            continue
        idf = bm25_idf(n, float(r.df))
        weight[r.lexeme] = weight.get(r.lexeme, 0.0) + float(r.tf) / length[r.chunk_id] * idf / rank_of[r.chunk_id]
    chosen = sorted(weight, key=lambda lx: (-weight[lx], lx))[:terms]
    total = sum(weight[lx] for lx in chosen)
    weights = {lx: (1.0 - share) / len(lexemes) for lx in lexemes} if chosen else {lx: 1.0 for lx in lexemes}
    for lx in chosen:
        weights[lx] = weights.get(lx, 0.0) + share * weight[lx] / total
    return _bm25(conn, weights, dataclasses.replace(parsed, phrases=()), scope, depth=depth, bm25=bm25,
                 memo=memo)


def _bm25(conn: Connection, weights: dict[str, float], parsed: KeywordQuery, scope: ChunkScope, *, depth: int,
          bm25: BM25, memo: BM25Memo | None = None) -> dict[int, float]:
    """Okapi BM25 of each chunk in ``scope`` for weighted index terms; the parsed query's phrases and
    excluded words constrain which chunks may rank.

    Without those constraints (and with the packed field weights) the postings come from ``bm25_blocks``
    and are ranked with numpy; ``memo``, when given, keeps what this pass read and scored for the next pass of
    the same search, and supplies what an earlier pass did."""
    if not weights or not scope.collection_ids:
        return {}
    lexemes = sorted(weights)
    df, (n, len_title, len_heading, len_text) = statistics(conn, lexemes, list(scope.collection_ids))
    lexemes = [lx for lx in lexemes if df.get(lx)]
    if not lexemes or n <= 0:
        return {}
    avgdl = max((bm25.title * len_title + bm25.heading * len_heading + len_text) / n, 1e-9)
    idf = [weights[lx] * bm25_idf(n, df[lx]) for lx in lexemes]
    if not scope.filters and not parsed.phrases and not parsed.excluded \
            and (bm25.title, bm25.heading) == bm25_blocks.FIELD_WEIGHTS:
        cids = tuple(scope.collection_ids)
        memo = memo if memo is not None else BM25Memo()
        parts: list[tuple[bm25_blocks.Scores, float]] = []
        rest = lexemes
        for (earlier_cids, earlier), found in memo.scores.items():  # an earlier pass's words, weighted alike here
            if earlier_cids == cids and set(earlier) <= set(rest) and len({weights[lx] for lx in earlier}) == 1:
                parts.append((found, weights[earlier[0]]))
                rest = [lx for lx in rest if lx not in earlier]
                break
        missing = [lx for lx in rest if (cids, lx) not in memo.blocks]
        if missing:
            for row in conn.execute(sa.text(
                    "SELECT lexeme, array_agg(block ORDER BY collection_id, block) AS blocks, "
                    "  array_agg(length(postings) ORDER BY collection_id, block) AS sizes, "
                    "  string_agg(postings, ''::bytea ORDER BY collection_id, block) AS postings "
                    "FROM bm25_blocks WHERE collection_id = ANY(:cids) AND lexeme = ANY(:lx) GROUP BY lexeme"),
                    {"cids": list(cids), "lx": missing}):
                memo.blocks[(cids, row.lexeme)] = row
        idf_of = dict(zip(lexemes, idf, strict=True))
        found = bm25_blocks.scores([memo.blocks[(cids, lx)] for lx in rest if (cids, lx) in memo.blocks],
                                   {lx: idf_of[lx] for lx in rest}, avgdl=avgdl, k1=bm25.k1, b=bm25.b,
                                   overlapping=len(cids) > 1)
        if not parts and all(weights[lx] == 1.0 for lx in lexemes):
            memo.scores[(cids, tuple(lexemes))] = found
        return bm25_blocks.top(bm25_blocks.combined([*parts, (found, 1.0)]) if parts else found, depth)
    where, params = scope.where()
    constraints = []
    for i, phrase in enumerate(parsed.phrases):
        params[f"ph{i}"] = phrase
        constraints.append(f" AND c.tsv @@ phraseto_tsquery('english', rag_fold(:ph{i}))")
    for i, word in enumerate(parsed.excluded):
        params[f"ex{i}"] = word
        constraints.append(f" AND NOT c.tsv @@ phraseto_tsquery('english', rag_fold(:ex{i}))")
    # A chunk in two of the collections has a posting in each: count it once. Postings carry the chunk's
    # field lengths (migration 010), so a candidate costs no lookup. Row by row, this path serves constrained
    # queries (and field weights the blocks were not packed with); without metadata filters, phrases or
    # excluded words the postings' collections are the scope, so the best ``depth`` are taken before the
    # join to chunks and documents instead of joining every candidate (tens of thousands at 100k chunks).
    distinct = "DISTINCT ON (t.chunk_id, t.lexeme) " if len(scope.collection_ids) > 1 else ""
    unconstrained = not scope.filters and not constraints
    early = "ORDER BY score DESC, p.chunk_id LIMIT :depth" if unconstrained else ""
    rows = conn.execute(sa.text(
        "WITH q(lexeme, idf) AS (SELECT * FROM unnest(CAST(:lx AS text[]), CAST(:idf AS float8[]))), "
        f"p AS (SELECT {distinct}t.chunk_id, q.idf, t.tf_title * :wt + t.tf_heading * :wh + t.tf_text AS tf, "
        "        t.len_title * :wt + t.len_heading * :wh + t.len_text AS dl "
        "      FROM chunk_terms t JOIN q ON q.lexeme = t.lexeme WHERE t.collection_id = ANY(:cids)), "
        "s AS (SELECT p.chunk_id, sum(p.idf * p.tf * (:k1 + 1) / (p.tf + :k1 * (1 - :b + :b * p.dl / :avgdl))) "
        f"        AS score FROM p GROUP BY p.chunk_id {early}) "
        f"SELECT s.chunk_id, s.score FROM s JOIN chunks c ON c.id = s.chunk_id JOIN documents d ON d.id = c.document_id "
        f"WHERE true{where}{''.join(constraints)} ORDER BY s.score DESC, s.chunk_id LIMIT :depth"),
        {**params, "lx": lexemes, "idf": idf, "wt": bm25.title, "wh": bm25.heading, "k1": bm25.k1, "b": bm25.b,
         "avgdl": avgdl, "depth": depth}).all()
    return {int(r.chunk_id): float(r.score) for r in rows}
