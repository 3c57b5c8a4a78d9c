"""Graph explorer: find an entity, expand 1–3 hops on a canvas, filter by relation/time/status, Mermaid, paths."""

import streamlit as st

from components.app_shell import serve
from components.graph_explorer import explorer_tabs, filters, find_entities, linked_diagram, neighbourhood, pick_focus
from components.graph_overview import graph_overview
from components.markdown_text import md_escape
from components.permissions import may
from components.pickers import pick_collection, require_graph
from components.resources import get_services
from components.state import Keys, flash


def render() -> None:
    svc = get_services()
    st.title("Graph")
    require_graph(svc)
    flash(Keys.GRAPH_EDIT_FLASH)
    if st.query_params.get("diagram"):
        linked_diagram(svc, st.query_params["diagram"])

    c1, c2, c3 = st.columns([2, 3, 1])
    coll = pick_collection(svc, key="graph.collection", container=c1)
    text = c2.text_input("Find an entity", key="graph.find", value=st.query_params.get("entity", ""),
                         placeholder="a name, or a description when 'by meaning' is on")
    by_meaning = c3.toggle("By meaning", key="graph.meaning", help="Search the chunks semantically and list the "
                           "entities of the facts drawn from the best chunks.")
    overview = graph_overview(svc, coll.id)
    entities = find_entities(svc, coll, text, by_meaning=by_meaning, overview=overview)
    counts = overview.counts
    st.caption(f"{counts['entities']} entities · {counts['facts']} facts in {md_escape(repr(coll.name))}")
    if not entities:
        st.info("No entity matches. Ingest documents, or check the graph status on the Ingest page.", icon=":material/info:")
        st.stop()

    focus = pick_focus(entities)
    depth, where = filters(overview)
    subgraph = neighbourhood(svc, coll, focus, depth, where)
    if subgraph is None:
        st.stop()
    explorer_tabs(svc, coll, subgraph, next(e for e in entities if e.key == focus), entities,
                  editor=may(svc, coll.name, "editor"))


serve(render)
