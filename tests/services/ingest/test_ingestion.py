"""Ingestion end to end on the real stores: dedup, re-ingest, directories with a sidecar (jobs: test_ingest_jobs.py)."""

from __future__ import annotations

import csv
import os
import random
from pathlib import Path

import pytest

from services.errors import ValidationFailed
from services.ingest.requests import describe_directory, directory_request, text_request
from tests.utils.ingest import (
    YEAR_REQUIRED,
    chunk_texts,
    doc_id,
    ingest_text,
    only_item,
    scalar,
    sql,
    titles_in,
)

# -- text: dedup and re-ingest ------------------------------------------------------------------


def test_text_ingest_stores_document_and_chunks(services, collection):
    result = ingest_text(services, collection, "Herons", "Herons wade in shallow water.", metadata={"k": "v"})
    item = only_item(result)
    assert result.status == "done"
    assert (item["status"], item["chunks"]) == ("ingested", 1)
    assert result.progress["ingested"] == 1 and result.progress["chunks_written"] == 1
    view = services.documents.get(item["document_id"])
    assert view.content == "Herons wade in shallow water."
    assert view.summary.metadata == {"k": "v"}
    assert view.summary.collections == [collection]
    assert [c.text for c in view.chunks] == ["Herons wade in shallow water."]
    job = services.jobs.get(result.job_id)
    assert job.status == "done" and job.finished_at is not None and job.items[0]["status"] == "ingested"


def test_duplicate_title_in_ingest_mode_is_skipped(services, collection):
    ingest_text(services, collection, "Birds", "Original text about herons.")
    result = ingest_text(services, collection, "Birds", "Completely different text about owls.")
    item = only_item(result)
    assert item["status"] == "skipped"
    assert "reingest" in item["reason"]
    assert result.progress["skipped"] == 1 and result.progress["ingested"] == 0
    assert chunk_texts(services, doc_id(services, collection, "Birds")) == ["Original text about herons."]
    assert titles_in(services, collection) == {"Birds"}


def test_identical_content_under_another_title_is_skipped(services, collection):
    ingest_text(services, collection, "First", "Same words in both documents.")
    item = only_item(ingest_text(services, collection, "Second", "Same words in both documents."))
    assert item["status"] == "skipped"
    assert item["reason"].startswith("Identical content")
    assert "'First'" in item["reason"]
    assert titles_in(services, collection) == {"First"}


def test_reingest_changed_text_replaces_document_and_chunks(services, collection):
    old_text = "Old version. " + " ".join(f"Old sentence {i} about comets." for i in range(60))
    new_text = "New version. " + " ".join(f"New sentence {i} about meteors." for i in range(30))
    first = only_item(ingest_text(services, collection, "Sky", old_text, metadata={"a": 1}))
    old_id = first["document_id"]
    old_chunks = chunk_texts(services, old_id)
    assert len(old_chunks) == first["chunks"] > 1

    result = ingest_text(services, collection, "Sky", new_text, metadata={"b": 2}, mode="reingest")
    item = only_item(result)
    assert item["status"] == "replaced"
    assert item["document_id"] == old_id
    view = services.documents.get(old_id)
    assert view.summary.version == 2
    assert view.content == new_text
    assert view.summary.metadata == {"a": 1, "b": 2}
    new_chunks = chunk_texts(services, old_id)
    assert new_chunks == [c.text for c in view.chunks] and len(new_chunks) == item["chunks"]
    assert view.summary.chunk_count == len(new_chunks)
    assert not any("comets" in t for t in new_chunks)
    assert all("meteors" in t or t.startswith("New version") for t in new_chunks)
    assert new_chunks[0].startswith("New version.") and new_chunks[-1].endswith("New sentence 29 about meteors.")
    assert scalar(services, "SELECT count(*) FROM chunks WHERE text LIKE '%about comets%' AND document_id = :d",
                  d=old_id) == 0
    # The collection still holds one document, and dedup now knows the new hash.
    assert services.collections.get(collection).document_count == 1
    again = only_item(ingest_text(services, collection, "Other title", new_text))
    assert again["status"] == "skipped" and again["reason"].startswith("Identical content")


def test_reingest_unchanged_is_reported_unchanged(services, collection):
    first = only_item(ingest_text(services, collection, "Stable", "Nothing changes here."))
    result = ingest_text(services, collection, "Stable", "Nothing changes here.", mode="reingest")
    item = only_item(result)
    assert item["status"] == "unchanged"
    assert item["document_id"] == first["document_id"]
    assert result.progress["unchanged"] == 1
    assert services.documents.get(first["document_id"]).summary.version == 1


