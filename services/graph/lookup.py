"""Graph questions asked by name: resolve an entity from what a person typed, then ask the graph service.

The CLI, the MCP server and the pages share these, so "Acme", "acme" and "the
Acme" mean the same entity everywhere, and a partial date means the same window.
The Graph and Timeline pages find their entities here too, by name or by meaning.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from services.errors import AmbiguousName, NotFound, ValidationFailed
from services.graph.entities import entity_key
from services.graph.mermaid import subgraph_to_mermaid
from services.graph.model import Entity, Subgraph

if TYPE_CHECKING:  # the service imports llama_index; a lookup by name need not. Collections sit above the graph:
    from services.collections import CollectionService  # the container passes one in, the graph never imports it
    from services.graph.service import GraphService

MatchBy = Literal["name", "meaning", "name, else meaning"]
MEANING_LIMIT = 20  # entities found by meaning: those of the facts drawn from the best chunks


# (text, collection) -> {chunk_id: score}: the chunks of a collection that best match a text by meaning. The
# container wires Search's semantic mode in: the graph does not import retrieval, which sits above it.
BestChunks = Callable[[str, str], dict[int, float]]


_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")


def iso_date(value: str | None, *, end: bool = False) -> str | None:
    """YYYY, YYYY-MM or YYYY-MM-DD as a full ISO date (the first day, or with ``end`` the last)."""
    if value is None or not str(value).strip():
        return None
    m = _DATE.match(str(value).strip())
    try:
        if not m:
            raise ValueError
        year, month, day = int(m[1]), int(m[2] or (12 if end else 1)), m[3]
        if day is None:
            nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
            return (nxt - dt.timedelta(days=1) if end else dt.date(year, month, 1)).isoformat()
        return dt.date(year, month, int(day)).isoformat()
    except ValueError:
        raise ValidationFailed(f"{value!r} is not a date: use YYYY, YYYY-MM or YYYY-MM-DD.") from None


def date_precision(value: str | None) -> str | None:
    """How precise a date typed as YYYY, YYYY-MM or YYYY-MM-DD is: year, month or day (None for none)."""
    m = _DATE.match(str(value).strip()) if value is not None else None
    if not m:
        return None
    return "day" if m[3] else "month" if m[2] else "year"


@dataclass
class GraphLookup:
    """Entity questions by name over one or more collections (all of them when none are named)."""

    graph: GraphService | None
    collections: CollectionService
    best_chunks: BestChunks | None = None  # for a search by meaning (entities_matching)

    def require_graph(self) -> GraphService:
        if self.graph is None:
            raise ValidationFailed("The knowledge graph is turned off (graph_enabled = false).")
        return self.graph

    def collection_ids(self, names: list[str] | None) -> list[int]:
        """Ids of the named collections (each must exist), or of every collection when none are named."""
        return [self.collections.get(n).id for n in names] if names else [c.id for c in self.collections.list()]

    def resolve_entity(self, name: str, cids: list[int]) -> Entity:
        """The entity a name means: a key given exactly ("barcelona#org"), else the one entity with that name or
        alias (most connected first, when collections share it), else the best partial match. A name that
        different entities carry (Barcelona the city and the club) raises :class:`AmbiguousName` with them."""
        if not (name or "").strip():
            raise ValidationFailed("Give an entity name.")
        graph = self.require_graph()
        if "#" in name:  # a homonym's key, as the ambiguity message gives it
            given = graph.entities_by_keys([name.strip().lower()], cids)
            if given:
                return max(given, key=lambda e: e.degree)
        found = graph.find_entities(name, cids, limit=50)
        key = entity_key(name)
        exact = [e for e in found if e.key.split("#")[0] == key or key in (entity_key(a) for a in e.aliases)]
        if len({e.key for e in exact}) > 1:
            listed = ", ".join(f"{e.name} ({e.type or 'untyped'}, key {e.key}, {e.degree} facts)" for e in exact[:10])
            raise AmbiguousName(f"{name!r} names {len({e.key for e in exact})} entities: {listed}. "
                                "Give the key of the one you mean.", [e.key for e in exact])
        if exact or found:
            return (exact or found)[0]
        raise NotFound(f"No entity matching {name!r} in the graph.")

    def entities_matching(self, text: str, collection: str, *, by: MatchBy = "name", limit: int = 50) -> list[Entity]:
        """The entities a person may mean by ``text`` in one collection, the likeliest first.

        ``by``: ``"name"``, the entities whose name or alias contains it (at most ``limit``); ``"meaning"``, the
        entities of the facts drawn from the chunks that best match it semantically (at most
        :data:`MEANING_LIMIT`); ``"name, else meaning"``, by meaning only when no name matches. Blank text
        matches nothing.
        """
        if by not in ("name", "meaning", "name, else meaning"):
            raise ValidationFailed(f"Find entities by name, meaning, or 'name, else meaning', not {by!r}.")
        if not (text or "").strip():
            return []
        graph = self.require_graph()
        cid = self.collections.get(collection).id
        found = graph.find_entities(text, [cid], limit=limit) if by != "meaning" else []
        if found or by == "name":
            return found
        if self.best_chunks is None:
            raise ValidationFailed("Finding entities by meaning needs the search service, which is not wired here.")
        return graph.entities_for_chunks(self.best_chunks(text, collection), [cid], limit=min(limit, MEANING_LIMIT))

    def relationships(self, entity: str, collections: list[str] | None = None, limit: int = 200) -> dict[str, Any]:
        """Every fact (current and superseded) that names the entity, oldest first."""
        cids = self.collection_ids(collections)
        ent = self.resolve_entity(entity, cids)
        facts = self.require_graph().facts_of_entity(ent.key, cids, limit=limit)
        return {"entity": ent, "facts": facts}

    def temporal(self, entity: str, start: str | None, end: str | None, collections: list[str] | None = None,
                 limit: int = 500) -> dict[str, Any]:
        """The entity's facts valid at some time in [start, end] (either bound may be open)."""
        start_iso, end_iso = iso_date(start), iso_date(end, end=True)
        if start_iso and end_iso and start_iso > end_iso:
            raise ValidationFailed(f"The window starts ({start_iso}) after it ends ({end_iso}).")
        cids = self.collection_ids(collections)
        ent = self.resolve_entity(entity, cids)
        facts = self.require_graph().facts_of_entity(ent.key, cids, valid_from=start_iso, valid_until=end_iso,
                                                     limit=limit)
        return {"entity": ent, "from": start_iso, "until": end_iso, "facts": facts}

    def neighbourhood(self, collection: str, entity: str, *, depth: int = 1, relations: list[str] | None = None,
                      status: str | None = None, start: str | None = None, end: str | None = None,
                      limit: int = 300) -> tuple[Entity, Subgraph]:
        coll = self.collections.get(collection)
        ent = self.resolve_entity(entity, [coll.id])
        graph = self.require_graph().neighbourhood(coll.id, ent.key, depth=depth, relations=relations or None,
                                                   status=status, valid_from=iso_date(start),
                                                   valid_until=iso_date(end, end=True), limit=limit)
        return ent, graph

    def paths(self, collection: str, a: str, b: str, *, max_hops: int = 3, limit: int = 5) -> dict[str, Any]:
        coll = self.collections.get(collection)
        ea, eb = self.resolve_entity(a, [coll.id]), self.resolve_entity(b, [coll.id])
        found = self.require_graph().paths(coll.id, ea.key, eb.key, max_hops=max_hops, limit=limit,
                                           documents=coll.document_count)
        return {"from": ea, "to": eb, "paths": found}

    def mermaid(self, collection: str, entity: str, *, depth: int = 1, direction: str = "LR") -> dict[str, Any]:
        ent, graph = self.neighbourhood(collection, entity, depth=depth)
        return {"entity": ent, "mermaid": subgraph_to_mermaid(graph, direction=direction)}
