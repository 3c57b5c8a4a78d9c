"""A 100 MB file, and a folder of bad files with a schema-breaking sidecar, through directory ingest.

The product behaviour for an oversize file: it is refused by ``max_file_bytes``
(50 MB by default) from its size on disk, before a byte is read, so a folder of
huge files costs no memory; the reason names its real size and the setting.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from services.ingest.requests import directory_request
from tests.reliability import corpus
from tests.reliability.conftest import assert_nothing_stored, stored_document

MB = 1024 * 1024


def _write_100mb(path: Path) -> None:
    line = b"All work and no play makes a very large text file. " * 20 + b"\n"
    with path.open("wb") as fh:
        for _ in range(100 * MB // len(line) + 1):
            fh.write(line)
    assert path.stat().st_size > 100 * MB


def test_a_100mb_text_file_is_refused_by_size_without_being_read(services, collection, since, tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    _write_100mb(folder / "huge.txt")
    tracemalloc.start()
    try:
        result = services.ingestion.run(directory_request(collection, str(folder), settings=services.settings))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    [item] = result.items
    assert result.status == "failed" and item["status"] == "failed"
    assert item["reason"] == "100.0 MB is over the 50 MB limit (max_file_bytes)."  # the item names the file
    assert peak < 10 * MB, f"peak {peak / MB:.1f} MB: the file was read"
    assert_nothing_stored(services, collection, ["huge.txt"], since)


def test_a_folder_of_bad_files_with_a_bad_sidecar(services, schema_collection, tmp_path):
    folder = tmp_path / "mixed"
    (folder / "sub").mkdir(parents=True)
    files = {
        "good.md": b"# Harbour\n\nThe pilot boat meets tankers at the outer buoy.",
        "wrong-year.md": b"# Ferry\n\nThe ferry crosses the sound every hour.",
        "sub/truncated.docx": corpus.good_docx()[:1500],
        "sub/bomb.docx": corpus.docx_zip_bomb(),
        "binary.txt": corpus.elf_bytes(),
        "empty.pdf": b"",
        "notes.bin": b"not a supported type",
    }
    for rel, data in files.items():
        (folder / rel).write_bytes(data)
    (folder / "metadata.csv").write_text(
        "file,year,reviewed\ngood.md,1999,true\nwrong-year.md,nineteen,true\n", encoding="utf-8")
    result = services.ingestion.run(directory_request(schema_collection, str(folder), settings=services.settings,
                                                      metadata={"year": 2001}))
    assert result.status == "partial"
    by_title = {i["title"]: i for i in result.items}
    assert set(by_title) == set(files)
    assert by_title["good.md"]["status"] == "ingested"
    assert by_title["wrong-year.md"]["status"] == "failed"
    assert "Metadata field 'year' must be an integer, got 'nineteen'" in by_title["wrong-year.md"]["reason"]
    for rel in ("sub/truncated.docx", "sub/bomb.docx", "binary.txt", "empty.pdf"):  # refused by the readers
        assert by_title[rel]["status"] == "failed" and by_title[rel]["reason"], by_title[rel]
    assert by_title["notes.bin"]["status"] == "skipped"  # not a type the directory ingest reads at all
    assert "unsupported file type .bin" in by_title["notes.bin"]["reason"]
    assert stored_document(services, schema_collection, "good.md").metadata == {"year": 1999, "reviewed": True}
    assert result.count("ingested") == 1  # the refused files left nothing
    with services.engine.connect() as conn:
        import sqlalchemy as sa

        titles = conn.execute(sa.text("SELECT cd.title FROM collection_documents cd JOIN collections c "
                                      "ON c.id = cd.collection_id WHERE c.name = :c"), {"c": schema_collection}).scalars()
        assert list(titles) == ["good.md"]
