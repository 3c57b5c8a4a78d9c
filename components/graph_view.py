"""Graph display helpers: the agraph canvas, fact tables and source links."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit_agraph import Config, Edge, Node, agraph

from components.markdown_text import md_escape
from services.graph.model import Fact, Subgraph

TYPE_COLOURS = {
    "PERSON": "#4e79a7", "ORG": "#f28e2b", "GPE": "#59a14f", "LOC": "#76b7b2", "NORP": "#edc948",
    "EVENT": "#b07aa1", "LAW": "#ff9da7", "CONCEPT": "#bab0ac", "PRODUCT": "#9c755f", "FAC": "#e15759",
}
DEFAULT_COLOUR = "#8cd17d"


def colour_for(kind: str) -> str:
    return TYPE_COLOURS.get(kind, DEFAULT_COLOUR)


def show_canvas(graph: Subgraph, *, focus: str | None, key: str) -> str | None:
    """Draw the subgraph; returns the key of the node the user clicked, if any."""
    nodes = [
        Node(id=e.key, label=e.name[:40], size=28 if e.key == focus else 18, color=colour_for(e.type),
             title=f"{e.name} ({e.type})")
        for e in sorted(graph.nodes.values(), key=lambda n: n.key)
    ]
    edges = [
        Edge(source=f.source_key, target=f.target_key, label=f.relation.replace("_", " "),
             color="#c0c0c0" if f.status == "superseded" else "#555555", dashes=f.status == "superseded")
        for f in graph.facts
    ]
    config = Config(width="100%", height=560, directed=True, physics=True, hierarchical=False,
                    nodeHighlightBehavior=True, highlightColor="#F7A7A6", key=key)
    return agraph(nodes=nodes, edges=edges, config=config)


def facts_frame(facts: list[Fact]) -> pd.DataFrame:
    return pd.DataFrame([{
        "subject": f.source, "relation": f.relation, "object": f.target, "valid_from": f.valid_from,
        "valid_until": f.valid_until, "status": f.status, "date from": f.date_source, "sentence": f.sentence,
        "document": f.document_id, "fact id": f.id,
    } for f in facts])


def show_fact_sources(facts: list[Fact], *, limit: int = 20) -> None:
    """Each fact with its source sentence and a link to the chunk in its document."""
    for fact in facts[:limit]:
        with st.container(border=True):
            until = fact.valid_until or "now"
            st.markdown(f"**{md_escape(fact.source)}** — {md_escape(fact.relation.replace('_', ' '))} → "
                        f"**{md_escape(fact.target)}**")
            st.caption(f"{fact.status} · valid {fact.valid_from} → {until} · date from {fact.date_source}")
            st.text(fact.sentence)
            if fact.document_id is not None:
                st.page_link("pages/documents.py", label="Open the source", icon=":material/open_in_new:",
                             query_params={"doc": str(fact.document_id), "chunk_id": str(fact.chunk_id or "")})
    if len(facts) > limit:
        st.caption(f"… and {len(facts) - limit} more facts in the table.")

