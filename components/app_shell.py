"""The app around every page: page config, session state, the login gate, navigation and the sidebar.

Every page file in ``pages/`` only defines ``render()`` and ends with
``serve(render)``. :func:`serve` calls ``render`` only when :func:`main` is
running that page, after the gate has let the visitor in. So the gate lives
here, in one place, and a page cannot skip it: a page file that forgot
``serve(render)`` draws nothing at all.

Why a page file may be run without :func:`main`: with a ``pages/`` folder beside
the entry point, Streamlit's first script run on a new server uses its classic
multipage mode, and a deep link (``/graph``) runs ``pages/graph.py`` alone. Then
:func:`serve` runs :func:`main`, whose ``st.navigation`` switches Streamlit to the
pages declared here for good, and draws the requested page through the gate.
The classic mode's own page list is never shown (``client.showSidebarNavigation
= false``); the sidebar links below are the navigation.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from components.auth import access_gate
from components.resources import start_loading_model, start_upgrade
from components.state import init_state

ICON = Path(__file__).resolve().parents[1] / "static" / "favicon.png"


@dataclass(frozen=True)
class PageSpec:
    path: str  # relative to the entry point, as st.Page takes it
    title: str
    icon: str
    # The page's actions embed passages (ingest, re-ingest, Ask's extracted answers, memory facts): once it
    # is drawn, the embedding model starts loading in the background. Other pages never load it (queries
    # are embedded without it), so its seconds of imports never compete with them for the interpreter.
    needs_model: bool = False


PAGES = (
    PageSpec("pages/home.py", "Home", ":material/home:"),
    PageSpec("pages/collections.py", "Collections", ":material/folder_special:"),
    PageSpec("pages/ingest.py", "Ingest", ":material/upload_file:", needs_model=True),
    PageSpec("pages/search.py", "Search", ":material/search:"),
    PageSpec("pages/documents.py", "Documents", ":material/description:", needs_model=True),
    PageSpec("pages/graph.py", "Graph", ":material/hub:"),
    PageSpec("pages/timeline.py", "Timeline", ":material/timeline:"),
    PageSpec("pages/ask.py", "Ask", ":material/forum:", needs_model=True),
    PageSpec("pages/memory.py", "Memory", ":material/psychology:", needs_model=True),
)

_serving: ContextVar[bool] = ContextVar("rag_serving_page", default=False)


def main() -> None:
    """Draw the app: config, state, the gate, the navigation, then the requested page."""
    # A local file: a :material/...: page icon makes the browser fetch the favicon from a font CDN.
    st.set_page_config(page_title="RAG Memory Workbench", page_icon=str(ICON), layout="wide")
    init_state()
    pages = [st.Page(spec.path, title=spec.title, icon=spec.icon, default=(i == 0)) for i, spec in enumerate(PAGES)]
    page = access_gate(pages)  # st.navigation behind the login, when one is configured
    if page is None:
        st.stop()
    with st.sidebar:
        for link in pages:
            st.page_link(link)
        st.caption("RAG Memory Workbench")
    token = _serving.set(True)
    try:
        page.run()
    finally:
        _serving.reset(token)
    start_upgrade()  # once per process, after the first page is drawn
    if any(spec.needs_model and link is page for link, spec in zip(pages, PAGES)):
        start_loading_model()  # after the page is drawn, so that it never waits for the model


def serve(render: Callable[[], None]) -> None:
    """The last line of every page file: draw the page, always through :func:`main` and its gate."""
    if _serving.get():
        render()
    else:  # Streamlit ran this page file alone (see the module docstring)
        main()
