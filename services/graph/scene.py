"""What the Graph page draws of a neighbourhood: at most ``limit`` entities, chosen by a stated ranking,
with generic concepts folded away (the rule of :mod:`services.graph.generic`).

A 2-hop neighbourhood of a well-connected entity holds hundreds of entities; drawn whole it is a hairball.
The scene keeps the entities closest to the ones the user is looking at (the entity picked and any expanded
by a click), then the best connected, and says how many it left out and which concepts it folded.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from services.graph.generic import CONCEPT, is_generic
from services.graph.model import Entity, Fact, Subgraph

DEFAULT_LIMIT = 60
RANKING = ("closest to the entities you are looking at first (fewest hops), named entities before concepts, "
           "then the most facts in this neighbourhood")


@dataclass
class Scene:
    nodes: list[Entity]  # drawn, in rank order
    facts: list[Fact]  # drawn: the facts between drawn entities
    folded: list[tuple[Entity, int]] = field(default_factory=list)  # generic concepts left out, with their doc. freq.
    left_out: int = 0  # entities beyond the limit
    total: int = 0  # entities in the neighbourhood
    hops: dict[str, int] = field(default_factory=dict)  # distance from the nearest seed

    def subgraph(self) -> Subgraph:
        """The drawn facts as a subgraph (for the Mermaid view of the same scene)."""
        out = Subgraph()
        for fact in self.facts:
            out.add(fact)
        return out


def build_scene(graph: Subgraph, seeds: list[str], *, frequencies: dict[str, int], documents: int,
                limit: int = DEFAULT_LIMIT, fold_generic: bool = True) -> Scene:
    """The scene for ``graph`` around ``seeds``; ``frequencies`` are the entities' document frequencies
    and ``documents`` the collection's size (for the generic-concept rule)."""
    seeds = [s for s in dict.fromkeys(seeds) if s in graph.nodes]
    generic = {k for k, e in graph.nodes.items()
               if fold_generic and k not in seeds and is_generic(e.type, frequencies.get(k, 0), documents)}
    facts = [f for f in graph.facts if f.source_key not in generic and f.target_key not in generic]
    neighbours: dict[str, set[str]] = {}
    degree: dict[str, int] = {}
    for fact in facts:
        neighbours.setdefault(fact.source_key, set()).add(fact.target_key)
        neighbours.setdefault(fact.target_key, set()).add(fact.source_key)
        for key in (fact.source_key, fact.target_key):
            degree[key] = degree.get(key, 0) + 1
    hops = _distances(seeds, neighbours)
    candidates = [k for k in graph.nodes if k not in generic]
    candidates.sort(key=lambda k: (k not in seeds, hops.get(k, math.inf), graph.nodes[k].type == CONCEPT,
                                   -degree.get(k, 0), graph.nodes[k].name.lower()))
    kept = set(candidates[: max(limit, len(seeds))])
    drawn = [f for f in facts if f.source_key in kept and f.target_key in kept]
    linked = {k for f in drawn for k in (f.source_key, f.target_key)} | set(seeds)
    nodes = [graph.nodes[k] for k in candidates if k in kept and k in linked]
    folded = sorted(((graph.nodes[k], frequencies.get(k, 0)) for k in generic), key=lambda p: (-p[1], p[0].name))
    return Scene(nodes, drawn, folded, left_out=len(candidates) - len(nodes), total=len(graph.nodes), hops=hops)


def _distances(seeds: list[str], neighbours: dict[str, set[str]]) -> dict[str, int]:
    """Hops from the nearest seed (breadth-first from all seeds at once)."""
    hops = {s: 0 for s in seeds}
    queue = deque(seeds)
    while queue:
        node = queue.popleft()
        for nxt in neighbours.get(node, ()):
            if nxt not in hops:
                hops[nxt] = hops[node] + 1
                queue.append(nxt)
    return hops


def merge(graph: Subgraph, more: Subgraph) -> Subgraph:
    """``graph`` with the facts of ``more`` added (an expanded node's neighbourhood)."""
    out = Subgraph()
    for fact in [*graph.facts, *more.facts]:
        out.add(fact)
    return out
