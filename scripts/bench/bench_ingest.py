"""Ingestion throughput on the sotu corpus, next to the raw embedding throughput of the same chunks.

The corpus is split into slices. For each slice three passes run back to back, their order
rotated from slice to slice so machine noise falls on all three alike:
- raw: the slice's chunks (made exactly as ingestion makes them) embedded in batches by the
  same model, nothing else: the limit on this machine;
- vector-only: the real pipeline (``IngestionService.run`` on a directory, graph off);
- with graph: the same pipeline with offline (spaCy) graph extraction, into another collection.
Each slice gives one chunks/s figure per pass, so the medians and spreads are over slices, and
the efficiency is pipeline ÷ raw per slice. Stage times come from the job's own ``seconds_*``
counters; stages overlap (embedding in one thread, writes and the graph in another), so
their sum can exceed the wall time.
Usage: python -m scripts.bench.bench_ingest [--docs 233] [--slices 5]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import (
    SHARED_DATA,
    fresh_data_dir,
    machine_facts,
    median,
    rounded,
    stop_stores,
    store_versions,
    target,
    write_results,
)

PASSES = ("raw", "vector_only", "with_graph")
SCHEMA = {"custom": {"year": {"type": "integer"}, "president": {"type": "string"}, "party": {"type": "string"}}}


def sample(corpus: Path, docs: int) -> list[dict[str, str]]:
    """``docs`` addresses spread evenly over 1790–2021 (all of them by default), with their metadata."""
    rows = list(csv.DictReader((corpus / "metadata.csv").open(encoding="utf-8")))
    docs = max(1, min(docs, len(rows)))
    return [rows[round(i * (len(rows) - 1) / max(docs - 1, 1))] for i in range(docs)] if docs > 1 else rows[:1]


def write_slices(corpus: Path, rows: list[dict[str, str]], slices: int, into: Path) -> list[Path]:
    """One folder per slice with its files and a metadata.csv sidecar (year, president, party)."""
    folders = []
    for n in range(slices):
        part = rows[n::slices]
        folder = into / f"slice-{n}"
        folder.mkdir()
        for row in part:
            shutil.copy(corpus / row["file"], folder / row["file"])
        with (folder / "metadata.csv").open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=["file", "year", "president", "party"])
            writer.writeheader()
            writer.writerows({k: r[k] for k in ("file", "year", "president", "party")} for r in part)
        folders.append(folder)
    return folders


def raw_pass(svc: Any, folder: Path) -> tuple[int, float]:
    """Embed the folder's chunks with the model alone, in the calls ingestion makes; (chunks, seconds).

    The calls are ``embedder.slice_size`` texts each (4 for the local model, the fastest size measured),
    the same as ingestion's, so the ratio is about the pipeline, not about batch sizes.
    """
    from services.ingest.chunking import chunk_text

    inputs = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8").replace("\x00", "")
        for c in chunk_text(text, size=svc.settings.chunk_size, overlap=svc.settings.chunk_overlap):
            inputs.append(f"{path.name}\n{' > '.join(c.heading_path)}\n{c.text}")
    started = time.perf_counter()
    step = svc.embedder.slice_size
    for start in range(0, len(inputs), step):
        svc.embedder._embed_fn(inputs[start : start + step])
    return len(inputs), time.perf_counter() - started


def pipeline_pass(svc: Any, collection: str, folder: Path) -> tuple[int, float, dict[str, float]]:
    """Ingest the folder through the real pipeline; (chunks written, seconds, stage seconds)."""
    from services.ingest.requests import directory_request

    request = directory_request(collection, str(folder), settings=svc.settings, include=["*.txt"])
    started = time.perf_counter()
    result = svc.ingestion.run(request)
    elapsed = time.perf_counter() - started
    if result.status != "done" or result.count("failed") or result.count("ingested") != len(request.items):
        raise SystemExit(f"ingest of {folder.name} did not complete: {result.status}, {result.progress}")
    p = result.progress
    stages = {k.removeprefix("seconds_"): float(v) for k, v in p.items() if k.startswith("seconds_")}
    return int(p["chunks_written"]), elapsed, stages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=233, help="how many addresses (spread over the years)")
    parser.add_argument("--slices", type=int, default=5, help="repeats: the corpus is measured in this many parts")
    args = parser.parse_args(argv)
    corpus = SHARED_DATA / "sotu"
    if not (corpus / "metadata.csv").is_file():
        raise SystemExit(f"{corpus} is not here: the ingestion benchmark needs ../shared/data/sotu")
    started, machine = time.time(), machine_facts()
    data_dir = fresh_data_dir("ingest")
    work = Path(tempfile.mkdtemp(prefix="rag-bench-ingest-corpus-"))
    try:
        from services.container import build_services
        from services.settings import get_settings

        settings = get_settings()
        svc = build_services(settings)  # graph on: offline spaCy extraction
        vec = build_services(settings.model_copy(update={"graph_enabled": False}), embedder=svc.embedder)
        for name in ("vector-only", "with-graph"):
            svc.collections.create(name=name, description=f"Ingestion benchmark ({name}).", metadata_schema=SCHEMA)
        rows = sample(corpus, args.docs)
        folders = write_slices(corpus, rows, min(args.slices, len(rows)), work)
        svc.embedder.embed_texts(["warm-up"] * svc.embedder.batch_size)
        per: dict[str, list[dict[str, float]]] = {p: [] for p in PASSES}
        stages: dict[str, dict[str, float]] = {"vector_only": {}, "with_graph": {}}
        for n, folder in enumerate(folders):
            order = PASSES[n % 3:] + PASSES[: n % 3]
            for name in order:
                if name == "raw":
                    chunks, seconds = raw_pass(svc, folder)
                else:
                    target_svc, coll = (vec, "vector-only") if name == "vector_only" else (svc, "with-graph")
                    chunks, seconds, st = pipeline_pass(target_svc, coll, folder)
                    for k, v in st.items():
                        stages[name][k] = stages[name].get(k, 0.0) + v
                per[name].append({"chunks": chunks, "seconds": seconds, "chunks_per_s": chunks / seconds})
                print(f"slice {n + 1}/{len(folders)} {name}: {chunks} chunks in {seconds:.1f} s "
                      f"({chunks / seconds:.1f}/s)", flush=True)
        figures = summarise(per, stages, rows)
        versions = store_versions(svc.collections.engine, data_dir)
        vec.close()
        svc.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
        stop_stores(data_dir)
    eff = figures["efficiency"]
    targets = [target("vector-only ingestion ÷ raw embedding", eff["vector_only"]["median"], 0.85, "ratio",
                      lower_is_better=False),
               target("ingestion with offline graph ÷ raw embedding", eff["with_graph"]["median"], 0.50, "ratio",
                      lower_is_better=False)]
    method = [f"{len(rows)} sotu addresses spread over 1790–2021, {len(folders)} slices; per slice the raw, "
              "vector-only and with-graph passes run back to back in rotating order.",
              "raw = the same chunk inputs given to the model alone, in calls of the size ingestion uses (Embedder.slice_size); "
              "pipeline = IngestionService.run "
              "on the slice's folder (directory ingest with the metadata.csv sidecar), a fresh collection per pass.",
              "Stage seconds are the job's counters summed over slices; parse includes validation and the dedup "
              "lookup; stages run in two threads (embedding, then writes and graph), so they can add up to more "
              "than the wall time."]
    notes = [n for n in (_verdict(targets[0], "embedding"), _verdict(targets[1], "graph extraction")) if n]
    write_results("ingest", rounded(figures, 3), started=started, settings=settings, versions=versions,
                  targets=targets, notes=notes, method=method, machine=machine)
    print(f"wrote docs/bench/ingest.json: efficiency {eff['vector_only']['median']:.2f} vector-only, "
          f"{eff['with_graph']['median']:.2f} with graph")


def summarise(per: dict[str, list[dict[str, float]]], stages: dict[str, dict[str, float]],
              rows: list[dict[str, str]]) -> dict[str, Any]:
    def stats(values: list[float]) -> dict[str, Any]:
        return {"median": median(values), "min": min(values), "max": max(values), "slices": len(values)}

    out: dict[str, Any] = {"documents": len(rows), "chunks": sum(s["chunks"] for s in per["raw"])}
    out["chunks_per_s"] = {p: stats([s["chunks_per_s"] for s in per[p]]) for p in PASSES}
    out["overall_chunks_per_s"] = {p: sum(s["chunks"] for s in per[p]) / sum(s["seconds"] for s in per[p])
                                   for p in PASSES}
    out["wall_seconds"] = {p: sum(s["seconds"] for s in per[p]) for p in PASSES}
    out["efficiency"] = {p: stats([s["chunks_per_s"] / r["chunks_per_s"] for s, r in zip(per[p], per["raw"], strict=True)])
                         for p in ("vector_only", "with_graph")}
    out["stage_seconds"] = stages
    return out


def _verdict(t: dict[str, Any], what: str) -> str:
    if t["met"]:
        return ""
    return (f"{t['name']}: {t['value']:.2f} against {t['op']} {t['limit']}. See the stage seconds: "
            f"{what} is where the time goes.")


if __name__ == "__main__":
    main()
