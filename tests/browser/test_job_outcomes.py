"""Item 2 of the analyst's day (real browser): a job where every file failed ends red with every reason
readable and the files still picked; a mixed one ends amber, and one click retries its failed files."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.helpers import alert, idle, wait_shown

pytestmark = pytest.mark.browser
YEAR_REQUIRED = {"custom": {"year": {"type": "integer", "required": True}}}


@pytest.fixture
def coll(services):
    name = f"outcomes-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Job outcomes.", metadata_schema=YEAR_REQUIRED)
    yield name
    services.deletion.delete_collection(name)


def test_everything_failed_is_red_with_reasons_and_keeps_the_files(app_url, page, coll, tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "broken.docx").write_bytes(b"PK not really a zip")
    page.goto(f"{app_url}/ingest?collection={coll}")
    page.get_by_label("Metadata for these documents (JSON object)").fill('{"year": 1999}')
    page.get_by_label("Metadata for these documents (JSON object)").press("Enter")
    idle(page)  # the rerun that commits the box redraws the uploader: files set before it would be lost
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type=file]").set_input_files([str(tmp_path / "empty.txt"), str(tmp_path / "broken.docx")])
    page.get_by_text("broken.docx").first.wait_for()
    page.get_by_role("button", name="Ingest files").click()
    failed = alert(page, "Error").filter(has_text="Failed: nothing was stored")
    failed.wait_for(timeout=180_000)
    idle(page)
    wait_shown(page, "not a valid .docx (the file is corrupt, truncated or not a Word file).")
    wait_shown(page, "empty.txt (failed): the file is empty.")  # the file named once, then why
    # The picker still holds both files, to fix and try again; and a retry is one click away.
    uploader = page.get_by_test_id("stFileUploader")
    assert "empty.txt" in uploader.inner_text() and "broken.docx" in uploader.inner_text()
    assert page.get_by_role("button", name="Retry the 2 failed file(s)").is_visible()


def test_a_mixed_job_is_amber_and_its_failed_files_retry_in_one_click(app_url, page, services, coll, tmp_path):
    (tmp_path / "dated.txt").write_text("A dated memo about canal tolls and lock keepers.", encoding="utf-8")
    (tmp_path / "undated.txt").write_text("An undated memo about lighthouse lamps.", encoding="utf-8")
    (tmp_path / "metadata.csv").write_text("file,year\ndated.txt,1901\n", encoding="utf-8")
    page.goto(f"{app_url}/ingest?collection={coll}")
    page.get_by_role("tab", name="Directory on the server").click()
    page.get_by_label("Directory path on the server").fill(str(tmp_path))
    page.get_by_label("Include globs (comma-separated)").fill("*.txt")
    page.get_by_label("Include globs (comma-separated)").press("Enter")
    idle(page)
    page.get_by_role("button", name="Ingest directory").click()
    partial = alert(page, "Warning").filter(has_text="Finished with failures")
    partial.wait_for(timeout=180_000)
    wait_shown(page, "Metadata field 'year' is required by this collection's schema.")

    page.get_by_label("Metadata for these documents (JSON object)").fill('{"year": 1902}')
    page.get_by_label("Metadata for these documents (JSON object)").press("Enter")
    idle(page)
    page.get_by_role("button", name="Retry the 1 failed file(s)").click()
    alert(page, "Success").filter(has_text="Finished: 1 stored").wait_for(timeout=180_000)
    stored = {d.title: d.metadata.get("year") for d in services.documents.list(
        collection_id=services.collections.get(coll).id)}
    assert stored == {"dated.txt": 1901, "undated.txt": 1902}
