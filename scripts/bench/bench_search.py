"""Search latency (semantic, keyword, hybrid; with and without query embedding) and HNSW recall@10.

At each scale (10k, then 100k chunks in the same collection) every query runs through the real
``SearchService.search`` in every mode, interleaved, for several rounds after a warm-up:
- without embedding: the query vectors are computed beforehand (the embedder's query cache is
  warm, so ``embed_query`` costs microseconds) — the figure the targets are about;
- with embedding: the cache is emptied before each call, so the model embeds the query.
Recall@10 compares the service's semantic top-10 (at the shipped ``hnsw_ef_search``) with an exact
scan: the very statement the service ran, replayed with index scans turned off.
``--compare OLD [--against NEW]`` times OLD's code (another checkout) against NEW's (default: this checkout) at
each scale instead: the same collection and queries, the three modes excluding embedding, both sides alternating
(scripts/bench/compare.py); no recall or plans. Results go to docs/bench/<name>.json under "search".
Usage: python -m scripts.bench.bench_search [--scales 10000,100000] [--rounds 5] [--no-cache]
       [--compare OLD [--against NEW]]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import (
    ROOT,
    fresh_data_dir,
    machine_facts,
    median,
    rounded,
    stop_stores,
    store_versions,
    summarize,
    summarize_rounds,
    target,
    time_ms,
    write_results,
)

MODES = ("semantic", "keyword", "hybrid")
EF_SWEEP = (100, 200, 400)
# A hit counts for the tie-tolerant recall when its cosine similarity is within this of the exact k-th
# best (ann-benchmarks counts recall with the same 1e-3 slack on distance): near-duplicate chunks tie.
TIE_TOLERANCE = 1e-3


def measure_latency(svc: Any, coll: str, queries: list[str], rounds: int, embed_rounds: int) -> dict[str, Any]:
    search, embedder = svc.search, svc.embedder
    embed_ms = []
    for q in queries:  # the query vectors, computed once: searches below find them in the query cache
        embedder._query_cache.pop(q, None)
        embed_ms.append(time_ms(lambda q=q: embedder.embed_query(q))[0])
    for q in queries:  # warm-up: caches, plans, pages
        for mode in MODES:
            search.search(q, collections=[coll], mode=mode)
    samples: dict[str, list[list[float]]] = {m: [] for m in MODES}
    parts: dict[str, list[float]] = {}
    for _ in range(rounds):
        for m in MODES:
            samples[m].append([])
        for q in queries:
            for mode in MODES:
                ms, resp = time_ms(lambda q=q, mode=mode: search.search(q, collections=[coll], mode=mode))
                samples[mode][-1].append(ms)
                for part, value in resp.timings_ms.items():
                    parts.setdefault(f"{mode}.{part}", []).append(value)
    with_embed: dict[str, list[list[float]]] = {"semantic": [], "hybrid": []}
    for _ in range(embed_rounds):
        for m in with_embed:
            with_embed[m].append([])
        for q in queries:
            for mode in with_embed:
                embedder._query_cache.clear()  # the model embeds the query inside the call
                with_embed[mode][-1].append(time_ms(lambda q=q, mode=mode: search.search(q, collections=[coll], mode=mode))[0])
    return {
        "without_embedding_ms": {m: summarize_rounds(samples[m]) for m in MODES},
        "with_embedding_ms": {m: summarize_rounds(with_embed[m]) for m in with_embed},
        "query_embedding_ms": summarize(embed_ms),
        "service_timings_p50_ms": {k: summarize(v)["p50"] for k, v in sorted(parts.items())},
    }


def hnsw_recall(svc: Any, recorder: Any, coll: str, queries: list[str], ef_search: int, k: int = 10) -> dict[str, Any]:
    """Mean recall@k of the service's semantic search at ``ef_search`` against an exact scan."""
    from scripts.bench.search_probe import find, replay

    search, shipped = svc.search, svc.search.ef_search
    search.ef_search = ef_search
    recalls, tolerant, gaps, latencies = [], [], [], []
    try:
        for q in queries:
            ms, (resp, statements) = time_ms(lambda q=q: recorder.capture(
                lambda: search.search(q, collections=[coll], mode="semantic", limit=k, threshold=-1.0)))
            latencies.append(ms)
            exact = replay(svc.engine, statements, find(statements, "<=>"), settings=("SET LOCAL enable_indexscan = off",))
            truth = {r[0] for r in exact[:k]}
            recalls.append(len(truth & {h.chunk_id for h in resp.hits}) / max(1, len(truth)))
            kth = float(exact[:k][-1][1]) if exact else 0.0  # the exact k-th best similarity
            found = sorted((h.semantic_score or 0.0 for h in resp.hits), reverse=True)[:k]
            tolerant.append(sum(s >= kth - TIE_TOLERANCE for s in found) / max(1, min(k, len(exact))))
            gaps.append(kth - found[-1] if len(found) == min(k, len(exact)) and found else 1.0)
    finally:
        search.ef_search = shipped
    return {"ef_search": ef_search, "recall_at_10": sum(recalls) / len(recalls), "min": min(recalls),
            "queries_below_1": sum(r < 1 for r in recalls),
            "recall_at_10_ties": sum(tolerant) / len(tolerant), "min_ties": min(tolerant),
            "kth_similarity_gap": {"p50": median(gaps), "max": max(gaps)},
            "semantic_ms": summarize(latencies)}


