"""The Graph page's canvas (a capped, ranked scene with a legend; a click expands a node) and its
"how does X relate to Y" tab (distinct routes, drawn and listed)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from components.feedback import user_errors
from components.graph_view import facts_frame, legend_html, show_canvas, show_fact_sources
from components.markdown_text import md_escape
from components.mermaid_view import show_mermaid
from services.collections import Collection
from services.container import Services
from services.graph.generic import GENERIC_DOCUMENT_SHARE
from services.graph.mermaid import subgraph_to_mermaid
from services.graph.model import Subgraph
from services.graph.scene import DEFAULT_LIMIT, RANKING, Scene, build_scene

VIEW = "graph.canvas_view"  # {"for": [collection id, entity], "expanded": [...], "limit": n, "clicked": key}
MORE = 40


def canvas_state(collection_id: int, focus: str) -> dict[str, Any]:
    """The canvas's expansions and size for this entity; a new entity starts a new view."""
    view = st.session_state.get(VIEW)
    if not view or view["for"] != [collection_id, focus]:
        view = {"for": [collection_id, focus], "expanded": [], "limit": DEFAULT_LIMIT, "clicked": None}
        st.session_state[VIEW] = view
    return view


def canvas(svc: Services, coll: Collection, graph: Subgraph, focus: str, view: dict[str, Any]) -> Scene:
    assert svc.graph is not None  # the page calls require_graph first
    show_generic = st.toggle("Show generic concepts", key="graph.show_generic",
                             help=f"Concepts (common nouns such as 'time' or 'law') that occur in more than "
                                  f"{GENERIC_DOCUMENT_SHARE:.0%} of the collection's documents are folded away.")
    frequencies = svc.graph.document_frequencies(coll.id, list(graph.nodes))
    scene = build_scene(graph, [focus, *view["expanded"]], frequencies=frequencies, documents=coll.document_count,
                        limit=view["limit"], fold_generic=not show_generic)
    st.caption(f"Showing {len(scene.nodes)} of {scene.total} entities and {len(scene.facts)} of {len(graph.facts)} "
               f"facts, ranked {RANKING}. Click a node to expand it and see its facts.")
    if scene.folded:
        names = ", ".join(f"{e.name} ({n} of {coll.document_count} documents)" for e, n in scene.folded[:8])
        st.caption(md_escape(f"Folded {len(scene.folded)} generic concept(s): {names}"
                             + (" …" if len(scene.folded) > 8 else "")))
    b1, b2, _ = st.columns([1, 1, 3])
    if scene.left_out and b1.button(f"Show {min(MORE, scene.left_out)} more", key="graph.more",
                                    icon=":material/add_circle:"):
        view["limit"] += MORE
        st.rerun()
    if (view["expanded"] or view["limit"] != DEFAULT_LIMIT) and b2.button("Reset the view", key="graph.reset",
                                                                          icon=":material/restart_alt:"):
        view.update(expanded=[], limit=DEFAULT_LIMIT)
        st.rerun()
    st.html(legend_html(scene))
    clicked = show_canvas(scene, focus=focus, expanded=view["expanded"], key=f"graph.canvas.{coll.id}.{focus}")
    if clicked and clicked != view["clicked"] and clicked in graph.nodes:
        view["clicked"] = clicked
        if clicked != focus and clicked not in view["expanded"]:
            view["expanded"].append(clicked)
            st.rerun()  # draw its neighbours
    chosen = view["clicked"] if view["clicked"] in graph.nodes else focus
    node = graph.nodes.get(chosen)
    st.markdown(f"**Facts of {md_escape(node.name if node else chosen)}**")
    show_fact_sources([f for f in graph.facts if chosen in (f.source_key, f.target_key)])
    return scene


def relate(svc: Services, coll: Collection, focus: str) -> None:
    """Distinct routes from the entity to another (two facts between the same entities are one route)."""
    assert svc.graph is not None
    other_text = st.text_input("Relate to", key="graph.other", placeholder="another entity")
    others = svc.graph.find_entities(other_text, [coll.id], limit=20) if other_text.strip() else []
    if not others:
        return
    other = st.selectbox("Other entity", [e.key for e in others], key="graph.other_pick",
                         format_func=lambda k: next(e.name for e in others if e.key == k))
    with user_errors("Could not find paths"):
        paths = svc.graph.paths(coll.id, focus, other, max_hops=3, documents=coll.document_count)
        if not paths:
            st.info("No path within 3 hops (routes through generic concepts, which the canvas folds, are left "
                    "out).", icon=":material/route:")
            return
        st.caption(f"{len(paths)} distinct route(s), shortest first.")
        drawn = Subgraph()
        for path in paths:
            for fact in path:
                drawn.add(fact)
        show_mermaid(subgraph_to_mermaid(drawn), file_name=f"{focus}-{other}.mmd", key="graph.paths_mmd")
        for i, path in enumerate(paths, start=1):
            # Every fact along the route, not only the one the search walked: two entities are often
            # linked by several statements, which are one route.
            facts = [f for hop in route_keys(path, focus) for f in svc.graph.facts_between(coll.id, *hop)]
            st.markdown(f"**Route {i}** ({len(path)} hop{'s' if len(path) > 1 else ''}, {len(facts)} "
                        f"fact{'s' if len(facts) != 1 else ''}): {md_escape(route_names(path, focus))}")
            st.dataframe(facts_frame(facts), hide_index=True, width="stretch")


def route_keys(path: list[Any], start: str) -> list[tuple[str, str]]:
    """The (from, to) entity keys of each hop of a path, from ``start``."""
    hops, current = [], start
    for fact in path:
        nxt = fact.target_key if fact.source_key == current else fact.source_key
        hops.append((current, nxt))
        current = nxt
    return hops


def route_names(path: list[Any], start: str) -> str:
    """"Mexico → Texas → United States": the entities a path visits, from ``start``."""
    current = start
    names = [path[0].source if path[0].source_key == start else path[0].target]
    for fact in path:
        current, name = (fact.target_key, fact.target) if fact.source_key == current else (fact.source_key, fact.source)
        names.append(name)
    return " → ".join(names)
