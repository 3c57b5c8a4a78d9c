"""Read a flowchart picture with a vision-capable model (OpenAI-compatible), validating its JSON.

Without a configured model the picture stays a diagram without a graph, shown
as the image itself. A reply that does not validate (unknown node ids, bad
kinds, no nodes) leaves the diagram as a picture and says why; it is never
stored half-understood.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from services.ingest.docx_diagrams import Diagram, DiagramEdge, DiagramNode
from services.stores.llm import LLMClient, LLMError

PROMPT = """This picture is a process flowchart. Answer one JSON object only:
{"nodes": [{"id": "n1", "text": "...", "kind": "start_end"|"process"|"decision"|"data"|"document"|"subprocess"}],
 "edges": [{"source": "n1", "target": "n2", "label": "Yes" or "No" or null}]}
Copy each node's text exactly. Edges follow the arrows. Use only what is drawn."""


class _Node(BaseModel):
    id: str = Field(min_length=1, max_length=20)
    text: str = Field(min_length=1, max_length=300)
    kind: Literal["start_end", "process", "decision", "data", "document", "subprocess"] = "process"


class _Edge(BaseModel):
    source: str
    target: str
    label: str | None = Field(default=None, max_length=100)


class _Graph(BaseModel):
    nodes: list[_Node] = Field(min_length=1, max_length=500)
    edges: list[_Edge] = Field(default_factory=list, max_length=2000)

    @model_validator(mode="after")
    def _edges_join_known_nodes(self) -> _Graph:
        ids = [n.id for n in self.nodes]
        if len(set(ids)) != len(ids):
            raise ValueError("node ids repeat")
        unknown = {e.source for e in self.edges} | {e.target for e in self.edges}
        if unknown - set(ids):
            raise ValueError(f"edges name unknown nodes: {sorted(unknown - set(ids))[:5]}")
        return self


def read_picture(diagram: Diagram, llm: LLMClient) -> str | None:
    """Fill ``diagram`` nodes and edges from the picture; return None, or why it stayed a picture."""
    if diagram.representation != "image" or not diagram.image:
        return None
    try:
        raw = llm.json_chat("You read diagrams.", PROMPT, image=diagram.image,
                            image_type=diagram.image_type or "image/png")
        graph = _Graph.model_validate(raw)
    except LLMError as exc:
        return f"The vision model's reading was not usable: {exc}"[:300]
    except ValidationError as exc:
        detail = "; ".join(e["msg"] for e in exc.errors()[:3])
        return f"The vision model's reading was not usable: {detail}"[:300]
    diagram.nodes = [DiagramNode(n.id, " ".join(n.text.split()), n.kind, (0.0, 0.0, 0.0, 0.0)) for n in graph.nodes]
    diagram.edges = [DiagramEdge(e.source, e.target, e.label or None) for e in graph.edges]
    return None
