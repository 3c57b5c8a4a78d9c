"""The graph canvas draws nodes and the Mermaid tab renders an SVG with no internet (real browser).

The page's only network peer is the app on 127.0.0.1: any request elsewhere
(a CDN) is recorded and fails the test.
"""

from __future__ import annotations

import pytest

from tests.utils.stories import make_acme

pytestmark = pytest.mark.browser


@pytest.fixture
def acme(services):
    name = make_acme(services)
    yield name
    services.deletion.delete_collection(name)


def test_canvas_and_offline_mermaid(app_url, page, acme, tmp_path):
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("http://127.0.0.1", "data:", "blob:", "about:")) else None)
    page.goto(f"{app_url}/graph?collection={acme}&entity=acme")
    page.get_by_text("Showing 4 of 4 entities and 3 of 3 facts").wait_for(timeout=180_000)

    canvas_frame = page.frame_locator("iframe[title='streamlit_agraph.agraph']")
    canvas_frame.locator("canvas").first.wait_for(timeout=180_000)
    page.screenshot(path=str(tmp_path / "canvas.png"), full_page=True)

    page.get_by_role("tab", name="Mermaid").click()
    mermaid_frame = page.frame_locator("iframe[title='st.iframe']").first
    svg = mermaid_frame.locator(".rag-mermaid svg")
    svg.wait_for(timeout=180_000)
    text = svg.text_content()
    assert "Alice" in text and "Carol" in text and "ceo of" in text
    # Drawn at its real size although the tab was hidden when the frame loaded (not an empty 16x16 layout).
    assert svg.get_attribute("viewBox") != "-8 -8 16 16"
    box = svg.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50, box
    page.screenshot(path=str(tmp_path / "mermaid.png"), full_page=True)
    assert not outside, f"requests left the machine: {outside[:5]}"
