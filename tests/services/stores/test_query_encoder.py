"""Queries are embedded by the bundled model written out in NumPy (services/stores/query_encoder.py).

It must give torch's vectors (the chunks were embedded by torch), one text or a padded batch,
truncation included; and it must be the path every query takes, loaded model or not, so that the
app, the CLI and the MCP server score a query alike.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from services.settings import Settings
from services.stores.embeddings import DeferredEmbedder, _local_embed_fn, lazy_embedder, local_model_dir, local_query_encoder
from tests.conftest import SHARED, without_shared_data
from tests.services.stores.test_local_model import TEXTS


def _questions(n: int) -> list[str]:
    path = SHARED / "hotpotqa-100" / "questions.json"
    if not path.exists():
        without_shared_data("the hotpotqa-100 questions", skip=False)
        return []
    return [q["question"] for q in json.loads(path.read_text(encoding="utf-8"))][:n]


@pytest.fixture(scope="module")
def torch_embed():
    return _local_embed_fn(Settings())


def test_same_vectors_as_torch(torch_embed):
    ours_fn = local_query_encoder()
    texts = TEXTS + _questions(100)
    for batch in [[t] for t in texts] + [TEXTS[:4], TEXTS[4:], TEXTS]:
        ours = np.asarray(ours_fn(batch), dtype=np.float32)
        theirs = np.asarray(torch_embed(batch), dtype=np.float32)
        assert ours.shape == theirs.shape == (len(batch), 384)
        assert np.sum(ours * theirs, axis=1).min() >= 0.99999, batch
        assert np.abs(ours - theirs).max() < 1e-5, batch


def test_a_query_does_not_wait_for_the_model_and_scores_alike_once_it_has_loaded():
    model = lazy_embedder(Settings())
    assert isinstance(model, DeferredEmbedder)
    before = model.embed_query("Who was the CEO of Acme Corp in 2015?")
    assert not model.started and before.shape == (384,) and abs(float(np.linalg.norm(before)) - 1.0) < 1e-6
    model.start().result()  # the torch model, as the app loads it in the background
    after = model.embed_query("Who was the CEO of Acme Corp in 2015?")
    assert model.ready and np.array_equal(before, after)  # the same path, so the same bits
    torch_vector = model.embed_texts(["Who was the CEO of Acme Corp in 2015?"])[0]
    assert float(before @ torch_vector) >= 0.99999  # and the chunks, embedded by torch, agree with it


def test_the_tokenizer_keeps_the_models_truncation_not_the_files_padding():
    encoder = local_query_encoder()
    short, long = encoder.tokenizer.encode("a short query"), encoder.tokenizer.encode("word " * 1000)
    settings = json.loads((local_model_dir() / "sentence_bert_config.json").read_text(encoding="utf-8"))
    assert len(short.ids) == 5 and len(long.ids) == settings["max_seq_length"]  # tokenizer.json says pad/cut at 128
