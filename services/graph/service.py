"""The knowledge graph service: index documents into facts, keep validity, delete cleanly, query.

Documents are written to PostgreSQL first (searchable at once) with
``graph_status = 'pending'``; :meth:`GraphService.index_document` then extracts
facts, writes them and marks the document ``done``, or ``failed`` with the error
and a retry path (:meth:`rebuild`). Re-indexing first removes the document's
old facts, so it is idempotent.
"""

from __future__ import annotations

import bisect
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services.errors import NotFound, StoreUnavailable, ValidationFailed
from services.graph import queries as q
from services.graph.model import Entity, Fact, GraphIndexResult, Subgraph
from services.graph.temporal import SINGLE_VALUED, ChainFact, resolve_chain, valid_from_for
from services.stores import chunk_store, walk_store
from services.stores.graph_store import GraphStore
from services.stores.lazy_graph_store import LazyGraphStore

if TYPE_CHECKING:  # LlamaIndex takes seconds to import: only indexing a document needs it
    from llama_index.core.schema import BaseNode, TransformComponent

log = logging.getLogger(__name__)
# spaCy takes one segment at a time: its memory grows with the text it holds at once (16 segments of
# 50,000 characters peaked at 3.3 GB), and a Cancel is seen between segments, so one segment must parse
# in well under 2 s even on a busy machine: 5,000 characters take about 0.2 s of CPU (10,000: 0.44 s),
# and no more per character than longer segments.
SEGMENT_CHARS = 5_000
CANCELLED = "The job was cancelled before the graph step finished; no facts were stored for this document."
MAX_HOPS = 3
MAX_LIMIT = 2_000


