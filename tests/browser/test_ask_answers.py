"""Item 8 of the analyst's day (real browser): citations numbered in order of first use, each a link that
opens the cited passage highlighted in its document, in the same tab (Ctrl-click: a new one); sources with
title, key metadata and the quoted sentence; diagnostics as a table."""

from __future__ import annotations

import re
import uuid

import pytest

from services.ingest.requests import text_request
from tests.browser.helpers import idle

pytestmark = pytest.mark.browser
DOCS = [("Founding", "Ivana Petrova founded Zorbex in 2001. Zorbex designs industrial sensors.", 2001),
        ("Hobby", "Ivana Petrova grows tomatoes in a greenhouse near Oslo every summer.", 2015),
        ("Weather", "Heavy rain fell on the coast of Portugal during the autumn storms.", 2016)]


@pytest.fixture
def zorbex(services):
    name = f"zorbex-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Ask fixture.", metadata_schema={"custom": {"year": "integer"}})
    for title, text, year in DOCS:
        services.ingestion.run(text_request(name, title=title, text=text, metadata={"year": year}))
    yield name
    services.deletion.delete_collection(name)


def test_answers_you_can_check(app_url, page, zorbex):
    page.goto(f"{app_url}/ask?collection={zorbex}")
    box = page.get_by_placeholder("Ask a question, or say “remember …”")
    box.fill("Who founded Zorbex, and what does Ivana Petrova grow?")
    box.press("Enter")
    page.get_by_text("Extracted from your documents").first.wait_for(timeout=180_000)
    idle(page)
    links = page.locator("a.rag-cite")
    numbers = [int(re.sub(r"\D", "", t)) for t in links.all_inner_texts()]
    assert numbers and numbers[0] == 1 and sorted(set(numbers)) == list(range(1, max(numbers) + 1))
    first_use = list(dict.fromkeys(numbers))
    assert first_use == sorted(first_use), numbers  # [1] before [2] before [3] in the text
    href = links.first.get_attribute("href")
    assert re.fullmatch(r"documents\?doc=\d+&chunk=\d+", href), href

    sources = page.get_by_test_id("stExpanderDetails").filter(has_text="[1]").first
    assert "year" in sources.inner_text()
    assert page.locator("blockquote").count() >= 1 and "Ivana Petrova" in page.locator("blockquote").first.inner_text()

    page.get_by_text("Diagnostics").first.click()
    page.get_by_text("Candidates from semantic search").wait_for()
    assert page.get_by_test_id("stJson").count() == 0

    # A citation opens its passage in this tab, in the same session (issue 34, item 4): at the top of the view,
    # highlighted, above the documents table.
    links.first.click()
    page.wait_for_url(re.compile(r"/documents\?doc=\d+&chunk=\d+"))
    assert len(page.context.pages) == 1
    _passage_on_top(page)
    # Back to Ask: the conversation and its collection are still there.
    page.get_by_role("link", name="Back to the conversation").click()
    page.get_by_text("Extracted from your documents").first.wait_for()
    assert page.get_by_test_id("stChatMessage").filter(has_text="Who founded Zorbex").count() == 1
    assert zorbex in page.get_by_test_id("stMultiSelect").first.inner_text()
    # Ctrl-click: the passage in a new tab, as a plain link did before.
    idle(page)
    with page.context.expect_page() as opened:
        page.locator("a.rag-cite").first.click(modifiers=["Control"])
    passage = opened.value
    passage.set_default_timeout(180_000)
    _passage_on_top(passage)
    passage.close()


def _passage_on_top(passage) -> None:
    """The cited passage highlighted inside the first screen, above the documents table, and marked again in
    the whole document."""
    passage.get_by_text("The cited passage").first.wait_for()
    box = passage.locator(".rag-chunk mark").first
    box.wait_for()
    top = box.bounding_box()
    assert top is not None and top["y"] + top["height"] <= passage.viewport_size["height"], top
    table = passage.get_by_test_id("stDataFrame").first
    table.wait_for()
    assert table.bounding_box()["y"] > top["y"]
    passage.locator(".rag-document mark").first.wait_for()  # highlighted in the whole document too
