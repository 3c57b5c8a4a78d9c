"""A query's embedding goes ahead of an ingest's: it waits for the slice being embedded, never for the rest.

The real local model runs every call; the wrapper only records the order in which calls reach it.
"""

from __future__ import annotations

import threading

from services.stores.embeddings import BACKGROUND_SLICE, Embedder


def test_an_interactive_call_overtakes_a_running_background_embedding(services):
    real = services.embedder._embed_fn
    log: list[str] = []
    background_started = threading.Event()

    def recording(texts: list[str]) -> list[list[float]]:
        kind = "query" if texts[0].startswith("query:") else "ingest"
        log.append(kind)
        if kind == "ingest":
            background_started.set()
        return real(texts)

    embedder = Embedder("local:recorded", recording, batch_size=64)
    log.clear()  # the dimension probe
    chunks = [f"Chunk {i}: the harbour master records every ship that enters the bay, its cargo and its crew. "
              * 6 for i in range(8 * BACKGROUND_SLICE)]
    result: dict[str, object] = {}
    ingest = threading.Thread(target=lambda: result.setdefault("vectors", embedder.embed_texts(chunks, background=True)))
    ingest.start()
    assert background_started.wait(60)
    slices_before = log.count("ingest")
    query = embedder.embed_texts(["query: which ships entered the bay"])
    ingest.join(300)

    assert log.count("ingest") == 8 and log.count("query") == 1, log
    # At most the slice running when the query arrived (and one that may have started just then) came first.
    assert log.index("query") <= slices_before + 1, (log, slices_before)
    assert query.shape == (1, embedder.dim)
    vectors = result["vectors"]
    assert vectors.shape == (len(chunks), embedder.dim)  # type: ignore[union-attr]
    # Slicing changes nothing in the vectors: the same as one full-batch call.
    same = embedder.embed_texts(chunks[:BACKGROUND_SLICE])
    assert abs(vectors[:BACKGROUND_SLICE] - same).max() < 1e-5  # type: ignore[index]
