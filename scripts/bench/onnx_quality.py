"""Quality checks for the ONNX benchmark: vector agreement and a store-free retrieval recall.

- :func:`agreement`: per-text cosine and absolute difference between two sets of unit vectors.
- :func:`brute_force_recall`: hotpotqa-100 recall@2/@5 of semantic search done in numpy (every
  passage chunked and embedded as ingestion does, exact cosine ranking, first k distinct titles
  as ``make eval`` counts them), so every variant, int8 included, is scored on the same questions
  without the stores. For torch it reproduces make eval's semantic-only row.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from scripts.bench.common import SHARED_DATA, percentile

KS = (2, 5)


def agreement(reference: np.ndarray, other: np.ndarray) -> dict[str, float]:
    """How close ``other`` is to ``reference`` (both unit vectors, row by row)."""
    cos = (reference * other).sum(axis=1)
    return {"texts": len(cos), "min_cosine": float(cos.min()), "p01_cosine": percentile(cos.tolist(), 1),
            "mean_cosine": float(cos.mean()), "max_abs_diff": float(np.abs(reference - other).max())}


def hotpot_inputs(settings: Any, data: Path = SHARED_DATA / "hotpotqa-100") -> tuple[list[str], list[str], list[dict]]:
    """(chunk inputs exactly as ingestion builds them, the title of each, the questions)."""
    from services.ingest.chunking import chunk_text

    corpus = json.loads((data / "corpus.json").read_text(encoding="utf-8"))
    inputs, titles = [], []
    for title, sentences in corpus.items():
        for c in chunk_text(" ".join(sentences), size=settings.chunk_size, overlap=settings.chunk_overlap):
            inputs.append(f"{title}\n{' > '.join(c.heading_path)}\n{c.text}")
            titles.append(title)
    return inputs, titles, json.loads((data / "questions.json").read_text(encoding="utf-8"))


def brute_force_recall(embed: Callable[[list[str]], np.ndarray], inputs: list[str], titles: list[str],
                       questions: list[dict]) -> dict[str, float]:
    """Recall@k of the gold supporting titles among the first k distinct titles by exact cosine."""
    chunks = embed(inputs)
    asked = embed([q["question"] for q in questions])
    hits = {k: 0.0 for k in KS}
    for q, vector in zip(questions, asked, strict=True):
        ranked = list(dict.fromkeys(titles[i] for i in np.argsort(-(chunks @ vector))[:50]))
        gold = {title for title, _ in q["supporting_facts"]}
        for k in KS:
            hits[k] += len(gold & set(ranked[:k])) / len(gold)
    return {f"recall@{k}": hits[k] / len(questions) for k in KS}
