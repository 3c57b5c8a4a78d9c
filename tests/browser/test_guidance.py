"""Item 11 of the analyst's day (real browser): a new server never shows Streamlit's raw page list; Home
leads with what to do; next-step links after an ingest; pages open on the collection last used; the Memory
page says when memory is not used and shows the best match against its threshold."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.conftest import serve_app
from tests.browser.helpers import alert, idle

pytestmark = pytest.mark.browser


def test_first_seconds_of_a_new_server_and_home(services, data_dir, browser, tmp_path):
    for url in serve_app(data_dir, tmp_path / "streamlit.log"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.set_default_timeout(180_000)
            page.goto(url)
            for _ in range(12):  # the first seconds, while the stores and the model start
                assert page.get_by_test_id("stSidebarNav").count() == 0
                page.wait_for_timeout(500)
            page.get_by_role("heading", name="RAG Memory Workbench").wait_for()
            idle(page)
            assert page.get_by_test_id("stSidebarNav").count() == 0
            main = page.get_by_test_id("stMain").inner_text()
            assert main.index("1. Create a collection") < main.index("Stores and model")  # what to do, first
            assert "falkordb.sock" not in main and "/pg" not in main  # socket paths folded away
        finally:
            context.close()


@pytest.fixture
def latest(services):
    name = f"zz-latest-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="The collection used last.")
    services.collections.create(name="aa-" + name, description="Alphabetically first.")
    yield name
    services.deletion.delete_collection(name)
    services.deletion.delete_collection("aa-" + name)


def _chosen(page) -> str:
    """The first selectbox's shown value (Streamlit draws it in an input, or as text in older versions)."""
    box = page.get_by_test_id("stSelectbox").first
    inputs = box.locator("input")
    return (inputs.first.input_value() if inputs.count() else "") + " " + box.inner_text()


def test_next_steps_and_the_collection_last_used(app_url, page, latest):
    page.goto(f"{app_url}/ingest?collection={latest}")
    page.get_by_role("textbox", name="Title", exact=True).fill("Canal note")
    page.get_by_role("textbox", name="Text", exact=True).fill("The canal opened in 1825 and carried grain to the coast.")
    page.get_by_role("button", name="Ingest text").click()
    alert(page, "Success").filter(has_text="Finished").wait_for(timeout=180_000)
    page.get_by_role("link", name="Search it").wait_for()
    page.get_by_role("link", name="Explore its graph").click()
    page.get_by_role("heading", name="Graph").wait_for()
    idle(page)
    # Not the alphabetically first collection: the one just used.
    assert latest in _chosen(page) and "aa-" + latest not in _chosen(page)
    page.get_by_role("link", name="Timeline").click()
    page.get_by_role("heading", name="Timeline").wait_for()
    idle(page)
    assert latest in _chosen(page) and "aa-" + latest not in _chosen(page)


def test_memory_says_when_it_is_not_used_and_scores_against_the_threshold(app_url, page, services):
    fact = services.memory.remember(f"I grow tomatoes in a greenhouse {uuid.uuid4().hex[:4]}")
    try:
        page.goto(f"{app_url}/memory")
        page.get_by_text("Memory is not used now: no LLM is configured").wait_for(timeout=180_000)
        page.get_by_label("Test query").fill("what do I grow in my greenhouse?")
        page.get_by_label("Test query").press("Enter")
        page.get_by_text("against the threshold 0.80").wait_for()
    finally:
        services.memory.forget(fact.id)
