"""Pure-function tests for metadata schemas: normalise, merge (additive) and validate/coerce."""

from __future__ import annotations

import pytest

from services.errors import ValidationFailed
from services.metadata_schema import MAX_METADATA_CHARS, merge_schema, normalise_schema, validate_metadata

YEAR_REQUIRED = {"custom": {"year": {"type": "integer", "required": True}}}


# -- normalise_schema ---------------------------------------------------------------------------


@pytest.mark.parametrize("empty", [None, "", {}])
def test_empty_schema_normalises_to_no_fields(empty):
    assert normalise_schema(empty) == {"custom": {}}


def test_normalise_fills_defaults_and_keeps_description():
    raw = {"custom": {
        "year": "integer",
        "party": {"type": "string", "required": True},
        "when": {"type": "date", "description": "Delivery date"},
    }}
    assert normalise_schema(raw) == {"custom": {
        "year": {"type": "integer", "required": False},
        "party": {"type": "string", "required": True},
        "when": {"type": "date", "required": False, "description": "Delivery date"},
    }}


@pytest.mark.parametrize("bad_name", ["1year", "has space", "dash-ed", "", "é", "x" * 65, "a.b"])
def test_bad_field_names_are_refused(bad_name):
    with pytest.raises(ValidationFailed, match="not allowed"):
        normalise_schema({"custom": {bad_name: "string"}})


def test_longest_allowed_field_name():
    name = "_" + "a" * 63
    assert name in normalise_schema({"custom": {name: "string"}})["custom"]


def test_unknown_spec_keys_are_refused():
    with pytest.raises(ValidationFailed, match="unknown keys: default, min"):
        normalise_schema({"custom": {"year": {"type": "integer", "min": 0, "default": 1}}})


@pytest.mark.parametrize("spec", ["int", {"type": "float"}, {}, {"required": True}, 3, ["integer"]])
def test_unknown_or_missing_type_is_refused(spec):
    with pytest.raises(ValidationFailed, match="needs a type"):
        normalise_schema({"custom": {"year": spec}})


def test_required_must_be_boolean():
    with pytest.raises(ValidationFailed, match="'required' must be true or false"):
        normalise_schema({"custom": {"year": {"type": "integer", "required": "yes"}}})


@pytest.mark.parametrize("raw", [[1, 2], "custom", {"fields": {}}, {"custom": {}, "extra": 1}, {"custom": ["year"]}])
def test_bad_schema_shapes_are_refused(raw):
    with pytest.raises(ValidationFailed):
        normalise_schema(raw)


# -- merge_schema -------------------------------------------------------------------------------


def test_merge_adds_new_fields_and_keeps_existing():
    current = normalise_schema({"custom": {"year": "integer"}})
    merged = merge_schema(current, {"custom": {"party": "string"}}, collection_is_empty=False)
    assert merged == {"custom": {"year": {"type": "integer", "required": False},
                                 "party": {"type": "string", "required": False}}}
    assert current == {"custom": {"year": {"type": "integer", "required": False}}}  # not mutated


def test_merge_refuses_changed_field():
    current = normalise_schema({"custom": {"year": "integer"}})
    with pytest.raises(ValidationFailed, match="cannot change"):
        merge_schema(current, {"custom": {"year": "string"}}, collection_is_empty=True)


def test_merge_identical_field_is_noop():
    current = normalise_schema(YEAR_REQUIRED)
    assert merge_schema(current, YEAR_REQUIRED, collection_is_empty=False) == current


def test_merge_required_field_only_when_empty():
    with pytest.raises(ValidationFailed, match="cannot be added as required"):
        merge_schema({"custom": {}}, YEAR_REQUIRED, collection_is_empty=False)
    assert merge_schema({"custom": {}}, YEAR_REQUIRED, collection_is_empty=True) == normalise_schema(YEAR_REQUIRED)


# -- validate_metadata --------------------------------------------------------------------------


