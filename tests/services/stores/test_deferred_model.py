"""The embedding model loads on first use (or in the background once the web app has drawn a page):
using it waits for it, a model that fails to load reports its error on first use, and building the
services loads nothing and opens no graph store."""

from __future__ import annotations

import dataclasses
import gc
import threading
from concurrent.futures import Future

import pytest

from services.container import build_services
from services.errors import ConfigError
from services.ingest.requests import text_request
from services.stores.embeddings import DeferredEmbedder, lazy_embedder


def test_using_a_deferred_model_waits_for_it(services):
    loading: Future = Future()
    model = DeferredEmbedder(services.embedder.name, loading)
    assert not model.ready and model.name == services.embedder.name  # the name is known before the model
    threading.Timer(0.3, lambda: loading.set_result(services.embedder)).start()
    vector = model.embed_query("a lighthouse in the fog")  # blocks until the model is there
    assert model.ready and vector.shape == (services.embedder.dim,)
    assert (vector == services.embedder.embed_query("a lighthouse in the fog")).all()


def test_a_model_that_failed_to_load_raises_on_first_use(services):
    loading: Future = Future()
    loading.set_exception(ConfigError("The embedding model could not be used: broken weights"))
    model = DeferredEmbedder("local:all-MiniLM-L6-v2", loading)
    assert not model.ready
    with pytest.raises(ConfigError, match="broken weights"):
        model.embed_texts(["anything"])
    health = dataclasses.replace(services, embedder=model).health()
    assert health["embedding"] == {"model": "local:all-MiniLM-L6-v2", "loaded": False, "dimension": None}


def test_built_services_load_the_model_and_open_the_graph_on_first_use(services, collection):
    services.ingestion.run(text_request(collection, title="Keeper", text="The lighthouse keeper trims the lamp at dusk."))
    built = build_services(services.settings)
    try:
        model = built.embedder
        assert isinstance(model, DeferredEmbedder) and not model.started  # building loaded nothing
        assert built.graph_store is not None and not built.graph_store.is_open
        assert model.dim == services.embedder.dim and not model.started  # the size its files declare
        assert built.collections.get(collection).document_count == 1 and not model.started
        health = built.health()  # asks the graph store (a plain query: its LlamaIndex store stays unopened), not the model
        assert health["embedding"] == {"model": services.embedder.name, "loaded": False, "dimension": services.embedder.dim}
        assert not built.graph_store.is_open and health["graph"]["kind"] == services.graph_store.kind
        assert built.graph_store.query("RETURN 1 AS ok") == [{"ok": 1}] and built.graph_store.is_open  # first use opens it
        built.start_loading_model()  # what the web app does once its first page is drawn
        assert model.started
        # usable like the eager one: the same query finds the same chunk with the same score
        eager = services.search.search("lighthouse", collections=[collection], mode="semantic", limit=1, threshold=-1)
        deferred = built.search.search("lighthouse", collections=[collection], mode="semantic", limit=1, threshold=-1)
        assert model.ready and built.health()["embedding"]["loaded"] is True
        assert [h.title for h in eager.hits] == ["Keeper"]
        assert [(h.chunk_id, round(h.score, 5)) for h in deferred.hits] == [(h.chunk_id, round(h.score, 5))
                                                                           for h in eager.hits]
    finally:
        built.close()


def test_a_model_whose_vectors_differ_from_its_declared_size_is_refused(services):
    model = DeferredEmbedder(services.embedder.name, lambda: services.embedder.loaded()
                             if isinstance(services.embedder, DeferredEmbedder) else services.embedder, dim=512)
    assert model.dim == 512  # declared, not loaded
    with pytest.raises(ConfigError, match="makes 384-d vectors, but its files declare 512"):
        model.embed_query("anything")


def test_a_loaded_model_is_kept_out_of_full_garbage_collections(services):
    """Once loaded, the model's objects are frozen (gc.freeze): a full collection no longer walks torch's
    and transformers' objects, which paused a request for up to 141 ms (services/long_lived.py)."""
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    model = lazy_embedder(services.settings)
    model.loaded()
    assert gc.get_freeze_count() > 100_000
