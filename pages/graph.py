"""Graph explorer: find an entity, expand 1–3 hops on a canvas, filter by relation/time/status, Mermaid, paths."""

import datetime as dt

import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.graph_canvas import canvas, canvas_state, relate
from components.graph_edit import author, edit_panel
from components.graph_overview import graph_overview
from components.graph_review import export, history, review_queue
from components.graph_view import facts_frame, show_fact_sources
from components.markdown_text import md_escape
from components.mermaid_view import show_mermaid
from components.permissions import may
from components.pickers import pick_collection, require_graph
from components.resources import get_services
from components.state import Keys, flash
from services.graph.mermaid import subgraph_to_mermaid
from services.graph.scene import merge


def render() -> None:
    def _parse_date(text: str | None) -> dt.date | None:
        try:
            return dt.date.fromisoformat(text) if text else None
        except ValueError:
            return None


    svc = get_services()
    st.title("Graph")
    require_graph(svc)
    flash(Keys.GRAPH_EDIT_FLASH)

    diagram_param = st.query_params.get("diagram")
    if diagram_param:
        from components.diagram_view import show_diagram

        st.subheader("Diagram")
        show_diagram(svc, diagram_param, key="graph.diagram", link=False)
        if svc.diagrams is not None:
            with user_errors("Could not load the diagram"):
                view = svc.diagrams.get(diagram_param)
                st.dataframe([{"from": e["source"], "to": e["target"], "label": e.get("label") or ""} for e in view.edges],
                             hide_index=True, width="stretch")
        st.divider()

    c1, c2, c3 = st.columns([2, 3, 1])
    coll = pick_collection(svc, key="graph.collection", container=c1)
    text = c2.text_input("Find an entity", key="graph.find", value=st.query_params.get("entity", ""),
                         placeholder="a name, or a description when 'by meaning' is on")
    by_meaning = c3.toggle("By meaning", key="graph.meaning", help="Search the chunks semantically and list the "
                           "entities of the facts drawn from the best chunks.")

    overview = graph_overview(svc, coll.id)
    entities = []
    with user_errors("Entity search failed"):
        if by_meaning and text.strip():
            hits = svc.search.search(text, collections=[coll.name], mode="semantic", limit=20, threshold=0.2).hits
            entities = svc.graph.entities_for_chunks({h.chunk_id: h.score for h in hits}, [coll.id])
        elif text.strip():
            entities = svc.graph.find_entities(text, [coll.id], limit=50)
        else:
            entities = overview.entities
    counts = overview.counts
    st.caption(f"{counts['entities']} entities · {counts['facts']} facts in {md_escape(repr(coll.name))}")
    if not entities:
        st.info("No entity matches. Ingest documents, or check the graph status on the Ingest page.", icon=":material/info:")
        st.stop()

    labels = {e.key: f"{e.name} ({e.type}, {e.degree} facts)" for e in entities}
    focus = st.selectbox("Entity", list(labels), format_func=labels.get, key="graph.entity")
    aliases = next((e.aliases for e in entities if e.key == focus), ())
    if aliases:
        st.caption("Also called: " + " · ".join(md_escape(a) for a in aliases))

    f1, f2, f3, f4 = st.columns([1, 3, 2, 3])
    depth = f1.number_input("Hops", 1, 3, 1, key="graph.depth")
    relation_options = overview.relations
    relations = f2.multiselect("Relations", relation_options, key="graph.relations", placeholder="All relations")
    status = f3.radio("Status", ["all", "current", "superseded"], horizontal=True, key="graph.status")
    linked_as_of = _parse_date(st.query_params.get("as_of"))  # ?as_of=2020-06-01 opens the page filtered
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

    subgraph = None
    with user_errors("Could not expand the neighbourhood"):
        filters = {"relations": relations or None, "status": None if status == "all" else status,
                   "valid_from": valid_from, "valid_until": valid_until}
        subgraph = svc.graph.neighbourhood(coll.id, focus, depth=int(depth), **filters)
        view = canvas_state(coll.id, focus)
        for key in view["expanded"]:
            subgraph = merge(subgraph, svc.graph.neighbourhood(coll.id, key, depth=1, **filters))
    if subgraph is None:
        st.stop()

    editor = may(svc, coll.name, "editor")
    labels = ["Canvas", "Mermaid", "Facts", "How does X relate to Y?"] + (["Edit", "Review & export"] if editor
                                                                          else ["History & export"])
    canvas_tab, mermaid_tab, facts_tab, relate_tab, *rest = st.tabs(labels)
    with canvas_tab:
        if not subgraph.facts:
            st.info("No facts match these filters.", icon=":material/filter_alt_off:")
            scene = None
        else:
            scene = canvas(svc, coll, subgraph, focus, view)
    with mermaid_tab:
        if scene is not None:
            st.caption("The entities on the canvas, as a Mermaid flowchart.")
            show_mermaid(subgraph_to_mermaid(scene.subgraph()), file_name=f"{focus}.mmd", key="graph.mmd")
    with facts_tab:
        if subgraph.facts:
            st.caption(f"Every fact of the neighbourhood ({len(subgraph.facts)}), also those not drawn.")
            frame = facts_frame(subgraph.facts)
            st.dataframe(frame, hide_index=True, width="stretch")
            pick = st.selectbox("Show a fact's source", frame["fact id"], key="graph.fact",
                                format_func=lambda i: next(f"{f.source} {f.relation} {f.target} ({f.shown('when') or 'undated'})"
                                                           for f in subgraph.facts if f.id == i))
            show_fact_sources([f for f in subgraph.facts if f.id == pick])
    with relate_tab:
        relate(svc, coll, focus)
    focus_entity = next(e for e in entities if e.key == focus)
    if not editor:  # a viewer: the edit history and the exports, no edit, review or undo control
        with rest[0]:
            history(svc, coll, author(), read_only=True)
            export(svc, coll, scene.subgraph() if scene is not None else None)
        return
    edit_tab, review_tab = rest
    with edit_tab:
        edit_panel(svc, coll, focus_entity, entities, subgraph)
    with review_tab:
        who = author()
        review_queue(svc, coll, who)
        history(svc, coll, who)
        export(svc, coll, scene.subgraph() if scene is not None else None)

serve(render)
