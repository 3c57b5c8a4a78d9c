"""Graph and Timeline pages on a real graph: the Acme CEO story (AppTest)."""

from __future__ import annotations

import pytest

from services.graph.service import GraphService
from services.ingest.requests import text_request
from tests.utils.app import open_page
from tests.utils.stories import make_acme


@pytest.fixture(scope="module")
def acme(services):
    name = make_acme(services)
    yield name
    services.deletion.delete_collection(name)


def test_graph_page_filters_as_of_2020(acme):
    at = open_page("graph", query={"collection": acme, "entity": "acme"})
    assert not at.exception
    assert at.selectbox(key="graph.entity").value == "acme"
    assert any("Showing 4 of 4 entities and 3 of 3 facts" in c.value for c in at.caption)

    at.radio(key="graph.time").set_value("as of").run()
    import datetime as dt

    at.date_input(key="graph.asof").set_value(dt.date(2020, 6, 1)).run()
    assert not at.exception
    assert any("Showing 2 of 2 entities and 1 of 1 facts" in c.value for c in at.caption)
    facts = at.dataframe[0].value
    assert list(facts["subject"]) == ["Alice"] and list(facts["status"]) == ["superseded"]


def test_graph_page_mermaid_and_paths(acme):
    at = open_page("graph", query={"collection": acme, "entity": "acme"})
    mmd = next(d for d in at.get("download_button") if "Download .mmd" in str(d.proto.label))
    assert mmd is not None
    code = "\n".join(c.value for c in at.code)
    # the documents' dates, not dates the facts give: "stated" (the supersession's end is a date of the fact)
    assert code.startswith("flowchart LR") and "ceo of #40;stated 2019, until 2021#41;" in code \
        and "ceo of #40;stated 2023#41;" in code, code

    at.text_input(key="graph.other").set_value("carol").run()
    assert not at.exception
    assert any("Route 1" in m.value for m in at.markdown)


def test_timeline_page_shows_current_and_superseded(acme):
    at = open_page("timeline")
    at.selectbox(key="timeline.collection").set_value(acme).run()
    at.text_input(key="timeline.query").set_value("Acme").run()
    assert not at.exception
    # the CEO chain is single-valued (bars): one current, two superseded
    assert any(c.value.startswith("3 facts:") and "3 spans (bars), 1 of them current" in c.value for c in at.caption), \
        [c.value for c in at.caption]
    table = at.dataframe[0].value
    rows = {r["subject"]: r for _, r in table.iterrows()}
    assert rows["Alice"]["valid_until"] == "2021-03-01" and rows["Alice"]["status"] == "superseded"
    assert rows["Bob"]["valid_until"] == "2023-03-01" and rows["Bob"]["status"] == "superseded"
    assert rows["Carol"]["status"] == "current" and rows["Carol"]["stated_on"] == "2023-03-01"  # its document's date


def test_graph_page_shows_a_change_made_elsewhere_on_its_next_rerun(services, monkeypatch):
    """The overview (entities, counts, relations) is cached, keyed on the graph's stamp: an ingest from
    another process or session must show on the next rerun, a rerun without a change must not re-query."""
    name = make_acme(services)
    try:
        at = open_page("graph", query={"collection": name, "entity": "acme"})
        assert any("4 entities · 3 facts in" in c.value for c in at.caption), [c.value for c in at.caption]
        queries = []
        original = GraphService.counts  # the app has its own GraphService: count reads on every instance
        monkeypatch.setattr(GraphService, "counts", lambda self, ids: queries.append(ids) or original(self, ids))
        at.run()
        assert queries == []  # unchanged graph: served from the cache
        services.ingestion.run(text_request(name, title="Acme 2025", text="Dave is the CEO of Acme.",
                                            metadata={"date": "2025-03-01"}))
        at.run()
        assert not at.exception
        assert len(queries) == 1
        assert any("5 entities · 4 facts in" in c.value for c in at.caption), [c.value for c in at.caption]
    finally:
        services.deletion.delete_collection(name)


def test_graph_and_timeline_find_entities_by_meaning(acme):
    """No entity is named "chief executive of a firm": the Graph page finds none by name and some by meaning;
    the Timeline falls back to meaning by itself."""
    at = open_page("graph", query={"collection": acme})
    at.text_input(key="graph.find").set_value("chief executive of a firm").run()
    assert not at.exception
    assert any("No entity matches" in i.value for i in at.info)
    at.toggle(key="graph.meaning").set_value(True).run()
    assert not at.exception
    assert at.selectbox(key="graph.entity").value in {"acme", "alice", "bob", "carol"}

    at = open_page("timeline")
    at.selectbox(key="timeline.collection").set_value(acme).run()
    at.text_input(key="timeline.query").set_value("chief executive of a firm").run()
    assert not at.exception
    assert at.selectbox(key="timeline.entity").value in {"acme", "alice", "bob", "carol"}
