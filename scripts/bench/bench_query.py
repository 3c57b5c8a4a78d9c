"""One query's embedding in the app's own process: torch (shipped) against ONNX Runtime, alone and interleaved.

The ONNX benchmark timed one query at 13 ms in ONNX Runtime against 68 ms in torch, while the search
benchmark times torch's query embedding at 12 ms. The difference is how they ran: the ONNX benchmark
alternates the two engines call by call in one process, and each engine's worker threads keep spinning
for a while after a call, taking the 2 cores from the other. This benchmark times each engine alone
(as the app runs it: one engine, queries one at a time through ``Embedder.embed_query``, cache off),
then the two interleaved as bench_onnx does, and checks the two give the same vectors.
Usage: python -m scripts.bench.bench_query [--queries 50] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import (
    SHARED_DATA,
    fresh_data_dir,
    machine_facts,
    rounded,
    summarize_rounds,
    time_ms,
    write_results,
)

MIN_COSINE = 0.99999


def questions(count: int) -> list[str]:
    """hotpotqa questions (real queries of real length); numbered placeholders if the data set is missing."""
    path = SHARED_DATA / "hotpotqa-100" / "questions.json"
    found = [q["question"] for q in json.loads(path.read_text(encoding="utf-8"))] if path.exists() else []
    return (found or [f"what happened in the year {1900 + i}?" for i in range(count)])[:count]


def timed(embedders: dict[str, Any], names: list[str], queries: list[str], rounds: int) -> dict[str, list[list[float]]]:
    """Milliseconds of ``embed_query`` per query, ``rounds`` times; several names = interleaved call by call."""
    out: dict[str, list[list[float]]] = {n: [] for n in names}
    for _ in range(rounds):
        for n in names:
            out[n].append([])
        for q in queries:
            for n in names:
                embedders[n]._query_cache.clear()  # time the model, not the repeat-query cache
                out[n][-1].append(time_ms(lambda e=embedders[n], q=q: e.embed_query(q))[0])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("query")
    import numpy as np

    from scripts.bench.onnx_model import OnnxSentenceEncoder, bundled_model_dir, export_onnx
    from services.settings import get_settings
    from services.stores.embeddings import Embedder, create_embedder

    settings = get_settings()
    queries = questions(args.queries)
    prepare = {}
    t0 = time.perf_counter()
    torch_model = create_embedder(settings)
    prepare["torch_load_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    model_file = export_onnx(bundled_model_dir(), folder / "model.onnx")
    prepare["onnx_export_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    onnx_model = Embedder("onnx", OnnxSentenceEncoder(model_file, bundled_model_dir()), settings.embed_batch_size)
    prepare["onnx_load_s"] = time.perf_counter() - t0
    embedders = {"torch": torch_model, "onnx": onnx_model}
    for model in embedders.values():  # first calls allocate; not what a running app pays
        for q in queries[:5]:
            model.embed_query(q)
    alone = {name: summarize_rounds(timed(embedders, [name], queries, args.rounds)[name]) for name in embedders}
    both = timed(embedders, ["torch", "onnx"], queries, args.rounds)
    interleaved = {name: summarize_rounds(both[name]) for name in both}
    a = np.stack([torch_model.embed_texts([q])[0] for q in queries])
    b = np.stack([onnx_model.embed_texts([q])[0] for q in queries])
    min_cosine = float(np.min(np.sum(a * b, axis=1)))
    faster = alone["onnx"]["p50"] < alone["torch"]["p50"] and min_cosine >= MIN_COSINE
    figures = {"queries": len(queries), "rounds": args.rounds, "prepare": prepare, "alone_ms": alone,
               "interleaved_ms": interleaved, "min_cosine_onnx_to_torch": min_cosine,
               "speedup_alone_p50": alone["torch"]["p50"] / alone["onnx"]["p50"]}
    notes = [
        f"Alone, as the app runs it: torch p50/p95 {alone['torch']['p50']:.1f}/{alone['torch']['p95']:.1f} ms, ONNX "
        f"{alone['onnx']['p50']:.1f}/{alone['onnx']['p95']:.1f} ms. Interleaved call by call (bench_onnx's loop): "
        f"torch {interleaved['torch']['p50']:.1f}, ONNX {interleaved['onnx']['p50']:.1f} ms. Min cosine "
        f"{min_cosine:.7f}. " + ("ONNX is faster alone, with the same vectors" if faster
                                else "ONNX is not faster alone with the same vectors")
        + "; the findings say what was shipped.",
    ]
    path = write_results("query", rounded(figures, 4), started=started, machine=machine, settings=settings,
                         notes=notes, method=[
                             f"{len(queries)} hotpotqa questions, each through `Embedder.embed_query` (the query "
                             f"cache cleared before each call), {args.rounds} rounds; first 5 calls of each engine "
                             "not timed.",
                             "Alone: all of one engine's rounds, then the other's. Interleaved: torch then ONNX for "
                             "each query, as bench_onnx times them.",
                             "torch: the shipped model (`create_embedder`); ONNX: the same model exported by "
                             "scripts/bench/onnx_model.py, ONNX Runtime CPU, ORT_ENABLE_ALL, one thread per core."])
    print(f"wrote {path}")
    for line in notes:
        print(line)
    import shutil

    shutil.rmtree(folder, ignore_errors=True)  # no store was started: only the exported model lives there
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
