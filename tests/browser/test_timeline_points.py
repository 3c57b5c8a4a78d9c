"""Item 10 of the analyst's day (real browser): a fact with no known end is drawn as a point (a statement on
a date); only facts that hold one value at a time are bars, and the legend says which is which."""

from __future__ import annotations

import pytest

from services.ingest.requests import text_request
from tests.utils.stories import make_acme

pytestmark = pytest.mark.browser


@pytest.fixture
def acme(services):
    name = make_acme(services)
    services.ingestion.run(text_request(name, title="Acme 2022", text="Acme opened a factory in Lyon.",
                                        metadata={"date": "2022-05-01"}))
    yield name
    services.deletion.delete_collection(name)


def test_statements_are_points_and_spans_are_bars(app_url, page, acme):
    page.goto(f"{app_url}/timeline?collection={acme}")
    page.get_by_label("Entity or query").fill("Acme")
    page.get_by_label("Entity or query").press("Enter")
    chart = page.get_by_test_id("stPlotlyChart").first
    chart.wait_for(timeout=180_000)
    page.locator(".legendtext").first.wait_for()
    legend = [(t or "").strip() for t in page.locator(".legendtext").all_text_contents()]  # SVG text: no innerText
    assert any(t.startswith("statement on a date") for t in legend), legend
    assert any(t.startswith("ended or superseded") for t in legend), legend
    assert any(t.startswith("current, one at a time") for t in legend), legend
    # The statement is a marker (a point), not a bar running to today.
    assert page.locator(".scatterlayer .trace .points path").count() >= 1
    page.get_by_text("Points are statements made on a date").wait_for()
