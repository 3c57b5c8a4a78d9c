"""A user creates a collection, uploads a file, and finds it in search results (real browser)."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.helpers import idle

pytestmark = pytest.mark.browser


def test_create_upload_and_search(app_url, page, services, tmp_path):
    name = f"browser-{uuid.uuid4().hex[:8]}"
    page.goto(app_url + "/collections")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Description (required)", exact=True).fill("Made by the browser test.")
    page.get_by_role("button", name="Create").click()
    page.get_by_text(f"Created collection '{name}'").wait_for()

    note = tmp_path / "beekeeping.md"
    note.write_text("# Beekeeping\n\nA healthy hive needs a laying queen, capped brood and stores of honey "
                    "before winter. Inspect frames every week in spring.\n", encoding="utf-8")
    page.goto(app_url + "/ingest")
    page.get_by_label("Collection", exact=True).click()
    page.get_by_role("option", name=name).click()
    idle(page)  # files set on the uploader while a rerun redraws it would be lost
    page.get_by_role("tab", name="Upload files").click()
    page.locator("input[type=file]").set_input_files(str(note))
    page.get_by_text("beekeeping.md").first.wait_for()
    page.get_by_role("button", name="Ingest files").click()
    page.get_by_test_id("stAlertContentSuccess").filter(has_text="Finished: 1 stored").wait_for(timeout=180_000)

    page.goto(app_url + "/search")
    page.get_by_label("Query", exact=True).fill("what does a bee colony need before the cold season")
    page.get_by_role("button", name="Search").click()
    result = page.get_by_text("beekeeping.md · 1 passage")
    result.wait_for()
    assert page.locator(".rag-chunk h1").first.inner_text() == "Beekeeping"  # the chunk's Markdown, rendered
    page.screenshot(path=str(tmp_path / "search.png"), full_page=True)
    services.deletion.delete_collection(name)
