"""The Ingest page's job section: start a job, follow it live, retry its failed files, and the next step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from components.feedback import user_errors
from components.jobs_view import jobs_table, running_elsewhere, show_job
from components.markdown_text import md_escape
from components.state import Keys
from services.container import Services
from services.ingest.pipeline import IngestRequest
from services.ingest.requests import retry_request
from services.jobs import Job

WAS_RUNNING = "ingest.was_running"


def started(job_id: int, request: IngestRequest | None = None, *, clears_uploads: bool = False) -> None:
    """Follow this job in the live view; keep its request for a retry of its failed files."""
    st.session_state[Keys.INGEST_JOB] = job_id
    st.session_state[WAS_RUNNING] = True
    st.session_state[Keys.INGEST_REQUEST] = {"job_id": job_id, "request": request} if request is not None else None
    st.session_state[Keys.INGEST_CLEAR_UPLOADS] = job_id if clears_uploads else None


def submit(svc: Services, build: Callable[[], IngestRequest], *, clears_uploads: bool = False) -> None:
    """Build a request and start it as a background job; errors are shown inline."""
    with user_errors("Could not start the ingest"):
        request = build()
        started(svc.ingestion.submit(request), request, clears_uploads=clears_uploads)


def _when_finished(job: Job) -> None:
    """Once, when the followed job ends: empty the file picker if its upload stored something (after a
    total failure the files stay picked, to fix the metadata and try again), and redraw the page."""
    if st.session_state.get(Keys.INGEST_CLEAR_UPLOADS) == job.id:
        st.session_state[Keys.INGEST_CLEAR_UPLOADS] = None
        if job.status in ("done", "partial"):
            st.session_state[Keys.INGEST_UPLOAD_NONCE] += 1
    st.session_state[WAS_RUNNING] = False
    st.rerun()  # counts elsewhere on the page, and the picker, follow the job's end


def _retry(svc: Services, job: Job, metadata: dict[str, Any] | None) -> None:
    kept = st.session_state.get(Keys.INGEST_REQUEST) or {}
    failed = sum(1 for i in job.items if i.get("status") == "failed")
    if not failed or job.kind == "ingest:url":
        return
    if kept.get("job_id") != job.id:
        st.caption("To retry, start the same ingest again (this job was started elsewhere or before a reload).")
        return
    if st.button(f"Retry the {failed} failed file(s)", key="ingest.retry", icon=":material/replay:",
                 help="Runs the failed files again, with the metadata typed above laid over their own."):
        with user_errors("Could not retry"):
            request = retry_request(kept["request"], job.items, metadata=metadata)
            started(svc.ingestion.submit(request), request)
            st.rerun()


def _next_steps(job: Job) -> None:
    collection = job.params.get("collection")
    if job.status not in ("done", "partial") or not collection:
        return
    st.markdown(f"**Next step** with {md_escape(collection)}:")
    c1, c2, c3, c4 = st.columns(4)
    params = {"collection": str(collection)}
    c1.page_link("pages/search.py", label="Search it", icon=":material/search:", query_params=params)
    c2.page_link("pages/documents.py", label="Browse its documents", icon=":material/description:", query_params=params)
    c3.page_link("pages/graph.py", label="Explore its graph", icon=":material/hub:", query_params=params)
    c4.page_link("pages/ask.py", label="Ask about it", icon=":material/forum:", query_params=params)


def job_section(svc: Services, metadata: Callable[[], dict[str, Any] | None]) -> None:
    """The followed job, live (polled every second without blocking the page), then the recent jobs."""

    @st.fragment(run_every=1.0)
    def live() -> None:
        job_id = st.session_state.get(Keys.INGEST_JOB)
        recent = svc.jobs.recent(10)
        running_elsewhere(recent, own=job_id)
        if job_id is None:
            st.caption("Start an ingest above; its progress shows here, file by file.")
        else:
            job = show_job(svc, job_id)
            if job.status == "running":
                if st.button("Cancel", key="ingest.cancel", icon=":material/cancel:"):
                    svc.jobs.request_cancel(job_id)
            elif st.session_state.get(WAS_RUNNING):
                _when_finished(job)
            else:
                _retry(svc, job, metadata())
                _next_steps(job)
        st.markdown("**Recent jobs**")
        jobs_table(recent)

    live()
