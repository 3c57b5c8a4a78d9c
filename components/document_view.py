"""One document: the cited passage, the text as Markdown with find-in-document, and its chunks with previews."""

from __future__ import annotations

import re

import streamlit as st

from components.markdown_text import md_escape
from components.rich_text import markdown_html, with_marks
from services.documents import ChunkView, DocumentView
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
