"""AppTest checks of what the browser tests cannot read off a canvas grid: the schema fields as columns."""

from __future__ import annotations

import uuid

import pytest

from services.ingest.requests import text_request
from tests.utils.app import open_page


@pytest.fixture
def dated(services):
    name = f"ui-dated-{uuid.uuid4().hex[:6]}"
    services.collections.create(name=name, description="Dated notes.",
                                metadata_schema={"custom": {"year": "integer", "party": "string"}})
    services.ingestion.run(text_request(name, title="Note", text="A note on tariffs.", metadata={"year": 1846}))
    yield name
    services.deletion.delete_collection(name)


def test_documents_list_has_the_schema_fields_as_columns(dated):
    at = open_page("documents", query={"collection": dated})
    assert not at.exception
    frame = at.dataframe[0].value
    assert list(frame.columns[:3]) == ["title", "year", "party"] and frame.iloc[0]["year"] == 1846
