"""Home: store health, counts and recent ingestion jobs."""

import streamlit as st

from components.app_shell import serve
from components.jobs_view import jobs_table
from components.resources import get_services


def render() -> None:
    st.title("RAG Memory Workbench")
    st.caption("Build and explore a knowledge base: collections, ingestion, and semantic, keyword or hybrid search.")

    svc = get_services()
    health = svc.health()
    pg, emb = health["postgres"], health["embedding"]
    collections = svc.collections.list()

    c1, c2, c3 = st.columns(3)
    c1.metric("Collections", len(collections))
    c2.metric("Documents", sum(c.document_count for c in collections))
    c3.metric("Chunks", sum(c.chunk_count for c in collections))

    st.subheader("Stores")
    s1, s2, s3 = st.columns(3)
    with s1.container(border=True):
        st.markdown(f"**PostgreSQL** ({'embedded' if pg['kind'] == 'embedded' else 'from DATABASE_URL'})")
        st.caption(f"server {pg['server_version']} · pgvector {pg['pgvector_version']} · schema v{pg['schema_version']}")
        st.code(pg["location"], language=None)
        st.caption(shared_with_text(pg))
    with s2.container(border=True):
        st.markdown("**Embedding model**")
        size = f" · {emb['dimension']} dimensions" if emb["dimension"] else ""
        if emb["loaded"]:
            st.caption(f"{emb['model']}{size}")
        else:
            st.caption(f"{emb['model']}{size} · loading in the background (the first search waits for it)")
    with s3.container(border=True):
        graph = health["graph"]
        st.markdown("**Knowledge graph**")
        if graph is None:
            st.caption("turned off (graph_enabled = false)")
        else:
            st.caption(graph["kind"])
            st.code(graph["location"], language=None)

    if not collections:
        st.info("No collections yet. Start on the Collections page, then ingest documents.", icon=":material/info:")
        st.page_link("pages/collections.py", label="Create a collection", icon=":material/add:")

    st.subheader("Recent ingestion jobs")
    jobs_table(svc.jobs.recent(10))


def shared_with_text(pg: dict) -> str:
    """Which other workbench processes use these stores; for the embedded ones, that they outlive this app."""
    others = pg["shared_with"]
    text = f"Shared with {len(others)} other process(es): {', '.join(others)}." if others else \
        "No other app, CLI or MCP process is connected."
    if pg["kind"] == "embedded":
        text += " The embedded servers keep running after the app exits (`rag stores status`, `rag stores stop`)."
    return text


serve(render)
