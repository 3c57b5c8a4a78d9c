"""Ask's offline retrieval and answer phase on the sotu collection.

Ingests the State of the Union addresses (../shared/data/sotu, with the offline spaCy graph) into a fresh
data folder, then times ``GraphAwareRetriever.gather`` (what Ask runs before it answers: the four
retrievers, fusion, MMR) for topical queries and HotpotQA questions, and reports its parts. Then the answer
phase of a whole offline ``AskService.ask`` (composing the extractive answer from the context; Ask's own
``timings_ms["answer"]``), each question in a new conversation and all of them in one long conversation.
Usage: python -m scripts.bench.bench_ask [--docs 233] [--queries 60] [--rounds 3] [--keep DIR]
       [--compare OLD [--against NEW]]
(``--keep DIR`` ingests into DIR once and reuses it on later runs, and leaves its stores running: for
timing the retrieval again after a change without another 15-minute ingest.)
``--compare OLD`` times OLD's code (another checkout, e.g. the commit before a change) against NEW's (default:
this checkout) in the same run, on the same data folder and queries, alternating (scripts/bench/compare.py):
gather and the answer phase, per side, with the new/old ratios; results go to docs/bench/<name>.json under "ask".
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.bench_ingest import SCHEMA, sample, write_slices
from scripts.bench.common import (
    ROOT,
    SHARED_DATA,
    fresh_data_dir,
    machine_facts,
    rounded,
    stop_stores,
    store_versions,
    summarize_rounds,
    target,
    time_ms,
    write_results,
)
from scripts.bench.search_queries import load_queries

TARGET_MS = 150
ANSWER_TARGET_MS = 300


def answer_phase(svc: Any, queries: list[str], rounds: int) -> dict[str, Any]:
    """The offline answer phase (ms) per question: fresh (a new conversation each) and in one conversation
    that grows over the round (the case the issue measured at 3.6–6.5 s)."""
    fresh: list[list[float]] = []
    longer: list[list[float]] = []
    for _ in range(rounds):
        fresh.append([svc.ask.ask(q, collections=["sotu"]).diagnostics["timings_ms"]["answer"] for q in queries])
        conversation = None
        longer.append([])
        for q in queries:
            result = svc.ask.ask(q, conversation_id=conversation, collections=["sotu"])
            conversation = result.conversation_id
            longer[-1].append(result.diagnostics["timings_ms"]["answer"])
    return {"fresh_ms": summarize_rounds(fresh), "conversation_ms": summarize_rounds(longer)}


def compare_ask(old: Path, new: Path, queries: list[str], rounds: int) -> dict[str, Any]:
    """Gather, then the answer phase (fresh, then in one conversation per side and round), old and new alternating."""
    from scripts.bench.compare import Samples, close_workers, describe, print_table, start_workers, timed

    workers = start_workers(old, new)
    try:
        for worker in workers.values():  # warm-up, as the single-checkout run: the model, plans, caches, spaCy
            for q in queries[:5]:
                worker.request("gather", query=q, collections=["sotu"])
            worker.request("ask", query=queries[0], collections=["sotu"])
        gather, answers = Samples(rounds), Samples(rounds)
        timed(workers, gather, len(queries), rounds, ["gather"],
              lambda w, q, _phase: _pair(w.request("gather", query=queries[q], collections=["sotu"])))
        conversation: dict[str, int | None] = {}

        def answer(worker: Any, q: int, phase: str) -> tuple[float, dict[str, float]]:
            if phase == "answer_fresh":
                return _pair(worker.request("ask", query=queries[q], collections=["sotu"]))
            reply = worker.request("ask", query=queries[q], collections=["sotu"],
                                   conversation=None if q == 0 else conversation[worker.side])
            conversation[worker.side] = reply["conversation"]
            return _pair(reply)

        timed(workers, answers, len(queries), rounds, ["answer_fresh"], answer)
        timed(workers, answers, len(queries), rounds, ["answer_conversation"], answer)
        phases = {**gather.figures(), **answers.figures()}
        print_table(phases)
        return {"checkouts": describe(workers), "queries": len(queries), "rounds": rounds, "phases": phases,
                "load_1m": {"gather": gather.load_figures(), "answer": answers.load_figures()}}
    finally:
        close_workers(workers)


def _pair(reply: dict[str, Any]) -> tuple[float, dict[str, float]]:
    return reply["ms"], reply.get("parts", {})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=233, help="how many addresses (spread over the years)")
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--name", default="ask", help="results file name (docs/bench/<name>.json)")
    parser.add_argument("--keep", type=Path, default=None, help="reuse (or create and keep) this data folder")
    parser.add_argument("--compare", type=Path, default=None, help="the old checkout, timed against --against")
    parser.add_argument("--against", type=Path, default=ROOT, help="the new checkout (default: this one)")
    args = parser.parse_args(argv)
    corpus = SHARED_DATA / "sotu"
    if not (corpus / "metadata.csv").is_file():
        raise SystemExit(f"{corpus} is not here: this benchmark needs ../shared/data/sotu")
    started, machine = time.time(), machine_facts()
    folder = fresh_data_dir("ask")
    if args.keep is not None:
        shutil.rmtree(folder, ignore_errors=True)
        folder = args.keep.resolve()
        folder.mkdir(parents=True, exist_ok=True)
        os.environ["RAG_DATA_DIR"] = str(folder)
        os.environ["RAG_CONFIG_FILE"] = str(folder / "no-user-config.toml")
    work = Path(tempfile.mkdtemp(prefix="rag-bench-ask-corpus-"))
    from services.container import build_services
    from services.ingest.requests import directory_request
    from services.settings import get_settings

    settings = get_settings()
    svc = build_services(settings)
    try:
        reused = "sotu" in {c.name for c in svc.collections.list()}
        ingest_s: float | None = None
        if not reused:
            svc.collections.create(name="sotu", description="State of the Union addresses (Ask benchmark).",
                                   metadata_schema=SCHEMA)
            (source,) = write_slices(corpus, sample(corpus, args.docs), 1, work)
            print(f"ingesting {args.docs} addresses with the offline graph…", flush=True)
            t0 = time.perf_counter()
            svc.ingestion.run(directory_request("sotu", str(source), settings=settings))
            ingest_s = time.perf_counter() - t0
        sotu = svc.collections.get("sotu")
        documents, chunks = sotu.document_count, sotu.chunk_count
        print(f"{documents} documents, {chunks} chunks" + (f" ingested in {ingest_s:.0f} s" if ingest_s else
                                                           " (kept from an earlier run)") + "; timing…", flush=True)
        queries = load_queries(args.queries)
        if args.compare is not None:
            compared = {"collection": {"documents": documents, "chunks": chunks, "ingest_s": ingest_s, "reused": reused},
                       **compare_ask(args.compare, args.against, queries, args.rounds)}
            from scripts.bench.compare import write_compare

            return write_compare("core-compare" if args.name == "ask" else args.name, "ask", compared,
                                 _compare_method(args, compared), started=started, machine=machine, settings=settings,
                                 versions=store_versions(svc.engine, folder))
        retriever = svc.ask.retriever
        for q in queries[:5]:  # warm-up: the model, plans, caches
            retriever.gather(q, ["sotu"])
        totals: list[list[float]] = []
        parts: dict[str, list[list[float]]] = {}
        for _ in range(args.rounds):
            totals.append([])
            for values in parts.values():
                values.append([])
            for q in queries:
                ms, got = time_ms(lambda q=q: retriever.gather(q, ["sotu"]))
                totals[-1].append(ms)
                for name, value in got.timings_ms.items():
                    parts.setdefault(name, [[] for _ in totals])[-1].append(value)
        svc.ask.ask(queries[0], collections=["sotu"])  # warm-up: spaCy's pipeline loads once per process
        figures: dict[str, Any] = {
            "collection": {"documents": documents, "chunks": chunks, "ingest_s": ingest_s, "reused": reused},
            "gather_ms": summarize_rounds(totals),
            "parts_ms": {name: summarize_rounds([r for r in rounds if r]) for name, rounds in parts.items()},
            "answer_phase": answer_phase(svc, queries, args.rounds),
        }
        print(f"answer phase p50/p95 fresh {figures['answer_phase']['fresh_ms']['p50']:.0f}/"
              f"{figures['answer_phase']['fresh_ms']['p95']:.0f} ms, in one conversation "
              f"{figures['answer_phase']['conversation_ms']['p50']:.0f}/"
              f"{figures['answer_phase']['conversation_ms']['p95']:.0f} ms", flush=True)
        versions = store_versions(svc.engine, folder)
    finally:
        svc.close()
        if args.keep is None:
            stop_stores(folder)
        shutil.rmtree(work, ignore_errors=True)
    label = f"{figures['collection']['chunks'] / 1000:.1f}k-chunk sotu collection"
    targets = [target(f"Ask's offline retrieval p95 on the {label}, including the query's embedding",
                      figures["gather_ms"]["p95"], TARGET_MS, "ms"),
               target("Ask's offline answer phase p95, each question in a new conversation",
                      figures["answer_phase"]["fresh_ms"]["p95"], ANSWER_TARGET_MS, "ms"),
               target("Ask's offline answer phase p95, all questions in one conversation",
                      figures["answer_phase"]["conversation_ms"]["p95"], ANSWER_TARGET_MS, "ms")]
    notes = [f"Missed: {t['name']} = {t['value']:.3g} ms (target ≤ {t['limit']} ms)." for t in targets if t["met"] is False]
    path = write_results(args.name, rounded(figures, 3), started=started, machine=machine, settings=settings,
                         versions=versions, targets=rounded(targets, 3), notes=notes, method=[
                             f"{documents} addresses ingested as a directory with their metadata.csv (offline spaCy graph)"
                             + (", in an earlier run into the same kept data folder." if reused else "."),
                             f"{len(queries)} queries (topical, then HotpotQA questions); one warm-up pass of 5, then "
                             f"{args.rounds} rounds; p50/p95 per round, median over rounds. Timed: the whole "
                             "GraphAwareRetriever.gather call (embedding, the four retrievers, fusion, MMR, loading).",
                             "Answer phase: AskService.ask offline, its diagnostics' timings_ms['answer'] (composing "
                             "the extractive answer from the retrieved context), per question in a new conversation "
                             "and with all questions asked in one conversation; same rounds.",
                         ])
    print(f"wrote {path}")
    return 0


def _compare_method(args: Any, figures: dict[str, Any]) -> list[str]:
    return [
        f"{figures['collection']['documents']} addresses ({figures['collection']['chunks']} chunks) in one kept data "
        "folder; one worker process per checkout (cwd and PYTHONPATH = that checkout) on its stores.",
        f"{figures['queries']} queries, one warm-up pass of 5 per side, then {args.rounds} rounds; every query on both "
        "sides, which side first flipping each query and round. Timed inside the worker: GraphAwareRetriever.gather "
        "(embedding included), then AskService.ask's timings_ms['answer'] fresh (all rounds), then with each round's "
        "questions in one conversation per side. p50/p95 per round, median over rounds; ratios new/old; the paired "
        "ratio is the median over (query, round) of new ms / old ms.",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
