"""Okapi BM25 over packed postings (``bm25_blocks``, migration 011), scored with numpy.

A block holds one lexeme's postings for up to ``BLOCK`` consecutive chunk ids of one collection: per
posting the id's offset in the block, the field-weighted term frequency and the field-weighted chunk
length. Scoring is the same formula as the SQL ranking in :mod:`services.stores.chunk_store`, summed per
chunk; ties rank by chunk id, as there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

BLOCK = 1024
FIELD_WEIGHTS = (2.0, 1.5)  # title, heading: rag_bm25_weighted() in migration 011
POSTING = np.dtype([("offset", ">i2"), ("tf", ">f4"), ("dl", ">f4")])


Scores = tuple[np.ndarray, np.ndarray]
"""Matched chunk ids (ascending) and their summed BM25 scores."""


def scores(rows: Sequence[Any], idf: dict[str, float], *, avgdl: float, k1: float, b: float,
           overlapping: bool) -> Scores:
    """Every matched chunk's BM25 score, from one row per lexeme: ``(lexeme, blocks, sizes, postings)``,
    its blocks' numbers and byte sizes and their postings concatenated in the same order.

    ``idf`` is each lexeme's weighted IDF. With ``overlapping`` (several collections searched), a chunk
    in more than one of them has a posting in each: it counts once per lexeme.
    """
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    postings = np.frombuffer(b"".join(r.postings for r in rows), POSTING)
    blocks = np.concatenate([np.asarray(r.blocks, dtype=np.int64) for r in rows])
    per_block = np.concatenate([np.asarray(r.sizes, dtype=np.int64) for r in rows]) // POSTING.itemsize
    ids = np.repeat(blocks * BLOCK, per_block) + postings["offset"]
    per_lexeme = [len(r.postings) // POSTING.itemsize for r in rows]
    weight = np.repeat(np.array([idf[r.lexeme] for r in rows]), per_lexeme)
    if overlapping:
        lexeme = np.repeat(np.arange(len(rows)), per_lexeme)  # one row per lexeme: the row is its code
        _, first = np.unique(np.stack([lexeme, ids]), axis=1, return_index=True)
        postings, ids, weight = postings[first], ids[first], weight[first]
    tf = postings["tf"].astype(np.float64)
    score = postings["dl"].astype(np.float64)  # in place from here: the arrays are ~100k long at 100k chunks
    score *= k1 * b / avgdl
    score += k1 * (1.0 - b)
    score += tf
    np.divide(tf, score, out=score)
    score *= weight
    score *= k1 + 1.0  # idf x tf x (k1 + 1) / (tf + k1 x (1 - b + b x dl / avgdl))
    return _summed(ids, score)


def _summed(ids: np.ndarray, values: np.ndarray) -> Scores:
    """Values summed per id: (distinct ids ascending, sums)."""
    if not len(ids):
        return ids, values
    low = int(ids.min())
    span = int(ids.max()) - low + 1
    if span <= 4 * len(ids) + BLOCK:  # ids dense enough to sum by offset: no sort
        total = np.bincount(ids - low, weights=values, minlength=span)
        seen = np.bincount(ids - low, minlength=span) > 0
        return np.flatnonzero(seen) + low, total[seen]
    chunks, where = np.unique(ids, return_inverse=True)
    return chunks, np.bincount(where, weights=values, minlength=len(chunks))


def combined(parts: Sequence[tuple[Scores, float]]) -> Scores:
    """The weighted sum of several score sets (a chunk missing from one scores 0 there)."""
    ids = np.concatenate([chunks for (chunks, _), _ in parts])
    values = np.concatenate([totals * factor for (_, totals), factor in parts])
    return _summed(ids, values)


def top(found: Scores, depth: int) -> dict[int, float]:
    """The ``depth`` best chunks, best first; ties by chunk id."""
    chunks, total = found
    if depth <= 0 or not len(chunks):
        return {}
    if len(total) > depth:
        kth = np.partition(total, len(total) - depth)[len(total) - depth]
        keep = np.flatnonzero(total >= kth)
        chunks, total = chunks[keep], total[keep]
    order = np.lexsort((chunks, -total))[:depth]
    return {int(chunks[i]): float(total[i]) for i in order}
