"""Collections: create, list with counts, view, edit the description, change the schema, delete."""

import json

import pandas as pd
import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.markdown_text import md_escape
from components.permissions import may, may_create
from components.pickers import collection_index, remember_collection
from components.resources import get_services
from components.schema_editor import SHORTHAND_HELP, fields_caption, parse_schema, schema_tab
from components.state import Keys, flash


def _create_form(svc, open_: bool) -> None:
    # Widget keys carry a nonce that moves after each create, so the next form starts empty
    # (a second collection must not silently inherit the first one's schema); after a refusal they keep
    # what was typed.
    nonce = st.session_state[Keys.COLLECTIONS_FORM_NONCE]
    with st.expander("Create a collection", expanded=open_, icon=":material/add:"), st.form("collections.create"):
        name = st.text_input("Name", max_chars=100, placeholder="e.g. sotu", key=f"collections.new_name.{nonce}")
        description = st.text_area("Description (required)", placeholder="What it holds and what it is for",
                                   key=f"collections.new_description.{nonce}")
        schema_text = st.text_area("Metadata schema (optional JSON)", key=f"collections.new_schema.{nonce}",
                                   placeholder='{"year": {"type": "integer", "required": true}, "party": "string"}',
                                   help=SHORTHAND_HELP)
        if st.form_submit_button("Create", type="primary"):
            schema = parse_schema(schema_text, "The schema")
            if schema is not None:
                with user_errors("Could not create the collection"):
                    created = svc.collections.create(name=name, description=description, metadata_schema=schema)
                    st.session_state[Keys.COLLECTIONS_SELECTED] = created.name
                    st.session_state[Keys.COLLECTIONS_FORM_NONCE] = nonce + 1
                    st.session_state[Keys.COLLECTIONS_CREATED] = created.name
                    remember_collection(created.name)
                    flash(Keys.COLLECTIONS_FLASH, md_escape(f"Created collection {created.name!r}."))
                    st.rerun()


def _next_step(names: list[str]) -> None:
    created = st.session_state.get(Keys.COLLECTIONS_CREATED)
    if created not in names:
        return
    st.session_state[Keys.COLLECTIONS_CREATED] = None
    with st.container(border=True):
        st.markdown("**Next step:** put documents into it.")
        st.page_link("pages/ingest.py", label=f"Ingest documents into {created}", icon=":material/upload_file:",
                     query_params={"collection": created})


def render() -> None:
    svc = get_services()
    st.title("Collections")
    flash(Keys.COLLECTIONS_FLASH)
    collections = svc.collections.list()
    _next_step([c.name for c in collections])
    if may_create(svc):
        _create_form(svc, open_=not collections)
    if not collections:
        st.info("No collections yet: create one above.", icon=":material/info:")
        st.stop()

    st.dataframe(
        pd.DataFrame([{
            "name": c.name, "description": c.description, "documents": c.document_count, "chunks": c.chunk_count,
            "schema fields": fields_caption(c.metadata_schema) or "—",
            "embedding model": f"{c.embedding_model} ({c.embedding_dim}-d)", "created": c.created_at,
        } for c in collections]),
        hide_index=True, width="stretch",
    )

    names = [c.name for c in collections]
    selected = st.session_state.get(Keys.COLLECTIONS_SELECTED)
    chosen = st.selectbox("Collection", names, key="collections.view",
                          index=names.index(selected) if selected in names else collection_index(svc, collections))
    remember_collection(chosen)
    coll = next(c for c in collections if c.name == chosen)

    editor, owner = may(svc, coll.name, "editor"), may(svc, coll.name, "owner")
    labels = ["Details"] + (["Description", "Schema"] if editor else []) + (["Delete"] if owner else [])
    tabs = dict(zip(labels, st.tabs(labels)))
    info = tabs["Details"]
    with info:
        st.markdown(f"**{coll.document_count}** documents · **{coll.chunk_count}** chunks")
        st.caption(f"Embedding model {coll.embedding_model}, {coll.embedding_dim} dimensions · created {coll.created_at:%Y-%m-%d %H:%M}")
        st.text(coll.description)
        l1, l2, l3 = st.columns(3)
        l1.page_link("pages/ingest.py", label="Ingest documents", icon=":material/upload_file:",
                     query_params={"collection": coll.name})
        l2.page_link("pages/documents.py", label="Browse its documents", icon=":material/description:",
                     query_params={"collection": coll.name})
        l3.page_link("pages/search.py", label="Search it", icon=":material/search:",
                     query_params={"collection": coll.name})
    if editor:
        _edit_tabs(svc, coll, tabs["Description"], tabs["Schema"])
    if owner:
        _delete_tab(svc, coll, tabs["Delete"])

    with st.expander("Schema as JSON, for the CLI", icon=":material/code:"):
        st.code(json.dumps(coll.metadata_schema, indent=2), language="json")


def _edit_tabs(svc, coll, edit, schema_) -> None:
    with edit:
        with st.form("collections.edit"):
            new_description = st.text_area("Description", value=coll.description)
            if st.form_submit_button("Save description"):
                with user_errors("Could not save"):
                    svc.collections.update_description(coll.name, new_description)
                    flash(Keys.COLLECTIONS_FLASH, "Description saved.")
                    st.rerun()
    with schema_:
        schema_tab(svc, coll)


def _delete_tab(svc, coll, danger) -> None:
    with danger:
        st.warning(f"Deleting {md_escape(repr(coll.name))} removes it and the {coll.document_count} documents that only it holds, "
                   "with their chunks.", icon=":material/warning:")
        confirm = st.text_input("Type the collection name to confirm", key="collections.confirm_delete")
        if st.button("Delete collection", type="primary", disabled=confirm.strip() != coll.name):
            with user_errors("Could not delete"):
                removed = svc.deletion.delete_collection(coll.name)
                st.session_state[Keys.COLLECTIONS_SELECTED] = None
                flash(Keys.COLLECTIONS_FLASH, md_escape(f"Deleted {coll.name!r} and {removed} document(s)."))
                st.rerun()


serve(render)
