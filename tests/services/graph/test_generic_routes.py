""""How does X relate to Y" takes no route through a concept the canvas folds as generic (issue 34, item 5)."""

from __future__ import annotations

import pytest

from services.ingest.requests import text_request
from tests.utils.stories import make_hub


@pytest.fixture(scope="module")
def hub(services):
    name = make_hub(services, documents=3, people_per_document=2)  # "conglomerate" in 3 of 6 documents
    services.ingestion.run(text_request(name, title="Filing 9",
                                        text="Globex Industries is a conglomerate, the ninth filing says."))
    yield services.collections.get(name)
    services.deletion.delete_collection(name)


def test_no_route_through_a_generic_concept(services, hub):
    frequencies = services.graph.document_frequencies(hub.id, ["conglomerate"])
    assert frequencies["conglomerate"] == 4 and hub.document_count == 7  # generic: the canvas folds it
    through = services.graph.paths(hub.id, "acme corporation", "globex industries")
    assert [[f.target_key for f in p] for p in through] == [["conglomerate", "conglomerate"]]  # the fixture
    assert services.graph.paths(hub.id, "acme corporation", "globex industries", documents=hub.document_count) == []
    # A route that ends at the concept is still one: it is what was asked.
    (direct,) = services.graph.paths(hub.id, "acme corporation", "conglomerate", documents=hub.document_count)
    assert [f.target_key for f in direct] == ["conglomerate"]


def test_the_lookup_used_by_the_cli_and_mcp_avoids_it_too(services, hub):
    assert services.lookup.paths(hub.name, "Acme Corporation", "Globex Industries")["paths"] == []
