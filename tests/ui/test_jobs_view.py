"""The per-file table of an ingest job: a file that ended without being stored shows no bar."""

from __future__ import annotations

from components.jobs_view import _item_progress


def test_only_a_stored_file_shows_a_full_bar():
    assert _item_progress({"status": "ingested"}) == 1.0
    assert _item_progress({"status": "embedding", "chunks_embedded": 3, "chunks_total": 12}) == 0.25
    for ended in ("failed", "skipped", "cancelled"):
        assert _item_progress({"status": ended, "chunks_total": 4, "chunks_embedded": 4}) is None
