"""Deterministic Mermaid flowchart text from a subgraph: a pure function, labels escaped.

The same input always gives the same text: nodes are sorted by key and get
stable ids (``n0``, ``n1``…), edges are sorted. Labels are quoted and every
character Mermaid could read as syntax (quotes, brackets, pipes, angle
brackets, ``#``, ``;``, backticks) is written as an HTML entity code, so no
label can break the diagram or inject markup.
"""

from __future__ import annotations

from dataclasses import dataclass

SHAPES = {
    "decision": ('{', '}'),
    "terminator": ('([', '])'),
    "start": ('([', '])'),
    "end": ('([', '])'),
    "io": ('[/', '/]'),
    "default": ('["', '"]'),
}
_ESCAPES = {
    '"': "#quot;", "&": "#amp;", "<": "#lt;", ">": "#gt;", "#": "#35;", "[": "#91;", "]": "#93;",
    "{": "#123;", "}": "#125;", "(": "#40;", ")": "#41;", "|": "#124;", ";": "#59;", "`": "#96;",
    "\\": "#92;", "%": "#37;",
}
MAX_LABEL = 80


@dataclass(frozen=True)
class MermaidNode:
    key: str
    label: str
    kind: str = "default"  # decision | terminator | start | end | io | default (also entity types)


@dataclass(frozen=True)
class MermaidEdge:
    source: str
    target: str
    label: str = ""


def escape_label(text: str) -> str:
    """Make arbitrary text safe inside a quoted Mermaid label."""
    text = " ".join(str(text).split())
    if len(text) > MAX_LABEL:
        text = text[: MAX_LABEL - 1] + "…"
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _node_line(node_id: str, node: MermaidNode) -> str:
    label = escape_label(node.label) or " "
    if node.kind == "decision":
        return f'    {node_id}{{"{label}"}}'
    if node.kind in ("terminator", "start", "end"):
        return f'    {node_id}(["{label}"])'
    if node.kind == "io":
        return f'    {node_id}[/"{label}"/]'
    return f'    {node_id}["{label}"]'


HIGHLIGHT_STYLE = "fill:#fff4e6,stroke:#e8590c,stroke-width:3px"


def to_mermaid(nodes: list[MermaidNode], edges: list[MermaidEdge], *, direction: str = "LR",
               highlight: set[str] | frozenset[str] = frozenset()) -> str:
    """Mermaid ``flowchart`` text for the given nodes and edges (edges to unknown nodes are dropped);
    the nodes whose keys are in ``highlight`` are drawn in an orange outline (class ``hit``)."""
    if direction not in ("LR", "TD", "TB", "RL", "BT"):
        raise ValueError("direction must be LR, TD, TB, RL or BT")
    unique: dict[str, MermaidNode] = {}
    for node in sorted(nodes, key=lambda n: (n.key, n.label, n.kind)):
        unique.setdefault(node.key, node)  # duplicate keys: the first in sorted order wins, whatever the input order
    ordered = list(unique.values())
    ids = {node.key: f"n{i}" for i, node in enumerate(ordered)}
    lines = [f"flowchart {direction}"]
    lines += [_node_line(ids[n.key], n) for n in ordered]
    for edge in sorted(set(edges), key=lambda e: (e.source, e.target, e.label)):
        if edge.source not in ids or edge.target not in ids:
            continue
        a, b = ids[edge.source], ids[edge.target]
        if edge.label:
            lines.append(f'    {a} -->|"{escape_label(edge.label)}"| {b}')
        else:
            lines.append(f"    {a} --> {b}")
    marked = [ids[n.key] for n in ordered if n.key in highlight]
    if marked:
        lines += [f"    classDef hit {HIGHLIGHT_STYLE}", f"    class {','.join(marked)} hit"]
    return "\n".join(lines) + "\n"


def subgraph_to_mermaid(subgraph: object, *, direction: str = "LR") -> str:
    """Mermaid text for a :class:`services.graph.model.Subgraph` (edge label: relation and dates)."""
    from services.graph.model import Subgraph

    assert isinstance(subgraph, Subgraph)
    nodes = [MermaidNode(e.key, e.name) for e in subgraph.nodes.values()]
    edges = []
    for fact in subgraph.facts:
        # when it held; else when its document stated it, said so (an address's year is no date of the fact)
        if fact.valid_from:
            when = fact.valid_from[:4] + (f"–{fact.valid_until[:4]}" if fact.valid_until else "")
        elif fact.stated_on:
            when = f"stated {fact.stated_on[:4]}" + (f", until {fact.valid_until[:4]}" if fact.valid_until else "")
        else:
            when = f"until {fact.valid_until[:4]}" if fact.valid_until else ""
        said = fact.raw if fact.relation == "related_to" and fact.raw else fact.relation.replace("_", " ")
        label = said + (f" ({when})" if when else "")  # a related_to fact shows what the text said
        edges.append(MermaidEdge(fact.source_key, fact.target_key, label))
    return to_mermaid(nodes, edges, direction=direction)
