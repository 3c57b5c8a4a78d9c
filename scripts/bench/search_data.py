"""Data for the search benchmark: real chunk texts, real or clustered-synthetic vectors, a fast bulk load.

Texts are the State of the Union addresses (../shared/data/sotu) cut by the app's own chunker;
without them, generated sentences. The first 10k chunks get real embeddings (cached on disk,
keyed by the model and the texts, because embedding them takes ~7 minutes on 2 quiet cores).
Larger scales add chunks cut at shifted offsets of the same speeches. Their vectors mix the real
vectors of two chunks of the same speech (the one the cut starts in and another drawn at random,
weights 0.35–0.65), plus a little Gaussian noise, renormalised: new points inside the region the
speech's real embeddings span. Two rejected models: isotropic noise as large as a real neighbour's
distance spreads vectors over all 384 dimensions, which real text never does; mixing only the two
chunks a cut overlaps makes every passage a cluster of ~10 near-duplicates, which a real corpus is
not. Both make the index's job artificially hard (recall@10 0.84 and 0.70 at ef_search 100).

Rows go in through the real schema (the collection through the service, so the per-dimension
HNSW index exists) with batched INSERTs and COPY; the first scale with the index maintained as rows
arrive, as in the app, the larger ones with it dropped and rebuilt (same definition) after the load.
"""

from __future__ import annotations

import bisect
import csv
import hashlib
import io
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scripts.bench.common import SHARED_DATA

CACHE_DIR = Path(os.environ.get("RAG_BENCH_CACHE") or Path.home() / ".cache" / "rag-memory-workbench" / "bench")
SHIFT_CHARS = 97  # each synthetic pass cuts the speeches this many characters further in
MIX_SIMILARITY = 0.95  # cosine of a synthetic vector to the mix of its two real chunks, after noise


@dataclass
class BenchDoc:
    title: str
    content: str
    metadata: dict[str, Any]
    chunks: list[Any]  # services.ingest.chunking.Chunk
    # synthetic docs, per chunk: (row of the real chunk it starts in, row of another of its speech, share of the first)
    bases: list[tuple[int, int, float]] | None = None


def load_corpus(chunk_size: int, overlap: int, folder: Path = SHARED_DATA / "sotu") -> tuple[list[BenchDoc], str]:
    """The speeches as chunked documents, in a fixed shuffled order; (documents, where the text came from)."""
    from services.ingest.chunking import chunk_text

    docs = []
    if folder.is_dir() and any(folder.glob("*.txt")):
        meta = {}
        if (folder / "metadata.csv").exists():
            with open(folder / "metadata.csv", newline="", encoding="utf-8") as fh:
                meta = {r["file"]: r for r in csv.DictReader(fh)}
        for path in sorted(folder.glob("*.txt")):
            row = meta.get(path.name, {})
            content = path.read_text(encoding="utf-8", errors="replace")
            metadata = {"year": int(row["year"]), "president": row["president"]} if row else {}
            docs.append(BenchDoc(path.stem, content, metadata, chunk_text(content, size=chunk_size, overlap=overlap)))
        source = f"{folder} ({len(docs)} State of the Union addresses)"
    else:
        for i, content in enumerate(_generated_texts(300)):
            docs.append(BenchDoc(f"generated-{i:03d}", content, {}, chunk_text(content, size=chunk_size, overlap=overlap)))
        source = "generated sentences (../shared/data/sotu not found)"
    docs.sort(key=lambda d: hashlib.sha1(d.title.encode()).hexdigest())  # eras mixed, same order every run
    return docs, source


def _generated_texts(n: int) -> list[str]:
    rng = random.Random(8)
    subjects = ["The government", "Congress", "The nation", "Our economy", "The treaty", "The army", "Every family",
                "The budget", "Our schools", "The railroad", "Foreign trade", "The court", "The harbor", "Farmers"]
    verbs = ["requires", "supports", "threatens", "expands", "reforms", "protects", "reduces", "funds", "opposes"]
    objects = ["the public debt", "new tariffs", "the frontier", "national defense", "health care", "the currency",
               "our allies", "the coal mines", "clean energy", "the postal service", "civil rights", "immigration"]
    out = []
    for _ in range(n):
        paragraphs = []
        for _ in range(rng.randint(20, 60)):
            sentences = [f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(objects)} in {rng.randint(1790, 2021)}."
                         for _ in range(rng.randint(2, 6))]
            paragraphs.append(" ".join(sentences))
        out.append("\n\n".join(paragraphs))
    return out