def plans(svc: Any, recorder: Any, coll: str, query: str) -> dict[str, Any]:
    from scripts.bench.search_probe import explain, find, replay

    out = {}
    for mode, needle in (("semantic", "<=>"), ("keyword", "bm25_blocks")):
        _, statements = recorder.capture(lambda mode=mode: svc.search.search(query, collections=[coll], mode=mode))
        out[mode] = explain(svc.engine, statements, needle)
    _, statements = recorder.capture(lambda: svc.search.search(query, collections=[coll], mode="semantic", limit=10))
    exact = replay(svc.engine, statements, find(statements, "<=>"), prefix="EXPLAIN ",
                   settings=("SET LOCAL enable_indexscan = off",))
    out["exact_scan_uses_hnsw"] = any("chunks_hnsw" in r[0] for r in exact)
    return out


def measure_scale(svc: Any, recorder: Any, coll: str, queries: list[str], args: Any) -> dict[str, Any]:
    from scripts.bench.search_probe import chunk_count

    t0 = time.perf_counter()
    out: dict[str, Any] = {"chunks": chunk_count(svc.engine)}
    out.update(measure_latency(svc, coll, queries, args.rounds, args.embed_rounds))
    sweep = sorted({*EF_SWEEP, svc.search.ef_search})
    out["recall"] = [hnsw_recall(svc, recorder, coll, queries, ef) for ef in sweep]
    out["plans"] = plans(svc, recorder, coll, queries[0])
    out["measure_s"] = time.perf_counter() - t0
    return out


def compare_scale(workers: dict[str, Any], engine: Any, coll: str, queries: list[str], rounds: int) -> dict[str, Any]:
    """Each side's query vectors computed first (its query cache), one warm-up pass, then ``rounds`` rounds of
    every query in every mode, old and new alternating per query."""
    from scripts.bench.compare import Samples, print_table, timed
    from scripts.bench.search_probe import chunk_count

    for worker in workers.values():
        for q in queries:
            worker.request("embed", query=q)
        for q in queries:
            for mode in MODES:
                worker.request("search", query=q, collections=[coll], mode=mode)
    samples = Samples(rounds)

    def search(worker: Any, q: int, mode: str) -> tuple[float, dict[str, float]]:
        reply = worker.request("search", query=queries[q], collections=[coll], mode=mode)
        return reply["ms"], reply["parts"]

    timed(workers, samples, len(queries), rounds, list(MODES), search)
    phases = samples.figures()
    print_table(phases)
    return {"chunks": chunk_count(engine), "phases": phases, "load_1m": samples.load_figures()}


