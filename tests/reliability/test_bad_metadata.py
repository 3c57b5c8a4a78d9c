"""Metadata that breaks the collection's schema (or JSON itself), and schemas that break the rules.

Per-document metadata is checked when the item is prepared: the item fails with
the reason and nothing is written. Metadata that is not even an object is
refused before a job starts.
"""

from __future__ import annotations

import json

import pytest

from services.errors import ValidationFailed
from services.ingest.requests import text_request
from tests.reliability.conftest import assert_nothing_stored


def _nested(depth: int) -> dict:
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"n": value}
    return value


BREAKING = [
    ("wrong-type", {"year": "nineteen"}, "'year' must be an integer, got 'nineteen'"),
    ("missing-required", {"reviewed": True}, "'year' is required"),
    ("impossible-date", {"year": 2001, "published": "2023-13-45"}, "'published' must be a date"),
    ("boolean-word", {"year": 2001, "reviewed": "maybe"}, "'reviewed' must be a boolean"),
    ("list-as-string", {"year": 2001, "tags": "a,b"}, "'tags' must be a list"),
    ("nan-number", {"year": 2001, "score": json.loads("NaN")}, "NaN or infinite"),
    ("infinite-string", {"year": 2001, "score": "Infinity"}, "'score' must be a number"),
    ("huge", {"year": 2001, "blob": "x" * 100_000}, "larger than 20000 characters"),
    ("empty-key", {"year": 2001, "": "value"}, "keys must be non-empty"),
    ("nested-5000-deep", {"year": 2001, "deep": _nested(5000)}, "nested too deeply"),
    ("nul-in-value", {"year": 2001, "note": "a\x00b"}, "NUL"),
    ("nul-in-key", {"year": 2001, "no\x00te": "x"}, "NUL"),
]


@pytest.mark.parametrize(("case", "metadata", "reason"), BREAKING, ids=[c[0] for c in BREAKING])
def test_schema_breaking_metadata_fails_the_item_and_stores_nothing(services, schema_collection, since,
                                                                    case, metadata, reason):
    title = f"meta {case}"
    result = services.ingestion.run(text_request(schema_collection, title=title, metadata=metadata,
                                                 text=f"A document whose metadata is bad: {case}."))
    assert result.status == "failed" and result.error is None, result
    [item] = result.items
    assert item["status"] == "failed" and reason in item["reason"], item
    assert "Unexpected" not in item["reason"]
    assert_nothing_stored(services, schema_collection, [title], since)


@pytest.mark.parametrize("metadata", [[1, 2], "year=2001", 42], ids=["list", "string", "number"])
def test_metadata_that_is_not_an_object_is_refused_before_a_job(services, schema_collection, metadata):
    with pytest.raises(ValidationFailed, match="Metadata must be a JSON object"):
        text_request(schema_collection, title="not an object", text="Body.", metadata=metadata)


@pytest.mark.parametrize(("schema", "message"), [
    ({"custom": {"1year": "integer"}}, "is not allowed"),
    ({"custom": {"year": "blob"}}, "needs a type"),
    ({"custom": ["year"]}, '"custom" must map'),
    ({"fields": {}}, 'one key, "custom"'),
    ({"custom": {"year": {"type": "integer", "required": "yes"}}}, "must be true or false"),
], ids=["bad-name", "bad-type", "list", "unknown-key", "required-not-bool"])
def test_a_broken_schema_is_refused_and_no_collection_is_made(services, schema, message):
    with pytest.raises(ValidationFailed, match=message):
        services.collections.create(name="broken-schema", description="Must not exist.", metadata_schema=schema)
    assert "broken-schema" not in {c.name for c in services.collections.list()}
