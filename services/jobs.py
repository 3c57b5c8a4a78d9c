"""Ingestion jobs recorded in PostgreSQL, so every process (app, CLI, MCP) sees them.

A partial unique index allows one *running* job per request key, which is how
a duplicate request is refused across processes. A job whose owning process
died is marked ``interrupted`` the next time jobs are read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from services.errors import JobInProgress, NotFound

log = logging.getLogger(__name__)
STALE_AFTER = dt.timedelta(minutes=2)  # no heartbeat for this long: the owner is gone
HEARTBEAT_EVERY = 0.5  # seconds between progress writes
_WHAT = {"graph:rebuild": "graph rebuild", "ingest:url": "crawl"}  # job kind -> words in messages


@dataclass
class Job:
    id: int
    kind: str
    status: str
    collection_id: int | None
    params: dict[str, Any]
    progress: dict[str, Any]
    items: list[dict[str, Any]]
    error: str | None
    started_at: dt.datetime
    finished_at: dt.datetime | None
    cancel_requested: bool = False

    @property
    def finished(self) -> bool:
        return self.status != "running"


STORED = ("ingested", "replaced", "unchanged", "repaired")  # item outcomes that leave the document in place
FINISHED = (*STORED, "skipped", "failed", "cancelled", "deleted", "gone")  # every final item status


def outcome_status(items: list[dict[str, Any]]) -> str:
    """A finished job's status from its items: 'failed' when items failed and none was stored,
    'partial' when some failed and others were stored, else 'done' (skipped items are neither)."""
    failed = sum(1 for i in items if i.get("status") == "failed")
    stored = sum(1 for i in items if i.get("status") in STORED)
    if not failed:
        return "done"
    return "partial" if stored else "failed"


@dataclass(frozen=True)
class ProgressEstimate:
    """How far a job is, by chunks embedded rather than files finished, and how long it may still take."""

    fraction: float  # 0..1
    elapsed: float  # seconds since the job started
    remaining: float | None  # seconds, None until there is enough to go on


def estimate_progress(job: Job, now: dt.datetime) -> ProgressEstimate:
    """Each item weighs its chunk count (the embedding dominates ingestion time): a finished item counts in
    full, a running one by the chunks it has embedded, and an item not chunked yet weighs the average of
    those that are. Items that ended before chunking (refused, duplicates) weigh nothing. The time left
    is the elapsed time scaled by what remains, once 2% is done."""
    elapsed = max(0.0, (now - job.started_at).total_seconds())
    known = [int(i["chunks_total"]) for i in job.items if i.get("chunks_total")]
    average = sum(known) / len(known) if known else 1.0
    total = done = 0.0
    for item in job.items:
        size = float(item["chunks_total"]) if item.get("chunks_total") else None
        if item.get("status") in FINISHED:
            total += size or 0.0
            done += size or 0.0
        elif size is None:
            total += average
        else:
            total += size
            embedded = float(item.get("chunks_embedded") or 0)
            done += size if item.get("status") in ("writing", "graph") else min(embedded, size)
    if total <= 0:  # nothing chunked yet, or every item ended early: count files
        files = len(job.items) or 1
        fraction = sum(1 for i in job.items if i.get("status") in FINISHED) / files
    else:
        fraction = done / total
    fraction = 1.0 if job.finished else min(fraction, 0.99)
    remaining = elapsed * (1 - fraction) / fraction if 0.02 <= fraction < 1 and elapsed >= 1 else None
    return ProgressEstimate(fraction, elapsed, 0.0 if job.finished else remaining)


def request_key(kind: str, collection_id: int, **parts: Any) -> str:
    """A stable key for "the same request": kind, collection and the parts that define it."""
    blob = json.dumps({"kind": kind, "collection": collection_id, **parts}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass
class JobReporter:
    """Accumulates a running job's progress and writes it back at most every HEARTBEAT_EVERY s.

    Each write carries the counters and only the items added or changed since the last write.
    A change that falls inside the interval is written when it ends (a timer), not at the next
    change: other processes show this progress, and the next change may be a long step away
    (a slow page fetch, a large file's parse).
    """

    jobs: JobService
    job_id: int
    progress: dict[str, Any] = field(default_factory=dict)
    items: list[dict[str, Any]] = field(default_factory=list)
    _last: float = 0.0
    _dirty: set[int] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _trailing: threading.Timer | None = None

    def update(self, **counters: Any) -> None:
        with self._lock:
            self.progress.update(counters)
        self.flush(force=False)

    def add(self, **deltas: float) -> None:
        with self._lock:
            for key, delta in deltas.items():
                self.progress[key] = self.progress.get(key, 0) + delta
        self.flush(force=False)

    def item(self, **entry: Any) -> int:
        """Add an item's entry (a file, a page); returns its index for :meth:`update_item`."""
        with self._lock:
            self.items.append(entry)
            index = len(self.items) - 1
            self._dirty.add(index)
        self.flush(force=False)
        return index

    def update_item(self, index: int, **fields: Any) -> None:
        """Change an item's live entry: its stage while it runs, then its outcome."""
        with self._lock:
            self.items[index].update(fields)
            self._dirty.add(index)
        self.flush(force=False)

    def flush(self, *, force: bool = True) -> None:
        now = time.monotonic()
        with self._lock:
            wait = HEARTBEAT_EVERY - (now - self._last)
            if not force and wait > 0:
                if self._trailing is None:
                    self._trailing = threading.Timer(wait, self._flush_trailing)
                    self._trailing.daemon = True
                    self._trailing.start()
                return
            self._last = now
            progress = dict(self.progress)
            changed = {i: dict(self.items[i]) for i in sorted(self._dirty)}
            self._dirty.clear()
        self.jobs.write_progress(self.job_id, progress, changed)

    def _flush_trailing(self) -> None:
        with self._lock:
            self._trailing = None
        try:
            self.flush()
        except Exception:  # a store hiccup: the next change or the job's end writes it again
            log.debug("trailing progress write failed for job %s", self.job_id, exc_info=True)

    def cancelled(self) -> bool:
        return self.jobs.cancel_requested(self.job_id)


class JobService:
    def __init__(self, *, engine: Engine) -> None:
        self.engine = engine
        self.host = socket.gethostname()

    def start(self, *, kind: str, key: str, collection_id: int | None, params: dict[str, Any]) -> int:
        """Record a running job, or raise :class:`JobInProgress` if the same request runs already."""
        self.reap_stale()
        try:
            with self.engine.begin() as conn:
                return int(
                    conn.execute(
                        sa.text(
                            "INSERT INTO jobs (kind, request_key, collection_id, params, owner_pid, owner_host) "
                            "VALUES (:k, :rk, :c, CAST(:p AS jsonb), :pid, :host) RETURNING id"
                        ),
                        {"k": kind, "rk": key, "c": collection_id, "p": json.dumps(params, default=str),
                         "pid": os.getpid(), "host": self.host},
                    ).scalar_one()
                )
        except IntegrityError:
            what = _WHAT.get(kind, "ingestion")
            raise JobInProgress(
                f"The same {what} is already in progress; wait for it to finish (see recent jobs)."
            ) from None

    def write_progress(self, job_id: int, progress: dict[str, Any], items: dict[int, dict[str, Any]]) -> None:
        """Record the job's counters, and the items (by index) that were added or changed."""
        with self.engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE jobs SET progress = CAST(:p AS jsonb), heartbeat_at = now() WHERE id = :id"),
                {"p": json.dumps(progress, default=str), "id": job_id},
            )
            if items:
                conn.execute(sa.text(
                    "INSERT INTO job_items (job_id, idx, entry) SELECT :id, i, CAST(e AS jsonb) "
                    "FROM unnest(CAST(:idx AS int[]), CAST(:entries AS text[])) AS x(i, e) "
                    "ON CONFLICT (job_id, idx) DO UPDATE SET entry = excluded.entry"),
                    {"id": job_id, "idx": list(items), "entries": [json.dumps(e, default=str) for e in items.values()]})

    def finish(self, job_id: int, *, status: str, error: str | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE jobs SET status = :s, error = :e, finished_at = now() WHERE id = :id"),
                {"s": status, "e": error, "id": job_id},
            )

    def request_cancel(self, job_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.text("UPDATE jobs SET cancel_requested = true WHERE id = :id"), {"id": job_id})

    def cancel_requested(self, job_id: int) -> bool:
        with self.engine.connect() as conn:
            return bool(
                conn.execute(sa.text("SELECT cancel_requested FROM jobs WHERE id = :id"), {"id": job_id}).scalar()
            )

    def get(self, job_id: int) -> Job:
        """A job with its items (each file or page, in order)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.text("SELECT * FROM jobs WHERE id = :id"), {"id": job_id}).first()
            if row is None:
                raise NotFound(f"No job {job_id}.")
            items = [r.entry for r in conn.execute(sa.text(
                "SELECT entry FROM job_items WHERE job_id = :id ORDER BY idx"), {"id": job_id})]
        job = _job(row)
        if items:  # jobs recorded before migration 009 keep theirs in jobs.items
            job.items = items
        return job

    def recent(self, limit: int = 10) -> list[Job]:
        """The latest jobs, newest first, without their items (see :meth:`get`)."""
        self.reap_stale()
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT * FROM jobs ORDER BY started_at DESC LIMIT :n"), {"n": limit})
            return [_job(r) for r in rows]

    def reap_stale(self) -> int:
        """Mark running jobs whose owner died (same host: pid gone; other host: silent) as interrupted."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                sa.text("SELECT id, owner_pid, owner_host, heartbeat_at FROM jobs WHERE status = 'running'")
            ).all()
            now = conn.execute(sa.text("SELECT now()")).scalar_one()
            # On this host the owner's pid decides (a long step may skip heartbeats);
            # a job owned by another host is judged by its heartbeat.
            dead = [
                r.id for r in rows
                if (not _pid_alive(r.owner_pid) if r.owner_host == self.host and r.owner_pid
                    else now - r.heartbeat_at > STALE_AFTER)
            ]
            if dead:
                conn.execute(
                    sa.text(
                        "UPDATE jobs SET status = 'interrupted', finished_at = now(), "
                        "error = 'The process running this job stopped before it finished; run the ingest again "
                        "(finished documents are kept, the rest are picked up).' WHERE id = ANY(:ids)"
                    ),
                    {"ids": dead},
                )
                conn.execute(sa.text(_FAIL_ORPHANED_GRAPH_STEPS), {"ids": dead})
        return len(dead)


# A dead ingest may have stored documents whose graph step never finished. Once no job runs in
# their collection any more, mark them failed, which the next ingest of the same files repairs.
_FAIL_ORPHANED_GRAPH_STEPS = """
UPDATE documents d SET graph_status = 'failed', graph_updated_at = now(),
       graph_error = 'Interrupted: the ingest stopped before the graph step finished. '
                     'Run the same ingest again or use "rebuild graph" to repair it.'
FROM jobs j, collection_documents cd
WHERE j.id = ANY(:ids) AND cd.collection_id = j.collection_id AND cd.document_id = d.id
  AND d.graph_status = 'pending' AND d.updated_at >= j.started_at
  AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.collection_id = j.collection_id)
"""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _job(row: Any) -> Job:
    m = row._mapping
    return Job(
        id=m["id"], kind=m["kind"], status=m["status"], collection_id=m["collection_id"],
        params=m["params"], progress=m["progress"], items=m["items"], error=m["error"],
        started_at=m["started_at"], finished_at=m["finished_at"], cancel_requested=m["cancel_requested"],
    )
