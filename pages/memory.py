"""Memory: short facts about the user; list, add, edit, delete, and their similarity to a test query."""

import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.resources import get_services


def render() -> None:
    svc = get_services()
    st.title("Memory")
    st.caption(f"Facts above similarity {svc.settings.memory_threshold:.2f} (at most {svc.settings.memory_max_facts}) "
               "are given to the LLM as earlier conversation turns when you ask a question.")

    with st.form("memory.add", clear_on_submit=True):
        text = st.text_input("Remember", placeholder="e.g. I work on the finance team")
        if st.form_submit_button("Add", type="primary"):
            with user_errors("Could not remember that"):
                svc.memory.remember(text)
                st.rerun()

    probe = st.text_input("Test query", key="memory.probe", placeholder="Type a question to see each fact's similarity")
    similarity = {f.id: f.similarity for f in svc.memory.recall(probe, limit=200)} if probe.strip() else {}
    facts = svc.memory.list()
    if not facts:
        st.info("No memory facts yet. Add one above, or say “remember …” on the Ask page.", icon=":material/info:")
    for fact in facts:
        with st.container(border=True):
            score = similarity.get(fact.id)
            if score is not None:
                injected = score >= svc.settings.memory_threshold
                st.caption(f"similarity {score:.3f}" + (" · would be injected" if injected else ""))
            edited = st.text_input("Fact", value=fact.text, key=f"memory.text.{fact.id}", label_visibility="collapsed")
            c1, c2 = st.columns([1, 1])
            if c1.button("Save", key=f"memory.save.{fact.id}", disabled=edited == fact.text):
                with user_errors("Could not save"):
                    svc.memory.update(fact.id, edited)
                    st.rerun()
            if c2.button("Delete", key=f"memory.delete.{fact.id}"):
                with user_errors("Could not delete"):
                    svc.memory.forget(fact.id)
                    st.rerun()


serve(render)
