"""Large Word files: parse speed, peak memory of a whole ingest with graph extraction, and Cancel latency.

Documents are generated (tests/utils/docx_build.py) in the two shapes that never finished
before (issue 15): a 1.3 MB document.xml with ~340 KB of styles, and a 12 MB document.xml
with ~2.5 MB of styles; markup is several times the text, as Word writes it.
- parse: ``parse_bytes`` in a fresh process per document, ``--rounds`` rounds; MB/s is
  document.xml bytes ÷ wall seconds (median over rounds), CPU seconds beside it.
- extraction: the 12 MB document's text through the graph service's segmenting and the spaCy
  extractor, one segment at a time as GraphService does, in a fresh process: its peak RSS.
- job: a fresh process with its own stores ingests the 12 MB document with the offline graph
  (parse, chunk, embed, write, spaCy): peak RSS of that process (the stores run in their own
  processes), stage seconds. Then Cancel is pressed once the item is being read and once it is
  in its graph step; latency = press to the job's end.
Usage: python -m scripts.bench.bench_docx [--rounds 3] [--no-job]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scripts.bench.common import ROOT, fresh_data_dir, machine_facts, median, rounded, stop_stores, target, write_results

SHAPES = {  # name: (paragraphs, styles)
    "report_1mb": (1_150, 1_900),
    "report_12mb": (11_000, 14_000),
}
MIN_MB_S, MAX_RSS_MB, MAX_CANCEL_S = 2.0, 1536, 2.0


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(mode: str, path: Path, rounds: int) -> dict[str, Any]:
    """Run this module in a fresh process (its own peak RSS) and return the JSON it prints."""
    out = subprocess.run([sys.executable, "-m", "scripts.bench.bench_docx", "--child", mode, "--file", str(path),
                          "--rounds", str(rounds)], cwd=ROOT, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{mode} child failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- children ---------------------------------------------------------------------------------
def child_parse(path: Path, rounds: int) -> dict[str, Any]:
    from services.ingest.parsing import parse_bytes
    from tests.utils.docx_build import document_xml_size

    data = path.read_bytes()
    parse_bytes(data, path.name, max_bytes=10**9)  # warm-up: imports and first-use costs stay out of the rounds
    wall, cpu, chars = [], [], 0
    for _ in range(rounds):
        c0, t0 = time.process_time(), time.perf_counter()
        chars = len(parse_bytes(data, path.name, max_bytes=10**9).text)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    xml = document_xml_size(data)
    return {"document_xml_mb": xml / 1e6, "file_mb": len(data) / 1e6, "text_mb": chars / 1e6,
            "wall_s": wall, "cpu_s": cpu, "mb_per_s": xml / 1e6 / median(wall), "mb_per_cpu_s": xml / 1e6 / median(cpu),
            "peak_rss_mb": _peak_mb()}


def child_extract(path: Path, rounds: int) -> dict[str, Any]:
    from llama_index.core.graph_stores.types import KG_RELATIONS_KEY
    from llama_index.core.schema import TextNode

    from services.graph.extraction import SpacyTemporalExtractor
    from services.graph.segments import segments as split_segments
    from services.ingest.parsing import parse_bytes

    text = parse_bytes(path.read_bytes(), path.name, max_bytes=10**9).text
    extractor = SpacyTemporalExtractor()
    extractor._pipeline()
    loaded = _peak_mb()
    t0, c0, segments, relations = time.perf_counter(), time.process_time(), 0, 0
    for start, segment in split_segments(text):  # as GraphService._index: one segment per call
        for node in extractor([TextNode(text=segment, start_char_idx=start)]):
            relations += len(node.metadata.get(KG_RELATIONS_KEY, []))
        segments += 1
    return {"text_mb": len(text) / 1e6, "segments": segments, "relations": relations,
            "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
            "peak_rss_after_model_load_mb": loaded, "peak_rss_mb": _peak_mb()}


def _wait_for(services: Any, job_id: int, status: str, timeout: float = 1800) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        job = services.jobs.get(job_id)
        if job.finished or (job.items and job.items[0].get("status") == status):
            return
        time.sleep(0.02)
    raise TimeoutError(f"job {job_id} never reached {status}")


def _cancel_at(services: Any, request: Any, stage: str) -> dict[str, Any]:
    """Submit, press Cancel once the item is in ``stage``; seconds from the press to the job's end."""
    job_id = services.ingestion.submit(request)
    _wait_for(services, job_id, stage)
    pressed = time.monotonic()
    services.jobs.request_cancel(job_id)
    while not (job := services.jobs.get(job_id)).finished:
        time.sleep(0.01)
    latency = time.monotonic() - pressed
    item = job.items[0]
    return {"stage": stage, "latency_s": latency, "job_status": job.status, "item_status": item.get("status"),
            "item_reason": item.get("reason")}