def _targets(figures: dict[str, Any], ef: int) -> list[dict[str, Any]]:
    big = figures["scales"][-1]
    label = f"{big['chunks'] // 1000}k chunks"
    shipped = next(r for r in big["recall"] if r["ef_search"] == ef)
    lat = big["without_embedding_ms"]
    return [
        target(f"semantic search p95 at {label}, excluding query embedding", lat["semantic"]["p95"], 20, "ms"),
        target(f"HNSW recall@10 vs exact at ef_search {ef}, {label}", shipped["recall_at_10"], 0.95, "",
               lower_is_better=False),
        target(f"keyword (BM25) search p95 at {label}", lat["keyword"]["p95"], 40, "ms"),
        target(f"hybrid search p95 at {label}, excluding query embedding", lat["hybrid"]["p95"], 40, "ms"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="10000,100000", help="chunk counts, ascending")
    parser.add_argument("--queries", type=int, default=80)
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds over all queries, excluding embedding")
    parser.add_argument("--embed-rounds", type=int, default=3, help="timed rounds including query embedding")
    parser.add_argument("--no-cache", action="store_true", help="re-embed the real chunks even if cached")
    parser.add_argument("--name", default="search", help="results file name (docs/bench/<name>.json)")
    parser.add_argument("--hnsw-m", type=int, default=None, help="HNSW m for the index rebuilt after the bulk load "
                        "(default: the app's, pgvector's 16)")
    parser.add_argument("--hnsw-ef-construction", type=int, default=None,
                        help="HNSW ef_construction for that index (default: the app's, pgvector's 64)")
    parser.add_argument("--compare", type=Path, default=None, help="the old checkout, timed against --against")
    parser.add_argument("--against", type=Path, default=ROOT, help="the new checkout (default: this one)")
    args = parser.parse_args(argv)
    scales = sorted(int(s) for s in args.scales.split(","))
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("search")
    os.environ["RAG_GRAPH_ENABLED"] = "false"  # search never reads the graph; spare its server
    from scripts.bench import search_data as data
    from scripts.bench.compare import close_workers, describe, start_workers, write_compare
    from scripts.bench.search_probe import StatementRecorder
    from scripts.bench.search_queries import load_queries
    from services.container import build_services
    from services.settings import get_settings

    settings = get_settings()
    svc = build_services(settings)
    workers: dict[str, Any] = {}
    try:
        coll = svc.collections.create(name="bench", description="Search benchmark: State of the Union chunks.")
        if args.compare is not None:  # their services see the collection; its chunks come before any timing
            workers = start_workers(args.compare, args.against)

        def measure() -> dict[str, Any]:
            if workers:
                return compare_scale(workers, svc.engine, coll.name, queries, args.rounds)
            return measure_scale(svc, recorder, coll.name, queries, args)

        docs, source = data.load_corpus(settings.chunk_size, settings.chunk_overlap)
        real = data.first_chunks(docs, scales[0])
        texts = [c.text for d in real for c in d.chunks]
        print(f"embedding {len(texts)} real chunks (or loading them from the cache)…", flush=True)
        vectors, embedding_info = data.real_embeddings(texts, svc.embedder, use_cache=not args.no_cache)
        queries = load_queries(args.queries)
        recorder = StatementRecorder(svc.engine)
        figures: dict[str, Any] = {"corpus": source, "real_embeddings": embedding_info, "queries": len(queries),
                                   "scales": []}
        load_s, _ = time_ms(lambda: data.insert_documents(svc.engine, coll.id, real, vectors))
        data.vacuum_analyze(svc.engine)
        loaded = [{"chunks": len(texts), "seconds": load_s / 1000, "vectors": "real"}]
        print(f"loaded {len(texts)} chunks in {load_s / 1000:.0f} s; measuring…", flush=True)
        figures["scales"].append(measure())
        real_nn, sigma, synthetic_nn = data.nearest_neighbour_similarity(vectors), None, None
        index = {"m": args.hnsw_m, "ef_construction": args.hnsw_ef_construction}
        for scale in scales[1:]:
            have = figures["scales"][-1]["chunks"]
            extra = data.synthetic_docs(real, scale - have, settings.chunk_size, settings.chunk_overlap)
            noisy, sigma = data.noisy_vectors(vectors, [b for d in extra for b in d.bases or []], data.MIX_SIMILARITY)
            synthetic_nn = data.similarity_to_nearest(noisy, vectors)
            load_s, parts = time_ms(lambda extra=extra, noisy=noisy: data.load_then_index(svc.engine, coll.id, extra, noisy,
                                                                                         **index))
            data.vacuum_analyze(svc.engine)
            loaded.append({"chunks": len(noisy), "seconds": load_s / 1000, "vectors": "synthetic (mixed real + noise)",
                           "hnsw": {k: v for k, v in index.items() if v is not None} or "pgvector defaults", **parts})
            print(f"loaded {len(noisy)} more chunks in {load_s / 1000:.0f} s; measuring…", flush=True)
            figures["scales"].append(measure())
        figures["synthetic_vectors"] = {"noise_similarity_to_mix": data.MIX_SIMILARITY, "noise_sigma": sigma,
                                        "real_median_nn_similarity": real_nn,
                                        "synthetic_median_similarity_to_nearest_real": synthetic_nn,
                                        "shift_chars": data.SHIFT_CHARS}
        figures["loads"] = loaded
        if workers:
            figures["checkouts"] = describe(workers)
            recorder.close()
            return write_compare("core-compare" if args.name == "search" else args.name, "search", figures,
                                 _compare_method(args, scales), started=started, machine=machine, settings=settings,
                                 versions=store_versions(svc.engine, folder))
        targets = _targets(figures, svc.search.ef_search)
        notes = [f"Missed: {t['name']} = {t['value']:.3g}{t['unit']} (target {t['op']} {t['limit']}{t['unit']})."
                 for t in targets if t["met"] is False]
        versions = store_versions(svc.engine, folder)
        recorder.close()
    finally:
        close_workers(workers)
        svc.close()
        stop_stores(folder)
    path = write_results(args.name, rounded(figures, 3), started=started, machine=machine, settings=settings,
                         versions=versions, targets=rounded(targets, 3), notes=notes, method=_method(args, scales))
    print(f"wrote {path}")
    return 0


def _compare_method(args: Any, scales: list[int]) -> list[str]:
    return [
        *_method(args, scales)[:1],
        "One worker process per checkout (cwd and PYTHONPATH = that checkout) on the same stores; each computes "
        f"the {args.queries} query vectors first (its query cache: the timings exclude embedding) and runs one "
        f"warm-up pass, then {args.rounds} rounds: every query in every mode on both sides, which side first "
        "flipping each query and round. Timed inside the worker: the whole SearchService.search call. p50/p95 per "
        "round, median over rounds; ratios new/old; the paired ratio is the median of new ms / old ms per query.",
    ]


def _method(args: Any, scales: list[int]) -> list[str]:
    return [
        f"Scales {', '.join(f'{s:,}' for s in scales)} chunks in one collection, each scale measured after the "
        "previous one grew; the first scale is real text with real embeddings, the rest real text cut at shifted "
        "offsets with synthetic vectors (real vectors of two chunks of the same speech mixed, plus a little noise).",
        f"{args.queries} queries (30 short topical ones, the rest HotpotQA questions), limit 10, the shipped threshold; "
        f"one warm-up pass, then {args.rounds} timed rounds with the three modes interleaved per query "
        f"(excluding embedding) and {args.embed_rounds} rounds including it; p50/p95 per round, median over rounds.",
        "Timed: the whole SearchService.search call (scope check, SQL, fusion, loading hits with highlights).",
        "Recall@10: the service's semantic top 10 (threshold off) vs the same SQL replayed with index scans off.",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
