"""Keyword search's any-word fallback on a large table ranks by the query's rarest words that occur at all.

The chunks are written through the real write path with random unit vectors (only keyword search
is exercised), then ANALYZE gives PostgreSQL the word statistics the fallback reads.
"""

from __future__ import annotations

import numpy as np
import sqlalchemy as sa

from services.documents import Chunk, NewDocument, write_document
from services.stores.chunk_store import COMMON_WORD_CHUNKS, FALLBACK_WORDS, _fallback_lexemes

FILLER = ["harbor", "railway", "tariff", "frontier", "treaty", "harvest", "budget", "schooner", "canal", "census"]


def _write_many_chunks(services, collection_name: str) -> None:
    coll = services.collections.get(collection_name)
    n = COMMON_WORD_CHUNKS * 2
    texts = [f"The government discussed the {FILLER[i % len(FILLER)]} on day {i}." for i in range(n)]
    texts[7] = "The government bought a zebra for the national zoo."
    texts[8] = "A quagga and a zebra grazed near the government stables."
    chunks, pos = [], 0
    for i, text in enumerate(texts):
        chunks.append(Chunk(i, text, pos, pos + len(text), ()))
        pos += len(text) + 1
    vectors = np.random.default_rng(0).normal(size=(n, services.embedder.dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with services.engine.begin() as conn:
        write_document(conn, NewDocument(coll.id, "Many chunks", "test", "text", "\n".join(texts), {}, chunks, vectors,
                                         graph_status="disabled"))
    with services.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(sa.text("ANALYZE chunks"))


def test_fallback_keeps_rare_present_words_and_drops_common_and_absent_ones(services, collection):
    _write_many_chunks(services, collection)
    with services.engine.connect() as conn:
        # 'govern' is in 600+ chunks (common), 'unicornx' in none, 'zebra' in 2, 'quagga' in 1
        assert _fallback_lexemes(conn, ["government", "zebra", "unicornx"]) == ["zebra"]
        assert _fallback_lexemes(conn, ["government", "zebra", "quagga"]) == ["quagga", "zebra"]
        assert _fallback_lexemes(conn, ["government", "unicornx"]) == ["govern"]  # only common: the least common
        many = _fallback_lexemes(conn, ["government", "zebra", "quagga", "schooner", "census", "harvest", "treaty"])
        assert len(many) == FALLBACK_WORDS and many[:2] == ["quagga", "zebra"] and "govern" not in many

    response = services.search.search("government zebra unicornx", collections=[collection], mode="keyword")
    assert any("match any of them" in n for n in response.notes)
    assert {h.text for h in response.hits} == {
        "The government bought a zebra for the national zoo.", "A quagga and a zebra grazed near the government stables."}