def _segments(text: str) -> Iterator[tuple[int, str]]:
    """Split long text at paragraph breaks into pieces spaCy can take, one at a time."""
    start = 0
    while start < len(text):
        end = min(len(text), start + SEGMENT_CHARS)
        if end < len(text):
            cut = text.rfind("\n\n", start + SEGMENT_CHARS // 2, end)
            end = cut if cut > start else end
        yield start, text[start:end]
        start = end


class _Cancelled(Exception):
    pass


def ensure_graph_indexes(store: GraphStore | LazyGraphStore) -> None:
    """Create the graph's indexes; one that exists already is fine (FalkorDB has no IF NOT EXISTS)."""
    for statement in q.INDEXES:
        try:
            store.query(statement)
        except StoreUnavailable as exc:
            # FalkorDB: "Attribute 'key' is already indexed"; Neo4j: "An equivalent index already exists".
            if not re.search(r"already (indexed|exists)", str(exc), flags=re.I):
                raise


class GraphService:
    """``extractor`` (or ``extractor_factory``, called on the first document indexed) finds the facts;
    by default spaCy's. Nothing is loaded until a document is indexed."""

    def __init__(self, *, engine: Engine, store: GraphStore | LazyGraphStore,
                 extractor: TransformComponent | None = None,
                 extractor_factory: Callable[[], TransformComponent] | None = None, batch_size: int = 500) -> None:
        self.engine = engine
        self.store = store
        self._extractor = extractor
        self._extractor_factory = extractor_factory
        self._extractor_lock = threading.Lock()
        self.batch_size = batch_size

    @property
    def extractor(self) -> TransformComponent:
        with self._extractor_lock:
            if self._extractor is None:
                if self._extractor_factory is not None:
                    self._extractor = self._extractor_factory()
                else:
                    from services.graph.extraction import SpacyTemporalExtractor

                    self._extractor = SpacyTemporalExtractor()
            return self._extractor

    def ensure_indexes(self) -> None:
        ensure_graph_indexes(self.store)

    # -- writing -------------------------------------------------------------------------
    def index_document(self, document_id: int, *, cancelled: Callable[[], bool] | None = None) -> GraphIndexResult:
        """Extract and store a document's facts; record the outcome on the document row.

        ``cancelled`` is asked between segments; when it says yes the document is left with
        no facts and marked ``failed`` with a reason (ingesting the same file again, or a
        graph rebuild, completes it), and the result's status is ``cancelled``.
        """
        try:
            result = self._index(document_id, cancelled)
        except NotFound:
            raise
        except _Cancelled:  # the old facts were removed before extraction began
            self._set_status(document_id, "failed", error=CANCELLED)
            return GraphIndexResult(document_id, "cancelled", error=CANCELLED)
        except Exception as exc:
            log.exception("graph indexing of document %s failed", document_id)
            error = f"{exc.__class__.__name__}: {exc}"[:2000]
            self._set_status(document_id, "failed", error=error)
            return GraphIndexResult(document_id, "failed", error=error)
        self._set_status(document_id, "done", entities=result.entities, facts=result.facts)
        return result

    def _index(self, document_id: int, cancelled: Callable[[], bool] | None) -> GraphIndexResult:
        with self.engine.connect() as conn:
            doc = conn.execute(
                sa.text("SELECT d.id, d.title, d.content, d.metadata, d.created_at, "
                        "(SELECT min(collection_id) FROM collection_documents WHERE document_id = d.id) AS cid "
                        "FROM documents d WHERE d.id = :id"), {"id": document_id},
            ).first()
            if doc is None:
                raise NotFound(f"No document with id {document_id}.")
            chunks = chunk_store.chunk_starts(conn, document_id)
        removing = time.perf_counter()
        self.remove_document(document_id)
        started = time.perf_counter()
        from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
        from llama_index.core.schema import TextNode

        nodes: list[BaseNode] = []
        for start, segment in _segments(doc.content):
            if cancelled is not None and cancelled():
                raise _Cancelled()
            done: Sequence[BaseNode] = self.extractor([TextNode(text=segment, start_char_idx=start)])
            nodes.extend(done)
        extracted = time.perf_counter()
        starts, chunk_ids = [s for _, s in chunks], [i for i, _ in chunks]
        entities: dict[str, dict[str, Any]] = {}
        facts: dict[tuple[str, str, str, int], dict[str, Any]] = {}
        for node in nodes:
            id_to_key = {}
            for ent in node.metadata.get(KG_NODES_KEY, []):
                key = ent.properties["key"]
                id_to_key[ent.id] = key
                entities.setdefault(key, {"collection_id": doc.cid, "key": key, "name": ent.name, "type": ent.label})
            for rel in node.metadata.get(KG_RELATIONS_KEY, []):
                src, dst = id_to_key[rel.source_id], id_to_key[rel.target_id]
                props = rel.properties
                slot = (src, rel.label, dst, props["char_start"])
                if slot in facts:
                    continue
                at = bisect.bisect_right(starts, props["char_start"]) - 1
                valid_from, source = valid_from_for(props.get("sentence_date"), doc.metadata, doc.created_at)
                facts[slot] = {
                    "id": f"{document_id}:{len(facts)}", "collection_id": doc.cid, "source": src, "target": dst,
                    "relation": rel.label, "document_id": document_id,
                    "chunk_id": chunk_ids[at] if at >= 0 and chunk_ids else None,
                    "sentence": props["sentence"], "valid_from": valid_from, "date_source": source,
                    "exclusive": props.get("exclusive"),
                }
        self._write_diagrams(document_id, doc.cid)
        used = {k for f in facts.values() for k in (f["source"], f["target"])}
        rows = [e for k, e in entities.items() if k in used]
        self._batched(q.MERGE_ENTITIES, rows)
        self._batched(q.CREATE_FACTS, list(facts.values()))
        self._refresh_slots({(f["relation"], f["source"], f["target"], doc.cid, f["exclusive"]) for f in facts.values()})
        from services.graph.mentions import document_graph

        walk_graph = document_graph(collection_id=doc.cid, document_id=document_id, title=doc.title,
                                    metadata=doc.metadata, nodes=nodes, chunks=chunks,
                                    facts=[(f["source"], f["target"], f["chunk_id"]) for f in facts.values()])
        with self.engine.begin() as conn:
            walk_store.write_document(conn, walk_graph)
        return GraphIndexResult(document_id, "done", entities=len(rows), facts=len(facts),
                                extract_seconds=extracted - started,
                                write_seconds=time.perf_counter() - extracted + started - removing)

    def derive_walk_graph(self, document_id: int) -> bool:
        """Give a document indexed before migration 008 its part of the walk graph, from what the graph store holds.

        No extraction runs: the entities of its facts are found by name in its chunks, its title is an entity of
        every chunk, and its facts link their entities. (A rebuild adds the concepts that are in no fact.)
        Returns False when the document has gone.
        """
        from llama_index.core.graph_stores.types import KG_NODES_KEY, EntityNode
        from llama_index.core.schema import TextNode

        from services.graph.mentions import document_graph

        with self.engine.connect() as conn:
            doc = conn.execute(sa.text(
                "SELECT d.id, d.title, d.content, d.metadata, "
                "(SELECT min(collection_id) FROM collection_documents WHERE document_id = d.id) AS cid "
                "FROM documents d WHERE d.id = :id"), {"id": document_id}).first()
            if doc is None or doc.cid is None:
                return False
            chunks = chunk_store.chunk_starts(conn, document_id)
        rows = self.store.query(q.DOCUMENT_FACT_LINKS, {"document_id": document_id})
        entities: dict[str, EntityNode] = {}
        for r in rows:
            for side in ("source", "target"):
                entities.setdefault(r[side], EntityNode(name=r[f"{side}_name"] or r[side], label=r[f"{side}_type"] or "",
                                                        properties={"key": r[side]}))
        node = TextNode(text=doc.content, start_char_idx=0)
        node.metadata[KG_NODES_KEY] = list(entities.values())
        walk_graph = document_graph(collection_id=doc.cid, document_id=document_id, title=doc.title,
                                    metadata=doc.metadata, nodes=[node], chunks=chunks,
                                    facts=[(r["source"], r["target"], r["chunk_id"]) for r in rows])
        with self.engine.begin() as conn:
            walk_store.remove_document(conn, document_id)
            walk_store.write_document(conn, walk_graph)
        return True

    def _write_diagrams(self, document_id: int, collection_id: int) -> None:
        """Store the document's flowcharts as subgraphs tagged with their diagram_id."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT diagram_id, nodes, edges FROM diagrams "
                        "WHERE document_id = :id AND jsonb_array_length(nodes) > 0"),
                {"id": document_id},
            ).all()
        base = {"collection_id": collection_id, "document_id": document_id}
        for row in rows:
            self._batched(q.CREATE_DIAGRAM_NODES, [
                {**base, "diagram_id": row.diagram_id, "node_id": n["id"], "text": n["text"], "kind": n["kind"]}
                for n in row.nodes])
            self._batched(q.CREATE_DIAGRAM_EDGES, [
                {**base, "diagram_id": row.diagram_id, "source": e["source"], "target": e["target"], "label": e["label"]}
                for e in row.edges])

    def diagram(self, diagram_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A diagram's nodes and edges from the graph (the design's retrieval query)."""
        nodes: dict[str, dict[str, Any]] = {}
        edges = []
        for row in self.store.query(q.DIAGRAM, {"id": diagram_id}):
            nodes.setdefault(row["id"], {"id": row["id"], "text": row["text"], "kind": row["kind"]})
            if row.get("target") is not None:
                edges.append({"source": row["id"], "target": row["target"], "label": row.get("label")})
        return list(nodes.values()), edges

    def _batched(self, statement: str, rows: list[dict[str, Any]]) -> None:
        for start in range(0, len(rows), self.batch_size):
            self.store.query(statement, {"rows": rows[start : start + self.batch_size]})

    def _refresh_slots(self, slots: set[tuple[str, str, str, int, str | None]]) -> None:
        """Recompute validity for every single-valued slot these facts touch.

        A relation is single-valued when it is in ``SINGLE_VALUED``, or when the
        extractor (the LLM) marked the fact exclusive on one side.
        """
        seen = set()
        for relation, source, target, cid, exclusive in slots:
            side = SINGLE_VALUED.get(relation) or exclusive
            if side is None:
                continue
            key = target if side == "object" else source
            if (relation, key, cid) in seen:
                continue
            seen.add((relation, key, cid))
            statement = q.CHAIN_BY_OBJECT if side == "object" else q.CHAIN_BY_SUBJECT
            chain = [ChainFact(r["id"], r["valid_from"], r["other"])
                     for r in self.store.query(statement, {"collection_id": cid, "relation": relation, "key": key})]
            updates = [{"id": i, "valid_until": u, "status": s} for i, u, s in resolve_chain(chain)]
            self._batched(q.SET_VALIDITY, updates)

    def remove_document(self, document_id: int) -> None:
        """Delete a document's facts, then entities left with no facts, then re-resolve validity; and its part of
        the walk graph in PostgreSQL."""
        with self.engine.begin() as conn:
            walk_store.remove_document(conn, document_id)
        slots = {(r["relation"], r["source"], r["target"], r["collection_id"], r.get("exclusive"))
                 for r in self.store.query(q.DOCUMENT_FACT_SLOTS, {"document_id": document_id})}
        touched = self.store.query(q.DOCUMENT_ENTITY_KEYS, {"document_id": document_id})
        self.store.query(q.DELETE_DOCUMENT_DIAGRAMS, {"document_id": document_id})
        self.store.query(q.DELETE_DOCUMENT_FACTS, {"document_id": document_id})
        if touched and touched[0].get("keys"):
            self.store.query(q.DELETE_ORPHANS, {"keys": list(set(touched[0]["keys"])),
                                                "collection_id": touched[0]["collection_id"]})
        self._refresh_slots(slots)

    def remove_collection(self, collection_id: int) -> None:
        self.store.query(q.DELETE_COLLECTION, {"collection_id": collection_id})
        self.store.query(q.DELETE_COLLECTION_DIAGRAMS, {"collection_id": collection_id})

    def _set_status(self, document_id: int, status: str, *, entities: int = 0, facts: int = 0,
                    error: str | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE documents SET graph_status = :s, graph_error = :e, graph_entities = :n, "
                        "graph_facts = :f, graph_updated_at = now() WHERE id = :id"),
                {"s": status, "e": error, "n": entities, "f": facts, "id": document_id},
            )

    def rebuild(self, document_ids: list[int]) -> list[GraphIndexResult]:
        """Re-extract the given documents (the repair path for 'failed' or 'pending')."""
        return [self.index_document(d) for d in document_ids]

    def documents_needing_graph(self, collection_id: int | None = None) -> list[int]:
        sql = "SELECT d.id FROM documents d WHERE d.graph_status IN ('pending', 'failed')"
        params: dict[str, Any] = {}
        if collection_id is not None:
            sql += " AND EXISTS (SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id AND cd.collection_id = :c)"
            params["c"] = collection_id
        with self.engine.connect() as conn:
            return list(conn.execute(sa.text(sql + " ORDER BY d.id"), params).scalars())

    # -- reading -------------------------------------------------------------------------
    def stamp(self, collection_id: int) -> str:
        """A cheap fingerprint (from PostgreSQL) of what a collection's graph was built from.

        Every graph change goes with a change to the collection's document rows: a document
        ingested, re-ingested, deleted, linked or unlinked, or its graph (re)indexed, failed or
        marked pending. So an overview cached under this stamp is current while the stamp is.
        """
        with self.engine.connect() as conn:
            row = conn.execute(sa.text(
                "SELECT count(*), max(d.updated_at), max(d.graph_updated_at), coalesce(sum(d.graph_facts), 0), "
                "coalesce(sum(d.graph_entities), 0), count(*) FILTER (WHERE d.graph_status <> 'done') "
                "FROM collection_documents cd JOIN documents d ON d.id = cd.document_id WHERE cd.collection_id = :c"),
                {"c": collection_id}).one()
        return "|".join(str(v) for v in row)

    def find_entities(self, text: str, collection_ids: list[int], limit: int = 20) -> list[Entity]:
        from services.graph.entities import entity_key

        needle = entity_key(text) if text.strip() else ""
        rows = self.store.query(q.FIND_ENTITIES, {"collection_ids": collection_ids, "needle": needle,
                                                  "limit": _clamp(limit, 1, 200)})
        return [Entity(r["collection_id"], r["key"], r["name"], r["type"] or "", int(r["degree"])) for r in rows]

    def entities_in_text(self, text: str, collection_ids: list[int], *, spacy_model: str) -> list[Entity]:
        """Graph entities named in ``text`` (a question): its named entities and noun phrases, matched by key."""
        from services.graph.entities import entity_key
        from services.graph.extraction import NAMED, load_spacy

        doc = load_spacy(spacy_model)(text[:2000])
        spans = [e.text for e in doc.ents if e.label_ in NAMED] + [c.text for c in doc.noun_chunks]
        keys = list(dict.fromkeys(k for k in (entity_key(s) for s in spans) if k))
        if not keys:
            return []
        rows = self.store.query(q.ENTITIES_BY_KEYS, {"collection_ids": collection_ids, "keys": keys})
        found = {r["key"]: Entity(r["collection_id"], r["key"], r["name"], r["type"] or "", int(r["degree"])) for r in rows}
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
        found = {r["key"]: Entity(r["collection_id"], r["key"], r["name"], r["type"] or "", int(r["degree"])) for r in rows}
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

    def paths(self, collection_id: int, a: str, b: str, *, max_hops: int = 3, limit: int = 5) -> list[list[Fact]]:
        """Shortest paths between two entities (breadth-first over facts, up to ``max_hops``)."""
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
                if nxt not in visited or nxt == b:
                    queue.append((nxt, path + [fact]))
        return found


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

