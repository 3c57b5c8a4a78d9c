"""A file's time in the job is the whole of its work, not its last stage (issue 34)."""

from __future__ import annotations

from tests.utils.ingest import ingest_text, only_item


def test_a_files_time_covers_reading_embedding_and_storing(services, collection):
    """The live table counts a file's time from when it started; once stored it showed the write stage only,
    so the time shrank. Its recorded seconds hold every stage the job timed for it (one file: the job's
    counters are that file's), whatever the machine's speed."""
    result = ingest_text(services, collection, "Timed", "A sentence to read, embed and store. " * 40)
    item = only_item(result)
    assert item["status"] == "ingested"
    stages = sum(result.progress.get(f"seconds_{s}", 0.0) for s in ("parse", "chunk", "embed", "postgres_write"))
    assert result.progress.get("seconds_embed", 0.0) > 0
    assert item["seconds"] >= round(stages, 3) - 0.001, (item["seconds"], result.progress)