def first_chunks(docs: list[BenchDoc], n: int) -> list[BenchDoc]:
    """Whole documents in order until ``n`` chunks (the last one cut short)."""
    out, total = [], 0
    for doc in docs:
        if total >= n:
            break
        take = doc.chunks[: n - total]
        out.append(BenchDoc(doc.title, doc.content, doc.metadata, take))
        total += len(take)
    return out


def real_embeddings(texts: list[str], embedder: Any, *, use_cache: bool = True) -> tuple[np.ndarray, dict[str, Any]]:
    """Embed ``texts`` with the configured model, or load the vectors a previous run computed for the same texts."""
    key = hashlib.sha256((embedder.name + "\0" + "\0".join(texts)).encode()).hexdigest()[:20]
    path = CACHE_DIR / f"embeddings-{key}.npy"
    if use_cache and path.exists():
        vectors = np.load(path)
        if vectors.shape == (len(texts), embedder.dim):
            return vectors, {"source": f"cache ({path})", "chunks": len(texts)}
    t0 = time.perf_counter()
    vectors = embedder.embed_texts(texts)
    seconds = time.perf_counter() - t0
    if use_cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors, {"source": "computed in this run", "chunks": len(texts), "seconds": seconds,
                     "chunks_per_s": len(texts) / seconds}


def nearest_neighbour_similarity(vectors: np.ndarray, sample: int = 1000, seed: int = 3) -> float:
    """Median cosine similarity of a real chunk to its nearest other chunk (vectors are unit length)."""
    rng = np.random.default_rng(seed)
    rows = rng.choice(len(vectors), size=min(sample, len(vectors)), replace=False)
    sims = vectors[rows] @ vectors.T
    sims[np.arange(len(rows)), rows] = -np.inf
    return float(np.median(sims.max(axis=1)))


def similarity_to_nearest(vectors: np.ndarray, reference: np.ndarray, sample: int = 1000, seed: int = 4) -> float:
    """Median over a sample of ``vectors`` of the cosine to the nearest ``reference`` vector."""
    rows = np.random.default_rng(seed).choice(len(vectors), size=min(sample, len(vectors)), replace=False)
    return float(np.median((vectors[rows] @ reference.T).max(axis=1)))


def synthetic_docs(real: list[BenchDoc], n: int, chunk_size: int, overlap: int) -> list[BenchDoc]:
    """``n`` more chunks: the same speeches cut at shifted offsets; each remembers the two real chunks it overlaps."""
    from services.documents import Chunk
    from services.ingest.chunking import chunk_text

    offsets, row = [], 0
    for doc in real:  # row index of each real chunk in the real-vector matrix, per document
        offsets.append(row)
        row += len(doc.chunks)
    out, total, shift_pass = [], 0, 1
    while total < n:
        shift = shift_pass * SHIFT_CHARS
        for doc, first_row in zip(real, offsets):
            if total >= n:
                break
            if len(doc.content) <= shift + 100:
                continue
            starts = [c.char_start for c in doc.chunks]
            pieces = chunk_text(doc.content[shift:], size=chunk_size, overlap=overlap)[: n - total]
            chunks = [Chunk(c.index, c.text, c.char_start + shift, c.char_end + shift, c.heading_path) for c in pieces]
            rng = random.Random(f"{doc.title}/{shift_pass}")
            bases = [_mix(starts, first_row, c.char_start, rng) for c in chunks]
            out.append(BenchDoc(f"{doc.title} (cut {shift_pass})", doc.content[shift:], doc.metadata, chunks, bases))
            total += len(chunks)
        shift_pass += 1
    return out


def _mix(starts: list[int], first_row: int, start: int, rng: random.Random) -> tuple[int, int, float]:
    """The real chunk a span starts in, another chunk of the same speech, and the first one's weight."""
    i = max(0, bisect.bisect_right(starts, start) - 1)
    return first_row + i, first_row + rng.randrange(len(starts)), rng.uniform(0.35, 0.65)


