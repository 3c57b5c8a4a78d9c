"""The knowledge graph service: index documents into facts, keep validity, delete cleanly; its queries are
:class:`~services.graph.reads.GraphReads`.

Documents are written to PostgreSQL first (searchable at once) with
``graph_status = 'pending'``; :meth:`GraphService.index_document` then extracts
facts, writes them and marks the document ``done``, or ``failed`` with the error
and a retry path (:meth:`rebuild`). Re-indexing first removes the document's
old facts, so it is idempotent.
"""

from __future__ import annotations

import html
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from services import document_graph as documents
from services.errors import NotFound, StoreUnavailable
from services.graph import queries as q
from services.graph.model import GraphIndexResult
from services.graph.reads import GraphReads
from services.graph.segments import segments
from services.graph.temporal import SINGLE_VALUED, ChainFact, resolve_chain
from services.stores import chunk_store, walk_store
from services.stores.graph_store import GraphStore
from services.stores.lazy_graph_store import LazyGraphStore

if TYPE_CHECKING:  # LlamaIndex takes seconds to import: only indexing a document needs it
    from llama_index.core.schema import BaseNode, TransformComponent

log = logging.getLogger(__name__)
CANCELLED = "The job was cancelled before the graph step finished; no facts were stored for this document."


def _topic(title: str, metadata: dict[str, Any], content: str) -> dict[str, str]:
    """What a document is about, for the extractor: ``rag_topic``, its title (without a "(qualifier)") when its
    opening text names it; else ``rag_title``, the title, which the extractor keeps as an alias of the first
    sentence's subject when the two share a word ("Adam Duritz" for "Adam Fredric Duritz")."""
    from services.graph.mentions import title_names
    from services.graph.text_parse import plain_spaces, topic_pattern

    opening = plain_spaces(content[:3000]).casefold()
    written = title_names(title, metadata)
    names = [html.unescape(n) for n in written]  # "Saturday Nights &amp; Sunday Mornings"
    for name, as_written in zip(reversed(names), reversed(written), strict=True):  # the bare name first
        if len(name) >= 2 and re.search(topic_pattern(name.casefold()), opening):  # ("Arthur?  Arthur!")
            # an escaped title stays the topic's alias: the document's title as its metadata writes it
            return {"rag_topic": name, **({"rag_title": as_written} if as_written != name else {})}
    return {"rag_title": written[0]} if written else {}  # kept as written: the alias a look-up by title finds


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


