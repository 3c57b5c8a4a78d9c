"""The Ask page's conversation: the list in the sidebar, renaming or deleting the open one, its turns, and a
new question answered live (phases, streamed text, then the answer you can check). Keys start with ``ask.``."""

from __future__ import annotations

import dataclasses
from typing import Any

import streamlit as st

from components.chat_view import show_answer
from components.feedback import user_errors
from components.state import Keys
from services.container import Services


def conversation_list(svc: Services) -> list[Any]:
    """The sidebar: a new conversation, and the 30 latest to open; returns every conversation of the user."""
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
    return conversations


def conversation(svc: Services, conv_id: int, conversations: list[Any]) -> None:
    """Rename or delete the open conversation, then its turns, each answer as it was given."""
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


def answer_live(svc: Services, question: str, conv_id: int | None, scope: list[str]) -> None:
    """Ask, showing each phase as it starts (retrieving, walking the graph, composing) and the text as it streams;
    the answer then replaces the stream and the conversation it went into becomes the open one."""
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        status = st.status("Retrieving…")
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
