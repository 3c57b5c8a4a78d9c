"""The Graph page's review tab: the queue of likely duplicates (accept, reject, never), the edit history with
Undo, and the export download (a whole collection or the scene on screen)."""

from __future__ import annotations

import streamlit as st

from components.feedback import user_errors
from components.graph_edit import done
from components.markdown_text import md_escape
from services.collections import Collection
from services.container import Services
from services.graph.model import Subgraph

SHOWN = 15


def review_queue(svc: Services, coll: Collection, who: str) -> None:
    st.markdown("**Likely duplicates**")
    if not st.toggle("Review likely duplicates", key="graph.review.on",
                     help="Pairs from stated aliases and names contained in one another, with their evidence."):
        return  # not computed on every rerun of the page unless asked for
    by_meaning = st.checkbox("Also compare names by meaning (loads the embedding model)", key="graph.review.meaning")
    with user_errors("Could not list the suggestions"):
        queue = svc.curation.suggestions(coll.name, limit=SHOWN, by_meaning=by_meaning)
        if not queue:
            st.caption("No likely duplicates to review.")
        for n, s in enumerate(queue):
            with st.container(border=True, key=f"graph.review.item{n}"):
                st.markdown(f"**{md_escape(s.name_a)}** ({s.type_a or 'untyped'}, {s.facts_a} facts) and "
                            f"**{md_escape(s.name_b)}** ({s.type_b or 'untyped'}, {s.facts_b} facts)")
                st.caption(md_escape(f"Evidence: {s.evidence_text} · score {s.score:.2f}"))
                b1, b2, b3 = st.columns(3)
                for col, label, decision in ((b1, "Accept (merge)", "accept"), (b2, "Reject", "reject"),
                                             (b3, "Never", "never")):
                    if col.button(label, key=f"graph.review.{decision}.{s.key_a}|{s.key_b}"):
                        with user_errors("Could not answer the suggestion"):
                            out = svc.curation.decide(coll.name, s.key_a, s.key_b, decision, author=who)
                            edit = out["edit"]
                            done(f"Edit {edit.id}: {edit.summary}." if edit else
                                 f"{'Rejected' if decision == 'reject' else 'Never'}: {s.name_a} / {s.name_b}.")


def history(svc: Services, coll: Collection, who: str, *, read_only: bool = False) -> None:
    st.markdown("**Edit history**")
    with user_errors("Could not read the edit history"):
        edits = svc.curation.history(coll.name, 20)
        if not edits:
            st.caption("No edits yet.")
            return
        st.dataframe([{"id": e.id, "when (UTC)": f"{e.created_at:%Y-%m-%d %H:%M:%S}", "who": e.author, "kind": e.kind,
                       "status": e.status, "what": e.summary} for e in edits], hide_index=True, width="stretch")
        last = next((e for e in edits if e.status == "applied"), None)
        if read_only:
            return
        if st.button("Undo last edit", key="graph.review.undo", disabled=last is None, icon=":material/undo:",
                     help=f"Takes back: {last.summary}" if last else None):
            with user_errors("Could not undo"):
                edit = svc.curation.undo(coll.name, author=who)
                done(f"Undid edit {edit.id}: {edit.summary}.")


def export(svc: Services, coll: Collection, scene: Subgraph | None) -> None:
    from services.graph import export as ex

    st.markdown("**Export**")
    e1, e2 = st.columns(2)
    fmt = e1.radio("Format", ["graphml", "csv", "json"], horizontal=True, key="graph.export.format",
                   help="GraphML: Gephi, yEd. CSV: neo4j-admin import (a zip of nodes.csv and relationships.csv). "
                        "JSON: re-importable with `rag graph import`.")
    scope = e2.radio("What", ["Whole collection", "Scene on screen"], horizontal=True, key="graph.export.scope",
                     disabled=scene is None)
    with user_errors("Could not export the graph"):
        if scope == "Scene on screen" and scene is not None:
            files = ex.render(ex.scene_graph(scene), fmt, f"{coll.name}-scene")
        else:
            files = svc.curation.export(coll.name, fmt)
        name, data = next(iter(files.items()))
        if len(files) > 1:
            name, data = f"{coll.name}-graph-csv.zip", ex.zipped(files)
        st.download_button(f"Download {fmt.upper()}", data, file_name=name, key="graph.export.download",
                           icon=":material/download:")
