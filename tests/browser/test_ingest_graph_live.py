"""The Ingest page's graph section follows a running job (real browser; issue 34, item 5)."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.helpers import idle
from tests.utils.ingest import ingest_text

pytestmark = pytest.mark.browser


def test_graph_section_updates_while_a_job_runs(app_url, page, services, collection):
    """While a job runs into the collection, documents stored by it show in the graph section without a
    click (before, the section was drawn once and stayed at "no documents" until the job ended)."""
    coll = collection  # the shared fixture's fresh collection
    coll_id = services.collections.get(coll).id
    # A job that runs until this test finishes it: the page follows it however fast the machine is.
    held = services.jobs.start(kind="ingest:text", key=f"held-{uuid.uuid4().hex}", collection_id=coll_id,
                               params={"collection": coll})
    try:
        page.goto(f"{app_url}/ingest?collection={coll}")
        section = page.get_by_test_id("stCaptionContainer").filter(has_text=f"{coll}:")
        section.filter(has_text="no documents").wait_for()
        idle(page)
        ingest_text(services, coll, "Herons", "Herons wade in shallow water near Lisbon and wait for fish.")
        section.filter(has_text="1 ").first.wait_for(timeout=120_000)
        assert services.jobs.get(held).status == "running"
    finally:
        services.jobs.finish(held, status="done")
