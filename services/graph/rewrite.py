"""Snapshots of part of a collection's graph, and the one write that turns one snapshot into another.

Every analyst edit (services/graph/curation.py) is computed in Python as a pair of snapshots: ``before``, the
entities and facts it touches as they are, and ``after``, as it leaves them. :func:`rewrite` deletes the facts
of ``before``, writes the entities and facts of ``after`` and removes the entities ``after`` no longer has;
undo is the same write the other way (``after`` → ``before``), so it gives back exactly what was there.
Facts keep their ids when they move from one entity to another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.errors import StoreUnavailable
from services.stores.graph_store import GraphStore
from services.stores.lazy_graph_store import LazyGraphStore

Store = GraphStore | LazyGraphStore

ENTITY_FIELDS = ("key", "name", "type", "name_key", "stated", "aliases", "alias_keys")
FACT_FIELDS = ("id", "source", "target", "relation", "raw", "document_id", "chunk_id", "sentence", "valid_from",
               "valid_until", "stated_on", "text_until", "status", "date_source", "exclusive", "added_by", "note",
               "added_at", "valid_from_precision", "valid_until_precision", "stated_on_precision")

_ENTITIES = """
MATCH (e:Entity) WHERE e.collection_id = $collection_id AND e.key IN $keys
RETURN e.key AS key, e.name AS name, e.type AS type, e.name_key AS name_key, e.stated AS stated,
       e.aliases AS aliases, e.alias_keys AS alias_keys
"""
_FACT_RETURN = """
RETURN r.id AS id, a.key AS source, b.key AS target, r.relation AS relation, r.raw AS raw,
       r.document_id AS document_id, r.chunk_id AS chunk_id, r.sentence AS sentence, r.valid_from AS valid_from,
       r.valid_until AS valid_until, r.stated_on AS stated_on, r.text_until AS text_until, r.status AS status,
       r.date_source AS date_source, r.exclusive AS exclusive, r.added_by AS added_by, r.note AS note,
       r.added_at AS added_at, r.valid_from_precision AS valid_from_precision,
       r.valid_until_precision AS valid_until_precision, r.stated_on_precision AS stated_on_precision
"""
_FACTS_OF = """
MATCH (e:Entity)-[r:FACT]-(:Entity) WHERE e.collection_id = $collection_id AND e.key IN $keys
WITH DISTINCT r
WITH r, startNode(r) AS a, endNode(r) AS b
""" + _FACT_RETURN
_FACTS_BY_ID = """
MATCH (a)-[r:FACT]->(b) WHERE r.collection_id = $collection_id AND r.id IN $ids
""" + _FACT_RETURN
_DEGREES = """
MATCH (e:Entity) WHERE e.collection_id = $collection_id AND e.key IN $keys
OPTIONAL MATCH (e)-[r:FACT]-()
RETURN e.key AS key, count(DISTINCT r) AS degree
"""
_DELETE_FACTS = "MATCH ()-[r:FACT]->() WHERE r.collection_id = $collection_id AND r.id IN $ids DELETE r"
_UPSERT_ENTITIES = """
UNWIND $rows AS row
MERGE (e:Entity {collection_id: $collection_id, key: row.key})
SET e.name = row.name, e.type = row.type, e.name_key = row.name_key, e.stated = row.stated,
    e.aliases = row.aliases, e.alias_keys = row.alias_keys
"""
_CREATE_FACTS = """
UNWIND $rows AS row
MATCH (a:Entity {collection_id: $collection_id, key: row.source})
MATCH (b:Entity {collection_id: $collection_id, key: row.target})
CREATE (a)-[:FACT {id: row.id, collection_id: $collection_id, relation: row.relation, raw: row.raw,
                   document_id: row.document_id, chunk_id: row.chunk_id, sentence: row.sentence,
                   valid_from: row.valid_from, valid_until: row.valid_until, stated_on: row.stated_on,
                   text_until: row.text_until, status: row.status, date_source: row.date_source,
                   exclusive: row.exclusive, added_by: row.added_by, note: row.note, added_at: row.added_at,
                   valid_from_precision: row.valid_from_precision, valid_until_precision: row.valid_until_precision,
                   stated_on_precision: row.stated_on_precision}]->(b)
