"""SQL, Cypher, Markdown and HTML payloads are stored verbatim, found by search, and never executed.

Every payload is a collection name, a document title, metadata keys and values,
document text and a graph entity name at once (see ``injection.py``).
"""

from __future__ import annotations

import re

import pytest

from services.graph.mermaid import _ESCAPES, subgraph_to_mermaid
from tests.reliability.injection import PAYLOADS, SENTINEL

KINDS = list(PAYLOADS)  # the ``planted`` fixture (conftest.py) stores them all once


@pytest.mark.parametrize("kind", KINDS)
def test_payload_is_stored_verbatim_everywhere(services, planted, kind):
    item = planted[kind]
    assert services.collections.get(item.collection).description == f"Description with {item.payload}"
    view = services.documents.get(item.document_id)
    assert view.summary.title == item.title
    assert view.summary.metadata == item.metadata
    assert view.content == item.text
    assert view.summary.collections == [item.collection]
    listed = services.documents.list(title_contains=item.payload)
    assert [d.id for d in listed] == [item.document_id]  # % _ and \ in the payload are not wildcards


@pytest.mark.parametrize("kind", KINDS)
def test_payload_as_a_query_or_filter_finds_its_document(services, planted, kind):
    item = planted[kind]
    # websearch syntax: "-word" after a space excludes the word, so a payload such as "`rm -rf /`" asks
    # keyword search to leave out the very document that holds "rf" (semantic and hybrid still find it)
    excludes = re.search(r"(?:^|\s)-\w", item.payload) is not None
    for mode in ("keyword", "hybrid", "semantic"):
        hits = services.search.search(item.payload + " harbour wall", collections=[item.collection], mode=mode,
                                      threshold=-1).hits
        if mode == "keyword" and excludes:
            assert hits == [], mode
            continue
        assert [h.document_id for h in hits] == [item.document_id], mode
        assert hits[0].title == item.title and hits[0].metadata == item.metadata
    everywhere = services.search.search(item.payload, mode="hybrid", threshold=-1, limit=200,
                                        filters={"note": item.payload}).hits
    assert [h.document_id for h in everywhere] == [item.document_id]
    keyed = services.search.search("harbour", mode="keyword", filters={f"key {item.payload}": {"in": ["value"]}}).hits
    assert [h.document_id for h in keyed] == [item.document_id]


@pytest.mark.parametrize("kind", KINDS)
def test_payload_entity_is_stored_verbatim_and_the_graph_is_intact(services, planted, kind):
    item = planted[kind]
    found = services.graph.find_entities(item.payload, [item.collection_id])
    assert [e.name for e in found] == [item.payload]
    graph = services.graph.neighbourhood(item.collection_id, found[0].key, depth=2)
    # the model's "oversees" is the vocabulary's leads; its own word stays on the fact
    assert {(f.source, f.relation, f.raw, f.target) for f in graph.facts} == {(item.payload, "leads", "oversees",
                                                                              SENTINEL)}
    facts = services.graph.facts_of_entity(found[0].key, [item.collection_id])
    assert [f.sentence for f in facts] == [item.payload]
    # "DETACH DELETE" did not run: every collection still has its sentinel and its payload entity.
    for other in planted.values():
        assert services.graph.counts([other.collection_id]) == {"entities": 2, "facts": 1}


def _unescape(label: str) -> str:
    codes = {code: char for char, code in _ESCAPES.items()}
    return re.sub(r"#\w+;", lambda m: codes.get(m.group(0), m.group(0)), label)


@pytest.mark.parametrize("kind", KINDS)
def test_mermaid_labels_escape_the_payload(services, planted, kind):
    item = planted[kind]
    key = services.graph.find_entities(item.payload, [item.collection_id])[0].key
    text = subgraph_to_mermaid(services.graph.neighbourhood(item.collection_id, key, depth=1))
    lines = text.splitlines()
    assert lines[0] == "flowchart LR" and len(lines) == 4
    labels = []
    for line in lines[1:3]:
        match = re.fullmatch(r'    n\d+\["(.*)"\]', line)
        assert match, line
        labels.append(match.group(1))
    assert re.fullmatch(r'    n\d+ -->\|"leads( #40;\d{4}#41;)?"\| n\d+', lines[3]), lines[3]
    for label in labels:  # outside the #code; entities, no character Mermaid or HTML reads as syntax
        assert not set(re.sub(r"#\w+;", "", label)) & set('"<>[]{}()|;`\\%#&'), label
    assert sorted(_unescape(label) for label in labels) == sorted([item.payload, SENTINEL])
