"""Diagrams attached to documents: fetch one by id (graph first, PostgreSQL as the fallback) and draw it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import NotFound
from services.graph.mermaid import MermaidEdge, MermaidNode, to_mermaid

if TYPE_CHECKING:
    from services.graph.service import GraphService

_SHAPE = {"decision": "decision", "start_end": "terminator", "data": "io"}


@dataclass
class DiagramView:
    diagram_id: str
    document_id: int
    document_title: str
    index: int
    representation: str
    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    image: bytes | None = None

    @property
    def mermaid(self) -> str | None:
        """Decisions as diamonds, start/end rounded, steps as boxes, branch labels on arrows."""
        return self.mermaid_marking([])

    def mermaid_marking(self, passages: list[str]) -> str | None:
        """:attr:`mermaid` with the steps that ``passages`` (e.g. search hits) talk about outlined."""
        if not self.nodes:
            return None
        nodes = [MermaidNode(n["id"], n["text"], _SHAPE.get(n["kind"], "default")) for n in self.nodes]
        edges = [MermaidEdge(e["source"], e["target"], e.get("label") or "") for e in self.edges]
        said = [_words(p) for p in passages]
        marked = {n["id"] for n in self.nodes if any(_mentions(words, _words(n["text"])) for words in said)}
        return to_mermaid(nodes, edges, direction="TD", highlight=marked)


_STOP = {"the", "and", "for", "with", "that", "this", "from", "are", "was", "not", "yes"}


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 3 and w not in _STOP]


def _mentions(passage: list[str], step: list[str]) -> bool:
    """A passage mentions a step when it has every content word of it, and the step has two or more
    (so "Yes", "End" or "Start" alone never match)."""
    return len(set(step)) >= 2 and set(step) <= set(passage)


class DiagramService:
    def __init__(self, *, engine: Engine, graph: GraphService | None = None) -> None:
        self.engine = engine
        self.graph = graph

    def get(self, diagram_id: str) -> DiagramView:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.text("SELECT g.*, d.title FROM diagrams g JOIN documents d ON d.id = g.document_id "
                        "WHERE g.diagram_id = :id"), {"id": diagram_id},
            ).first()
        if row is None:
            raise NotFound(f"No diagram {diagram_id!r}.")
        nodes, edges = list(row.nodes), list(row.edges)
        if self.graph is not None and nodes:
            graph_nodes, graph_edges = self.graph.diagram(diagram_id)
            if graph_nodes:  # the graph is the source of truth once built
                nodes, edges = sorted(graph_nodes, key=lambda n: n["id"]), graph_edges
        return DiagramView(diagram_id, row.document_id, row.title, row.idx, row.representation, nodes, edges,
                           bytes(row.image) if row.image is not None else None)

    def for_document(self, document_id: int) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.text("SELECT diagram_id FROM diagrams WHERE document_id = :id ORDER BY idx"),
                                     {"id": document_id}).scalars())
