"""One document: its header, the cited passage, the text as Markdown with find-in-document, its chunks with
previews, a viewer's read-only tabs and the Delete tab."""

from __future__ import annotations

import re

import streamlit as st

from components.feedback import user_errors
from components.markdown_text import md_escape
from components.rich_text import markdown_html, with_marks
from components.state import Keys, flash
from services.container import Services
from services.documents import ChunkView, DocumentSummary, DocumentView
from services.page_ref import page_ref

SHOWN_CHARS = 200_000  # a longer document is drawn up to here; find-in-document still searches all of it
SNIPPETS = 30


def preview(text: str, chars: int = 70) -> str:
    """The first words of a chunk, on one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= chars else flat[:chars].rsplit(" ", 1)[0] + "…"


def find_spans(text: str, needle: str) -> list[tuple[int, int]]:
    """Where ``needle`` occurs in ``text``, ignoring case."""
    if not needle.strip():
        return []
    return [(m.start(), m.end()) for m in re.finditer(re.escape(needle.strip()), text, flags=re.I)]


BACK = {"ask": ("pages/ask.py", "Back to the conversation", ":material/forum:")}


def cited_passage(title: str, focus: ChunkView, back: str | None = None) -> None:
    """The passage a citation or search hit opened, highlighted, first on the page (above the documents table);
    ``back`` ("ask") adds a link back to the page that opened it."""
    page = page_ref(focus.metadata)
    heading = " › ".join(focus.heading_path)
    with st.container(border=True):
        st.caption(md_escape(f"The cited passage of {title}: {page + ', ' if page else ''}"
                             f"{heading + ', ' if heading else ''}chunk {focus.chunk_index}, characters "
                             f"{focus.char_start}–{focus.char_end}; highlighted again in the whole document below."))
        st.html(markdown_html(with_marks(focus.text, [(0, len(focus.text))]), css_class="rag-chunk"))
        if back in BACK:
            path, label, icon = BACK[back]
            st.page_link(path, label=label, icon=icon)


def content_tab(view: DocumentView, focus: ChunkView | None) -> None:
    text = view.content
    needle = st.text_input("Find in document", key="documents.find", placeholder="a word or phrase",
                           help="Highlights every occurrence (ignoring case) and lists where they are.")
    found = find_spans(text, needle)
    if needle.strip():
        st.caption(f"{len(found)} match(es) for “{md_escape(needle.strip())}”")
        if found:
            with st.expander(f"Where ({min(len(found), SNIPPETS)} shown)", expanded=len(text) > 20_000,
                             icon=":material/format_list_bulleted:"):
                for start, end in found[:SNIPPETS]:
                    lo, hi = max(0, start - 80), min(len(text), end + 80)
                    snippet = with_marks(text[lo:hi], [(start - lo, end - lo)])
                    st.html(markdown_html(("…" if lo else "") + " ".join(snippet.split()) + ("…" if hi < len(text) else "")))
    spans = found or ([(focus.char_start, focus.char_end)] if focus is not None else [])
    shown = text[:SHOWN_CHARS]
    if len(text) > SHOWN_CHARS:
        st.caption(f"Showing the first {SHOWN_CHARS:,} of {len(text):,} characters; find-in-document searches all of it.")
    st.html(markdown_html(with_marks(shown, spans), css_class="rag-document"))


def chunks_tab(view: DocumentView, focus: ChunkView | None) -> None:
    for chunk in view.chunks:
        heading = " › ".join(chunk.heading_path)
        page = page_ref(chunk.metadata)
        label = (f"Chunk {chunk.chunk_index} · {chunk.char_start}–{chunk.char_end}" + (f" · {page}" if page else "")
                 + (f" · {heading}" if heading else "") + f" · “{preview(chunk.text)}”")
        with st.expander(md_escape(label), expanded=focus is not None and chunk.chunk_index == focus.chunk_index):
            st.html(markdown_html(chunk.text))


GRAPH_LINES = {"pending": "graph: pending (not extracted yet; rebuild it on the Ingest page)",
               "disabled": "graph: off", "none": "graph: not built"}


def document_header(doc: DocumentSummary) -> None:
    """Title, where it comes from, its first metadata and its graph status (a failed one with its reason)."""
    st.subheader(md_escape(doc.title))
    st.caption(md_escape(f"id {doc.id} · {doc.source_type} · {doc.source} · version {doc.version} · "
                         f"{doc.chunk_count} chunks · collections: {', '.join(doc.collections)}"))
    if doc.metadata:
        st.caption(" · ".join(f"**{md_escape(k)}** {md_escape(v)}" for k, v in list(doc.metadata.items())[:8]))
    graph_line = {"done": f"graph: {doc.graph_entities} entities, {doc.graph_facts} facts",
                  "failed": f"graph: FAILED ({doc.graph_error}); rebuild it on the Ingest page",
                  **GRAPH_LINES}.get(doc.graph_status, doc.graph_status)
    st.caption(md_escape(graph_line))


def read_only_tabs(view: DocumentView, focus: ChunkView | None) -> None:
    """A viewer's document: its text, chunks and metadata, with no edit or delete control."""
    content, chunks, meta = st.tabs(["Content", "Chunks", "Metadata"], key=Keys.DOCUMENTS_TAB + ".read", on_change="rerun")
    with content:
        content_tab(view, focus)
    with chunks:
        chunks_tab(view, focus)
    with meta:
        st.caption("You may read this document; editing it needs the editor role.")
        st.json(view.summary.metadata)


def delete_tab(svc: Services, doc: DocumentSummary) -> None:
    """Delete the document (from both stores, every collection), once the user ticks that they understand."""
    st.warning("Deleting removes the document from every collection, with all its chunks.", icon=":material/warning:")
    sure = st.checkbox("I understand", key="documents.confirm_delete")
    if st.button("Delete document", type="primary", disabled=not sure, key="documents.delete"):
        with user_errors("Could not delete"):
            svc.deletion.delete_document(doc.id)
            st.query_params.clear()
            flash(Keys.DOCUMENTS_FLASH, md_escape(f"Deleted {doc.title!r}."))
            st.rerun()
