"""Memory: short facts about the user; list, add, edit, delete, and their similarity to a test query."""

import streamlit as st

from components.app_shell import serve
from components.feedback import user_errors
from components.resources import get_services


def _explain(svc) -> None:
    threshold, most = svc.settings.memory_threshold, svc.settings.memory_max_facts
    if not svc.settings.llm_configured:
        st.info("Memory is not used now: no LLM is configured, so Ask extracts its answers from your documents and "
                "gives these facts to nothing. They are kept, and used once an LLM is configured "
                "(OPENAI_API_KEY or OPENAI_BASE_URL).", icon=":material/info:")
    st.caption(f"When you ask a question, each fact is compared with it by meaning (cosine similarity of their "
               f"embeddings, from −1 to 1). The facts at or above **{threshold:.2f}**, at most {most}, are given to the "
               f"LLM as earlier conversation turns. {threshold:.2f} means the fact and the question say nearly the "
               "same thing; a fact that is only on the same topic usually scores 0.3 to 0.6. Try a question below "
               "to see the scores.")


def render() -> None:
    svc = get_services()
    st.title("Memory")
    _explain(svc)
    threshold = svc.settings.memory_threshold

    with st.form("memory.add", clear_on_submit=True):
        text = st.text_input("Remember", placeholder="e.g. I work on the finance team")
        if st.form_submit_button("Add", type="primary"):
            with user_errors("Could not remember that"):
                svc.memory.remember(text)
                st.rerun()

    probe = st.text_input("Test query", key="memory.probe", placeholder="Type a question to see each fact's similarity")
    recalled = svc.memory.recall(probe, limit=200) if probe.strip() else []
    similarity = {f.id: f.similarity for f in recalled}
    facts = svc.memory.list()
    if recalled:
        best = max(recalled, key=lambda f: f.similarity or -1.0)
        given = sum(1 for f in recalled if (f.similarity or -1) >= threshold)
        verdict = (f"{min(given, svc.settings.memory_max_facts)} fact(s) would be given to the LLM"
                   if given else "nothing would be given to the LLM")
        if not svc.settings.llm_configured:
            verdict += " (once one is configured)"
        st.progress(max(0.0, min(1.0, best.similarity or 0.0)),
                    text=f"Best match {best.similarity:.3f} against the threshold {threshold:.2f}: {verdict}.")
    if not facts:
        st.info("No memory facts yet. Add one above, or say “remember …” on the Ask page.", icon=":material/info:")
    for fact in facts:
        with st.container(border=True):
            score = similarity.get(fact.id)
            if score is not None:
                st.caption(f"similarity {score:.3f} · " + ("at or above the threshold: would be given"
                                                           if score >= threshold else "below the threshold"))
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