def test_reingest_of_a_new_title_ingests(services, collection):
    item = only_item(ingest_text(services, collection, "Brand new", "Fresh text about badgers.", mode="reingest"))
    assert item["status"] == "ingested"
    assert services.documents.get(item["document_id"]).summary.version == 1


def test_metadata_breaking_schema_fails_without_a_row(services, collection):
    services.collections.add_schema_fields(collection, YEAR_REQUIRED)
    bad = only_item(ingest_text(services, collection, "Bad year", "Text with a bad year.", metadata={"year": "MCMXX"}))
    assert bad["status"] == "failed"
    assert "'year' must be an integer" in bad["reason"]
    missing = only_item(ingest_text(services, collection, "No year", "Text without a year."))
    assert missing["status"] == "failed" and "required" in missing["reason"]
    good = only_item(ingest_text(services, collection, "Good year", "Text with a year.", metadata={"year": "1920"}))
    assert good["status"] == "ingested"
    assert titles_in(services, collection) == {"Good year"}
    assert services.documents.get(good["document_id"]).summary.metadata == {"year": 1920}
    assert scalar(services, "SELECT count(*) FROM documents WHERE title IN ('Bad year', 'No year')") == 0


def test_bad_requests_are_refused_before_a_job(services, collection):
    with pytest.raises(ValidationFailed):
        text_request(collection, title="  ", text="x")
    with pytest.raises(ValidationFailed):
        text_request(collection, title="Empty", text="   \n")
    request = text_request(collection, title="t", text="x")
    request.mode = "append"  # type: ignore[assignment]
    with pytest.raises(ValidationFailed, match="mode"):
        services.ingestion.run(request)


