"""The Graph page's parts: a flowchart opened by link, the entity to explore, the filters, the neighbourhood
(the focus and the entities expanded on the canvas) and the tabs that show it. Keys start with ``graph.``."""

from __future__ import annotations

import datetime as dt
from typing import Any

import streamlit as st

from components.diagram_view import show_diagram
from components.feedback import user_errors
from components.graph_canvas import canvas, canvas_state, relate
from components.graph_edit import author, edit_panel
from components.graph_overview import GraphOverview
from components.graph_review import export, history, review_queue
from components.graph_view import facts_frame, show_fact_sources
from components.markdown_text import md_escape
from components.mermaid_view import show_mermaid
from services.collections import Collection
from services.container import Services
from services.graph.mermaid import subgraph_to_mermaid
from services.graph.model import Entity, Subgraph
from services.graph.scene import merge


def linked_diagram(svc: Services, diagram_id: str) -> None:
    """A flowchart opened by the ``?diagram=`` link (from Search, Ask or a document): drawn, then its edges."""
    st.subheader("Diagram")
    show_diagram(svc, diagram_id, key="graph.diagram", link=False)
    if svc.diagrams is not None:
        with user_errors("Could not load the diagram"):
            view = svc.diagrams.get(diagram_id)
            st.dataframe([{"from": e["source"], "to": e["target"], "label": e.get("label") or ""} for e in view.edges],
                         hide_index=True, width="stretch")
    st.divider()


def find_entities(svc: Services, coll: Collection, text: str, *, by_meaning: bool, overview: GraphOverview) -> list[Entity]:
    """The entities the search box finds (by name, or by meaning), or the collection's best connected ones when
    it is empty; none when the search fails (the error is shown)."""
    if not text.strip():
        return overview.entities
    entities: list[Entity] = []
    with user_errors("Entity search failed"):
        entities = svc.lookup.entities_matching(text, coll.name, by="meaning" if by_meaning else "name")
    return entities


def pick_focus(entities: list[Entity]) -> str:
    """The entity to explore (its key), and what else it is called."""
    labels = {e.key: f"{e.name} ({e.type}, {e.degree} facts)" for e in entities}
    focus = st.selectbox("Entity", list(labels), format_func=labels.get, key="graph.entity")
    aliases = next((e.aliases for e in entities if e.key == focus), ())
    if aliases:
        st.caption("Also called: " + " · ".join(md_escape(a) for a in aliases))
    return str(focus)


def _parse_date(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def filters(overview: GraphOverview) -> tuple[int, dict[str, Any]]:
    """Hops, and the neighbourhood's filters: relations, status, and a time (as of a day, or a range).
    ``?as_of=2020-06-01`` opens the page filtered to that day."""
    f1, f2, f3, f4 = st.columns([1, 3, 2, 3])
    depth = f1.number_input("Hops", 1, 3, 1, key="graph.depth")
    relations = f2.multiselect("Relations", overview.relations, key="graph.relations", placeholder="All relations")
    status = f3.radio("Status", ["all", "current", "superseded"], horizontal=True, key="graph.status")
    linked_as_of = _parse_date(st.query_params.get("as_of"))
    time_mode = f4.radio("Time", ["any", "as of", "range"], horizontal=True, key="graph.time",
                         index=1 if linked_as_of else 0)
    valid_from = valid_until = None
    if time_mode == "as of":
        when = st.date_input("As of", value=linked_as_of or dt.date.today(), min_value=dt.date(1, 1, 1), key="graph.asof")
        valid_from = valid_until = when.isoformat()
    elif time_mode == "range":
        r1, r2 = st.columns(2)
        valid_from = r1.date_input("From", value=dt.date(1900, 1, 1), min_value=dt.date(1, 1, 1), key="graph.from").isoformat()
        valid_until = r2.date_input("Until", value=dt.date.today(), min_value=dt.date(1, 1, 1), key="graph.until").isoformat()
    return int(depth), {"relations": relations or None, "status": None if status == "all" else status,
                        "valid_from": valid_from, "valid_until": valid_until}


def neighbourhood(svc: Services, coll: Collection, focus: str, depth: int, where: dict[str, Any]) -> Subgraph | None:
    """The focus's neighbourhood, merged with one hop around each entity expanded on its canvas; None when the
    graph fails (the error is shown)."""
    subgraph = None
    with user_errors("Could not expand the neighbourhood"):
        subgraph = svc.graph.neighbourhood(coll.id, focus, depth=depth, **where)
        for key in canvas_state(coll.id, focus)["expanded"]:
            subgraph = merge(subgraph, svc.graph.neighbourhood(coll.id, key, depth=1, **where))
    return subgraph


def explorer_tabs(svc: Services, coll: Collection, subgraph: Subgraph, focus: Entity, entities: list[Entity],
                  *, editor: bool) -> None:
    """Canvas, Mermaid, Facts and "How does X relate to Y?"; then Edit and Review & export for an editor, or the
    history and exports, read only, for a viewer."""
    labels = ["Canvas", "Mermaid", "Facts", "How does X relate to Y?"]
    canvas_tab, mermaid_tab, facts_tab, relate_tab, *rest = st.tabs(
        labels + (["Edit", "Review & export"] if editor else ["History & export"]))
    with canvas_tab:
        scene = None
        if not subgraph.facts:
            st.info("No facts match these filters.", icon=":material/filter_alt_off:")
        else:
            scene = canvas(svc, coll, subgraph, focus.key, canvas_state(coll.id, focus.key))
    drawn = scene.subgraph() if scene is not None else None
    with mermaid_tab:
        if drawn is not None:
            st.caption("The entities on the canvas, as a Mermaid flowchart.")
            show_mermaid(subgraph_to_mermaid(drawn), file_name=f"{focus.key}.mmd", key="graph.mmd")
    with facts_tab:
        _facts(subgraph)
    with relate_tab:
        relate(svc, coll, focus.key)
    if not editor:  # a viewer: the edit history and the exports, no edit, review or undo control
        with rest[0]:
            history(svc, coll, author(), read_only=True)
            export(svc, coll, drawn)
        return
    edit_tab, review_tab = rest
    with edit_tab:
        edit_panel(svc, coll, focus, entities, subgraph)
    with review_tab:
        who = author()
        review_queue(svc, coll, who)
        history(svc, coll, who)
        export(svc, coll, drawn)


def _facts(subgraph: Subgraph) -> None:
    """Every fact of the neighbourhood as a table, and the source sentences of the one picked."""
    if not subgraph.facts:
        return
    st.caption(f"Every fact of the neighbourhood ({len(subgraph.facts)}), also those not drawn.")
    frame = facts_frame(subgraph.facts)
    st.dataframe(frame, hide_index=True, width="stretch")
    pick = st.selectbox("Show a fact's source", frame["fact id"], key="graph.fact",
                        format_func=lambda i: next(f"{f.source} {f.relation} {f.target} ({f.shown('when') or 'undated'})"
                                                   for f in subgraph.facts if f.id == i))
    show_fact_sources([f for f in subgraph.facts if f.id == pick])
