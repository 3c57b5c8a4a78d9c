"""Validity over time, deletion, re-ingest, collection isolation and the graph-failure path (real stores)."""

from __future__ import annotations

import pytest
from llama_index.core.schema import TransformComponent

from services.errors import NotFound
from services.graph.service import GraphService
from services.ingest.requests import text_request
from tests.utils.graph import document_row, entity_count, facts_of_document, graph_count, ingest

CEO_DOCS = {
    "2019": ("ceo-2019", "Alice is the CEO of Acme.", "2019-03-01"),
    "2021": ("ceo-2021", "Bob is the CEO of Acme.", "2021-03-01"),
    "2023": ("ceo-2023", "Carol is the CEO of Acme.", "2023-03-01"),
}


def _ingest_ceos(services, coll, order=("2019", "2021", "2023")) -> dict[str, int]:
    ids = {}
    for year in order:
        title, text, date = CEO_DOCS[year]
        item = ingest(services, coll.name, title, text, {"date": date})
        assert item["graph"] == "done" and item["facts"] == 1, item
        ids[year] = item["document_id"]
    return ids


def _ceo_timeline(services, cid) -> dict[str, tuple[str | None, str | None, str]]:
    facts = [f for f in services.graph.facts_of_entity("acme", [cid]) if f.relation == "ceo_of"]
    assert all(f.target_key == "acme" for f in facts)
    timeline = {f.source_key: (f.when, f.valid_until, f.status) for f in facts}  # stated on its document's date
    assert len(timeline) == len(facts), "one ceo_of fact per person expected"
    return timeline


EXPECTED_TIMELINE = {
    "alice": ("2019-03-01", "2021-03-01", "superseded"),
    "bob": ("2021-03-01", "2023-03-01", "superseded"),
    "carol": ("2023-03-01", None, "current"),
}


@pytest.mark.parametrize("order", [("2019", "2021", "2023"), ("2023", "2019", "2021")],
                         ids=["chronological", "newest-first"])
def test_ceo_succession(services, dated, order):
    ids = _ingest_ceos(services, dated, order)
    cid = dated.id
    facts = [f for f in services.graph.facts_of_entity("acme", [cid]) if f.relation == "ceo_of"]
    current = [f for f in facts if f.status == "current"]
    assert len(current) == 1 and current[0].source_key == "carol" and current[0].valid_until is None
    assert _ceo_timeline(services, cid) == EXPECTED_TIMELINE
    by_person = {f.source_key: f for f in facts}
    assert by_person["alice"].document_id == ids["2019"]
    # no clause date: the document's date is when the fact was stated, not a validity date; the chain orders by it
    assert (by_person["bob"].valid_from, by_person["bob"].stated_on, by_person["bob"].date_source) == (
        None, "2021-03-01", None)
    assert [f.when for f in facts] == sorted(f.when for f in facts)

    # the time window 2020-01-01 .. 2020-01-01 sees only Alice as CEO
    window = services.graph.neighbourhood(cid, "acme", valid_from="2020-01-01", valid_until="2020-01-01")
    assert [(f.source_key, f.relation) for f in window.facts if f.relation == "ceo_of"] == [("alice", "ceo_of")]
    assert set(window.nodes) == {"alice", "acme"}
    # and facts_of_entity takes the same window
    in_2022 = services.graph.facts_of_entity("acme", [cid], valid_from="2022-06-01", valid_until="2022-06-01")
    assert [f.source_key for f in in_2022] == ["bob"]
    # status filter
    superseded = services.graph.neighbourhood(cid, "acme", status="superseded")
    assert {f.source_key for f in superseded.facts} == {"alice", "bob"}
    assert {f.source_key for f in services.graph.neighbourhood(cid, "acme", status="current").facts} == {"carol"}


def test_delete_middle_document_heals_the_timeline(services, dated):
    ids = _ingest_ceos(services, dated)
    cid = dated.id
    bob_doc = ids["2021"]
    assert facts_of_document(services, bob_doc) == 1
    assert entity_count(services, cid, "bob") == 1

    services.deletion.delete_document(bob_doc)

    assert facts_of_document(services, bob_doc) == 0
    assert entity_count(services, cid, "bob") == 0  # no orphan left behind
    assert services.graph.find_entities("bob", [cid]) == []
    assert entity_count(services, cid, "acme") == 1 and entity_count(services, cid, "alice") == 1
    assert _ceo_timeline(services, cid) == {
        "alice": ("2019-03-01", "2023-03-01", "superseded"),
        "carol": ("2023-03-01", None, "current"),
    }
    with pytest.raises(NotFound):
        services.documents.get(bob_doc)
    with pytest.raises(NotFound):
        services.deletion.delete_document(bob_doc)


