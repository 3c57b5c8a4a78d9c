"""What the Graph page draws of a neighbourhood: at most ``limit`` entities, chosen by a stated ranking,
with generic concepts folded away (the rule of :mod:`services.graph.generic`).

A 2-hop neighbourhood of a well-connected entity holds hundreds of entities, most of them concepts
("displeasure", "date", "plan") that one sentence attached to the entity; drawn whole it is a hairball.
The scene grows outwards from the entities the user is looking at (the entity picked and any expanded by a
click), one entity at a time, always taking the best entity linked to what is already drawn:

1. named entities (people, places, organisations…) before concepts;
2. among concepts, those that link two or more entities of the neighbourhood (a route to something)
   before those that hang off a single entity (a leaf: its fact is in the facts list, the canvas gains
   nothing from another grey dot);
3. then the fewest hops, then the most facts in the neighbourhood.

So every drawn entity is connected to what the user is looking at, and the scene says how many entities it
left out and which concepts it folded.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from dataclasses import dataclass, field

from services.graph.generic import CONCEPT, is_generic
from services.graph.model import Entity, Fact, Subgraph

DEFAULT_LIMIT = 60
RANKING = ("outwards from the entities you are looking at: named entities first, then concepts that link two "
           "entities, then concepts attached to one; within each, the fewest hops and the most facts")
NAMED, BRIDGE, LEAF = 0, 1, 2  # tiers, best first


@dataclass
class Scene:
    nodes: list[Entity]  # drawn, in rank order
    facts: list[Fact]  # drawn: the facts between drawn entities
    folded: list[tuple[Entity, int]] = field(default_factory=list)  # generic concepts left out, with their doc. freq.
    left_out: int = 0  # entities beyond the limit
    total: int = 0  # entities in the neighbourhood
    hops: dict[str, int] = field(default_factory=dict)  # distance from the nearest seed
    leaves: dict[str, int] = field(default_factory=dict)  # per drawn entity: concepts hanging off it left out

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
        if fact.source_key == fact.target_key:
            continue
        neighbours.setdefault(fact.source_key, set()).add(fact.target_key)
        neighbours.setdefault(fact.target_key, set()).add(fact.source_key)
        for key in (fact.source_key, fact.target_key):
            degree[key] = degree.get(key, 0) + 1
    hops = _distances(seeds, neighbours)

    def tier(key: str) -> int:
        if graph.nodes[key].type != CONCEPT:
            return NAMED
        return BRIDGE if len(neighbours.get(key, ())) >= 2 else LEAF

    def rank(key: str) -> tuple[int, float, int, str, str]:
        return tier(key), hops.get(key, math.inf), -degree.get(key, 0), graph.nodes[key].name.lower(), key

    kept: list[str] = list(seeds)
    seen = set(seeds)
    frontier: list[tuple[int, float, int, str, str]] = []
    for key in seeds:
        for nxt in neighbours.get(key, ()):
            if nxt not in seen:
                seen.add(nxt)
                heapq.heappush(frontier, rank(nxt))
    while frontier and len(kept) < limit:
        key = heapq.heappop(frontier)[-1]
        kept.append(key)
        for nxt in neighbours.get(key, ()):
            if nxt not in seen:
                seen.add(nxt)
                heapq.heappush(frontier, rank(nxt))
    drawn_keys = set(kept)
    drawn = [f for f in facts if f.source_key in drawn_keys and f.target_key in drawn_keys]
    leaves: dict[str, int] = {}
    for key in neighbours:
        if key not in drawn_keys and tier(key) == LEAF:
            (owner,) = neighbours[key]
            if owner in drawn_keys:
                leaves[owner] = leaves.get(owner, 0) + 1
    candidates = [k for k in graph.nodes if k not in generic]
    folded = sorted(((graph.nodes[k], frequencies.get(k, 0)) for k in generic), key=lambda p: (-p[1], p[0].name))
    return Scene([graph.nodes[k] for k in kept], drawn, folded, left_out=len(candidates) - len(kept),
                 total=len(graph.nodes), hops=hops, leaves=leaves)


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
