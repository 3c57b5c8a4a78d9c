"""Search results grouped by document: the document's schema fields as badges, each hit's score, place and
highlighted text (as Markdown), a link that opens it; each linked flowchart once per result list."""

from __future__ import annotations

import html
from typing import Any

import streamlit as st

from components.diagram_view import show_diagram
from components.markdown_text import md_escape
from components.rich_text import markdown_html, segments_text
from services.container import Services
from services.page_ref import page_ref
from services.retrieval.ranked_chunk import RankedChunk
from services.retrieval.search import SearchResponse

_BADGE = ('<span style="display:inline-block;margin:0 6px 4px 0;padding:1px 8px;border-radius:10px;'
          'background:#eef2f7;color:#31465f;font-size:0.8rem">{}</span>')


def badges_html(metadata: dict[str, Any], fields: list[str]) -> str:
    """The fields (the collection's schema first) as small badges: "year 1846"; empty when none is set."""
    shown = [f for f in fields if metadata.get(f) not in (None, "")] or [
        k for k, v in metadata.items() if isinstance(v, (str, int, float)) and k != "source_title"][:3]
    return "".join(_BADGE.format(html.escape(f"{k} {metadata[k]}")) for k in shown)


_LISTS = {"question": "in the question's ranking (semantic + keyword)",
          "widened": "in the keyword search widened by the best results' words"}


def score_lines(hit: RankedChunk, mode: str) -> list[str]:
    """What placed the hit, for its "Scores" expander. Hybrid's score is one over the hit's best rank in the
    two lists it interleaves, so two hits can share it: say its rank in each list instead."""
    if mode == "hybrid" and hit.list_ranks:
        lines = [f"rank {rank} {_LISTS.get(name, name)}" for name, rank in hit.list_ranks.items()]
    else:
        lines = [f"score {hit.score:.3f}"]
    scores = ([f"cosine similarity {hit.semantic_score:.3f}"] if hit.semantic_score is not None else []) + (
        [f"BM25 {hit.keyword_score:.2f}"] if hit.keyword_score is not None else [])
    if scores:
        lines.append(" · ".join(scores))
    lines.append(f"chunk {hit.chunk_index} · characters {hit.char_start}–{hit.char_end}")
    return lines


def hit_place(hit: RankedChunk) -> str:
    """Where the passage is, in the reader's terms: its page and heading (else its passage number)."""
    page = page_ref(hit.chunk_metadata)
    parts = ([page] if page else []) + ([" › ".join(hit.heading_path)] if hit.heading_path else [])
    return " · ".join(parts) or f"passage {hit.chunk_index + 1}"


def show_hit(rank: int, hit: RankedChunk, mode: str) -> None:
    head, link = st.columns([6, 1])
    head.markdown(f"**#{rank}** · {md_escape(hit_place(hit))}")
    link.page_link("pages/documents.py", label="Open passage", icon=":material/open_in_new:",
                   query_params={"doc": str(hit.document_id), "chunk": str(hit.chunk_index)})
    st.html(markdown_html(segments_text(hit.segments or [(hit.text, False)]), css_class="rag-chunk"))
    with st.expander("Scores and position", icon=":material/analytics:"):
        for line in score_lines(hit, mode):
            st.caption(md_escape(line))


def group_by_document(hits: list[RankedChunk]) -> list[tuple[int, list[tuple[int, RankedChunk]]]]:
    """(document id, [(rank, hit)...]) in the order of each document's best hit."""
    groups: dict[int, list[tuple[int, RankedChunk]]] = {}
    for rank, hit in enumerate(hits, start=1):
        groups.setdefault(hit.document_id, []).append((rank, hit))
    return list(groups.items())


def linked_diagrams(hits: list[RankedChunk]) -> dict[str, list[int]]:
    """Each flowchart linked to a hit, with the ranks of its hits, in the order of its best hit."""
    found: dict[str, list[int]] = {}
    for rank, hit in enumerate(hits, start=1):
        diagram_id = hit.chunk_metadata.get("associated_diagram_id")
        if diagram_id:
            found.setdefault(diagram_id, []).append(rank)
    return found


def show_response(response: SearchResponse, svc: Services | None = None, fields: list[str] | None = None) -> None:
    for note in response.notes:
        st.info(md_escape(note), icon=":material/info:")
    if not response.hits:
        st.warning("No result above the threshold. Lower the threshold, or try keyword or hybrid mode.",
                   icon=":material/search_off:")
        return
    groups = group_by_document(response.hits)
    timing = " · ".join(f"{k} {v:.0f} ms" for k, v in response.timings_ms.items())
    st.caption(f"{len(response.hits)} results in {len(groups)} document(s) · candidates: semantic "
               f"{response.counts.get('semantic', 0)}, keyword {response.counts.get('keyword', 0)} · {timing}")
    diagrams = linked_diagrams(response.hits)
    if diagrams and svc is not None:
        for n, (diagram_id, ranks) in enumerate(diagrams.items()):
            label = f"Flowchart linked to result{'s' if len(ranks) > 1 else ''} {', '.join(f'#{r}' for r in ranks)}"
            with st.expander(label, expanded=n == 0, icon=":material/account_tree:"):
                passages = [response.hits[r - 1].text for r in ranks]
                show_diagram(svc, diagram_id, key=f"search.diagram.{diagram_id}", passages=passages)
    for document_id, hits in groups:
        first = hits[0][1]
        with st.container(border=True):
            title, link = st.columns([4, 1])
            title.markdown(f"**{md_escape(first.title)}** · {len(hits)} passage{'s' if len(hits) > 1 else ''}")
            link.page_link("pages/documents.py", label="Open document", icon=":material/description:",
                           query_params={"doc": str(document_id)})
            badges = badges_html(first.metadata, fields or [])
            if badges:
                st.html(badges)
            for rank, hit in hits:
                show_hit(rank, hit, response.mode)
