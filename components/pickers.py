"""Shared selectors for pages that work on one collection's graph."""

from __future__ import annotations

import streamlit as st

from services.collections import Collection
from services.container import Services


def require_graph(svc: Services) -> None:
    """Stop the page with an explanation when the knowledge graph is turned off."""
    if svc.graph is None:
        st.info("The knowledge graph is turned off (graph_enabled = false).", icon=":material/info:")
        st.stop()


def pick_collection(svc: Services, *, key: str, container: object = st) -> Collection:
    """A collection selectbox (preselected by ``?collection=``); stops the page when there is none."""
    collections = svc.collections.list()
    if not collections:
        st.info("Create a collection and ingest documents first.", icon=":material/info:")
        st.stop()
    names = [c.name for c in collections]
    wanted = st.query_params.get("collection")
    name = container.selectbox("Collection", names, key=key,  # type: ignore[attr-defined]
                               index=names.index(wanted) if wanted in names else 0)
    return next(c for c in collections if c.name == name)
