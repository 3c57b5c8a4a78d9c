"""Live progress of an ingestion job, polled from the jobs table without blocking the page."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.markdown_text import md_escape
from services.container import Services
from services.jobs import Job


def _fraction(job: Job) -> float:
    p = job.progress
    files = p.get("files_total") or 0
    if not files:
        return 0.0
    done = p.get("files_done", 0)
    chunks_total = p.get("chunks_total") or 0
    embedded = p.get("chunks_embedded", 0)
    within = (embedded / chunks_total) if chunks_total else 0.0
    return max(0.0, min(1.0, (done + 0.5 * within) / files if done < files else 1.0))


def progress_text(job: Job) -> str:
    p = job.progress
    return (f"Files {p.get('files_done', 0)}/{p.get('files_total', 0)} · chunks embedded "
            f"{p.get('chunks_embedded', 0)}/{p.get('chunks_total', 0)} · written {p.get('chunks_written', 0)} · "
            f"ingested {p.get('ingested', 0)}, replaced {p.get('replaced', 0)}, unchanged {p.get('unchanged', 0)}, "
            + (f"repaired {p['repaired']}, " if p.get("repaired") else "")
            + f"skipped {p.get('skipped', 0)}, failed {p.get('failed', 0)}"
            + (f" · graph facts {p.get('graph_facts', 0)}, graph failures {p.get('graph_failed', 0)}" if "graph_facts" in p else ""))


def show_job(svc: Services, job_id: int) -> Job:
    job = svc.jobs.get(job_id)
    label = {"running": "Working…", "done": "Finished", "partial": "Finished with failures", "cancelled": "Cancelled",
             "failed": "Failed", "interrupted": "Interrupted"}.get(job.status, job.status)
    st.progress(_fraction(job) if job.status == "running" else 1.0, text=f"{label} {progress_text(job)}")
    if job.error:
        st.error(md_escape(job.error), icon=":material/error:")
    problems = [i for i in job.items if i["status"] in ("skipped", "failed")]
    if job.finished and problems:
        st.warning(f"{len(problems)} file(s) were skipped or failed:", icon=":material/warning:")
        st.dataframe(pd.DataFrame(problems)[["title", "status", "reason"]], hide_index=True, width="stretch")
    return job


def running_elsewhere(jobs: list[Job], own: int | None = None) -> None:
    """Live progress of the jobs running now in other sessions or processes (another app, `rag`, MCP)."""
    for job in jobs:
        if job.status == "running" and job.id != own:
            st.progress(_fraction(job), text=f"Job {job.id} ({job.kind} into {md_escape(str(job.params.get('collection')))}, "
                                             f"started elsewhere) · Working… {progress_text(job)}")


def jobs_table(jobs: list[Job]) -> None:
    if not jobs:
        st.caption("No ingestion jobs yet.")
        return
    rows = [{
        "job": j.id, "kind": j.kind, "collection": j.params.get("collection"), "status": j.status,
        "files": j.progress.get("files_total", 0), "ingested": j.progress.get("ingested", 0),
        "skipped": j.progress.get("skipped", 0), "failed": j.progress.get("failed", 0),
        "chunks": j.progress.get("chunks_written", 0), "started": j.started_at,
        "seconds": round((j.finished_at - j.started_at).total_seconds(), 1) if j.finished_at else None,
    } for j in jobs]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