def test_required_field_missing():
    for meta in ({}, None, {"year": None}, {"year": ""}, {"other": 1}):
        with pytest.raises(ValidationFailed, match="'year' is required"):
            validate_metadata(YEAR_REQUIRED, meta)


def test_optional_empty_field_is_dropped():
    schema = normalise_schema({"custom": {"year": "integer"}})
    assert validate_metadata(schema, {"year": "", "x": 1}) == {"x": 1}
    assert validate_metadata(schema, {"year": None}) == {}


def test_integer_coercion():
    assert validate_metadata(YEAR_REQUIRED, {"year": "1790"}) == {"year": 1790}
    assert validate_metadata(YEAR_REQUIRED, {"year": " -12 "}) == {"year": -12}
    assert validate_metadata(YEAR_REQUIRED, {"year": 1790.0}) == {"year": 1790}
    result = validate_metadata(YEAR_REQUIRED, {"year": "1790"})
    assert type(result["year"]) is int


@pytest.mark.parametrize("bad", [True, False, "1790.5", 1790.5, "seventeen", "17 90", [1790], {"y": 1}, "1" * 19])
def test_integer_rejects_non_integers(bad):
    with pytest.raises(ValidationFailed, match="must be an integer"):
        validate_metadata(YEAR_REQUIRED, {"year": bad})


def test_number_boolean_string_list_types():
    schema = normalise_schema({"custom": {"n": "number", "b": "boolean", "s": "string", "l": "list"}})
    out = validate_metadata(schema, {"n": "2.5", "b": " TRUE ", "s": 42, "l": ["a", 1]})
    assert out == {"n": 2.5, "b": True, "s": "42", "l": ["a", 1]}
    assert validate_metadata(schema, {"n": 3, "b": "false"}) == {"n": 3, "b": False}
    for bad in ({"n": True}, {"n": "abc"}, {"b": "yes"}, {"b": 1}, {"s": True}, {"s": ["x"]}, {"l": "a,b"}):
        with pytest.raises(ValidationFailed):
            validate_metadata(schema, bad)


def test_date_parsing():
    schema = normalise_schema({"custom": {"when": {"type": "date", "required": True}}})
    assert validate_metadata(schema, {"when": "1790-01-08"}) == {"when": "1790-01-08"}
    assert validate_metadata(schema, {"when": " 2024-02-29T10:30:00Z"}) == {"when": "2024-02-29"}
    for bad in ("2023-02-29", "08/01/1790", "yesterday", "2024-13-01", 20240101):
        with pytest.raises(ValidationFailed, match="'when' must be a date"):
            validate_metadata(schema, {"when": bad})


def test_undeclared_fields_pass_through_unchanged():
    assert validate_metadata(YEAR_REQUIRED, {"year": 1, "note": "1790", "flag": True}) == {
        "year": 1, "note": "1790", "flag": True}


def test_metadata_must_be_an_object_with_string_keys():
    with pytest.raises(ValidationFailed, match="JSON object"):
        validate_metadata({"custom": {}}, ["year", 1790])
    with pytest.raises(ValidationFailed, match="non-empty strings"):
        validate_metadata({"custom": {}}, {" ": 1})


def test_oversize_metadata_is_refused():
    with pytest.raises(ValidationFailed, match=f"larger than {MAX_METADATA_CHARS}"):
        validate_metadata({"custom": {}}, {"blob": "x" * MAX_METADATA_CHARS})
    # Just under the limit is fine (the serialised object adds {"blob": ""} = 12 chars).
    ok = {"blob": "x" * (MAX_METADATA_CHARS - 12)}
    assert validate_metadata({"custom": {}}, ok) == ok


def test_validate_does_not_mutate_input():
    meta = {"year": "1790"}
    validate_metadata(YEAR_REQUIRED, meta)
    assert meta == {"year": "1790"}


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity"])
def test_number_rejects_non_finite(value):
    schema = normalise_schema({"custom": {"score": "number"}})
    with pytest.raises(ValidationFailed):
        validate_metadata(schema, {"score": value})
