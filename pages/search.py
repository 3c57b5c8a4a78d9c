"""Search: semantic, keyword or hybrid, with scope, threshold, limit and metadata filters."""

import streamlit as st

from components.app_shell import serve
from components.feedback import parse_json_object, user_errors
from components.resources import get_services
from components.search_results import show_response
from components.state import Keys


def render() -> None:
    svc = get_services()
    st.title("Search")

    collections = svc.collections.list()
    names = [c.name for c in collections]
    if not names:
        st.info("Nothing to search yet: create a collection and ingest documents.", icon=":material/info:")
        st.stop()

    with st.form("search.form"):
        query = st.text_input("Query", key="search.query", placeholder="e.g. tariff on imported goods")
        c1, c2, c3, c4 = st.columns([2, 2, 2, 1])
        mode = c1.radio("Mode", ["hybrid", "semantic", "keyword"], horizontal=True, key="search.mode",
                        help="Hybrid fuses the semantic and keyword rankings, then interleaves them with "
                        "a keyword search widened by the words of the best two results (to reach a second hop).")
        linked = st.query_params.get("collection")  # "Search it" links from Collections and Ingest
        scope = c2.multiselect("Collections", names, key="search.scope", placeholder="All collections",
                               default=[linked] if linked in names else None)
        threshold = c3.slider("Similarity threshold", -1.0, 1.0, float(svc.settings.search_threshold), 0.01,
                              key="search.threshold", help="Minimum cosine similarity for semantic matches. "
                              "Keyword matches are not filtered by it.")
        limit = c4.number_input("Limit", 1, 200, int(svc.settings.search_limit), key="search.limit")
        filters_text = st.text_input("Metadata filters (JSON)", key="search.filters",
                                     placeholder='{"party": "Republican", "year": {"gte": 1900, "lt": 1950}}')
        if st.form_submit_button("Search", type="primary", icon=":material/search:"):
            filters = parse_json_object(filters_text, "Filters")
            if filters is not None:
                with user_errors("Search failed"):
                    st.session_state[Keys.SEARCH_RESPONSE] = svc.search.search(
                        query, collections=scope or None, mode=mode, threshold=threshold, limit=int(limit), filters=filters,
                    )

    response = st.session_state.get(Keys.SEARCH_RESPONSE)
    if response is not None:
        fields = list(dict.fromkeys(f for c in collections if not scope or c.name in scope
                                    for f in c.metadata_schema.get("custom", {})))
        show_response(response, svc, fields)


serve(render)
