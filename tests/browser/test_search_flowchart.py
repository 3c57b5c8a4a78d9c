"""In a real browser: a search hit shows its flowchart rendered as an SVG by the bundled mermaid.js."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from services.ingest.requests import files_request

pytestmark = pytest.mark.browser
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_search_hit_with_rendered_flowchart(app_url, page, services, shared_data):
    name = f"policy-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Expense policy with its flowchart.")
    data = (shared_data / "flowchart-docx" / "expense-reimbursement-policy.docx").read_bytes()
    services.ingestion.run(files_request(name, [("expense-policy.docx", data)], settings=services.settings))
    try:
        page.goto(app_url + "/search")
        page.get_by_label("Query", exact=True).fill("manager approves the claim, confirming the expense was necessary")
        page.get_by_role("button", name="Search").click()
        page.get_by_text("1. expense-policy.docx").wait_for(timeout=90_000)
        frame = page.frame_locator("iframe[title='st.iframe']").first
        svg = frame.locator(".rag-mermaid svg")
        svg.wait_for(timeout=60_000)
        text = svg.text_content()
        assert "Manager approves?" in text and "Yes" in text and "No" in text
        if os.environ.get("RAG_SCREENSHOTS"):  # refresh docs/ screenshots on demand
            page.set_viewport_size({"width": 1400, "height": 2300})  # Streamlit scrolls inside its own container
            svg.wait_for()
            page.wait_for_timeout(1500)
            page.screenshot(path=str(DOCS / "search-hit-flowchart.png"))
    finally:
        services.collections.delete(name)
