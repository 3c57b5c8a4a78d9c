"""A collection's metadata schema: its fields with how many documents use each, add fields, and the way out
of a mistake (make a required field optional, drop a field no document uses)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.feedback import parse_json_object, user_errors
from components.markdown_text import md_escape
from components.state import Keys, flash
from services.collections import Collection
from services.container import Services
from services.metadata_schema import schema_from_fields

SHORTHAND_HELP = ('Field types: string, integer, number, boolean, date, list. Short form {"year": "integer"}, '
                  'or {"year": {"type": "integer", "required": true}} to require a field.')


EXAMPLES = {"string": '"…"', "integer": "1990", "number": "1.5", "boolean": "true", "date": '"2024-05-01"',
            "list": '["a", "b"]'}


def metadata_example(fields: dict[str, Any]) -> str:
    """A metadata object with a sample value per field: {"year": 1990, "party": "…"}."""
    return "{" + ", ".join(f'"{k}": {EXAMPLES.get(v["type"], "null")}' for k, v in fields.items()) + "}"


def parse_schema(text: str, what: str) -> dict[str, Any] | None:
    """A schema typed by a person: the short form or the full {"custom": ...}, as the CLI and MCP read it."""
    raw = parse_json_object(text, what)
    return None if raw is None else schema_from_fields(raw)


def fields_caption(schema: dict[str, Any]) -> str:
    fields = schema.get("custom", {})
    return ", ".join(f"{name} ({spec['type']}{', required' if spec.get('required') else ''})"
                     for name, spec in fields.items())


def schema_tab(svc: Services, coll: Collection) -> None:
    fields = coll.metadata_schema.get("custom", {})
    if fields:
        usage = svc.collections.field_usage(coll.name)
        st.dataframe(pd.DataFrame([{"field": name, "type": spec["type"], "required": bool(spec.get("required")),
                                    "documents with a value": usage.get(name, 0)} for name, spec in fields.items()]),
                     hide_index=True, width="stretch")
        _fix_a_field(svc, coll, fields, usage)
    else:
        st.caption("No metadata fields: documents may carry any metadata.")
    with st.form("collections.schema"):
        addition = st.text_area("Fields to add (JSON)", placeholder='{"party": "string"}', help=SHORTHAND_HELP +
                                " Existing fields cannot change type. A required field can only be added while "
                                "the collection is empty.")
        if st.form_submit_button("Add fields"):
            schema = parse_schema(addition, "The fields")
            if schema and schema["custom"]:
                with user_errors("Could not add the fields"):
                    svc.collections.add_schema_fields(coll.name, schema)
                    flash(Keys.COLLECTIONS_FLASH, "Schema updated.")
                    st.rerun()


def _fix_a_field(svc: Services, coll: Collection, fields: dict[str, Any], usage: dict[str, int]) -> None:
    """Make a required field optional, or drop a field that no document has a value for."""
    st.markdown("**Fix a field**")
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    name = c1.selectbox("Field", list(fields), key="collections.fix_field")
    required = bool(fields[name].get("required"))
    if c2.button("Make optional", key="collections.make_optional", disabled=not required,
                 help="Documents will no longer need this field. Always safe.", icon=":material/toggle_off:"):
        with user_errors("Could not change the field"):
            svc.collections.make_field_optional(coll.name, name)
            flash(Keys.COLLECTIONS_FLASH, md_escape(f"Field {name} is now optional: documents without it are accepted."))
            st.rerun()
    used = usage.get(name, 0)
    if c3.button("Drop field", key="collections.drop_field", disabled=used > 0, icon=":material/delete:",
                 help="Only a field that no document of this collection has a value for."
                      + (f" {used} document(s) have one." if used else "")):
        with user_errors("Could not drop the field"):
            svc.collections.drop_schema_field(coll.name, name)
            flash(Keys.COLLECTIONS_FLASH, md_escape(f"Field {name} dropped from the schema."))
            st.rerun()
