"""Ask: a chat over one or more collections, with citations, facts, diagrams, memory and diagnostics."""

import dataclasses

import streamlit as st

from components.app_shell import serve
from components.chat_view import show_answer
from components.citation_links import open_clicked_citation
from components.feedback import user_errors
from components.resources import get_services
from components.state import Keys


def render() -> None:
    with st.sidebar:  # the listener draws nothing; its element's gap goes where nobody sees it
        open_clicked_citation(key="ask.citations", back="ask")  # a citation [n] clicked: its passage, in this tab
    svc = get_services()
    st.title("Ask")

    with st.sidebar:
        st.subheader("Conversations")
        if st.button("New conversation", icon=":material/add_comment:", key="ask.new"):
            st.session_state[Keys.ASK_CONVERSATION] = None
        conversations = svc.conversations.list()
        current = st.session_state.get(Keys.ASK_CONVERSATION)
        for conv in conversations[:30]:
            label = ("▸ " if conv.id == current else "") + conv.title[:40]
            if st.button(label, key=f"ask.open.{conv.id}", width="stretch"):
                st.session_state[Keys.ASK_CONVERSATION] = conv.id
                st.rerun()

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
        with st.expander("This conversation", icon=":material/edit:"):
            conv = next((c for c in conversations if c.id == conv_id), None)
            new_title = st.text_input("Title", value=conv.title if conv else "", key=f"ask.title.{conv_id}")
            c1, c2 = st.columns(2)
            if c1.button("Rename", key="ask.rename"):
                with user_errors("Could not rename"):
                    svc.conversations.rename(conv_id, new_title)
                    st.rerun()
            if c2.button("Delete conversation", key="ask.delete", type="primary"):
                with user_errors("Could not delete"):
                    svc.conversations.delete(conv_id)
                    st.session_state[Keys.ASK_CONVERSATION] = None
                    st.rerun()
        for turn in svc.conversations.turns(conv_id):
            with st.chat_message(turn.role):
                if turn.role == "user":
                    st.text(turn.content)
                else:
                    details = turn.details
                    show_answer(svc, text=turn.content, mode=details.get("mode", ""),
                                citations=details.get("citations", {}), quotes=details.get("quotes", {}),
                                context=details.get("context", []), facts=details.get("facts", []),
                                mermaid=details.get("mermaid"), diagnostics=details.get("diagnostics", {}),
                                key=f"ask.turn.{turn.id}")

    question = st.chat_input("Ask a question, or say “remember …”", key="ask.input")
    if question:
        with st.chat_message("user"):
            st.text(question)
        with st.chat_message("assistant"):
            status = st.status("Retrieving…")  # the phases as they start: retrieving, walking the graph, composing
            placeholder = st.empty()
            streamed: list[str] = []

            def on_token(piece: str) -> None:
                streamed.append(piece)
                placeholder.text("".join(streamed))

            def on_phase(name: str) -> None:
                status.update(label=f"{name[:1].upper()}{name[1:]}…")
                status.write(name)

            with user_errors("Could not answer"):
                try:
                    result = svc.ask.ask(question, conversation_id=conv_id, collections=scope or None,
                                         on_token=on_token, on_phase=on_phase)
                except BaseException:
                    status.update(label="Could not answer", state="error")
                    raise
                took = result.diagnostics.get("timings_ms", {}).get("total")
                status.update(label="Answered" + (f" in {took / 1000:.1f} s" if took else ""), state="complete",
                              expanded=False)
                st.session_state[Keys.ASK_CONVERSATION] = result.conversation_id
                placeholder.empty()
                show_answer(svc, text=result.answer.text, mode=result.answer.mode, citations=result.answer.citations,
                            quotes=result.answer.quotes,
                            context=[dataclasses.asdict(c) for c in result.context],
                            facts=[dataclasses.asdict(f) for f in result.facts], mermaid=result.mermaid,
                            diagnostics=result.diagnostics, key="ask.latest")


serve(render)
