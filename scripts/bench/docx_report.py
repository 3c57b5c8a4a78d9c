"""Markdown for docs/bench/docx.json: Word parse speed, peak memory of a big ingest, Cancel latency."""

from __future__ import annotations

from typing import Any

from scripts.bench.report_sections import num, table


def docx_section(f: dict[str, Any]) -> list[str]:
    rows = []
    for name, p in f["parse"].items():
        doc = f["documents"][name]
        rows.append([name, f"{doc['paragraphs']:,}", f"{doc['styles']:,}", num(p["document_xml_mb"]), num(p["text_mb"]),
                     num(p["mb_per_s"]), f"{num(min(p['wall_s']))}–{num(max(p['wall_s']))}", num(p["mb_per_cpu_s"]),
                     num(p["peak_rss_mb"])])
    out = ["Parsing (`parse_bytes`, fresh process per document; MB/s of document.xml per wall second, median over "
           "rounds; per CPU second beside it, which other work on the machine does not change):", ""]
    out += table(["document", "paragraphs", "styles", "document.xml MB", "text MB", "MB/s", "wall s spread",
                  "MB per CPU s", "peak RSS MB"], rows)
    ex = f.get("extraction")
    if ex:
        out += [f"Graph extraction alone (spaCy, one segment at a time as the graph service runs it) on the "
                f"{num(ex['text_mb'])} MB text of the 12 MB document: {ex['segments']:,} segments, "
                f"{num(ex['seconds'])} s wall, {num(ex.get('cpu_seconds'))} s CPU; peak RSS {num(ex['peak_rss_mb'])} MB "
                f"({num(ex['peak_rss_after_model_load_mb'])} MB once spaCy was loaded).", ""]
    job = f.get("job")
    if job:
        stages = ", ".join(f"{k} {num(v)} s" for k, v in job.get("stage_seconds", {}).items())
        out += [f"Whole ingest of the 12 MB document with the offline graph (fresh process and stores): job "
                f"{job['status']}, {job.get('chunks')} chunks, {job.get('graph_facts')} facts, {num(job['seconds'])} s "
                f"({stages}); **peak RSS {num(job['peak_rss_mb'])} MB** (embedding model, spaCy and the job).", ""]
        rows = [[c["stage"], num(c["latency_s"]), c["job_status"], c["item_status"], c.get("item_reason") or ""]
                for c in job.get("cancel", [])]
        out += ["Cancel pressed while the item was in a stage, to the job's end:", ""]
        out += table(["stage", "seconds", "job", "item", "item's reason"], rows)
    return out