def test_delete_latest_document_makes_previous_holder_current(services, dated):
    ids = _ingest_ceos(services, dated)
    services.deletion.delete_document(ids["2023"])
    assert _ceo_timeline(services, dated.id) == {
        "alice": ("2019-03-01", "2021-03-01", "superseded"),
        "bob": ("2021-03-01", None, "current"),
    }
    assert entity_count(services, dated.id, "carol") == 0


def test_shared_entity_survives_deleting_one_of_its_documents(services, dated):
    first = ingest(services, dated.name, "a", "Alice works for Acme.", {"date": "2020-01-01"})
    ingest(services, dated.name, "b", "Bob works for Acme.", {"date": "2020-01-01"})
    services.deletion.delete_document(first["document_id"])
    assert entity_count(services, dated.id, "alice") == 0
    assert entity_count(services, dated.id, "acme") == 1
    assert entity_count(services, dated.id, "bob") == 1
    assert services.graph.counts([dated.id]) == {"entities": 2, "facts": 1}


def test_deleting_the_collection_removes_its_graph(services, make_collection):
    coll = make_collection()
    _ingest_ceos(services, coll)
    assert entity_count(services, coll.id) == 4
    services.deletion.delete_collection(coll.name)
    assert entity_count(services, coll.id) == 0
    assert graph_count(services, "MATCH ()-[r:FACT {collection_id: $c}]->() RETURN count(r) AS n", c=coll.id) == 0
    assert services.graph.counts([coll.id]) == {"entities": 0, "facts": 0}


def test_reingest_replaces_the_documents_facts(services, dated):
    item = ingest(services, dated.name, "report", "Alice is the CEO of Acme. Alice works for Initech.",
                  {"date": "2019-03-01"})
    doc = item["document_id"]
    assert item["facts"] == 2 and facts_of_document(services, doc) == 2

    again = ingest(services, dated.name, "report", "Bob is the CEO of Acme. Bob works for Initech.",
                   {"date": "2021-03-01"}, mode="reingest")
    assert again["status"] == "replaced" and again["document_id"] == doc
    assert facts_of_document(services, doc) == again["facts"] == 2
    facts = services.graph.facts_of_entity("acme", [dated.id]) + services.graph.facts_of_entity("initech", [dated.id])
    assert {(f.source_key, f.relation, f.target_key) for f in facts} == {
        ("bob", "ceo_of", "acme"), ("bob", "worked_for", "initech")}
    assert all(f.document_id == doc and f.stated_on == "2021-03-01" and f.valid_from is None for f in facts)
    assert entity_count(services, dated.id, "alice") == 0
    # Bob's ceo fact is alone in its slot now: the replaced Alice fact must not linger to supersede or be superseded
    assert [(f.source_key, f.status) for f in facts if f.relation == "ceo_of"] == [("bob", "current")]
    row = document_row(services, doc)
    assert (row.graph_status, row.graph_facts) == ("done", 2)

    # indexing the same document again is idempotent: no duplicate facts
    (rebuilt,) = services.graph.rebuild([doc])
    assert rebuilt.status == "done" and rebuilt.facts == 2
    assert facts_of_document(services, doc) == 2
    ids = [r["id"] for r in services.graph_store.query(
        "MATCH ()-[r:FACT {document_id: $d}]->() RETURN r.id AS id", {"d": doc})]
    assert len(ids) == len(set(ids)) == 2


