"""Ways to combine ranked lists into one, and to diversify the result.

- :func:`rrf`: weighted reciprocal-rank fusion (ranks only).
- :func:`round_robin`: interleaving, each list in turn (a chunk at its best rank in any list).
- :func:`relative_score_fusion`: weighted sum of min-max normalised scores.
- :func:`mmr`: maximal marginal relevance over embeddings.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)


def ranked(scores: Mapping[K, float]) -> list[K]:
    """The keys of ``scores``, best first; equal scores in key order, so ties never depend on arrival order."""
    return sorted(scores, key=lambda key: (-scores[key], key))


def rrf(ranked_lists: list[tuple[list[int], float]], k: int) -> dict[int, float]:
    """Weighted reciprocal-rank fusion of lists of ids (best first): ``Σ weight / (k + rank)``."""
    fused: dict[int, float] = {}
    for ids, weight in ranked_lists:
        for rank, chunk_id in enumerate(ids, start=1):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + weight / (k + rank)
    return fused


def round_robin(ranked_lists: list[list[int]]) -> tuple[list[int], dict[int, float]]:
    """Interleave lists of ids (best first): the first of each list in turn, then the second of each, and so
    on, each id once. The order and each id's score, ``1 / its best rank in any list``.

    That is CombMAX over reciprocal ranks (Fox & Shaw, 1994) with ties going to the earlier list. Unlike
    :func:`rrf` it rewards no agreement between lists: it gives every list an equal share of the first places.
    Search and Ask use it between *hops*: the question's own ranking (semantic + BM25, fused by RRF, where
    agreement is evidence) and the lists that look one hop further (BM25 with pseudo-relevance feedback, the
    graph walk). A passage that only a second-hop list reaches is, by construction, one the first-hop lists
    do not rank, so a sum of reciprocal ranks buries it (docs/evaluation.md measures both).
    """
    order: list[int] = []
    score: dict[int, float] = {}
    for rank in range(1, max((len(ids) for ids in ranked_lists), default=0) + 1):
        for ids in ranked_lists:
            if rank <= len(ids) and ids[rank - 1] not in score:
                order.append(ids[rank - 1])
                score[ids[rank - 1]] = 1.0 / rank
    return order, score


def relative_score_fusion(scores: dict[str, dict[int, float]], weights: dict[str, float]) -> dict[int, float]:
    """Weighted sum of each retriever's min-max normalised scores (a missing chunk scores 0 in that list).

    Unlike reciprocal-rank fusion it keeps how sure each retriever is: a weak keyword or graph
    match cannot outrank a strong semantic one just by appearing in two lists.
    """
    fused: dict[int, float] = {}
    for name, values in scores.items():
        low, high = min(values.values()), max(values.values())
        span = high - low
        for cid, value in values.items():
            norm = (value - low) / span if span > 0 else 1.0
            fused[cid] = fused.get(cid, 0.0) + weights.get(name, 0.0) * norm
    return fused


def mmr(query: np.ndarray, vectors: np.ndarray, relevance: list[float], k: int, lam: float = 0.7) -> list[int]:
    """Maximal marginal relevance: pick ``k`` indexes balancing relevance and novelty."""
    chosen: list[int] = []
    rel = np.asarray(relevance, dtype=np.float32)
    if rel.size and rel.max() > 0:
        rel = rel / rel.max()
    while len(chosen) < min(k, len(vectors)):
        best, best_score = -1, -np.inf
        for i in range(len(vectors)):
            if i in chosen:
                continue
            redundancy = max((float(vectors[i] @ vectors[j]) for j in chosen), default=0.0)
            score = lam * float(rel[i]) - (1 - lam) * redundancy
            if score > best_score:
                best, best_score = i, score
        chosen.append(best)
    return chosen
