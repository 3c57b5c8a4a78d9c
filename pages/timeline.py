"""Timeline: an entity's facts over time (spans as bars, statements as points), with a date filter, table and CSV."""

import datetime as dt

import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.graph_view import facts_frame
from components.pickers import pick_collection, require_graph
from components.resources import get_services
from components.timeline_chart import ROWS, TIMELINE_LEGEND, dated, row_count, timeline_figure


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
    with user_errors("Entity search failed"):  # by name, else by meaning (the entities of the best chunks)
        entities = svc.lookup.entities_matching(text, coll.name, by="name, else meaning", limit=30)
    if not entities:
        st.warning("No entity matches.", icon=":material/search_off:")
        st.stop()
    key = st.selectbox("Entity", [e.key for e in entities], key="timeline.entity",
                       format_func=lambda k: next(f"{e.name} ({e.type}, {e.degree} facts)" for e in entities if e.key == k))

    d1, d2 = st.columns(2)
    start = d1.date_input("From", value=dt.date(1700, 1, 1), min_value=dt.date(1, 1, 1), key="timeline.from")
    end = d2.date_input("Until", value=dt.date.today(), min_value=dt.date(1, 1, 1), key="timeline.until")
    facts, undated = dated(svc.graph.facts_of_entity(key, [coll.id], valid_from=start.isoformat(),
                                                     valid_until=end.isoformat()))
    if undated:
        with st.expander(f"{len(undated)} undated facts: neither their sentence nor their document gives a date"):
            st.dataframe(facts_frame(undated), hide_index=True, width="stretch")
    if not facts:
        st.info("No dated facts in this date range.", icon=":material/event_busy:")
        st.stop()

    today, shown_key = dt.date.today(), f"timeline.rows.{coll.id}.{key}"
    rows_shown, total_rows = st.session_state.get(shown_key, ROWS), row_count(facts, today)
    st.plotly_chart(timeline_figure(facts, today, rows_shown), width="stretch", key="timeline.chart")
    if total_rows > rows_shown:
        st.caption(f"Showing the first {rows_shown} of {total_rows} rows, by date.")
        if st.button(f"Show {min(ROWS, total_rows - rows_shown)} more rows", key="timeline.more",
                     icon=":material/add_circle:"):
            st.session_state[shown_key] = rows_shown + ROWS
            st.rerun()
    st.caption(TIMELINE_LEGEND)
    spans = [f for f in facts if f.single_valued or f.valid_until]
    st.caption(f"{len(facts)} facts: {len(facts) - len(spans)} statements (points) · {len(spans)} spans (bars), "
               f"{sum(1 for f in spans if not f.valid_until)} of them current")

    table = facts_frame(facts)
    st.dataframe(table, hide_index=True, width="stretch")
    st.download_button("Export CSV", table.to_csv(index=False), file_name=f"timeline-{key}.csv", mime="text/csv",
                       key="timeline.csv", icon=":material/download:")


serve(render)
