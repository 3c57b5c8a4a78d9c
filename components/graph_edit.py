"""The Graph page's edits of the entity in focus: merge others into it, rename, retype, split by document, delete
it, delete a wrong fact, add a fact (services/graph/curation.py). Each edit is recorded with its author and can be
undone from the Review tab; an edit another session made first ends in a message, never a traceback."""

from __future__ import annotations

import streamlit as st

from components.feedback import user_errors
from components.markdown_text import md_escape
from components.state import Keys
from services.collections import Collection
from services.container import Services
from services.graph.model import Entity, Subgraph


def author() -> str:
    """Who the edits of this session are recorded as: the signed-in user, else the name typed on the page."""
    try:
        signed_in = st.user.get("email") or st.user.get("name") if st.user.get("is_logged_in") else None
    except Exception:  # no OIDC configured
        signed_in = None
    if signed_in:
        return f"app:{signed_in}"
    return f"app:{str(st.session_state.get('graph.edit.author') or '').strip() or 'analyst'}"


def done(message: str) -> None:
    st.session_state[Keys.GRAPH_EDIT_FLASH] = message
    st.rerun()


def edit_panel(svc: Services, coll: Collection, focus: Entity, entities: list[Entity], subgraph: Subgraph) -> None:
    """The boxes about the entity are keyed by it: a box keyed alone keeps its first value across focus changes,
    naming (or, for "Delete", confirming) the previous entity while the canvas shows the new one."""
    st.text_input("Your name (recorded with each edit)", key="graph.edit.author", placeholder="analyst")
    cur, who = svc.curation, author()
    name = md_escape(focus.name)  # an entity's name is text from a document: never markdown
    st.markdown(f"**Edit {name}** ({md_escape(focus.type or 'untyped')}, key {md_escape(focus.key)})")
    others = {e.key: f"{e.name} ({e.type or 'untyped'}, {e.degree} facts)" for e in entities if e.key != focus.key}
    fold = st.multiselect(f"Merge into {name}", list(others), format_func=others.get, key=f"graph.edit.merge.{focus.key}",
                          placeholder="Entities that are the same thing")
    if st.button("Merge", key="graph.edit.merge_go", disabled=not fold, icon=":material/merge:"):
        with user_errors("Could not merge"):
            edit = cur.merge_keys(coll.id, [focus.key, *fold], author=who)
            done(f"Edit {edit.id}: {edit.summary}.")
    c1, c2 = st.columns(2)
    new_name = c1.text_input("New name", key=f"graph.edit.rename.{focus.key}", value=focus.name)
    if c1.button("Rename", key="graph.edit.rename_go", disabled=new_name.strip() in ("", focus.name)):
        with user_errors("Could not rename"):
            edit = cur.rename(coll.name, focus.key if "#" in focus.key else focus.name, new_name, author=who)
            done(f"Edit {edit.id}: {edit.summary}.")
    new_type = c2.text_input("Type", key=f"graph.edit.retype.{focus.key}", value=focus.type,
                             help="PERSON, ORG, GPE, LOC, PRODUCT, EVENT, WORK_OF_ART, LAW...")
    if c2.button("Change type", key="graph.edit.retype_go", disabled=new_type.strip().upper() in ("", focus.type)):
        with user_errors("Could not change the type"):
            edit = cur.retype(coll.name, _ref(focus), new_type, author=who)
            done(f"Edit {edit.id}: {edit.summary}.")
    documents = sorted({f.document_id for f in subgraph.facts if f.document_id is not None
                        and focus.key in (f.source_key, f.target_key)})
    with st.expander("Split: it conflates two things"):
        docs = st.multiselect("The facts of these documents", documents, key=f"graph.edit.split_docs.{focus.key}")
        split_name = st.text_input("go to the entity", key=f"graph.edit.split_name.{focus.key}", placeholder="e.g. Paris (Texas)")
        if st.button("Split", key="graph.edit.split_go", disabled=not (docs and split_name.strip())):
            with user_errors("Could not split"):
                edit = cur.split(coll.name, _ref(focus), split_name, documents=docs, author=who)
                done(f"Edit {edit.id}: {edit.summary}.")
    with st.expander("Delete"):
        facts = {f.id: f"{f.source} —{f.relation}→ {f.target} (doc {f.document_id}, fact {f.id})"
                 for f in subgraph.facts}
        wrong = st.selectbox("A wrong fact", list(facts), format_func=facts.get, key="graph.edit.fact", index=None,
                             placeholder="Choose a fact")
        if st.button("Delete fact", key="graph.edit.fact_go", disabled=wrong is None, icon=":material/delete:"):
            if wrong is None:  # clicked on a list another session's edit has changed since
                st.warning("That fact is no longer in this view: another session changed it. Nothing was deleted.")
            with user_errors("Could not delete the fact"):
                if wrong is not None:
                    edit = cur.delete_fact(coll.name, str(wrong), author=who)
                    done(f"Edit {edit.id}: {edit.summary}.")
        sure = st.checkbox(f"Delete {name} and its {focus.degree} facts", key=f"graph.edit.entity_sure.{focus.key}")
        if st.button("Delete entity", key="graph.edit.entity_go", disabled=not sure, icon=":material/delete_forever:"):
            with user_errors("Could not delete the entity"):
                edit = cur.delete_entity(coll.name, _ref(focus), author=who)
                st.session_state.pop("graph.entity", None)
                done(f"Edit {edit.id}: {edit.summary}.")
    with st.expander("Add a fact"), st.form("graph.edit.add", clear_on_submit=True):
        a1, a2, a3 = st.columns(3)
        subject = a1.text_input("Subject", value=focus.name)
        relation = a2.text_input("Relation", placeholder="e.g. born in, ceo_of")
        obj = a3.text_input("Object")
        d1, d2 = st.columns(2)
        start = d1.text_input("Valid from", placeholder="YYYY, YYYY-MM or YYYY-MM-DD")
        end = d2.text_input("Valid until", placeholder="optional")
        note = st.text_input("Note", placeholder="where it comes from")
        if st.form_submit_button("Add fact"):
            with user_errors("Could not add the fact"):
                edit = cur.add_fact(coll.name, subject, relation, obj, valid_from=start or None,
                                    valid_until=end or None, note=note or None, author=who)
                done(f"Edit {edit.id}: {edit.summary}.")


def _ref(entity: Entity) -> str:
    """How an edit names an entity: its key when it has homonyms (``name#kind``), else its name."""
    return entity.key if "#" in entity.key else entity.name