def test_collections_are_isolated(services, make_collection):
    one, two = make_collection(), make_collection()
    text = "Alice works for Acme. Acme is located in Berlin."
    doc_one = ingest(services, one.name, "same", text, {"date": "2020-01-01"})["document_id"]
    doc_two = ingest(services, two.name, "same", text, {"date": "2020-01-01"})["document_id"]
    assert doc_one != doc_two
    assert services.graph.counts([one.id]) == services.graph.counts([two.id]) == {"entities": 3, "facts": 2}
    assert services.graph.counts([one.id, two.id]) == {"entities": 6, "facts": 4}

    found = services.graph.find_entities("acme", [one.id])
    assert [(e.collection_id, e.key, e.degree) for e in found] == [(one.id, "acme", 2)]
    hood = services.graph.neighbourhood(one.id, "acme", depth=3)
    assert len(hood.facts) == 2
    assert {f.collection_id for f in hood.facts} == {one.id}
    assert {f.document_id for f in hood.facts} == {doc_one}
    assert {e.collection_id for e in hood.nodes.values()} == {one.id}
    assert {f.collection_id for f in services.graph.facts_of_entity("acme", [two.id])} == {two.id}
    assert len(services.graph.facts_of_entity("acme", [one.id, two.id])) == 4

    services.deletion.delete_document(doc_one)
    assert services.graph.counts([one.id]) == {"entities": 0, "facts": 0}
    assert services.graph.counts([two.id]) == {"entities": 3, "facts": 2}
    ingest(services, one.name, "other", "Carol works for Acme.", {"date": "2021-01-01"})
    services.deletion.delete_collection(one.name)
    assert entity_count(services, one.id) == 0
    assert services.graph.counts([two.id]) == {"entities": 3, "facts": 2}
    assert {f.document_id for f in services.graph.neighbourhood(two.id, "acme").facts} == {doc_two}


def test_dates_in_the_store_come_from_the_clause_and_the_document_never_the_ingestion(services, dated):
    sentence = ingest(services, dated.name, "s", "Bob became CEO of Acme Corp in 2021.", {"date": "2019-01-15"})
    document = ingest(services, dated.name, "d", "Dana is the CEO of Globex.", {"date": "2019-01-15"})
    year = ingest(services, dated.name, "y", "Erin is the CEO of Initech.", {"year": 2018})
    nothing = ingest(services, dated.name, "n", "Frank is the CEO of Hooli.")
    got = {}
    for item in (sentence, document, year, nothing):
        rows = services.graph_store.query(
            "MATCH ()-[r:FACT {document_id: $d}]->() RETURN r.valid_from AS f, r.stated_on AS o, r.date_source AS s",
            {"d": item["document_id"]})
        assert len(rows) == 1, rows
        got[item["title"]] = (rows[0]["f"], rows[0]["o"], rows[0]["s"])
    assert got == {
        "s": ("2021-01-01", "2019-01-15", "text"),
        "d": (None, "2019-01-15", None),
        "y": (None, "2018-01-01", None),
        "n": (None, None, None),
    }


def test_a_stated_end_is_kept_by_supersession(services, dated):
    """"from 1364 to 1389" ends the fact in 1389, whatever later fact there is or is not."""
    ingest(services, dated.name, "albert", "Albert was King of Sweden from 1364 to 1389.")
    ingest(services, dated.name, "margaret", "Margaret was Queen of Sweden from 1389 to 1412.")
    ingest(services, dated.name, "eric", "Eric became King of Sweden in 1396.")
    facts = {f.source_key: f for f in services.graph.facts_of_entity("sweden", [dated.id]) if f.relation == "king_of"}
    assert (facts["albert"].valid_from, facts["albert"].valid_until) == ("1364-01-01", "1389-01-01")
    assert (facts["margaret"].valid_from, facts["margaret"].valid_until) == ("1389-01-01", "1412-01-01")
    assert (facts["eric"].valid_from, facts["eric"].valid_until, facts["eric"].status) == ("1396-01-01", None, "current")
    assert facts["albert"].status == facts["margaret"].status == "superseded"


def test_normal_ingest_marks_document_graph_done(services, dated):
    item = ingest(services, dated.name, "ok", "Microsoft acquired GitHub in 2018. Alice is the CEO of Acme.")
    assert item["graph"] == "done" and item["facts"] == 2 and item["entities"] == 4
    row = document_row(services, item["document_id"])
    assert row.graph_status == "done" and row.graph_error is None
    assert row.graph_facts == 2 and row.graph_entities == 4
    summary = services.documents.get(item["document_id"], with_chunks=False).summary
    assert (summary.graph_status, summary.graph_facts) == ("done", 2)
    assert item["document_id"] not in services.graph.documents_needing_graph(dated.id)
    # facts point at the chunk that holds their sentence
    chunk_ids = {c.id for c in services.documents.get(item["document_id"]).chunks}
    facts = services.graph.facts_of_entity("github", [dated.id])
    assert facts and all(f.chunk_id in chunk_ids for f in facts)