RETURN count(*) AS n
"""
_DELETE_ENTITIES = """
MATCH (e:Entity) WHERE e.collection_id = $collection_id AND e.key IN $keys
DETACH DELETE e
"""


@dataclass
class Snapshot:
    """Entities (by key) and facts (by id) of one collection, each a plain dict of its stored fields."""

    entities: dict[str, dict[str, Any]] = field(default_factory=dict)
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    degree: dict[str, int] = field(default_factory=dict, compare=False)  # every fact of the entity, read or not

    def to_json(self) -> dict[str, Any]:
        return {"entities": list(self.entities.values()), "facts": list(self.facts.values())}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        return cls({e["key"]: e for e in data.get("entities", [])}, {f["id"]: f for f in data.get("facts", [])})

    def copy(self) -> Snapshot:
        return Snapshot({k: {**e, "aliases": list(e.get("aliases") or []), "alias_keys": list(e.get("alias_keys") or [])}
                         for k, e in self.entities.items()}, {i: dict(f) for i, f in self.facts.items()})

    def same_as(self, other: Snapshot) -> bool:
        return self.entities == other.entities and self.facts == other.facts

    def drop_orphans(self, before: Snapshot) -> None:
        """Remove the entities this snapshot leaves with no fact at all (counting the facts it never read)."""
        def incident(snap: Snapshot, key: str) -> int:
            return sum(f["source"] == key or f["target"] == key for f in snap.facts.values())

        for key in list(self.entities):
            outside = before.degree.get(key, 0) - incident(before, key)
            if incident(self, key) + outside <= 0:
                del self.entities[key]


def _entity(row: dict[str, Any]) -> dict[str, Any]:
    out = {f: row.get(f) for f in ENTITY_FIELDS}
    out["aliases"], out["alias_keys"] = list(out["aliases"] or []), list(out["alias_keys"] or [])
    out["stated"] = bool(out["stated"])
    out["type"] = out["type"] or ""
    return out


def _fact(row: dict[str, Any]) -> dict[str, Any]:
    return {f: row.get(f) for f in FACT_FIELDS}


def read(store: Store, collection_id: int, keys: set[str], *, fact_ids: set[str] | None = None,
         with_facts: bool = True) -> Snapshot:
    """The entities with these keys and (``with_facts``) every fact touching them, plus the facts ``fact_ids``
    and their two entities."""
    snap = Snapshot()
    if fact_ids:
        for row in store.query(_FACTS_BY_ID, {"collection_id": collection_id, "ids": sorted(fact_ids)}):
            snap.facts[row["id"]] = _fact(row)
        keys = set(keys) | {k for f in snap.facts.values() for k in (f["source"], f["target"])}
    if keys and with_facts:
        for row in store.query(_FACTS_OF, {"collection_id": collection_id, "keys": sorted(keys)}):
            snap.facts[row["id"]] = _fact(row)
        keys = set(keys) | {k for f in snap.facts.values() for k in (f["source"], f["target"])}
    if keys:
        params = {"collection_id": collection_id, "keys": sorted(keys)}
        for row in store.query(_ENTITIES, params):
            snap.entities[row["key"]] = _entity(row)
        snap.degree = {r["key"]: int(r["degree"]) for r in store.query(_DEGREES, params)}
    return snap


def rewrite(store: Store, collection_id: int, old: Snapshot, new: Snapshot) -> None:
    """Make the graph go from ``old`` to ``new``: old facts out, new entities and facts in, dropped entities out."""
    cid = {"collection_id": collection_id}
    if old.facts:
        store.query(_DELETE_FACTS, {**cid, "ids": sorted(old.facts)})
    if new.entities:
        store.query(_UPSERT_ENTITIES, {**cid, "rows": list(new.entities.values())})
    gone = sorted(set(old.entities) - set(new.entities))
    if gone:
        store.query(_DELETE_ENTITIES, {**cid, "keys": gone})
    rows = list(new.facts.values())
    for start in range(0, len(rows), 500):
        batch = rows[start:start + 500]
        done = store.query(_CREATE_FACTS, {**cid, "rows": batch})
        if not done or int(done[0]["n"]) != len(batch):
            raise StoreUnavailable(f"The graph store wrote {done[0]['n'] if done else 0} of {len(batch)} facts of "
                                   "the edit: one of their entities is missing.")
