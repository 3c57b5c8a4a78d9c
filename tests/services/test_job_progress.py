"""A running job's progress reaches the jobs table (what other processes show) even when no change follows."""

from __future__ import annotations

import time
import uuid

from services.jobs import JobReporter


def test_the_last_change_is_written_without_waiting_for_the_next(services):
    jobs = services.jobs
    job_id = jobs.start(kind="test:progress", key=uuid.uuid4().hex, collection_id=None, params={})
    try:
        reporter = JobReporter(jobs, job_id)
        reporter.add(files_done=1)  # written at once (the first write)
        reporter.add(files_done=1)  # inside the write interval: held back, then written by itself
        deadline = time.monotonic() + 120  # a bound for a loaded machine; on a quiet one it takes half a second
        while jobs.get(job_id).progress.get("files_done") != 2:
            assert time.monotonic() < deadline, f"the second page never reached the table: {jobs.get(job_id).progress}"
            time.sleep(0.1)
    finally:
        jobs.finish(job_id, status="done")
