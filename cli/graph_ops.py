"""Graph queries shared by the CLI and the MCP server: resolve an entity by name, then ask the graph service."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

from services.entities import entity_key
from services.errors import NotFound, ValidationFailed
from services.graph_model import Entity, Fact, Subgraph
from services.mermaid import subgraph_to_mermaid

if TYPE_CHECKING:
    from services.graph import GraphService  # imports llama_index: keep `rag --help` fast

_DATE = re.compile(r"^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$")


def require_graph(svc: Any) -> GraphService:
    if svc.graph is None:
        raise ValidationFailed("The knowledge graph is turned off (graph_enabled = false).")
    return svc.graph


def collection_ids(svc: Any, names: list[str] | None) -> list[int]:
    """Ids of the named collections (each must exist), or of every collection when none are named."""
    return [svc.collections.get(n).id for n in names] if names else [c.id for c in svc.collections.list()]


def resolve_entity(svc: Any, name: str, cids: list[int]) -> Entity:
    """The entity a name means: an exact key match (most connected first), else the best partial match."""
    if not (name or "").strip():
        raise ValidationFailed("Give an entity name.")
    found = require_graph(svc).find_entities(name, cids, limit=50)
    key = entity_key(name)
    exact = [e for e in found if e.key == key]
    if exact or found:
        return (exact or found)[0]
    raise NotFound(f"No entity matching {name!r} in the graph.")


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


def relationships(svc: Any, entity: str, collections: list[str] | None = None, limit: int = 200) -> dict[str, Any]:
    """Every fact (current and superseded) that names the entity, oldest first."""
    cids = collection_ids(svc, collections)
    ent = resolve_entity(svc, entity, cids)
    facts = require_graph(svc).facts_of_entity(ent.key, cids, limit=limit)
    return {"entity": ent, "facts": facts}


def temporal(svc: Any, entity: str, start: str | None, end: str | None, collections: list[str] | None = None,
             limit: int = 500) -> dict[str, Any]:
    """The entity's facts valid at some time in [start, end] (either bound may be open)."""
    start_iso, end_iso = iso_date(start), iso_date(end, end=True)
    if start_iso and end_iso and start_iso > end_iso:
        raise ValidationFailed(f"The window starts ({start_iso}) after it ends ({end_iso}).")
    cids = collection_ids(svc, collections)
    ent = resolve_entity(svc, entity, cids)
    facts = require_graph(svc).facts_of_entity(ent.key, cids, valid_from=start_iso, valid_until=end_iso, limit=limit)
    return {"entity": ent, "from": start_iso, "until": end_iso, "facts": facts}


def neighbourhood(svc: Any, collection: str, entity: str, *, depth: int = 1, relations: list[str] | None = None,
                  status: str | None = None, start: str | None = None, end: str | None = None,
                  limit: int = 300) -> tuple[Entity, Subgraph]:
    coll = svc.collections.get(collection)
    ent = resolve_entity(svc, entity, [coll.id])
    graph = require_graph(svc).neighbourhood(coll.id, ent.key, depth=depth, relations=relations or None, status=status,
                                             valid_from=iso_date(start), valid_until=iso_date(end, end=True), limit=limit)
    return ent, graph


def paths(svc: Any, collection: str, a: str, b: str, *, max_hops: int = 3, limit: int = 5) -> dict[str, Any]:
    coll = svc.collections.get(collection)
    ea, eb = resolve_entity(svc, a, [coll.id]), resolve_entity(svc, b, [coll.id])
    found = require_graph(svc).paths(coll.id, ea.key, eb.key, max_hops=max_hops, limit=limit)
    return {"from": ea, "to": eb, "paths": found}


def mermaid(svc: Any, collection: str, entity: str, *, depth: int = 1, direction: str = "LR") -> dict[str, Any]:
    ent, graph = neighbourhood(svc, collection, entity, depth=depth)
    return {"entity": ent, "mermaid": subgraph_to_mermaid(graph, direction=direction)}


def fact_line(f: Fact) -> str:
    when = f.valid_from or "?"
    if f.valid_until:
        when += f" → {f.valid_until}"
    flag = "" if f.status == "current" else f" [{f.status}]"
    return f"{f.source} —{f.relation}→ {f.target}  ({when}){flag}  doc {f.document_id}"
