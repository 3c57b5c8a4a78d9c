"""The Ingest page's graph section: each document's graph status, and a rebuild for one or all."""

from __future__ import annotations

import streamlit as st

from components.feedback import user_errors
from components.ingest_job import started
from components.markdown_text import md_escape
from services.collections import Collection
from services.container import Services


def graph_section(svc: Services, coll: Collection) -> None:
    """Redrawn every 2 s while a job (from this page or elsewhere) runs into the collection, so the statuses
    follow the job; the job section reruns the whole page when its own job ends."""
    st.subheader("Knowledge graph")
    running = any(j.status == "running" and j.collection_id == coll.id for j in svc.jobs.recent(10))
    st.fragment(run_every=2.0 if running else None)(_graph_statuses)(svc, coll)


def _graph_statuses(svc: Services, coll: Collection) -> None:
    docs = svc.documents.list(collection_id=coll.id, limit=1000)
    by_status = svc.documents.graph_status_counts(coll.id)
    st.caption(f"{md_escape(coll.name)}: " + (", ".join(f"{n} {s}" for s, n in sorted(by_status.items())) or "no documents"))
    troubled = svc.documents.list(collection_id=coll.id, graph_status=("pending", "failed", "none"), limit=1000)
    if troubled:
        st.dataframe(
            [{"id": d.id, "title": d.title, "graph": d.graph_status, "error": d.graph_error or ""} for d in troubled],
            hide_index=True, width="stretch",
        )
    g1, g2 = st.columns(2)
    doc_choice = g1.selectbox("Document", [d.id for d in docs], key="ingest.graph_doc",
                              format_func=lambda i: next(f"{d.title} ({d.graph_status})" for d in docs if d.id == i))
    if g1.button("Rebuild graph for this document", key="ingest.rebuild_doc", disabled=not docs):
        with user_errors("Could not start the rebuild"):
            started(svc.ingestion.submit_graph_rebuild(coll.name, [doc_choice]))
            st.rerun()
    if g2.button(f"Rebuild graph for all of {md_escape(repr(coll.name))}", key="ingest.rebuild_all", disabled=not docs):
        with user_errors("Could not start the rebuild"):
            started(svc.ingestion.submit_graph_rebuild(coll.name))
            st.rerun()
