"""Reading the knowledge graph: entities by name or by text, an entity's neighbourhood and facts,
the facts between two entities, and the shortest routes between them.

:class:`GraphReads` is the query half of :class:`~services.graph.service.GraphService` (which adds
indexing, validity and deletion); it needs only the graph store.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from services.errors import ValidationFailed
from services.graph import queries as q
from services.graph.generic import CONCEPT, is_generic
from services.graph.model import Entity, Fact, Subgraph
from services.stores.graph_store import GraphStore
from services.stores.lazy_graph_store import LazyGraphStore

MAX_HOPS = 3
MAX_LIMIT = 2_000


class GraphReads:
    """Queries over the graph store; every limit is clamped and every depth checked."""

    store: GraphStore | LazyGraphStore

    def find_entities(self, text: str, collection_ids: list[int], limit: int = 20) -> list[Entity]:
        from services.graph.entities import entity_key

        needle = entity_key(text) if text.strip() else ""
        rows = self.store.query(q.FIND_ENTITIES, {"collection_ids": collection_ids, "needle": needle,
                                                  "limit": _clamp(limit, 1, 200)})
        return [_entity(r) for r in rows]

    def entities_by_keys(self, keys: list[str], collection_ids: list[int]) -> list[Entity]:
        rows = self.store.query(q.ENTITIES_BY_KEYS, {"collection_ids": collection_ids, "keys": keys})
        return [_entity(r) for r in rows]

    def entities_in_text(self, text: str, collection_ids: list[int], *, spacy_model: str) -> list[Entity]:
        """Graph entities named in ``text`` (a question): its named entities and noun phrases, matched by key."""
        from services.graph.entities import entity_key
        from services.graph.nlp import load_spacy
        from services.graph.spans import NAMED

        doc = load_spacy(spacy_model)(text[:2000])
        spans = [e.text for e in doc.ents if e.label_ in NAMED] + [c.text for c in doc.noun_chunks]
        keys = list(dict.fromkeys(k for k in (entity_key(s) for s in spans) if k))
        if not keys:
            return []
        rows = self.store.query(q.ENTITIES_BY_KEYS, {"collection_ids": collection_ids, "keys": keys})
        found = {r["key"]: _entity(r) for r in rows}
        return [found[k] for k in keys if k in found]

    def entities_for_chunks(self, chunk_scores: dict[int, float], collection_ids: list[int], limit: int = 20) -> list[Entity]:
        """Entities of the facts drawn from these chunks, ranked by the chunks' scores ("search by meaning")."""
        if not chunk_scores:
            return []
        weight: dict[str, float] = {}
        for row in self.store.query(q.ENTITIES_FROM_CHUNKS, {"chunk_ids": list(chunk_scores)}):
            for key in (row["a"], row["b"]):
                weight[key] = weight.get(key, 0.0) + chunk_scores.get(row["chunk_id"], 0.0)
        keys = sorted(weight, key=lambda k: weight[k], reverse=True)[:limit]
        rows = self.store.query(q.ENTITIES_BY_KEYS, {"collection_ids": collection_ids, "keys": keys})
        found = {r["key"]: _entity(r) for r in rows}
        return [found[k] for k in keys if k in found]

    def neighbourhood(self, collection_id: int, key: str, *, depth: int = 1, relations: list[str] | None = None,
                      status: str | None = None, valid_from: str | None = None, valid_until: str | None = None,
                      limit: int = 300) -> Subgraph:
        """Facts within ``depth`` hops (1–3) of an entity, filtered by relation, status and time window."""
        depth = _whole(depth, "Depth")
        if not 1 <= depth <= MAX_HOPS:
            raise ValidationFailed(f"Depth must be between 1 and {MAX_HOPS}, not {depth}.")
        if status not in (None, "current", "superseded"):
            raise ValidationFailed("Status must be current or superseded.")
        rows = self.store.query(q.neighbourhood(depth), {
            "collection_id": collection_id, "key": key, "relations": relations or None, "status": status,
            "from": valid_from, "until": valid_until, "limit": _clamp(limit, 1, MAX_LIMIT),
        })
        graph = Subgraph()
        for row in rows:
            graph.add(Fact.from_row(row))
        return graph

    def facts_of_entity(self, key: str, collection_ids: list[int], *, valid_from: str | None = None,
                        valid_until: str | None = None, limit: int = 1000) -> list[Fact]:
        rows = self.store.query(q.FACTS_OF_ENTITY, {
            "collection_ids": collection_ids, "key": key, "from": valid_from, "until": valid_until,
            "limit": _clamp(limit, 1, 10_000),
        })
        return [Fact.from_row(r) for r in rows]

    def facts_between(self, collection_id: int, a: str, b: str, *, limit: int = 50) -> list[Fact]:
        """Every fact that links two entities directly, either way (one hop of a route, all its facts)."""
        rows = self.store.query(q.FACTS_BETWEEN, {"collection_id": collection_id, "a": a, "b": b,
                                                  "limit": _clamp(limit, 1, MAX_LIMIT)})
        return [Fact.from_row(r) for r in rows]

    def facts_by_ids(self, ids: list[str]) -> list[Fact]:
        return [Fact.from_row(r) for r in self.store.query(q.FACTS_BY_IDS, {"ids": ids})] if ids else []

    def document_frequencies(self, collection_id: int, keys: list[str]) -> dict[str, int]:
        """For each entity key, how many of the collection's documents state a fact about it."""
        if not keys:
            return {}
        rows = self.store.query(q.DOCUMENT_FREQUENCIES, {"collection_id": collection_id, "keys": list(keys)})
        return {r["key"]: int(r["documents"]) for r in rows}

    def relation_types(self, collection_ids: list[int], limit: int = 100) -> list[tuple[str, int]]:
        rows = self.store.query(q.RELATION_TYPES, {"collection_ids": collection_ids, "limit": _clamp(limit, 1, 1000)})
        return [(r["relation"], int(r["n"])) for r in rows]

    def counts(self, collection_ids: list[int]) -> dict[str, int]:
        rows = self.store.query(q.COUNTS, {"collection_ids": collection_ids})
        return {"entities": int(rows[0]["entities"]), "facts": int(rows[0]["facts"])} if rows else {"entities": 0, "facts": 0}

    def paths(self, collection_id: int, a: str, b: str, *, max_hops: int = 3, limit: int = 5,
              documents: int = 0) -> list[list[Fact]]:
        """Shortest paths between two entities (breadth-first over facts, up to ``max_hops``).

        ``documents``, the collection's document count: a concept generic in it (services/graph/generic.py,
        the rule the canvas folds by) is no stop on a route ("Acme → conglomerate → Globex" says nothing),
        though it can be an end. 0 keeps every entity."""
        max_hops = _whole(max_hops, "max_hops")
        if not 1 <= max_hops <= MAX_HOPS:
            raise ValidationFailed(f"max_hops must be between 1 and {MAX_HOPS}, not {max_hops}.")
        if a == b:
            return []
        around = self.neighbourhood(collection_id, a, depth=max_hops, limit=MAX_LIMIT)
        adjacency: dict[str, list[Fact]] = {}
        for fact in around.facts:
            adjacency.setdefault(fact.source_key, []).append(fact)
            adjacency.setdefault(fact.target_key, []).append(fact)
        generic = self._generic(collection_id, around, documents) - {a, b}
        found: list[list[Fact]] = []
        routes: set[tuple[str, ...]] = set()  # the entities a path passes through: two facts between the
        queue: deque[tuple[str, list[Fact]]] = deque([(a, [])])  # same entities are one route, not two paths
        best = None
        while queue and len(found) < limit:
            node, path = queue.popleft()
            if best is not None and len(path) > best:
                break
            if node == b and path:
                route = _route(a, path)
                if route not in routes:
                    routes.add(route)
                    found.append(path)
                    best = len(path)
                continue
            if len(path) >= max_hops:
                continue
            visited = {a} | {f.source_key for f in path} | {f.target_key for f in path}
            for fact in adjacency.get(node, []):
                nxt = fact.target_key if fact.source_key == node else fact.source_key
                if (nxt not in visited or nxt == b) and nxt not in generic:
                    queue.append((nxt, path + [fact]))
        return found

    def _generic(self, collection_id: int, around: Subgraph, documents: int) -> set[str]:
        concepts = [k for k, e in around.nodes.items() if e.type == CONCEPT]
        if not documents or not concepts:
            return set()
        frequencies = self.document_frequencies(collection_id, concepts)
        return {k for k in concepts if is_generic(CONCEPT, frequencies.get(k, 0), documents)}

def _entity(r: dict[str, Any]) -> Entity:
    return Entity(r["collection_id"], r["key"], r["name"], r["type"] or "", int(r["degree"]), tuple(r.get("aliases") or ()))


def _route(start: str, path: list[Fact]) -> tuple[str, ...]:
    """The entity keys a path visits, from ``start``."""
    keys = [start]
    for fact in path:
        keys.append(fact.target_key if fact.source_key == keys[-1] else fact.source_key)
    return tuple(keys)


def _whole(value: Any, what: str) -> int:
    """An integer from an int or a whole-number string; :class:`ValidationFailed` otherwise."""
    if isinstance(value, bool):
        raise ValidationFailed(f"{what} must be a whole number, got {value!r}.")
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise ValidationFailed(f"{what} must be a whole number, got {value!r}.") from None


def _clamp(value: Any, low: int, high: int) -> int:
    return max(low, min(_whole(value, "limit"), high))

