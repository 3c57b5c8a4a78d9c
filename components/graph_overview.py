"""The Graph page's overview of a collection (top entities, counts, relation types), cached until the graph changes.

At 100k facts these three queries take ~360 ms together and the page reruns on every widget change;
the cache key is the collection's graph stamp (``GraphService.stamp``, one PostgreSQL aggregate), so
an ingest, a delete or a rebuild from any process shows on the next rerun.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from services.container import Services
from services.graph.model import Entity
from services.graph.service import GraphService


@dataclass(frozen=True)
class GraphOverview:
    entities: list[Entity]  # the best-connected entities first
    counts: dict[str, int]
    relations: list[str]  # relation types, most frequent first


def graph_overview(svc: Services, collection_id: int) -> GraphOverview:
    graph = svc.graph
    assert graph is not None  # the page calls require_graph first
    return _overview(graph, str(svc.engine.url), collection_id, graph.stamp(collection_id))


@st.cache_data(max_entries=64, show_spinner=False)
def _overview(_graph: GraphService, store: str, collection_id: int, stamp: str) -> GraphOverview:
    """Cached on ``store``, ``collection_id`` and ``stamp`` (``_graph`` is not hashed): another database or a
    changed graph is a miss."""
    return GraphOverview(
        entities=_graph.find_entities("", [collection_id], limit=50),
        counts=_graph.counts([collection_id]),
        relations=[r for r, _ in _graph.relation_types([collection_id], limit=200)],
    )
