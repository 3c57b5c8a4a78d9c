"""Session-state keys, namespaced per page so that pages never share state by accident."""

from __future__ import annotations

from typing import Any

import streamlit as st


class Keys:
    LAST_COLLECTION = "shell.last_collection"  # the collection last worked on: every page's default (pickers.py)
    INGEST_JOB = "ingest.job_id"
    INGEST_UPLOAD_NONCE = "ingest.upload_nonce"
    INGEST_REQUEST = "ingest.request"  # {"job_id", "request"}: what the live job ran, for "Retry the failed files"
    INGEST_CLEAR_UPLOADS = "ingest.clear_uploads"  # the upload job whose success empties the file picker
    SEARCH_RESPONSE = "search.response"
    COLLECTIONS_SELECTED = "collections.selected"
    COLLECTIONS_FLASH = "collections.flash"
    COLLECTIONS_FORM_NONCE = "collections.form_nonce"  # a new create form (empty fields) after each create
    COLLECTIONS_CREATED = "collections.created"  # the collection just created: its "next step" links
    DOCUMENTS_FLASH = "documents.flash"
    DOCUMENTS_META_COPY = "documents.meta_copy"  # the metadata the editor opened: {document_id, etag, metadata}
    DOCUMENTS_TAB = "documents.tab"  # the open tab, kept across saves (a failed save stays in view)
    ASK_CONVERSATION = "ask.conversation_id"
    ASK_SCOPE = "ask.scope_kept"  # the collections asked about, kept while another page is open (a cited passage)
    GRAPH_EDIT_FLASH = "graph.edit_flash"  # what the last edit did, shown after the rerun it causes
    AUTH_SIGNED_IN = "auth.signed_in"  # set by components/auth.py after the right password
    AUTH_USER = "auth.user"  # the signed-in user's name, or "" (components/auth.py, once users exist)
    AUTH_VISITOR = "auth.visitor"  # an anonymous visitor's session id, or "" (the demo case)


_DEFAULTS: dict[str, Any] = {
    Keys.LAST_COLLECTION: None,
    Keys.INGEST_JOB: None,
    Keys.INGEST_UPLOAD_NONCE: 0,
    Keys.INGEST_REQUEST: None,
    Keys.INGEST_CLEAR_UPLOADS: None,
    Keys.SEARCH_RESPONSE: None,
    Keys.COLLECTIONS_SELECTED: None,
    Keys.COLLECTIONS_FLASH: None,
    Keys.COLLECTIONS_FORM_NONCE: 0,
    Keys.COLLECTIONS_CREATED: None,
    Keys.DOCUMENTS_FLASH: None,
    Keys.DOCUMENTS_META_COPY: None,
    Keys.ASK_CONVERSATION: None,
    Keys.ASK_SCOPE: None,
    Keys.GRAPH_EDIT_FLASH: None,
    Keys.AUTH_SIGNED_IN: False,
    Keys.AUTH_USER: "",
    Keys.AUTH_VISITOR: "",
}


def init_state() -> None:
    """Give every key its default once per session (called by the app shell before any page)."""
    for key, value in _DEFAULTS.items():
        st.session_state.setdefault(key, value)


def flash(key: str, message: str | None = None) -> None:
    """Show (and clear) a message stored under ``key``, or store one for the next run."""
    if message is not None:
        st.session_state[key] = message
        return
    pending = st.session_state.get(key)
    if pending:
        st.success(pending, icon=":material/check_circle:")
        st.session_state[key] = None
