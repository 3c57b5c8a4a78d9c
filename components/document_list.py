"""The Documents page's list: the filters (collection, title, metadata), the table with the collection's schema
fields as columns (a row click opens a document) and the "Open document" box. Keys start with ``documents.``."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.feedback import parse_json_object, user_errors
from components.pickers import collection_index, remember_collection
from services.collections import Collection
from services.container import Services
from services.documents import DocumentSummary

PICKED = "documents.picked_row"  # the last row click handled, so a rerun does not undo a later choice
OPEN_NONCE = "documents.open_nonce"  # moves with each row click: the "Open document" box starts anew
LIMIT = 500


def filtered_documents(svc: Services) -> tuple[list[Collection], str, list[DocumentSummary]]:
    """The filter row and the documents it selects (the first 500); returns (collections, scope, documents)."""
    params = st.query_params
    collections = svc.collections.list()
    names = [c.name for c in collections]
    c1, c2, c3 = st.columns([2, 2, 3])
    linked_doc = params.get("doc")
    scope = c1.selectbox("Collection", ["All"] + names, key="documents.collection",
                         index=0 if linked_doc and "collection" not in params else collection_index(svc, collections, offset=1))
    if scope != "All":
        remember_collection(scope)
    title_filter = c2.text_input("Title contains", key="documents.title")
    meta_text = c3.text_input("Metadata equals (JSON)", key="documents.meta", placeholder='{"party": "Whig"}')
    meta_filter = parse_json_object(meta_text, "The metadata filter")
    docs: list[DocumentSummary] = []
    if meta_filter is not None:
        with user_errors("Could not list documents"):
            coll_id = svc.collections.get(scope).id if scope != "All" else None
            docs = svc.documents.list(collection_id=coll_id, title_contains=title_filter,
                                      metadata_filter=meta_filter or None, limit=LIMIT)
    st.caption(f"{len(docs)} document(s)" + (f" (first {LIMIT})" if len(docs) == LIMIT else "")
               + (" · click a row to open it" if docs else ""))
    return collections, scope, docs


def document_table(collections: list[Collection], scope: str, docs: list[DocumentSummary]) -> None:
    """The documents as a table with the collection's schema fields as columns; a row click opens one."""
    fields: list[str] = []
    for c in collections:
        if scope in ("All", c.name):
            fields += [f for f in c.metadata_schema.get("custom", {}) if f not in fields]
    rows = [{"title": d.title, **{f: d.metadata.get(f) for f in fields}, "chunks": d.chunk_count,
             "characters": d.char_count, "graph": d.graph_status, "collections": ", ".join(d.collections),
             "id": d.id, "updated": d.updated_at} for d in docs]
    event = st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=min(400, 38 + 35 * len(docs)),
                         on_select="rerun", selection_mode="single-row", key="documents.table")
    picked = event.selection.rows[0] if event and event.selection.rows else None
    if picked is not None and picked < len(docs) and st.session_state.get(PICKED) != (scope, docs[picked].id):
        st.session_state[PICKED] = (scope, docs[picked].id)
        # A new "Open document" box, drawn on the clicked document (from ?doc=): the old one would keep
        # showing, and sending back, its own last choice.
        st.session_state[OPEN_NONCE] = st.session_state.get(OPEN_NONCE, 0) + 1
        st.query_params["doc"] = str(docs[picked].id)
        for stale in ("chunk", "chunk_id", "from"):
            st.query_params.pop(stale, None)


def open_document(docs: list[DocumentSummary], doc_id: str | None) -> int | None:
    """The "Open document" box: the linked document (``?doc=``, listed or not) or one of the list; None when
    there is nothing to open."""
    options = {d.id: d.title for d in docs}
    if doc_id and doc_id.isdigit() and int(doc_id) not in options:
        options = {int(doc_id): f"document {doc_id}", **options}
    if not options:
        return None
    ids = list(options)
    chosen = st.selectbox("Open document", ids, format_func=lambda i: f"{options[i]} (id {i})",
                          index=ids.index(int(doc_id)) if doc_id and doc_id.isdigit() else 0,
                          key="documents.open" + (f".{n}" if (n := st.session_state.get(OPEN_NONCE, 0)) else ""))
    return int(chosen)