class GraphService(GraphReads):
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
            doc = documents.graph_source(conn, document_id)
            if doc is None or doc.collection_id is None:  # a document is in a collection from its first write
                raise NotFound(f"No document with id {document_id} in any collection.")
            chunks = chunk_store.chunk_starts(conn, document_id)
        removing = time.perf_counter()
        self.remove_document(document_id)
        started = time.perf_counter()
        from llama_index.core.schema import TextNode

        topic = _topic(doc.title, doc.metadata, doc.content)
        nodes: list[BaseNode] = []
        for start, segment in segments(doc.content):
            if cancelled is not None and cancelled():
                raise _Cancelled()
            done: Sequence[BaseNode] = self.extractor([TextNode(text=segment, start_char_idx=start, metadata=dict(topic))])
            nodes.extend(done)
        extracted = time.perf_counter()
        from services.graph.document_facts import document_rows

        rows = document_rows(document_id=document_id, collection_id=doc.collection_id, metadata=doc.metadata, nodes=nodes,
                             chunks=chunks, existing=lambda keys: self.store.query(
                                 q.EXISTING_ENTITIES, {"collection_id": doc.collection_id, "keys": keys}))
        self._write_diagrams(document_id, doc.collection_id)
        self._batched(q.MERGE_ENTITIES, rows.entities)
        self.write_facts(q.CREATE_FACTS, rows.facts)
        self._refresh_slots({(f["relation"], f["source"], f["target"], doc.collection_id, f["exclusive"]) for f in rows.facts})
        from services.graph.mentions import document_graph

        walk = rows.walk_keys
        walk_graph = document_graph(collection_id=doc.collection_id, document_id=document_id, title=doc.title,
                                    metadata=doc.metadata, nodes=nodes, chunks=chunks,
                                    facts=[(walk.get(f["source"], f["source"]), walk.get(f["target"], f["target"]),
                                            f["chunk_id"]) for f in rows.facts])
        with self.engine.begin() as conn:
            walk_store.write_document(conn, walk_graph)
        from services.graph.edit_replay import replay

        replay(self, doc.collection_id)  # the analyst's edits hold over what the extractor wrote again
        return GraphIndexResult(document_id, "done", entities=len(rows.entities), facts=len(rows.facts),
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
            doc = documents.graph_source(conn, document_id)
            if doc is None or doc.collection_id is None:
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
        walk_graph = document_graph(collection_id=doc.collection_id, document_id=document_id, title=doc.title,
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

    def write_facts(self, statement: str, rows: list[dict[str, Any]]) -> None:
        """Write facts in batches (``statement`` returns how many rows it created) and make sure each one is there.

        A fact is created only where both its entities match, so a store that skips rows would lose facts
        without a word: the rows of a short batch that are not there are written again one at a time, and any
        still missing raise :class:`StoreUnavailable` (the caller undoes or marks the document failed).
        """
        for start in range(0, len(rows), self.batch_size):
            batch = rows[start : start + self.batch_size]
            result = self.store.query(statement, {"rows": batch})
            if result and result[0].get("n") == len(batch):
                continue
            missing = self._missing_facts(batch)
            if not missing:
                continue
            log.warning("The graph store created %d of %d facts in one write; writing the %d others one by one.",
                        len(batch) - len(missing), len(batch), len(missing))
            for row in missing:
                self.store.query(statement, {"rows": [row]})
            still = self._missing_facts(missing)
            if still:
                first = still[0]
                raise StoreUnavailable(
                    f"The graph store did not keep {len(still)} of {len(batch)} facts, e.g. {first['id']} "
                    f"({first['source']} -[{first['relation']}]-> {first['target']}): one of its entities is missing.")

    def _missing_facts(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found: set[str] = set()
        for cid in {r["collection_id"] for r in rows}:
            ids = [r["id"] for r in rows if r["collection_id"] == cid]
            found.update(str(r["id"]) for r in self.store.query(q.FACT_IDS, {"collection_id": cid, "ids": ids}))
        return [r for r in rows if str(r["id"]) not in found]

    def _batched(self, statement: str, rows: list[dict[str, Any]]) -> None:
        for start in range(0, len(rows), self.batch_size):
            self.store.query(statement, {"rows": rows[start : start + self.batch_size]})

    def refresh_slots(self, slots: set[tuple[str, str, str, int, str | None]]) -> None:
        self._refresh_slots(slots)

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
            found = self.store.query(statement, {"collection_id": cid, "relation": relation, "key": key})
            chain = [ChainFact(r["id"], r["valid_from"], r["other"]) for r in found if r["valid_from"]]
            stated_end = {r["id"] for r in found if r.get("text_until")}  # "from 1364 to 1389": the text says
            # a superseded fact ends on the date its successor starts, as precise as that date was stated
            precision = {d: {r.get("precision") for r in found if r["valid_from"] == d} for d in {c.valid_from for c in chain}}
            updates = [{"id": i, "valid_until": u, "status": s,
                        "precision": next(iter(precision[u])) if u and len(precision[u]) == 1 else None}
                       for i, u, s in resolve_chain(chain) if i not in stated_end]
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
            documents.set_graph_status(conn, document_id, status, entities=entities, facts=facts, error=error)

    def rebuild(self, document_ids: list[int]) -> list[GraphIndexResult]:
        """Re-extract the given documents (the repair path for 'failed' or 'pending')."""
        return [self.index_document(d) for d in document_ids]

    def documents_needing_graph(self, collection_id: int | None = None) -> list[int]:
        with self.engine.connect() as conn:
            return documents.needing_graph(conn, collection_id)

    # -- reading -------------------------------------------------------------------------
    def stamp(self, collection_id: int) -> str:
        """A cheap fingerprint (from PostgreSQL) of what a collection's graph was built from.

        Every graph change goes with a change to the collection's document rows: a document
        ingested, re-ingested, deleted, linked or unlinked, or its graph (re)indexed, failed or
        marked pending; and every analyst edit or undo (``graph_edits``). So an overview cached under this stamp is
        current while the stamp is.
        """
        with self.engine.connect() as conn:
            row = conn.execute(sa.text(
                "SELECT count(*), max(d.updated_at), max(d.graph_updated_at), coalesce(sum(d.graph_facts), 0), "
                "coalesce(sum(d.graph_entities), 0), count(*) FILTER (WHERE d.graph_status <> 'done'), "
                "(SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(max(undone_at)::text, '') "
                " FROM graph_edits WHERE collection_id = :c) "
                "FROM collection_documents cd JOIN documents d ON d.id = cd.document_id WHERE cd.collection_id = :c"),
                {"c": collection_id}).one()
        return "|".join(str(v) for v in row)
