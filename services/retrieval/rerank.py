"""Reranking Ask's fused candidates by the configured LLM (offline, MMR: :func:`services.retrieval.fusion.mmr`).

A plain function over (title, text) passages: Ask's retrieval calls it on its ranked chunks, and the LlamaIndex
node postprocessor (services/retrieval/llamaindex_adapter.py) on nodes.
"""

from __future__ import annotations

import logging

from services.stores.llm import LLMClient, LLMError

log = logging.getLogger(__name__)

RERANK_PROMPT = (
    "You rank passages by how useful they are to answer a question. Reply with JSON only: "
    '{"ranking": [{"passage": <number>, "relevance": <0-10>}, ...]}, best first, one entry per passage given. '
    "A passage that states part of the answer, or names an entity the answer depends on, is relevant."
)
PASSAGE_CHARS = 700  # each passage shown to the reranker is cut to this length


def llm_rerank(llm: LLMClient, question: str, passages: list[tuple[str, str]],
               top_n: int) -> list[tuple[int, float | None]]:
    """The LLM reads the (title, text) passages and ranks them: their indexes, best first, each with the
    relevance the LLM gave it, then those it left out in their order (relevance None); at most ``top_n``.
    On any LLM failure the given order stands."""
    kept: list[tuple[int, float | None]] = [(i, None) for i in range(len(passages))]
    if len(passages) <= 1:
        return kept[:top_n]
    text = "\n\n".join(f"[{i}] ({title}) {body[:PASSAGE_CHARS]}" for i, (title, body) in enumerate(passages, start=1))
    try:
        answer = llm.json_chat(RERANK_PROMPT, f"Question: {question}\n\nPassages:\n{text}")
        ranking = [(int(r["passage"]), float(r.get("relevance", 0))) for r in answer.get("ranking", [])
                   if isinstance(r, dict) and str(r.get("passage", "")).isdigit()]
    except (LLMError, TypeError, ValueError) as exc:
        log.warning("LLM rerank failed; keeping the fused order: %s", exc)
        return kept[:top_n]
    seen: set[int] = set()
    ordered: list[tuple[int, float | None]] = []
    for number, relevance in ranking:
        if 1 <= number <= len(passages) and number not in seen:
            seen.add(number)
            ordered.append((number - 1, relevance))
    ordered += [(i, None) for i in range(len(passages)) if i + 1 not in seen]  # what the LLM left out keeps its place
    return ordered[:top_n]

