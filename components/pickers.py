"""Shared selectors: the collection a page starts on (the one last used), and the graph's guard."""

from __future__ import annotations

import streamlit as st

from components.state import Keys
from services.collections import Collection
from services.container import Services


def require_graph(svc: Services) -> None:
    """Stop the page with an explanation when the knowledge graph is turned off."""
    if svc.graph is None:
        st.info("The knowledge graph is turned off (graph_enabled = false).", icon=":material/info:")
        st.stop()


def preferred_collection(svc: Services, collections: list[Collection]) -> str | None:
    """The collection a page opens on: ``?collection=``, else the one this session used last, else the one
    written to or created most recently (a new session), else the first."""
    names = [c.name for c in collections]
    for wanted in (st.query_params.get("collection"), st.session_state.get(Keys.LAST_COLLECTION)):
        if wanted in names:
            return wanted
    if not collections:
        return None
    newest = max(collections, key=lambda c: c.created_at)
    jobs = svc.jobs.recent(1)
    if jobs and jobs[0].started_at > newest.created_at and jobs[0].params.get("collection") in names:
        return str(jobs[0].params["collection"])
    return newest.name


def remember_collection(name: str | None) -> None:
    """Record the collection the user is working on, for the next page's default."""
    if name:
        st.session_state[Keys.LAST_COLLECTION] = name


def collection_index(svc: Services, collections: list[Collection], *, offset: int = 0) -> int:
    """The selectbox index of :func:`preferred_collection` (``offset`` for options placed before the names)."""
    preferred = preferred_collection(svc, collections)
    names = [c.name for c in collections]
    return names.index(preferred) + offset if preferred in names else 0


def pick_collection(svc: Services, *, key: str, container: object = st) -> Collection:
    """A collection selectbox on the collection last used; stops the page when there is none."""
    collections = svc.collections.list()
    if not collections:
        st.info("Create a collection and ingest documents first.", icon=":material/info:")
        st.page_link("pages/collections.py", label="Create a collection", icon=":material/add:")
        st.stop()
    names = [c.name for c in collections]
    name = container.selectbox("Collection", names, key=key,  # type: ignore[attr-defined]
                               index=collection_index(svc, collections))
    remember_collection(name)
    return next(c for c in collections if c.name == name)
