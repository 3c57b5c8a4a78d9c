"""Documents: list and filter (schema fields as columns, a row click opens one), view with the cited passage
highlighted and find-in-document, chunks with previews, update metadata, delete."""

import streamlit as st

from components.app_shell import serve
from components.document_list import document_table, filtered_documents, open_document
from components.document_view import chunks_tab, cited_passage, content_tab, delete_tab, document_header, read_only_tabs
from components.feedback import user_errors
from components.metadata_editor import metadata_tab
from components.permissions import may
from components.resources import get_services
from components.state import Keys, flash


def render() -> None:
    svc = get_services()
    st.title("Documents")
    flash(Keys.DOCUMENTS_FLASH)
    cited_box = st.container()  # a cited passage shows here, at the top of the view, once its document is open
    collections, scope, docs = filtered_documents(svc)
    if docs:
        document_table(collections, scope, docs)
    doc_id = st.query_params.get("doc")
    chosen = open_document(docs, doc_id)
    if chosen is None:
        st.stop()
    view = None
    with user_errors("Could not open the document"):
        view = svc.documents.get(chosen)
    if view is None:
        st.stop()
    doc = view.summary
    document_header(doc)

    # A linked chunk belongs to the linked document: once another one is chosen, it no longer applies.
    chunk_param, chunk_id_param = st.query_params.get("chunk"), st.query_params.get("chunk_id")
    focus = None if str(doc.id) != doc_id else next(
        (c for c in view.chunks if (chunk_param and str(c.chunk_index) == chunk_param)
         or (chunk_id_param and str(c.id) == chunk_id_param)), None)
    if focus is not None:
        with cited_box:
            cited_passage(doc.title, focus, back=st.query_params.get("from"))
    notice = st.container()  # a save's outcome shows here, above the tabs, whatever tab is open
    # Keyed and tracked, the tabs stay on the one the user opened across reruns (a save, a failed save).
    if not may(svc, doc.collections[0] if doc.collections else "", "editor") or \
            not all(may(svc, name, "editor") for name in doc.collections):
        read_only_tabs(view, focus)
        return
    content, chunks, meta, delete = st.tabs(["Content", "Chunks", "Metadata", "Delete"], key=Keys.DOCUMENTS_TAB, on_change="rerun")
    with content:
        content_tab(view, focus)
    with chunks:
        chunks_tab(view, focus)
    with meta:
        metadata_tab(svc, doc, notice)
    with delete:
        delete_tab(svc, doc)


serve(render)
