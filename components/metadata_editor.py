"""The Documents page's metadata tab: merge fields in, or edit the whole object without undoing others' edits.

The whole-object editor keeps the copy the user opened (its ``metadata_etag``) in
session state, because every Streamlit rerun reads the document again: comparing
against a fresh read at save time would let a stale copy overwrite someone else's
change. The service refuses the save when the stored metadata no longer matches
the copy, and the user reloads.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from components.feedback import parse_json_object, user_errors
from components.state import Keys, flash
from services.container import Services
from services.documents import DocumentSummary

CHANGED_MEANWHILE = ("This document's metadata changed since you opened the editor (above: as it is now). "
                     "Reload the editor to edit the current values.")


def _opened_copy(doc: DocumentSummary) -> dict[str, Any]:
    """The metadata as this session first saw it, kept until a save or a reload."""
    copy = st.session_state.get(Keys.DOCUMENTS_META_COPY)
    if not copy or copy["document_id"] != doc.id:
        copy = {"document_id": doc.id, "etag": doc.metadata_etag, "metadata": doc.metadata}
        st.session_state[Keys.DOCUMENTS_META_COPY] = copy
    return copy


def _saved(message: str) -> None:
    st.session_state[Keys.DOCUMENTS_META_COPY] = None
    flash(Keys.DOCUMENTS_FLASH, message)
    st.rerun()


def metadata_tab(svc: Services, doc: DocumentSummary, notice: Any) -> None:
    """The editor; the outcome of a save that fails shows in ``notice`` (above the tabs) as well as the tab
    staying open, so nobody misses it."""
    st.json(doc.metadata)
    with st.form("documents.meta_form"):
        changes_text = st.text_area("Set fields (JSON, merged into the metadata)", placeholder='{"reviewed": true}')
        remove = st.text_input("Remove fields (comma-separated)")
        if st.form_submit_button("Update metadata"):
            with notice:
                changes = parse_json_object(changes_text, "The changes")
            if changes is not None:
                with notice, user_errors("Could not update the metadata"):
                    svc.documents.update_metadata(doc.id, changes, remove=[k.strip() for k in remove.split(",") if k.strip()])
                    _saved("Metadata updated.")

    copy = _opened_copy(doc)
    st.markdown("**Edit the whole metadata**")
    if copy["etag"] != doc.metadata_etag:
        st.info(CHANGED_MEANWHILE, icon=":material/sync_problem:")
    with st.form("documents.meta_replace_form"):
        text = st.text_area("Metadata (JSON; saving replaces it, keys you delete are removed)",
                            value=json.dumps(copy["metadata"], indent=2, ensure_ascii=False),
                            key=f"documents.meta_edit.{doc.id}.{copy['etag']}", height=160)
        if st.form_submit_button("Save metadata"):
            with notice:
                new = parse_json_object(text, "The metadata")
            if new is not None:
                with notice, user_errors("Could not save the metadata"):
                    svc.documents.update_metadata(doc.id, new, replace=True, expected_etag=copy["etag"])
                    _saved("Metadata saved.")
    if st.button("Reload the editor", key="documents.meta_reload", icon=":material/refresh:"):
        st.session_state[Keys.DOCUMENTS_META_COPY] = None
        st.rerun()
