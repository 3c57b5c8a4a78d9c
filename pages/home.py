"""Home: what to do next (create, ingest, explore), counts, recent ingestion jobs, and the stores."""

import streamlit as st

from components.app_shell import serve
from components.jobs_view import jobs_table
from components.markdown_text import md_escape
from components.pickers import preferred_collection
from components.resources import get_services

DONE = ":green[:material/check_circle: done]"


def _steps(svc, collections) -> None:
    """The three steps of the workbench, each with a link, the ones done ticked."""
    documents = sum(c.document_count for c in collections)
    current = preferred_collection(svc, collections)
    params = {"collection": current} if current else None
    with st.container(border=True):
        st.markdown(f"**1. Create a collection** {DONE if collections else ''}  \n"
                    "A named set of documents, with an optional metadata schema (year, author…).")
        st.page_link("pages/collections.py", label="Collections", icon=":material/folder_special:")
    with st.container(border=True):
        st.markdown(f"**2. Ingest documents** {DONE if documents else ''}  \n"
                    "Paste text, upload files (.txt .md .html .docx .pdf), read a folder or crawl a website.")
        st.page_link("pages/ingest.py", label="Ingest", icon=":material/upload_file:", query_params=params,
                     disabled=not collections)
    with st.container(border=True):
        st.markdown("**3. Explore**" + (f" {md_escape(current)}" if current and documents else "") + "  \n"
                    "Find passages, ask questions with cited answers, and follow people, places and dates.")
        c1, c2, c3, c4 = st.columns(4)
        for column, (page, label, icon) in zip((c1, c2, c3, c4), (
                ("pages/search.py", "Search", ":material/search:"), ("pages/ask.py", "Ask", ":material/forum:"),
                ("pages/graph.py", "Graph", ":material/hub:"), ("pages/timeline.py", "Timeline", ":material/timeline:"))):
            column.page_link(page, label=label, icon=icon, query_params=params, disabled=not documents)


def _stores(svc) -> None:
    health = svc.health()
    pg, emb, graph = health["postgres"], health["embedding"], health["graph"]
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
            st.caption(f"{emb['model']}{size} · not loaded yet: it loads when a page that ingests or answers "
                       "is opened (searches embed queries without it)")
    with s3.container(border=True):
        st.markdown("**Knowledge graph**")
        if graph is None:
            st.caption("turned off (graph_enabled = false)")
        else:
            st.caption(graph["kind"])
            st.code(graph["location"], language=None)


def render() -> None:
    st.title("RAG Memory Workbench")
    st.caption("Build and explore a knowledge base: collections, ingestion, and semantic, keyword or hybrid search, "
               "a knowledge graph over time, and answers that cite their sources.")

    svc = get_services()
    collections = svc.collections.list()
    _steps(svc, collections)

    c1, c2, c3 = st.columns(3)
    c1.metric("Collections", len(collections))
    c2.metric("Documents", sum(c.document_count for c in collections))
    c3.metric("Chunks", sum(c.chunk_count for c in collections))

    with st.expander("Stores and model", icon=":material/storage:"):
        _stores(svc)

    st.subheader("Recent ingestion jobs")
    jobs_table(svc.jobs.recent(10))
    who = getattr(svc, "who", None)  # set once users exist (docs/access.md)
    if who is not None and who.unrestricted:
        with st.expander("Audit log (admins)", icon=":material/history:"):
            st.caption("Every change, newest first: who, when (UTC), what. `rag audit` lists more.")
            st.dataframe([{"when": r["at"][:19], "who": r["actor"], "action": r["action"], "target": r["target"],
                           "detail": str(r["detail"])} for r in svc.audit(200)], hide_index=True, width="stretch")


def shared_with_text(pg: dict) -> str:
    """Which other workbench processes use these stores; for the embedded ones, that they outlive this app."""
    others = pg["shared_with"]
    text = f"Shared with {len(others)} other process(es): {', '.join(others)}." if others else \
        "No other app, CLI or MCP process is connected."
    if pg["kind"] == "embedded":
        text += " The embedded servers keep running after the app exits (`rag stores status`, `rag stores stop`)."
    return text


serve(render)
