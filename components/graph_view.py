"""Graph display helpers: the agraph canvas, fact tables and source links."""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st
from streamlit_agraph import Config, Edge, Node, agraph

from components.markdown_text import md_escape
from services.graph.generic import CONCEPT
from services.graph.model import Fact
from services.graph.scene import Scene

TYPE_COLOURS = {
    "PERSON": "#4e79a7", "ORG": "#f28e2b", "GPE": "#59a14f", "LOC": "#76b7b2", "NORP": "#edc948",
    "EVENT": "#b07aa1", "LAW": "#ff9da7", "CONCEPT": "#bab0ac", "PRODUCT": "#9c755f", "FAC": "#e15759",
}
DEFAULT_COLOUR = "#8cd17d"
CURRENT_EDGE = "#8a8a8a"  # a current fact's edge, on the canvas and in its legend


def colour_for(kind: str) -> str:
    return TYPE_COLOURS.get(kind, DEFAULT_COLOUR)


TYPE_NAMES = {"PERSON": "person", "ORG": "organisation", "GPE": "country, city, state", "LOC": "place",
              "NORP": "nationality, group", "EVENT": "event", "LAW": "law", "CONCEPT": "concept", "PRODUCT": "product",
              "FAC": "building, facility", "DATE": "date"}


def show_canvas(scene: Scene, *, focus: str | None, expanded: list[str], key: str) -> str | None:
    """Draw the scene; returns the key of the node the user clicked, if any."""
    nodes = [
        Node(id=e.key, label=_label(e.name, scene.leaves.get(e.key, 0)),
             size=30 if e.key == focus else 22 if e.key in expanded else 12 if e.type == CONCEPT else 16,
             color=colour_for(e.type), title=_hover(e.name, e.type, scene.leaves.get(e.key, 0)),
             borderWidth=4 if e.key in expanded else 1,
             font={"size": 15 if e.type == CONCEPT else 20, "color": "#555555" if e.type == CONCEPT else "#1f1f1f",
                   "strokeWidth": 4, "strokeColor": "#ffffff"})
        for e in scene.nodes
    ]
    # A small scene labels its edges; a big one shows the relation on hover (and in the facts below):
    # sixty labelled edges are unreadable.
    labelled = len(scene.facts) <= 25
    edges = [
        Edge(source=f.source_key, target=f.target_key, title=f"{f.source} — {f.relation.replace('_', ' ')} → {f.target}",
             color="#c0c0c0" if f.status == "superseded" else CURRENT_EDGE, dashes=f.status == "superseded",
             **({"label": f.relation.replace("_", " ")} if labelled else {}))
        for f in scene.facts
    ]
    config = Config(width="100%", height=640, directed=True, physics=True, hierarchical=False,
                    nodeHighlightBehavior=True, highlightColor="#F7A7A6", key=key)
    config.physics = PHYSICS
    return agraph(nodes=nodes, edges=edges, config=config)


# vis-network's force layout with room for labels: a longer spring and a node-overlap penalty spread a
# hub's neighbours over a wide ring instead of the default's tight star, and the layout settles once
# (stabilisation) instead of drifting while the user reads it.
PHYSICS = {
    "enabled": True, "solver": "forceAtlas2Based",
    "forceAtlas2Based": {"gravitationalConstant": -70, "centralGravity": 0.01, "springLength": 100,
                         "springConstant": 0.08, "avoidOverlap": 0.6},
    "minVelocity": 1, "maxVelocity": 60, "timestep": 0.4,
    "stabilization": {"enabled": True, "iterations": 400, "fit": True},
}


def _label(name: str, leaves: int) -> str:
    short = name if len(name) <= 28 else name[:27] + "…"
    return f"{short} (+{leaves})" if leaves else short


def _hover(name: str, kind: str, leaves: int) -> str:
    text = f"{name} ({TYPE_NAMES.get(kind, kind or 'entity')})"
    if leaves:
        text += f"; +{leaves} concept(s) attached only to it, listed in its facts"
    return text


def legend_html(scene: Scene) -> str:
    """Colour per entity type (the types on the canvas), and what edges and sizes mean."""
    kinds = list(dict.fromkeys(e.type for e in scene.nodes))
    chip = ('<span style="display:inline-flex;align-items:center;margin:0 12px 4px 0;font-size:0.82rem">'
            '<span style="width:12px;height:12px;border-radius:50%;background:{};display:inline-block;'
            'margin-right:5px"></span>{}</span>')
    parts = [chip.format(colour_for(k), html.escape(TYPE_NAMES.get(k, k.lower() or "entity"))) for k in kinds]
    line = ('<span style="display:inline-flex;align-items:center;margin:0 12px 4px 0;font-size:0.82rem">'
            '<span style="width:26px;border-top:2px {} {};display:inline-block;margin-right:5px"></span>{}</span>')
    parts += [line.format("solid", CURRENT_EDGE, "current fact"), line.format("dashed", "#c0c0c0", "superseded fact")]
    parts.append('<span style="font-size:0.82rem;color:#555">· largest node: the entity you picked; '
                 'thick border: expanded by a click; (+n): concepts attached only to that entity, '
                 'not drawn (click it to list its facts)</span>')
    return f'<div style="line-height:1.6">{"".join(parts)}</div>'


_ACRONYMS = {"ceo", "cfo", "cto", "coo", "un", "us", "uk", "eu", "nato"}


def relation_words(relation: str) -> str:
    """A relation label as words: "ceo_of" -> "CEO of", "located_in" -> "located in"."""
    return " ".join(w.upper() if w in _ACRONYMS else w for w in relation.split("_"))


def facts_frame(facts: list[Fact]) -> pd.DataFrame:
    return pd.DataFrame([{
        "subject": f.source, "relation": relation_words(f.relation), "phrase": f.raw, "object": f.target,
        "valid_from": f.shown("valid_from"), "valid_until": f.shown("valid_until"),
        "stated_on": f.shown("stated_on"), "status": f.status, "sentence": f.sentence,
        "document": f.document_id, "fact id": f.id,
    } for f in facts])


def show_fact_sources(facts: list[Fact], *, limit: int = 20) -> None:
    """Each fact with its source sentence and a link to the chunk in its document."""
    for fact in facts[:limit]:
        with st.container(border=True):
            until = fact.shown("valid_until") or "now"
            st.markdown(f"**{md_escape(fact.source)}** — {md_escape(relation_words(fact.relation))} → "
                        f"**{md_escape(fact.target)}**")
            held = (f"valid {fact.shown('valid_from') or '?'} → {until}" if fact.valid_from or fact.valid_until
                    else "undated (its sentence gives no date)")
            stated = f" · stated on {fact.shown('stated_on')}" if fact.stated_on else ""
            phrase = f" · the text says “{fact.raw}”" if fact.raw else ""
            st.caption(f"{fact.status} · {held}{stated}{phrase}")
            st.text(fact.sentence)
            if fact.document_id is not None:
                st.page_link("pages/documents.py", label="Open the source", icon=":material/open_in_new:",
                             query_params={"doc": str(fact.document_id), "chunk_id": str(fact.chunk_id or "")})
    if len(facts) > limit:
        st.caption(f"… and {len(facts) - limit} more facts in the table.")

