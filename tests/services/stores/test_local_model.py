"""The bundled model, computed straight on transformers, gives sentence-transformers' vectors.

The app dropped sentence-transformers (and LlamaIndex's wrapper of it) from its model path because
their imports cost seconds per cold start; the vectors already stored were made through them, so the
new path must give the same vectors, for one query and for a padded batch, truncation included.
"""

from __future__ import annotations

import numpy as np
import pytest

from services.settings import Settings
from services.stores.embeddings import _local_embed_fn, local_model_dir

TEXTS = ["taxes and the federal budget", "  padded with spaces  ", "", "x", "Who was the CEO of Acme Corp in 2015?",
         "The President said that the economy is strong. " * 80,  # past the 256-token truncation
         "Ünïcödé façade, naïve café", "line\nbreaks\tand tabs"]


@pytest.fixture(scope="module")
def reference():
    sentence_transformers = pytest.importorskip("sentence_transformers")
    return sentence_transformers.SentenceTransformer(str(local_model_dir()), device="cpu")


def test_same_vectors_as_sentence_transformers(reference):
    embed = _local_embed_fn(Settings())
    for batch in [[t] for t in TEXTS] + [TEXTS[:4], TEXTS[4:], TEXTS]:
        ours = np.asarray(embed(batch), dtype=np.float32)
        theirs = reference.encode(batch, normalize_embeddings=True, batch_size=64)
        assert ours.shape == theirs.shape == (len(batch), 384)
        assert np.sum(ours * theirs, axis=1).min() >= 0.99999, batch
        assert np.abs(ours - theirs).max() < 1e-5
