"""Ask: a chat over one or more collections, with citations, facts, diagrams, memory and diagnostics."""

import streamlit as st

from components.app_shell import serve
from components.citation_links import open_clicked_citation
from components.conversation_view import answer_live, conversation, conversation_list
from components.resources import get_services
from components.state import Keys


def render() -> None:
    with st.sidebar:  # the listener draws nothing; its element's gap goes where nobody sees it
        open_clicked_citation(key="ask.citations", back="ask")  # a citation [n] clicked: its passage, in this tab
    svc = get_services()
    st.title("Ask")
    conversations = conversation_list(svc)

    names = [c.name for c in svc.collections.list()]
    linked = st.query_params.get("collection")  # "Ask about it" after an ingest
    if "ask.scope" not in st.session_state:  # first visit, or back from a cited passage (the widget went with the page)
        kept = [n for n in st.session_state.get(Keys.ASK_SCOPE) or [] if n in names]
        st.session_state["ask.scope"] = [linked] if linked in names else kept
    scope = st.multiselect("Collections", names, key="ask.scope", placeholder="All collections")
    st.session_state[Keys.ASK_SCOPE] = scope
    if not names:
        st.info("Create a collection and ingest documents to ask about them.", icon=":material/info:")

    conv_id = st.session_state.get(Keys.ASK_CONVERSATION)
    if conv_id is not None:
        conversation(svc, conv_id, conversations)
    question = st.chat_input("Ask a question, or say “remember …”", key="ask.input")
    if question:
        answer_live(svc, question, conv_id, scope)


serve(render)
