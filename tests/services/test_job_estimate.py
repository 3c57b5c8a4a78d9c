"""How far a job is and how long it may still take, by chunks rather than files (pure, no stores)."""

from __future__ import annotations

import datetime as dt

from services.jobs import Job, estimate_progress

START = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)


def _job(items, status="running", finished=None):
    return Job(1, "ingest:files", status, 1, {}, {}, items, None, START, finished)


def test_progress_moves_by_chunks_within_a_file():
    items = [{"status": "embedding", "chunks_total": 100, "chunks_embedded": 25},
             {"status": "queued"}]
    estimate = estimate_progress(_job(items), START + dt.timedelta(seconds=10))
    # the queued file weighs the average of the known ones (100): 25 of 200 chunks
    assert estimate.fraction == 0.125
    assert estimate.elapsed == 10 and estimate.remaining == 70


def test_finished_and_refused_items_and_the_finished_job():
    items = [{"status": "ingested", "chunks_total": 30, "chunks": 30}, {"status": "failed", "reason": "empty"},
             {"status": "graph", "chunks_total": 10, "chunks_embedded": 10}, {"status": "parsing"}]
    estimate = estimate_progress(_job(items), START + dt.timedelta(seconds=1))
    assert estimate.fraction == 40 / 60  # the refused file weighs nothing, the parsing one the average (20)
    assert estimate_progress(_job(items[:2], "partial", START), START).fraction == 1.0


def test_no_estimate_of_the_time_left_before_there_is_something_to_go_on():
    items = [{"status": "parsing"}, {"status": "queued"}]
    estimate = estimate_progress(_job(items), START + dt.timedelta(seconds=30))
    assert estimate.fraction == 0.0 and estimate.remaining is None