def child_job(path: Path, rounds: int) -> dict[str, Any]:
    folder = fresh_data_dir("docx-job")
    try:
        from services.container import build_services
        from services.ingest.requests import files_request
        from services.settings import get_settings

        services = build_services(get_settings())
        services.embedder.embed_texts(["warm up"])  # the model loaded, as in a running app
        services.collections.create(name="bench-docx", description="Large Word file.")
        data = path.read_bytes()
        t0 = time.perf_counter()
        result = services.ingestion.run(files_request("bench-docx", [(path.name, data)], settings=services.settings))
        seconds = time.perf_counter() - t0
        peak = _peak_mb()
        item = result.items[0]
        stages = {k[len("seconds_"):]: v for k, v in result.progress.items() if k.startswith("seconds_")}
        figures = {"status": result.status, "item_status": item["status"], "chunks": item.get("chunks"),
                   "graph_facts": item.get("facts"), "seconds": seconds, "stage_seconds": stages, "peak_rss_mb": peak}
        cancels = []
        for n, stage in enumerate(("parsing", "graph")):
            services.collections.create(name=f"bench-docx-{n}", description="Cancel.")
            cancels.append(_cancel_at(services, files_request(f"bench-docx-{n}", [(path.name, data)],
                                                              settings=services.settings), stage))
        figures["cancel"] = cancels
        services.close()
        return figures
    finally:
        stop_stores(folder)


# -- the benchmark ---------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-job", action="store_true", help="skip the whole-ingest run (peak RSS, Cancel)")
    parser.add_argument("--child", choices=("parse", "extract", "job"), help=argparse.SUPPRESS)
    parser.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.child:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        run = {"parse": child_parse, "extract": child_extract, "job": child_job}[args.child]
        print(json.dumps(run(args.file, args.rounds)))
        return 0

    from tests.utils.docx_build import large_docx

    started, machine = time.time(), machine_facts()
    work = Path(tempfile.mkdtemp(prefix="rag-bench-docx-files-", dir="/tmp"))
    figures: dict[str, Any] = {"documents": {}, "parse": {}}
    paths = {}
    for name, (paragraphs, styles) in SHAPES.items():
        paths[name] = work / f"{name}.docx"
        paths[name].write_bytes(large_docx(paragraphs, styles=styles))
        figures["documents"][name] = {"paragraphs": paragraphs, "styles": styles}
    for name, path in paths.items():
        figures["parse"][name] = _child("parse", path, args.rounds)
        print(f"parse {name}: {figures['parse'][name]['mb_per_s']:.2f} MB/s", flush=True)
    big = paths["report_12mb"]
    figures["extraction"] = _child("extract", big, 1)
    print(f"extraction: peak {figures['extraction']['peak_rss_mb']:.0f} MB", flush=True)
    if not args.no_job:
        figures["job"] = _child("job", big, 1)
        print(f"job: peak {figures['job']['peak_rss_mb']:.0f} MB, cancel {figures['job']['cancel']}", flush=True)
    slowest = min(p["mb_per_s"] for p in figures["parse"].values())
    slowest_cpu = min(p["mb_per_cpu_s"] for p in figures["parse"].values())
    job = figures.get("job", {})
    cancel = max((c["latency_s"] for c in job.get("cancel", [])), default=None)
    targets = [
        target("Word parse speed, slowest shape (document.xml MB per wall second, median)", slowest, MIN_MB_S, "MB/s",
               lower_is_better=False),
        target("Word parse speed, slowest shape (document.xml MB per CPU second: the figure other work on the "
               "machine leaves alone)", slowest_cpu, MIN_MB_S, "MB/s", lower_is_better=False),
        target("peak RSS of an ingest with graph of a 12 MB document.xml", job.get("peak_rss_mb"), MAX_RSS_MB, "MB"),
        target("Cancel of a big .docx job, slowest stage (parse or graph), press to job end", cancel, MAX_CANCEL_S, "s"),
    ]
    method = [
        "Generated reports (tests/utils/docx_build.py): " + "; ".join(
            f"{n}: {d['paragraphs']:,} paragraphs, {d['styles']:,} styles, document.xml "
            f"{figures['parse'][n]['document_xml_mb']:.1f} MB" for n, d in figures["documents"].items()) + ".",
        f"Parse: parse_bytes in a fresh process per document, {args.rounds} rounds; MB/s = document.xml MB ÷ wall s.",
        "Extraction: the 12 MB document's text, one segment at a time through the spaCy extractor, fresh process.",
        "Job: a fresh process and stores; rag's ingest of the 12 MB document with the offline graph; peak RSS of "
        "that process. Cancel: pressed once the item shows 'parsing', then once it shows 'graph'.",
    ]
    write_results("docx", rounded(figures), started=started, targets=targets, method=method, machine=machine)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
