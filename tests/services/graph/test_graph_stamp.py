"""The graph stamp (what the Graph page's cached overview is keyed on) changes with every graph change."""

from __future__ import annotations

from tests.utils.graph import ingest


def test_stamp_changes_with_every_change_to_the_collections_graph(services, dated, make_collection):
    stamps = [services.graph.stamp(dated.id)]

    def changed() -> bool:
        stamps.append(services.graph.stamp(dated.id))
        return stamps[-1] != stamps[-2]

    first = ingest(services, dated.name, "ceo-2019", "Alice is the CEO of Acme.", {"date": "2019-03-01"})
    assert changed()  # ingested
    assert not changed()  # reading changes nothing
    ingest(services, dated.name, "ceo-2021", "Bob is the CEO of Acme.", {"date": "2021-03-01"})
    assert changed()  # another document (and Alice's fact superseded)
    ingest(services, dated.name, "ceo-2019", "Alice Smith is the CEO of Acme.", {"date": "2019-03-01"}, mode="reingest")
    assert changed()  # re-ingested with new content
    services.graph.rebuild([first["document_id"]])
    assert changed()  # graph re-extracted
    services.curation.rename(dated.name, "Bob", "Robert", author="tester")
    assert changed()  # an analyst's edit
    services.curation.undo(dated.name, author="tester")
    assert changed()  # and its undo
    other = make_collection()
    empty = services.graph.stamp(other.id)
    assert empty == "0|None|None|0|0|0|0:0:"  # the last part: the collection's graph edits
    services.collections.link(first["document_id"], other.name)
    assert services.graph.stamp(other.id) != empty  # linked into another collection
    services.deletion.delete_document(first["document_id"])
    assert changed()  # deleted
