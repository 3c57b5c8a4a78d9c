"""Collection metadata schemas: parse, extend (additively) and validate document metadata.

A schema looks like ``{"custom": {"year": {"type": "integer", "required": true}}}``.
Fields not in the schema are allowed; declared fields must have the declared
type. Strings that cleanly parse as the declared type are coerced, so values
read from CSV or a form ("1790") validate as integers.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import Any

from services.errors import ValidationFailed

FIELD_TYPES = ("string", "integer", "number", "boolean", "date", "list")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
MAX_METADATA_CHARS = 20_000
MAX_METADATA_DEPTH = 32


def normalise_schema(raw: Any) -> dict[str, Any]:
    """Check a schema's shape and return it as ``{"custom": {name: {"type", "required"}}}``."""
    if raw in (None, "", {}):
        return {"custom": {}}
    if not isinstance(raw, dict) or set(raw) - {"custom"}:
        raise ValidationFailed('A metadata schema is an object with one key, "custom".')
    fields = raw.get("custom") or {}
    if not isinstance(fields, dict):
        raise ValidationFailed('"custom" must map field names to {"type": ..., "required": ...}.')
    out: dict[str, dict[str, Any]] = {}
    for name, spec in fields.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise ValidationFailed(
                f"Field name {name!r} is not allowed: use letters, digits and _ (max 64), not starting with a digit."
            )
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict) or spec.get("type") not in FIELD_TYPES:
            raise ValidationFailed(f"Field {name!r} needs a type, one of: {', '.join(FIELD_TYPES)}.")
        extra = set(spec) - {"type", "required", "description"}
        if extra:
            raise ValidationFailed(f"Field {name!r} has unknown keys: {', '.join(sorted(extra))}.")
        required = spec.get("required", False)
        if not isinstance(required, bool):
            raise ValidationFailed(f"Field {name!r}: 'required' must be true or false.")
        out[name] = {"type": spec["type"], "required": required}
        if spec.get("description"):
            out[name]["description"] = str(spec["description"])
    return {"custom": out}


def merge_schema(current: dict[str, Any], addition: Any, *, collection_is_empty: bool) -> dict[str, Any]:
    """Add fields to a schema. Existing fields cannot change; a new required field needs an empty collection."""
    new = normalise_schema(addition)["custom"]
    merged = dict(current.get("custom", {}))
    for name, spec in new.items():
        if name in merged:
            if merged[name] != spec:
                raise ValidationFailed(
                    f"Field {name!r} already exists as {merged[name]}; schemas are additive, fields cannot change."
                )
            continue
        if spec["required"] and not collection_is_empty:
            raise ValidationFailed(
                f"Field {name!r} cannot be added as required: the collection already has documents "
                "without it. Add it as optional."
            )
        merged[name] = spec
    return {"custom": merged}


def make_optional(current: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema with field ``name`` no longer required (the way out of a required field set by mistake).

    Always safe: every stored document satisfies a weaker schema.
    """
    fields = dict(current.get("custom", {}))
    if name not in fields:
        raise ValidationFailed(f"The schema has no field {name!r}; its fields: {', '.join(fields) or 'none'}.")
    fields[name] = {**fields[name], "required": False}
    return {"custom": fields}


def drop_field(current: dict[str, Any], name: str, *, documents_using: int) -> dict[str, Any]:
    """The schema without field ``name``; refused while any document of the collection has a value for it
    (dropping the field would stop checking values that were stored under its type)."""
    fields = dict(current.get("custom", {}))
    if name not in fields:
        raise ValidationFailed(f"The schema has no field {name!r}; its fields: {', '.join(fields) or 'none'}.")
    if documents_using:
        raise ValidationFailed(
            f"Field {name!r} cannot be dropped: {documents_using} document(s) of this collection have a value "
            "for it. Make it optional instead, or remove the value from those documents first."
        )
    fields.pop(name)
    return {"custom": fields}


def _coerce(name: str, kind: str, value: Any) -> Any:
    article = "an" if kind[:1] in "aeiou" else "a"  # "an integer", "a number"
    bad = ValidationFailed(f"Metadata field {name!r} must be {article} {kind}, got {value!r}.")
    if kind == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        raise bad
    if kind == "integer":
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d{1,18}\s*", value):
            return int(value)
        raise bad
    if kind == "number":
        if isinstance(value, bool):
            raise bad
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise bad from None
        if isinstance(value, (int, float)) and math.isfinite(value):
            return value
        raise bad
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise bad
    if kind == "date":
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value.strip()[:10]).isoformat()
            except ValueError:
                raise bad from None
        raise bad
    if kind == "list":
        if isinstance(value, list):
            return value
        raise bad
    raise bad


def refuse_json_constant(name: str) -> Any:
    """``parse_constant`` for :func:`json.loads`: NaN and Infinity are not JSON, though Python accepts them."""
    raise ValueError(f"{name} is not a JSON value; use a number or null.")


def json_problem(exc: BaseException) -> str:
    """A sentence for a parse failure :func:`json.loads` reports as RecursionError or ValueError."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply."
    return str(exc)


def check_json_shape(value: Any, what: str, *, max_depth: int = MAX_METADATA_DEPTH) -> None:
    """Refuse JSON nested deeper than ``max_depth`` or holding NUL characters (PostgreSQL rejects them).

    Walks iteratively, so a hostile 100,000-level value cannot exhaust the stack here.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            raise ValidationFailed(f"{what} is nested too deeply (more than {max_depth} levels).")
        if isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(key, str) and "\x00" in key:
                    raise ValidationFailed(f"{what} cannot contain NUL characters (\\u0000), found in key {key!r}.")
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str) and "\x00" in item:
            raise ValidationFailed(f"{what} cannot contain NUL characters (\\u0000).")


def validate_metadata(schema: dict[str, Any], metadata: Any) -> dict[str, Any]:
    """Return ``metadata`` checked and coerced against ``schema``; raise :class:`ValidationFailed`."""
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise ValidationFailed("Metadata must be a JSON object.")
    check_json_shape(metadata, "Metadata")
    try:
        size = len(json.dumps(metadata, default=str, allow_nan=False))
    except ValueError:
        raise ValidationFailed("Metadata cannot hold NaN or infinite numbers.") from None
    if size > MAX_METADATA_CHARS:
        raise ValidationFailed(f"Metadata is larger than {MAX_METADATA_CHARS} characters.")
    out = dict(metadata)
    for key in out:
        if not isinstance(key, str) or not key.strip():
            raise ValidationFailed("Metadata keys must be non-empty strings.")
    for name, spec in schema.get("custom", {}).items():
        if name not in out or out[name] is None or out[name] == "":
            if spec.get("required"):
                raise ValidationFailed(f"Metadata field {name!r} is required by this collection's schema.")
            out.pop(name, None)
            continue
        out[name] = _coerce(name, spec["type"], out[name])
    return out


def schema_from_fields(raw: Any) -> dict[str, Any]:
    """A schema from a full schema (``{"custom": {...}}``) or just its fields (``{"year": "integer"}``).

    The one reading of a schema a person typed, for the UI, the CLI and MCP alike.
    """
    if isinstance(raw, dict) and set(raw) == {"custom"}:
        return raw
    return {"custom": raw or {}}
