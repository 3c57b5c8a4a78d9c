"""Item 7 of the analyst's day (real browser): an ingest shows each file's stage, chunks and time, and its
outcome with a human duration, instead of one line of internal counters."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.browser.helpers import alert, idle, wait_shown

pytestmark = pytest.mark.browser


@pytest.fixture
def coll(services):
    name = f"progress-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Progress per file.")
    yield name
    services.deletion.delete_collection(name)


def test_progress_per_file_with_human_times(app_url, page, coll, tmp_path):
    (tmp_path / "herons.md").write_text("# Herons\n\n" + "Herons wade in shallow water and wait. " * 60, encoding="utf-8")
    (tmp_path / "kites.txt").write_text("Kites fly best in a steady breeze over open fields. " * 40, encoding="utf-8")
    (tmp_path / "blank.txt").write_bytes(b"")
    page.goto(f"{app_url}/ingest?collection={coll}")
    page.get_by_role("tab", name="Upload files").wait_for()
    idle(page)  # files set on the uploader while a rerun redraws it would be lost
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type=file]").set_input_files([str(tmp_path / n) for n in ("herons.md", "kites.txt", "blank.txt")])
    page.get_by_text("blank.txt").first.wait_for()
    page.get_by_role("button", name="Ingest files").click()
    verdict = alert(page, "Warning").filter(has_text="Finished with failures")
    verdict.wait_for(timeout=180_000)
    idle(page)
    summary = verdict.inner_text()
    assert "2 stored, 1 failed" in summary and re.search(r"took \d+(\.\d)? s\b|took \d+ min \d\d s", summary), summary
    # Each file has its own row (stage, chunks, time, reason); the reason of the failure reads in full below.
    files = page.get_by_test_id("stDataFrame").first
    files.wait_for()
    wait_shown(page, "blank.txt (failed): the file is empty.")  # the file named once, then why
    # No run of internal counters any more.
    body = page.get_by_test_id("stMain").inner_text()
    assert "unchanged 0" not in body and "chunks embedded 0/" not in body and "graph failures" not in body
