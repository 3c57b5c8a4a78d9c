"""Item 5 of the analyst's day (real browser): the canvas draws at most 60 entities by a stated ranking,
with "show more", a colour legend and generic concepts folded; a click on a node expands it; "how does X
relate to Y" lists distinct routes and draws them."""

from __future__ import annotations

import pytest

from tests.browser.helpers import idle
from tests.utils.stories import make_hub

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hub(services):
    name = make_hub(services)
    yield name
    services.deletion.delete_collection(name)


def _click_node(page, key: str) -> None:
    """What the canvas sends when a node is clicked (vis-network's selectNode: Streamlit.setComponentValue)."""
    frame = [f for f in page.frames if "streamlit_agraph" in f.url][-1]
    frame.evaluate("key => window.parent.postMessage({isStreamlitMessage: true, type: 'streamlit:setComponentValue', "
                   "value: key, dataType: 'json'}, '*')", key)


def test_canvas_is_capped_ranked_legended_and_expands_on_click(app_url, page, hub):
    page.goto(f"{app_url}/graph?collection={hub}&entity=acme corporation")
    page.get_by_text("Showing 60 of 77 entities").wait_for(timeout=180_000)
    assert page.get_by_text("fewest hops").first.is_visible()  # the ranking is stated
    page.get_by_text("Folded 1 generic concept(s): conglomerate (5 of 10 documents)").wait_for()
    for label in ("organisation", "person", "current fact", "superseded fact"):
        page.get_by_text(label, exact=True).first.wait_for()
    page.get_by_role("button", name="Show 16 more").click()
    page.get_by_text("Showing 76 of 77 entities").wait_for()
    idle(page)
    page.frame_locator("iframe[title='streamlit_agraph.agraph'] >> nth=-1").locator("canvas").first.wait_for()

    _click_node(page, "alice walker")
    page.get_by_text("Facts of Alice Walker").wait_for()
    page.get_by_text("Showing 77 of 78 entities").wait_for()  # Globex, one hop from the expanded node


def test_relate_lists_distinct_routes_and_draws_them(app_url, page, hub):
    page.goto(f"{app_url}/graph?collection={hub}&entity=alice walker")
    page.get_by_role("tab", name="How does X relate to Y?").click()
    page.get_by_label("Relate to", exact=True).fill("Globex")
    page.get_by_label("Relate to", exact=True).press("Enter")
    page.get_by_text("1 distinct route(s), shortest first.").wait_for(timeout=180_000)
    assert page.get_by_text("Route 1").count() == 1 and page.get_by_text("Route 2").count() == 0
    frame = page.frame_locator("iframe[title='st.iframe'] >> nth=-1")
    svg = frame.locator(".rag-mermaid svg")
    svg.wait_for(timeout=180_000)
    assert "Globex" in svg.text_content()