# -- directory ingest with a sidecar ------------------------------------------------------------


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("Alpha file about rivers and their deltas.", encoding="utf-8")
    (root / "b.md").write_text("# Beta\n\nBeta file about mountains and glaciers.", encoding="utf-8")
    (root / "sub" / "c.txt").write_text("Gamma file in a subdirectory, about deserts.", encoding="utf-8")
    (root / "binary.txt").write_bytes(bytes(random.Random(7).randrange(256) for _ in range(4096)) + b"\x00")
    (root / "empty.txt").write_bytes(b"")
    (root / "data.bin").write_bytes(b"\x01\x02\x03 not for us")
    (root / "badyear.txt").write_text("This file has a year that is not a number.", encoding="utf-8")
    (root / "noyear.txt").write_text("This file has no row in the sidecar.", encoding="utf-8")
    (root / ".hidden.txt").write_text("Hidden files are ignored.", encoding="utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("A file outside the corpus root.", encoding="utf-8")
    os.symlink(outside, root / "link.txt")
    with (root / "metadata.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["file", "year"])
        writer.writerows([
            ["a.txt", "1901"], ["b.md", " 1902 "], ["sub/c.txt", "1903"], ["binary.txt", "1904"],
            ["empty.txt", "1905"], ["data.bin", "1906"], ["badyear.txt", "about 1900"], ["link.txt", "1907"],
        ])
    return root


def _by_title(result) -> dict[str, dict]:
    return {item["title"]: item for item in result.items}


def test_directory_ingest_with_sidecar_and_bad_files(services, collection, corpus: Path):
    services.collections.add_schema_fields(collection, YEAR_REQUIRED)
    request = directory_request(collection, str(corpus), settings=services.settings, recursive=True)
    result = services.ingestion.run(request)
    items = _by_title(result)
    assert result.status == "partial"
    assert set(items) == {"a.txt", "b.md", "sub/c.txt", "binary.txt", "empty.txt", "data.bin", "badyear.txt",
                          "noyear.txt", "link.txt"}
    assert {t: i["status"] for t, i in items.items()} == {
        "a.txt": "ingested", "b.md": "ingested", "sub/c.txt": "ingested",
        "binary.txt": "failed", "empty.txt": "failed", "data.bin": "skipped", "link.txt": "skipped",
        "badyear.txt": "failed", "noyear.txt": "failed",
    }
    assert "binary file" in items["binary.txt"]["reason"]
    assert "empty" in items["empty.txt"]["reason"]
    assert "unsupported file type .bin" in items["data.bin"]["reason"]
    assert "points outside" in items["link.txt"]["reason"]
    assert "'year' must be an integer, got 'about 1900'" in items["badyear.txt"]["reason"]
    assert "'year' is required" in items["noyear.txt"]["reason"]
    assert result.progress["files_total"] == result.progress["files_done"] == 9
    assert (result.progress["ingested"], result.progress["skipped"], result.progress["failed"]) == (3, 2, 4)

    # Nothing partial: only the good files have rows; each of them is complete.
    assert titles_in(services, collection) == {"a.txt", "b.md", "sub/c.txt"}
    for title, item in items.items():
        if item["status"] in ("skipped", "failed"):
            assert doc_id(services, collection, title) is None
            assert scalar(services, "SELECT count(*) FROM documents WHERE source = :s",
                          s=str(corpus / title)) == 0
    rows = sql(
        services,
        "SELECT d.title, d.metadata, jsonb_typeof(d.metadata -> 'year') AS kind, d.chunk_count, "
        "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS real_chunks "
        "FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
        "JOIN collections c ON c.id = cd.collection_id WHERE c.name = :c ORDER BY d.title",
        c=collection,
    )
    assert [(r.title, r.metadata["year"], r.kind) for r in rows] == [
        ("a.txt", 1901, "number"), ("b.md", 1902, "number"), ("sub/c.txt", 1903, "number"),
    ]
    assert all(r.chunk_count == r.real_chunks >= 1 for r in rows)
    b_md = services.documents.get(doc_id(services, collection, "b.md"))
    assert b_md.chunks[0].heading_path == ["Beta"]


def test_directory_non_recursive_skips_subdirectories(services, corpus: Path):
    items = directory_request("unused", str(corpus), settings=services.settings, recursive=False).items
    titles = [i.title for i in items]
    assert "sub/c.txt" not in titles and "sub" not in titles
    assert "a.txt" in titles and "metadata.csv" not in titles and ".hidden.txt" not in titles
    recursive = [i.title for i in directory_request("unused", str(corpus), settings=services.settings).items]
    assert set(recursive) - set(titles) == {"sub/c.txt"}


def test_directory_include_exclude_globs(services, corpus: Path):
    def titles(**kw) -> list[str]:
        return [i.title for i in directory_request("unused", str(corpus), settings=services.settings, **kw).items]

    assert titles(include=["*.md"]) == ["b.md"]
    assert titles(include=["sub/*"]) == ["sub/c.txt"]
    assert titles(include=["*.txt"], exclude=["b*", "empty.txt", "link.txt"]) == ["a.txt", "noyear.txt", "sub/c.txt"]
    assert titles(include=["*.txt"], exclude=["sub/*"], recursive=False) == [
        "a.txt", "badyear.txt", "binary.txt", "empty.txt", "link.txt", "noyear.txt"]
    sidecar_meta = {i.title: i.metadata for i in
                    directory_request("unused", str(corpus), settings=services.settings, include=["*.txt"],
                                      metadata={"source": "batch", "year": "1800"}).items}
    assert sidecar_meta["a.txt"] == {"source": "batch", "year": "1901"}  # the sidecar wins over the form
    assert sidecar_meta["noyear.txt"] == {"source": "batch", "year": "1800"}


def test_describe_directory_and_bad_paths(services, corpus: Path, tmp_path: Path):
    summary = describe_directory(str(corpus), settings=services.settings)
    assert summary["matched"] == 9 and summary["supported"] == 7 and summary["has_sidecar"] is True
    with pytest.raises(ValidationFailed, match="not a directory"):
        directory_request("unused", str(tmp_path / "missing"), settings=services.settings)
    with pytest.raises(ValidationFailed, match="Give a directory"):
        directory_request("unused", "  ", settings=services.settings)
    confined = services.settings.model_copy(update={"allowed_roots": [tmp_path / "elsewhere"]})
    with pytest.raises(ValidationFailed, match="outside the allowed directories"):
        directory_request("unused", str(corpus), settings=confined)
    inside = services.settings.model_copy(update={"allowed_roots": [tmp_path]})
    assert len(directory_request("unused", str(corpus), settings=inside).items) == 9


def test_directory_with_no_matching_files_is_refused(services, collection, corpus: Path):
    request = directory_request(collection, str(corpus), settings=services.settings, include=["*.pdf"])
    assert request.items == []
    with pytest.raises(ValidationFailed, match="Nothing to ingest"):
        services.ingestion.run(request)
