"""CollectionService.link: add an existing document to another collection without re-ingesting it."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from services.errors import AlreadyExists, EmbeddingMismatch, NotFound, ValidationFailed
from tests.utils.ingest import doc_id, ingest_text, titles_in


@pytest.fixture
def other(services):
    names: list[str] = []

    def make(schema=None) -> str:
        name = f"test-link-{uuid.uuid4().hex[:10]}"
        services.collections.create(name=name, description="Link target.", metadata_schema=schema)
        names.append(name)
        return name

    yield make
    for name in names:
        try:
            services.deletion.delete_collection(name)
        except NotFound:
            pass


def test_link_adds_the_document_and_it_is_searchable_there(services, collection, other):
    ingest_text(services, collection, "Herons", "Grey herons stand still in shallow water to fish.")
    target = other()
    did = doc_id(services, collection, "Herons")
    coll = services.collections.link(did, target)
    assert coll.name == target and coll.document_count == 1
    assert titles_in(services, target) == {"Herons"}
    assert services.documents.get(did, with_chunks=False).summary.collections == sorted([collection, target])
    hits = services.search.search("heron fishing", collections=[target], mode="semantic", threshold=0.0).hits
    assert hits and hits[0].document_id == did
    services.deletion.delete_collection(collection)  # the shared document survives in the other collection
    assert services.documents.get(did, with_chunks=False).summary.collections == [target]


def test_link_refusals(services, collection, other):
    ingest_text(services, collection, "Owls", "Owls hunt at night.")
    did = doc_id(services, collection, "Owls")
    with pytest.raises(AlreadyExists, match="already in collection"):
        services.collections.link(did, collection)
    target = other()
    ingest_text(services, target, "Owls", "A different text with the same title.")
    with pytest.raises(AlreadyExists, match="titled 'Owls' or with identical content"):
        services.collections.link(did, target)
    with pytest.raises(NotFound):
        services.collections.link(987654321, target)
    with pytest.raises(NotFound):
        services.collections.link(did, "no-such-collection-here")
    strict = other({"custom": {"year": {"type": "integer", "required": True}}})
    with pytest.raises(ValidationFailed, match="year"):
        services.collections.link(did, strict)
    assert titles_in(services, strict) == set()


def test_link_refuses_a_collection_built_with_another_model(services, collection, other):
    ingest_text(services, collection, "Swifts", "Swifts sleep while flying.")
    did = doc_id(services, collection, "Swifts")
    target = other()
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE collections SET embedding_model = 'other-model', embedding_dim = 768 WHERE name = :n"),
                     {"n": target})
    with pytest.raises(EmbeddingMismatch, match="other-model"):
        services.collections.link(did, target)
    assert titles_in(services, target) == set()
