"""A search hit next to a flowchart shows the flowchart, redrawn as Mermaid (AppTest)."""

from __future__ import annotations

import uuid

import pytest

from services.ingest.requests import files_request
from tests.utils.app import open_page


@pytest.fixture
def expenses(services, shared_data):
    name = f"policy-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Expense policy with its flowchart.")
    data = (shared_data / "flowchart-docx" / "expense-reimbursement-policy.docx").read_bytes()
    services.ingestion.run(files_request(name, [("expense-policy.docx", data)], settings=services.settings))
    yield name
    services.deletion.delete_collection(name)


def test_search_hit_shows_its_flowchart(expenses):
    at = open_page("search")
    at.text_input(key="search.query").set_value("manager approves the claim, confirming the expense was necessary")
    at.multiselect(key="search.scope").set_value([expenses])
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["search.response"].hits[0].chunk_metadata.get("associated_diagram_id")
    sources = "\n".join(c.value for c in at.code)
    assert sources.startswith("flowchart TD") and '{"Manager approves?"}' in sources
    assert any("Flowchart 1 of" in c.value for c in at.caption)
