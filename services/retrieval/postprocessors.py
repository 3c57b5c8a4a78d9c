"""Node postprocessors for Ask's fused candidates: an LLM reranker when an LLM is configured, MMR offline.

Both are LlamaIndex ``BaseNodePostprocessor`` s: given the fused candidates (``NodeWithScore``) and the
question, they return the context passages in order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle
from pydantic import PrivateAttr

from services.retrieval.fusion import mmr
from services.retrieval.retrievers import chunk_id
from services.stores.embeddings import TextEmbedder
from services.stores.llm import LLMClient, LLMError

log = logging.getLogger(__name__)

RERANK_PROMPT = (
    "You rank passages by how useful they are to answer a question. Reply with JSON only: "
    '{"ranking": [{"passage": <number>, "relevance": <0-10>}, ...]}, best first, one entry per passage given. '
    "A passage that states part of the answer, or names an entity the answer depends on, is relevant."
)
PASSAGE_CHARS = 700  # each passage shown to the reranker is cut to this length


class MMRPostprocessor(BaseNodePostprocessor):
    """Maximal marginal relevance over the candidates' stored embeddings (relevance = their fused scores)."""

    top_n: int = 6
    lam: float = 0.7
    _embedder: Any = PrivateAttr()
    _vectors: Any = PrivateAttr()

    def __init__(self, embedder: TextEmbedder, vectors: Callable[[list[int]], np.ndarray], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._embedder = embedder
        self._vectors = vectors  # ids -> stored embeddings in that order (chunk_store.vectors over a connection)

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if query_bundle is None or len(nodes) <= self.top_n:
            return nodes[: self.top_n]
        vectors = self._vectors([chunk_id(n) for n in nodes])
        order = mmr(self._embedder.embed_query(query_bundle.query_str), vectors, [n.score or 0.0 for n in nodes],
                    self.top_n, self.lam)
        return [nodes[i] for i in order]


class LLMReranker(BaseNodePostprocessor):
    """The configured LLM reads the candidates and ranks them; on any LLM failure the fused order stands."""

    top_n: int = 6
    _llm: LLMClient = PrivateAttr()

    def __init__(self, llm: LLMClient, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._llm = llm

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        if query_bundle is None or len(nodes) <= 1:
            return nodes[: self.top_n]
        passages = "\n\n".join(f"[{i}] ({n.node.metadata.get('title', '')}) {n.node.get_content()[:PASSAGE_CHARS]}"
                               for i, n in enumerate(nodes, start=1))
        try:
            answer = self._llm.json_chat(RERANK_PROMPT, f"Question: {query_bundle.query_str}\n\nPassages:\n{passages}")
            ranking = [(int(r["passage"]), float(r.get("relevance", 0))) for r in answer.get("ranking", [])
                       if isinstance(r, dict) and str(r.get("passage", "")).isdigit()]
        except (LLMError, TypeError, ValueError) as exc:
            log.warning("LLM rerank failed; keeping the fused order: %s", exc)
            return nodes[: self.top_n]
        seen: set[int] = set()
        ordered = []
        for number, relevance in ranking:
            if 1 <= number <= len(nodes) and number not in seen:
                seen.add(number)
                ordered.append(NodeWithScore(node=nodes[number - 1].node, score=relevance))
        ordered += [n for i, n in enumerate(nodes, start=1) if i not in seen]  # what the LLM left out keeps its place
        return ordered[: self.top_n]
