"""RAG Memory Workbench: the router. Pages live in pages/, shared UI in components/."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the entry point guarantees no model-hub traffic

from pathlib import Path

import streamlit as st

from components.auth import access_gate

ICON = Path(__file__).parent / "static" / "favicon.png"

PAGES = [
    ("pages/home.py", "Home", ":material/home:"),
    ("pages/collections.py", "Collections", ":material/folder_special:"),
    ("pages/ingest.py", "Ingest", ":material/upload_file:"),
    ("pages/search.py", "Search", ":material/search:"),
    ("pages/documents.py", "Documents", ":material/description:"),
    ("pages/graph.py", "Graph", ":material/hub:"),
    ("pages/timeline.py", "Timeline", ":material/timeline:"),
    ("pages/ask.py", "Ask", ":material/forum:"),
    ("pages/memory.py", "Memory", ":material/psychology:"),
]


def run() -> None:
    # A local file: a :material/...: page icon makes the browser fetch the favicon from a font CDN.
    st.set_page_config(page_title="RAG Memory Workbench", page_icon=str(ICON), layout="wide")
    pages = [st.Page(path, title=title, icon=icon, default=(i == 0)) for i, (path, title, icon) in enumerate(PAGES)]
    page = access_gate(pages)  # st.navigation behind the login, when one is configured
    if page is None:
        st.stop()
    st.sidebar.caption("RAG Memory Workbench")
    page.run()


if __name__ == "__main__":
    run()
