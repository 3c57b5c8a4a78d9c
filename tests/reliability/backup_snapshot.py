"""A collection's full state in both stores with every id replaced by what it names, so two stores compare equal.

Document ids become titles, chunk ids (title, chunk_index), diagram ids (title, index), fact ids (title, n).
An id that names nothing in its own store becomes ``"DANGLING"`` and so breaks the comparison.
Test-only Cypher lives here on purpose: it audits the graph, the app never runs it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import sqlalchemy as sa

FACTS = """
MATCH (a:Entity)-[r:FACT {collection_id: $c}]->(b:Entity)
RETURN r.id AS id, a.key AS source, b.key AS target, r.relation AS relation, r.valid_from AS valid_from,
       r.valid_until AS valid_until, r.status AS status, r.sentence AS sentence, r.date_source AS date_source,
       r.document_id AS document_id, r.chunk_id AS chunk_id
"""
ENTITIES = "MATCH (e:Entity {collection_id: $c}) RETURN e.key AS key, e.name AS name, e.type AS type"
DIAGRAM_NODES = "MATCH (n:DiagramNode {collection_id: $c}) RETURN n.diagram_id AS diagram_id, n.document_id AS d, count(*) AS n"
_DGM = re.compile(r"^dgm-(\d+)-(\d+)$")


def snapshot(svc: Any, name: str) -> dict[str, Any]:
    coll = svc.collections.get(name)
    with svc.engine.connect() as conn:
        docs = conn.execute(sa.text(
            "SELECT d.* FROM documents d JOIN collection_documents cd ON cd.document_id = d.id "
            "WHERE cd.collection_id = :c"), {"c": coll.id}).mappings().all()
        titles = {d["id"]: d["title"] for d in docs}
        chunks = conn.execute(sa.text(
            "SELECT id, document_id, chunk_index, text, char_start, char_end, heading_path, metadata, "
            "embedding::text AS embedding, embedding_dim FROM chunks WHERE document_id = ANY(:ids)"),
            {"ids": list(titles)}).mappings().all()
        diagrams = conn.execute(sa.text(
            "SELECT diagram_id, document_id, idx, representation, layout, nodes, edges, image FROM diagrams "
            "WHERE document_id = ANY(:ids)"), {"ids": list(titles)}).mappings().all()
        crawls = conn.execute(sa.text(
            "SELECT c.root_url, c.status, c.params, p.url, p.status AS page_status, p.document_id FROM crawls c "
            "JOIN crawl_pages p ON p.crawl_id = c.id WHERE c.collection_id = :c"), {"c": coll.id}).mappings().all()
    chunk_keys = {c["id"]: (titles[c["document_id"]], c["chunk_index"]) for c in chunks}
    diagram_ids = {d["diagram_id"] for d in diagrams}

    def dgm(value: str) -> Any:
        m = _DGM.match(value)
        if value not in diagram_ids or not m or int(m[1]) not in titles:
            return "DANGLING"
        return (titles[int(m[1])], int(m[2]))

    def chunk_meta(meta: dict[str, Any]) -> dict[str, Any]:
        out = dict(meta)
        if "associated_diagram_id" in out:
            out["associated_diagram_id"] = dgm(out["associated_diagram_id"])
        if "diagram_ids" in out:
            out["diagram_ids"] = [dgm(d) for d in out["diagram_ids"]]
        return out

    views = {}
    for d in diagrams:
        view = svc.diagrams.get(d["diagram_id"])  # the graph's subgraph once built, PostgreSQL's copy otherwise
        views[dgm(d["diagram_id"])] = (d["representation"], d["layout"], d["nodes"], d["edges"], view.mermaid,
                                       hashlib.sha256(view.image or b"").hexdigest())
    facts = []
    for f in svc.graph_store.query(FACTS, {"c": coll.id}):
        doc, n = str(f["id"]).split(":", 1)
        fact_doc = titles.get(int(doc), "DANGLING") if doc.isdigit() else "DANGLING"
        facts.append((f["source"], f["relation"], f["target"], f["valid_from"], f["valid_until"], f["status"],
                      f["sentence"], f["date_source"], titles.get(f["document_id"], "DANGLING"),
                      chunk_keys.get(f["chunk_id"], "DANGLING") if f["chunk_id"] is not None else None, fact_doc, n))
    graph_diagrams = sorted((dgm(r["diagram_id"]), titles.get(r["d"], "DANGLING"), r["n"])
                            for r in svc.graph_store.query(DIAGRAM_NODES, {"c": coll.id}))
    return {
        "collection": (coll.description, coll.metadata_schema, coll.embedding_model, coll.embedding_dim,
                       coll.document_count, coll.chunk_count),
        "documents": {d["title"]: (d["content"], d["content_hash"], d["metadata"], d["status"], d["version"],
                                   d["chunk_count"], d["created_at"], d["graph_status"], d["graph_facts"])
                      for d in docs},
        "chunks": {chunk_keys[c["id"]]: (c["text"], c["char_start"], c["char_end"], list(c["heading_path"]),
                                         chunk_meta(c["metadata"]), c["embedding"], c["embedding_dim"])
                   for c in chunks},
        "diagrams": views,
        "graph_diagrams": graph_diagrams,
        "facts": sorted(facts, key=repr),
        "entities": sorted((e["key"], e["name"], e["type"]) for e in svc.graph_store.query(ENTITIES, {"c": coll.id})),
        "crawls": sorted((c["root_url"], c["status"], repr(c["params"]), c["url"], c["page_status"],
                          titles.get(c["document_id"], "DANGLING")) for c in crawls),
    }
