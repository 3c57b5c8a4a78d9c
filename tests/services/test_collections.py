"""Collections on the real store: naming rules, counts, schemas, deletion and the embedding-model binding."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from services.collections import MAX_NAME
from services.errors import AlreadyExists, EmbeddingMismatch, NotFound, ValidationFailed
from tests.utils.ingest import chunk_texts, doc_id, ingest_text, only_item, scalar, sql


def _name() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def extra_collections(services):
    """Names appended here are deleted after the test (for tests that create collections themselves)."""
    names: list[str] = []
    yield names
    for name in names:
        try:
            services.deletion.delete_collection(name)
        except NotFound:
            pass


# -- create -------------------------------------------------------------------------------------


def test_create_returns_collection_bound_to_configured_model(services, extra_collections):
    name = _name()
    extra_collections.append(name)
    coll = services.collections.create(name=f"  {name}  ", description="  Holds test things.  ")
    assert coll.name == name
    assert coll.description == "Holds test things."
    assert coll.embedding_model == services.embedder.name
    assert coll.embedding_dim == services.embedder.dim == 384
    assert coll.metadata_schema == {"custom": {}}
    assert (coll.document_count, coll.chunk_count) == (0, 0)


def test_create_duplicate_name_is_refused(services, collection):
    with pytest.raises(AlreadyExists, match="already exists"):
        services.collections.create(name=collection, description="Second one.")
    with pytest.raises(AlreadyExists):
        services.collections.create(name=f" {collection}\t", description="Same name after trimming.")
    assert [c.name for c in services.collections.list()].count(collection) == 1


@pytest.mark.parametrize("description", ["", "   ", "\n\t ", None])
def test_create_without_description_is_refused(services, description):
    name = _name()
    with pytest.raises(ValidationFailed, match="description"):
        services.collections.create(name=name, description=description)
    with pytest.raises(NotFound):
        services.collections.get(name)


@pytest.mark.parametrize("name", ["", "   ", None])
def test_create_without_name_is_refused(services, name):
    with pytest.raises(ValidationFailed, match="needs a name"):
        services.collections.create(name=name, description="Fine description.")


def test_name_length_limit(services, extra_collections):
    too_long = "n" * (MAX_NAME + 1)
    with pytest.raises(ValidationFailed, match=f"at most {MAX_NAME}"):
        services.collections.create(name=too_long, description="Too long a name.")
    just_right = uuid.uuid4().hex + "x" * (MAX_NAME - 32)
    assert len(just_right) == MAX_NAME
    extra_collections.append(just_right)
    assert services.collections.create(name=just_right, description="Exactly at the limit.").name == just_right


def test_name_with_control_characters_is_refused(services):
    with pytest.raises(ValidationFailed, match="control characters"):
        services.collections.create(name="bad\x00name", description="Control chars.")


def test_create_with_invalid_schema_is_refused(services):
    name = _name()
    with pytest.raises(ValidationFailed):
        services.collections.create(name=name, description="d", metadata_schema={"custom": {"year": "int"}})
    with pytest.raises(NotFound):
        services.collections.get(name)


# -- list and counts ----------------------------------------------------------------------------


def test_list_counts_documents_and_chunks(services, collection):
    listed = {c.name: c for c in services.collections.list()}
    assert (listed[collection].document_count, listed[collection].chunk_count) == (0, 0)

    long_text = " ".join(f"Sentence number {i} talks about lighthouses and harbours." for i in range(60))
    r1 = ingest_text(services, collection, "Lighthouses", long_text)
    r2 = ingest_text(services, collection, "Short note", "A short note about otters.")
    n1, n2 = only_item(r1)["chunks"], only_item(r2)["chunks"]
    assert n1 > 1 and n2 == 1

    listed = {c.name: c for c in services.collections.list()}
    assert listed[collection].document_count == 2
    assert listed[collection].chunk_count == n1 + n2
    real_chunks = scalar(
        services,
        "SELECT count(*) FROM chunks ch JOIN collection_documents cd ON cd.document_id = ch.document_id "
        "JOIN collections c ON c.id = cd.collection_id WHERE c.name = :n",
        n=collection,
    )
    assert real_chunks == n1 + n2
    assert services.collections.get(collection).document_count == 2


def test_get_unknown_collection_is_not_found(services):
    with pytest.raises(NotFound):
        services.collections.get(_name())


# -- update_description -------------------------------------------------------------------------


def test_update_description(services, collection):
    updated = services.collections.update_description(collection, "  A new purpose.  ")
    assert updated.description == "A new purpose."
    assert services.collections.get(collection).description == "A new purpose."
    with pytest.raises(ValidationFailed):
        services.collections.update_description(collection, "   ")
    assert services.collections.get(collection).description == "A new purpose."
    with pytest.raises(NotFound):
        services.collections.update_description(_name(), "whatever")


# -- add_schema_fields --------------------------------------------------------------------------


def test_add_schema_fields_is_additive(services, collection):
    services.collections.add_schema_fields(collection, {"custom": {"year": {"type": "integer", "required": True}}})
    coll = services.collections.add_schema_fields(collection, {"custom": {"party": "string"}})
    assert coll.metadata_schema == {
        "custom": {"year": {"type": "integer", "required": True}, "party": {"type": "string", "required": False}}
    }
    # Re-adding an identical field is a no-op, not an error.
    again = services.collections.add_schema_fields(collection, {"custom": {"party": {"type": "string"}}})
    assert again.metadata_schema == coll.metadata_schema


def test_changing_an_existing_field_is_refused(services, collection):
    services.collections.add_schema_fields(collection, {"custom": {"year": "integer"}})
    with pytest.raises(ValidationFailed, match="cannot change"):
        services.collections.add_schema_fields(collection, {"custom": {"year": "string"}})
    with pytest.raises(ValidationFailed, match="cannot change"):
        services.collections.add_schema_fields(collection, {"custom": {"year": {"type": "integer", "required": True}}})
    assert services.collections.get(collection).metadata_schema == {
        "custom": {"year": {"type": "integer", "required": False}}
    }


def test_required_field_on_non_empty_collection_is_refused_optional_allowed(services, collection):
    assert only_item(ingest_text(services, collection, "Doc", "Some text about kites."))["status"] == "ingested"
    with pytest.raises(ValidationFailed, match="Add it as optional"):
        services.collections.add_schema_fields(collection, {"custom": {"year": {"type": "integer", "required": True}}})
    assert services.collections.get(collection).metadata_schema == {"custom": {}}
    coll = services.collections.add_schema_fields(collection, {"custom": {"year": {"type": "integer"}}})
    assert coll.metadata_schema["custom"]["year"] == {"type": "integer", "required": False}


def test_add_schema_fields_validates_and_needs_existing_collection(services, collection):
    with pytest.raises(ValidationFailed):
        services.collections.add_schema_fields(collection, {"custom": {"9lives": "string"}})
    with pytest.raises(ValidationFailed):
        services.collections.add_schema_fields(collection, {"year": "integer"})  # missing "custom" wrapper
    with pytest.raises(NotFound):
        services.collections.add_schema_fields(_name(), {"custom": {"x": "string"}})
    assert services.collections.get(collection).metadata_schema == {"custom": {}}


def test_a_required_field_set_by_mistake_can_be_made_optional(services, collection):
    services.collections.add_schema_fields(collection, {"custom": {"year": {"type": "integer", "required": True}}})
    assert only_item(ingest_text(services, collection, "Undated", "No year here."))["status"] == "failed"
    coll = services.collections.make_field_optional(collection, "year")
    assert coll.metadata_schema == {"custom": {"year": {"type": "integer", "required": False}}}
    assert only_item(ingest_text(services, collection, "Undated", "No year here."))["status"] == "ingested"
    with pytest.raises(ValidationFailed, match="no field 'party'"):
        services.collections.make_field_optional(collection, "party")


def test_a_field_no_document_uses_can_be_dropped_a_used_one_cannot(services, collection):
    services.collections.add_schema_fields(collection, {"custom": {"year": "integer", "party": "string"}})
    ingest_text(services, collection, "Dated", "A dated note.", metadata={"year": 1999})
    assert services.collections.field_usage(collection) == {"year": 1, "party": 0}
    coll = services.collections.drop_schema_field(collection, "party")
    assert coll.metadata_schema == {"custom": {"year": {"type": "integer", "required": False}}}
    with pytest.raises(ValidationFailed, match="1 document"):
        services.collections.drop_schema_field(collection, "year")
    assert services.collections.get(collection).metadata_schema == coll.metadata_schema
    with pytest.raises(NotFound):
        services.collections.drop_schema_field(_name(), "year")


# -- delete -------------------------------------------------------------------------------------


def test_delete_removes_its_documents_and_chunks_but_keeps_shared_ones(services, collection, extra_collections):
    other = _name()
    extra_collections.append(other)
    services.collections.create(name=other, description="Another collection.")

    ingest_text(services, collection, "Only here", "This document about glaciers lives only in one collection.")
    ingest_text(services, collection, "Shared", "This document about volcanoes is linked to two collections.")
    only_id, shared_id = doc_id(services, collection, "Only here"), doc_id(services, collection, "Shared")
    assert only_id and shared_id and chunk_texts(services, only_id) and chunk_texts(services, shared_id)

    with services.engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO collection_documents (collection_id, document_id, title, content_hash) "
                "SELECT (SELECT id FROM collections WHERE name = :other), document_id, title, content_hash "
                "FROM collection_documents WHERE document_id = :d"
            ),
            {"other": other, "d": shared_id},
        )
    assert services.collections.get(other).document_count == 1

    removed = services.deletion.delete_collection(collection)
    assert removed == 1
    with pytest.raises(NotFound):
        services.collections.get(collection)
    assert scalar(services, "SELECT count(*) FROM documents WHERE id = :d", d=only_id) == 0
    assert scalar(services, "SELECT count(*) FROM chunks WHERE document_id = :d", d=only_id) == 0
    assert scalar(services, "SELECT count(*) FROM documents WHERE id = :d", d=shared_id) == 1
    assert chunk_texts(services, shared_id) == ["This document about volcanoes is linked to two collections."]
    assert services.collections.get(other).document_count == 1
    links = sql(services, "SELECT collection_id FROM collection_documents WHERE document_id = :d", d=shared_id)
    assert [r.collection_id for r in links] == [services.collections.get(other).id]


def test_delete_unknown_collection_is_not_found(services):
    with pytest.raises(NotFound):
        services.deletion.delete_collection(_name())


# -- embedding model binding --------------------------------------------------------------------


def _set_model(services, name: str, model: str) -> None:
    with services.engine.begin() as conn:
        conn.execute(sa.text("UPDATE collections SET embedding_model = :m WHERE name = :n"), {"m": model, "n": name})


def test_ingest_into_collection_of_other_model_is_refused(services, collection):
    _set_model(services, collection, "other:model")
    with pytest.raises(EmbeddingMismatch, match="other:model"):
        ingest_text(services, collection, "Doc", "Text that must not be stored.")
    assert services.collections.get(collection).document_count == 0
    assert doc_id(services, collection, "Doc") is None


def test_rebind_refused_when_non_empty(services, collection):
    ingest_text(services, collection, "Doc", "Stored with the real model.")
    _set_model(services, collection, "other:model")
    with pytest.raises(EmbeddingMismatch, match="cannot change"):
        services.collections.rebind_embedding_model(collection)
    assert services.collections.get(collection).embedding_model == "other:model"


def test_rebind_works_when_empty(services, collection):
    _set_model(services, collection, "other:model")
    coll = services.collections.rebind_embedding_model(collection)
    assert coll.embedding_model == services.embedder.name
    assert coll.embedding_dim == services.embedder.dim
    assert only_item(ingest_text(services, collection, "Doc", "Now it can be stored."))["status"] == "ingested"
