"""Collections: create, list with counts, view, edit the description, add schema fields, delete."""

import json

import pandas as pd
import streamlit as st

from components.app_shell import serve
from components.feedback import parse_json_object, user_errors
from components.markdown_text import md_escape
from components.resources import get_services
from components.state import Keys, flash


def render() -> None:
    svc = get_services()
    st.title("Collections")
    flash(Keys.COLLECTIONS_FLASH)

    with st.expander("Create a collection", expanded=not svc.collections.list(), icon=":material/add:"):
        with st.form("collections.create", clear_on_submit=False):
            name = st.text_input("Name", max_chars=100, placeholder="e.g. sotu")
            description = st.text_area("Description (required)", placeholder="What it holds and what it is for")
            schema_text = st.text_area(
                "Metadata schema (optional JSON)", placeholder='{"custom": {"year": {"type": "integer", "required": true}}}',
                help="Field types: string, integer, number, boolean, date, list.",
            )
            if st.form_submit_button("Create", type="primary"):
                schema = parse_json_object(schema_text, "The schema")
                if schema is not None:
                    with user_errors("Could not create the collection"):
                        created = svc.collections.create(name=name, description=description, metadata_schema=schema)
                        st.session_state[Keys.COLLECTIONS_SELECTED] = created.name
                        flash(Keys.COLLECTIONS_FLASH, md_escape(f"Created collection {created.name!r}."))
                        st.rerun()

    collections = svc.collections.list()
    if not collections:
        st.info("No collections yet.", icon=":material/info:")
        st.stop()

    st.dataframe(
        pd.DataFrame([{
            "name": c.name, "description": c.description, "documents": c.document_count, "chunks": c.chunk_count,
            "schema fields": ", ".join(c.metadata_schema.get("custom", {})) or "—",
            "embedding model": f"{c.embedding_model} ({c.embedding_dim}-d)", "created": c.created_at,
        } for c in collections]),
        hide_index=True, width="stretch",
    )

    names = [c.name for c in collections]
    selected = st.session_state.get(Keys.COLLECTIONS_SELECTED)
    chosen = st.selectbox("Collection", names, index=names.index(selected) if selected in names else 0,
                          key="collections.view")
    coll = next(c for c in collections if c.name == chosen)

    info, edit, schema_tab, danger = st.tabs(["Details", "Description", "Schema", "Delete"])
    with info:
        st.markdown(f"**{coll.document_count}** documents · **{coll.chunk_count}** chunks")
        st.caption(f"Embedding model {coll.embedding_model}, {coll.embedding_dim} dimensions · created {coll.created_at:%Y-%m-%d %H:%M}")
        st.text(coll.description)
        st.page_link("pages/documents.py", label="Browse its documents", icon=":material/description:",
                     query_params={"collection": coll.name})
    with edit:
        with st.form("collections.edit"):
            new_description = st.text_area("Description", value=coll.description)
            if st.form_submit_button("Save description"):
                with user_errors("Could not save"):
                    svc.collections.update_description(coll.name, new_description)
                    flash(Keys.COLLECTIONS_FLASH, "Description saved.")
                    st.rerun()
    with schema_tab:
        st.json(coll.metadata_schema)
        with st.form("collections.schema"):
            addition = st.text_area("Fields to add (JSON)", placeholder='{"custom": {"party": {"type": "string"}}}',
                                    help="Schemas are additive: existing fields cannot change. A required field "
                                         "can only be added while the collection is empty.")
            if st.form_submit_button("Add fields"):
                fields = parse_json_object(addition, "The fields")
                if fields:
                    with user_errors("Could not add the fields"):
                        svc.collections.add_schema_fields(coll.name, fields)
                        flash(Keys.COLLECTIONS_FLASH, "Schema updated.")
                        st.rerun()
    with danger:
        st.warning(f"Deleting {md_escape(repr(coll.name))} removes it and the {coll.document_count} documents that only it holds, "
                   "with their chunks.", icon=":material/warning:")
        confirm = st.text_input("Type the collection name to confirm", key="collections.confirm_delete")
        if st.button("Delete collection", type="primary", disabled=confirm.strip() != coll.name):
            with user_errors("Could not delete"):
                removed = svc.collections.delete(coll.name)
                st.session_state[Keys.COLLECTIONS_SELECTED] = None
                flash(Keys.COLLECTIONS_FLASH, md_escape(f"Deleted {coll.name!r} and {removed} document(s)."))
                st.rerun()

    with st.expander("Schema as JSON, for the CLI", icon=":material/code:"):
        st.code(json.dumps(coll.metadata_schema, indent=2), language="json")


serve(render)
