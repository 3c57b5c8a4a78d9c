"""In a real browser: a search hit shows its flowchart rendered as an SVG by the bundled mermaid.js, drawn
whole (fitted to its frame, with zoom, pan and a full-size view) and once per result list (item 6)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from services.ingest.requests import files_request
from tests.browser.helpers import idle

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"
QUERY = "manager approves the claim, confirming the expense was necessary"


@pytest.fixture(scope="module")
def policy(services, shared_data):
    name = f"policy-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Expense policy with its flowchart.")
    data = (shared_data / "flowchart-docx" / "expense-reimbursement-policy.docx").read_bytes()
    services.ingestion.run(files_request(name, [("expense-policy.docx", data)], settings=services.settings))
    yield name
    services.deletion.delete_collection(name)


def _search(page, app_url: str, collection: str) -> None:
    page.goto(f"{app_url}/search?collection={collection}")
    page.get_by_label("Query", exact=True).fill(QUERY)
    page.get_by_role("button", name="Search").click()
    page.get_by_text("expense-policy.docx").first.wait_for(timeout=180_000)


def test_search_hit_with_rendered_flowchart(app_url, page, policy):
    _search(page, app_url, policy)
    frame = page.frame_locator("iframe[title='st.iframe']").first
    svg = frame.locator(".rag-mermaid svg")
    svg.wait_for(timeout=180_000)
    text = svg.text_content()
    assert "Manager approves?" in text and "Yes" in text and "No" in text
    if os.environ.get("RAG_SCREENSHOTS"):  # refresh docs/ screenshots on demand
        page.set_viewport_size({"width": 1400, "height": 2300})  # Streamlit scrolls inside its own container
        svg.wait_for()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(DOCS / "search-hit-flowchart.png"))


def test_the_flowchart_is_drawn_whole_once_per_result_list(app_url, page, policy):
    _search(page, app_url, policy)
    frame_element = page.locator("iframe[title='st.iframe']").first
    svg = page.frame_locator("iframe[title='st.iframe']").first.locator(".rag-mermaid svg")
    svg.wait_for(timeout=180_000)
    idle(page)
    view = page.frame_locator("iframe[title='st.iframe']").first.locator(".rag-view")
    # The frame grows to its content (the fitted diagram): wait until it has.
    page.wait_for_function("f => f.getBoundingClientRect().height > 300 && "
                           "f.contentDocument.body.scrollHeight <= f.getBoundingClientRect().height + 2",
                           arg=frame_element.element_handle())
    assert page.locator("iframe[title='st.iframe']").count() == 1  # one diagram, however many hits link to it
    outer, drawn = view.bounding_box(), svg.bounding_box()
    assert drawn["height"] > 100 and drawn["width"] > 100, drawn
    # Every edge of the drawing is inside the frame: nothing is cut off.
    assert drawn["y"] >= outer["y"] - 1 and drawn["y"] + drawn["height"] <= outer["y"] + outer["height"] + 1, (outer, drawn)
    assert drawn["x"] >= outer["x"] - 1 and drawn["x"] + drawn["width"] <= outer["x"] + outer["width"] + 1, (outer, drawn)
    controls = page.frame_locator("iframe[title='st.iframe']").first
    for name in ("Fit", "Fit width", "+", "Full size ↗"):
        assert controls.get_by_role("button", name=name, exact=True).count() == 1, name
