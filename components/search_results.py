"""One search result: score, source, position, highlighted text and a link to the whole document."""

from __future__ import annotations

import streamlit as st

from components.diagram_view import show_diagram
from components.highlight import show_highlighted
from components.markdown_text import md_escape
from services.container import Services
from services.retrieval.search import SearchHit, SearchResponse


def _score_line(hit: SearchHit, mode: str) -> str:
    parts = [f"score **{hit.score:.3f}**" + (" (fused)" if mode == "hybrid" else "")]
    if hit.semantic_score is not None:
        parts.append(f"cosine {hit.semantic_score:.3f}")
    if hit.keyword_score is not None:
        parts.append(f"keyword rank {hit.keyword_score:.4f}")
    return " · ".join(parts)


def show_hit(rank: int, hit: SearchHit, mode: str, svc: Services | None = None) -> None:
    with st.container(border=True):
        head, link = st.columns([5, 1])
        head.markdown(f"**{rank}. {md_escape(hit.title)}**")
        with link:
            st.page_link("pages/documents.py", label="View document", icon=":material/open_in_new:",
                         query_params={"doc": str(hit.document_id), "chunk": str(hit.chunk_index)})
        where = f"chunk {hit.chunk_index} · characters {hit.char_start}–{hit.char_end}"
        if hit.heading_path:
            where += " · " + " › ".join(hit.heading_path)
        st.caption(_score_line(hit, mode) + " · " + md_escape(where))
        show_highlighted(hit.segments or [(hit.text, False)])
        diagram_id = hit.chunk_metadata.get("associated_diagram_id")
        if diagram_id and svc is not None:
            with st.expander("Flowchart linked to this passage", expanded=rank <= 3, icon=":material/account_tree:"):
                show_diagram(svc, diagram_id, key=f"search.hit.{hit.chunk_id}")


def show_response(response: SearchResponse, svc: Services | None = None) -> None:
    for note in response.notes:
        st.info(md_escape(note), icon=":material/info:")
    if not response.hits:
        st.warning("No result above the threshold. Lower the threshold, or try keyword or hybrid mode.",
                   icon=":material/search_off:")
        return
    timing = " · ".join(f"{k} {v:.0f} ms" for k, v in response.timings_ms.items())
    st.caption(f"{len(response.hits)} results · candidates: semantic {response.counts.get('semantic', 0)}, "
               f"keyword {response.counts.get('keyword', 0)} · {timing}")
    for rank, hit in enumerate(response.hits, start=1):
        show_hit(rank, hit, response.mode, svc)

