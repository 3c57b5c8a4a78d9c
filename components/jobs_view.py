"""Ingestion jobs: live progress per file (a bar by chunks, elapsed time, time left), the outcome in its
colour (done green, partial amber, failed red), every failure's reason in full, and the recent jobs."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pandas as pd
import streamlit as st

from components.markdown_text import md_escape
from services.container import Services
from services.jobs import FINISHED, STORED, Job, estimate_progress

STAGES = {"queued": "queued", "parsing": "reading", "writing": "storing", "graph": "building the graph",
          "ingested": "stored", "replaced": "replaced", "unchanged": "unchanged", "repaired": "graph repaired",
          "skipped": "skipped", "failed": "failed", "cancelled": "cancelled", "deleted": "deleted", "gone": "gone"}


def human_duration(seconds: float | None) -> str:
    """4.2 s, 38 s, 16 min 55 s, 2 h 05 min."""
    if seconds is None:
        return ""
    seconds = max(0.0, float(seconds))
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def stage_label(item: dict[str, Any]) -> str:
    status = item.get("status", "")
    if status == "ocr":
        return f"reading page images (OCR) {item.get('ocr_pages_done', 0)}/{item.get('ocr_pages_total', '?')}"
    if status == "embedding":
        return f"embedding {item.get('chunks_embedded', 0)}/{item.get('chunks_total', '?')} chunks"
    return STAGES.get(status, status)


def _item_seconds(item: dict[str, Any]) -> float | None:
    if item.get("seconds") is not None:
        return float(item["seconds"])
    if item.get("started_at") and item.get("status") not in FINISHED:
        return time.time() - float(item["started_at"])
    return None


def _item_progress(item: dict[str, Any]) -> float | None:
    """How far a file got: full once stored, none for a file that ended without being stored (failed,
    skipped, cancelled: a full bar there read as success)."""
    status = item.get("status")
    if status in FINISHED and status not in STORED:
        return None
    if status in FINISHED or status in ("writing", "graph"):
        return 1.0
    total = item.get("chunks_total") or 0
    return min(1.0, (item.get("chunks_embedded") or 0) / total) if total else 0.0


def files_table(job: Job) -> None:
    """One row per file (or page): its stage, its chunks, its time, and the first words of its reason."""
    if not job.items:
        return
    rows = [{"file": i.get("title", ""), "status": stage_label(i), "progress": _item_progress(i),
             "chunks": str(i.get("chunks") or i.get("chunks_total") or ""), "time": human_duration(_item_seconds(i)),
             "reason": i.get("reason") or ""} for i in job.items]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=min(420, 38 + 35 * len(rows)),
                 column_config={"progress": st.column_config.ProgressColumn("progress", min_value=0, max_value=1,
                                                                           format="percent", width="small"),
                                "reason": st.column_config.TextColumn("reason", width="large")})


def _counts(job: Job) -> str:
    stored = sum(1 for i in job.items if i.get("status") in STORED)
    parts = [f"{stored} stored"] + [f"{n} {s}" for s in ("skipped", "failed", "cancelled")
                                    if (n := sum(1 for i in job.items if i.get("status") == s))]
    if job.kind == "graph:rebuild":
        parts = [f"{job.progress.get('files_done', 0)} of {job.progress.get('files_total', 0)} documents",
                 f"{job.progress.get('graph_facts', 0)} facts"] + ([f"{job.progress['failed']} failed"]
                                                                    if job.progress.get("failed") else [])
    return ", ".join(parts)


def outcome(job: Job) -> None:
    """A finished job's verdict, in its colour."""
    took = human_duration((job.finished_at - job.started_at).total_seconds()) if job.finished_at else ""
    summary = f"{_counts(job)} · took {took}"
    if job.status == "done":
        st.success(f"Finished: {summary}", icon=":material/check_circle:")
    elif job.status == "partial":
        st.warning(f"Finished with failures: {summary}. The failed files are listed below with their reasons.",
                   icon=":material/warning:")
    elif job.status == "failed":
        st.error(f"Failed: nothing was stored ({summary}).", icon=":material/error:")
    elif job.status == "cancelled":
        st.info(f"Cancelled: {summary}. What was stored stays.", icon=":material/cancel:")
    else:
        st.warning(f"{job.status.capitalize()}: {summary}.", icon=":material/warning:")


def failures(job: Job) -> None:
    """Every failed or skipped item with its whole reason (a table cell would cut it)."""
    problems = [i for i in job.items if i.get("status") in ("failed", "skipped")]
    if not problems:
        return
    with st.container(border=True):
        st.markdown(f"**Why {len(problems)} file(s) were not stored**")
        for item in problems:
            icon = ":red[:material/error:]" if item["status"] == "failed" else ":orange[:material/skip_next:]"
            st.markdown(f"{icon} **{md_escape(item.get('title', ''))}** ({item['status']}): "
                        f"{md_escape(item.get('reason') or 'no reason recorded')}")


def show_job(svc: Services, job_id: int) -> Job:
    job = svc.jobs.get(job_id)
    if job.status == "running":
        estimate = estimate_progress(job, dt.datetime.now(dt.UTC))
        done = sum(1 for i in job.items if i.get("status") in FINISHED)
        left = (f"about {human_duration(estimate.remaining)} left" if estimate.remaining is not None
                else "estimating the time left")
        embedded, total = job.progress.get("chunks_embedded", 0), job.progress.get("chunks_total", 0)
        st.progress(estimate.fraction, text=f"Working: {done} of {len(job.items) or job.progress.get('files_total', 0)} "
                    f"files done · {embedded}/{total} chunks embedded · {human_duration(estimate.elapsed)} elapsed, "
                    f"{left}")
    else:
        outcome(job)
    if job.error:
        st.error(md_escape(job.error), icon=":material/error:")
    files_table(job)
    if job.finished:
        failures(job)
    return job


def running_elsewhere(jobs: list[Job], own: int | None = None) -> None:
    """Live progress of the jobs running now in other sessions or processes (another app, `rag`, MCP)."""
    for job in jobs:
        if job.status == "running" and job.id != own:
            p = job.progress
            done = (f"Files {p.get('files_done', 0)}/{p.get('files_total', 0)} · ingested {p.get('ingested', 0)}, "
                    f"stored {_stored(job)}, skipped {p.get('skipped', 0)}, failed {p.get('failed', 0)}")
            total = p.get("files_total") or 0
            st.progress(min(1.0, p.get("files_done", 0) / total) if total else 0.0,
                        text=f"Job {job.id} ({job.kind} into {md_escape(str(job.params.get('collection')))}, "
                             f"started elsewhere) · Working… {done}")


def _stored(job: Job) -> int:
    """Items stored, from the job's counters (the recent-jobs list is read without its items)."""
    return sum(int(job.progress.get(s, 0)) for s in STORED)


def jobs_table(jobs: list[Job]) -> None:
    if not jobs:
        st.caption("No ingestion jobs yet.")
        return
    rows = [{
        "job": j.id, "kind": j.kind, "collection": j.params.get("collection"), "status": j.status,
        "files": j.progress.get("files_total", 0),
        "stored": _stored(j),
        "skipped": j.progress.get("skipped", 0), "failed": j.progress.get("failed", 0),
        "chunks": j.progress.get("chunks_written", 0), "started": j.started_at,
        "took": human_duration((j.finished_at - j.started_at).total_seconds()) if j.finished_at else "running",
    } for j in jobs]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