class ExplodingExtractor(TransformComponent):
    """A plug-in extractor that always fails (a broken component, not a mocked store)."""

    def __call__(self, nodes, **kwargs):
        raise RuntimeError("extractor exploded")


def test_graph_failure_keeps_document_searchable_and_rebuild_repairs(services, dated):
    item = ingest(services, dated.name, "fragile", "Satya Nadella is the CEO of Microsoft. Zyxquorp widgets rule.")
    doc = item["document_id"]
    assert item["facts"] >= 1

    broken = GraphService(engine=services.engine, store=services.graph_store, extractor=ExplodingExtractor())
    result = broken.index_document(doc)
    assert result.status == "failed"
    assert result.document_id == doc
    assert "RuntimeError: extractor exploded" in result.error

    row = document_row(services, doc)
    assert row.graph_status == "failed"
    assert "extractor exploded" in row.graph_error
    assert services.documents.get(doc, with_chunks=False).summary.graph_status == "failed"
    assert doc in services.graph.documents_needing_graph(dated.id)
    assert doc in services.graph.documents_needing_graph()
    hits = services.search.search("Zyxquorp widgets", collections=[dated.name], mode="keyword").hits
    assert [h.document_id for h in hits] == [doc]

    (repaired,) = services.graph.rebuild([doc])
    assert repaired.status == "done" and repaired.facts >= 1
    row = document_row(services, doc)
    assert row.graph_status == "done" and row.graph_error is None and row.graph_facts == repaired.facts
    assert facts_of_document(services, doc) == repaired.facts
    assert doc not in services.graph.documents_needing_graph(dated.id)
    assert any(f.relation == "ceo_of" for f in services.graph.facts_of_entity("microsoft", [dated.id]))


def test_graph_failure_during_ingest_still_stores_the_document(services, dated):
    """The ingest pipeline itself with a failing extractor: document written, item says graph failed."""
    broken = GraphService(engine=services.engine, store=services.graph_store, extractor=ExplodingExtractor())
    original = services.ingestion.graph
    services.ingestion.graph = broken
    try:
        result = services.ingestion.run(text_request(dated.name, title="broken-graph", text="Alice is the CEO of Acme.",
                                                     metadata={"date": "2020-01-01"}))
    finally:
        services.ingestion.graph = original
    (item,) = result.items
    assert item["status"] == "ingested" and item["graph"] == "failed"
    assert "extractor exploded" in item["reason"]
    assert result.progress["graph_failed"] == 1
    assert document_row(services, item["document_id"]).graph_status == "failed"
    assert services.search.search("CEO of Acme", collections=[dated.name], mode="keyword").hits


def test_index_unknown_document_raises_not_found(services):
    with pytest.raises(NotFound):
        services.graph.index_document(10**9)



def test_located_in_is_superseded_when_a_thing_moves(services, dated):
    berlin = ingest(services, dated.name, "berlin", "Acme is located in Berlin.", {"date": "2015-01-01"})
    paris = ingest(services, dated.name, "paris", "Acme is located in Paris.", {"date": "2020-01-01"})
    assert berlin["facts"] == paris["facts"] == 1
    facts = services.graph.facts_of_entity("acme", [dated.id])
    assert {(f.source_key, f.relation, f.target_key) for f in facts} == {
        ("acme", "located_in", "berlin"), ("acme", "located_in", "paris")}
    by_place = {f.target_key: f for f in facts}
    assert (by_place["berlin"].when, by_place["berlin"].valid_until, by_place["berlin"].status) == (
        "2015-01-01", "2020-01-01", "superseded")
    assert (by_place["paris"].when, by_place["paris"].valid_until, by_place["paris"].status) == (
        "2020-01-01", None, "current")
    assert by_place["berlin"].document_id == berlin["document_id"]
    assert by_place["paris"].document_id == paris["document_id"]
