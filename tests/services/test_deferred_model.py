"""The web app starts drawing while the embedding model finishes loading: using the model waits for it,
and a model that fails to load reports its error on first use."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import Future

import pytest

from services.container import build_services
from services.errors import ConfigError
from services.ingest.requests import text_request
from services.stores.embeddings import DeferredEmbedder


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
    assert health["embedding"] == {"model": "local:all-MiniLM-L6-v2", "dimension": None}


def test_build_services_with_a_deferred_model(services, collection):
    services.ingestion.run(text_request(collection, title="Keeper", text="The lighthouse keeper trims the lamp at dusk."))
    built = build_services(services.settings, defer_model=True)
    try:
        assert built.embedder.name == services.embedder.name
        assert built.embedder.dim == services.embedder.dim  # waits for the load
        assert built.health()["embedding"]["dimension"] == services.embedder.dim
        # usable like the eager one: the same query finds the same chunk with the same score
        eager = services.search.search("lighthouse", collections=[collection], mode="semantic", limit=1, threshold=-1)
        deferred = built.search.search("lighthouse", collections=[collection], mode="semantic", limit=1, threshold=-1)
        assert [h.title for h in eager.hits] == ["Keeper"]
        assert [(h.chunk_id, round(h.score, 5)) for h in deferred.hits] == [(h.chunk_id, round(h.score, 5))
                                                                           for h in eager.hits]
    finally:
        built.close()