def noisy_vectors(base: np.ndarray, mixes: list[tuple[int, int, float]], similarity: float,
                  seed: int = 11) -> tuple[np.ndarray, float]:
    """Each ``(a, b, w)`` gives ``w·base[a] + (1-w)·base[b]``, normalised, plus Gaussian noise scaled so
    the result has ~``similarity`` cosine to that mix; unit vectors, and the noise's per-dimension sigma."""
    dim = base.shape[1]
    rows_a, rows_b = [m[0] for m in mixes], [m[1] for m in mixes]
    weights = np.asarray([m[2] for m in mixes], dtype=np.float32)[:, None]
    mixed = weights * base[rows_a] + (1 - weights) * base[rows_b]
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    sigma = float(np.sqrt((1 / similarity**2 - 1) / dim))
    rng = np.random.default_rng(seed)
    out = mixed + rng.normal(0.0, sigma, size=(len(mixes), dim)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out.astype(np.float32), sigma


def insert_documents(engine: Any, collection_id: int, docs: list[BenchDoc], vectors: np.ndarray) -> int:
    """Insert documents, their collection links and chunks (``vectors`` row per chunk, in order); chunk count."""
    from psycopg2.extras import execute_values

    dim = int(vectors.shape[1])
    row_format = "[" + ",".join(["%.7g"] * dim) + "]"
    raw = engine.raw_connection()
    try:
        cur = raw.cursor()
        doc_rows = [(d.title, "benchmark", "text", d.content, hashlib.sha256(d.content.encode()).hexdigest(),
                     json.dumps(d.metadata), len(d.chunks), "disabled") for d in docs]
        ids = [r[0] for r in execute_values(
            cur, "INSERT INTO documents (title, source, source_type, content, content_hash, metadata, chunk_count, "
                 "graph_status) VALUES %s RETURNING id", doc_rows, template="(%s, %s, %s, %s, %s, %s::jsonb, %s, %s)",
            page_size=500, fetch=True)]
        execute_values(cur, "INSERT INTO collection_documents (collection_id, document_id, title, content_hash) VALUES %s",
                       [(collection_id, i, r[0], r[4]) for i, r in zip(ids, doc_rows)], page_size=1000)
        buf, row = io.StringIO(), 0
        writer = csv.writer(buf)
        for doc_id, doc in zip(ids, docs):
            for chunk in doc.chunks:
                writer.writerow([doc_id, chunk.index, chunk.text, chunk.char_start, chunk.char_end,
                                 _text_array(chunk.heading_path), "{}", row_format % tuple(vectors[row].tolist()), dim])
                row += 1
        buf.seek(0)
        cur.copy_expert("COPY chunks (document_id, chunk_index, text, char_start, char_end, heading_path, metadata, "
                        "embedding, embedding_dim) FROM STDIN WITH (FORMAT csv)", buf)
        raw.commit()
    finally:
        raw.close()
    if row != len(vectors):
        raise ValueError(f"{len(vectors)} vectors for {row} chunks")
    return row


def _text_array(items: tuple[str, ...] | list[str]) -> str:
    """A PostgreSQL text[] literal."""
    return "{" + ",".join('"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"' for s in items) + "}"


def load_then_index(engine: Any, collection_id: int, docs: list[BenchDoc], vectors: np.ndarray,
                    **index_options: int | None) -> dict[str, float]:
    """Bulk-load with the HNSW index dropped, then rebuild it with the app's own definition
    (services.stores.postgres.ensure_hnsw_index): minutes faster than maintaining it row by row, and the same index.
    Only this benchmark's private server gets the larger maintenance_work_mem."""
    import sqlalchemy as sa

    from services.stores.postgres import ensure_hnsw_index

    dim = int(vectors.shape[1])
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(sa.text(f"DROP INDEX IF EXISTS chunks_hnsw_{dim}"))
        conn.execute(sa.text("ALTER SYSTEM SET maintenance_work_mem = '1GB'"))
        conn.execute(sa.text("SELECT pg_reload_conf()"))
    t0 = time.perf_counter()
    insert_documents(engine, collection_id, docs, vectors)
    t1 = time.perf_counter()
    engine.dispose()  # new sessions see the reloaded setting
    ensure_hnsw_index(engine, dim, **index_options)
    return {"copy_s": t1 - t0, "index_build_s": time.perf_counter() - t1}


def vacuum_analyze(engine: Any) -> None:
    """Leave the tables as a settled database has them (and keep autovacuum from running mid-measurement)."""
    import sqlalchemy as sa

    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:  # reset when returned to the pool
        for table in ("documents", "collection_documents", "chunks", "chunk_terms", "term_stats", "bm25_totals",
                      "bm25_blocks"):
            conn.execute(sa.text(f"VACUUM ANALYZE {table}"))
        conn.execute(sa.text("CHECKPOINT"))
