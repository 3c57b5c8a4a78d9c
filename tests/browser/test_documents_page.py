"""Items 3 and 9 of the analyst's day (real browser): a failed metadata save is in view; documents show
their schema fields, a row click opens one, chunks have previews, and find-in-document highlights."""

from __future__ import annotations

import uuid

import pytest

from services.ingest.requests import text_request
from tests.browser.helpers import alert, idle

pytestmark = pytest.mark.browser
SCHEMA = {"custom": {"year": {"type": "integer"}, "party": {"type": "string"}}}
TEXTS = {
    "Canal report": ("The canal company reported record tolls. " * 40 + "\n\nLock keepers asked for higher wages. ") * 3,
    "Lighthouse report": "The lighthouse lamps burned whale oil until kerosene replaced it in the harbour towns.",
}


@pytest.fixture(scope="module")
def reports(services):
    name = f"reports-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Two reports.", metadata_schema=SCHEMA)
    ids = {}
    for (title, text), (year, party) in zip(TEXTS.items(), ((1831, "Whig"), (1845, "Democratic"))):
        result = services.ingestion.run(text_request(name, title=title, text=text,
                                                     metadata={"year": year, "party": party}))
        ids[title] = result.items[0]["document_id"]
    yield name, ids
    services.deletion.delete_collection(name)


def test_a_failed_metadata_save_stays_in_view(app_url, page, reports):
    name, ids = reports
    page.goto(f"{app_url}/documents?collection={name}&doc={ids['Lighthouse report']}")
    page.get_by_role("tab", name="Metadata").click()
    idle(page)
    page.get_by_label("Set fields (JSON, merged into the metadata)").fill('{"year": "eighteen forty"}')
    page.get_by_role("button", name="Update metadata").click()
    error = alert(page, "Error").filter(has_text="must be an integer")
    error.first.wait_for()
    idle(page)
    assert error.first.is_visible()
    assert page.get_by_role("tab", name="Metadata").get_attribute("aria-selected") == "true"


def test_schema_fields_row_click_chunk_previews_and_find(app_url, page, reports):
    name, ids = reports
    page.goto(f"{app_url}/documents?collection={name}")
    table = page.get_by_test_id("stDataFrame").first
    table.wait_for()
    idle(page)
    # A row click opens the document (the grid draws on a canvas: click the second row's selection box).
    box = table.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 35 + 17)
    page.get_by_role("heading", name="Lighthouse report").wait_for()
    page.get_by_text("year 1845 · party Democratic").wait_for()  # the schema fields, where they are needed
    page.get_by_role("tab", name="Chunks").click()
    page.get_by_text("“The lighthouse lamps burned whale oil").first.wait_for()

    page.goto(f"{app_url}/documents?collection={name}&doc={ids['Canal report']}")
    page.get_by_label("Find in document", exact=True).fill("lock keepers")
    page.get_by_label("Find in document", exact=True).press("Enter")
    page.get_by_text("3 match(es) for “lock keepers”").wait_for()
    marks = page.locator(".rag-document mark")
    marks.nth(2).wait_for()  # the document's marks draw after the count above (a fresh clone under load saw 0)
    idle(page)
    assert marks.count() == 3
