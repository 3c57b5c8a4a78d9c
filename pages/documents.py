"""Documents: list and filter, view (with the cited chunk highlighted), update metadata, delete."""

import json

import pandas as pd
import streamlit as st

from components.app_shell import serve
from components.feedback import parse_json_object, user_errors
from components.highlight import show_highlighted
from components.markdown_text import md_escape
from components.metadata_editor import metadata_tab
from components.resources import get_services
from components.state import Keys, flash


def render() -> None:
    svc = get_services()
    st.title("Documents")
    flash(Keys.DOCUMENTS_FLASH)

    params = st.query_params
    names = [c.name for c in svc.collections.list()]
    wanted = params.get("collection")
    c1, c2, c3 = st.columns([2, 2, 3])
    scope = c1.selectbox("Collection", ["All"] + names, key="documents.collection",
                         index=(names.index(wanted) + 1) if wanted in names else 0)
    title_filter = c2.text_input("Title contains", key="documents.title")
    meta_text = c3.text_input("Metadata equals (JSON)", key="documents.meta", placeholder='{"party": "Whig"}')
    meta_filter = parse_json_object(meta_text, "The metadata filter")

    docs = []
    if meta_filter is not None:
        with user_errors("Could not list documents"):
            coll_id = svc.collections.get(scope).id if scope != "All" else None
            docs = svc.documents.list(collection_id=coll_id, title_contains=title_filter,
                                      metadata_filter=meta_filter or None, limit=500)
    st.caption(f"{len(docs)} document(s)" + (" (first 500)" if len(docs) == 500 else ""))
    if docs:
        st.dataframe(pd.DataFrame([{
            "id": d.id, "title": d.title, "collections": ", ".join(d.collections), "chunks": d.chunk_count,
            "characters": d.char_count, "version": d.version, "graph": d.graph_status, "facts": d.graph_facts,
            "metadata": json.dumps(d.metadata), "updated": d.updated_at,
        } for d in docs]), hide_index=True, width="stretch", height=min(400, 38 + 35 * len(docs)))

    doc_id = params.get("doc")
    options = {d.id: d.title for d in docs}
    if doc_id and doc_id.isdigit() and int(doc_id) not in options:
        options = {int(doc_id): f"document {doc_id}", **options}
    if not options:
        st.stop()
    ids = list(options)
    chosen = st.selectbox("Open document", ids, format_func=lambda i: f"{options[i]} (id {i})",
                          index=ids.index(int(doc_id)) if doc_id and doc_id.isdigit() else 0, key="documents.open")

    view = None
    with user_errors("Could not open the document"):
        view = svc.documents.get(chosen)
    if view is None:
        st.stop()
    doc = view.summary
    st.subheader(md_escape(doc.title))
    st.caption(md_escape(f"id {doc.id} · {doc.source_type} · {doc.source} · version {doc.version} · "
                         f"{doc.chunk_count} chunks · collections: {', '.join(doc.collections)}"))

    chunk_param, chunk_id_param = params.get("chunk"), params.get("chunk_id")
    focus = next((c for c in view.chunks if (chunk_param and str(c.chunk_index) == chunk_param)
                  or (chunk_id_param and str(c.id) == chunk_id_param)), None)
    graph_line = {"done": f"graph: {doc.graph_entities} entities, {doc.graph_facts} facts",
                  "pending": "graph: pending (not extracted yet; rebuild it on the Ingest page)",
                  "failed": f"graph: FAILED ({doc.graph_error}); rebuild it on the Ingest page",
                  "disabled": "graph: off", "none": "graph: not built"}.get(doc.graph_status, doc.graph_status)
    st.caption(md_escape(graph_line))
    content_tab, chunks_tab, meta_tab, delete_tab = st.tabs(["Content", "Chunks", "Metadata", "Delete"])
    with content_tab:
        if focus is not None:
            st.caption(f"Highlighted: chunk {focus.chunk_index}, characters {focus.char_start}–{focus.char_end}")
            text = view.content
            show_highlighted([(text[: focus.char_start], False), (text[focus.char_start : focus.char_end], True),
                              (text[focus.char_end :], False)])
        else:
            show_highlighted([(view.content, False)])
    with chunks_tab:
        for chunk in view.chunks:
            heading = " › ".join(chunk.heading_path)
            with st.expander(f"Chunk {chunk.chunk_index} · {chunk.char_start}–{chunk.char_end}" + (f" · {heading}" if heading else ""),
                             expanded=focus is not None and chunk.chunk_index == focus.chunk_index):
                st.text(chunk.text)
    with meta_tab:
        metadata_tab(svc, doc)
    with delete_tab:
        st.warning("Deleting removes the document from every collection, with all its chunks.", icon=":material/warning:")
        sure = st.checkbox("I understand", key="documents.confirm_delete")
        if st.button("Delete document", type="primary", disabled=not sure, key="documents.delete"):
            with user_errors("Could not delete"):
                svc.documents.delete(doc.id)
                st.query_params.clear()
                flash(Keys.DOCUMENTS_FLASH, md_escape(f"Deleted {doc.title!r}."))
                st.rerun()


serve(render)
