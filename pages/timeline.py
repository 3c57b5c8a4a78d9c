"""Timeline: an entity's facts over time (current and superseded), with a date filter, table and CSV."""

import datetime as dt

import pandas as pd
import plotly.express as px
import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.graph_view import facts_frame
from components.pickers import pick_collection, require_graph
from components.resources import get_services


def render() -> None:
    svc = get_services()
    st.title("Timeline")
    require_graph(svc)
    c1, c2 = st.columns([1, 2])
    coll = pick_collection(svc, key="timeline.collection", container=c1)
    text = c2.text_input("Entity or query", key="timeline.query", placeholder="e.g. Acme, Mexico, Soviet Union")
    if not text.strip():
        st.info("Type an entity name to see its facts over time.", icon=":material/timeline:")
        st.stop()

    entities = []
    with user_errors("Entity search failed"):
        entities = svc.graph.find_entities(text, [coll.id], limit=30)
        if not entities:  # fall back to meaning: entities of the best-matching chunks
            hits = svc.search.search(text, collections=[coll.name], mode="semantic", limit=20, threshold=0.2).hits
            entities = svc.graph.entities_for_chunks({h.chunk_id: h.score for h in hits}, [coll.id])
    if not entities:
        st.warning("No entity matches.", icon=":material/search_off:")
        st.stop()
    key = st.selectbox("Entity", [e.key for e in entities], key="timeline.entity",
                       format_func=lambda k: next(f"{e.name} ({e.type}, {e.degree} facts)" for e in entities if e.key == k))

    d1, d2 = st.columns(2)
    start = d1.date_input("From", value=dt.date(1700, 1, 1), min_value=dt.date(1, 1, 1), key="timeline.from")
    end = d2.date_input("Until", value=dt.date.today(), min_value=dt.date(1, 1, 1), key="timeline.until")
    facts = svc.graph.facts_of_entity(key, [coll.id], valid_from=start.isoformat(), valid_until=end.isoformat())
    if not facts:
        st.info("No facts in this date range.", icon=":material/event_busy:")
        st.stop()

    today = dt.date.today().isoformat()
    rows = pd.DataFrame([{
        "fact": f"{f.source} — {f.relation.replace('_', ' ')} → {f.target}",
        "start": f.valid_from, "end": f.valid_until or today, "status": f.status,
        "sentence": (f.sentence[:160] + "…") if len(f.sentence) > 160 else f.sentence,
        "document": f.document_id, "valid_until": f.valid_until or "(current)",
    } for f in facts])
    rows["start"] = pd.to_datetime(rows["start"], errors="coerce")
    rows["end"] = pd.to_datetime(rows["end"], errors="coerce")
    # A fact stated at one moment still gets a visible bar: at least a year wide.
    rows["end"] = rows[["start", "end"]].apply(lambda r: max(r["end"], r["start"] + pd.DateOffset(years=1)), axis=1)
    figure = px.timeline(
        rows, x_start="start", x_end="end", y="fact", color="status",
        color_discrete_map={"current": "#2e7d32", "superseded": "#9e9e9e"},
        hover_data={"sentence": True, "document": True, "valid_until": True, "start": "|%Y-%m-%d", "end": False},
    )
    figure.update_yaxes(autorange="reversed", title=None)
    figure.update_layout(height=min(900, 140 + 28 * len(rows["fact"].unique())), legend_title_text="status",
                         margin={"l": 10, "r": 10, "t": 30, "b": 10})
    st.plotly_chart(figure, width="stretch", key="timeline.chart")
    st.caption(f"{len(facts)} facts · {sum(f.status == 'current' for f in facts)} current · "
               f"{sum(f.status == 'superseded' for f in facts)} superseded")

    table = facts_frame(facts)
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Export CSV", table.to_csv(index=False), file_name=f"timeline-{key}.csv", mime="text/csv",
                       key="timeline.csv", icon=":material/download:")


serve(render)
