"""Documents: list and filter (schema fields as columns, a row click opens one), view with the cited passage
highlighted and find-in-document, chunks with previews, update metadata, delete."""

import pandas as pd
import streamlit as st

from components.app_shell import serve
from components.document_view import chunks_tab, cited_passage, content_tab
from components.feedback import parse_json_object, user_errors
from components.markdown_text import md_escape
from components.metadata_editor import metadata_tab
from components.permissions import may
from components.pickers import collection_index, remember_collection
from components.resources import get_services
from components.state import Keys, flash

PICKED = "documents.picked_row"  # the last row click handled, so a rerun does not undo a later choice
OPEN_NONCE = "documents.open_nonce"  # moves with each row click: the "Open document" box starts anew


def _list(svc, collections, scope, docs) -> None:
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


def render() -> None:
    svc = get_services()
    st.title("Documents")
    flash(Keys.DOCUMENTS_FLASH)
    cited_box = st.container()  # a cited passage shows here, at the top of the view, once its document is open

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

    docs = []
    if meta_filter is not None:
        with user_errors("Could not list documents"):
            coll_id = svc.collections.get(scope).id if scope != "All" else None
            docs = svc.documents.list(collection_id=coll_id, title_contains=title_filter,
                                      metadata_filter=meta_filter or None, limit=500)
    st.caption(f"{len(docs)} document(s)" + (" (first 500)" if len(docs) == 500 else "")
               + (" · click a row to open it" if docs else ""))
    if docs:
        _list(svc, collections, scope, docs)

    doc_id = params.get("doc")
    options = {d.id: d.title for d in docs}
    if doc_id and doc_id.isdigit() and int(doc_id) not in options:
        options = {int(doc_id): f"document {doc_id}", **options}
    if not options:
        st.stop()
    ids = list(options)
    chosen = st.selectbox("Open document", ids, format_func=lambda i: f"{options[i]} (id {i})",
                          index=ids.index(int(doc_id)) if doc_id and doc_id.isdigit() else 0,
                          key="documents.open" + (f".{n}" if (n := st.session_state.get(OPEN_NONCE, 0)) else ""))

    view = None
    with user_errors("Could not open the document"):
        view = svc.documents.get(chosen)
    if view is None:
        st.stop()
    doc = view.summary
    st.subheader(md_escape(doc.title))
    st.caption(md_escape(f"id {doc.id} · {doc.source_type} · {doc.source} · version {doc.version} · "
                         f"{doc.chunk_count} chunks · collections: {', '.join(doc.collections)}"))
    if doc.metadata:
        st.caption(" · ".join(f"**{md_escape(k)}** {md_escape(v)}" for k, v in list(doc.metadata.items())[:8]))

    # A linked chunk belongs to the linked document: once another one is chosen, it no longer applies.
    chunk_param, chunk_id_param = params.get("chunk"), params.get("chunk_id")
    focus = None if str(doc.id) != doc_id else next(
        (c for c in view.chunks if (chunk_param and str(c.chunk_index) == chunk_param)
         or (chunk_id_param and str(c.id) == chunk_id_param)), None)
    if focus is not None:
        with cited_box:
            cited_passage(doc.title, focus, back=params.get("from"))
    graph_line = {"done": f"graph: {doc.graph_entities} entities, {doc.graph_facts} facts",
                  "pending": "graph: pending (not extracted yet; rebuild it on the Ingest page)",
                  "failed": f"graph: FAILED ({doc.graph_error}); rebuild it on the Ingest page",
                  "disabled": "graph: off", "none": "graph: not built"}.get(doc.graph_status, doc.graph_status)
    st.caption(md_escape(graph_line))
    notice = st.container()  # a save's outcome shows here, above the tabs, whatever tab is open
    # Keyed and tracked, the tabs stay on the one the user opened across reruns (a save, a failed save).
    if not may(svc, doc.collections[0] if doc.collections else "", "editor") or \
            not all(may(svc, name, "editor") for name in doc.collections):
        _read_only(view, focus, doc)
        return
    content, chunks, meta, delete = st.tabs(["Content", "Chunks", "Metadata", "Delete"], key=Keys.DOCUMENTS_TAB, on_change="rerun")
    with content:
        content_tab(view, focus)
    with chunks:
        chunks_tab(view, focus)
    with meta:
        metadata_tab(svc, doc, notice)
    with delete:
        st.warning("Deleting removes the document from every collection, with all its chunks.", icon=":material/warning:")
        sure = st.checkbox("I understand", key="documents.confirm_delete")
        if st.button("Delete document", type="primary", disabled=not sure, key="documents.delete"):
            with user_errors("Could not delete"):
                svc.documents.delete(doc.id)
                st.query_params.clear()
                flash(Keys.DOCUMENTS_FLASH, md_escape(f"Deleted {doc.title!r}."))
                st.rerun()


def _read_only(view, focus, doc) -> None:
    """A viewer's document: its text, chunks and metadata, with no edit or delete control."""
    content, chunks, meta = st.tabs(["Content", "Chunks", "Metadata"], key=Keys.DOCUMENTS_TAB + ".read", on_change="rerun")
    with content:
        content_tab(view, focus)
    with chunks:
        chunks_tab(view, focus)
    with meta:
        st.caption("You may read this document; editing it needs the editor role.")
        st.json(doc.metadata)


serve(render)
