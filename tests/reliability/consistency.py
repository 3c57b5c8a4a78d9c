"""Invariants after a crash: every document is whole in both stores or marked failed, nothing is orphaned.

Used in-process by the crash tests and by ``crash_child check`` in a fresh process.
Test-only Cypher lives here on purpose: it audits the graph, the app never runs it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa

FACTS_BY_DOCUMENT = """
MATCH ()-[r:FACT {collection_id: $cid}]->()
RETURN r.document_id AS document_id, r.chunk_id AS chunk_id, count(*) AS n
"""
LONELY_ENTITIES = """
MATCH (e:Entity {collection_id: $cid})
OPTIONAL MATCH (e)-[r]-()
WITH e, count(r) AS degree WHERE degree = 0
RETURN count(e) AS n
"""


def snapshot(svc: Any, collection: str) -> dict[str, Any]:
    """Per-title state of a collection in both stores."""
    coll = svc.collections.get(collection)
    with svc.collections.engine.connect() as conn:
        docs = conn.execute(sa.text(
            "SELECT d.id, d.title, d.status, d.chunk_count, d.graph_status, d.graph_facts, "
            "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks, "
            "(SELECT coalesce(max(chunk_index), -1) FROM chunks c WHERE c.document_id = d.id) AS last_index "
            "FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
            "WHERE cd.collection_id = :c ORDER BY d.title"), {"c": coll.id}).all()
        unlinked = conn.execute(sa.text(
            "SELECT count(*) FROM documents d WHERE NOT EXISTS "
            "(SELECT 1 FROM collection_documents cd WHERE cd.document_id = d.id)")).scalar_one()
        chunk_ids = set(conn.execute(sa.text(
            "SELECT c.id FROM chunks c JOIN collection_documents cd ON cd.document_id = c.document_id "
            "WHERE cd.collection_id = :c"), {"c": coll.id}).scalars())
        running = conn.execute(sa.text(
            "SELECT count(*) FROM jobs WHERE status = 'running' AND collection_id = :c"), {"c": coll.id}).scalar_one()
    facts: Counter[int] = Counter()
    dangling_chunks = 0
    for row in svc.graph.store.query(FACTS_BY_DOCUMENT, {"cid": coll.id}):
        facts[row["document_id"]] += int(row["n"])
        if row["chunk_id"] is not None and row["chunk_id"] not in chunk_ids:
            dangling_chunks += int(row["n"])
    lonely = svc.graph.store.query(LONELY_ENTITIES, {"cid": coll.id})[0]["n"]
    return {"collection_id": coll.id, "docs": [dict(d._mapping) for d in docs], "facts": dict(facts),
            "unlinked_documents": int(unlinked), "facts_citing_missing_chunks": dangling_chunks,
            "entities_without_facts": int(lonely), "running_jobs": int(running)}


def problems(state: dict[str, Any], *, allow_failed: bool = True) -> list[str]:
    """What breaks the crash invariants; an empty list means consistent."""
    out: list[str] = []
    ids = {d["id"] for d in state["docs"]}
    titles = Counter(d["title"] for d in state["docs"])
    out += [f"title {t!r} stored {n} times" for t, n in titles.items() if n > 1]
    for d in state["docs"]:
        name = f"document {d['id']} ({d['title']})"
        if d["status"] != "ready":
            out.append(f"{name}: status {d['status']}")
        if d["chunks"] == 0 or d["chunks"] != d["chunk_count"] or d["last_index"] != d["chunks"] - 1:
            out.append(f"{name}: {d['chunks']} chunks stored, {d['chunk_count']} recorded, last index {d['last_index']}")
        if d["graph_status"] == "done" and state["facts"].get(d["id"], 0) != d["graph_facts"]:
            out.append(f"{name}: graph done with {d['graph_facts']} facts recorded, "
                       f"{state['facts'].get(d['id'], 0)} in the graph")
        allowed = ("done", "failed") if allow_failed else ("done",)
        if d["graph_status"] not in allowed:
            out.append(f"{name}: graph_status {d['graph_status']!r}")
    orphan = {doc: n for doc, n in state["facts"].items() if doc not in ids}
    if orphan:
        out.append(f"facts of documents that are not stored: {orphan}")
    if state["unlinked_documents"]:
        out.append(f"{state['unlinked_documents']} documents belong to no collection")
    if state["facts_citing_missing_chunks"]:
        out.append(f"{state['facts_citing_missing_chunks']} facts cite chunks that are gone")
    if state["running_jobs"]:
        out.append(f"{state['running_jobs']} jobs still marked running")
    return out
